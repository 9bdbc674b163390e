"""Paired tests against statsmodels and scipy on generated data."""

from __future__ import annotations

import random

import pytest

from agentunit.stats import mcnemar_exact, paired_bootstrap_p, wilcoxon_p, wilcoxon_signed_rank
from agentunit.stats import paired as paired_module

mcnemar = pytest.importorskip("statsmodels.stats.contingency_tables").mcnemar
scipy_stats = pytest.importorskip("scipy.stats")


def test_mcnemar_exact_equals_statsmodels_and_scipy_binomtest():
    for b in range(0, 40):
        for c in range(0, 40, 3):
            table = [[17, b], [c, 5]]  # concordant counts do not enter
            expected = mcnemar(table, exact=True).pvalue
            assert mcnemar_exact(b, c) == pytest.approx(expected, rel=1e-12, abs=1e-300), (b, c)
            if b + c:
                assert mcnemar_exact(b, c) == pytest.approx(scipy_stats.binomtest(b, b + c).pvalue, rel=1e-9)
    assert mcnemar_exact(0, 0) == 1.0


def test_mcnemar_large_counts_take_the_log_space_path_and_stay_exact():
    assert paired_module._EXACT_INTEGERS_MAX < 1300
    for b, c in [(600, 700), (5000, 5200), (30000, 30500), (2000, 2000), (1001, 900), (20000, 3)]:
        expected = mcnemar([[0, b], [c, 0]], exact=True).pvalue
        assert mcnemar_exact(b, c) == pytest.approx(expected, rel=1e-8, abs=1e-300), (b, c)


def test_mcnemar_rejects_bad_counts():
    for b, c in [(-1, 2), (1.5, 2), (True, 2)]:
        with pytest.raises(ValueError):
            mcnemar_exact(b, c)


def _samples(rng: random.Random, n: int, kind: str) -> tuple[list[float], list[float]]:
    if kind == "continuous":
        a = [rng.random() for _ in range(n)]
        return a, [x + rng.gauss(0.1, 0.3) for x in a]
    if kind == "discrete":  # ties and zeros: scores on a 5-point scale
        grid = [0, 0.25, 0.5, 0.75, 1]
        return [rng.choice(grid) for _ in range(n)], [rng.choice(grid) for _ in range(n)]
    a = [rng.random() for _ in range(n)]  # many unchanged pairs (zero differences)
    return a, [x if rng.random() < 0.3 else x + rng.gauss(0, 1) for x in a]


@pytest.mark.parametrize("n", [3, 6, 9, 14, 25, 50, 51, 120, 400])
@pytest.mark.parametrize("kind", ["continuous", "discrete", "zeros"])
def test_wilcoxon_equals_scipy(n, kind):
    rng = random.Random(n * 31 + len(kind))
    checked = 0
    for _ in range(3 if n <= 13 else 8):  # scipy's own sign-flip enumeration (n ≤ 13) is slow
        a, b = _samples(rng, n, kind)
        if all(x == y for x, y in zip(a, b, strict=True)):
            continue
        ours = wilcoxon_signed_rank(a, b)
        ref = scipy_stats.wilcoxon(b, a)  # scipy's differences are x − y: b − a as ours
        assert ours.p_value == pytest.approx(float(ref.pvalue), rel=1e-9, abs=1e-12), (a, b, ours)
        assert ours.statistic == pytest.approx(float(ref.statistic))
        assert wilcoxon_p(a, b) == ours.p_value
        checked += 1
    assert checked


def test_wilcoxon_picks_scipys_method_and_direction():
    assert wilcoxon_signed_rank([0, 0, 0], [0, 0, 0]).p_value == 1.0
    assert wilcoxon_signed_rank([1, 2, 3, 4, 5], [2, 4, 6, 8, 10.5]).method == "exact"
    assert wilcoxon_signed_rank([1, 1, 2, 3], [2, 2, 2, 5]).method == "permutation"
    worse = wilcoxon_signed_rank([x / 60 for x in range(60)], [x / 60 - 0.2 for x in range(60)])
    assert worse.method == "normal" and worse.w_minus > worse.w_plus and worse.p_value < 1e-6
    with pytest.raises(ValueError):
        wilcoxon_signed_rank([1, 2], [1])


def test_paired_bootstrap_p_agrees_with_the_paired_t_test_on_large_normal_samples():
    rng = random.Random(9)
    for shift in (0.0, 0.05, 0.1, 0.2):
        a = [rng.gauss(0.5, 0.2) for _ in range(300)]
        b = [x + shift + rng.gauss(0, 0.4) for x in a]
        t_p = scipy_stats.ttest_rel(b, a).pvalue
        assert paired_bootstrap_p(a, b, resamples=4000) == pytest.approx(t_p, abs=0.02), shift


def test_paired_bootstrap_p_holds_its_level_under_the_null():
    rng = random.Random(4)
    rejected, trials = 0, 300
    for seed in range(trials):
        a = [rng.random() for _ in range(40)]
        b = [x + rng.gauss(0, 0.3) for x in a]
        rejected += paired_bootstrap_p(a, b, resamples=400, seed=seed) < 0.05
    assert 0.02 <= rejected / trials <= 0.10


def test_paired_bootstrap_p_edges_and_determinism():
    assert paired_bootstrap_p([0.1, 0.2], [0.1, 0.2]) == 1.0
    assert paired_bootstrap_p([0.1, 0.2, 0.3], [0.2, 0.3, 0.4], resamples=99) == 0.01  # every pair +0.1
    a, b = [0.1, 0.5, 0.7, 0.2, 0.9, 0.4], [0.3, 0.4, 0.9, 0.1, 0.95, 0.6]
    assert paired_bootstrap_p(a, b, seed=3) == paired_bootstrap_p(a, b, seed=3)
    with pytest.raises(ValueError):
        paired_bootstrap_p([1.0], [1.0, 2.0])
