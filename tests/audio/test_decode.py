import io
import wave

import numpy as np
import pytest

from agentunit.audio import AudioInputError, decode_audio


def _wav(ints: np.ndarray, width: int, rate: int = 8000) -> bytes:
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as writer:
        writer.setnchannels(ints.shape[1])
        writer.setsampwidth(width)
        writer.setframerate(rate)
        if width == 3:
            raw = ints.astype("<i4").tobytes()
            writer.writeframes(b"".join(raw[i:i + 3] for i in range(0, len(raw), 4)))
        else:
            writer.writeframes(ints.astype({1: "u1", 2: "<i2", 4: "<i4"}[width]).tobytes())
    return buffer.getvalue()


@pytest.mark.parametrize("width,scale,offset", [(1, 128, 128), (2, 1 << 15, 0), (3, 1 << 23, 0), (4, 1 << 31, 0)])
def test_integer_wav_of_every_width_decodes_to_the_same_values(width, scale, offset):
    values = np.array([[0.5, -0.25], [-0.5, 0.75], [0.0, -1.0]])
    pcm = decode_audio(_wav(np.round(values * scale + offset).clip(None, scale * 2 - 1 if width == 1 else None),
                            width, rate=16000))
    assert pcm.rate == 16000 and pcm.channels == 2 and pcm.samples.shape == (3, 2)
    assert np.allclose(pcm.samples, values, atol=1 / 120)
    assert np.allclose(pcm.channel(1), values[:, 1], atol=1 / 120)
    assert pcm.duration_s == pytest.approx(3 / 16000)


def test_float_wav_and_flac_go_through_soundfile():
    soundfile = pytest.importorskip("soundfile")
    values = np.array([[0.1, -0.2], [0.3, 0.4]] * 100, dtype=np.float32)
    for fmt, subtype, tolerance in (("WAV", "FLOAT", 1e-7), ("FLAC", "PCM_16", 1e-4)):
        buffer = io.BytesIO()
        soundfile.write(buffer, values, 8000, format=fmt, subtype=subtype)
        pcm = decode_audio(buffer.getvalue(), "audio/flac" if fmt == "FLAC" else "audio/wav")
        assert pcm.rate == 8000 and np.allclose(pcm.samples, values, atol=tolerance)


def test_formats_that_need_ffmpeg_and_garbage_name_the_field():
    with pytest.raises(AudioInputError, match=r"trusys.audio: audio/aac .*ffmpeg.*WAV or FLAC"):
        decode_audio(b"\xff\xf1" + bytes(100), "audio/aac", "trusys.audio")
    with pytest.raises(AudioInputError, match=r"^audio: cannot decode audio/mpeg"):
        decode_audio(b"not audio at all" * 10, "audio/mpeg", "audio")
