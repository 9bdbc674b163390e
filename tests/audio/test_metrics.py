"""The audio metrics on composed calls whose truth is the clip placement (tests/data/audio/calls.py)."""

import base64

import pytest

from agentunit import check
from agentunit.errors import MetricConfigError
from agentunit.metrics.registry import lookup

from .scenes import SCENARIOS, Script

TOLERANCE_S = 0.3


def _on(name, spec, **kwargs):
    return check("", spec, audio=SCENARIOS[name].wav(**kwargs))


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_response_time_is_within_0_3_s_of_the_placed_gaps(name):
    scene = SCENARIOS[name]
    result = _on(name, "audio-agent-response-time")
    gaps = [g["gap_ms"] / 1000 for g in result.detail["gaps"]]
    assert len(gaps) == len(scene.gaps)
    assert all(abs(g - t) <= TOLERANCE_S for g, t in zip(gaps, scene.gaps, strict=True)), (gaps, scene.gaps)
    assert abs(result.value / 1000 - sum(scene.gaps) / len(scene.gaps)) <= TOLERANCE_S
    assert result.detail["max_ms"] == max(g["gap_ms"] for g in result.detail["gaps"]) and result.passed is None


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_talk_ratio_is_within_15_percent_of_the_placed_speech(name):
    result = _on(name, "audio-talk-to-listen-ratio")
    assert result.value == pytest.approx(SCENARIOS[name].talk_ratio, rel=0.15)


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_barge_ins_match_the_placed_overlaps(name):
    scene = SCENARIOS[name]
    result = _on(name, "audio-interruption-handling")
    found = result.detail["barge_ins"]
    assert [e["interrupter"] for e in found] == [b[0] for b in scene.barge_ins]
    for event, (_, at, overlap, yielded) in zip(found, scene.barge_ins, strict=True):
        assert abs(event["at"] - at) <= TOLERANCE_S and abs(event["overlap_s"] - overlap) <= TOLERANCE_S
        assert event["yielded"] is yielded
    handled = sum(1 for b in scene.barge_ins if b[0] == "customer" and b[3])
    assert result.value == (handled / len(scene.barge_ins) if scene.barge_ins else 1.0)
    assert result.passed is (result.value == 1.0)


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_drop_outs_match_the_placed_dead_air_endings_and_cuts(name):
    scene = SCENARIOS[name]
    result = _on(name, "audio-drop-out-rates")
    lengths = [d["length_s"] for d in result.detail["dead_air"]]
    assert len(lengths) == len(scene.dead_air)
    assert all(abs(a - b) <= TOLERANCE_S for a, b in zip(lengths, scene.dead_air, strict=True))
    assert result.detail["ended_without_agent_reply"] is scene.unanswered
    assert len(result.detail["truncated_turns"]) == scene.truncated
    dropped = bool(scene.dead_air or scene.unanswered or scene.truncated)
    assert result.value == (0.0 if dropped else 1.0) and result.passed is not dropped


@pytest.mark.parametrize("rate", [16000, 44100, 48000])
def test_other_sample_rates_give_the_same_timings(rate):
    scene = SCENARIOS["yielding"]
    result = _on("yielding", "audio-agent-response-time", rate=rate)
    gaps = [g["gap_ms"] / 1000 for g in result.detail["gaps"]]
    assert all(abs(g - t) <= TOLERANCE_S for g, t in zip(gaps, scene.gaps, strict=True))


def test_a_louder_line_still_gives_the_truth():
    result = _on("dead-air", "audio-agent-response-time", noise_db=-35.0, seed=3)
    gaps = [g["gap_ms"] / 1000 for g in result.detail["gaps"]]
    assert all(abs(g - t) <= TOLERANCE_S for g, t in zip(gaps, SCENARIOS["dead-air"].gaps, strict=True))


