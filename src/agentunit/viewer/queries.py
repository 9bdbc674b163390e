"""Read-only, paged queries over the results database (schema: ``agentunit.store.sqlite.SCHEMA``).

The database is opened with ``mode=ro`` and ``PRAGMA query_only``: the viewer never writes. No query
reads a whole run: the case grid is one page of ``case_results`` in suite order (the
``case_results_order`` index), previews are cut in SQL, a case's large output is read from ``texts``
only on its own page, and per-metric counts come from the run's stored summary when it has one.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any
from urllib.parse import quote

from agentunit.errors import AgentUnitError
from agentunit.store.location import is_postgres_url

PREVIEW_CHARS = 240
CASE_STATUSES = ("passed", "failed", "errored", "unmeasured")
METRIC_STATUSES = ("passed", "failed", "not_measured", "error", "info")


class ViewerError(AgentUnitError):
    """The database cannot be opened or read as an agentunit results database."""


def connect(db_path: str | Path) -> sqlite3.Connection:
    """Open ``db_path`` read-only; ViewerError (naming the path) when it is missing or not a results DB.

    A ``postgresql://`` URL opens a read-only ``agentunit.store.postgres.PgConnection``, which takes
    the SQL below as written (it rewrites the few SQLite-only spellings).
    """
    if is_postgres_url(db_path):
        from agentunit.store.postgres import connect_read_only

        try:
            return connect_read_only(str(db_path))  # type: ignore[return-value]
        except AgentUnitError as exc:
            raise ViewerError(str(exc)) from None
    path = Path(db_path)
    if not path.is_file():
        raise ViewerError(f"no results database at {path} (run `agentunit run SUITE --db {path}` first, "
                          "or pass --db PATH)")
    try:
        conn = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True, check_same_thread=False)
        conn.execute("PRAGMA query_only=1")
        conn.execute("PRAGMA busy_timeout=5000")
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    except sqlite3.DatabaseError as exc:
        raise ViewerError(f"{path} is not a readable SQLite database: {exc}") from None
    if not {"runs", "case_results", "metric_results"} <= tables:
        conn.close()
        raise ViewerError(f"{path} is not an agentunit results database (it has no runs table)")
    return conn


def _json(text: str | None) -> Any:
    if not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def _has_column(conn: sqlite3.Connection, table: str, column: str) -> bool:
    return column in {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}


def _like(text: str) -> str:
    """A LIKE pattern matching ``text`` anywhere (``%``, ``_`` and ``\\`` taken literally)."""
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


# -- runs ------------------------------------------------------------------------------------------

def suites(conn: sqlite3.Connection) -> list[str]:
    """Every suite name that has a run, most recently run first."""
    return [row[0] for row in conn.execute("SELECT suite FROM runs GROUP BY suite ORDER BY MAX(started_at) DESC")]


def comparable_suite(conn: sqlite3.Connection) -> str | None:
    """The suite with at least two runs whose newest run is the most recent (None when no suite has two)."""
    row = conn.execute("SELECT suite FROM runs GROUP BY suite HAVING COUNT(*) >= 2 ORDER BY MAX(started_at) DESC"
                       " LIMIT 1").fetchone()
    return None if row is None else str(row[0])


def list_runs(conn: sqlite3.Connection, *, suite: str | None = None, limit: int = 50,
              offset: int = 0) -> tuple[list[dict[str, Any]], bool]:
    """One page of runs, newest first, each with its summary; and whether more runs follow."""
    where, params = ("WHERE suite = ?", [suite]) if suite else ("", [])
    rows = conn.execute(
        f"SELECT run_id, suite, started_at, finished_at, status, summary FROM runs {where}"
        " ORDER BY started_at DESC, rowid DESC LIMIT ? OFFSET ?", (*params, limit + 1, offset)).fetchall()
    runs = [{"run_id": r[0], "suite": r[1], "started_at": r[2], "finished_at": r[3], "status": r[4],
             "summary": _json(r[5]) or {}} for r in rows[:limit]]
    return runs, len(rows) > limit


def trends(conn: sqlite3.Connection, suite: str, *, limit: int = 30) -> dict[str, list[tuple[str, int, int]]]:
    """Per metric, (run id, passed, judged) over the suite's last ``limit`` finished runs, oldest first.

    Read from each run's stored summary (no case rows); a run lacking a metric gets (id, 0, 0).
    """
    rows = conn.execute("SELECT run_id, summary FROM runs WHERE suite = ? AND summary IS NOT NULL"
                        " ORDER BY started_at DESC, rowid DESC LIMIT ?", (suite, limit)).fetchall()
    rows.reverse()
    summaries = [(run_id, (_json(text) or {}).get("metrics") or {}) for run_id, text in rows]
    names: dict[str, None] = {}
    for _run_id, metrics in summaries:
        names.update(dict.fromkeys(metrics))
    out: dict[str, list[tuple[str, int, int]]] = {}
    for name in names:
        points = []
        for run_id, metrics in summaries:
            counts = metrics.get(name) or {}
            passed = int(counts.get("passed", 0) or 0)
            points.append((run_id, passed, passed + int(counts.get("failed", 0) or 0)))
        out[name] = points
    return out


def get_run(conn: sqlite3.Connection, run_id: str) -> dict[str, Any] | None:
    """The run's row with ``options``, ``target`` and ``summary`` decoded; None when there is no such run."""
    row = conn.execute("SELECT run_id, suite, suite_path, started_at, finished_at, status, options, target, summary"
                       " FROM runs WHERE run_id = ?", (run_id,)).fetchone()
    if row is None:
        return None
    keys = ("run_id", "suite", "suite_path", "started_at", "finished_at", "status", "options", "target", "summary")
    run = dict(zip(keys, row, strict=True))
    for key in ("options", "target", "summary"):
        run[key] = _json(run[key])
    return run


