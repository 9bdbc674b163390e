"""Images drawn for the multimodal tests (Pillow)."""

from __future__ import annotations

import hashlib
import io

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from agentunit.media import Media


def encode(image: Image.Image, fmt: str = "PNG", **options) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, fmt, **options)
    return buffer.getvalue()


def as_media(data: bytes, mime: str = "image/png") -> Media:
    return Media("image", mime, data, hashlib.sha256(data).hexdigest(), "test", len(data))


def sign(text: str = "OPEN 24 HOURS", size: tuple[int, int] = (420, 120), background: str = "white",
         ink: str = "black") -> bytes:
    image = Image.new("RGB", size, background)
    ImageDraw.Draw(image).text((20, 30), text, fill=ink, font=ImageFont.load_default(size=40))
    return encode(image)


def solid(rgb: tuple[int, int, int], size: tuple[int, int] = (64, 48)) -> bytes:
    return encode(Image.new("RGB", size, rgb))


def checkerboard(blur: float = 0.0) -> bytes:
    image = Image.new("L", (128, 128), 0)
    draw = ImageDraw.Draw(image)
    for y in range(0, 128, 8):
        for x in range(0, 128, 8):
            if (x // 8 + y // 8) % 2:
                draw.rectangle((x, y, x + 7, y + 7), fill=255)
    if blur:
        image = image.filter(ImageFilter.GaussianBlur(blur))
    return encode(image.convert("RGB"))


def chart() -> bytes:
    """A bar chart with a title and blue bars."""
    image = Image.new("RGB", (400, 300), "white")
    draw = ImageDraw.Draw(image)
    draw.text((100, 10), "SALES 2024", fill="black", font=ImageFont.load_default(size=32))
    for i, height in enumerate((80, 150, 200, 120)):
        draw.rectangle((40 + i * 90, 280 - height, 100 + i * 90, 280), fill=(20, 40, 220))
    return encode(image)
