"""Per-metric agreement between the judge and human verdicts, from paired metric results.

A ``Pair`` is one judge-backed metric result with the human verdict for it. ``agreement`` groups the
pairs by metric key and computes, over the results with a verdict (passed or failed): the confusion
matrix at the thresholds the run used, accuracy and pass/fail recall with Wilson 95 % intervals,
balanced accuracy, Cohen's κ, the expected calibration error of the value read as P(pass), the best
threshold on these labels (and its cross-validated balanced accuracy), and the worst disagreements.
Results that were not measured, errored or gave no verdict are counted and listed, never dropped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import agentunit.calibration.stats as stats

SMALL_CLASS = 30
DEFAULT_WORST = 5


@dataclass(frozen=True, slots=True)
class Pair:
    """One judge-backed metric result and its human verdict.

    ``score`` is the value read as P(pass) (None when not measured); ``flip`` is True when the metric's
    threshold is 1 − the P(pass) mark (lower-is-better or negated metrics, see keys.metric_threshold).
    """

    metric: str
    case_id: str
    human: bool
    status: str  # passed | failed | info | not_measured | error
    value: float | None = None
    score: float | None = None
    passed: bool | None = None
    threshold: float | None = None
    threshold_source: str | None = None
    reason: str | None = None
    error: str | None = None
    kind: str = ""  # the metric's canonical name, with not- when negated
    flip: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"case": self.case_id, "value": self.value, "p_pass": self.score, "human_pass": self.human,
                "judge_pass": self.passed, "threshold": self.threshold, "status": self.status,
                "reason": self.reason, "error": self.error}


@dataclass
class MetricAgreement:
    """The agreement figures of one metric key (see the module docstring); None where not computable."""

    metric: str
    n: int
    positives: int
    negatives: int
    confusion: stats.Confusion
    accuracy: float | None
    accuracy_ci: tuple[float, float] | None
    pass_recall: float | None
    pass_recall_ci: tuple[float, float] | None
    fail_recall: float | None
    fail_recall_ci: tuple[float, float] | None
    balanced_accuracy: float | None
    kappa: float | None
    ece: float | None
    thresholds: list[dict[str, Any]]
    best: stats.BestThreshold | None
    best_metric_threshold: float | None
    cross_validated: tuple[float, int] | None
    disagreements: list[Pair]
    not_measured: list[Pair]
    errors: list[Pair]
    no_verdict: list[Pair]
    warnings: list[str] = field(default_factory=list)
    ece_bins: int = stats.ECE_BINS

    @property
    def fittable(self) -> bool:
        """A threshold can be written: both classes measured and one kind of metric under the key."""
        return self.best_metric_threshold is not None


def agreement(pairs: list[Pair], worst: int = DEFAULT_WORST) -> list[MetricAgreement]:
    """One MetricAgreement per metric key, in the order keys first appear."""
    groups: dict[str, list[Pair]] = {}
    for pair in pairs:
        groups.setdefault(pair.metric, []).append(pair)
    return [_one(name, group, worst) for name, group in groups.items()]


def _one(name: str, pairs: list[Pair], worst: int) -> MetricAgreement:
    decided = [p for p in pairs if p.status in ("passed", "failed")]
    humans = [p.human for p in decided]
    table = stats.confusion(humans, [bool(p.passed) for p in decided])
    scores = [p.score for p in decided]
    best = stats.best_threshold(scores, humans)
    kinds = {(p.kind, p.flip) for p in decided}
    best_metric = None
    warnings: list[str] = []
    if best is not None and len(kinds) == 1:
        best_metric = 1.0 - best.threshold if decided[0].flip else best.threshold
    elif best is not None:
        warnings.append(f"{name!r} groups different metrics ({', '.join(sorted(k for k, _ in kinds))}): no threshold "
                        "is fitted; give each its own label")
    if not table.positives or not table.negatives:
        missing = "fail" if not table.negatives else "pass"
        warnings.append(f"no human {missing} verdicts among the measured results: balanced accuracy, κ and a "
                        "fitted threshold need both")
    elif table.positives < SMALL_CLASS or table.negatives < SMALL_CLASS:
        warnings.append(f"small sample ({table.positives} pass / {table.negatives} fail, under {SMALL_CLASS} per "
                        "class): the figures and the fitted threshold are uncertain; see the 95 % intervals")
    left_out = len(pairs) - len(decided)
    if left_out:
        warnings.append(f"{left_out} labelled result(s) gave no verdict (not measured, errored or informational) "
                        "and are left out of the figures")
    wrong = [p for p in decided if p.passed != p.human]
    wrong.sort(key=lambda p: (-(p.score if not p.human else 1.0 - p.score), p.case_id))
    return MetricAgreement(
        metric=name, n=table.n, positives=table.positives, negatives=table.negatives, confusion=table,
        accuracy=stats.accuracy(table), accuracy_ci=stats.wilson_interval(table.tp + table.tn, table.n),
        pass_recall=stats.pass_recall(table), pass_recall_ci=stats.wilson_interval(table.tp, table.positives),
        fail_recall=stats.fail_recall(table), fail_recall_ci=stats.wilson_interval(table.tn, table.negatives),
        balanced_accuracy=stats.balanced_accuracy(table), kappa=stats.cohen_kappa(table),
        ece=stats.expected_calibration_error(scores, humans), thresholds=_thresholds(decided),
        best=best, best_metric_threshold=best_metric,
        cross_validated=stats.cross_validated_balanced_accuracy(scores, humans) if best_metric is not None else None,
        disagreements=wrong[:worst],
        not_measured=[p for p in pairs if p.status == "not_measured"],
        errors=[p for p in pairs if p.status == "error"],
        no_verdict=[p for p in pairs if p.status == "info"],
        warnings=warnings)


def _thresholds(decided: list[Pair]) -> list[dict[str, Any]]:
    """The thresholds the run applied, with where each came from and how many results used it."""
    counts: dict[tuple[float | None, str | None], int] = {}
    for pair in decided:
        key = (pair.threshold, pair.threshold_source)
        counts[key] = counts.get(key, 0) + 1
    return [{"threshold": t, "source": source or "suite", "results": n} for (t, source), n in counts.items()]
