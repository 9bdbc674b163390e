"""What an image shows that can be measured offline: visual facts (Pillow + numpy) and OCR text.

``image_facts(media)`` gives size, dominant colours (k-means on a 64-px thumbnail, named with a small
CSS colour table), sharpness (variance of the Laplacian), a noise estimate and JPEG blockiness.
``ocr_text(media)`` reads text with rapidocr-onnxruntime (its ONNX models ship in the wheel) and
``ocr_status()`` says why OCR is unavailable when it is. Both are cached per image sha256.
"""

from __future__ import annotations

import io
import threading
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["CSS_COLOURS", "ImageFacts", "OcrUnavailable", "colour_name", "image_facts", "ocr_status", "ocr_text",
           "pillow_status"]

# A small CSS colour table: enough names for "the red car", "a blue sky", "black text on white".
CSS_COLOURS: dict[str, tuple[int, int, int]] = {
    "black": (0, 0, 0), "white": (255, 255, 255), "gray": (128, 128, 128), "silver": (192, 192, 192),
    "red": (220, 20, 20), "maroon": (128, 0, 0), "orange": (255, 140, 0), "yellow": (255, 230, 0),
    "olive": (128, 128, 0), "green": (0, 160, 0), "lime": (50, 230, 50), "teal": (0, 128, 128),
    "cyan": (0, 230, 230), "blue": (20, 40, 220), "navy": (0, 0, 128), "purple": (128, 0, 128),
    "magenta": (230, 0, 230), "pink": (255, 170, 190), "brown": (140, 80, 30), "beige": (235, 225, 195),
}
COLOUR_SYNONYMS = {"grey": "gray", "violet": "purple", "aqua": "cyan", "fuchsia": "magenta", "gold": "yellow",
                   "dark blue": "navy", "light gray": "silver", "light grey": "silver"}

_LOCK = threading.Lock()
_FACTS: dict[str, ImageFacts] = {}
_OCR: dict[str, list[dict[str, Any]]] = {}
_ENGINE: Any = None
_ENGINE_ERROR: str | None = None


class OcrUnavailable(RuntimeError):
    """OCR was asked for and rapidocr-onnxruntime cannot run; the message names the install command."""


@dataclass(frozen=True)
class ImageFacts:
    width: int
    height: int
    mode: str
    colours: list[dict[str, Any]] = field(default_factory=list)  # [{name, rgb, share}], biggest first
    sharpness: float = 0.0     # variance of the Laplacian of the gray image (higher = sharper)
    noise: float = 0.0         # robust sigma of the Laplacian (Immerkær), in gray levels
    blockiness: float = 1.0    # step at 8-px block borders over the step elsewhere (1 = none)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def colour_names(self, min_share: float = 0.05) -> list[str]:
        return [c["name"] for c in self.colours if c["share"] >= min_share]


def pillow_status() -> str | None:
    try:
        import PIL  # noqa: F401
    except ImportError:
        return "Pillow is not installed — pip install 'agentunit[multimodal]'"
    return None


def colour_name(rgb: tuple[float, float, float]) -> str:
    """The nearest CSS name of the table (Euclidean distance in RGB)."""
    r, g, b = rgb
    return min(CSS_COLOURS, key=lambda n: (CSS_COLOURS[n][0] - r) ** 2 + (CSS_COLOURS[n][1] - g) ** 2
               + (CSS_COLOURS[n][2] - b) ** 2)


def _open(media: Any):
    from PIL import Image

    image = Image.open(io.BytesIO(media.data))
    image.load()
    return image


