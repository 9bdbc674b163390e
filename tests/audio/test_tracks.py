"""Separate per-speaker tracks (``trusys.audio_tracks`` / the case's ``metadata.audio_tracks``): read exactly as
the same call given as one stereo file, with tracks of different lengths and sample rates."""

import base64
import io
import wave

import numpy as np
import pytest

from agentunit import check
from agentunit.audio import clear_cache
from agentunit.media import MediaError

from .scenes import SCENARIOS

TIMING = ("audio-agent-response-time", "audio-talk-to-listen-ratio", "audio-interruption-handling",
          "audio-drop-out-rates")


def _channels(wav: bytes) -> tuple[np.ndarray, int]:
    with wave.open(io.BytesIO(wav), "rb") as reader:
        rate, count = reader.getframerate(), reader.getnchannels()
        ints = np.frombuffer(reader.readframes(reader.getnframes()), dtype="<i2").reshape(-1, count)
    return ints, rate


def _mono(ints: np.ndarray, rate: int) -> bytes:
    out = io.BytesIO()
    with wave.open(out, "wb") as writer:
        writer.setnchannels(1)
        writer.setsampwidth(2)
        writer.setframerate(rate)
        writer.writeframes(ints.astype("<i2").tobytes())
    return out.getvalue()


def _ref(data: bytes) -> dict:
    return {"base64": base64.b64encode(data).decode(), "mime": "audio/wav"}


def _tracks(scene, **kwargs) -> tuple[bytes, dict]:
    """The scene as one stereo WAV and as two mono tracks {agent, customer} split from it."""
    stereo = scene.wav(**kwargs)
    ints, rate = _channels(stereo)
    return stereo, {"agent": _mono(ints[:, 0], rate), "customer": _mono(ints[:, 1], rate)}


def _results(**fields) -> dict:
    clear_cache()
    output = fields.pop("output", "")
    return {name: check(output, name, **fields) for name in TIMING}


def _timings(results: dict) -> dict:
    return {"gaps": [(g["customer_end"], g["agent_start"]) for g in results[TIMING[0]].detail["gaps"]],
            "turns": results[TIMING[0]].detail["turns"],
            "ratio": results[TIMING[1]].value,
            "barge_ins": [(b["at"], b["interrupter"], b["overlap_s"], b["yielded"])
                          for b in results[TIMING[2]].detail["barge_ins"]],
            "drop_out": (results[TIMING[3]].value, results[TIMING[3]].detail["dead_air"],
                         results[TIMING[3]].detail["truncated_turns"])}


@pytest.mark.parametrize("name", ["calm", "yielding", "talk-over", "dead-air", "unanswered", "truncated"])
def test_tracks_give_the_same_timings_as_the_stereo_call(name):
    scene = SCENARIOS[name]
    stereo, tracks = _tracks(scene)
    as_stereo = _results(audio=stereo)
    as_tracks = _results(output={"output": "", "trusys": {"audio_tracks": {k: _ref(v) for k, v in tracks.items()}}})
    assert _timings(as_tracks) == _timings(as_stereo)
    assert as_tracks[TIMING[0]].detail["source"].startswith("trusys.audio_tracks: separate tracks")
    # the case's metadata.audio_tracks, and bytes as references, read the same
    from_case = _results(metadata={"audio_tracks": tracks})
    assert _timings(from_case) == _timings(as_stereo)
    assert from_case[TIMING[1]].detail["source"].startswith("metadata.audio_tracks")


def test_tracks_of_different_rates_and_lengths_align_on_their_common_start():
    scene = SCENARIOS["yielding"]
    stereo, _ = _tracks(scene)
    ints, rate = _channels(stereo)
    customer_end = max(line.end for line in scene.script.lines if line.speaker == "customer")
    # the customer's track stops 0.3 s after their last words and is recorded at 16 kHz
    short = ints[: int((customer_end + 0.3) * rate), 1].astype(np.float64)
    grid = np.arange(0, len(short), rate / 16_000)
    customer16 = np.round(np.interp(grid, np.arange(len(short)), short))
    tracks = {"agent": _mono(ints[:, 0], rate), "customer": _mono(customer16, 16_000)}
    as_stereo = _timings(_results(audio=stereo))
    as_tracks = _timings(_results(output={"output": "", "trusys": {"audio_tracks": tracks}}))
    assert len(as_tracks["gaps"]) == len(as_stereo["gaps"]) == len(scene.gaps)
    for (ce1, as1), (ce2, as2) in zip(as_tracks["gaps"], as_stereo["gaps"], strict=True):
        assert abs(ce1 - ce2) <= 0.05 and abs(as1 - as2) <= 0.05
    for found, truth in zip(as_tracks["barge_ins"], scene.barge_ins, strict=True):
        assert found[1] == truth[0] and abs(found[0] - truth[1]) <= 0.3 and found[3] == truth[3]
    assert as_tracks["ratio"] == pytest.approx(as_stereo["ratio"], rel=0.05)
    # the call lasts as long as the longer track: the agent's, so its ending is not read as truncated
    assert as_tracks["drop_out"] == as_stereo["drop_out"]