def neighbour_runs(conn: sqlite3.Connection, run: dict[str, Any]) -> tuple[str | None, str | None]:
    """(previous, next) run ids of the same suite by start time (then by insertion, as ``latest~N`` counts)."""
    (rowid,) = conn.execute("SELECT rowid FROM runs WHERE run_id = ?", (run["run_id"],)).fetchone()
    before = conn.execute("SELECT run_id FROM runs WHERE suite = ? AND (started_at, rowid) < (?, ?)"
                          " ORDER BY started_at DESC, rowid DESC LIMIT 1",
                          (run["suite"], run["started_at"], rowid)).fetchone()
    after = conn.execute("SELECT run_id FROM runs WHERE suite = ? AND (started_at, rowid) > (?, ?)"
                         " ORDER BY started_at, rowid LIMIT 1", (run["suite"], run["started_at"], rowid)).fetchone()
    return (before[0] if before else None), (after[0] if after else None)


def metric_counts(conn: sqlite3.Connection, run: dict[str, Any]) -> dict[str, dict[str, int]]:
    """Per metric: counts of results by status — from the stored summary, or counted for a running run."""
    summary = run.get("summary") or {}
    if isinstance(summary.get("metrics"), dict):
        return summary["metrics"]
    out: dict[str, dict[str, int]] = {}
    for name, status, count in conn.execute(
            "SELECT metric, status, COUNT(*) FROM metric_results WHERE run_id = ? GROUP BY metric, status"
            " ORDER BY metric", (run["run_id"],)):
        out.setdefault(name, {})[status] = count
    return out


def status_counts(conn: sqlite3.Connection, run: dict[str, Any]) -> dict[str, int]:
    """Case counts by status (``cases``, ``passed``, ``failed``, ``errored``, ``unmeasured``)."""
    summary = run.get("summary") or {}
    if "cases" in summary:
        return {key: int(summary.get(key, 0) or 0) for key in ("cases", *CASE_STATUSES)}
    counts = dict(conn.execute("SELECT status, COUNT(*) FROM case_results WHERE run_id = ? GROUP BY status",
                               (run["run_id"],)).fetchall())
    return {"cases": sum(counts.values()), **{key: counts.get(key, 0) for key in CASE_STATUSES}}


