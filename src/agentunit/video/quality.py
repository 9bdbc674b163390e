"""No-reference quality measures of one frame, and their mapping to 0–1.

Measured on the gray frame at its native size (compression blocks sit on the native 8-pixel grid and
downscaling would average noise away):

- ``blur``: the Crété-Roffet perceptual blur (Crété et al. 2007, the same as
  ``skimage.measure.blur_effect``): how little the frame changes when blurred again with a 1×11 box
  filter, 0 = sharp, 1 = flat; the worse of the two axes. Content-independent enough to compare
  frames of different scenes, unlike the variance of the Laplacian (also given, as ``laplacian_var``).
- ``noise``: Immerkær's estimate of the noise sigma in gray levels (mean |frame ∗ N| ·√(π/2) / 6 with N the
  3×3 Laplacian-difference mask), over the 60 % of pixels with the weakest Sobel gradient so that
  edges and texture do not count as noise (Tai & Yang 2008).
- ``blockiness``: the mean step across 8-pixel block borders over the mean step elsewhere, both axes
  (1 = none; JPEG / MPEG blocks raise it), both + 2 gray levels so that smooth or flat frames, whose
  tiny steps would make any ratio large, stay near 1.
- exposure: ``mean_luma`` (0–255), ``clipped_dark`` / ``clipped_bright``: share of pixels ≤ 4 / ≥ 251.

Each measure maps to a 0–1 score linearly between a *good* and a *bad* bound (``BOUNDS``, 1 at or
better than good, 0 at or worse than bad); the frame's score is the lowest of its scores — the weakest
aspect decides — and that aspect is named. A frame with almost no texture (mean gradient < 1.5 gray
levels: a flat title card) has no blur score.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["BOUNDS", "frame_measures", "frame_scores", "linear"]

# measure: (good, bad). Chosen on the generated clips of tests/video/clips.py and scikit-image's
# natural photos (bench/video.py prints the measures of every kind); see docs/video.md.
BOUNDS: dict[str, tuple[float, float]] = {
    "blur": (0.45, 0.65),
    "noise": (2.5, 8.0),
    "blockiness": (1.25, 2.0),
    "clipped": (0.08, 0.35),      # the larger of clipped_dark and clipped_bright
    "exposure": (50.0, 100.0),    # |mean_luma − 128|: 1 within ±50, 0 beyond ±100
}
FLAT_GRADIENT = 1.5
_IMMERKAER = np.array([[1, -2, 1], [-2, 4, -2], [1, -2, 1]], dtype=np.float32)


def linear(value: float, good: float, bad: float) -> float:
    """1 at or beyond ``good``, 0 at or beyond ``bad``, linear between (either direction)."""
    if math.isnan(value):
        return 0.0
    return float(min(1.0, max(0.0, (value - bad) / (good - bad))))


def blur_effect(gray: np.ndarray, h_size: int = 11) -> float:
    """Crété-Roffet blur of a gray image (0 sharp … 1 blurred), the worse axis: Sobel edges of the image
    against those of the image box-blurred (1×``h_size``) along the same axis. Equal to
    ``skimage.measure.blur_effect`` (tested), through OpenCV: about 80× faster."""
    import cv2

    image = gray.astype(np.float32) / 255.0
    crop = (slice(2, image.shape[0] - 1), slice(2, image.shape[1] - 1))
    values = []
    for axis in (0, 1):
        kernel = (h_size, 1) if axis == 1 else (1, h_size)  # OpenCV sizes are (width, height)
        blurred = cv2.blur(image, kernel, borderType=cv2.BORDER_REFLECT)
        dx, dy = (1, 0) if axis == 1 else (0, 1)
        sharp_edges = np.maximum(1e-10, np.abs(cv2.Sobel(image, cv2.CV_32F, dx, dy, ksize=3,
                                                         borderType=cv2.BORDER_REFLECT)))
        blur_edges = np.maximum(1e-10, np.abs(cv2.Sobel(blurred, cv2.CV_32F, dx, dy, ksize=3,
                                                        borderType=cv2.BORDER_REFLECT)))
        m1 = float(sharp_edges[crop].sum(dtype=np.float64))
        m2 = float(np.maximum(0.0, sharp_edges - blur_edges)[crop].sum(dtype=np.float64))
        values.append(abs(m1 - m2) / m1 if m1 > 0 else 1.0)
    return max(values)


def noise_sigma(gray: np.ndarray, keep: float = 0.6) -> float:
    """Immerkær's noise sigma over the ``keep`` share of pixels with the weakest gradient."""
    import cv2

    image = gray.astype(np.float32)
    response = np.abs(cv2.filter2D(image, -1, _IMMERKAER))[1:-1, 1:-1]
    gx = cv2.Sobel(image, cv2.CV_32F, 1, 0, ksize=3)[1:-1, 1:-1]
    gy = cv2.Sobel(image, cv2.CV_32F, 0, 1, ksize=3)[1:-1, 1:-1]
    gradient = np.hypot(gx, gy)
    calm = gradient <= np.quantile(gradient, keep)
    if not calm.any():
        return 0.0
    return float(response[calm].mean() * math.sqrt(math.pi / 2) / 6)


def blockiness(gray: np.ndarray) -> float:
    """Step across 8-px block borders over the step elsewhere, both axes (1 = no blocks)."""
    image = gray.astype(np.float32)
    if min(image.shape) < 17:
        return 1.0
    border, inner = [], []
    for steps in (np.abs(np.diff(image, axis=1)).mean(axis=0), np.abs(np.diff(image, axis=0)).mean(axis=1)):
        border.append(steps[7::8])
        inner.append(np.delete(steps, np.arange(7, len(steps), 8)))
    return float((np.concatenate(border).mean() + 2.0) / (np.concatenate(inner).mean() + 2.0))


def frame_measures(gray: np.ndarray) -> dict[str, float]:
    """The raw measures of one gray uint8 frame (see the module doc)."""
    import cv2

    image = gray.astype(np.float32)
    mean_gradient = float(np.abs(np.diff(image, axis=1)).mean() + np.abs(np.diff(image, axis=0)).mean()) / 2
    return {
        "blur": round(blur_effect(gray), 4) if mean_gradient >= FLAT_GRADIENT else None,
        "laplacian_var": round(float(cv2.Laplacian(image, cv2.CV_32F).var()), 2),
        "noise": round(noise_sigma(gray), 3),
        "blockiness": round(blockiness(gray), 4),
        "mean_luma": round(float(image.mean()), 2),
        "clipped_dark": round(float((gray <= 4).mean()), 4),
        "clipped_bright": round(float((gray >= 251).mean()), 4),
        "mean_gradient": round(mean_gradient, 3),
    }


def frame_scores(measures: dict[str, Any], bounds: dict[str, tuple[float, float]] | None = None
                 ) -> dict[str, float]:
    """0–1 scores of one frame's measures: ``sharpness``, ``noise``, ``blockiness``, ``exposure``
    (the lower of the mean-luminance and the clipping scores)."""
    b = {**BOUNDS, **(bounds or {})}
    scores = {}
    if measures.get("blur") is not None:
        scores["sharpness"] = linear(measures["blur"], *b["blur"])
    scores["noise"] = linear(measures["noise"], *b["noise"])
    scores["blockiness"] = linear(measures["blockiness"], *b["blockiness"])
    clipped = max(measures["clipped_dark"], measures["clipped_bright"])
    scores["exposure"] = min(linear(clipped, *b["clipped"]), linear(abs(measures["mean_luma"] - 128), *b["exposure"]))
    return {k: round(v, 4) for k, v in scores.items()}
