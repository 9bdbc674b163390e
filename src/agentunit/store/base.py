"""The results store's interface and the SQL both databases share: SQLite (``agentunit.store.sqlite``,
a file, the default) and PostgreSQL (``agentunit.store.postgres``) subclass ``BaseStore`` with their
connection, how a write transaction starts and how a run is leased.

Writes are buffered and committed in batches (every ``batch_size`` cases or ``flush_interval``
seconds), one transaction per batch, so a killed run keeps every batch it committed and ``--resume``
repeats none of those cases. A case and its metric results are always committed together.

Every text is made encodable before it is buffered (a lone surrogate becomes U+FFFD, see
``agentunit.store.text``). If a batch still fails, its rows are written one by one; a row that fails
alone is written in a reduced form (its status kept, each value the database refused replaced by a note
saying why), so one bad value never loses the other cases of its batch.

Large texts (``large_text`` characters or more: outputs, and strings inside cached replies) are
stored once, content-addressed in the ``texts`` table by the sha256 of their UTF-8 bytes: a case's
output that is the cached reply's body, or the same output in several runs, takes the space once.

A run is run by one process at a time: ``start_run`` and ``mark_run(…, "running")`` (a run continued)
take the run's lease, a final ``mark_run`` and ``close`` let it go, and a process that asks for a run
another one holds gets ``RunHeldError`` (``agentunit.store.lease``).

The SQL is written once, in SQLite's form; the PostgreSQL connection rewrites what differs
(``agentunit.store.postgres.PgConnection``), so the readers below take either connection.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import agentunit.store.schema as schema
from agentunit.errors import AgentUnitError
from agentunit.store.text import encodable, encodable_json, encodable_or_none

DEFAULT_DB = Path(".agentunit") / "agentunit.db"
LARGE_TEXT = 4096

CASE_COLUMNS = ("run_id", "seq", "case_id", "repeat", "status", "passed", "score", "prompt", "output", "error",
                "latency_ms", "cached", "envelope", "recorded_at", "output_hash")
METRIC_COLUMNS = ("run_id", "case_id", "repeat", "position", "metric", "status", "value", "passed", "threshold",
                  "weight", "reason", "detail", "error", "label")
_RUN_COLUMNS = schema.table("runs").column_names


def write_statements(dialect: str) -> dict[str, str]:
    """The write statements of a store, rendered for ``dialect``: ``case``, ``metric``, ``cache``, ``judge``
    and ``text``."""
    return {"case": schema.upsert_sql("case_results", CASE_COLUMNS, dialect),
            "metric": schema.upsert_sql("metric_results", METRIC_COLUMNS, dialect),
            "cache": schema.upsert_sql("cache", ("key", "reply", "latency_ms", "created_at", "refs"), dialect),
            "judge": schema.upsert_sql("judge_cache", ("key", "reply", "created_at"), dialect),
            "text": schema.insert_ignore_sql("texts", ("hash", "body"), dialect)}


# How a refused value is replaced in the reduced form of a row (columns not named here are kept).
_TEXT_COLUMNS = frozenset({"prompt", "output", "error", "metric", "reason", "label"})
_JSON_COLUMNS = frozenset({"envelope", "detail"})
_NUMBER_COLUMNS = frozenset({"score", "latency_ms", "value", "threshold", "weight"})


class StoreWriteError(AgentUnitError):
    """Case results that could not be written even in reduced form (a constraint no reduction satisfies)."""


class BaseStore:
    """One results database. Use ``add_case`` during a run and ``flush``/``close`` at the end.

    ``problems`` lists every write that was reduced or skipped (a case stored with a note in place of
    a value the database refused, a cache entry not cached), for the caller to show. A subclass gives
    ``dialect``, ``_sql`` (``write_statements`` of it), ``_row_errors``, ``_connect``, the run lease
    (``_take_lease``, ``_let_go``) and ``read_caches_from``; it may replace ``_begin`` and ``_write``.
    """

    dialect: str
    _sql: dict[str, str]
    # Errors one row can cause (a value the database cannot bind, a constraint); any other error — the
    # database locked, the disk full — is the database's and is raised at once, the buffers kept for a
    # later flush. A subclass adds its driver's.
    _row_errors: tuple[type[BaseException], ...] = (ValueError, TypeError, OverflowError)

    def __init__(self, path: str | Path = DEFAULT_DB, *, batch_size: int = 2000, flush_interval: float = 0.5,
                 large_text: int = LARGE_TEXT):
        self.path = str(path)
        self.conn = self._open()
        self.batch_size = batch_size
        self.flush_interval = flush_interval
        self.large_text = large_text
        self.problems: list[str] = []
        self._cases: list[tuple[Any, ...]] = []
        self._metrics: list[tuple[Any, ...]] = []
        self._cache: dict[str, tuple[str, float | None, str | None]] = {}
        self._texts: dict[str, str] = {}
        self._last_flush = time.monotonic()
        self._read_only_source = False
        self._source_has_refs = False
        self._source: Any = None  # a read-only PostgreSQL connection when the caches come from one
        self._leases: dict[str, Any] = {}  # run id → this store's lease on it (``hold_run``)
        # Called with each case's rows as they are buffered (the run's report spool), and told by
        # ``on_rewrite`` when rows had to be written one by one, possibly reduced.
        self.listener: Callable[[tuple[Any, ...], list[tuple[Any, ...]], str | None, list[Any]], None] | None = None
        self.on_rewrite: Callable[[], None] | None = None

    def _open(self) -> Any:
        """Connect and bring the schema up to date."""
        conn = self._connect()
        schema.upgrade(conn, self.dialect, self.path)
        return conn

    def _connect(self) -> Any:
        """A new connection to the database at ``self.path``, taking SQLite's SQL (``execute``,
        ``executemany``, ``in_transaction``, ``close``) in autocommit mode."""
        raise NotImplementedError

    def read_caches_from(self, path: str | Path) -> None:
        """Also look up target and judge caches in another database, read-only (for ``--dry-run``)."""
        raise NotImplementedError

    # -- runs -----------------------------------------------------------------------------------

    def start_run(self, run_id: str, *, suite: str, suite_path: str | None, suite_hash: str | None,
                  started_at: str, options: dict[str, Any], target: dict[str, Any] | None) -> None:
        """Record a new run, running, held by this store (``hold_run``) until it ends."""
        self.hold_run(run_id)
        self.conn.execute(
            "INSERT INTO runs (run_id, suite, suite_path, suite_hash, started_at, status, options, target)"
            " VALUES (?, ?, ?, ?, ?, 'running', ?, ?)",
            (run_id, encodable(suite), encodable_or_none(suite_path), suite_hash, started_at,
             encodable_json(options), encodable_json(target)))

    def mark_run(self, run_id: str, status: str, *, finished_at: str | None = None,
                 summary: dict[str, Any] | None = None) -> None:
        """Set the run's status. ``running`` (a run continued) first takes the run's lease (``RunHeldError``
        when another process holds it); any other status ends the run here and lets the lease go."""
        if status == "running":
            self.hold_run(run_id)
        self.flush()
        self.conn.execute("UPDATE runs SET status = ?, finished_at = ?, summary = ? WHERE run_id = ?",
                          (status, finished_at, encodable_json(summary) if summary else None, run_id))
        if status != "running":
            self.release_run(run_id)

    def hold_run(self, run_id: str) -> None:
        """Take run ``run_id``'s lease for this store, or raise ``RunHeldError`` naming the process that holds
        it; nothing to do when this store holds it already. See ``agentunit.store.lease``."""
        if run_id not in self._leases:
            self._leases[run_id] = self._take_lease(run_id)

    def release_run(self, run_id: str) -> None:
        """Let run ``run_id``'s lease go (nothing when this store does not hold it)."""
        lease = self._leases.pop(run_id, None)
        if lease is not None:
            self._let_go(lease)

    def _take_lease(self, run_id: str) -> Any:
        """Take run ``run_id``'s lease without waiting (``RunHeldError`` when another process holds it);
        returns what ``_let_go`` needs to let it go."""
        raise NotImplementedError

    def _let_go(self, lease: Any) -> None:
        """Let a lease ``_take_lease`` returned go."""
        raise NotImplementedError

    def get_run(self, run_id: str) -> dict[str, Any] | None:
        cur = self.conn.execute(f"SELECT {', '.join(_RUN_COLUMNS)} FROM runs WHERE run_id = ?", (run_id,))
        row = cur.fetchone()
        if row is None:
            return None
        run = dict(zip([d[0] for d in cur.description], row, strict=True))
        for key in ("options", "target", "summary"):
            run[key] = json.loads(run[key]) if run[key] else None
        return run

    def latest_runs(self, limit: int = 10) -> list[dict[str, Any]]:
        cur = self.conn.execute("SELECT run_id, suite, started_at, status FROM runs "
                                "ORDER BY started_at DESC, rowid DESC LIMIT ?", (limit,))
        return [dict(zip(("run_id", "suite", "started_at", "status"), r, strict=True)) for r in cur]

    def completed_keys(self, run_id: str) -> set[tuple[str, int]]:
        """(case_id, repeat) pairs already committed for a run — what ``--resume`` skips.

        Case ids are stored made encodable (``agentunit.store.text.encodable``); compare ids in that form.
        """
        cur = self.conn.execute("SELECT case_id, repeat FROM case_results WHERE run_id = ?", (run_id,))
        return {(c, r) for c, r in cur}

    # -- writes ---------------------------------------------------------------------------------

    def add_case(self, run_id: str, seq: int, case_id: str, repeat: int, *, status: str, passed: bool,
                 score: float | None, prompt: str | None, output: str | None, error: str | None,
                 latency_ms: float | None, cached: bool, envelope: dict[str, Any] | None,
                 metrics: list[Any]) -> None:
        """Buffer one case result with its metric results; commits when the batch is full or old and no
        other process is writing to the database (else with a later case: ``flush(wait=False)``).

        Texts are made encodable; an output of ``large_text`` characters or more goes to ``texts``
        and the row keeps its hash.
        """
        case_id = encodable(case_id)
        full_output = output = encodable_or_none(output)
        output_hash = None
        if isinstance(output, str) and len(output) >= self.large_text:
            output_hash, output = self._intern(output), None
        case_row = (run_id, seq, case_id, repeat, status, int(passed), score, encodable_or_none(prompt),
                    output, encodable_or_none(error), latency_ms, int(cached),
                    encodable_json(envelope) if envelope else None, time.time(), output_hash)
        self._cases.append(case_row)
        # Texts made encodable inline (ASCII text, the usual case, is kept as is without a call).
        metric_rows = [(run_id, case_id, repeat, position,
                        m_name if type(m_name := m.name) is str and m_name.isascii() else encodable_or_none(m_name),
                        m.status, m.value, None if (m_passed := m.passed) is None else int(m_passed), m.threshold,
                        m.weight,
                        m_reason if (type(m_reason := m.reason) is str and m_reason.isascii()) or m_reason is None
                        else encodable_or_none(m_reason),
                        encodable_json(m.detail) if m.detail else None,
                        m_error if (m_error := m.error) is None else encodable_or_none(m_error),
                        m_label if (m_label := m.label) is None else encodable_or_none(m_label))
                       for position, m in enumerate(metrics)]
        self._metrics += metric_rows
        if self.listener is not None:
            self.listener(case_row, metric_rows, full_output, [m.detail for m in metrics])
        if len(self._cases) >= self.batch_size or time.monotonic() - self._last_flush >= self.flush_interval:
            self.flush(wait=False)

    def _intern(self, text: str) -> str:
        """Buffer ``text`` (already encodable) in ``texts``; return its key, the sha256 of its UTF-8 bytes."""
        import hashlib  # here: only a run with long texts interns them (hashlib loads OpenSSL, ~3 ms)

        key = hashlib.sha256(text.encode("utf-8")).hexdigest()
        self._texts.setdefault(key, text)
        return key

    def flush(self, *, wait: bool = True) -> None:
        """Commit buffered results, cache entries and texts in one transaction.

        ``wait=False``: when another process holds the database's write lock (the other ranges of a split
        run), keep the buffers for a later flush instead of waiting: the run goes on with its next case.
        If the batch fails because of a row (a value the database refuses, a constraint), every row is
        retried in its own transaction (a case with its metric results); a case that still fails is
        written reduced (see the module docstring). Raises StoreWriteError, after writing every other
        row, when a reduced case cannot be written either. A database error (locked, disk full) is
        raised as is, with the buffers kept.
        """
        if not (self._cases or self._cache or self._texts):
            return
        try:
            sql = self._sql
            if not self._write([(sql["text"], list(self._texts.items())), (sql["case"], self._cases),
                                (sql["metric"], self._metrics), (sql["cache"], self._cache_rows())], wait=wait):
                return  # tried again with the next case
            lost: list[str] = []
        except self._row_errors:
            lost = self._write_one_by_one()
        # Cleared only once written: after an interrupt or a database error the next flush writes
        # the same rows again (INSERT OR REPLACE: nothing is duplicated).
        self._last_flush = time.monotonic()
        self._cases.clear()
        self._metrics.clear()
        self._cache.clear()
        self._texts.clear()
        if lost:
            raise StoreWriteError(f"results DB {self.path}: {len(lost)} case result(s) could not be written, even"
                                  f" reduced: {'; '.join(lost[:5])}" + (" …" if len(lost) > 5 else "")
                                  + ". Every other case was written; please report this as a bug.")

    def _cache_rows(self) -> list[tuple[Any, ...]]:
        now = time.time()
        return [(k, reply, latency, now, refs) for k, (reply, latency, refs) in self._cache.items()]

    def _write(self, statements: list[tuple[str, list[tuple[Any, ...]]]], *, wait: bool = True) -> bool:
        """Run ``executemany`` for each (sql, rows) in one transaction; roll back and re-raise on failure.
        False, with nothing written, when ``wait`` is False and another process holds the write lock."""
        conn = self.conn
        try:
            if not self._begin(wait=wait):
                return False
            for sql, rows in statements:
                if rows:
                    conn.executemany(sql, rows)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:  # some errors end the transaction themselves
                conn.execute("ROLLBACK")
            raise
        return True

    def _begin(self, *, wait: bool = True) -> bool:
        """Start a write transaction; True. (``wait`` is for a database with one write lock, SQLite's: a
        database that locks rows as they are written waits its own way, so a batch is always written.)"""
        self.conn.execute("BEGIN")
        return True

    def _try_write(self, statements: list[tuple[str, list[tuple[Any, ...]]]]) -> Exception | None:
        try:
            self._write(statements)
        except self._row_errors as exc:
            return exc
        return None

    def _write_one_by_one(self) -> list[str]:
        """The slow path after a failed batch: each row alone, reduced if needed. Returns lost cases."""
        if self.on_rewrite is not None:
            self.on_rewrite()
        refused_texts = set()
        for key, body in self._texts.items():
            if self._try_write([(self._sql["text"], [(key, body)])]) is not None:
                refused_texts.add(key)
        metrics: dict[tuple[Any, Any, Any], list[tuple[Any, ...]]] = {}
        for row in self._metrics:
            metrics.setdefault((row[0], row[1], row[2]), []).append(row)
        lost = []
        for case in self._cases:
            rows = metrics.get((case[0], case[2], case[3]), [])
            notes = []
            if case[-1] in refused_texts:
                notes.append(_note("output", "its text could not be stored"))
                case = (*case[:8], notes[0], *case[9:-1], None)
            elif self._try_write([(self._sql["case"], [case]), (self._sql["metric"], rows)]) is None:
                continue
            reduced, case_notes = self._reduce(case, CASE_COLUMNS)
            reduced_rows = []
            for row in rows:
                reduced_row, metric_notes = self._reduce(row, METRIC_COLUMNS)
                reduced_rows.append(reduced_row)
                notes += [f"{row[4]}: {note}" for note in metric_notes]
            notes = case_notes + notes
            failure = self._try_write([(self._sql["case"], [reduced]), (self._sql["metric"], reduced_rows)])
            where = f"case {encodable(str(case[2]))!r} #{case[3]}"
            if failure is None:
                self.problems.append(f"{where} stored reduced: {'; '.join(notes)}")
            else:
                lost.append(f"{where}: {type(failure).__name__}: {failure}")
        for row in self._cache_rows():
            failure = self._try_write([(self._sql["cache"], [row])])
            if failure is not None:
                self.problems.append(f"a target reply was not cached: {type(failure).__name__}: {failure}")
        self.problems.extend(f"lost {item}" for item in lost)
        return lost

    def _reduce(self, row: tuple[Any, ...], columns: tuple[str, ...]) -> tuple[tuple[Any, ...], list[str]]:
        """``row`` with each value the database refuses replaced, and the notes saying why.

        Text becomes the note, JSON ``{"store_error": note}``, a number NULL (its note appended to the
        row's ``error``); keys and the status are coerced to int or text, never dropped.
        """
        values = list(row)
        notes: list[str] = []
        number_notes: list[str] = []
        for index, (column, value) in enumerate(zip(columns, row, strict=True)):
            failure = self._refusal(value)
            if failure is None:
                continue
            note = _note(column, f"{type(failure).__name__}: {failure}")
            notes.append(note)
            if column in _TEXT_COLUMNS:
                values[index] = note
            elif column in _JSON_COLUMNS:
                values[index] = encodable_json({"store_error": note})
            elif column in _NUMBER_COLUMNS:
                values[index] = None
                number_notes.append(note)
            elif column in ("seq", "repeat", "position", "passed", "cached"):
                values[index] = _as_int(value)  # a verdict that cannot be stored counts as not passed
            else:  # run_id, case_id, status, output_hash, recorded_at: coerced, never dropped
                values[index] = encodable(str(value))
        if number_notes:
            at = columns.index("error")
            values[at] = "; ".join(n for n in (values[at] if isinstance(values[at], str) else None, *number_notes) if n)
        return tuple(values), notes

    def _refusal(self, value: Any) -> Exception | None:
        """Why the database cannot bind ``value`` (None when it can)."""
        try:
            self.conn.execute("SELECT ?", (value,))
        except self._row_errors as exc:
            return exc
        return None

    # -- cache ----------------------------------------------------------------------------------

    def cache_get(self, key: str) -> tuple[str, float | None] | None:
        """A cached reply's JSON and original latency (large texts put back in place), or None."""
        row: tuple[Any, ...] | None = self._cache.get(key)
        if row is None:
            row = self.conn.execute("SELECT reply, latency_ms, refs FROM cache WHERE key = ?", (key,)).fetchone()
        if row is None and self._read_only_source:
            refs = "refs" if self._source_has_refs else "NULL"
            row = self._source_row(f"SELECT reply, latency_ms, {refs} FROM source.cache WHERE key = ?", (key,))
        if row is None:
            return None
        reply = self._expand(row[0], row[2])
        return (reply, row[1]) if reply is not None else None

    def cache_put(self, key: str, reply_json: str, latency_ms: float | None) -> None:
        """Buffer a reply; each string of ``large_text`` characters or more in it goes to ``texts``."""
        reply_json, refs = self._split(encodable(reply_json))
        self._cache[key] = (reply_json, latency_ms, refs)

    def _split(self, reply_json: str) -> tuple[str, str | None]:
        """Move the large strings of a reply to ``texts``: (reply with them blanked, JSON [[path, hash], …]).

        Walks the decoded reply iteratively (no recursion limit); a reply that does not decode is kept whole.
        """
        if len(reply_json) < self.large_text:
            return reply_json, None
        try:
            data = json.loads(reply_json)
        except (ValueError, RecursionError):
            return reply_json, None
        holder = [data]  # so that a reply that is one large string is handled like any other
        refs: list[list[Any]] = []
        stack: list[tuple[Any, list[Any]]] = [(holder, [])]
        while stack:
            container, path = stack.pop()
            items = container.items() if isinstance(container, dict) else enumerate(container)
            for step, value in items:
                if isinstance(value, str) and len(value) >= self.large_text:
                    refs.append([[*path, step], self._intern(encodable(value))])
                    container[step] = ""
                elif isinstance(value, (dict, list)):
                    stack.append((value, [*path, step]))
        if not refs:
            return reply_json, None
        return encodable_json(holder[0]), encodable_json([[path[1:], key] for path, key in refs])

    def _expand(self, reply_json: str, refs_json: str | None) -> str | None:
        """The reply with its large strings put back; None when one of them is missing."""
        if not refs_json:
            return reply_json
        holder = [json.loads(reply_json)]
        for path, key in json.loads(refs_json):
            text = self._text(key)
            if text is None:
                return None
            steps = [0, *path]  # from the holder down to the string's place
            parent: Any = holder
            for step in steps[:-1]:
                parent = parent[step]
            parent[steps[-1]] = text
        return json.dumps(holder[0], ensure_ascii=False)

    def _text(self, key: str) -> str | None:
        """A stored large text by its hash: pending, in this database, or in the read-only source."""
        if key in self._texts:
            return self._texts[key]
        row = self.conn.execute("SELECT body FROM texts WHERE hash = ?", (key,)).fetchone()
        if row is None and self._source_has_refs:
            row = self._source_row("SELECT body FROM source.texts WHERE hash = ?", (key,))
        return row[0] if row else None

    # -- judge cache (judge calls take seconds: written at once, not batched) ----------------------

    def judge_cache_get(self, key: str) -> str | None:
        row = self.conn.execute("SELECT reply FROM judge_cache WHERE key = ?", (key,)).fetchone()
        if row is None and self._read_only_source:
            row = self._source_row("SELECT reply FROM source.judge_cache WHERE key = ?", (key,))
        return row[0] if row else None

    def _source_row(self, sql: str, params: tuple[Any, ...]) -> tuple[Any, ...] | None:
        """One row of the read-only source database (``source.`` names its tables in ``sql``)."""
        if self._source is not None:
            return self._source.execute(sql.replace("source.", ""), params).fetchone()
        return self.conn.execute(sql, params).fetchone()

    def judge_cache_put(self, key: str, reply_json: str) -> None:
        """Store a judge reply now; one the database refuses is not cached (noted in ``problems``)."""
        try:
            self.conn.execute(self._sql["judge"],
                              (encodable(key), encodable(reply_json), time.time()))
        except self._row_errors as exc:
            self.problems.append(f"a judge reply was not cached: {type(exc).__name__}: {exc}")

    # -- reads ----------------------------------------------------------------------------------

    def case_count(self, run_id: str) -> int:
        """How many case results (attempts) the run has stored."""
        return self.conn.execute("SELECT COUNT(*) FROM case_results WHERE run_id = ?", (run_id,)).fetchone()[0]

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

    def verdict_thresholds(self, run_id: str) -> dict[str | tuple[str, str], set[float | None]]:
        """Per metric name, or (name, label) for a labelled metric entry: the distinct pass marks of its
        results that gave a verdict (passed or failed)."""
        cur = self.conn.execute("SELECT DISTINCT metric, label, threshold FROM metric_results WHERE run_id = ?"
                                " AND status IN ('passed', 'failed')", (run_id,))
        out: dict[str | tuple[str, str], set[float | None]] = {}
        for metric, label, threshold in cur:
            out.setdefault(metric if label is None else (metric, label), set()).add(threshold)
        return out

    def repeat_counts(self, run_id: str) -> list[tuple[str, int, int]]:
        """(case_id, attempts, passes) per case."""
        cur = self.conn.execute("SELECT case_id, COUNT(*), SUM(passed) FROM case_results WHERE run_id = ?"
                                " GROUP BY case_id ORDER BY MIN(seq)", (run_id,))
        return [(c, n, int(p or 0)) for c, n, p in cur]

    def iter_cases(self, run_id: str, *, only_unpassed: bool = False, limit: int | None = None
                   ) -> Iterator[dict[str, Any]]:
        """Case results in suite order, each with its metric results; streamed, never all in memory.

        ``only_unpassed``: every case whose status is not ``passed`` (failed, errored, unmeasured).
        A large output is read from ``texts`` once per case, not once per metric row.
        """
        where = "c.run_id = ?" + (" AND c.status != 'passed'" if only_unpassed else "")
        sql = (
            "SELECT c.case_id, c.repeat, c.status, c.passed, c.score, c.prompt, c.output, c.error, c.latency_ms,"
            " c.cached, c.envelope, m.metric, m.status, m.value, m.passed, m.threshold, m.weight, m.reason,"
            " m.detail, m.error, c.output_hash FROM (SELECT * FROM case_results c WHERE " + where +
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
                output = row[6] if row[20] is None else self._text(row[20])
                current = {
                    "_key": key, "id": row[0], "repeat": row[1], "status": row[2], "passed": bool(row[3]),
                    "score": row[4], "prompt": row[5], "output": output, "error": row[7], "latency_ms": row[8],
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

    def metric_values(self, run_id: str) -> Iterator[tuple[str, int, str, str, float | None, bool | None]]:
        """(case_id, repeat, metric, status, value, passed) per metric result, in suite order (statistics)."""
        return metric_values(self.conn, run_id)

    def close(self) -> None:
        try:
            self.flush()
        finally:
            for run_id in list(self._leases):  # the runs this store still holds are let go as it closes
                self.release_run(run_id)
        self.conn.close()
        if self._source is not None:
            self._source.close()


def _note(column: str, why: str) -> str:
    return encodable(f"[{column} not stored: {why[:300]}]")


def _as_int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):
        return 0


# -- reading runs back (``agentunit compare``, statistics, the viewer) ----------------------------------


class UnknownRunError(AgentUnitError):
    """A run name (id, ``latest``, ``latest~N``) that names no run in the database."""


def recent_runs(conn: schema.Connection, limit: int | None = 10, *, suite: str | None = None
                ) -> list[dict[str, Any]]:
    """Runs newest first (``started_at``, then insertion order): run_id, suite, started_at, status; only
    the runs of ``suite`` when given."""
    where, params = (" WHERE suite = ?", (suite,)) if suite is not None else ("", ())
    sql = f"SELECT run_id, suite, started_at, status FROM runs{where} ORDER BY started_at DESC, rowid DESC"
    if limit is not None:
        sql, params = sql + " LIMIT ?", (*params, limit)
    rows = conn.execute(sql, params)
    return [dict(zip(("run_id", "suite", "started_at", "status"), r, strict=True)) for r in rows]


def is_relative_name(name: str) -> bool:
    """Whether a run name counts back from the newest run (``latest``, ``latest~N``) rather than naming one."""
    text = name.strip()
    return text == "latest" or text.startswith("latest~")


def run_suite(conn: schema.Connection, run_id: str) -> str | None:
    """The suite name of a stored run (None when there is no such run)."""
    row = conn.execute("SELECT suite FROM runs WHERE run_id = ?", (run_id,)).fetchone()
    return None if row is None else str(row[0])


def resolve_run_id(conn: schema.Connection, name: str, *, suite: str | None = None) -> str:
    """The run id a name stands for: an exact id, ``latest`` (newest run) or ``latest~N`` (the N-th
    before it), or a unique prefix of an id. With ``suite``, ``latest`` and ``latest~N`` count only
    that suite's runs (an id names its run whatever its suite). Raises UnknownRunError listing recent
    runs (of ``suite`` when given)."""
    text = name.strip()
    if is_relative_name(text):
        back = text[len("latest~"):] if text != "latest" else "0"
        if not back.isdigit():
            raise UnknownRunError(f"bad run name {name!r}: use a run id, latest or latest~N (N ≥ 0)"
                                  + _recent_text(conn, suite))
        where, params = (" WHERE suite = ?", (suite,)) if suite is not None else ("", ())
        row = conn.execute(f"SELECT run_id FROM runs{where} ORDER BY started_at DESC, rowid DESC LIMIT 1 OFFSET ?",
                           (*params, int(back))).fetchone()
        if row is None:
            total = conn.execute(f"SELECT COUNT(*) FROM runs{where}", params).fetchone()[0]
            if suite is None:
                raise UnknownRunError(f"no run {name!r}: the database holds {total} run(s)" + _recent_text(conn))
            if not total:
                raise UnknownRunError(f"no run {name!r}: the database holds no run of suite {suite!r}"
                                      + _suites_text(conn))
            raise UnknownRunError(f"no run {name!r} of suite {suite!r}: the database holds {total} run(s) of it"
                                  + _recent_text(conn, suite))
        return str(row[0])
    if conn.execute("SELECT 1 FROM runs WHERE run_id = ?", (text,)).fetchone():
        return text
    matches = [r[0] for r in conn.execute("SELECT run_id FROM runs WHERE substr(run_id, 1, ?) = ? LIMIT 2",
                                          (len(text), text))] if text else []
    if len(matches) == 1:
        return str(matches[0])
    why = "is the prefix of several runs" if matches else "names no run"
    raise UnknownRunError(f"{name!r} {why}" + _recent_text(conn, suite))


def _recent_text(conn: schema.Connection, suite: str | None = None) -> str:
    runs = recent_runs(conn, 10, suite=suite)
    if not runs:
        return "; the database has no runs yet"
    lines = [f"  {'latest' if i == 0 else f'latest~{i}':<9} {r['run_id']}  {r['started_at']}  {r['status']:<11}"
             f" {r['suite']}" for i, r in enumerate(runs)]
    return f"; recent runs{'' if suite is None else f' of suite {suite!r}'}:\n" + "\n".join(lines)


def _suites_text(conn: schema.Connection) -> str:
    names = [row[0] for row in conn.execute("SELECT suite FROM runs GROUP BY suite ORDER BY MAX(started_at) DESC"
                                            " LIMIT 20")]
    return "; suites with runs: " + ", ".join(repr(n) for n in names) if names else "; the database has no runs yet"


def case_verdicts(conn: schema.Connection, run_id: str) -> list[tuple[str, int, str, bool, float | None]]:
    """(case_id, repeat, status, passed, score) per case and attempt, in suite order."""
    rows = conn.execute("SELECT case_id, repeat, status, passed, score FROM case_results WHERE run_id = ?"
                        " ORDER BY seq, repeat", (run_id,))
    return [(c, r, s, bool(p), v) for c, r, s, p, v in rows]


def metric_values(conn: schema.Connection, run_id: str
                  ) -> Iterator[tuple[str, int, str, str, float | None, bool | None]]:
    """(case_id, repeat, metric, status, value, passed) per metric result, in suite and metric order."""
    rows = conn.execute(
        "SELECT m.case_id, m.repeat, m.metric, m.status, m.value, m.passed FROM metric_results m"
        " JOIN case_results c ON c.run_id = m.run_id AND c.case_id = m.case_id AND c.repeat = m.repeat"
        " WHERE m.run_id = ? ORDER BY c.seq, m.repeat, m.position", (run_id,))
    for case_id, repeat, metric, status, value, passed in rows:
        yield case_id, repeat, metric, status, value, None if passed is None else bool(passed)