def test_verdicts_against_threshold_and_band():
    assert _on("calm", {"metric": "audio-agent-response-time", "threshold": 1500}).passed is True
    assert _on("calm", {"metric": "audio-agent-response-time", "threshold": 500}).passed is False
    ratio = _on("talk-over", "audio-talk-to-listen-ratio")  # ≈ 1.88, inside the default [0.5, 2.0]
    assert ratio.passed is True and ratio.detail["band"] == [0.5, 2.0]
    assert _on("talk-over", {"metric": "audio-talk-to-listen-ratio", "config": {"band": [0.5, 1.5]}}).passed is False
    assert _on("talk-over", {"metric": "audio-talk-to-listen-ratio", "threshold": 1.5}).passed is False
    lenient = _on("talk-over", {"metric": "audio-interruption-handling", "config": {"agent_barge_ins": False}})
    assert lenient.value == 0.0 and lenient.detail["agent_barge_ins"] == 1
    long_wait = _on("unanswered", {"metric": "audio-drop-out-rates",
                                   "config": {"dead_air_s": 5, "checks": ["dead_air"]}})
    assert long_wait.value == 1.0 and long_wait.detail["ended_without_agent_reply"] is True


def test_the_reply_recording_is_read_like_the_case_recording():
    data = SCENARIOS["calm"].wav()
    reply = {"output": "", "trusys": {"audio": {"base64": base64.b64encode(data).decode(), "mime": "audio/wav"}}}
    result = check(reply, "audio-agent-response-time")
    assert result.detail["source"].startswith("trusys.audio: 2-channel") and len(result.detail["gaps"]) == 4


def test_mono_without_labels_is_not_measured_except_dead_air():
    mono = SCENARIOS["dead-air"].wav(channels=1)
    for name in ("audio-agent-response-time", "audio-talk-to-listen-ratio", "audio-interruption-handling"):
        result = check("", name, audio=mono)
        assert result.value is None and result.error is None and "mono recording" in result.reason
    drops = check("", "audio-drop-out-rates", audio=mono)
    assert drops.value == 0.0 and len(drops.detail["dead_air"]) == 1
    assert drops.detail["ended_without_agent_reply"] is None and "not checked" in drops.reason


def test_transcript_segments_time_a_call_without_a_recording():
    script = Script()
    script.say("customer", "customer_problem", at=0.2)
    script.say("agent", "agent_confirm", after=0.75)
    reply = {"output": "", "trusys": {"transcript": script.transcript()}}
    result = check(reply, "audio-agent-response-time")
    assert result.value == pytest.approx(750.0) and result.detail["source"] == "trusys.transcript segments"
    assert check(reply, "audio-drop-out-rates").detail["truncation_checked"] is False


def test_nothing_to_time_and_bad_input_say_which_field():
    nothing = check("hi", "audio-agent-response-time")
    assert nothing.value is None and "no call recording" in nothing.reason
    bad = check({"output": "", "trusys": {"transcript": [{"speaker": "agent", "start": -1, "end": 2}]}},
                "audio-talk-to-listen-ratio")
    assert bad.error is not None and "trusys.transcript[0].start" in bad.error
    only_agent = check({"output": "", "trusys": {"transcript": [{"speaker": "agent", "start": 0, "end": 2}]}},
                       "audio-talk-to-listen-ratio")
    assert only_agent.value is None and "customer never speaks" in only_agent.reason


@pytest.mark.parametrize("config,key", [({"channels": {"agent": 0}}, "config.channels"),
                                        ({"channels": {"agent": 1, "customer": 1}}, "config.channels"),
                                        ({"aggressiveness": 5}, "config.aggressiveness"),
                                        ({"frame_ms": 25}, "config.frame_ms"),
                                        ({"audio": "both"}, "config.audio"),
                                        ({"min_overlap_s": -1}, "config.min_overlap_s"),
                                        ({"band": [2, 1]}, "config.band")])
def test_bad_config_is_a_suite_error_naming_the_key(config, key):
    with pytest.raises(MetricConfigError, match=key):
        check("", {"metric": "audio-talk-to-listen-ratio", "config": config})


