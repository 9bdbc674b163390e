"""Agreement statistics between a judge's scores and human pass/fail verdicts.

Everything here works on plain numbers: ``scores`` are the judge's P(pass) in 0..1, ``humans`` the
human verdicts (True = should pass), ``predicted`` the verdicts the metric gave. The positive class
is "pass". A figure that cannot be computed from the data (a class with no cases) is None, never 0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z_95 = 1.959963984540054  # the standard normal's 97.5th percentile
ECE_BINS = 10


@dataclass(frozen=True, slots=True)
class Confusion:
    """Counts of (human, predicted) pairs: tp = both pass, fn = human pass / predicted fail, fp = human
    fail / predicted pass, tn = both fail."""

    tp: int = 0
    fn: int = 0
    fp: int = 0
    tn: int = 0

    @property
    def n(self) -> int:
        return self.tp + self.fn + self.fp + self.tn

    @property
    def positives(self) -> int:
        return self.tp + self.fn

    @property
    def negatives(self) -> int:
        return self.fp + self.tn

    def to_dict(self) -> dict[str, int]:
        return {"tp": self.tp, "fn": self.fn, "fp": self.fp, "tn": self.tn}


def confusion(humans: Sequence[bool], predicted: Sequence[bool]) -> Confusion:
    """Count the four (human, predicted) combinations."""
    if len(humans) != len(predicted):
        raise ValueError("humans and predicted must have the same length")
    tp = sum(1 for h, p in zip(humans, predicted, strict=True) if h and p)
    fn = sum(1 for h, p in zip(humans, predicted, strict=True) if h and not p)
    fp = sum(1 for h, p in zip(humans, predicted, strict=True) if not h and p)
    return Confusion(tp, fn, fp, len(humans) - tp - fn - fp)


def accuracy(table: Confusion) -> float | None:
    """(tp + tn) / n; None when n = 0."""
    return (table.tp + table.tn) / table.n if table.n else None


def pass_recall(table: Confusion) -> float | None:
    """Sensitivity, tp / (tp + fn): the share of human passes the judge passed; None without positives."""
    return table.tp / table.positives if table.positives else None


def fail_recall(table: Confusion) -> float | None:
    """Specificity, tn / (tn + fp): the share of human fails the judge failed; None without negatives."""
    return table.tn / table.negatives if table.negatives else None


def balanced_accuracy(table: Confusion) -> float | None:
    """Mean of pass recall and fail recall; None unless both classes are present."""
    sensitivity, specificity = pass_recall(table), fail_recall(table)
    if sensitivity is None or specificity is None:
        return None
    return (sensitivity + specificity) / 2


def cohen_kappa(table: Confusion) -> float | None:
    """Cohen's κ = (pₒ − pₑ) / (1 − pₑ): pₒ the observed agreement, pₑ the agreement expected by chance
    from the two raters' marginal pass rates. None when pₑ = 1 (both raters used one verdict only)."""
    n = table.n
    if not n:
        return None
    observed = (table.tp + table.tn) / n
    human_pass, judge_pass = table.positives / n, (table.tp + table.fp) / n
    expected = human_pass * judge_pass + (1 - human_pass) * (1 - judge_pass)
    if math.isclose(expected, 1.0):
        return None
    return (observed - expected) / (1 - expected)


def wilson_interval(successes: int, n: int, z: float = Z_95) -> tuple[float, float] | None:
    """Wilson score interval for a proportion successes/n (95 % by default); None when n = 0.

    centre = (p̂ + z²/2n) / (1 + z²/n), half-width = z/(1 + z²/n) · √(p̂(1 − p̂)/n + z²/4n²).
    """
    if n <= 0:
        return None
    if not 0 <= successes <= n:
        raise ValueError("successes must be between 0 and n")
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def expected_calibration_error(scores: Sequence[float], humans: Sequence[bool], bins: int = ECE_BINS
                               ) -> float | None:
    """ECE: the scores read as P(pass), in ``bins`` equal-width bins over 0..1 (bin i holds
    [i/bins, (i+1)/bins); the last one also holds 1).

    ECE = Σ_b (n_b / n) · |mean score in b − share of human passes in b|; None when there are no scores.
    """
    _check_scores(scores, humans)
    if not scores:
        return None
    totals = [[0, 0.0, 0] for _ in range(bins)]  # count, sum of scores, human passes
    for score, human in zip(scores, humans, strict=True):
        index = min(int(score * bins), bins - 1)
        bucket = totals[index]
        bucket[0] += 1
        bucket[1] += score
        bucket[2] += int(human)
    n = len(scores)
    return sum(count / n * abs(total / count - passes / count) for count, total, passes in totals if count)


