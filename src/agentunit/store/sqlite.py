"""SQLite results store: runs, case results, metric results and the target response cache.

WAL mode; writes are buffered and committed in batches (every ``batch_size`` cases or
``flush_interval`` seconds), one transaction per batch, so a killed run keeps every batch it
committed and ``--resume`` repeats none of those cases. A case and its metric results are always
committed together.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY, suite TEXT NOT NULL, suite_path TEXT, suite_hash TEXT,
    started_at TEXT NOT NULL, finished_at TEXT, status TEXT NOT NULL,
    options TEXT, target TEXT, summary TEXT
);
CREATE TABLE IF NOT EXISTS case_results (
    run_id TEXT NOT NULL, seq INTEGER NOT NULL, case_id TEXT NOT NULL, repeat INTEGER NOT NULL,
    status TEXT NOT NULL, passed INTEGER NOT NULL, score REAL, prompt TEXT, output TEXT, error TEXT,
    latency_ms REAL, cached INTEGER NOT NULL DEFAULT 0, envelope TEXT, recorded_at REAL NOT NULL,
    PRIMARY KEY (run_id, case_id, repeat)
);
CREATE TABLE IF NOT EXISTS metric_results (
    run_id TEXT NOT NULL, case_id TEXT NOT NULL, repeat INTEGER NOT NULL, position INTEGER NOT NULL,
    metric TEXT NOT NULL, status TEXT NOT NULL, value REAL, passed INTEGER, threshold REAL, weight REAL,
    reason TEXT, detail TEXT, error TEXT, label TEXT,
    PRIMARY KEY (run_id, case_id, repeat, position)
);
CREATE TABLE IF NOT EXISTS cache (
    key TEXT PRIMARY KEY, reply TEXT NOT NULL, latency_ms REAL, created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS judge_cache (
    key TEXT PRIMARY KEY, reply TEXT NOT NULL, created_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS case_results_order ON case_results (run_id, seq, repeat);
"""

DEFAULT_DB = Path(".agentunit") / "agentunit.db"