def test_registry_names():
    for name in ("audio-agent-response-time", "audio-talk-to-listen-ratio", "audio-interruption-handling",
                 "audio-drop-out-rates", "audio_transcription_quality"):
        info, _ = lookup(name)
        assert info.name == name and info.family == "audio"
    assert lookup("audio-transcription-quality")[0].cls.__name__ == "AudioTranscriptionMetric"
    assert lookup("audio-agent-response-time")[0].kind == "raw"


# -- audio_transcription_quality --------------------------------------------------------------------

def test_transcription_quality_is_one_minus_wer_with_jiwer():
    exact = check("Hi, I was charged TWICE.", {"metric": "audio_transcription_quality",
                                                 "value": "hi i was charged twice"})
    assert exact.value == 1.0 and exact.detail["wer"] == 0.0 and exact.passed
    one_wrong = check("hi i was charged thrice", {"metric": "audio_transcription_quality",
                                                   "value": "hi i was charged twice"})
    assert one_wrong.detail["wer"] == pytest.approx(0.2) and one_wrong.value == pytest.approx(0.8)
    assert one_wrong.detail["substitutions"] == 1 and 0 < one_wrong.detail["cer"] < 0.3
    garbage = check("a b c d e f g h i j k", {"metric": "audio_transcription_quality", "value": "hello there"})
    assert garbage.value == 0.0 and garbage.detail["wer"] > 1 and not garbage.passed
    by_cer = check("hi i was charged thrice", {"metric": "audio_transcription_quality",
                                              "value": "hi i was charged twice", "config": {"use_wer": False}})
    assert by_cer.value == pytest.approx(1 - by_cer.detail["cer"], abs=1e-4)


def test_transcription_reads_trusys_transcript_segments_in_time_order():
    reply = {"output": "the agent's answer", "trusys": {"transcript": [
        {"speaker": "agent", "start": 3.0, "end": 4.0, "text": "how can I help"},
        {"speaker": "customer", "start": 0.0, "end": 2.0, "text": "hello there"}]}}
    result = check(reply, "audio_transcription_quality", expected_output="hello there how can I help")
    assert result.value == 1.0 and result.detail["transcript_source"] == "trusys.transcript"
    forced = check(reply, {"metric": "audio_transcription_quality", "config": {"source": "output"}},
                   expected_output="hello there how can I help")
    assert forced.value < 0.5 and forced.detail["transcript_source"] == "output"


def test_transcription_without_a_transcript_or_reference_is_not_measured():
    empty = check("", "audio_transcription_quality", expected_output="hello")
    assert empty.value is None and "speech recognition" in empty.reason
    missing = check("hello", "audio_transcription_quality")
    assert missing.value is None and "expected_output" in missing.reason
    bad = check({"output": "", "trusys": {"transcript": [{"speaker": "agent"}]}}, "audio_transcription_quality",
                expected_output="hello")
    assert "trusys.transcript[0]" in bad.error
    from agentunit.audio.metrics import AudioTranscriptionMetric
    assert AudioTranscriptionMetric().name == "audio_transcription_quality"


def test_a_suite_run_scores_a_recorded_call(tmp_path):
    from agentunit.api import evaluate

    (tmp_path / "call.wav").write_bytes(SCENARIOS["yielding"].wav())
    run = evaluate({"name": "voice", "target": {"type": "python", "function": "tests.audio.test_metrics:_agent"},
                    "cases": [{"prompt": "call 1", "audio": str(tmp_path / "call.wav")}],
                    "metrics": [{"metric": "audio-agent-response-time", "threshold": 1500},
                                {"metric": "audio-interruption-handling"}, "audio-drop-out-rates"]})
    results = {m["metric"]: m for m in run.cases[0]["metrics"]}
    assert results["audio-agent-response-time"]["passed"] is True
    assert results["audio-interruption-handling"]["value"] == 1.0 and results["audio-drop-out-rates"]["passed"]


def _agent(prompt):
    return "ok"
