"""The results schema, stated once for SQLite and PostgreSQL, its version and its migrations.

Tables, columns and indexes are declared here; ``create_statements`` renders them for a dialect:

- types: ``text`` → TEXT / TEXT COLLATE "C" (text sorts by code point, as SQLite's BINARY, whatever the
  database's locale); ``int`` → INTEGER (SQLite) / BIGINT; ``flag`` (0/1) → INTEGER / SMALLINT;
  ``real`` → REAL (SQLite's 8-byte float) / DOUBLE PRECISION (PostgreSQL's REAL is 4 bytes);
- ``runs`` gets an explicit ``rowid`` identity column on PostgreSQL, which SQLite has implicitly
  (readers order runs started in the same second by it);
- upserts: ``INSERT OR REPLACE`` / ``INSERT … ON CONFLICT (key) DO UPDATE``, and ``INSERT OR
  IGNORE`` / ``ON CONFLICT DO NOTHING``. Statements use ``?`` placeholders on both (the PostgreSQL
  connection rewrites them, ``agentunit.store.postgres``).

``schema_version`` holds one row per migration applied. Opening a database for writing runs
``upgrade``: a database at ``SCHEMA_VERSION`` is left alone (one query); an older one — including one
written before versions were recorded (no ``schema_version`` table) — gets every missing table,
column and index, then the version rows; a newer one is refused (``SchemaVersionError``). Upgrades
are serialized between processes (SQLite: ``BEGIN IMMEDIATE``; PostgreSQL: an advisory lock).
"""

from __future__ import annotations

import time
from typing import Any, NamedTuple, Protocol

from agentunit.errors import AgentUnitError

SQLITE = "sqlite"
POSTGRES = "postgresql"
DIALECTS = (SQLITE, POSTGRES)


# The schema's records are named tuples: built once at import, never changed (a frozen dataclass costs ~0.4 ms
# of every start-up to build; issue 20).
class Column(NamedTuple):
    """A column: its ``kind`` (text, int, flag, real), whether it may be NULL, its default (SQL text)
    and the schema version that added it."""

    name: str
    kind: str
    not_null: bool = False
    default: str | None = None
    since: int = 1


class Table(NamedTuple):
    """A table, its columns and its primary key."""

    name: str
    columns: tuple[Column, ...]
    key: tuple[str, ...]
    identity_rowid: bool = False  # PostgreSQL: an explicit ``rowid`` column (SQLite has one implicitly)

    @property
    def column_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns)


class Index(NamedTuple):
    name: str
    table: str
    columns: tuple[str, ...]


class Migration(NamedTuple):
    version: int
    description: str


def _c(name: str, kind: str, not_null: bool = False, default: str | None = None, since: int = 1) -> Column:
    return Column(name, kind, not_null, default, since)