class Store:
    """One SQLite database. Use ``add_case`` during a run and ``flush``/``close`` at the end."""

    def __init__(self, path: str | Path = DEFAULT_DB, *, batch_size: int = 2000, flush_interval: float = 0.5):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self.conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, uri=True)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.execute("PRAGMA busy_timeout=5000")
        self.conn.executescript(SCHEMA)
        self.batch_size = batch_size
        self.flush_interval = flush_interval
        self._cases: list[tuple[Any, ...]] = []
        self._metrics: list[tuple[Any, ...]] = []
        self._cache: dict[str, tuple[str, float | None]] = {}
        self._last_flush = time.monotonic()
        self._read_only_source = False

    def read_caches_from(self, path: str | Path) -> None:
        """Also look up target and judge caches in another database, read-only (for ``--dry-run``)."""
        if Path(path).exists():
            self.conn.execute("ATTACH DATABASE ? AS source", (f"file:{path}?mode=ro",))
            self._read_only_source = True

    # -- runs -----------------------------------------------------------------------------------

    def start_run(self, run_id: str, *, suite: str, suite_path: str | None, suite_hash: str | None,
                  started_at: str, options: dict[str, Any], target: dict[str, Any] | None) -> None:
        self.conn.execute(
            "INSERT INTO runs (run_id, suite, suite_path, suite_hash, started_at, status, options, target)"
            " VALUES (?, ?, ?, ?, ?, 'running', ?, ?)",
            (run_id, suite, suite_path, suite_hash, started_at, json.dumps(options, default=str),
             json.dumps(target, default=str)))

    def mark_run(self, run_id: str, status: str, *, finished_at: str | None = None,
                 summary: dict[str, Any] | None = None) -> None:
        self.flush()
        self.conn.execute("UPDATE runs SET status = ?, finished_at = ?, summary = ? WHERE run_id = ?",
                          (status, finished_at, json.dumps(summary) if summary else None, run_id))

    def get_run(self, run_id: str) -> dict[str, Any] | None:
        cur = self.conn.execute("SELECT * FROM runs WHERE run_id = ?", (run_id,))
        row = cur.fetchone()
        if row is None:
            return None
        run = dict(zip([d[0] for d in cur.description], row, strict=True))
        for key in ("options", "target", "summary"):
            run[key] = json.loads(run[key]) if run[key] else None
        return run

    def latest_runs(self, limit: int = 10) -> list[dict[str, Any]]:
        cur = self.conn.execute("SELECT run_id, suite, started_at, status FROM runs ORDER BY started_at DESC LIMIT ?",
                                (limit,))
        return [dict(zip(("run_id", "suite", "started_at", "status"), r, strict=True)) for r in cur]

    def completed_keys(self, run_id: str) -> set[tuple[str, int]]:
        """(case_id, repeat) pairs already committed for a run — what ``--resume`` skips."""
        cur = self.conn.execute("SELECT case_id, repeat FROM case_results WHERE run_id = ?", (run_id,))
        return {(c, r) for c, r in cur}

    # -- writes ---------------------------------------------------------------------------------

    def add_case(self, run_id: str, seq: int, case_id: str, repeat: int, *, status: str, passed: bool,
                 score: float | None, prompt: str | None, output: str | None, error: str | None,
                 latency_ms: float | None, cached: bool, envelope: dict[str, Any] | None,
                 metrics: list[Any]) -> None:
        """Buffer one case result with its metric results; commits when the batch is full or old."""
        self._cases.append((run_id, seq, case_id, repeat, status, int(passed), score, prompt, output, error,
                            latency_ms, int(cached), json.dumps(envelope, default=str) if envelope else None,
                            time.time()))
        for position, m in enumerate(metrics):
            self._metrics.append((
                run_id, case_id, repeat, position, m.name, m.status, m.value,
                None if m.passed is None else int(m.passed), m.threshold, m.weight, m.reason,
                json.dumps(m.detail, default=str) if m.detail else None, m.error, m.label))
        if len(self._cases) >= self.batch_size or time.monotonic() - self._last_flush >= self.flush_interval:
            self.flush()

    def flush(self) -> None:
        """Commit buffered results and cache entries in one transaction."""
        self._last_flush = time.monotonic()
        if not (self._cases or self._cache):
            return
        conn = self.conn
        conn.execute("BEGIN")
        try:
            if self._cases:
                conn.executemany("INSERT OR REPLACE INTO case_results VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                                 self._cases)
                conn.executemany("INSERT OR REPLACE INTO metric_results VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                                 self._metrics)
            if self._cache:
                now = time.time()
                conn.executemany("INSERT OR REPLACE INTO cache VALUES (?,?,?,?)",
                                 [(k, r, lat, now) for k, (r, lat) in self._cache.items()])
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        self._cases.clear()
        self._metrics.clear()
        self._cache.clear()

    # -- cache ----------------------------------------------------------------------------------

    def cache_get(self, key: str) -> tuple[str, float | None] | None:
        pending = self._cache.get(key)
        if pending is not None:
            return pending
        row = self.conn.execute("SELECT reply, latency_ms FROM cache WHERE key = ?", (key,)).fetchone()
        if row is None and self._read_only_source:
            row = self.conn.execute("SELECT reply, latency_ms FROM source.cache WHERE key = ?", (key,)).fetchone()
        return (row[0], row[1]) if row else None

    def cache_put(self, key: str, reply_json: str, latency_ms: float | None) -> None:
        self._cache[key] = (reply_json, latency_ms)

    # -- judge cache (judge calls take seconds: written at once, not batched) ----------------------

    def judge_cache_get(self, key: str) -> str | None:
        row = self.conn.execute("SELECT reply FROM judge_cache WHERE key = ?", (key,)).fetchone()
        if row is None and self._read_only_source:
            row = self.conn.execute("SELECT reply FROM source.judge_cache WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def judge_cache_put(self, key: str, reply_json: str) -> None:
        self.conn.execute("INSERT OR REPLACE INTO judge_cache VALUES (?,?,?)", (key, reply_json, time.time()))

    # -- reads ----------------------------------------------------------------------------------

    def status_counts(self, run_id: str) -> dict[str, int]:
        cur = self.conn.execute("SELECT status, COUNT(*) FROM case_results WHERE run_id = ? GROUP BY status",
                                (run_id,))
        return dict(cur.fetchall())

    def metric_counts(self, run_id: str) -> dict[str, dict[str, int]]:
        """Per metric name: counts of results by status."""
        return self._counts_by("metric", run_id)

    def label_counts(self, run_id: str) -> dict[str, dict[str, int]]:
        """Per metric group label (promptfoo's ``metric:`` name): counts of results by status."""
        return self._counts_by("label", run_id)

    def _counts_by(self, column: str, run_id: str) -> dict[str, dict[str, int]]:
        assert column in ("metric", "label")
        cur = self.conn.execute(f"SELECT {column}, status, COUNT(*) FROM metric_results WHERE run_id = ?"
                                f" AND {column} IS NOT NULL GROUP BY {column}, status ORDER BY {column}", (run_id,))
        out: dict[str, dict[str, int]] = {}
        for key, status, count in cur:
            out.setdefault(key, {})[status] = count
        return out

    def repeat_counts(self, run_id: str) -> list[tuple[str, int, int]]:
        """(case_id, attempts, passes) per case."""
        cur = self.conn.execute("SELECT case_id, COUNT(*), SUM(passed) FROM case_results WHERE run_id = ?"
                                " GROUP BY case_id ORDER BY MIN(seq)", (run_id,))
        return [(c, n, int(p or 0)) for c, n, p in cur]

    def iter_cases(self, run_id: str, *, only_unpassed: bool = False, limit: int | None = None
                   ) -> Iterator[dict[str, Any]]:
        """Case results in suite order, each with its metric results; streamed, never all in memory."""
        where = "c.run_id = ?" + (" AND c.status != 'passed'" if only_unpassed else "")
        sql = (
            "SELECT c.case_id, c.repeat, c.status, c.passed, c.score, c.prompt, c.output, c.error, c.latency_ms,"
            " c.cached, c.envelope, m.metric, m.status, m.value, m.passed, m.threshold, m.weight, m.reason,"
            " m.detail, m.error FROM (SELECT * FROM case_results c WHERE " + where +
            " ORDER BY c.seq, c.repeat" + (f" LIMIT {int(limit)}" if limit else "") + ") c"
            " LEFT JOIN metric_results m ON m.run_id = c.run_id AND m.case_id = c.case_id AND m.repeat = c.repeat"
            " ORDER BY c.seq, c.repeat, m.position")
        current: dict[str, Any] | None = None
        for row in self.conn.execute(sql, (run_id,)):
            key = (row[0], row[1])
            if current is None or current["_key"] != key:
                if current is not None:
                    del current["_key"]
                    yield current
                current = {
                    "_key": key, "id": row[0], "repeat": row[1], "status": row[2], "passed": bool(row[3]),
                    "score": row[4], "prompt": row[5], "output": row[6], "error": row[7], "latency_ms": row[8],
                    "cached": bool(row[9]), "envelope": json.loads(row[10]) if row[10] else None, "metrics": []}
            if row[11] is not None:
                current["metrics"].append({
                    "metric": row[11], "status": row[12], "value": row[13],
                    "passed": None if row[14] is None else bool(row[14]), "threshold": row[15],
                    "weight": row[16], "reason": row[17], "detail": json.loads(row[18]) if row[18] else {},
                    "error": row[19]})
        if current is not None:
            del current["_key"]
            yield current

    def close(self) -> None:
        self.flush()
        self.conn.close()
