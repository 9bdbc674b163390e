import hashlib

import pytest

from agentunit.audio import AudioInputError, CallOptions, call_of, clear_cache, turns_from_recording
from agentunit.audio import call as call_module
from agentunit.core.envelope import parse_reply
from agentunit.datasets.base import DatasetCase

from .scenes import SCENARIOS


def _case(audio=None):
    return DatasetCase(id="c", query="", audio=audio)


def test_stereo_turns_are_cached_per_recording_and_settings(monkeypatch):
    clear_cache()
    data = SCENARIOS["calm"].wav()
    sha = hashlib.sha256(data).hexdigest()
    decoded = []
    real = call_module.decode_audio
    monkeypatch.setattr(call_module, "decode_audio", lambda *a: decoded.append(1) or real(*a))
    first = turns_from_recording(data, "audio/wav", sha, CallOptions())
    assert turns_from_recording(data, "audio/wav", sha, CallOptions()) is first and len(decoded) == 1
    turns_from_recording(data, "audio/wav", sha, CallOptions(join_gap_s=0.5))
    assert len(decoded) == 2


def test_channels_config_says_which_channel_is_the_agent():
    data = SCENARIOS["calm"].wav()
    sha = hashlib.sha256(data).hexdigest()
    default, _, _ = turns_from_recording(data, "audio/wav", sha, CallOptions())
    swapped, _, _ = turns_from_recording(data, "audio/wav", sha, CallOptions(channels={"agent": 1, "customer": 0}))
    assert default[0].speaker == "agent" and swapped[0].speaker == "customer"
    assert [(t.start, t.end) for t in default] == [(t.start, t.end) for t in swapped]
    with pytest.raises(AudioInputError, match=r"config\.channels\.customer is 2 but audio has 2 channels"):
        turns_from_recording(data, "audio/wav", sha, CallOptions(channels={"agent": 0, "customer": 2}))


def test_mono_needs_transcript_labels_or_gives_speech_of_unknown_speakers():
    scene = SCENARIOS["dead-air"]
    mono = scene.wav(channels=1)
    reason = call_of(_case(mono), parse_reply("ok"), CallOptions())
    assert isinstance(reason, str) and "mono recording" in reason and "diarization" in reason
    speech = call_of(_case(mono), parse_reply("ok"), CallOptions(), mono=True)
    assert {t.speaker for t in speech.turns} == {"unknown"} and "speakers unknown" in speech.source
    labelled = parse_reply({"output": "ok", "trusys": {"transcript": scene.script.transcript()}})
    call = call_of(_case(mono), labelled, CallOptions())
    assert call.source == "trusys.transcript segments" and call.duration_s is None
    assert [t.start for t in call.turns] == sorted(line.start for line in scene.script.lines)


def test_the_reply_recording_comes_before_the_case_recording_unless_config_picks():
    calm, dead = SCENARIOS["calm"].wav(), SCENARIOS["dead-air"].wav()
    import base64
    reply = parse_reply({"output": "ok", "trusys": {"audio": {"base64": base64.b64encode(dead).decode(),
                                                              "mime": "audio/wav"}}})
    assert call_of(_case(calm), reply, CallOptions()).source.startswith("trusys.audio")
    assert call_of(_case(calm), reply, CallOptions(audio="input")).source.startswith("audio:")
    assert "no call recording" in call_of(_case(), parse_reply("ok"), CallOptions())
