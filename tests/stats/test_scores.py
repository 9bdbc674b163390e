"""Scores keeps what the mean score and its interval need, in flat memory, with the list's exact result."""

import math
import random
import sys

import pytest

from agentunit.stats.intervals import NORMAL_ABOVE, bootstrap_mean_interval
from agentunit.stats.summary import Scores


def _values(kind: str, n: int) -> list[float]:
    rng = random.Random(n)
    if kind == "binary":
        return [rng.choice([0.0, 1.0]) for _ in range(n)]
    if kind == "constant":  # every value the same: the interval is (x̄, x̄), without reading the values
        return [0.7] * n
    if kind == "few":
        return [rng.choice([0.1, 0.2, 0.7, 1e-9, 3.3]) for _ in range(n)]
    if kind == "continuous":  # distinct values overflow the counts before the bootstrap's limit
        return [rng.random() for _ in range(n)]
    # distinct values overflow the counts only after the ordered values were dropped: counts expand back
    return [rng.random() if i % 7 == 0 else 1.0 for i in range(n)]


@pytest.mark.parametrize(("kind", "n"), [("binary", 1), ("binary", 5), ("few", 10), ("binary", NORMAL_ABOVE),
                                         ("binary", NORMAL_ABOVE + 1), ("few", 30_000), ("continuous", 12_000),
                                         ("mixed", 40_000), ("continuous", 300), ("constant", 5_000),
                                         ("constant", NORMAL_ABOVE + 3)])
def test_mean_and_interval_equal_the_list_computation_to_the_bit(kind, n):
    values = _values(kind, n)
    scores = Scores()
    for v in values:
        scores.add(v)
    assert scores.n == n
    assert scores.mean() == math.fsum(values) / n
    assert scores.interval() == list(bootstrap_mean_interval(values))


def test_a_million_pass_fail_scores_take_a_few_hundred_bytes():
    scores = Scores()
    for i in range(1_000_000):
        scores.add(float(i % 3 == 0))
    assert scores._values is None and len(scores._counts) == 2
    assert sys.getsizeof(scores._counts) < 1000
    assert scores.mean() == pytest.approx(1 / 3, abs=1e-6)


def test_no_values_give_no_mean():
    assert Scores().mean() is None and Scores().interval() is None


def test_one_value_repeated_gives_its_interval_without_the_bootstrap(monkeypatch):
    from agentunit.stats import summary

    def refused(*_args, **_kwargs):
        raise AssertionError("the values were read")

    monkeypatch.setattr(summary, "bootstrap_mean_interval", refused)
    scores = Scores()
    for _ in range(5_000):
        scores.add(0.25)
    assert scores.interval() == [0.25, 0.25]


def _state(scores: Scores) -> tuple:
    """What a Scores keeps; the order of its values only while it matters (up to NORMAL_ABOVE of them)."""
    values = None if scores._values is None else list(scores._values)
    return (scores.n, values if values is None or scores.n <= NORMAL_ABOVE else sorted(values), scores._counts)


@pytest.mark.parametrize(("kind", "head", "tail"), [
    ("binary", 0, 5), ("binary", 5, 0), ("binary", 3, 4), ("few", 2_000, 3_000),
    ("binary", NORMAL_ABOVE - 10, 10), ("binary", NORMAL_ABOVE - 10, 11), ("few", NORMAL_ABOVE + 5, 20_000),
    ("binary", 3, NORMAL_ABOVE + 50), ("continuous", 3_000, 2_000), ("continuous", 2_000, 3_000),
    ("continuous", 12_000, 5), ("mixed", 20_000, 25_000), ("mixed", 5_000, 30_000)])
def test_extending_leaves_what_adding_one_by_one_leaves(kind, head, tail):
    values = _values(kind, head + tail)
    one, first, second = Scores(), Scores(), Scores()
    for i, value in enumerate(values):
        one.add(value)
        (first if i < head else second).add(value)
    first.extend(second)
    assert _state(first) == _state(one)
    assert first.mean() == one.mean() and first.interval() == one.interval()


def test_counts_that_stay_counts_are_summed_not_replayed(monkeypatch):
    first, second = Scores(), Scores()
    for i in range(NORMAL_ABOVE + 1):
        first.add(float(i % 2))
        second.add(float(i % 3))
    monkeypatch.setattr(Scores, "add", lambda *_: pytest.fail("a value was added one by one"))
    first.extend(second)
    assert first.n == 2 * NORMAL_ABOVE + 2 and first._counts == {0.0: 8_335, 1.0: 8_334, 2.0: 3_333}
