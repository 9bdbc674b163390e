"""Case verdicts from metric results, and repeat statistics (pass rate, pass@k, pass^k)."""

from __future__ import annotations

from collections.abc import Sequence
from math import comb
from typing import Any

from agentunit.metrics.base import MetricResult


class CaseVerdict:
    """A case's verdict: ``status`` passed | failed | errored | unmeasured, whether it ``passed``, its
    weighted ``score`` and the ``reason`` (a plain class: start-up builds no dataclass)."""

    __slots__ = ("passed", "reason", "score", "status")

    def __init__(self, status: str, passed: bool, score: float | None, reason: str | None) -> None:
        self.status, self.passed, self.score, self.reason = status, passed, score, reason


def judge_case(results: Sequence[MetricResult], metrics: Sequence[Any], threshold: float | None) -> CaseVerdict:
    """Decide a case from its metric results.

    Algorithm: a metric error errors the case. Only results with a verdict and weight > 0 count
    (weight 0 is informational; not-measured and informational results never count as passes or
    failures). The weighted score is Σ wᵢ·sᵢ / Σ wᵢ where sᵢ is the metric's 0..1 value for score
    metrics and 1/0 for pass/fail otherwise. With a case ``threshold`` the case passes when the
    score ≥ threshold; without one it passes when every counted metric passed. A case where nothing
    counted (no metrics, or every one not measured or informational) is ``unmeasured``: not a pass,
    with the reasons of the results that gave no verdict.
    """
    errors = [r for r in results if r.error is not None]
    total_weight = weighted = 0.0
    failed: list[MetricResult] = []
    for result, metric in zip(results, metrics, strict=True):
        if result.passed is None or result.error is not None or result.weight <= 0:
            continue
        info = getattr(metric, "info", None)
        if info is not None and info.kind == "score" and result.value is not None:
            part = min(max(float(result.value), 0.0), 1.0)
        else:
            part = 1.0 if result.passed else 0.0
        total_weight += result.weight
        weighted += result.weight * part
        if not result.passed:
            failed.append(result)
    score = weighted / total_weight if total_weight else None
    if errors:
        return CaseVerdict("errored", False, score, "; ".join(f"{r.name}: {r.error}" for r in errors))
    if not total_weight:
        return CaseVerdict("unmeasured", False, None, _unmeasured_reason(results))
    if threshold is not None and score is not None:
        ok = score >= threshold
        reason = None if ok else f"weighted score {score:.3f} < threshold {threshold:g}"
        return CaseVerdict("passed" if ok else "failed", ok, score, reason)
    if failed:
        return CaseVerdict("failed", False, score, "; ".join(f"{r.name}: {r.reason}" for r in failed))
    return CaseVerdict("passed", True, score, None)


def _unmeasured_reason(results: Sequence[MetricResult]) -> str:
    if not results:
        return "no metric: nothing was checked"
    parts = []
    for r in results:
        if r.passed is None:
            parts.append(f"{r.name}: {r.reason or ('informational' if r.value is not None else 'not measured')}")
        else:  # a verdict with weight 0
            parts.append(f"{r.name}: weight 0 (informational)")
    return "no metric gave a verdict — " + "; ".join(parts)


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k (Chen et al. 2021): probability that at least one of k of n attempts passed."""
    if k > n:
        raise ValueError("k must be ≤ n")
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """pass^k (τ-bench): probability that all of k of n attempts passed, C(c,k)/C(n,k)."""
    if k > n:
        raise ValueError("k must be ≤ n")
    return comb(c, k) / comb(n, k)
