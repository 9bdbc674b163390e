"""The call recording the audio metrics read: one file, or separate per-speaker tracks merged onto one timeline.

Where it comes from, by ``config.audio`` (auto: the reply first, then the case):

- the reply: ``trusys.audio_tracks: {agent: REF, customer: REF}``, else ``trusys.audio``;
- the case: ``metadata.audio_tracks: {agent: REF, customer: REF}``, else ``audio`` (or ``metadata.audio_path``).

Tracks come before the single recording of the same side, since they say who speaks. Each track is any
media reference (path, ``file://``, ``data:``, ``{base64, mime}``, URL) loaded through the media contract
(``agentunit.media.load_ref``: once per case, the suite's size and time limits, a MediaError naming
``trusys.audio_tracks.agent`` and so on).

Merging (``merge_tracks``), so that every speaker-dependent metric reads the tracks exactly as a stereo call:

1. decode each track; a track with several channels is averaged to one;
2. bring both to the higher of the two sample rates (``agentunit.audio.vad.resample``: linear interpolation
   up; the lower-rate track keeps its band);
3. align them on a common start (sample 0 of each track is time 0 of the call) and pad the shorter one
   with silence to the longer one's length;
4. write one 16-bit PCM WAV with each speaker's track on the channel ``config.channels`` gives it (default
   agent 0, customer 1; channels no speaker uses are silent), hashed with sha256 like any medium.

The merged recording is kept in the case's media cache, so the metrics of a case merge the tracks once.
A tracks object without one of the two speakers gives the reason (the metric is not measured); a value
that is not ``{agent: REF, customer: REF}`` raises AudioInputError naming the field.
"""

from __future__ import annotations

import hashlib
import io
import wave
from collections.abc import Mapping
from typing import Any

import numpy as np

from agentunit.audio.decode import AudioInputError, decode_audio
from agentunit.audio.turns import AGENT, CUSTOMER
from agentunit.audio.vad import resample

__all__ = ["TRACKS_KEY", "call_recording", "merge_tracks", "tracks_value"]

TRACKS_KEY = "audio_tracks"
_SIDES = (("reply", "trusys.audio", f"trusys.{TRACKS_KEY}"), ("input", "audio", f"metadata.{TRACKS_KEY}"))


def tracks_value(case: Any, outcome: Any, where: str) -> Any:
    """The ``audio_tracks`` object of the reply (``trusys.audio_tracks``, which the engine keeps in
    ``outcome.metadata``) or of the case (``metadata.audio_tracks``), or None."""
    holder = getattr(outcome, "metadata", None) if where == "reply" else getattr(case, "metadata", None)
    return holder.get(TRACKS_KEY) if isinstance(holder, Mapping) else None


def call_recording(case: Any, outcome: Any, options: Any) -> tuple[str, Any] | str | None:
    """The call's recording as ``(field, Media)`` — tracks merged into one multi-channel WAV (see the module
    doc) — the reason it cannot be used as a string (tracks without a speaker), or None when there is none.
    Raises MediaError or AudioInputError naming the field for a reference that is present but unusable."""
    from agentunit.media import media_of

    for where, single, tracks_field in _SIDES:
        if options.audio not in ("auto", where):
            continue
        tracks = tracks_value(case, outcome, where)
        if tracks is not None:
            return merge_tracks(case, outcome, tracks, tracks_field, where, options.channels)
        found = media_of(case, outcome, "audio", where)
        if found:
            return single, found[0]
    return None


def merge_tracks(case: Any, outcome: Any, tracks: Any, field: str, role: str,
                 channels: Mapping[str, int]) -> tuple[str, Any] | str:
    """``(field, Media)``: the agent's and the customer's tracks as one WAV, each on its ``channels``
    index, aligned on a common start (see the module doc); the reason as a string when a track is missing."""
    from agentunit.media import Media, MediaRef, load_ref, reference_shape

    if not isinstance(tracks, Mapping):
        raise AudioInputError(f"{field} must be {{agent: REF, customer: REF}} (one recording per speaker), "
                              f"got {type(tracks).__name__}")
    unknown = sorted(str(k) for k in tracks if k not in (AGENT, CUSTOMER))
    if unknown:
        raise AudioInputError(f"{field} has unknown key(s) {', '.join(unknown)}; it holds one recording per "
                              "speaker: {agent: REF, customer: REF}")
    missing = [s for s in (AGENT, CUSTOMER) if tracks.get(s) is None]
    if missing:
        return (f"{field} has no {' and no '.join(missing)} track — give {{agent: REF, customer: REF}}, one "
                "recording per speaker")
    for speaker in (AGENT, CUSTOMER):
        problem = reference_shape(tracks[speaker])
        if problem:
            raise AudioInputError(f"{field}.{speaker} {problem}")
    cache = getattr(outcome, "media_cache", None)
    key = (role, f"{field}#merged", tuple(sorted(channels.items())))
    if cache is not None and key in cache:
        return field, cache[key]
    loaded = {s: load_ref(case, outcome, MediaRef(f"{field}.{s}", tracks[s], "audio", role))
              for s in (AGENT, CUSTOMER)}
    pcm = {s: decode_audio(m.data, m.mime, f"{field}.{s}") for s, m in loaded.items()}
    rate = max(p.rate for p in pcm.values())
    mono = {s: resample(p.samples.mean(axis=1, dtype=np.float32), p.rate, rate) for s, p in pcm.items()}
    length = max(len(m) for m in mono.values())
    audio = np.zeros((length, max(channels.values()) + 1), dtype=np.float32)
    for speaker, samples in mono.items():
        audio[: len(samples), channels[speaker]] = samples
    data = _wav(audio, rate)
    source = ", ".join(f"{s}: {loaded[s].source}" for s in (AGENT, CUSTOMER))
    merged = Media("audio", "audio/wav", data, hashlib.sha256(data).hexdigest(), f"{field} ({source})", len(data))
    if cache is not None:
        cache[key] = merged
    return field, merged


def _wav(audio: np.ndarray, rate: int) -> bytes:
    """16-bit PCM WAV of float samples (frames, channels); the inverse of the decoder's scaling, so 16-bit
    tracks come back sample for sample."""
    ints = np.clip(np.round(audio * 32768.0), -32768, 32767).astype("<i2")
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as writer:
        writer.setnchannels(audio.shape[1])
        writer.setsampwidth(2)
        writer.setframerate(rate)
        writer.writeframes(ints.tobytes())
    return buffer.getvalue()
