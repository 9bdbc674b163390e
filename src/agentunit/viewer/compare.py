"""Two runs compared for the viewer: ``agentunit.stats.compare_runs`` when installed, else a plain fallback.

The fallback gives the same shape (cases fixed, broken, still failing, added, removed; per metric the
two pass rates with Wilson intervals and the delta) without a significance test (``p_value`` None).
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

import agentunit.viewer.queries as queries
from agentunit.errors import AgentUnitError
from agentunit.reporting.charts import pass_counts, wilson
from agentunit.store.location import redact_url
from agentunit.viewer.queries import ViewerError

_LATEST = re.compile(r"latest(?:~(\d+))?")


def resolve(db_path: str | Path, conn: sqlite3.Connection, name: str) -> str:
    """A run id from an id, ``latest`` or ``latest~N``; ViewerError when there is no such run."""
    try:
        from agentunit.stats import resolve_run
    except ImportError:
        return _resolve(db_path, conn, name)
    try:
        return str(resolve_run(db_path, name))
    except (AgentUnitError, LookupError, ValueError) as exc:  # UnknownRunError is an AgentUnitError
        raise ViewerError(str(exc)) from None


def resolve_pair(db_path: str | Path, conn: sqlite3.Connection, name_a: str, name_b: str,
                 suite: str | None = None) -> tuple[str, str, str | None]:
    """The two run ids of a comparison and the suite of both (None when they differ): ``latest`` and
    ``latest~N`` count the runs of ``suite``, else of the other side's suite, else of the newest run's, as
    ``agentunit compare`` does (``agentunit.stats.compare.resolve_pair``); two runs named by id are
    compared whatever their suites (the page says when they differ). ViewerError when a name fits no run."""
    try:
        from agentunit.stats.compare import DifferentSuitesError
        from agentunit.stats.compare import resolve_pair as resolve_names
    except ImportError:
        run_a, run_b = _resolve(db_path, conn, name_a), _resolve(db_path, conn, name_b)
        return run_a, run_b, None
    try:
        try:
            return resolve_names(conn, name_a, name_b, suite=suite or None)
        except DifferentSuitesError:  # named by id (the latest~N of one suite never differ): shown, with a note
            return resolve_names(conn, name_a, name_b, suite=suite or None, across_suites=True)
    except (AgentUnitError, LookupError, ValueError) as exc:  # UnknownRunError is an AgentUnitError
        raise ViewerError(str(exc)) from None


def _resolve(db_path: str | Path, conn: sqlite3.Connection, name: str) -> str:
    match = _LATEST.fullmatch(name.strip())
    if match:
        back = int(match.group(1) or 0)
        row = conn.execute("SELECT run_id FROM runs ORDER BY started_at DESC, rowid DESC LIMIT 1 OFFSET ?",
                           (back,)).fetchone()
    else:
        row = conn.execute("SELECT run_id FROM runs WHERE run_id = ?", (name,)).fetchone()
    if row is None:
        raise ViewerError(f"no run {name!r} in {redact_url(db_path)}")
    return str(row[0])


def compare(db_path: str | Path, conn: sqlite3.Connection, run_a: str, run_b: str,
            level: float = 0.05) -> dict[str, Any]:
    """``compare_runs``'s document for two resolved run ids (``fallback: True`` when computed here).

    Comparing two large runs reads every metric result of both (seconds for 100,000 cases), so the
    document of two finished runs is kept (the last ``_CACHED`` pairs): a finished run does not change
    unless resumed, which changes its ``finished_at`` and so the key.
    """
    key = (str(db_path), run_a, run_b, level, _finished(conn, run_a), _finished(conn, run_b))
    with _LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    try:
        from agentunit.stats import compare_runs
    except ImportError:
        result = _compare(conn, run_a, run_b)
    else:
        result = compare_runs(db_path, run_a, run_b, level=level, across_suites=True)  # ids, checked by the page
    if None not in key:
        with _LOCK:
            _CACHE[key] = result
            while len(_CACHE) > _CACHED:
                _CACHE.popitem(last=False)
    return result


_CACHED = 8
_CACHE: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()
_LOCK = threading.Lock()


def _finished(conn: sqlite3.Connection, run_id: str) -> str | None:
    """When a finished run finished; None while it runs (its comparison is not kept)."""
    row = conn.execute("SELECT finished_at, status FROM runs WHERE run_id = ?", (run_id,)).fetchone()
    return None if row is None or row[1] == "running" or not row[0] else str(row[0])


def has_repeats(conn: sqlite3.Connection, *run_ids: str) -> bool:
    """Whether any of the runs has a repeat beyond the first (then compared cases are named ``id#repeat``)."""
    return any(conn.execute("SELECT 1 FROM case_results WHERE run_id = ? AND repeat > 0 LIMIT 1",
                            (run_id,)).fetchone() for run_id in run_ids)


def case_key(item: Any, repeats: bool = False) -> tuple[str, int]:
    """(case id, repeat) of an entry in a comparison's case lists: an id (``id#repeat`` when the runs have
    repeats), ``{id, repeat}`` or ``[id, repeat]``."""
    if isinstance(item, dict):
        return str(item.get("id", item.get("case_id", ""))), _int(item.get("repeat"))
    if isinstance(item, (list, tuple)) and len(item) == 2:
        return str(item[0]), _int(item[1])
    text = str(item)
    if repeats:
        case_id, mark, repeat = text.rpartition("#")
        if mark and repeat.isdigit():
            return case_id, int(repeat)
    return text, 0


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def _compare(conn: sqlite3.Connection, run_a: str, run_b: str) -> dict[str, Any]:
    cases: dict[str, list[Any]] = {"fixed": [], "broken": [], "still_failing": [], "added": [], "removed": []}
    flips = {(0, 1): "fixed", (1, 0): "broken", (0, 0): "still_failing"}
    for case_id, repeat, passed_a, passed_b in conn.execute(
            "SELECT a.case_id, a.repeat, a.passed, b.passed FROM case_results a JOIN case_results b"
            " ON b.run_id = ? AND b.case_id = a.case_id AND b.repeat = a.repeat WHERE a.run_id = ?"
            " ORDER BY a.seq, a.repeat", (run_b, run_a)):
        kind = flips.get((int(passed_a), int(passed_b)))
        if kind:
            cases[kind].append(_entry(case_id, repeat))
    for kind, first, second in (("added", run_b, run_a), ("removed", run_a, run_b)):
        cases[kind] = [_entry(case_id, repeat) for case_id, repeat in conn.execute(
            "SELECT x.case_id, x.repeat FROM case_results x WHERE x.run_id = ? AND NOT EXISTS (SELECT 1 FROM"
            " case_results y WHERE y.run_id = ? AND y.case_id = x.case_id AND y.repeat = x.repeat)"
            " ORDER BY x.seq, x.repeat", (first, second))]
    counts_a = queries.metric_counts(conn, queries.get_run(conn, run_a) or {"run_id": run_a})
    counts_b = queries.metric_counts(conn, queries.get_run(conn, run_b) or {"run_id": run_b})
    metrics: dict[str, Any] = {}
    for name in dict.fromkeys([*counts_a, *counts_b]):
        sides = {}
        for side, counts in (("a", counts_a), ("b", counts_b)):
            passed, judged = pass_counts(counts.get(name) or {})
            sides[side] = {"pass_rate": passed / judged if judged else None,
                           "ci": list(wilson(passed, judged)) if judged else None, "n": judged}
        rate_a, rate_b = sides["a"]["pass_rate"], sides["b"]["pass_rate"]
        delta = rate_b - rate_a if rate_a is not None and rate_b is not None else None
        metrics[name] = {**sides, "delta": delta, "p_value": None, "test": None}
    return {"a": run_a, "b": run_b, "cases": cases, "metrics": metrics, "regressed": [], "fallback": True}


def _entry(case_id: str, repeat: int) -> Any:
    return case_id if not repeat else f"{case_id}#{repeat}"
