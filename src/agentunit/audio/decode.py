"""Decode a recording to PCM samples: WAV with the standard library, other formats with soundfile.

WAV (8/16/24/32-bit integer PCM) needs nothing beyond numpy. 32/64-bit float WAV, FLAC, OGG Vorbis/Opus
and MP3 are read through ``soundfile`` (libsndfile, in the ``audio`` extra). AAC, M4A and WebM/MKA are
not decoded: they need ffmpeg, which agentunit does not use yet — convert such calls to WAV or FLAC.

A WAV file's header is checked before either decoder reads it (``_check_wav_header``): a sample rate or
channel count of 0, or a ``data`` chunk that claims more bytes than the file holds (a truncated file), is
an ``AudioInputError`` about the file rather than a division by zero in a metric or a short recording
silently measured as if it were the whole call.
"""

from __future__ import annotations

import io
import struct
import wave
from dataclasses import dataclass

import numpy as np

__all__ = ["AudioInputError", "Pcm", "decode_audio"]

_NEEDS_FFMPEG = ("audio/aac", "audio/mp4", "audio/webm", "audio/x-matroska")


class AudioInputError(ValueError):
    """An audio input a metric cannot use; the message names the field and the fix."""


@dataclass(frozen=True, slots=True)
class Pcm:
    """Decoded audio: ``samples`` float32 in [-1, 1] shaped (frames, channels), at ``rate`` Hz."""

    samples: np.ndarray
    rate: int

    @property
    def channels(self) -> int:
        return int(self.samples.shape[1])

    @property
    def duration_s(self) -> float:
        return self.samples.shape[0] / self.rate

    def channel(self, index: int) -> np.ndarray:
        """One channel as a 1-D float32 array."""
        return self.samples[:, index]


def decode_audio(data: bytes, mime: str = "audio/wav", field: str = "audio") -> Pcm:
    """Decode ``data`` (of type ``mime``) to PCM: integer WAV by the stdlib ``wave`` module, anything
    else libsndfile reads through ``soundfile``. Raises AudioInputError naming ``field`` otherwise."""
    if mime in _NEEDS_FFMPEG:
        raise AudioInputError(f"{field}: {mime} is not decoded (it needs ffmpeg, not used yet) — "
                              "convert the recording to WAV or FLAC")
    if data[:4] in (b"RIFF", b"RIFX"):
        _check_wav_header(data, field)
        try:
            return _decode_wav(data)
        except (wave.Error, EOFError, ValueError):
            pass  # float or extensible WAV: soundfile reads those
    return _decode_soundfile(data, mime, field)


def _check_wav_header(data: bytes, field: str) -> None:
    """Refuse a WAV file whose header cannot describe its samples: walk the RIFF chunks after the ``WAVE``
    form type (each chunk: 4-byte id, 4-byte size in the file's byte order, data padded to an even length);
    in ``fmt `` the channel count and sample rate must be > 0; the ``data`` chunk's size must not exceed the
    bytes after its header. Anything else unusual (another form type, no ``data`` chunk, a chunk running past
    the end before ``data``) is left to the decoders, which report it their way."""
    if data[8:12] != b"WAVE":
        return
    order = "<" if data[:4] == b"RIFF" else ">"
    offset = 12
    while offset + 8 <= len(data):
        chunk, size = data[offset:offset + 4], struct.unpack(f"{order}I", data[offset + 4:offset + 8])[0]
        body = offset + 8
        if chunk == b"fmt " and size >= 8 and body + 8 <= len(data):
            channels, rate = struct.unpack(f"{order}HI", data[body + 2:body + 8])
            if rate == 0 or channels == 0:
                what = "sample rate of 0 Hz" if rate == 0 else "channel count of 0"
                raise AudioInputError(f"{field}: the WAV header gives a {what}, so its samples cannot be timed — "
                                      "the file is damaged; write it again with its real format")
        elif chunk == b"data":
            held = len(data) - body
            if size > held:
                raise AudioInputError(
                    f"{field}: the WAV header says the recording has {size:,} bytes of samples but the file "
                    f"holds {held:,} after it — the file is truncated (or its writer never filled in the sizes); "
                    "measuring what is there would judge a call that is not all there: write it again complete")
            return
        offset = body + size + (size & 1)


def _decode_wav(data: bytes) -> Pcm:
    with wave.open(io.BytesIO(data), "rb") as reader:
        width, channels, rate = reader.getsampwidth(), reader.getnchannels(), reader.getframerate()
        raw = reader.readframes(reader.getnframes())
    if width == 1:
        samples = (np.frombuffer(raw, dtype=np.uint8).astype(np.float32) - 128.0) / 128.0
    elif width == 3:
        bytes3 = np.frombuffer(raw, dtype=np.uint8).reshape(-1, 3)
        ints = (bytes3[:, 0].astype(np.int32) | (bytes3[:, 1].astype(np.int32) << 8)
                | (bytes3[:, 2].astype(np.int32) << 16))
        samples = (np.where(ints >= 1 << 23, ints - (1 << 24), ints) / float(1 << 23)).astype(np.float32)
    elif width in (2, 4):
        dtype = "<i2" if width == 2 else "<i4"
        samples = (np.frombuffer(raw, dtype=dtype) / float(1 << (8 * width - 1))).astype(np.float32)
    else:
        raise ValueError(f"{width}-byte samples")
    frames = len(samples) // channels
    return Pcm(samples[: frames * channels].reshape(frames, channels), rate)


def _decode_soundfile(data: bytes, mime: str, field: str) -> Pcm:
    try:
        import soundfile
    except ImportError:
        raise AudioInputError(f"{field}: {mime} needs soundfile to decode — pip install 'agentunit[audio]', "
                              "or give integer PCM WAV") from None
    try:
        samples, rate = soundfile.read(io.BytesIO(data), dtype="float32", always_2d=True)
    except Exception as exc:  # libsndfile reports unreadable data as RuntimeError/LibsndfileError
        raise AudioInputError(f"{field}: cannot decode {mime} ({exc}) — give WAV, FLAC, OGG or MP3") from None
    return Pcm(samples, int(rate))
