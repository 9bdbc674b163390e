"""Paired tests for two runs of the same cases: exact McNemar on verdicts, Wilcoxon signed-rank
and paired bootstrap on scores. Every p-value is two-sided."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

from agentunit.stats.intervals import _numpy

_EXACT_INTEGERS_MAX = 1000  # discordant pairs up to which McNemar's sum is done in exact integers
_EXACT_WILCOXON_MAX = 50  # pairs up to which Wilcoxon's null distribution is enumerated (as scipy)
_PERMUTATION_MAX = 13  # with ties or zeros, pairs up to which all 2ⁿ sign flips are enumerated (as scipy)


def mcnemar_exact(b: int, c: int) -> float:
    """Exact McNemar test from the discordant counts (b: passed → failed, c: failed → passed).

    Under H₀ (no change) each discordant pair goes either way with probability ½, so with
    n = b + c: p = min(1, 2·P(X ≤ min(b, c))), X ~ Binomial(n, ½) = min(1, 2·Σ_{k≤min(b,c)} C(n,k)/2ⁿ).
    p = 1 when there are no discordant pairs. Concordant pairs do not enter.
    """
    if isinstance(b, bool) or isinstance(c, bool) or int(b) != b or int(c) != c or b < 0 or c < 0:
        raise ValueError(f"b and c must be counts ≥ 0, got {b!r} and {c!r}")
    n, m = int(b + c), int(min(b, c))
    if n == 0:
        return 1.0
    if n <= _EXACT_INTEGERS_MAX:
        term, total = 1, 0
        for k in range(m + 1):
            total += term
            term = term * (n - k) // (k + 1)
        return min(1.0, 2 * total / 2**n)
    # Log space: the terms shrink going down from k = m ≤ n/2, ratio C(n,k−1)/C(n,k) = k/(n−k+1).
    log_top = math.lgamma(n + 1) - math.lgamma(m + 1) - math.lgamma(n - m + 1) - n * math.log(2.0)
    ratio_sum, term = 0.0, 1.0
    for k in range(m, -1, -1):
        ratio_sum += term
        term *= k / (n - k + 1)
        if term < 1e-17 * ratio_sum:
            break
    return min(1.0, 2.0 * math.exp(log_top) * ratio_sum)


@dataclass(frozen=True, slots=True)
class WilcoxonResult:
    """``statistic``: min(W⁺, W⁻) (scipy's); ``w_plus``/``w_minus``: rank sums of the positive and
    negative differences; ``n``: non-zero differences; ``method``: exact, permutation or normal."""

    statistic: float
    p_value: float
    w_plus: float
    w_minus: float
    n: int
    method: str


def wilcoxon_signed_rank(a: Sequence[float], b: Sequence[float]) -> WilcoxonResult:
    """Wilcoxon signed-rank test of the paired differences dᵢ = bᵢ − aᵢ (scipy's defaults).

    Zero differences are dropped (Wilcox); |dᵢ| are ranked with average ranks for ties;
    W⁺ = Σ_{dᵢ>0} rank, W⁻ = Σ_{dᵢ<0} rank. p-value, as ``scipy.stats.wilcoxon(a, b)`` chooses it:
    with at most 50 pairs and no ties or zeros, the exact null distribution of W⁺
    (p = 2·min(P(W ≥ W⁺), P(W ≤ W⁺))); with ties or zeros and at most 13 pairs, all 2ⁿ sign flips;
    otherwise the normal approximation z = (W⁺ − μ)/σ (no continuity correction) with μ = n(n+1)/4,
    σ² = (n(n+1)(2n+1) − Σ(t³ − t)/2)/24 over tie groups t, p = 2·(1 − Φ(|z|)).
    p = 1 when every difference is zero.
    """
    diffs = _differences(a, b)
    total = len(diffs)
    nonzero = [d for d in diffs if d != 0.0]
    n = len(nonzero)
    if n == 0:
        return WilcoxonResult(0.0, 1.0, 0.0, 0.0, 0, "none")
    ranks, ties = _average_ranks([abs(d) for d in nonzero])
    w_plus = math.fsum(r for r, d in zip(ranks, nonzero, strict=True) if d > 0)
    w_minus = math.fsum(r for r, d in zip(ranks, nonzero, strict=True) if d < 0)
    statistic = min(w_plus, w_minus)
    has_ties = any(t > 1 for t in ties)
    if total <= _EXACT_WILCOXON_MAX and not has_ties and n == total:
        p = _exact_p(n, w_plus)
        return WilcoxonResult(statistic, p, w_plus, w_minus, n, "exact")
    if total <= _EXACT_WILCOXON_MAX and total <= _PERMUTATION_MAX:
        p = _sign_flip_p(ranks, w_plus)
        return WilcoxonResult(statistic, p, w_plus, w_minus, n, "permutation")
    mean = n * (n + 1) / 4.0
    variance = (n * (n + 1) * (2 * n + 1) - sum(t**3 - t for t in ties) / 2.0) / 24.0
    if variance <= 0:
        return WilcoxonResult(statistic, 1.0, w_plus, w_minus, n, "normal")
    sd = math.sqrt(variance)
    z = (w_plus - mean) / sd
    p = min(1.0, 2.0 * NormalDist().cdf(-abs(z)))
    return WilcoxonResult(statistic, p, w_plus, w_minus, n, "normal")


def wilcoxon_p(a: Sequence[float], b: Sequence[float]) -> float:
    """The two-sided p-value of ``wilcoxon_signed_rank(a, b)``."""
    return wilcoxon_signed_rank(a, b).p_value


def paired_bootstrap_p(a: Sequence[float], b: Sequence[float], resamples: int = 5000, seed: int = 0) -> float:
    """Two-sided paired bootstrap test of H₀: E[b − a] = 0.

    dᵢ = bᵢ − aᵢ, d̄ their mean; resample the centred differences dᵢ − d̄ (H₀ imposed) with
    replacement ``resamples`` times and count the resampled means at least as far from 0 as d̄:
    p = (1 + #{|d̄*| ≥ |d̄|}) / (resamples + 1). Tests the mean difference itself (the delta that
    ``compare`` reports) and needs no symmetry, at the cost of Monte-Carlo error (±~0.003 at 5000).
    p = 1 when every difference is zero; deterministic for a given ``seed``.
    """
    diffs = _differences(a, b)
    if resamples < 1:
        raise ValueError(f"resamples must be ≥ 1, got {resamples}")
    n = len(diffs)
    if n == 0 or all(d == 0.0 for d in diffs):
        return 1.0
    mean = math.fsum(diffs) / n
    centred = [d - mean for d in diffs]
    if all(abs(d) < 1e-15 for d in centred):  # every pair moved by the same amount: nothing to resample
        return 1.0 / (resamples + 1)
    observed = abs(mean) * (1 - 1e-12)  # a resampled mean equal to |d̄| up to rounding counts as extreme
    np = _numpy()
    if np is None:
        rng = random.Random(seed)
        extreme = sum(abs(math.fsum(rng.choices(centred, k=n)) / n) >= observed for _ in range(resamples))
    else:
        extreme = _extreme_count_numpy(np, centred, resamples, seed, observed)
    return (1 + extreme) / (resamples + 1)


def _extreme_count_numpy(np: Any, centred: list[float], resamples: int, seed: int, observed: float) -> int:
    rng = np.random.default_rng(seed)
    array = np.asarray(centred, dtype=float)
    n = len(centred)
    chunk = max(1, 2_000_000 // n)
    extreme = 0
    for start in range(0, resamples, chunk):
        rows = min(chunk, resamples - start)
        means = array[rng.integers(0, n, size=(rows, n))].mean(axis=1)
        extreme += int((np.abs(means) >= observed).sum())
    return extreme


def _differences(a: Sequence[float], b: Sequence[float]) -> list[float]:
    if len(a) != len(b):
        raise ValueError(f"paired samples must have the same length, got {len(a)} and {len(b)}")
    diffs = [float(y) - float(x) for x, y in zip(a, b, strict=True)]
    if not all(math.isfinite(d) for d in diffs):
        raise ValueError("values must be finite")
    return diffs


def _average_ranks(values: list[float]) -> tuple[list[float], list[int]]:
    """Ranks 1..n with ties given their average rank, and the size of each tie group."""
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    ties = []
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2.0 + 1.0
        ties.append(j - i + 1)
        i = j + 1
    return ranks, ties


def _exact_p(n: int, w_plus: float) -> float:
    """2·min(P(W ≥ W⁺), P(W ≤ W⁺)) under the exact null of W⁺ for ranks 1..n (each sign ½)."""
    counts = [1] + [0] * (n * (n + 1) // 2)
    top = 0
    for rank in range(1, n + 1):
        top += rank
        for s in range(top, rank - 1, -1):
            counts[s] += counts[s - rank]
    total = 2**n
    w = round(w_plus)
    lower = sum(counts[: w + 1])
    upper = sum(counts[w:])
    return min(1.0, 2 * min(lower, upper) / total)


def _sign_flip_p(ranks: list[float], w_plus: float) -> float:
    """Exact sign-flip p-value: W⁺ over all 2ⁿ sign assignments of the ranked differences."""
    doubled = [round(2 * r) for r in ranks]  # average ranks are multiples of ½
    counts: dict[int, int] = {0: 1}
    for r in doubled:
        nxt: dict[int, int] = {}
        for s, c in counts.items():
            nxt[s] = nxt.get(s, 0) + c
            nxt[s + r] = nxt.get(s + r, 0) + c
        counts = nxt
    w = round(2 * w_plus)
    total = 2 ** len(doubled)
    lower = sum(c for s, c in counts.items() if s <= w)
    upper = sum(c for s, c in counts.items() if s >= w)
    return min(1.0, 2 * min(lower, upper) / total)
