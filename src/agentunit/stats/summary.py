"""Per-metric statistics of one run, as the reports show them: pass rate with a Wilson interval,
mean score with a bootstrap interval; with repeats, flakiness and agreement across repeats."""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from agentunit.stats.agreement import flakiness, krippendorff_alpha
from agentunit.stats.intervals import NORMAL_ABOVE, bootstrap_mean_interval, wilson_interval, z_value

# A metric result as the statistics read it: (case_id, repeat, metric, status, value, passed).
MetricRow = tuple[str, int, str, str, "float | None", "bool | None"]
# Statuses whose ``passed`` is a verdict ("" for rows that carry no status: their ``passed`` decides).
_VERDICT_STATUSES = ("passed", "failed", "")


def metric_summary(results: Any, confidence: float = 0.95) -> dict[str, dict[str, Any]]:
    """Per metric (first-seen order): ``{"n", "passed", "pass_rate", "ci", "mean_score", "score_ci",
    "score_n", "confidence"}``.

    ``n``/``passed`` count results with a verdict (status passed or failed); ``pass_rate`` = passed/n
    with its Wilson interval ``ci`` ([lo, hi]); ``mean_score`` = Σv/m over the m (``score_n``) finite
    values with its percentile bootstrap interval ``score_ci`` (seed 0, 2000 resamples). Rates and
    intervals are None when there is nothing to measure them on. ``results``: a run result (anything with ``store`` and
    ``run_id``), case dicts (``iter_cases()``: each with ``metrics``), metric result dicts (with
    ``metric``, ``passed``, ``value``), or ``(case_id, repeat, metric, status, value, passed)`` rows.
    """
    tallies = MetricTallies()
    for _case, _repeat, name, status, value, passed in metric_rows(results):
        tallies.add(name, status, value, passed)
    return tallies.summary(confidence)


class MetricTallies:
    """What ``metric_summary`` needs of each metric, counted one result at a time in flat memory:
    verdict count, passes, and the finite values (``Scores``)."""

    __slots__ = ("_by_name",)

    def __init__(self) -> None:
        self._by_name: dict[str, list[Any]] = {}

    def add(self, name: str, status: str, value: float | None, passed: bool | None) -> None:
        """Count one result: a verdict when ``status`` is passed/failed (or unset); a finite ``value``."""
        tally = self._by_name.get(name)
        if tally is None:
            tally = self._by_name[name] = [0, 0, Scores()]
        if passed is not None and status in _VERDICT_STATUSES:
            tally[0] += 1
            tally[1] += bool(passed)
        if value is not None and math.isfinite(value):
            tally[2].add(value)

    def extend(self, other: MetricTallies) -> None:
        """Count ``other``'s results after these, as adding them one by one would."""
        for name, (n, passed, scores) in other._by_name.items():
            tally = self._by_name.get(name)
            if tally is None:
                tally = self._by_name[name] = [0, 0, Scores()]
            tally[0] += n
            tally[1] += passed
            tally[2].extend(scores)

    def summary(self, confidence: float = 0.95) -> dict[str, dict[str, Any]]:
        """``metric_summary``'s result for the results counted so far."""
        out: dict[str, dict[str, Any]] = {}
        for name, (n, passed, scores) in self._by_name.items():
            out[name] = {
                "n": n, "passed": passed, "pass_rate": passed / n if n else None,
                "ci": list(wilson_interval(passed, n, confidence)) if n else None,
                "mean_score": scores.mean(), "score_ci": scores.interval(confidence),
                "score_n": scores.n, "confidence": confidence}
        return out


