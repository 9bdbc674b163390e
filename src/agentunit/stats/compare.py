"""Compare two stored runs: cases fixed, broken, still failing, added and removed; per metric the
two pass rates with Wilson intervals and paired tests (exact McNemar on verdicts, Wilcoxon
signed-rank or paired bootstrap on scores); which metrics got significantly worse."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from agentunit.errors import AgentUnitError
from agentunit.stats.intervals import bootstrap_mean_interval, wilson_interval
from agentunit.stats.paired import mcnemar_exact, paired_bootstrap_p, wilcoxon_signed_rank
from agentunit.store.base import is_relative_name, run_suite
from agentunit.store.sqlite import (
    UnknownRunError,
    case_verdicts,
    connect_read_only,
    metric_values,
    recent_runs,
    resolve_run_id,
)

SCORE_TESTS = ("wilcoxon", "bootstrap")
_TEST_NAMES = {"wilcoxon": "wilcoxon_signed_rank", "bootstrap": "paired_bootstrap"}

__all__ = ["SCORE_TESTS", "DifferentSuitesError", "UnknownRunError", "compare_runs", "recent_runs_of",
           "resolve_pair", "resolve_run"]


class DifferentSuitesError(AgentUnitError):
    """The two runs of a comparison belong to different suites (and ``across_suites`` was not given)."""


def resolve_run(db_path: str | Path, name: str, *, suite: str | None = None) -> str:
    """The id of the run ``name`` stands for in the database: an id, a unique id prefix, ``latest`` or
    ``latest~N`` (N runs before the newest, by start time; of ``suite`` only when given). Raises
    UnknownRunError (its message lists the recent runs) or AgentUnitError (no such database)."""
    conn = connect_read_only(db_path)
    try:
        return resolve_run_id(conn, name, suite=suite)
    finally:
        conn.close()


def recent_runs_of(db_path: str | Path, limit: int = 10, *, suite: str | None = None) -> list[dict[str, Any]]:
    """The newest ``limit`` runs of a database (of ``suite`` only when given): run_id, suite, started_at, status."""
    conn = connect_read_only(db_path)
    try:
        return recent_runs(conn, limit, suite=suite)
    finally:
        conn.close()


def resolve_pair(conn: Any, run_a: str, run_b: str, *, suite: str | None = None,
                 across_suites: bool = False) -> tuple[str, str, str | None]:
    """The two run ids a comparison names, and the suite both belong to (None when they differ).

    ``latest`` and ``latest~N`` count the runs of one suite: ``suite`` when given, else the suite of the
    other side when that is a run id, else the suite of the newest run — so ``latest~1 latest`` is the
    newest run and the one before it *of the same suite*. With ``across_suites`` and no ``suite`` they
    count every run. Runs of different suites raise DifferentSuitesError unless ``across_suites``.
    """
    relative_a, relative_b = is_relative_name(run_a), is_relative_name(run_b)
    scope = suite
    if scope is None and not across_suites and (relative_a or relative_b):
        named = run_b if relative_a and not relative_b else run_a if relative_b and not relative_a else None
        if named is not None:
            scope = run_suite(conn, resolve_run_id(conn, named))
        else:
            newest = recent_runs(conn, 1)
            scope = newest[0]["suite"] if newest else None
    id_a = resolve_run_id(conn, run_a, suite=scope if relative_a else None)
    id_b = resolve_run_id(conn, run_b, suite=scope if relative_b else None)
    suite_a, suite_b = run_suite(conn, id_a), run_suite(conn, id_b)
    if not across_suites:
        for run_id, its_suite in ((id_a, suite_a), (id_b, suite_b)):
            if suite is not None and its_suite != suite:
                raise DifferentSuitesError(
                    f"run {run_id} is of suite {its_suite!r}, not {suite!r}: name a run of {suite!r}, or pass "
                    "--across-suites to compare runs of different suites")
        if suite_a != suite_b:
            raise DifferentSuitesError(
                f"run {id_a} is of suite {suite_a!r} and run {id_b} of suite {suite_b!r}: cases of two suites do "
                "not pair up; compare runs of one suite (--suite NAME), or pass --across-suites")
    return id_a, id_b, suite_a if suite_a == suite_b else None


def compare_runs(db_path: str | Path, run_a: str, run_b: str, *, level: float = 0.05,
                 score_test: str = "wilcoxon", confidence: float = 0.95, suite: str | None = None,
                 across_suites: bool = False) -> dict[str, Any]:
    """Compare run B against run A (both named as ``resolve_run`` accepts); B is the newer one.

    The runs are of one suite: ``latest``/``latest~N`` count the runs of ``suite``, else of the other
    side's suite, else of the newest run's (``resolve_pair``); two runs of different suites raise
    DifferentSuitesError unless ``across_suites``. ``suite`` in the result: the suite of both (None
    when they differ).

    Cases pair by (id, repeat). ``cases``: ``fixed`` (failed in A → passed in B), ``broken``
    (passed → failed), ``still_failing``, ``added`` (only in B), ``removed`` (only in A) — ids, as
    ``id#repeat`` when either run has repeats. Per metric (results paired by case, repeat and the
    metric's place among same-named metrics of the case): each run's ``pass_rate`` with its Wilson
    ``ci`` and ``n``, and its ``mean_score`` with a bootstrap ``score_ci``; ``delta`` = B − A pass
    rate; ``p_value`` of the exact McNemar test on the paired verdicts (``fixed``/``broken``
    counts); for metrics with scores other than 0/1, ``score``: the mean paired difference and the
    p-value of ``score_test`` (``wilcoxon`` signed-rank, or ``bootstrap``). A metric with no
    verdicts takes its top-level ``delta``/``p_value``/``test`` from the score test. A metric
    regressed when a test gives p < ``level`` and the change is for the worse (more broken than
    fixed; scores moved against the metric's direction); ``regressed`` lists them and ``overall``
    holds the same test on the case verdicts.
    """
    if score_test not in SCORE_TESTS:
        raise ValueError(f"score_test must be one of {', '.join(SCORE_TESTS)}, got {score_test!r}")
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be between 0 and 1, got {level!r}")
    conn = connect_read_only(db_path)
    try:
        id_a, id_b, common = resolve_pair(conn, run_a, run_b, suite=suite, across_suites=across_suites)
        cases_a, cases_b = case_verdicts(conn, id_a), case_verdicts(conn, id_b)
        metrics_a, metrics_b = _metric_table(conn, id_a), _metric_table(conn, id_b)
        runs = {r["run_id"]: r for r in recent_runs(conn, None) if r["run_id"] in (id_a, id_b)}
    finally:
        conn.close()
    repeats = any(r for _, r, *_ in cases_a) or any(r for _, r, *_ in cases_b)
    cases, overall = _case_changes(cases_a, cases_b, repeats, level, confidence)
    metrics = {}
    for name in [*metrics_a, *[m for m in metrics_b if m not in metrics_a]]:
        metrics[name] = _metric_comparison(name, metrics_a.get(name, {}), metrics_b.get(name, {}), level=level,
                                           score_test=score_test, confidence=confidence)
    return {"a": id_a, "b": id_b, "suite": common, "level": level, "confidence": confidence,
            "runs": {"a": _run_info(runs.get(id_a)), "b": _run_info(runs.get(id_b))},
            "repeats": bool(repeats), "cases": cases, "overall": overall, "metrics": metrics,
            "regressed": [name for name, m in metrics.items() if m["regressed"]]}


def _run_info(run: dict[str, Any] | None) -> dict[str, Any]:
    return {k: (run or {}).get(k) for k in ("suite", "started_at", "status")}


def _label(case_id: str, repeat: int, repeats: bool) -> str:
    return f"{case_id}#{repeat}" if repeats else case_id


def _case_changes(rows_a: list[tuple[str, int, str, bool, float | None]],
                  rows_b: list[tuple[str, int, str, bool, float | None]], repeats: bool, level: float,
                  confidence: float) -> tuple[dict[str, list[str]], dict[str, Any]]:
    a = {(c, r): p for c, r, _s, p, _v in rows_a}
    b = {(c, r): p for c, r, _s, p, _v in rows_b}
    lists: dict[str, list[str]] = {"fixed": [], "broken": [], "still_failing": [], "added": [], "removed": []}
    for key, passed_b in b.items():
        label = _label(*key, repeats)
        if key not in a:
            lists["added"].append(label)
        elif passed_b and not a[key]:
            lists["fixed"].append(label)
        elif a[key] and not passed_b:
            lists["broken"].append(label)
        elif not passed_b and not a[key]:
            lists["still_failing"].append(label)
    lists["removed"] = [_label(*key, repeats) for key in a if key not in b]
    broken, fixed = len(lists["broken"]), len(lists["fixed"])
    p = mcnemar_exact(broken, fixed)
    overall = {"a": _rate(sum(a.values()), len(a), confidence), "b": _rate(sum(b.values()), len(b), confidence),
               "p_value": p, "test": "mcnemar_exact", "pairs": len(a.keys() & b.keys()),
               "fixed": fixed, "broken": broken}
    overall["delta"] = _delta(overall["a"]["pass_rate"], overall["b"]["pass_rate"])
    overall["regressed"] = p < level and broken > fixed
    return lists, overall


def _metric_table(conn: Any, run_id: str) -> dict[str, dict[tuple[str, int, int], tuple[float | None,
                                                                                       bool | None]]]:
    """Per metric: {(case_id, repeat, k-th of that name in the case): (value, passed)}."""
    table: dict[str, dict[tuple[str, int, int], tuple[float | None, bool | None]]] = {}
    seen: dict[tuple[str, int, str], int] = {}
    for case_id, repeat, name, status, value, passed in metric_values(conn, run_id):
        if name is None:
            continue
        if status not in ("passed", "failed"):  # errors and informational results give no verdict
            passed = None
        index = seen.get((case_id, repeat, name), 0)
        seen[(case_id, repeat, name)] = index + 1
        finite = value if value is not None and math.isfinite(value) else None
        table.setdefault(name, {})[(case_id, repeat, index)] = (finite, passed)
    return table


def _rate(passed: int, n: int, confidence: float) -> dict[str, Any]:
    return {"pass_rate": passed / n if n else None, "ci": list(wilson_interval(passed, n, confidence)) if n else None,
            "n": n, "passed": passed}


def _delta(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else b - a


def _side(results: dict[Any, tuple[float | None, bool | None]], confidence: float) -> dict[str, Any]:
    verdicts = [p for _v, p in results.values() if p is not None]
    values = [v for v, _p in results.values() if v is not None]
    side = _rate(sum(verdicts), len(verdicts), confidence)
    side["mean_score"] = math.fsum(values) / len(values) if values else None
    side["score_ci"] = list(bootstrap_mean_interval(values, confidence)) if values else None
    side["score_n"] = len(values)
    return side


def _metric_comparison(name: str, a: dict[Any, tuple[float | None, bool | None]],
                       b: dict[Any, tuple[float | None, bool | None]], *, level: float, score_test: str,
                       confidence: float) -> dict[str, Any]:
    side_a, side_b = _side(a, confidence), _side(b, confidence)
    common = [key for key in a if key in b]
    verdict_pairs = [(a[k][1], b[k][1]) for k in common if a[k][1] is not None and b[k][1] is not None]
    broken = sum(1 for x, y in verdict_pairs if x and not y)
    fixed = sum(1 for x, y in verdict_pairs if y and not x)
    direction = _direction(name)
    entry: dict[str, Any] = {"a": side_a, "b": side_b, "delta": _delta(side_a["pass_rate"], side_b["pass_rate"]),
                             "p_value": None, "test": None, "pairs": len(verdict_pairs), "fixed": fixed,
                             "broken": broken, "direction": direction, "regressed": False}
    if verdict_pairs:
        entry["p_value"] = mcnemar_exact(broken, fixed)
        entry["test"] = "mcnemar_exact"
        entry["regressed"] = entry["p_value"] < level and broken > fixed
    score_pairs = [(a[k][0], b[k][0]) for k in common if a[k][0] is not None and b[k][0] is not None]
    if score_pairs and (not verdict_pairs or any(v not in (0.0, 1.0) for pair in score_pairs for v in pair)):
        score = _score_comparison(score_pairs, score_test, direction, level)
        entry["score"] = score
        entry["regressed"] = entry["regressed"] or score["regressed"]
        if not verdict_pairs:
            entry.update(delta=score["delta"], p_value=score["p_value"], test=score["test"])
    return entry


def _score_comparison(pairs: list[tuple[float, float]], score_test: str, direction: str,
                      level: float) -> dict[str, Any]:
    xs, ys = [x for x, _ in pairs], [y for _, y in pairs]
    delta = math.fsum(y - x for x, y in pairs) / len(pairs)
    if score_test == "wilcoxon":
        result = wilcoxon_signed_rank(xs, ys)
        p = result.p_value
        lower = result.w_minus > result.w_plus  # B's scores lower than A's by rank
        higher = result.w_plus > result.w_minus
    else:
        p = paired_bootstrap_p(xs, ys)
        lower, higher = delta < 0, delta > 0
    worse = higher if direction == "lower" else lower
    return {"delta": delta, "p_value": p, "test": _TEST_NAMES[score_test], "pairs": len(pairs),
            "regressed": p < level and worse}


def _direction(name: str) -> str:
    """``higher`` or ``lower`` is better, from the metric registry (``higher`` for names it lacks)."""
    try:
        from agentunit.metrics.registry import lookup

        info, _negated = lookup(name)
    except Exception:  # a custom metric not registered in this process, or a label
        return "higher"
    return info.direction
