"""PostgreSQL results store: ``--db postgresql://USER:PASSWORD@HOST:PORT/DBNAME``, or libpq's connection
string ``--db "host=HOST port=PORT dbname=DBNAME user=USER password=PASSWORD"`` (``pip install
'agentunit[postgres]'``: psycopg 3). Only a PostgreSQL URL or connection string imports this module.

The schema is the SQLite one (``agentunit.store.schema``), so ``PostgresStore`` is
``agentunit.store.base.BaseStore`` on a ``PgConnection``, as the SQLite ``Store`` is on a ``sqlite3``
connection: the same buffered batches, one transaction per batch, the same content-addressed ``texts`` and
the same target and judge caches — shared by every run that writes to the database.

``PgConnection`` takes the SQL the store and the readers (``compare``, the viewer) write for SQLite
and rewrites the few differences: ``?`` placeholders become ``%s``; ``json_group_array`` becomes
``json_agg`` (JSON results are read back as text, as SQLite returns them); ``LIKE`` becomes ``ILIKE``
(SQLite's LIKE ignores ASCII case); ``PRAGMA table_info(T)`` reads ``information_schema``; other
pragmas do nothing. ``runs`` has an explicit ``rowid`` identity column, the order runs were started in.

Many runs may write to one database at once: run ids are unique per run, and rows of different runs
never share a key; rows they do share (cache entries, large texts) are written in key order, so two
batches never deadlock, and a batch that still meets a deadlock or serialization failure is retried.
A batch of case and metric results is copied (``COPY``) into per-connection staging tables and
upserted from there in one statement per table; a batch that fails that way (a value refused, a case
twice in one batch) is rolled back and written by ``executemany`` in pipeline mode (one round trip per
batch) with ``BaseStore``'s row-by-row fallbacks.

A password in the URL is never shown: errors and the store's ``path`` carry the URL with it replaced
by ``***`` (``agentunit.store.location.redact_url``). PostgreSQL text cannot hold NUL characters
(SQLite can): each NUL is stored as U+FFFD. The check costs nothing on the usual path: psycopg refuses
such a value before sending it, and only then are the values rewritten and the statement retried.
"""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import agentunit.store.schema as schema
from agentunit.errors import AgentUnitError
from agentunit.store.base import CASE_COLUMNS, DEFAULT_DB, LARGE_TEXT, METRIC_COLUMNS, BaseStore, write_statements
from agentunit.store.location import conninfo_pairs, is_conninfo, redact_url, scrub

try:
    import psycopg
    from psycopg.types.string import TextLoader
except ImportError:  # pragma: no cover - exercised only without the extra
    psycopg = None  # type: ignore[assignment]

INSTALL_HINT = "pip install 'agentunit[postgres]' (psycopg 3)"
_COPIED = {"case_results": CASE_COLUMNS, "metric_results": METRIC_COLUMNS}
_RETRIES = 5
_APPLICATION = "agentunit"  # the sessions' application_name (a run's lease adds its holder to it)


class PostgresError(AgentUnitError):
    """The PostgreSQL results database cannot be reached, opened or written (the message names the
    URL with its password redacted, and a fix)."""


def _driver() -> Any:
    if psycopg is None:
        raise PostgresError(f"a postgresql:// results database needs the PostgreSQL driver: {INSTALL_HINT}")
    return psycopg


_PRAGMA_TABLE_INFO = re.compile(r"\s*PRAGMA\s+table_info\(\s*(\w+)\s*\)\s*;?\s*$", re.IGNORECASE)
_LIKE = re.compile(r"(?<=\s)LIKE(?=\s)")
_JSON_ARRAY = re.compile(r"\bjson_group_array\(")


@functools.lru_cache(maxsize=1024)
def translate(sql: str, with_params: bool = True) -> str:
    """``sql`` written for SQLite, rewritten for PostgreSQL (see the module docstring)."""
    pragma = _PRAGMA_TABLE_INFO.match(sql)
    if pragma:
        return ("SELECT ordinal_position - 1, column_name FROM information_schema.columns"
                f" WHERE table_schema = current_schema() AND table_name = '{pragma.group(1)}'"
                " ORDER BY ordinal_position")
    if sql.lstrip()[:6].upper() == "PRAGMA":
        return "SELECT 1 WHERE false"
    if with_params:
        sql = sql.replace("%", "%%").replace("?", "%s")
    return _JSON_ARRAY.sub("json_agg(", _LIKE.sub("ILIKE", sql))


_NUL_REFUSED = "NUL (0x00)"


def _without_nul(params: Sequence[Any]) -> list[Any]:
    """``params`` with every NUL character of a string replaced by U+FFFD."""
    return [v.replace("\x00", "\ufffd") if isinstance(v, str) else v for v in params]


def _nul_refused(exc: BaseException) -> bool:
    return psycopg is not None and isinstance(exc, psycopg.DataError) and _NUL_REFUSED in str(exc)