class Scores:
    """A metric's finite values, kept as the mean and its interval need them.

    Up to ``NORMAL_ABOVE`` values they are kept in order (8 bytes each): the bootstrap resamples them
    and its seed makes order matter. Past that the interval is the bootstrap's normal limit, a function
    of the multiset only, so values are kept as counts of distinct values when there are at most
    ``DISTINCT_MAX`` of them (pass/fail scores: two), else in an array. Both forms give the same mean and
    interval, to the last bit, as ``bootstrap_mean_interval`` on the list (sums are exact, then rounded once).
    """

    DISTINCT_MAX = 4096
    __slots__ = ("_counts", "_values", "n")

    def __init__(self) -> None:
        self.n = 0
        self._values: array[float] | None = array("d")
        self._counts: dict[float, int] | None = {}

    def add(self, value: float) -> None:
        self.n += 1
        counts = self._counts
        if counts is not None:
            counts[value] = counts.get(value, 0) + 1
            if len(counts) > self.DISTINCT_MAX:
                if self._values is None:  # order no longer matters (n > NORMAL_ABOVE): expand the counts
                    self._values = array("d", (v for v, c in counts.items() for _ in range(c)))
                    self._counts = None
                    return
                self._counts = None
        if self._values is not None:
            self._values.append(value)
            if self.n > NORMAL_ABOVE and self._counts is not None:
                self._values = None

    def extend(self, other: Scores) -> None:
        """Add ``other``'s values after these, as adding them one by one would (in their order while it
        matters; past ``NORMAL_ABOVE`` values ``other`` keeps only their counts, and then so will these)."""
        if self._merge_counts(other):
            return
        if other._values is not None:
            values: Iterable[float] = other._values
        else:
            values = (v for v, c in (other._counts or {}).items() for _ in range(c))
        for value in values:
            self.add(value)

    def _merge_counts(self, other: Scores) -> bool:
        """``extend`` without adding values one at a time, where both keep counts and together stay within
        ``DISTINCT_MAX`` distinct values (then no add would have changed the form): counts summed, values
        appended while there are at most ``NORMAL_ABOVE``. False, nothing changed, where it does not apply."""
        if self._counts is None or other._counts is None:
            return False
        counts = dict(self._counts)
        for value, count in other._counts.items():
            counts[value] = counts.get(value, 0) + count
        n = self.n + other.n
        if len(counts) > self.DISTINCT_MAX:
            return False
        if n <= NORMAL_ABOVE:  # then both keep their values in order too (counts are dropped only past it)
            self._values.extend(other._values)  # type: ignore[union-attr, arg-type]
        else:
            self._values = None
        self._counts, self.n = counts, n
        return True

    def mean(self) -> float | None:
        """Σx/n (None without values)."""
        if not self.n:
            return None
        if self._values is not None:
            return math.fsum(self._values) / self.n
        return _exact_sum(self._counts.items()) / self.n  # type: ignore[union-attr]

    def interval(self, confidence: float = 0.95) -> list[float] | None:
        """``bootstrap_mean_interval`` of the values (None without values)."""
        if not self.n:
            return None
        counts = self._counts
        if self.n == 1 or (counts is not None and len(counts) == 1):  # one value: the bootstrap's (x̄, x̄), unread
            mean = self.mean()
            return [mean, mean]  # type: ignore[list-item]
        if self._values is not None:
            return list(bootstrap_mean_interval(self._values, confidence))
        counts = counts or {}
        mean = self.mean() or 0.0
        sd = math.sqrt(_exact_sum(((v - mean) ** 2, c) for v, c in counts.items()) / self.n)
        half = z_value(confidence) * sd / math.sqrt(self.n)
        return [mean - half, mean + half]


def _exact_sum(weighted: Iterable[tuple[float, int]]) -> float:
    """Σ c·v over (v, c) pairs, exact, rounded once: ``math.fsum`` of the values repeated c times."""
    from fractions import Fraction  # only past NORMAL_ABOVE values: not in a short run's start-up

    return float(sum((Fraction(v) * c for v, c in weighted), Fraction(0)))


