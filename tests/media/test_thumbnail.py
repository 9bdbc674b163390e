"""Thumbnails of images for the HTML report: small, our own JPEG, made once per content, none without Pillow."""

import base64
import io

import pytest

from agentunit.media import thumbnail as thumbnails
from agentunit.media.thumbnail import MAX_BYTES, MAX_SIDE, thumbnail, thumbnail_for

from .makers import SAMPLES, png, wav

PIL = pytest.importorskip("PIL.Image")


def _decode(uri):
    assert uri.startswith("data:image/jpeg;base64,")
    data = base64.b64decode(uri.split(",", 1)[1])
    return data, PIL.open(io.BytesIO(data))


@pytest.mark.parametrize("width, height", [(580, 580), (1200, 300), (30, 2000), (4, 3)])
def test_a_thumbnail_is_a_small_jpeg_keeping_proportions(width, height):
    data, image = _decode(thumbnail(png(width, height, noise=True)))
    assert image.format == "JPEG" and len(data) <= MAX_BYTES
    assert max(image.size) <= MAX_SIDE and min(image.size) >= 1
    if max(width, height) > MAX_SIDE:
        assert max(image.size) == MAX_SIDE
        assert abs(image.size[0] / image.size[1] - width / height) < 0.1 * width / height + 0.05


def test_transparency_goes_on_white():
    buffer = io.BytesIO()
    PIL.new("RGBA", (50, 50), (255, 0, 0, 0)).save(buffer, "PNG")
    _, image = _decode(thumbnail(buffer.getvalue()))
    assert image.convert("RGB").getpixel((10, 10)) >= (245, 245, 245)


def test_no_thumbnail_for_what_pillow_cannot_read_or_refuses():
    assert thumbnail(wav()) is None
    assert thumbnail(b"\x89PNG\r\n\x1a\n" + b"\x00" * 40) is None  # truncated
    assert thumbnail(SAMPLES["avif"][0]) is None  # a header only
    buffer = io.BytesIO()  # a 1 x 70,000,000 image: over MAX_PIXELS, never decoded
    PIL.new("1", (1, 8)).save(buffer, "PNG")
    header = bytearray(buffer.getvalue())
    header[16:24] = (1).to_bytes(4, "big") + (70_000_000).to_bytes(4, "big")
    assert thumbnail(bytes(header)) is None


def test_made_once_per_content_and_none_without_pillow(monkeypatch):
    calls = []

    def read():
        calls.append(1)
        return png(20, 20)

    first = thumbnail_for("f" * 64, read)
    assert first is not None and thumbnail_for("f" * 64, read) == first and len(calls) == 1
    monkeypatch.setattr(thumbnails, "_HAS_PILLOW", False)
    assert thumbnail_for("e" * 64, read) is None and len(calls) == 1  # nothing read without Pillow