class PgConnection:
    """A psycopg connection (autocommit; ``BEGIN``/``COMMIT`` as statements) that takes SQLite-style SQL
    through ``execute`` and ``executemany``, as ``sqlite3.Connection`` does."""

    def __init__(self, raw: Any, shown: str):
        self.raw = raw
        self.shown = shown

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run one statement; returns the cursor (iterable, ``fetchone``, ``fetchall``, ``description``)."""
        cursor = self.raw.cursor()
        try:
            cursor.execute(translate(sql, bool(params)), params or None)
        except psycopg.DataError as exc:
            if not _nul_refused(exc) or self.in_transaction:
                raise
            cursor.execute(translate(sql, bool(params)), _without_nul(params))
        return cursor

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement per row, pipelined (one round trip per call)."""
        with self.raw.cursor() as cursor:
            cursor.executemany(translate(sql), rows)

    @property
    def closed(self) -> bool:
        """Whether the connection is closed or lost (the viewer then opens another)."""
        return bool(self.raw.closed or self.raw.broken)

    @property
    def in_transaction(self) -> bool:
        return self.raw.info.transaction_status != psycopg.pq.TransactionStatus.IDLE

    def close(self) -> None:
        self.raw.close()


def connect(url: str, *, read_only: bool = False) -> PgConnection:
    """Connect to the database at ``url`` (a URL or a libpq connection string); PostgresError (redacted,
    with a fix) when that fails. A connection string libpq would not read is refused before the driver
    sees it: the driver's message could quote the password."""
    shown = redact_url(url)
    if is_conninfo(url) and conninfo_pairs(url) is None:
        raise PostgresError(f"cannot read the PostgreSQL connection string {shown}: write keyword=value pairs"
                            " separated by spaces (host, port, dbname, user, password, …), a value holding a space"
                            " in single quotes, a quote or backslash in a value after a backslash — or give a"
                            " postgresql://USER:PASSWORD@HOST:PORT/DBNAME URL")
    driver = _driver()
    try:
        raw = driver.connect(url.strip(), autocommit=True, connect_timeout=10,
                             application_name=_APPLICATION)
    except (driver.Error, ValueError) as exc:
        reason = scrub(" ".join(str(exc).split()), url)
        raise PostgresError(f"cannot connect to the PostgreSQL results database {shown}: {reason}. Check that the"
                            " server is running and the URL's host, port, user, password and database name"
                            " (postgresql://USER:PASSWORD@HOST:PORT/DBNAME)") from None
    for name in ("json", "jsonb"):  # JSON read back as text, as from SQLite
        raw.adapters.register_loader(name, TextLoader)
    if read_only:
        raw.execute("SET default_transaction_read_only = on")
    return PgConnection(raw, shown)


def connect_read_only(url: str) -> PgConnection:
    """Open an existing PostgreSQL results database for reading only (nothing is created or upgraded).

    Raises PostgresError when it cannot be reached or holds no agentunit results.
    """
    conn = connect(url, read_only=True)
    missing = [name for name in ("runs", "case_results", "metric_results")
               if conn.execute("SELECT to_regclass(?)", (name,)).fetchone()[0] is None]
    if missing:
        conn.close()
        raise PostgresError(f"{conn.shown} is not an agentunit results database (no {missing[0]} table): run a suite"
                            f" with --db {conn.shown} first")
    return conn


def _pg_row_errors() -> tuple[type[BaseException], ...]:
    base = BaseStore._row_errors
    if psycopg is None:  # pragma: no cover
        return base
    return (*base, psycopg.DataError, psycopg.IntegrityError, psycopg.ProgrammingError)


