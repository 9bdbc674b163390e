"""A call's speaker turns, from a stereo recording (voice activity per channel) or transcript segments.

Sources, in order: the recording (the reply's ``trusys.audio_tracks`` or ``trusys.audio``, else the case's
``metadata.audio_tracks`` or ``audio``; ``config.audio`` picks one; agentunit.audio.recording merges separate
per-speaker tracks into one recording on a common start) when it has a channel per speaker
(``config.channels``, default agent 0 = left, customer 1);
else ``trusys.transcript`` segments ``{speaker, start, end, text}``. A mono recording without speaker
labels gives no turns: no diarization model ships with its weights. Turns found by voice activity are
cached per recording (sha256) and settings, so the four timing metrics of a case decode and scan it once.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from agentunit.audio.decode import AudioInputError, decode_audio
from agentunit.audio.turns import AGENT, CUSTOMER, UNKNOWN, Turn, join_turns, turns_from_transcript
from agentunit.audio.vad import VadSettings, smooth_frames, speech_segments, voice_frames

__all__ = ["Call", "CallOptions", "call_of", "clear_cache", "turns_from_recording"]

_CACHE: OrderedDict[tuple, tuple[list[Turn], float, int] | str] = OrderedDict()
_CACHE_SIZE = 128


@dataclass(frozen=True, slots=True)
class CallOptions:
    """Where a call's turns come from: ``audio`` (auto, reply, input), ``channels`` (speaker → channel
    index), ``speakers`` (speaker → transcript label), the voice-activity ``vad`` settings and
    ``join_gap_s`` (a speaker's pauses shorter than this, with the other silent, stay in one turn)."""

    audio: str = "auto"
    channels: Mapping[str, int] = field(default_factory=lambda: {AGENT: 0, CUSTOMER: 1})
    speakers: Mapping[str, str] | None = None
    vad: VadSettings = field(default_factory=VadSettings)
    join_gap_s: float = 1.0


@dataclass(frozen=True, slots=True)
class Call:
    """Turns of a call, the recording's length (None for a transcript) and where the turns came from."""

    turns: list[Turn]
    duration_s: float | None
    source: str

    def detail(self) -> dict[str, Any]:
        return {"source": self.source, "duration_s": None if self.duration_s is None else round(self.duration_s, 3),
                "turns": [t.to_dict() for t in self.turns]}


def clear_cache() -> None:
    """Forget the turns found so far (benchmarks time the work itself)."""
    _CACHE.clear()


def turns_from_recording(data: bytes, mime: str, sha256: str, options: CallOptions, field: str = "audio",
                         mono: bool = False) -> tuple[list[Turn], float, int] | str:
    """(turns, duration in s, channel count) of a recording with one speaker per channel: WebRTC VAD on
    each speaker's channel, hangover-smoothed, joined into turns. A mono recording gives the reason as
    a string, or with ``mono`` its speech as turns of speaker ``unknown``. Raises AudioInputError when a
    configured channel does not exist."""
    key = (sha256, tuple(sorted(options.channels.items())), options.vad, options.join_gap_s, mono)
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    pcm = decode_audio(data, mime, field)
    channels = dict(options.channels)
    if pcm.channels < 2 and mono:
        channels = {UNKNOWN: 0}
    elif pcm.channels < 2:
        reason = (f"{field} is a mono recording and the reply has no trusys.transcript segments with speaker "
                  "labels; give one speaker per channel (config.channels) or {speaker, start, end} segments — "
                  "no diarization model ships")
        _remember(key, reason)
        return reason
    settings, segments = options.vad, {}
    for speaker, index in channels.items():
        if index >= pcm.channels:
            raise AudioInputError(f"config.channels.{speaker} is {index} but {field} has {pcm.channels} channels")
        frames = voice_frames(pcm.channel(index), pcm.rate, settings.aggressiveness, settings.frame_ms)
        frames = smooth_frames(frames, settings.frames(settings.hangover_ms), settings.frames(settings.min_speech_ms))
        segments[speaker] = speech_segments(frames, settings.frame_ms / 1000.0)
    found = (join_turns(segments, options.join_gap_s), pcm.duration_s, pcm.channels)
    _remember(key, found)
    return found


def _remember(key: tuple, found: tuple[list[Turn], float, int] | str) -> None:
    _CACHE[key] = found
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)


def call_of(case: Any, outcome: Any, options: CallOptions, mono: bool = False) -> Call | str:
    """The call's turns (see the module doc), or the reason none can be found as a string. With ``mono``
    a mono recording without transcript segments gives turns of speaker ``unknown`` (speech, not who).
    Raises AudioInputError or MediaError naming the field for input that is present but unusable."""
    from agentunit.audio.recording import call_recording

    recording = call_recording(case, outcome, options)
    transcript = (getattr(outcome, "metadata", None) or {}).get("transcript")
    mono_reason = recording if isinstance(recording, str) else None
    if isinstance(recording, tuple):
        name, medium = recording
        found = turns_from_recording(medium.data, medium.mime, medium.sha256, options, name)
        if not isinstance(found, str):
            turns, duration, channels = found
            mapping = ", ".join(f"{s} {i}" for s, i in options.channels.items())
            how = (f"separate tracks on a common start, voice activity per track ({mapping})"
                   if name.endswith("audio_tracks")
                   else f"{channels}-channel recording, voice activity per channel ({mapping})")
            return Call(turns, duration, f"{name}: {how}")
        mono_reason = found
    if transcript is not None and not isinstance(transcript, str):
        turns = turns_from_transcript(transcript, options.speakers, options.join_gap_s)
        if not isinstance(turns, str):
            return Call(turns, None, "trusys.transcript segments")
        mono_reason = f"{mono_reason}; {turns}" if mono_reason else turns
    if mono_reason and mono and isinstance(recording, tuple):
        name, medium = recording
        turns, duration, _ = turns_from_recording(medium.data, medium.mime, medium.sha256, options, name, mono=True)
        return Call(turns, duration, f"{name}: mono recording, voice activity (speakers unknown)")
    if mono_reason:
        return mono_reason
    return ("no call recording (trusys.audio, trusys.audio_tracks or the case's audio) and no trusys.transcript "
            "segments {speaker, start, end, text}")
