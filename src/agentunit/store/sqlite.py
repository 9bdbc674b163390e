"""SQLite results store (a file, the default): ``Store``, ``agentunit.store.base.BaseStore`` on a
``sqlite3`` connection.

WAL mode, ``synchronous=NORMAL``. While another process holds the write lock (the ranges of a split run
share one file) a full batch is kept and committed with a later case instead of waiting. A run's lease is
a lock file beside the database (``agentunit.store.lease``). ``--dry-run`` attaches another database,
read-only, for its target and judge caches (``read_caches_from``).

``Store("postgresql://…")`` opens a ``agentunit.store.postgres.PostgresStore`` (psycopg is imported only
then), as ``agentunit.store.open_store`` does. The interface, the batches and the shared SQL are in
``agentunit.store.base``, re-exported here.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import agentunit.store.schema as schema
from agentunit.errors import AgentUnitError
from agentunit.store.base import (
    DEFAULT_DB,
    LARGE_TEXT,
    BaseStore,
    StoreWriteError,
    UnknownRunError,
    case_verdicts,
    metric_values,
    recent_runs,
    resolve_run_id,
    write_statements,
)
from agentunit.store.location import is_postgres_url

__all__ = ["BUSY_TIMEOUT_S", "DEFAULT_DB", "LARGE_TEXT", "SCHEMA", "Store", "StoreWriteError", "UnknownRunError",
           "case_verdicts", "connect_read_only", "metric_values", "recent_runs", "resolve_run_id"]

SCHEMA = ";\n".join(schema.create_statements(schema.SQLITE)) + ";"  # the SQLite rendering (agentunit.store.schema)

_OPEN_ATTEMPTS = 8  # tries to open a new SQLite file that other processes are creating too
BUSY_TIMEOUT_S = 30  # how long a writer waits for another (several runs into one file on a loaded machine)
# Between tries to take the write lock another process holds: 0.2 ms for the first 10 ms of waiting (another
# range's commit takes a few), then twice as long each time, up to 10 ms (a long wait spins no CPU away).
_LOCK_POLL_S = 0.0002
_LOCK_POLL_FAST_S = 0.01
_LOCK_POLL_MAX_S = 0.01

# sqlite3 binds None as NULL only after looking for an adapter of it, which raises and clears an
# AttributeError for every NULL parameter (a dozen per case). An adapter answering None, written in C,
# binds the same NULL without it. Registered only when no one registered another.
if (type(None), sqlite3.PrepareProtocol) not in sqlite3.adapters:
    sqlite3.register_adapter(type(None), {}.get)


class Store(BaseStore):
    """One SQLite database (``BaseStore``'s interface). Use ``add_case`` during a run and ``flush``/``close``
    at the end; ``problems`` lists every write that was reduced or skipped."""

    dialect = schema.SQLITE
    _row_errors = (*BaseStore._row_errors, sqlite3.InterfaceError, sqlite3.ProgrammingError,
                   sqlite3.IntegrityError, sqlite3.DataError)
    _sql = write_statements(schema.SQLITE)

    def __new__(cls, path: str | Path = DEFAULT_DB, **options: Any) -> Store:
        """``Store("postgresql://…")`` opens a ``PostgresStore`` (psycopg is imported only then). That is a
        ``BaseStore`` but not a ``Store``, so it is returned whole: Python then calls no ``__init__`` on it."""
        if cls is Store and is_postgres_url(path):
            from agentunit.store.postgres import PostgresStore  # here: the SQLite path never loads psycopg

            return PostgresStore(str(path), **options)  # type: ignore[return-value]
        return super().__new__(cls)

    def _open(self) -> Any:
        """Connect and bring the schema up to date. While several processes create the same new SQLite
        file, SQLite may answer "database is locked" at once instead of waiting (switching it to WAL, a
        stale snapshot); that is retried a few times."""
        for attempt in range(_OPEN_ATTEMPTS):
            conn = None
            try:
                conn = self._connect()
                schema.upgrade(conn, self.dialect, self.path)
                return conn
            except sqlite3.OperationalError as exc:
                if conn is not None:
                    conn.close()
                if "locked" not in str(exc) or attempt == _OPEN_ATTEMPTS - 1:
                    raise
                time.sleep(0.05 * (attempt + 1))
            except sqlite3.DatabaseError as exc:  # the file is not SQLite at all: the user's path, not a fault
                if conn is not None:
                    conn.close()
                raise AgentUnitError(f"cannot open the results database {self.path}: {exc} — give --db (or "
                                     "AGENTUNIT_DB) a new file name or an agentunit results database") from None
        raise AssertionError("unreachable")

    def _connect(self) -> sqlite3.Connection:
        """Open (creating if needed) the database at ``self.path``."""
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        # Writers wait up to 30 s for one another (several runs into one file on a loaded machine); set
        # before anything else, since switching a new file to WAL takes a lock other openers wait for.
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, uri=True,
                               timeout=BUSY_TIMEOUT_S)
        conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_S * 1000}")
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        return conn

    def read_caches_from(self, path: str | Path) -> None:
        """Also look up target and judge caches in another database, read-only (for ``--dry-run``):
        a SQLite file (attached) or a ``postgresql://`` URL."""
        if is_postgres_url(path):
            from agentunit.store.postgres import connect_read_only as connect_postgres

            self._source = connect_postgres(str(path))
            self._read_only_source = self._source_has_refs = True
        elif Path(path).exists():
            self.conn.execute("ATTACH DATABASE ? AS source", (f"file:{path}?mode=ro",))
            self._read_only_source = True
            columns = {row[1] for row in self.conn.execute("PRAGMA source.table_info(cache)")}
            self._source_has_refs = "refs" in columns  # written by a version that stores large texts once

    def _take_lease(self, run_id: str) -> Any:
        """SQLite's lease: a lock file beside the database (None for a database in memory)."""
        from agentunit.store.lease import take_file_lease  # here: a store that starts no run never loads it

        return take_file_lease(self.path, run_id)

    def _let_go(self, lease: Any) -> None:
        lease.release()

    def _begin(self, *, wait: bool = True) -> bool:
        """Start a write transaction, taking the write lock at once (``BEGIN IMMEDIATE``); False when
        another process holds it and ``wait`` is False.

        The ranges of a split run commit to one file, in step: a range whose batch is full while another
        commits goes on with its cases (``wait=False``) rather than waiting. A waiting writer tries again
        every 0.2 ms for its first 10 ms, then after pauses doubling up to 10 ms, rather than through
        SQLite's busy handler, which sleeps 1, 2, 5, 10… ms from the start (measured: 1,000 cases split in
        two lost 3-8 ms a range to it). After ``BUSY_TIMEOUT_S`` the "database is locked" error is raised,
        as the busy handler would.
        """
        conn = self.conn
        conn.execute("PRAGMA busy_timeout=0")
        try:
            started = pause = None
            while True:
                try:
                    conn.execute("BEGIN IMMEDIATE")
                    return True
                except sqlite3.OperationalError as exc:
                    if "locked" not in str(exc):
                        raise
                    if not wait:
                        return False
                    now = time.monotonic()
                    if started is None:
                        started, pause = now, _LOCK_POLL_S
                    elif now - started >= BUSY_TIMEOUT_S:
                        raise
                    elif now - started >= _LOCK_POLL_FAST_S:
                        pause = min(pause * 2, _LOCK_POLL_MAX_S)
                time.sleep(pause)
        finally:
            conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_S * 1000}")

    def checkpoint_pages(self, pages: int | None = None) -> int:
        """SQLite's ``wal_autocheckpoint``: the pages of write-ahead log after which a commit copies it into
        the database (and syncs it); set to ``pages`` when given. Returns the value it had."""
        before = self.conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0]
        if pages is not None:
            self.conn.execute(f"PRAGMA wal_autocheckpoint={int(pages)}")
        return before


def connect_read_only(path: str | Path) -> sqlite3.Connection:
    """Open an existing results database for reading only (nothing is created or upgraded).

    ``path`` may be a ``postgresql://`` URL (then the connection is a
    ``agentunit.store.postgres.PgConnection``, which takes the same SQL). Raises AgentUnitError when
    the file is missing or is not an agentunit results database.
    """
    if is_postgres_url(path):
        from agentunit.store.postgres import connect_read_only as connect_postgres

        return connect_postgres(str(path))  # type: ignore[return-value]
    if not Path(path).is_file():
        raise AgentUnitError(f"no results database at {path} (run a suite first, or pass --db)")
    try:
        conn = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
        conn.execute("PRAGMA busy_timeout=5000")
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as exc:
        raise AgentUnitError(f"{path} is not a readable results database: {exc}") from None
    if not {"runs", "case_results", "metric_results"} <= tables:
        conn.close()
        raise AgentUnitError(f"{path} is not an agentunit results database (no runs table)")
    return conn