class PostgresStore(BaseStore):
    """The results store in a PostgreSQL database (``BaseStore``'s interface; see the module docstring).

    ``path`` is the URL with its password redacted.
    """

    dialect = schema.POSTGRES
    _row_errors = _pg_row_errors()
    _sql = write_statements(schema.POSTGRES)

    def __init__(self, url: str | Path = DEFAULT_DB, *, batch_size: int = 2000, flush_interval: float = 0.5,
                 large_text: int = LARGE_TEXT):
        self._url = str(url)
        try:
            super().__init__(redact_url(self._url), batch_size=batch_size, flush_interval=flush_interval,
                             large_text=large_text)
        except _driver().Error as exc:  # the schema upgrade failed: permissions, a foreign table
            raise PostgresError(f"cannot prepare the PostgreSQL results database {redact_url(self._url)}:"
                                f" {scrub(str(exc), self._url)}") from None

    def _connect(self) -> PgConnection:
        self._staged = False
        return connect(self._url)

    def _copy_write(self, statements: list[tuple[str, list[tuple[Any, ...]]]]) -> bool:
        """Write a batch with COPY into session staging tables, then one upsert per table: several times
        faster than row statements. Returns False, with nothing written, when anything fails (a value
        refused, a case twice in one batch): the caller then takes the row-by-row path and its fallbacks."""
        copied = {self._sql["case"]: "case_results", self._sql["metric"]: "metric_results"}
        if sum(len(rows) for sql, rows in statements if sql in copied) < 64:
            return False
        raw = self.conn.raw
        try:
            with raw.transaction(), raw.cursor() as cursor:
                if not self._staged:  # created once per connection (gone if this transaction rolls back)
                    for name in copied.values():
                        cursor.execute(f"CREATE TEMP TABLE IF NOT EXISTS stage_{name} (LIKE {name})"
                                       " ON COMMIT DELETE ROWS")
                for sql, rows in statements:
                    if not rows:
                        continue
                    name = copied.get(sql)
                    if name is None:  # texts and cache entries: few, shared between runs, in key order
                        cursor.executemany(translate(sql), sorted(rows, key=lambda row: row[0]))
                        continue
                    table = schema.table(name)
                    columns = ", ".join(c for c in _COPIED[name])
                    with cursor.copy(f"COPY stage_{name} ({columns}) FROM STDIN") as copy:
                        for row in rows:
                            copy.write_row(row)
                    updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in _COPIED[name] if c not in table.key)
                    cursor.execute(f"INSERT INTO {name} ({columns}) SELECT {columns} FROM stage_{name}"
                                   f" ON CONFLICT ({', '.join(table.key)}) DO UPDATE SET {updates}")
        except (psycopg.Error, ValueError, TypeError, OverflowError):
            if raw.closed or raw.broken:
                raise
            return False
        self._staged = True
        return True

    def _take_lease(self, run_id: str) -> Any:
        """PostgreSQL's lease on a run: a session advisory lock on its two keys (``agentunit.store.lease``),
        taken without waiting. This session's ``application_name`` then names this process, which is how a
        refused process learns who holds the run (``pg_stat_activity``). Returns the keys."""
        from agentunit.store.lease import RunHeldError, describe_holder, pg_lease_keys

        keys = pg_lease_keys(run_id)
        if not self.conn.execute("SELECT pg_try_advisory_lock(?, ?)", keys).fetchone()[0]:
            raise RunHeldError(run_id, self._lease_holder(keys))
        # PostgreSQL keeps 63 bytes of an application name
        name = f"{_APPLICATION} {describe_holder()}".encode()[:63].decode("utf-8", "ignore")
        self.conn.execute("SELECT set_config('application_name', ?, false)", (name,))
        return keys

    def _lease_holder(self, keys: tuple[int, int]) -> str | None:
        """The session holding the advisory lock ``keys``: the holding process's own description when it is an
        agentunit that wrote one, else the server's session pid and client address (None: it just ended)."""
        row = self.conn.execute(
            "SELECT a.application_name, a.pid, host(a.client_addr) FROM pg_locks l"
            " JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted"
            " AND l.classid::bigint = ? AND l.objid::bigint = ? AND l.objsubid = 2 LIMIT 1",
            tuple(key & 0xFFFFFFFF for key in keys)).fetchone()  # pg_locks shows the keys as unsigned oids
        if row is None:
            return None
        name, pid, client = row
        if name and name.startswith(f"{_APPLICATION} pid "):
            return name[len(_APPLICATION) + 1:]
        return f"PostgreSQL session {pid}" + (f" from {client}" if client else "")

    def _let_go(self, lease: Any) -> None:
        """Unlock the run's advisory lock; a connection already lost holds nothing (the server let it go)."""
        if self.conn.closed:
            return
        try:
            self.conn.execute("SELECT pg_advisory_unlock(?, ?)", lease)
            self.conn.execute("SELECT set_config('application_name', ?, false)", (_APPLICATION,))
        except psycopg.Error:
            pass  # the session is going: its locks go with it

    def read_caches_from(self, path: str | Path) -> None:  # pragma: no cover - dry runs use SQLite in memory
        raise PostgresError("a PostgreSQL store reads its caches from its own database")

    def _write(self, statements: list[tuple[str, list[tuple[Any, ...]]]], *, wait: bool = True) -> bool:
        """``BaseStore._write`` with shared rows (cache, texts) in key order, retried on a deadlock; a batch of
        cases goes first through COPY (``_copy_write``), and through executemany only if that fails. Always
        written (True): PostgreSQL writers wait for one another's rows, not for the whole database."""
        if self._copy_write(statements):
            return True
        shared = (self._sql["text"], self._sql["cache"])
        ordered = [(sql, sorted(rows, key=lambda row: row[0]) if sql in shared else rows) for sql, rows in statements]
        retry = (psycopg.errors.DeadlockDetected, psycopg.errors.SerializationFailure)
        for attempt in range(_RETRIES):
            try:
                super()._write(ordered)
                return True
            except psycopg.DataError as exc:  # rolled back; rewritten once (see the module docstring)
                if not _nul_refused(exc):
                    raise
                ordered = [(sql, [tuple(_without_nul(row)) for row in rows]) for sql, rows in ordered]
                super()._write(ordered)
                return True
            except retry:
                if attempt == _RETRIES - 1:
                    raise
                time.sleep(0.02 * 2 ** attempt)
            except psycopg.OperationalError as exc:
                raise PostgresError(f"writing to the PostgreSQL results database {self.path} failed:"
                                    f" {scrub(' '.join(str(exc).split()), self._url)} (committed batches are kept;"
                                    " continue the run with --resume RUN_ID once the server is back)") from None