TABLES: tuple[Table, ...] = (
    Table("runs", (
        _c("run_id", "text"), _c("suite", "text", True), _c("suite_path", "text"), _c("suite_hash", "text"),
        _c("started_at", "text", True), _c("finished_at", "text"), _c("status", "text", True),
        _c("options", "text"), _c("target", "text"), _c("summary", "text")), ("run_id",), identity_rowid=True),
    Table("case_results", (
        _c("run_id", "text", True), _c("seq", "int", True), _c("case_id", "text", True), _c("repeat", "int", True),
        _c("status", "text", True), _c("passed", "flag", True), _c("score", "real"), _c("prompt", "text"),
        _c("output", "text"), _c("error", "text"), _c("latency_ms", "real"), _c("cached", "flag", True, "0"),
        _c("envelope", "text"), _c("recorded_at", "real", True), _c("output_hash", "text", since=2)),
        ("run_id", "case_id", "repeat")),
    Table("metric_results", (
        _c("run_id", "text", True), _c("case_id", "text", True), _c("repeat", "int", True),
        _c("position", "int", True), _c("metric", "text", True), _c("status", "text", True), _c("value", "real"),
        _c("passed", "flag"), _c("threshold", "real"), _c("weight", "real"), _c("reason", "text"),
        _c("detail", "text"), _c("error", "text"), _c("label", "text")),
        ("run_id", "case_id", "repeat", "position")),
    Table("cache", (
        _c("key", "text"), _c("reply", "text", True), _c("latency_ms", "real"), _c("created_at", "real", True),
        _c("refs", "text", since=2)), ("key",)),
    Table("judge_cache", (_c("key", "text"), _c("reply", "text", True), _c("created_at", "real", True)), ("key",)),
    Table("texts", (_c("hash", "text"), _c("body", "text", True)), ("hash",)),
)
INDEXES: tuple[Index, ...] = (Index("case_results_order", "case_results", ("run_id", "seq", "repeat")),)
MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "runs, case_results, metric_results, cache, judge_cache, texts"),
    Migration(2, "large texts stored once: case_results.output_hash, cache.refs"),
)
SCHEMA_VERSION = MIGRATIONS[-1].version
VERSION_TABLE = "schema_version"
_TYPES = {SQLITE: {"text": "TEXT", "int": "INTEGER", "flag": "INTEGER", "real": "REAL"},
          POSTGRES: {"text": 'TEXT COLLATE "C"', "int": "BIGINT", "flag": "SMALLINT", "real": "DOUBLE PRECISION"}}
_ADVISORY_LOCK = 0x61676E74  # "agnt": PostgreSQL upgrades take this lock


class SchemaVersionError(AgentUnitError):
    """The database was written by a newer agentunit (a schema version this one does not know)."""


def table(name: str) -> Table:
    """The declared table ``name``."""
    return next(t for t in TABLES if t.name == name)


def column_sql(column: Column, dialect: str) -> str:
    """``name TYPE [NOT NULL] [DEFAULT …]`` for ``dialect``."""
    sql = f"{column.name} {_TYPES[dialect][column.kind]}"
    if column.not_null:
        sql += " NOT NULL"
    if column.default is not None:
        sql += f" DEFAULT {column.default}"
    return sql


def create_statements(dialect: str) -> list[str]:
    """``CREATE TABLE/INDEX IF NOT EXISTS`` for every table (current columns) and index, and the version table."""
    statements = []
    for t in TABLES:
        columns = [column_sql(c, dialect) for c in t.columns]
        if t.identity_rowid and dialect == POSTGRES:
            columns.append("rowid BIGINT GENERATED BY DEFAULT AS IDENTITY")
        columns.append(f"PRIMARY KEY ({', '.join(t.key)})")
        statements.append(f"CREATE TABLE IF NOT EXISTS {t.name} ({', '.join(columns)})")
    statements += [f"CREATE INDEX IF NOT EXISTS {i.name} ON {i.table} ({', '.join(i.columns)})" for i in INDEXES]
    statements.append(version_table_sql(dialect))
    return statements


def version_table_sql(dialect: str) -> str:
    """``CREATE TABLE IF NOT EXISTS schema_version``: one row per migration applied."""
    return (f"CREATE TABLE IF NOT EXISTS {VERSION_TABLE} (version INTEGER PRIMARY KEY,"
            f" description TEXT NOT NULL, applied_at {_TYPES[dialect]['real']} NOT NULL)")


def upsert_sql(name: str, columns: tuple[str, ...], dialect: str) -> str:
    """Insert a row of ``columns`` into table ``name``, replacing the row with the same primary key."""
    marks = ", ".join("?" * len(columns))
    if dialect == SQLITE:
        return f"INSERT OR REPLACE INTO {name} ({', '.join(columns)}) VALUES ({marks})"
    key = table(name).key
    updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in columns if c not in key)
    return (f"INSERT INTO {name} ({', '.join(columns)}) VALUES ({marks})"
            f" ON CONFLICT ({', '.join(key)}) DO UPDATE SET {updates}")


