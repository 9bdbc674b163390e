"""BRISQUE (Mittal, Moorthy & Bovik 2012): a no-reference quality score for natural images, in numpy/scipy.

Lower is better (about 0–100 on natural photos; pristine ones score roughly 0–30). The trained model is
the ``brisque`` model of the model store (``agentunit models install brisque``): the LIVE-trained
epsilon-SVR (RBF kernel, libsvm text format, 36 features) and its feature ranges, as shipped in the
``image-quality`` 1.2.7 wheel (imquality). The features are computed as that package computed them
when it trained the model, so that its scores carry over:

- the image in gray, 0–1 (``skimage.color.rgb2gray`` weights 0.2125 R + 0.7154 G + 0.0721 B);
- MSCN coefficients (I − μ) / (σ + 1/255), μ and σ from a 7×7 Gaussian window, σ = 7/6, zero padding;
- an AGGD fit (Lasmar et al. 2009, moment matching: φ(α) = Γ(2/α)² / (Γ(1/α) Γ(3/α)) equated to
  r̂ (γ³ + 1)(γ + 1) / (γ² + 1)², r̂ = E|x|² / E[x²], γ = σ_left / σ_right) of the MSCN coefficients —
  shape α and variance (σ_left² + σ_right²) / 2, the GGD parameters for these symmetric coefficients —
  and of their four pairwise products with the horizontal, vertical and two diagonal neighbours —
  shape α, mean (σ_r − σ_l) Γ(2/α) / Γ(1/α) · √(Γ(1/α) / Γ(3/α)), σ_left², σ_right²: 18 features;
- the same 18 on the image halved (``skimage.transform.rescale`` 1/2, bi-quadratic, no anti-aliasing);
- each feature scaled to −1…1 with the model's ranges; the score is Σ αᵢ exp(−γ‖xᵢ − x‖²) − ρ over
  the support vectors (what ``svm_predict`` of libsvm returns for an epsilon-SVR).

Trained on natural photographs with synthetic distortions (LIVE): screen recordings, renders, text and
flat graphics are outside what it knows, and score arbitrarily.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["LABEL", "Model", "features", "installed_model", "load", "score"]

MODEL = "brisque"
LABEL = "BRISQUE (natural footage)"
SVM_FILE = "svm.txt"
RANGE_FILE = "normalize.pickle"
_C = 1 / 255


@dataclass(frozen=True)
class Model:
    """An RBF epsilon-SVR: support vectors, their coefficients, γ, ρ; and the feature ranges."""

    vectors: np.ndarray
    coefs: np.ndarray
    gamma: float
    rho: float
    low: np.ndarray
    high: np.ndarray

    def predict(self, raw: np.ndarray) -> float:
        x = -1 + 2.0 * (raw - self.low) / (self.high - self.low)
        kernel = np.exp(-self.gamma * np.sum((self.vectors - x) ** 2, axis=1))
        return float(kernel @ self.coefs - self.rho)


def parse_svm(text: str) -> tuple[np.ndarray, np.ndarray, float, float]:
    """Support vectors, coefficients, γ and ρ of a libsvm text model (epsilon-SVR, RBF kernel only)."""
    header, _, body = text.partition("\nSV\n")
    fields = dict(line.split(" ", 1) for line in header.splitlines() if " " in line)
    if fields.get("svm_type") != "epsilon_svr" or fields.get("kernel_type") != "rbf":
        raise ValueError(f"not an RBF epsilon-SVR model: {fields.get('svm_type')}, {fields.get('kernel_type')}")
    rows = [line.split() for line in body.splitlines() if line.strip()]
    width = max(int(item.split(":")[0]) for row in rows for item in row[1:])
    vectors = np.zeros((len(rows), width))
    for i, row in enumerate(rows):
        for item in row[1:]:
            index, value = item.split(":")
            vectors[i, int(index) - 1] = float(value)
    coefs = np.array([float(row[0]) for row in rows])
    if "total_sv" in fields and int(fields["total_sv"]) != len(rows):
        raise ValueError(f"model says {fields['total_sv']} support vectors, has {len(rows)}")
    return vectors, coefs, float(fields["gamma"]), float(fields["rho"])


class _Plain(pickle.Unpickler):
    """Plain data only (the range file is a dict of two float lists): no classes, no code."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"the BRISQUE range file may not name {module}.{name}")


def parse_ranges(data: bytes) -> tuple[np.ndarray, np.ndarray]:
    import io

    ranges = _Plain(io.BytesIO(data)).load()
    return np.asarray(ranges["min_"], dtype=float), np.asarray(ranges["max_"], dtype=float)


@lru_cache(maxsize=2)
def load(folder: Path | str) -> Model:
    folder = Path(folder)
    vectors, coefs, gamma, rho = parse_svm((folder / SVM_FILE).read_text())
    low, high = parse_ranges((folder / RANGE_FILE).read_bytes())
    if not vectors.shape[1] == low.size == high.size == 36:
        raise ValueError(f"BRISQUE model has {vectors.shape[1]} features and {low.size} ranges, expected 36")
    return Model(vectors, coefs, gamma, rho, low, high)


