"""Voice activity of one channel: WebRTC VAD on 16 kHz frames, smoothed, as speech segments in seconds."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["VAD_RATE", "VadSettings", "resample", "smooth_frames", "speech_segments", "voice_frames"]

VAD_RATE = 16_000
FRAME_MS = (10, 20, 30)


@dataclass(frozen=True, slots=True)
class VadSettings:
    """How speech is found: ``aggressiveness`` 0–3 (WebRTC's; 3 rejects the most noise), ``frame_ms``
    10/20/30, ``hangover_ms`` (a pause shorter than this stays inside the speech run) and
    ``min_speech_ms`` (shorter voiced runs are dropped as clicks and noise)."""

    aggressiveness: int = 2
    frame_ms: int = 30
    hangover_ms: float = 300.0
    min_speech_ms: float = 120.0

    def frames(self, ms: float) -> int:
        """How many frames ``ms`` milliseconds span (rounded)."""
        return round(ms / self.frame_ms)


def resample(samples: np.ndarray, rate: int, target: int = VAD_RATE) -> np.ndarray:
    """``samples`` at ``target`` Hz. Downsampling first low-passes at 0.45 × ``target`` (a 65-tap
    Hamming-windowed sinc, against aliasing), then keeps every n-th sample for an integer factor (48 → 16
    kHz) or interpolates linearly; upsampling interpolates linearly."""
    if rate == target:
        return samples
    if rate > target:
        samples = np.convolve(samples, _lowpass(0.45 * target / rate), mode="same").astype(np.float32)
        if rate % target == 0:
            return samples[:: rate // target]
    count = int(len(samples) * target / rate)
    return np.interp(np.arange(count) * (rate / target), np.arange(len(samples)), samples).astype(np.float32)


def _lowpass(cutoff: float, taps: int = 65) -> np.ndarray:
    """FIR low-pass with ``cutoff`` as a fraction of the sample rate: a Hamming-windowed sinc, unit gain."""
    n = np.arange(taps) - (taps - 1) / 2
    kernel = np.sinc(2 * cutoff * n) * np.hamming(taps)
    return (kernel / kernel.sum()).astype(np.float32)


def voice_frames(samples: np.ndarray, rate: int, aggressiveness: int = 2, frame_ms: int = 30) -> np.ndarray:
    """One bool per ``frame_ms`` frame: WebRTC VAD's speech decision on the channel resampled to 16 kHz."""
    try:
        import webrtcvad
    except ImportError:
        raise RuntimeError("voice activity needs webrtcvad-wheels: pip install 'agentunit[audio]'") from None

    pcm = resample(np.asarray(samples, dtype=np.float32), rate)
    ints = (np.clip(pcm, -1.0, 1.0) * 32767).astype("<i2")
    size = VAD_RATE * frame_ms // 1000
    vad = webrtcvad.Vad(aggressiveness)
    raw = ints.tobytes()
    step = size * 2
    return np.array([vad.is_speech(raw[i:i + step], VAD_RATE) for i in range(0, len(ints) // size * step, step)],
                    dtype=bool)


def smooth_frames(frames: np.ndarray, hangover: int, min_speech: int) -> np.ndarray:
    """Hangover smoothing: unvoiced gaps of fewer than ``hangover`` frames between voiced frames become
    voiced, then voiced runs of fewer than ``min_speech`` frames become unvoiced. Run edges never move,
    so turn starts and ends stay where the speech is."""
    out = np.asarray(frames, dtype=bool).copy()
    for value, limit in ((False, hangover), (True, min_speech)):
        for start, end in _runs(out, value):
            inside = start > 0 and end < len(out) if not value else True
            if end - start < limit and inside:
                out[start:end] = not value
    return out


def speech_segments(frames: np.ndarray, frame_s: float) -> list[tuple[float, float]]:
    """The voiced runs of ``frames`` as (start, end) seconds."""
    return [(start * frame_s, end * frame_s) for start, end in _runs(np.asarray(frames, dtype=bool), True)]


def _runs(frames: np.ndarray, value: bool) -> list[tuple[int, int]]:
    """[start, end) index pairs of the runs of ``value``."""
    if len(frames) == 0:
        return []
    mask = (frames == value).astype(np.int8)
    edges = np.diff(np.concatenate(([0], mask, [0])))
    return list(zip(np.flatnonzero(edges == 1).tolist(), np.flatnonzero(edges == -1).tolist(), strict=True))