def insert_ignore_sql(name: str, columns: tuple[str, ...], dialect: str) -> str:
    """Insert a row of ``columns`` into table ``name`` unless a row with the same primary key exists."""
    marks = ", ".join("?" * len(columns))
    if dialect == SQLITE:
        return f"INSERT OR IGNORE INTO {name} ({', '.join(columns)}) VALUES ({marks})"
    return f"INSERT INTO {name} ({', '.join(columns)}) VALUES ({marks}) ON CONFLICT DO NOTHING"


class Connection(Protocol):
    """What ``upgrade`` needs: ``sqlite3.Connection`` or ``agentunit.store.postgres.PgConnection``."""

    def execute(self, sql: str, parameters: Any = ..., /) -> Any: ...


def existing_columns(conn: Connection, name: str, dialect: str) -> set[str]:
    """The column names table ``name`` has now (empty when it does not exist)."""
    if dialect == SQLITE:
        return {row[1] for row in conn.execute(f"PRAGMA table_info({name})")}
    return {row[0] for row in conn.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema()"
        " AND table_name = ?", (name,))}


def stored_version(conn: Connection, dialect: str) -> int:
    """The schema version recorded in the database; 0 when none is (a new database, or one written
    before versions were recorded)."""
    if dialect == SQLITE:
        present = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                               (VERSION_TABLE,)).fetchone()
    else:
        present = conn.execute("SELECT to_regclass(?)", (VERSION_TABLE,)).fetchone()[0]
    if not present:
        return 0
    return int(conn.execute(f"SELECT COALESCE(MAX(version), 0) FROM {VERSION_TABLE}").fetchone()[0])


def upgrade(conn: Connection, dialect: str, where: str) -> int:
    """Bring the database to ``SCHEMA_VERSION`` (see the module docstring); returns the version it had.

    ``where`` names the database in errors. Raises SchemaVersionError for a newer database.
    """
    version = stored_version(conn, dialect)
    if version == SCHEMA_VERSION:
        return version
    if version > SCHEMA_VERSION:
        raise _newer(version, where)
    conn.execute("BEGIN IMMEDIATE" if dialect == SQLITE else "BEGIN")
    try:
        if dialect == POSTGRES:
            conn.execute("SELECT pg_advisory_xact_lock(?)", (_ADVISORY_LOCK,))
        # Another process may have upgraded it meanwhile. Read the table itself (which takes a lock and
        # so sees tables created since), not the catalog lookup of ``stored_version``.
        conn.execute(version_table_sql(dialect))
        version = int(conn.execute(f"SELECT COALESCE(MAX(version), 0) FROM {VERSION_TABLE}").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise _newer(version, where)
        if version < SCHEMA_VERSION:
            for statement in create_statements(dialect):
                conn.execute(statement)
            for t in TABLES:  # tables created by an earlier version lack the columns added since
                have = existing_columns(conn, t.name, dialect)
                for c in t.columns:
                    if c.name not in have:
                        conn.execute(f"ALTER TABLE {t.name} ADD COLUMN {column_sql(c, dialect)}")
            now = time.time()
            for m in MIGRATIONS:
                if m.version > version:
                    conn.execute(f"INSERT INTO {VERSION_TABLE} (version, description, applied_at) VALUES (?, ?, ?)",
                                 (m.version, m.description, now))
        conn.execute("COMMIT")
    except BaseException:
        try:
            conn.execute("ROLLBACK")
        except Exception:  # the transaction may already be gone; the first error is the one to raise
            pass
        raise
    return version


def _newer(version: int, where: str) -> SchemaVersionError:
    return SchemaVersionError(f"results database {where} has schema version {version}, newer than this agentunit's"
                              f" {SCHEMA_VERSION}: upgrade agentunit (pip install -U agentunit) to write to it")