def repeat_statistics(results: Any, per_case: Iterable[Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """Statistics of a repeated run: flakiness (``flaky`` case ids, ``cases`` repeated, ``rate``) and,
    per metric, Krippendorff's α across the repeats: ``agreement[metric] = {"alpha": α of the
    verdicts (nominal), "alpha_score": α of the values (interval), "units": cases with ≥ 2 verdicts}``
    (α None when undefined: every verdict the same, nothing to disagree on).

    ``per_case``: the summary's ``repeat.cases`` when at hand (else counted from the case verdicts).
    """
    if getattr(results, "store", None) is None and not isinstance(results, list):
        results = list(results)  # read twice below
    rows = list(metric_rows(results))
    if per_case is None:
        per_case = _per_case_counts(results)
    verdict_units: dict[str, dict[tuple[str, int], list[Any]]] = {}
    value_units: dict[str, dict[tuple[str, int], list[Any]]] = {}
    occurrence: dict[tuple[str, int, str], int] = {}
    for case_id, repeat, name, status, value, passed in rows:
        passed = passed if status in _VERDICT_STATUSES else None
        index = occurrence.get((case_id, repeat, name), 0)  # the same metric twice in a case: two units
        occurrence[(case_id, repeat, name)] = index + 1
        unit = (case_id, index)
        verdict_units.setdefault(name, {}).setdefault(unit, []).append(passed)
        finite = value is not None and math.isfinite(value)
        value_units.setdefault(name, {}).setdefault(unit, []).append(float(value) if finite else None)
    agreement = {}
    for name, units in verdict_units.items():
        agreement[name] = {
            "alpha": krippendorff_alpha(units.values(), "nominal"),
            "alpha_score": krippendorff_alpha(value_units[name].values(), "interval"),
            "units": sum(1 for u in units.values() if sum(v is not None for v in u) >= 2)}
    return {**flakiness(per_case), "agreement": agreement}


def metric_rows(results: Any) -> Iterator[tuple[str, int, str, str, float | None, bool | None]]:
    """The metric results of ``results`` (see ``metric_summary``) as (case_id, repeat, metric,
    status, value, passed); results without a metric name are skipped."""
    store, run_id = getattr(results, "store", None), getattr(results, "run_id", None)
    if store is not None and run_id is not None and hasattr(store, "metric_values"):
        source: Iterable[Any] = store.metric_values(run_id)
    else:
        source = results
    for item in source:
        if isinstance(item, Mapping) and "metrics" in item:
            for m in item["metrics"]:
                row = _from_dict(m, item.get("id", ""), item.get("repeat", 0))
                if row is not None:
                    yield row
        elif isinstance(item, Mapping):
            row = _from_dict(item, item.get("id", item.get("case_id", "")), item.get("repeat", 0))
            if row is not None:
                yield row
        else:
            case_id, repeat, name, status, value, passed = item
            if name is not None:
                yield case_id, repeat, name, status, _number(value), None if passed is None else bool(passed)


def _from_dict(m: Mapping[str, Any], case_id: Any, repeat: Any) -> tuple[str, int, str, str, float | None,
                                                                          bool | None] | None:
    name = m.get("metric", m.get("name"))
    if name is None:
        return None
    passed = m.get("passed")
    return (str(case_id), int(repeat or 0), str(name), str(m.get("status", "")), _number(m.get("value")),
            None if passed is None else bool(passed))


def _number(value: Any) -> float | None:
    if value is None:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _per_case_counts(results: Any) -> list[dict[str, Any]]:
    """Per case ``{"id", "attempts", "passes"}`` from the store (or from case dicts)."""
    store, run_id = getattr(results, "store", None), getattr(results, "run_id", None)
    if store is not None and run_id is not None and hasattr(store, "repeat_counts"):
        return [{"id": c, "attempts": n, "passes": p} for c, n, p in store.repeat_counts(run_id)]
    counts: dict[str, list[int]] = {}
    for item in results if not hasattr(results, "iter_cases") else results.iter_cases():
        if isinstance(item, Mapping) and "passed" in item and "metrics" in item:
            tally = counts.setdefault(str(item["id"]), [0, 0])
            tally[0] += 1
            tally[1] += bool(item["passed"])
    return [{"id": c, "attempts": n, "passes": p} for c, (n, p) in counts.items()]