# -- cases -----------------------------------------------------------------------------------------

def case_page(conn: sqlite3.Connection, run_id: str, *, status: str | None = None, metric: str | None = None,
              verdict: str | None = None, search: str | None = None, offset: int = 0,
              limit: int = 50) -> tuple[list[dict[str, Any]], bool]:
    """One page of a run's cases in suite order, and whether more follow.

    ``status``: a case status, or ``unpassed`` (every status but passed). ``metric`` (with an optional
    metric ``verdict``: passed, failed, not_measured, error, info): only cases with that metric result.
    ``search``: a substring of the case id, prompt, output or error (case-insensitive for ASCII).
    Each row has id, repeat, status, score, latency_ms, cached, previews of prompt, output and error,
    and ``failing``: the names of its metrics that failed or errored.
    """
    output_hash = "c.output_hash" if _has_column(conn, "case_results", "output_hash") else "NULL"
    where, params = ["c.run_id = ?"], [run_id]
    if status == "unpassed":
        where.append("c.status != 'passed'")
    elif status:
        where.append("c.status = ?")
        params.append(status)
    if metric:
        clause = "m.metric = ?" + (" AND m.status = ?" if verdict else "")
        where.append("EXISTS (SELECT 1 FROM metric_results m WHERE m.run_id = c.run_id AND m.case_id = c.case_id"
                     f" AND m.repeat = c.repeat AND {clause})")
        params += [metric, verdict] if verdict else [metric]
    if search:
        pattern = _like(search)
        where.append("(" + " OR ".join(f"{column} LIKE ? ESCAPE '\\'" for column in (
            "c.case_id", "c.prompt", "c.output", "c.error", "t.body")) + ")")
        params += [pattern] * 5
    sql = ("SELECT c.case_id, c.repeat, c.status, c.score, c.latency_ms, c.cached,"
           f" substr(c.prompt, 1, {PREVIEW_CHARS}),"
           f" substr(COALESCE(c.output, t.body), 1, {PREVIEW_CHARS}), substr(c.error, 1, {PREVIEW_CHARS}),"
           " (SELECT json_group_array(m.metric) FROM metric_results m WHERE m.run_id = c.run_id"
           "  AND m.case_id = c.case_id AND m.repeat = c.repeat AND (m.passed = 0 OR m.status = 'error'))"
           f" FROM case_results c LEFT JOIN texts t ON t.hash = {output_hash}"
           f" WHERE {' AND '.join(where)} ORDER BY c.seq, c.repeat LIMIT ? OFFSET ?")
    rows = conn.execute(sql, (*params, limit + 1, max(0, offset))).fetchall()
    cases = [{"id": r[0], "repeat": r[1], "status": r[2], "score": r[3], "latency_ms": r[4], "cached": bool(r[5]),
              "prompt": r[6], "output": r[7], "error": r[8], "failing": _json(r[9]) or []} for r in rows[:limit]]
    return cases, len(rows) > limit


def metric_names(conn: sqlite3.Connection, run: dict[str, Any]) -> list[str]:
    """The metric names of a run (from its summary when stored)."""
    return list(metric_counts(conn, run))


