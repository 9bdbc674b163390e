"""Small thumbnails of images for the HTML report, made with Pillow when it is installed (the
``multimodal`` extra); without it, or for a format it cannot read (AVIF, HEIC without a plugin), there is
simply none. A thumbnail is our own JPEG, at most ``MAX_SIDE`` pixels a side and ``MAX_BYTES`` long,
kept in the medium's stored record as a ``data:image/jpeg;base64,…`` URI.
"""

from __future__ import annotations

import base64
import importlib.util
import io
import threading
from collections import OrderedDict
from collections.abc import Callable

MAX_SIDE = 96
MAX_BYTES = 8 * 1024
MAX_PIXELS = 64_000_000  # a larger image is not decoded for a thumbnail (decompression bombs)
_CACHE_LIMIT = 1024
_QUALITIES = (75, 50, 30)

_cache: OrderedDict[str, str | None] = OrderedDict()  # sha256 of the image → its thumbnail (None: none)
_lock = threading.Lock()


def thumbnail(data: bytes) -> str | None:
    """A JPEG thumbnail of the image ``data`` as a ``data:`` URI, or None (no Pillow, unreadable, too big).

    Algorithm: open with Pillow (nothing decoded yet); refuse images over ``MAX_PIXELS``; let a JPEG
    decode at a reduced scale (``draft``); take the first frame, shrink it to fit ``MAX_SIDE`` x
    ``MAX_SIDE`` keeping its proportions; put transparency on white; encode as JPEG at falling
    qualities until it fits in ``MAX_BYTES``.
    """
    try:
        from PIL import Image
    except ImportError:
        return None
    try:
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
            if width < 1 or height < 1 or width * height > MAX_PIXELS:
                return None
            image.draft("RGB", (MAX_SIDE, MAX_SIDE))
            frame = image.convert("RGBA") if _has_alpha(image) else image.convert("RGB")
        frame.thumbnail((MAX_SIDE, MAX_SIDE), Image.Resampling.LANCZOS, reducing_gap=2.0)
        if frame.mode == "RGBA":
            flat = Image.new("RGB", frame.size, (255, 255, 255))
            flat.paste(frame, mask=frame.getchannel("A"))
            frame = flat
        for quality in _QUALITIES:
            out = io.BytesIO()
            frame.save(out, "JPEG", quality=quality, optimize=True)
            if out.tell() <= MAX_BYTES:
                return "data:image/jpeg;base64," + base64.b64encode(out.getvalue()).decode("ascii")
    except Exception:  # any image Pillow cannot read or convert has no thumbnail
        return None
    return None


def _pillow() -> bool:
    global _HAS_PILLOW
    if _HAS_PILLOW is None:
        _HAS_PILLOW = importlib.util.find_spec("PIL") is not None
    return _HAS_PILLOW


_HAS_PILLOW: bool | None = None


def _has_alpha(image: object) -> bool:
    mode = getattr(image, "mode", "")
    return mode in ("RGBA", "LA", "PA") or (mode == "P" and "transparency" in getattr(image, "info", {}))


def thumbnail_for(sha256: str, data: bytes | Callable[[], bytes]) -> str | None:
    """The thumbnail of the image whose content hash is ``sha256``, made once per process (the last
    ``_CACHE_LIMIT`` kept); ``data`` is the bytes or a function that reads them (called only when the
    thumbnail is not known yet). Without Pillow, None at once (nothing is read)."""
    if not _pillow():
        return None
    with _lock:
        if sha256 in _cache:
            _cache.move_to_end(sha256)
            return _cache[sha256]
    made = thumbnail(data() if callable(data) else data)
    with _lock:
        _cache[sha256] = made
        if len(_cache) > _CACHE_LIMIT:
            _cache.popitem(last=False)
    return made
