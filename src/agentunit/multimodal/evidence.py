"""What an image shows that can be measured offline: visual facts (Pillow + numpy) and OCR text.

``image_facts(media)`` gives size, dominant colours (k-means on a 64-px thumbnail, named with a small
CSS colour table), sharpness (variance of the Laplacian), a noise estimate and JPEG blockiness.
``ocr_text(media)`` reads text with rapidocr-onnxruntime (its ONNX models ship in the wheel) and
``ocr_status()`` says why OCR is unavailable when it is. Both are cached per image sha256.
``clip_model_at(path)`` loads a CLIP exported to ONNX — one file, or an image and a text encoder — when
the user gives one (none ships: no vision model is in any package the machines reach).
"""

from __future__ import annotations

import io
import threading
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["CLIP_LAYOUTS", "CSS_COLOURS", "ClipFiles", "ClipLayoutError", "ClipModel", "ImageFacts", "OcrUnavailable",
           "clip_files", "clip_model_at", "colour_name", "image_facts", "ocr_status", "ocr_text", "pillow_status"]

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


# -- CLIP (ONNX, pluggable by path) -----------------------------------------------------------------
#
# A user's CLIP export comes as one ONNX file (``optimum-cli export onnx``: text and image inputs, text and
# image embeddings out) or as two (an image encoder and a text encoder: ``visual.onnx`` + ``textual.onnx``
# from clip-as-service / OpenCLIP exports, ``vision_model.onnx`` + ``text_model.onnx`` from transformers.js),
# with the model's ``tokenizer.json`` beside them. Input and output names differ between exporters, so they
# are read from the graph.

CLIP_PAIRS = (("visual.onnx", "textual.onnx"), ("vision_model.onnx", "text_model.onnx"),
              ("image_encoder.onnx", "text_encoder.onnx"))
CLIP_LAYOUTS = "one .onnx file, or a folder holding visual.onnx and textual.onnx, with the model's tokenizer.json"
_CLIP_MEAN = (0.48145466, 0.4578275, 0.40821073)
_CLIP_STD = (0.26862954, 0.26130258, 0.27577711)
_CLIP_SIZE, _CLIP_CONTEXT = 224, 77  # when the graph leaves them open
_CLIPS: dict[str, ClipModel] = {}
_CLIP_LOCK = threading.Lock()  # not _LOCK: loading a model takes seconds, OCR should not wait for it


class ClipLayoutError(ValueError):
    """``clip_model`` names no usable CLIP export; the message says what is missing."""


@dataclass(frozen=True, slots=True)
class ClipFiles:
    """The parts of a CLIP export: the ONNX graph that embeds images, the one that embeds texts (the same
    file for a one-file export) and the tokenizer."""

    image: str
    text: str
    tokenizer: str


def _pair_in(folder: Any) -> tuple[Any, Any] | None:
    for image, text in CLIP_PAIRS:
        if (folder / image).is_file() and (folder / text).is_file():
            return folder / image, folder / text
    return None


def clip_files(path: str) -> ClipFiles:
    """The parts of the CLIP export at ``path``: a folder (holding a pair of ``CLIP_PAIRS``, or one .onnx
    file; an ``onnx/`` subfolder is searched too) or an .onnx file (one half of a pair brings its partner
    from the same folder). ``tokenizer.json`` is looked for beside the graphs, then in the folder above.
    Raises ClipLayoutError naming what is missing."""
    from pathlib import Path

    given = Path(path).expanduser()
    if given.is_dir():
        folders = [given, given / "onnx"]
        pair = next((p for p in map(_pair_in, folders) if p), None)
        if pair is None:
            graphs = sorted(g for folder in folders if folder.is_dir() for g in folder.glob("*.onnx"))
            if len(graphs) != 1:
                found = ", ".join(g.name for g in graphs) or "no .onnx file"
                raise ClipLayoutError(f"{path}: a folder with {found} — give {CLIP_LAYOUTS}")
            pair = (graphs[0], graphs[0])
    elif given.is_file():
        text_of, image_of = dict(CLIP_PAIRS), {text: image for image, text in CLIP_PAIRS}
        pair = (given, given)  # one file, unless it is half of a pair whose other half is beside it
        if given.name in text_of and given.with_name(text_of[given.name]).is_file():
            pair = (given, given.with_name(text_of[given.name]))
        elif given.name in image_of and given.with_name(image_of[given.name]).is_file():
            pair = (given.with_name(image_of[given.name]), given)
    else:
        raise ClipLayoutError(f"{path}: file not found — give {CLIP_LAYOUTS}")
    image, text = pair
    tokenizer = next((t for t in (image.with_name("tokenizer.json"), image.parent.parent / "tokenizer.json")
                      if t.is_file()), None)
    if tokenizer is None:
        raise ClipLayoutError(f"{path}: no tokenizer.json beside {image.name} — put the CLIP's Hugging Face "
                              "tokenizer.json in the same folder")
    return ClipFiles(str(image), str(text), str(tokenizer))