def _kmeans(pixels: Any, k: int = 5, rounds: int = 12) -> tuple[Any, Any]:
    import numpy as np

    unique = np.unique(pixels, axis=0)
    k = min(k, len(unique))
    # Deterministic start: spread picks over the pixels ordered by brightness.
    order = np.argsort(unique.sum(axis=1))
    centres = unique[order[np.linspace(0, len(unique) - 1, k).astype(int)]].astype(float)
    labels = np.zeros(len(pixels), dtype=int)
    for _ in range(rounds):
        distances = ((pixels[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
        labels = distances.argmin(axis=1)
        for j in range(k):
            members = pixels[labels == j]
            if len(members):
                centres[j] = members.mean(axis=0)
    return centres, np.bincount(labels, minlength=k) / len(pixels)


def _laplacian(gray: Any) -> Any:
    return (gray[:-2, 1:-1] + gray[2:, 1:-1] + gray[1:-1, :-2] + gray[1:-1, 2:] - 4 * gray[1:-1, 1:-1])


def image_facts(media: Any) -> ImageFacts:
    """Visual facts of one image ``Media`` (cached by its sha256). Raises ImportError without Pillow."""
    with _LOCK:
        cached = _FACTS.get(media.sha256)
    if cached is not None:
        return cached
    import numpy as np

    image = _open(media)
    rgb = image.convert("RGB")
    thumb = rgb.copy()
    thumb.thumbnail((64, 64))
    pixels = np.asarray(thumb, dtype=float).reshape(-1, 3)
    centres, shares = _kmeans(pixels)
    named: dict[str, float] = {}
    rgbs: dict[str, list[int]] = {}
    for centre, share in zip(centres, shares, strict=True):
        name = colour_name(tuple(centre))
        named[name] = named.get(name, 0.0) + float(share)
        rgbs.setdefault(name, [round(float(v)) for v in centre])
    colours = [{"name": n, "rgb": rgbs[n], "share": round(s, 4)}
               for n, s in sorted(named.items(), key=lambda kv: -kv[1]) if s > 0]
    gray = np.asarray(rgb.convert("L"), dtype=float)
    sharpness = noise = 0.0
    blockiness = 1.0
    if gray.shape[0] >= 3 and gray.shape[1] >= 3:
        lap = _laplacian(gray)
        sharpness = float(lap.var())
        noise = float(np.median(np.abs(lap - np.median(lap))) * 1.4826 / np.sqrt(20))
    if min(gray.shape) >= 17:
        # Mean step across 8-px block borders over the mean step elsewhere, both axes; +0.5 gray
        # levels keeps a flat image at 1 and lets flat-within-block JPEGs show their borders.
        border_steps, inner_steps = [], []
        for steps in (np.abs(np.diff(gray, axis=1)).mean(axis=0), np.abs(np.diff(gray, axis=0)).mean(axis=1)):
            border_steps.append(steps[7::8])
            inner_steps.append(np.delete(steps, np.arange(7, len(steps), 8)))
        border, inner = np.concatenate(border_steps).mean(), np.concatenate(inner_steps).mean()
        blockiness = float((border + 0.5) / (inner + 0.5))
    facts = ImageFacts(width=image.width, height=image.height, mode=image.mode, colours=colours,
                       sharpness=round(sharpness, 3), noise=round(noise, 3), blockiness=round(blockiness, 3))
    with _LOCK:
        _FACTS[media.sha256] = facts
    return facts


def _engine() -> Any:
    global _ENGINE, _ENGINE_ERROR
    with _LOCK:
        if _ENGINE is None and _ENGINE_ERROR is None:
            try:
                from rapidocr_onnxruntime import RapidOCR

                _ENGINE = RapidOCR()
            except Exception as exc:  # ImportError, or a broken onnxruntime
                _ENGINE_ERROR = (f"OCR is unavailable ({type(exc).__name__}: {exc}) — "
                                 "pip install 'agentunit[multimodal]' (rapidocr-onnxruntime)")
        return _ENGINE


def ocr_status() -> str | None:
    """None when OCR can run, else why not and how to install it."""
    _engine()
    return _ENGINE_ERROR


def reading_order(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Text boxes in reading order: rows top to bottom, each row left to right. A box joins the row
    above when its vertical centre is within half a box height of that row's, so the cells of a table
    row or a receipt line ("Orange juice", "4.20") stay together even when their tops differ by a pixel."""
    def centre(line: dict[str, Any]) -> tuple[float, float]:
        ys = [point[1] for point in line["box"]]
        return (min(ys) + max(ys)) / 2, max(ys) - min(ys)

    rows: list[tuple[float, float, list[dict[str, Any]]]] = []
    for line in sorted(lines, key=lambda item: centre(item)[0]):
        middle, height = centre(line)
        if rows and abs(middle - rows[-1][0]) <= max(height, rows[-1][1]) / 2:
            rows[-1][2].append(line)
        else:
            rows.append((middle, height, [line]))
    return [line for _, _, row in rows for line in sorted(row, key=lambda item: min(p[0] for p in item["box"]))]


def ocr_text(media: Any, min_score: float = 0.5) -> list[dict[str, Any]]:
    """The text lines in an image: ``[{text, score, box}]`` in reading order (cached by sha256)."""
    with _LOCK:
        cached = _OCR.get(media.sha256)
    if cached is not None:
        return cached
    engine = _engine()
    if engine is None:
        raise OcrUnavailable(_ENGINE_ERROR)
    import numpy as np

    array = np.asarray(_open(media).convert("RGB"))[:, :, ::-1]  # the engine reads BGR like OpenCV
    found, _ = engine(array)
    lines = [{"text": str(text), "score": round(float(score), 4), "box": [[int(x), int(y)] for x, y in box]}
             for box, text, score in (found or []) if float(score) >= min_score]
    lines = reading_order(lines)
    with _LOCK:
        _OCR[media.sha256] = lines
    return lines