def get_case(conn: sqlite3.Connection, run_id: str, case_id: str, repeat: int = 0,
             *, max_chars: int = 200_000) -> dict[str, Any] | None:
    """One case result in full: prompt, output (read from ``texts`` when stored there), error, envelope,
    and every metric result (value, verdict, threshold, reason, detail, error) in order; None when absent.

    Texts over ``max_chars`` are cut (``truncated`` lists which).
    """
    output_hash = "output_hash" if _has_column(conn, "case_results", "output_hash") else "NULL"
    row = conn.execute(
        f"SELECT case_id, repeat, seq, status, passed, score, substr(prompt, 1, ?), length(prompt),"
        f" substr(output, 1, ?), length(output), error, latency_ms, cached, envelope, {output_hash}"
        " FROM case_results WHERE run_id = ? AND case_id = ? AND repeat = ?",
        (max_chars, max_chars, run_id, case_id, repeat)).fetchone()
    if row is None:
        return None
    truncated = []
    output, output_length = row[8], row[9]
    if row[14] is not None:
        text = conn.execute("SELECT substr(body, 1, ?), length(body) FROM texts WHERE hash = ?",
                            (max_chars, row[14])).fetchone()
        output, output_length = (text[0], text[1]) if text else ("[the stored output text is missing]", 0)
    if (row[7] or 0) > max_chars:
        truncated.append("prompt")
    if (output_length or 0) > max_chars:
        truncated.append("output")
    metrics = [{"metric": m[0], "status": m[1], "value": m[2], "passed": None if m[3] is None else bool(m[3]),
                "threshold": m[4], "weight": m[5], "reason": m[6], "detail": _json(m[7]), "error": m[8],
                "label": m[9]}
               for m in conn.execute(
                   "SELECT metric, status, value, passed, threshold, weight, reason, detail, error, label"
                   " FROM metric_results WHERE run_id = ? AND case_id = ? AND repeat = ? ORDER BY position",
                   (run_id, case_id, repeat))]
    repeats = conn.execute("SELECT repeat, status FROM case_results WHERE run_id = ? AND case_id = ?"
                           " ORDER BY repeat", (run_id, case_id)).fetchall()
    return {"id": row[0], "repeat": row[1], "seq": row[2], "status": row[3], "passed": bool(row[4]), "score": row[5],
            "prompt": row[6], "output": output, "error": row[10], "latency_ms": row[11], "cached": bool(row[12]),
            "envelope": _json(row[13]), "metrics": metrics, "repeats": repeats, "truncated": truncated}


def case_statuses(conn: sqlite3.Connection, run_id: str, keys: list[tuple[str, int]]) -> dict[tuple[str, int], str]:
    """The status of each (case id, repeat) of ``keys`` present in the run (a primary-key lookup each)."""
    out = {}
    for case_id, repeat in keys:
        row = conn.execute("SELECT status FROM case_results WHERE run_id = ? AND case_id = ? AND repeat = ?",
                           (run_id, case_id, repeat)).fetchone()
        if row is not None:
            out[(case_id, repeat)] = row[0]
    return out


def case_outcomes(conn: sqlite3.Connection, run_id: str, keys: list[tuple[str, int]], *,
                  max_chars: int = 2000) -> dict[tuple[str, int], dict[str, Any]]:
    """For each (case id, repeat) of ``keys`` present in the run: its status, output and error (each cut to
    ``max_chars``; the output read from ``texts`` when stored there) and ``failing``, the (metric, reason or
    error) of its metric results that failed or errored — a primary-key lookup and one query per case."""
    output_hash = "c.output_hash" if _has_column(conn, "case_results", "output_hash") else "NULL"
    out = {}
    for case_id, repeat in keys:
        row = conn.execute(
            "SELECT c.status, substr(COALESCE(c.output, t.body), 1, ?), length(COALESCE(c.output, t.body)),"
            f" substr(c.error, 1, ?) FROM case_results c LEFT JOIN texts t ON t.hash = {output_hash}"
            " WHERE c.run_id = ? AND c.case_id = ? AND c.repeat = ?",
            (max_chars, max_chars, run_id, case_id, repeat)).fetchone()
        if row is None:
            continue
        failing = conn.execute(
            "SELECT metric, substr(COALESCE(error, reason), 1, ?) FROM metric_results WHERE run_id = ?"
            " AND case_id = ? AND repeat = ? AND (passed = 0 OR status = 'error') ORDER BY position LIMIT 20",
            (max_chars, run_id, case_id, repeat)).fetchall()
        out[(case_id, repeat)] = {"status": row[0], "output": row[1], "cut": (row[2] or 0) > max_chars,
                                  "error": row[3], "failing": [(m, why) for m, why in failing]}
    return out
