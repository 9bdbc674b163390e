"""Intervals against statsmodels/scipy, and their coverage measured by simulation."""

from __future__ import annotations

import math
import random

import pytest

from agentunit.stats import bootstrap_mean_interval, wilson_interval
from agentunit.stats import intervals as intervals_module

proportion_confint = pytest.importorskip("statsmodels.stats.proportion").proportion_confint
scipy_stats = pytest.importorskip("scipy.stats")


@pytest.mark.parametrize("confidence", [0.8, 0.9, 0.95, 0.99])
def test_wilson_equals_statsmodels(confidence):
    for n in [*range(1, 41), 57, 100, 333, 1000, 12345]:
        for passed in sorted({0, 1, n // 3, n // 2, n - 1, n} - {-1}):
            lo, hi = proportion_confint(passed, n, alpha=1 - confidence, method="wilson")
            ours = wilson_interval(passed, n, confidence)
            assert ours == pytest.approx((lo, hi), abs=1e-12), (passed, n)


def test_wilson_coverage_is_near_nominal_by_simulation():
    rng = random.Random(7)
    for n, p in [(40, 0.3), (100, 0.8), (60, 0.5)]:
        draws = 2000
        covered = 0
        for _ in range(draws):
            passed = sum(rng.random() < p for _ in range(n))
            lo, hi = wilson_interval(passed, n)
            covered += lo <= p <= hi
        assert abs(covered / draws - 0.95) <= 0.02, (n, p, covered / draws)


def test_wilson_rejects_impossible_counts():
    for passed, n in [(0, 0), (3, 2), (-1, 5), (1.5, 3)]:
        with pytest.raises(ValueError):
            wilson_interval(passed, n)
    with pytest.raises(ValueError):
        wilson_interval(1, 2, confidence=1.0)


def test_bootstrap_matches_scipys_percentile_bootstrap_within_monte_carlo_error():
    rng = random.Random(3)
    values = [rng.betavariate(2, 5) for _ in range(120)]
    ours = bootstrap_mean_interval(values, resamples=4000)
    ref = scipy_stats.bootstrap((values,), lambda x, axis: x.mean(axis=axis), method="percentile",
                                n_resamples=4000, random_state=1).confidence_interval
    assert ours == pytest.approx((ref.low, ref.high), abs=0.006)
    mean = sum(values) / len(values)
    assert ours[0] < mean < ours[1]


def test_bootstrap_coverage_is_near_nominal_by_simulation():
    rng = random.Random(11)
    true_mean = 2 / 7  # Beta(2, 5): skewed, bounded like a 0..1 score
    draws, covered = 2000, 0
    for seed in range(draws):
        values = [rng.betavariate(2, 5) for _ in range(60)]
        lo, hi = bootstrap_mean_interval(values, resamples=1000, seed=seed)
        covered += lo <= true_mean <= hi
    assert abs(covered / draws - 0.95) <= 0.02, covered / draws


def test_bootstrap_pure_python_path_agrees(monkeypatch):
    rng = random.Random(5)
    values = [rng.random() for _ in range(80)]
    with_numpy = bootstrap_mean_interval(values, resamples=3000)
    monkeypatch.setattr(intervals_module, "_numpy", lambda: None)
    pure = bootstrap_mean_interval(values, resamples=3000)
    assert pure == pytest.approx(with_numpy, abs=0.01) and pure != with_numpy


def test_bootstrap_large_samples_use_the_normal_limit():
    rng = random.Random(2)
    values = [rng.random() for _ in range(intervals_module.NORMAL_ABOVE + 1)]
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / n)
    half = 1.959963984540054 * sd / math.sqrt(n)
    assert bootstrap_mean_interval(values) == pytest.approx((mean - half, mean + half), rel=1e-9)


def test_bootstrap_edge_cases_and_determinism():
    assert bootstrap_mean_interval([0.4]) == (0.4, 0.4)
    assert bootstrap_mean_interval([1.0] * 9) == (1.0, 1.0)
    values = [0.1, 0.5, 0.9, 0.3, 0.7]
    assert bootstrap_mean_interval(values, seed=4) == bootstrap_mean_interval(values, seed=4)
    for bad in ([], [1.0, float("nan")]):
        with pytest.raises(ValueError):
            bootstrap_mean_interval(bad)


@pytest.mark.parametrize("confidence", [0.8, 0.9, 0.95, 0.99, 0.999])
def test_z_value_is_normal_dists_quantile_exactly(confidence):
    from statistics import NormalDist

    # 0.95 is a stored constant (no statistics import at run time): it must be NormalDist's own value.
    assert intervals_module.z_value(confidence) == NormalDist().inv_cdf(1.0 - (1.0 - confidence) / 2.0)
