"""The agreement statistics against values computed by hand."""

import math

import pytest

from agentunit.calibration import stats
from agentunit.calibration.stats import Confusion


def _table(tp, fn, fp, tn):
    humans = [True] * (tp + fn) + [False] * (fp + tn)
    predicted = [True] * tp + [False] * fn + [True] * fp + [False] * tn
    return stats.confusion(humans, predicted)


def test_confusion_counts_each_combination():
    table = stats.confusion([True, True, False, False, True], [True, False, True, False, True])
    assert table == Confusion(tp=2, fn=1, fp=1, tn=1)
    assert (table.n, table.positives, table.negatives) == (5, 3, 2)


def test_cohen_kappa_on_the_textbook_two_by_two_table():
    # Wikipedia's example: 50 proposals, both yes 20, A yes / B no 5, A no / B yes 10, both no 15.
    # pₒ = 35/50 = 0.7; pₑ = 0.5·0.6 + 0.5·0.4 = 0.5; κ = 0.2/0.5 = 0.4.
    table = Confusion(tp=20, fn=5, fp=10, tn=15)
    assert stats.cohen_kappa(table) == pytest.approx(0.4)
    assert stats.accuracy(table) == pytest.approx(0.7)


def test_kappa_is_none_when_both_raters_use_one_verdict_and_zero_at_chance():
    assert stats.cohen_kappa(Confusion(tp=4)) is None
    assert stats.cohen_kappa(Confusion()) is None
    # The judge passes everything: agreement is exactly what chance gives.
    assert stats.cohen_kappa(Confusion(tp=3, fp=2)) == pytest.approx(0.0)


def test_balanced_accuracy_and_recalls():
    table = _table(tp=9, fn=1, fp=3, tn=7)
    assert stats.pass_recall(table) == pytest.approx(0.9)
    assert stats.fail_recall(table) == pytest.approx(0.7)
    assert stats.balanced_accuracy(table) == pytest.approx(0.8)
    assert stats.balanced_accuracy(_table(tp=3, fn=1, fp=0, tn=0)) is None  # no human fails: not measured
    assert stats.fail_recall(_table(tp=3, fn=1, fp=0, tn=0)) is None
    assert stats.accuracy(Confusion()) is None


def test_wilson_interval_matches_the_published_values():
    # 8 of 10: the Wilson 95 % interval is [0.490, 0.943]; 0 of 10: [0, 0.2775].
    low, high = stats.wilson_interval(8, 10)
    assert (round(low, 3), round(high, 3)) == (0.490, 0.943)
    low, high = stats.wilson_interval(0, 10)  # never below 0, and not degenerate like the Wald interval
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    assert stats.wilson_interval(10, 10)[1] == pytest.approx(1.0)
    assert stats.wilson_interval(0, 0) is None
    with pytest.raises(ValueError):
        stats.wilson_interval(11, 10)


def test_expected_calibration_error_by_hand():
    # Bins of 0.1: 0.15 and 0.12 share bin 1 (mean 0.135, passes 1/2: |0.135 − 0.5| = 0.365);
    # 0.85 in bin 8 (human pass: |0.85 − 1| = 0.15); 1.0 in the last bin (human fail: 1.0).
    # ECE = (2·0.365 + 0.15 + 1.0) / 4 = 0.47.
    scores = [0.15, 0.12, 0.85, 1.0]
    humans = [True, False, True, False]
    assert stats.expected_calibration_error(scores, humans) == pytest.approx(0.47)
    assert stats.expected_calibration_error([0.0, 1.0], [False, True]) == 0.0  # perfectly calibrated
    assert stats.expected_calibration_error([], []) is None
    # With 2 bins the first two and the last two share a bin: (|0.135 − 0.5|·2 + |0.925 − 0.5|·2) / 4.
    assert stats.expected_calibration_error(scores, humans, bins=2) == pytest.approx((0.365 + 0.425) / 2)


def test_scores_outside_zero_to_one_are_refused():
    with pytest.raises(ValueError, match=r"probabilities in 0\.\.1"):
        stats.expected_calibration_error([1.5], [True])
    with pytest.raises(ValueError, match=r"probabilities in 0\.\.1"):
        stats.best_threshold([math.nan, 0.2], [True, False])


