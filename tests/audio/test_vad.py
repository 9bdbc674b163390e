import numpy as np
import pytest

from agentunit.audio import resample, smooth_frames, speech_segments, voice_frames

from .scenes import calls


def _zero_crossings(x):
    return int(np.count_nonzero(np.diff(np.signbit(x))))


@pytest.mark.parametrize("rate", [8000, 16000, 22050, 44100, 48000])
def test_resample_keeps_length_in_seconds_and_pitch(rate):
    t = np.arange(rate) / rate  # one second of a 440 Hz tone
    out = resample(np.sin(2 * np.pi * 440 * t).astype(np.float32), rate)
    assert abs(len(out) - 16000) <= 1
    assert abs(_zero_crossings(out) - 880) <= 2


@pytest.mark.parametrize("rate", [44100, 48000])
def test_downsampling_filters_what_16_khz_cannot_hold(rate):
    t = np.arange(rate) / rate  # 10 kHz is above 16 kHz's Nyquist; unfiltered it would alias to 6 kHz
    out = resample(np.sin(2 * np.pi * 10_000 * t).astype(np.float32), rate)
    assert np.sqrt(np.mean(out[100:-100] ** 2)) < 0.02


def test_vad_finds_speech_in_a_clip_and_none_in_silence_or_noise():
    rng = np.random.default_rng(1)
    assert not voice_frames(np.zeros(8000, dtype=np.float32), 8000).any()
    noise = voice_frames(rng.normal(0, 10 ** (-50 / 20), 16000).astype(np.float32), 16000)
    assert not smooth_frames(noise, 10, 4).any()  # WebRTC flags up to 3 frames while it adapts; smoothing drops them
    speech = calls.clip("customer_problem")
    padded = np.concatenate([np.zeros(8000, np.float32), speech, np.zeros(8000, np.float32)])
    frames = voice_frames(padded, 8000)
    segments = speech_segments(smooth_frames(frames, 10, 4), 0.03)
    assert segments[0][0] == pytest.approx(1.0, abs=0.1)
    assert segments[-1][1] == pytest.approx(1.0 + len(speech) / 8000, abs=0.15)


def test_hangover_fills_short_pauses_and_drops_short_bursts_without_moving_edges():
    f = np.array([0, 0, 1, 1, 1, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 0, 0], dtype=bool)
    out = smooth_frames(f, hangover=3, min_speech=2)
    assert speech_segments(out, 1.0) == [(2.0, 10.0), (15.0, 18.0)]  # 2-frame pause filled; 5-frame kept; blip gone
    assert not out[:2].any()  # leading silence is not a pause inside speech
    assert speech_segments(smooth_frames(f, hangover=0, min_speech=0), 1.0)[0] == (2.0, 5.0)
    assert speech_segments(np.zeros(0, bool), 0.03) == []