def test_tracks_follow_the_configured_channels():
    scene = SCENARIOS["calm"]
    stereo, tracks = _tracks(scene)
    clear_cache()
    swapped = check({"output": "", "trusys": {"audio_tracks": tracks}},
                    {"metric": "audio-agent-response-time", "config": {"channels": {"agent": 1, "customer": 0}}})
    clear_cache()
    plain = check("", "audio-agent-response-time", audio=stereo)
    assert swapped.value == plain.value and swapped.detail["gaps"] == plain.detail["gaps"]
    # the tracks are named by speaker: handing them over the other way round swaps who answers whom
    clear_cache()
    crossed = check({"output": "", "trusys": {"audio_tracks": {"agent": tracks["customer"],
                                                               "customer": tracks["agent"]}}},
                    "audio-agent-response-time")
    assert crossed.detail["gaps"] != plain.detail["gaps"]


def test_tracks_come_before_a_mono_recording_of_the_same_reply():
    scene = SCENARIOS["calm"]
    _, tracks = _tracks(scene)
    mono = scene.wav(channels=1)
    clear_cache()
    result = check({"output": "", "trusys": {"audio": mono, "audio_tracks": tracks}}, "audio-talk-to-listen-ratio")
    assert result.value is not None and result.detail["source"].startswith("trusys.audio_tracks")
    assert result.value == pytest.approx(scene.talk_ratio, rel=0.15)


def test_a_missing_track_is_not_measured_naming_the_field():
    _, tracks = _tracks(SCENARIOS["calm"])
    only_agent = check({"output": "", "trusys": {"audio_tracks": {"agent": tracks["agent"]}}},
                       "audio-agent-response-time")
    assert only_agent.value is None and only_agent.error is None
    assert "trusys.audio_tracks has no customer track" in only_agent.reason
    from_case = check("", "audio-language", metadata={"audio_tracks": {"customer": tracks["customer"],
                                                                        "agent": None}})
    assert from_case.value is None and "metadata.audio_tracks has no agent track" in from_case.reason


def test_malformed_or_unreadable_tracks_error_naming_the_field():
    _, tracks = _tracks(SCENARIOS["calm"])
    wrong = check({"output": "", "trusys": {"audio_tracks": [tracks["agent"], tracks["customer"]]}},
                  "audio-talk-to-listen-ratio")
    assert wrong.error is not None and "trusys.audio_tracks must be {agent: REF, customer: REF}" in wrong.error
    extra = check({"output": "", "trusys": {"audio_tracks": {**tracks, "supervisor": tracks["agent"]}}},
                  "audio-talk-to-listen-ratio")
    assert extra.error is not None and "unknown key(s) supervisor" in extra.error
    number = check({"output": "", "trusys": {"audio_tracks": {**tracks, "customer": 3}}},
                   "audio-talk-to-listen-ratio")
    assert number.error is not None and "trusys.audio_tracks.customer" in number.error
    missing = check({"output": "", "trusys": {"audio_tracks": {**tracks, "agent": "no/such/agent.wav"}}},
                    "audio-talk-to-listen-ratio")
    assert missing.error is not None and "trusys.audio_tracks.agent" in missing.error \
        and "file not found" in missing.error


def test_merged_tracks_are_kept_once_per_case():
    from types import SimpleNamespace

    from agentunit.audio.call import CallOptions
    from agentunit.audio.recording import call_recording

    _, tracks = _tracks(SCENARIOS["calm"])
    case = SimpleNamespace(metadata={}, media_dir=None)
    outcome = SimpleNamespace(metadata={"audio_tracks": tracks}, media=[], media_cache={})
    name, first = call_recording(case, outcome, CallOptions())
    _, second = call_recording(case, outcome, CallOptions())
    assert name == "trusys.audio_tracks" and first is second
    ints, rate = _channels(first.data)
    assert rate == 8000 and ints.shape[1] == 2
    assert np.array_equal(ints[:, 0], _channels(tracks["agent"])[0][:, 0])  # 16-bit tracks come back unchanged
    broken = SimpleNamespace(metadata={"audio_tracks": {**tracks, "agent": b"not audio"}}, media=[], media_cache={})
    with pytest.raises(MediaError, match=r"trusys\.audio_tracks\.agent"):
        call_recording(case, broken, CallOptions())