def _numpy_type(onnx_type: str) -> Any:
    import numpy as np

    return {"tensor(float)": np.float32, "tensor(float16)": np.float16, "tensor(double)": np.float64,
            "tensor(int64)": np.int64, "tensor(int32)": np.int32}.get(onnx_type)


def _fixed(dim: Any, default: int) -> int:
    return dim if isinstance(dim, int) and dim > 0 else default


class ClipModel:
    """A CLIP exported to ONNX in either layout (``clip_files``). Inputs are recognised by type and rank:
    the image input is the rank-4 float one (N×3×H×W, H and W from the graph, else 224); text inputs are
    the integer ones — a name with ``mask`` is the attention mask, ``position`` position ids, ``token_type``
    zeros, the other the token ids (padded to the graph's length, else 77). The embeddings are the outputs
    named ``image_embeds`` / ``text_embeds`` when present; otherwise, in a one-file export, the rank-2 output
    that changes with the image and not the text (and the reverse), found by running the graph on two
    probes; in a two-file export, each graph's rank-2 output (one named ``…embed…`` first). Images are
    resized (shorter side, bicubic), centre-cropped and normalised with CLIP's mean and std."""

    def __init__(self, path: str):
        import onnxruntime
        from tokenizers import Tokenizer

        files = clip_files(path)

        def session(file: str) -> Any:
            return onnxruntime.InferenceSession(file, providers=["CPUExecutionProvider"])
        self.image_session = session(files.image)
        self.text_session = self.image_session if files.text == files.image else session(files.text)
        self._pixels = next((i for i in self.image_session.get_inputs()
                             if len(i.shape or ()) == 4 and "float" in i.type), None)
        self._texts = [i for i in self.text_session.get_inputs() if "int" in i.type]
        ids = [i for i in self._texts if not any(k in i.name for k in ("mask", "position", "token_type"))]
        if self._pixels is None or len(ids) != 1:
            raise ClipLayoutError(f"{path}: not a CLIP export — expected one image input (float, N×3×H×W) and "
                                  "one token-id input (integer); the graph has "
                                  + ", ".join(f"{i.name} {i.type} {i.shape}" for i in self._all_inputs()))
        self._ids = ids[0]
        self.size = (_fixed(self._pixels.shape[2], _CLIP_SIZE), _fixed(self._pixels.shape[3], _CLIP_SIZE))
        self.tokenizer = Tokenizer.from_file(files.tokenizer)
        length = _fixed(self._ids.shape[1] if len(self._ids.shape or ()) > 1 else None, _CLIP_CONTEXT)
        self.tokenizer.enable_truncation(length)
        self.tokenizer.enable_padding(length=length)
        self._text_out, self._image_out = self._embedding_outputs(path)

    def _all_inputs(self) -> list[Any]:
        inputs = list(self.image_session.get_inputs())
        return inputs if self.text_session is self.image_session else inputs + list(self.text_session.get_inputs())

    def _text_feeds(self, text: str) -> dict[str, Any]:
        import numpy as np

        encoded = self.tokenizer.encode(text)
        return self._token_feeds(np.array([encoded.ids]), np.array([encoded.attention_mask]))

    def _token_feeds(self, ids: Any, mask: Any) -> dict[str, Any]:
        import numpy as np

        feeds = {}
        for item in self._texts:
            kind = _numpy_type(item.type)
            if "mask" in item.name:
                feeds[item.name] = mask.astype(kind)
            elif "position" in item.name:
                feeds[item.name] = np.arange(ids.shape[1], dtype=kind)[None]
            elif "token_type" in item.name:
                feeds[item.name] = np.zeros_like(ids, dtype=kind)
            else:
                feeds[item.name] = ids.astype(kind)
        return feeds

    def _image_feeds(self, pixels: Any) -> dict[str, Any]:
        return {self._pixels.name: pixels[None].astype(_numpy_type(self._pixels.type))}

    def _embedding_outputs(self, path: str) -> tuple[str, str]:
        """(text output, image output) names; see the class doc."""
        import numpy as np

        def candidates(session: Any) -> list[str]:
            names = [o.name for o in session.get_outputs() if o.shape is None or len(o.shape) == 2]
            return sorted(names, key=lambda name: "embed" not in name)

        if self.text_session is not self.image_session:
            text, image = candidates(self.text_session), candidates(self.image_session)
            if not text or not image:
                raise ClipLayoutError(f"{path}: an encoder gives no rank-2 output (a batch of embeddings)")
            return text[0], image[0]
        names = candidates(self.image_session)
        if {"text_embeds", "image_embeds"} <= set(names):
            return "text_embeds", "image_embeds"
        height, width = self.size
        length = self.tokenizer.padding["length"]
        # which outputs follow the image and which the text: change one input at a time. The probe texts
        # are token ids, not words, so that they differ whatever the vocabulary
        blank, lit = np.zeros((3, height, width), np.float32), np.ones((3, height, width), np.float32)
        ones = np.ones((1, length), np.int64)
        same, other = self._token_feeds(0 * ones, ones), self._token_feeds(
            np.arange(length)[None] % self.tokenizer.get_vocab_size(), ones)
        base = self._run(names, {**same, **self._image_feeds(blank)})
        by_image = self._run(names, {**same, **self._image_feeds(lit)})
        by_text = self._run(names, {**other, **self._image_feeds(blank)})
        follows_text = [n for n in names if not np.array_equal(base[n], by_text[n])
                        and np.array_equal(base[n], by_image[n])]
        follows_image = [n for n in names if not np.array_equal(base[n], by_image[n])
                         and np.array_equal(base[n], by_text[n])]
        if not follows_text or not follows_image:
            raise ClipLayoutError(f"{path}: no output depends on the text alone and another on the image alone "
                                  f"(outputs: {', '.join(names) or 'none of rank 2'})")
        return follows_text[0], follows_image[0]

    def _run(self, names: list[str], feeds: dict[str, Any]) -> dict[str, Any]:
        return dict(zip(names, self.image_session.run(names, feeds), strict=True))

    def _pixels_of(self, medium: Any) -> Any:
        import numpy as np
        from PIL import Image

        height, width = self.size
        image = Image.open(io.BytesIO(medium.data)).convert("RGB")
        scale = max(width / image.width, height / image.height)
        image = image.resize((max(width, round(image.width * scale)), max(height, round(image.height * scale))),
                             Image.BICUBIC)
        left, top = (image.width - width) // 2, (image.height - height) // 2
        pixels = (np.asarray(image.crop((left, top, left + width, top + height)), dtype=np.float32) / 255
                  - _CLIP_MEAN) / _CLIP_STD
        return pixels.transpose(2, 0, 1)

    def similarity(self, text: str, medium: Any) -> float:
        """Cosine of the text's and the image's CLIP embeddings."""
        import numpy as np

        text_feeds, image_feeds = self._text_feeds(text), self._image_feeds(self._pixels_of(medium))
        if self.text_session is self.image_session:
            a, b = self.image_session.run([self._text_out, self._image_out], {**text_feeds, **image_feeds})
        else:
            (a,), (b,) = (self.text_session.run([self._text_out], text_feeds),
                          self.image_session.run([self._image_out], image_feeds))
        a, b = np.asarray(a[0], np.float64), np.asarray(b[0], np.float64)
        norms = float(np.linalg.norm(a) * np.linalg.norm(b))
        return float(a @ b) / norms if norms > 0 else 0.0  # a zero embedding matches nothing


def clip_model_at(path: str) -> ClipModel:
    """The CLIP model at ``path``, loaded once per process."""
    with _CLIP_LOCK:
        if path not in _CLIPS:
            _CLIPS[path] = ClipModel(path)
        return _CLIPS[path]
