"""Confidence intervals: Wilson for a pass rate, percentile bootstrap for a mean score.

Pure Python; numpy, when it is installed, only makes the bootstrap faster (same method).
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Sequence
from typing import Any

# Above this many values the bootstrap distribution of a mean is normal to well within its own
# Monte-Carlo error, so the normal interval is used instead (no resampling cost on large runs).
NORMAL_ABOVE = 10_000
# Without numpy, resampling is pure Python: the normal interval is used above this many values.
_PURE_PYTHON_MAX = 1_000


# Φ⁻¹(0.975) as NormalDist gives it: the usual confidence spares a run the statistics module's imports
# (~4 ms of start-up; tests check the two agree).
_Z_95 = 1.9599639845400536


def z_value(confidence: float) -> float:
    """The two-sided standard-normal quantile z = Φ⁻¹(1 − (1 − confidence)/2) (1.95996… for 0.95)."""
    _check_confidence(confidence)
    if confidence == 0.95:
        return _Z_95
    from statistics import NormalDist  # imported when another confidence is first asked for

    return NormalDist().inv_cdf(1.0 - (1.0 - confidence) / 2.0)


def wilson_interval(passed: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a proportion p̂ = passed/n.

    (p̂ + z²/2n ± z·√(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n), z = Φ⁻¹(1 − α/2). Unlike the Wald
    interval p̂ ± z·√(p̂(1−p̂)/n) it keeps its coverage near the nominal level for small n and for
    pass rates near 0 or 1, and never leaves [0, 1]. Raises ValueError unless 0 ≤ passed ≤ n, n ≥ 1.
    """
    if isinstance(passed, bool) or isinstance(n, bool) or int(passed) != passed or int(n) != n:
        raise ValueError(f"passed and n must be integers, got {passed!r} and {n!r}")
    if n < 1 or not 0 <= passed <= n:
        raise ValueError(f"need 0 ≤ passed ≤ n and n ≥ 1, got passed={passed}, n={n}")
    z = z_value(confidence)
    p = passed / n
    z2n = z * z / n
    center = (p + z2n / 2.0) / (1.0 + z2n)
    half = z * math.sqrt(p * (1.0 - p) / n + z2n / (4.0 * n)) / (1.0 + z2n)
    return max(0.0, center - half), min(1.0, center + half)


def bootstrap_mean_interval(values: Sequence[float], confidence: float = 0.95, resamples: int = 2000,
                            seed: int = 0) -> tuple[float, float]:
    """Percentile bootstrap interval for the mean x̄ = Σxᵢ/n.

    Draw ``resamples`` samples of n values with replacement, take each sample's mean, and return the
    (α/2, 1 − α/2) quantiles of those means (α = 1 − confidence); deterministic for a given ``seed``.
    Above ``NORMAL_ABOVE`` values (``_PURE_PYTHON_MAX`` without numpy) the bootstrap distribution is
    replaced by its normal limit: x̄ ± z·s/√n with s² = Σ(xᵢ − x̄)²/n, the bootstrap's own variance.
    One value gives (x, x). Raises ValueError on no values or a value that is not finite.
    """
    _check_confidence(confidence)
    # An array of doubles (a run's scores, counted in flat memory) is read in place, not copied.
    data: Sequence[float] = values if isinstance(values, array) and values.typecode == "d" \
        else [float(v) for v in values]
    if not data:
        raise ValueError("no values")
    if not all(math.isfinite(v) for v in data):
        raise ValueError("values must be finite")
    if resamples < 1:
        raise ValueError(f"resamples must be ≥ 1, got {resamples}")
    n = len(data)
    mean = math.fsum(data) / n
    if n == 1 or min(data) == max(data):
        return mean, mean
    np = _numpy()
    if n > NORMAL_ABOVE or (np is None and n > _PURE_PYTHON_MAX):
        sd = math.sqrt(math.fsum((v - mean) ** 2 for v in data) / n)
        half = z_value(confidence) * sd / math.sqrt(n)
        return mean - half, mean + half
    means = _bootstrap_means(data, resamples, seed)
    alpha = 1.0 - confidence
    return _quantile(means, alpha / 2.0), _quantile(means, 1.0 - alpha / 2.0)


def _bootstrap_means(data: Sequence[float], resamples: int, seed: int) -> list[float]:
    """The means of ``resamples`` resamples (with replacement) of ``data``; numpy when available."""
    np = _numpy()
    n = len(data)
    if np is None:
        import random  # here: only a bootstrap without numpy draws with it

        rng = random.Random(seed)
        return sorted(math.fsum(rng.choices(data, k=n)) / n for _ in range(resamples))
    rng_np = np.random.default_rng(seed)
    sample = np.asarray(data, dtype=float)
    chunk = max(1, 2_000_000 // n)  # bounded memory: at most ~2M indices at a time
    out = []
    for start in range(0, resamples, chunk):
        rows = min(chunk, resamples - start)
        out.append(sample[rng_np.integers(0, n, size=(rows, n))].mean(axis=1))
    return sorted(float(m) for m in np.concatenate(out))


def _quantile(ordered: list[float], q: float) -> float:
    """Linear-interpolation quantile of sorted values (numpy's default, type 7)."""
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:  # an optional speed-up only
        return None
    return numpy


def _check_confidence(confidence: float) -> None:
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence!r}")
