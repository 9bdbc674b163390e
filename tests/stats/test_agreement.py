"""Krippendorff's α on the textbook example and against a pairwise formulation; flakiness."""

from __future__ import annotations

import itertools
import random

import pytest

from agentunit.stats import flakiness, flaky_cases, krippendorff_alpha

# Krippendorff (2011), "Computing Krippendorff's alpha-reliability": 4 observers, 12 units, "." missing.
_OBSERVERS = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
]
_UNITS = list(zip(*_OBSERVERS, strict=True))


@pytest.mark.parametrize(("level", "expected"), [("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849),
                                                 ("ratio", 0.797)])
def test_textbook_example(level, expected):
    assert krippendorff_alpha(_UNITS, level) == pytest.approx(expected, abs=5e-4)


def _pairwise_alpha(units, delta):
    """α = 1 − D_o/D_e from the definition over ordered pairs of values (no coincidence matrix)."""
    units = [[v for v in u if v is not None] for u in units]
    units = [u for u in units if len(u) >= 2]
    values = [v for u in units for v in u]
    n = len(values)
    d_o = sum(sum(delta(x, y) for x, y in itertools.permutations(u, 2)) / (len(u) - 1) for u in units) / n
    d_e = sum(delta(x, y) for x, y in itertools.permutations(values, 2)) / (n * (n - 1))
    return 1 - d_o / d_e


def test_alpha_equals_the_pairwise_definition_on_random_data():
    rng = random.Random(1)
    for _ in range(20):
        units = [[rng.choice([0, 1, 2, None]) for _ in range(rng.randint(1, 5))] for _ in range(rng.randint(3, 15))]
        try:
            nominal = _pairwise_alpha(units, lambda x, y: float(x != y))
            interval = _pairwise_alpha(units, lambda x, y: (x - y) ** 2)
        except ZeroDivisionError:
            assert krippendorff_alpha(units) is None
            continue
        assert krippendorff_alpha(units, "nominal") == pytest.approx(nominal, abs=1e-12)
        assert krippendorff_alpha(units, "interval") == pytest.approx(interval, abs=1e-12)


def test_alpha_extremes_and_undefined_cases():
    assert krippendorff_alpha([[True, True], [False, False], [True, True]]) == 1.0
    assert krippendorff_alpha([[True, True, True], [True, True]]) is None  # nothing varies
    assert krippendorff_alpha([[True], [False]]) is None  # nothing pairable
    assert krippendorff_alpha([[True, False], [False, True]]) < 0  # systematic disagreement
    with pytest.raises(ValueError):
        krippendorff_alpha(_UNITS, "cosine")


def test_flaky_cases_and_rate():
    verdicts = [("a", True), ("b", True), ("a", False), ("b", True), ("c", False), ("c", False), ("d", True)]
    assert flaky_cases(verdicts) == [{"id": "a", "attempts": 2, "passes": 1}]
    per_case = [{"id": "a", "attempts": 3, "passes": 1}, {"id": "b", "attempts": 3, "passes": 3},
                {"id": "c", "attempts": 3, "passes": 0}, {"id": "d", "attempts": 1, "passes": 1}]
    assert flakiness(per_case) == {"flaky": ["a"], "cases": 3, "rate": 1 / 3}
    assert flakiness([])["rate"] is None
