"""A WAV header that cannot describe its samples is a clear error about the file: a sample rate of 0 (was a
ZeroDivisionError inside the metric) and a ``data`` chunk claiming 4 GiB in a file holding 20 bytes (was
measured as a whole call: "no drop-out")."""

import struct

import numpy as np
import pytest

from agentunit.api import check
from agentunit.audio import AudioInputError, decode_audio


def _wav(*, rate: int = 8000, samples: bytes = b"\x00\x01" * 10, claimed: int | None = None, channels: int = 1,
         fmt_code: int = 1, width: int = 2, before: bytes = b"", after: bytes = b"") -> bytes:
    """A PCM WAV file written by hand (``wave`` refuses a rate of 0): ``claimed`` is the size its ``data``
    chunk header gives (default: the true size); ``before``/``after`` are whole chunks around ``data``."""
    fmt = struct.pack("<HHIIHH", fmt_code, channels, rate, rate * channels * width, channels * width, width * 8)
    size = len(samples) if claimed is None else claimed
    body = (b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + before + b"data" + struct.pack("<I", size)
            + samples + after)
    return b"RIFF" + struct.pack("<I", min(0xFFFFFFFF, len(body) - len(samples) + size)) + body


def test_a_sample_rate_of_0_is_an_error_about_the_file():
    with pytest.raises(AudioInputError, match=r"^trusys.audio: the WAV header gives a sample rate of 0 Hz"):
        decode_audio(_wav(rate=0), "audio/wav", "trusys.audio")
    result = check("", "audio-drop-out-rates", audio=_wav(rate=0))
    assert result.value is None and result.passed is not True
    assert "sample rate of 0 Hz" in result.error and "ZeroDivisionError" not in result.error


def test_a_data_chunk_claiming_4_gib_in_20_bytes_is_a_truncated_file_not_a_clean_call():
    blob = _wav(claimed=0xFFFFFFF0)
    assert len(blob) < 100
    with pytest.raises(AudioInputError, match=r"4,294,967,280 bytes of samples but the file holds 20 .*truncated"):
        decode_audio(blob)
    result = check("", "audio-drop-out-rates", audio=blob)
    assert result.value is None and result.passed is not True and "truncated" in result.error


def test_a_float_wav_is_checked_too_and_a_zero_channel_count_refused():
    float_wav = _wav(fmt_code=3, width=4, samples=np.zeros(4, dtype="<f4").tobytes(), claimed=1 << 20)
    with pytest.raises(AudioInputError, match="truncated"):
        decode_audio(float_wav)
    with pytest.raises(AudioInputError, match="channel count of 0"):
        decode_audio(_wav(channels=0))


def test_sound_files_with_other_chunks_and_an_odd_padded_chunk_still_decode():
    info = b"LIST" + struct.pack("<I", 5) + b"INFOx" + b"\x00"  # odd size: a pad byte follows
    pcm = decode_audio(_wav(before=info, after=b"LIST" + struct.pack("<I", 4) + b"INFO"))
    assert pcm.rate == 8000 and pcm.samples.shape == (10, 1)
    assert decode_audio(_wav()).duration_s == pytest.approx(10 / 8000)