def installed_model() -> Model:
    """The installed model, or ModelNotInstalled naming the install command."""
    from agentunit.models.store import require

    return load(require(MODEL))


# -- features ------------------------------------------------------------------------------------------

def _kernel(size: int = 7, sigma: float = 7 / 6) -> np.ndarray:
    y, x = np.indices((size, size)) - size // 2
    kernel = np.exp(-(x ** 2 + y ** 2) / (2 * sigma ** 2))
    return kernel / kernel.sum()


def mscn(gray: np.ndarray) -> np.ndarray:
    """Mean-subtracted contrast-normalised coefficients of a 0–1 gray image."""
    from scipy.signal import convolve2d

    # convolve2d as in the training code: in flat areas I − μ is rounding noise, and which side of 0 it
    # falls on moves σ_left / σ_right — another convolution gives other signs and slightly other scores
    kernel = _kernel()
    mu = convolve2d(gray, kernel, "same")
    sigma = np.sqrt(np.abs(convolve2d(gray * gray, kernel, "same") - mu * mu))
    return (gray - mu) / (sigma + _C)


def _log_phi(alpha: float) -> float:
    from scipy.special import gammaln

    return 2 * gammaln(2 / alpha) - gammaln(1 / alpha) - gammaln(3 / alpha)


def aggd(x: np.ndarray) -> tuple[float, float, float, float]:
    """Moment-matching AGGD fit: shape α, mean, σ_left, σ_right."""
    from scipy.optimize import brentq
    from scipy.special import gammaln

    x = x.ravel()
    left, right = x[x < 0], x[x >= 0]
    sigma_l = float(np.sqrt(np.mean(left * left))) if left.size else 0.0
    sigma_r = float(np.sqrt(np.mean(right * right))) if right.size else 0.0
    mean_sq = float(np.mean(x * x))
    if mean_sq == 0 or sigma_r == 0:
        return 0.2, 0.0, sigma_l, sigma_r
    g = sigma_l / sigma_r
    r_hat = float(np.mean(np.abs(x))) ** 2 / mean_sq
    big_r = r_hat * (g ** 3 + 1) * (g + 1) / (g ** 2 + 1) ** 2
    # φ rises monotonically from 0 (α → 0) to 3/4 (α → ∞): one root, bracketed
    lo, hi = 0.05, 50.0
    target = float(np.clip(np.log(big_r), _log_phi(lo), _log_phi(hi)))
    alpha = float(brentq(lambda a: _log_phi(a) - target, lo, hi, xtol=1e-12))
    ratio = np.exp(gammaln(2 / alpha) - gammaln(1 / alpha))
    constant = np.sqrt(np.exp(gammaln(1 / alpha) - gammaln(3 / alpha)))
    return alpha, float((sigma_r - sigma_l) * constant * ratio), sigma_l, sigma_r


def _scale_features(gray: np.ndarray) -> list[float]:
    coefficients = mscn(gray)
    alpha, _, sigma_l, sigma_r = aggd(coefficients)
    out = [alpha, (sigma_l ** 2 + sigma_r ** 2) / 2]
    for product in (coefficients[:, :-1] * coefficients[:, 1:], coefficients[:-1, :] * coefficients[1:, :],
                    coefficients[:-1, :-1] * coefficients[1:, 1:], coefficients[1:, :-1] * coefficients[:-1, 1:]):
        alpha, mean, sigma_l, sigma_r = aggd(product)
        out += [alpha, mean, sigma_l ** 2, sigma_r ** 2]
    return out


def to_gray(image: np.ndarray, *, bgr: bool = False) -> np.ndarray:
    """A 0–1 float gray image from uint8 gray, RGB or (``bgr``) BGR pixels; floats are taken as 0–1."""
    from skimage.color import rgb2gray  # the training code's conversion, to its rounding

    pixels = np.asarray(image)
    if pixels.ndim == 3:
        pixels = pixels[..., :3]
        return rgb2gray(np.ascontiguousarray(pixels[..., ::-1]) if bgr else pixels)
    return pixels.astype(np.float64) / (255.0 if pixels.dtype == np.uint8 else 1.0)


def features(gray: np.ndarray) -> np.ndarray:
    """The 36 raw BRISQUE features of a 0–1 gray image: 18 at native size, 18 at half size."""
    import warnings

    from skimage.transform import rescale

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        half = rescale(gray, 0.5, order=2, mode="constant", anti_aliasing=False)
    return np.array(_scale_features(gray) + _scale_features(half))


def score(image: np.ndarray, model: Model | None = None, *, bgr: bool = False) -> float:
    """The BRISQUE score of an image (uint8 gray / RGB / BGR with ``bgr``); lower is better."""
    model = model or installed_model()
    return model.predict(features(to_gray(image, bgr=bgr)))