def test_best_threshold_finds_the_known_optimum_and_returns_the_middle_of_its_interval():
    # Sorted: 0.2 F, 0.55 F, 0.6 T, 0.7 F, 0.9 T. Passing ≥ 0.6 gives recall 1 and fail recall 2/3
    # (BA 0.833); ≥ 0.9 gives 0.75; ≥ 0.7 gives 0.417; everything passing gives 0.5.
    best = stats.best_threshold([0.9, 0.6, 0.55, 0.2, 0.7], [True, True, False, False, False])
    assert best.balanced_accuracy == pytest.approx(5 / 6)
    assert (best.low, best.high) == (0.55, 0.6)
    assert best.threshold == pytest.approx(0.575)


def test_best_threshold_on_separable_scores_is_the_middle_of_the_gap():
    best = stats.best_threshold([0.1, 0.3, 0.8, 0.9], [False, False, True, True])
    assert best.balanced_accuracy == 1.0 and best.threshold == pytest.approx(0.55)


def test_best_threshold_ties_merge_adjacent_intervals_and_prefer_the_widest():
    # One pass and one fail share 0.5: every threshold gives BA 0.5 except none — all tie; the
    # intervals [0, 0.5] and (0.5, 1] merge into [0, 1], whose middle is 0.5.
    best = stats.best_threshold([0.5, 0.5], [True, False])
    assert best.balanced_accuracy == 0.5 and best.threshold == pytest.approx(0.5)
    # Two disjoint best intervals: (0.2, 0.3] and (0.6, 0.9]; the wider one wins.
    scores = [0.2, 0.3, 0.6, 0.9]
    humans = [False, True, False, True]
    best = stats.best_threshold(scores, humans)
    assert best.balanced_accuracy == 0.75
    assert (best.low, best.high) == (0.6, 0.9) and best.threshold == pytest.approx(0.75)


def test_best_threshold_at_the_ends_of_the_scale():
    # Only failing everything is right for the fails; passing ≥ 1.0 is the best mark: [0.4, 1.0].
    best = stats.best_threshold([1.0, 0.2, 0.4], [True, False, False])
    assert best.balanced_accuracy == 1.0 and (best.low, best.high) == (0.4, 1.0)
    assert stats.best_threshold([0.3, 0.4], [True, True]) is None


def test_cross_validation_fits_on_other_folds():
    # Perfectly separable with a wide gap: every fold's threshold separates its held-out cases too.
    scores = [0.1, 0.15, 0.2, 0.25, 0.3, 0.7, 0.75, 0.8, 0.85, 0.9]
    humans = [False] * 5 + [True] * 5
    assert stats.cross_validated_balanced_accuracy(scores, humans) == (1.0, 5)
    # In-sample the best mark gives 0.833; fitted on the other two folds each time (3 folds: {0.3, 0.1},
    # {0.5, 0.2}, {0.6, 0.4}; marks 0.45, 0.2, 0.25) it gets 0.3 wrong, 0.2 and 0.4 wrong: (2/3 + 1/3) / 2.
    scores = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]
    humans = [False, False, True, False, True, True]
    assert stats.best_threshold(scores, humans).balanced_accuracy == pytest.approx(5 / 6)
    assert stats.cross_validated_balanced_accuracy(scores, humans) == (pytest.approx(0.5), 3)
    assert stats.cross_validated_balanced_accuracy([0.2, 0.9, 0.8], [False, True, True]) is None  # one fail


def test_roc_auc_counts_pairs_ordered_right_and_ties_as_half():
    # pass scores 0.9, 0.6; fail scores 0.6, 0.2: pairs (0.9>0.6) (0.9>0.2) (0.6=0.6 half) (0.6>0.2) → 3.5 / 4
    assert stats.roc_auc([0.9, 0.6, 0.6, 0.2], [True, True, False, False]) == 0.875
    assert stats.roc_auc([0.1, 0.9], [True, False]) == 0.0
    assert stats.roc_auc([0.5, 0.7], [True, True]) is None