@dataclass(frozen=True, slots=True)
class BestThreshold:
    """The pass mark (score ≥ threshold passes) with the highest balanced accuracy on the data, the
    balanced accuracy it gives, and the interval of marks that all give it."""

    threshold: float
    balanced_accuracy: float
    low: float
    high: float


def roc_auc(scores: Sequence[float], humans: Sequence[bool]) -> float | None:
    """ROC AUC of ``scores`` against ``humans``: the chance that a case a person passes scores above one they
    fail (Mann–Whitney U / (n_pass · n_fail), ties counted half); None unless both classes are present."""
    passing = [s for s, h in zip(scores, humans, strict=True) if h]
    failing = [s for s, h in zip(scores, humans, strict=True) if not h]
    if not passing or not failing:
        return None
    wins = sum((p > f) + 0.5 * (p == f) for p in passing for f in failing)
    return wins / (len(passing) * len(failing))


def best_threshold(scores: Sequence[float], humans: Sequence[bool]) -> BestThreshold | None:
    """The threshold in [0, 1] maximising balanced accuracy of ``score ≥ threshold``; None unless both
    classes are present.

    Algorithm: with the distinct scores v₁ < … < v_k, every threshold in [0, v₁] passes everything,
    one in (v_i, v_{i+1}] passes exactly the scores ≥ v_{i+1}, one in (v_k, 1] passes nothing; so only
    these k + 1 intervals need scoring, sweeping the sorted scores once. Adjacent intervals with the
    best balanced accuracy are merged; the widest merged interval wins (the lowest on a tie), and its
    middle is returned, the mark farthest from the scores on either side.
    """
    _check_scores(scores, humans)
    positives = sum(1 for h in humans if h)
    negatives = len(humans) - positives
    if not positives or not negatives:
        return None
    values = sorted(set(scores))
    below_pos = {v: 0 for v in values}  # per distinct score: positives and negatives at that score
    below_neg = {v: 0 for v in values}
    for score, human in zip(scores, humans, strict=True):
        (below_pos if human else below_neg)[score] += 1
    # Interval j (0..k): thresholds passing the scores ≥ values[j] (j = k passes nothing).
    edges = [0.0, *values, 1.0]
    intervals = []
    failed_pos = failed_neg = 0
    for j in range(len(values) + 1):
        low, high = edges[j], edges[j + 1]
        if j > 0:
            failed_pos += below_pos[values[j - 1]]
            failed_neg += below_neg[values[j - 1]]
        if high < low or (j == len(values) and high <= low):
            continue  # (v_k, 1] is empty when the highest score is 1
        score = ((positives - failed_pos) / positives + failed_neg / negatives) / 2
        intervals.append((low, high, score))
    best = max(score for _, _, score in intervals)
    runs: list[tuple[float, float]] = []
    for low, high, score in intervals:
        if not math.isclose(score, best, rel_tol=0, abs_tol=1e-12):
            continue
        if runs and runs[-1][1] == low:
            runs[-1] = (runs[-1][0], high)
        else:
            runs.append((low, high))
    low, high = max(runs, key=lambda run: (run[1] - run[0], -run[0]))
    return BestThreshold((low + high) / 2, best, low, high)


def cross_validated_balanced_accuracy(scores: Sequence[float], humans: Sequence[bool], folds: int = 5
                                      ) -> tuple[float, int] | None:
    """Balanced accuracy of the threshold search on cases it did not see: (balanced accuracy, folds).

    Algorithm: stratified k-fold (k = min(folds, positives, negatives)); the cases of each class, in
    their given order, are dealt to the folds in turn. For each fold the best threshold is fitted on
    the other folds and applied to this one; the pooled predictions give the balanced accuracy.
    None when k < 2.
    """
    positives = [i for i, h in enumerate(humans) if h]
    negatives = [i for i, h in enumerate(humans) if not h]
    k = min(folds, len(positives), len(negatives))
    if k < 2:
        return None
    fold_of = {}
    for members in (positives, negatives):
        for rank, index in enumerate(members):
            fold_of[index] = rank % k
    predicted = [False] * len(scores)
    for fold in range(k):
        train = [i for i in range(len(scores)) if fold_of[i] != fold]
        fitted = best_threshold([scores[i] for i in train], [humans[i] for i in train])
        for i in range(len(scores)):
            if fold_of[i] == fold:
                predicted[i] = scores[i] >= fitted.threshold
    result = balanced_accuracy(confusion(list(humans), predicted))
    return (result, k) if result is not None else None


def _check_scores(scores: Sequence[float], humans: Sequence[bool]) -> None:
    if len(scores) != len(humans):
        raise ValueError("scores and humans must have the same length")
    for score in scores:
        if not 0.0 <= score <= 1.0:  # also refuses NaN
            raise ValueError(f"scores must be probabilities in 0..1, got {score!r}")
