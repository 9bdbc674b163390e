"""One schema for both backends: SQLite rendering, versions and migrations of existing files."""

from __future__ import annotations

import sqlite3
import threading
from types import SimpleNamespace

import pytest

from agentunit.store import Store, open_store, schema
from agentunit.store.sqlite import connect_read_only

# The schema as agentunit wrote it before versions were recorded (no schema_version table).
UNVERSIONED = """
CREATE TABLE runs (run_id TEXT PRIMARY KEY, suite TEXT NOT NULL, suite_path TEXT, suite_hash TEXT,
    started_at TEXT NOT NULL, finished_at TEXT, status TEXT NOT NULL, options TEXT, target TEXT, summary TEXT);
CREATE TABLE case_results (run_id TEXT NOT NULL, seq INTEGER NOT NULL, case_id TEXT NOT NULL, repeat INTEGER NOT NULL,
    status TEXT NOT NULL, passed INTEGER NOT NULL, score REAL, prompt TEXT, output TEXT, error TEXT,
    latency_ms REAL, cached INTEGER NOT NULL DEFAULT 0, envelope TEXT, recorded_at REAL NOT NULL, output_hash TEXT,
    PRIMARY KEY (run_id, case_id, repeat));
CREATE TABLE metric_results (run_id TEXT NOT NULL, case_id TEXT NOT NULL, repeat INTEGER NOT NULL,
    position INTEGER NOT NULL, metric TEXT NOT NULL, status TEXT NOT NULL, value REAL, passed INTEGER,
    threshold REAL, weight REAL, reason TEXT, detail TEXT, error TEXT, label TEXT,
    PRIMARY KEY (run_id, case_id, repeat, position));
CREATE TABLE cache (key TEXT PRIMARY KEY, reply TEXT NOT NULL, latency_ms REAL, created_at REAL NOT NULL, refs TEXT);
CREATE TABLE judge_cache (key TEXT PRIMARY KEY, reply TEXT NOT NULL, created_at REAL NOT NULL);
CREATE TABLE texts (hash TEXT PRIMARY KEY, body TEXT NOT NULL);
CREATE INDEX case_results_order ON case_results (run_id, seq, repeat);
INSERT INTO runs VALUES ('old-run', 'old', NULL, NULL, '2025-01-01T00:00:00+00:00', '2025-01-01T00:01:00+00:00',
    'completed', '{"repeat": 1}', NULL, '{"cases": 1}');
INSERT INTO case_results VALUES ('old-run', 0, 'c0', 0, 'passed', 1, 1.0, 'p', 'o', NULL, 2.0, 0, NULL, 1.0, NULL);
INSERT INTO metric_results VALUES ('old-run', 'c0', 0, 0, 'equals', 'passed', 1.0, 1, 0.5, 1.0, 'ok', NULL, NULL,
    NULL);
INSERT INTO judge_cache VALUES ('k', '{"verdict": true}', 1.0);
"""


def _columns(conn: sqlite3.Connection, table: str) -> list[tuple[str, str, int]]:
    return [(row[1], row[2], row[3]) for row in conn.execute(f"PRAGMA table_info({table})")]


def test_a_new_sqlite_database_has_exactly_the_schema_of_before(tmp_path):
    old = sqlite3.connect(tmp_path / "old.db")
    old.executescript(UNVERSIONED)
    Store(tmp_path / "new.db").close()
    new = sqlite3.connect(tmp_path / "new.db")
    for table in schema.TABLES:
        assert _columns(new, table.name) == _columns(old, table.name), table.name
    assert schema.stored_version(new, schema.SQLITE) == schema.SCHEMA_VERSION
    assert [row[0] for row in new.execute("SELECT version FROM schema_version ORDER BY version")] == [
        m.version for m in schema.MIGRATIONS]


def test_a_database_written_before_versions_opens_keeps_its_rows_and_gets_a_version(tmp_path):
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as conn:
        conn.executescript(UNVERSIONED)
    conn = connect_read_only(path)  # readers work before any upgrade
    assert conn.execute("SELECT COUNT(*) FROM case_results").fetchone()[0] == 1
    conn.close()
    store = Store(path)
    assert store.get_run("old-run")["summary"] == {"cases": 1}
    assert [c["id"] for c in store.iter_cases("old-run")] == ["c0"]
    assert store.judge_cache_get("k") == '{"verdict": true}'
    assert schema.stored_version(store.conn, schema.SQLITE) == schema.SCHEMA_VERSION
    store.start_run("new-run", suite="old", suite_path=None, suite_hash=None, started_at="2026", options={},
                    target=None)
    store.close()
    assert len(Store(path).latest_runs()) == 2


def test_a_version_1_database_gets_the_columns_added_since(tmp_path):
    path = tmp_path / "v1.db"
    with sqlite3.connect(path) as conn:
        conn.executescript(UNVERSIONED.replace(", output_hash TEXT", "").replace(", refs TEXT", "")
                           .replace(", 1.0, NULL);", ", 1.0);"))
        conn.execute(schema.version_table_sql(schema.SQLITE))
        conn.execute("INSERT INTO schema_version VALUES (1, 'initial', 0)")
    store = Store(path, large_text=10)
    store.cache_put("key", '{"output": "a long reply body"}', 1.0)
    store.add_case("old-run", 1, "c1", 0, status="passed", passed=True, score=1.0, prompt="p",
                   output="a long output text", error=None, latency_ms=1.0, cached=False, envelope=None, metrics=[])
    store.flush()
    assert store.cache_get("key") == ('{"output": "a long reply body"}', 1.0)
    assert [c["output"] for c in store.iter_cases("old-run")] == ["o", "a long output text"]
    assert schema.stored_version(store.conn, schema.SQLITE) == 2
    store.close()


def test_a_database_from_a_newer_agentunit_is_refused_with_a_fix(tmp_path):
    path = tmp_path / "new.db"
    Store(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO schema_version VALUES (99, 'from the future', 0)")
    with pytest.raises(schema.SchemaVersionError, match=r"new\.db has schema version 99.*pip install -U agentunit"):
        Store(path)


def test_many_stores_opening_a_new_file_at_once_upgrade_it_once(tmp_path):
    path = tmp_path / "fresh.db"
    errors: list[BaseException] = []

    def open_close() -> None:
        try:
            open_store(path).close()
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=open_close) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0] == len(schema.MIGRATIONS)


def test_statements_render_per_dialect():
    assert schema.upsert_sql("texts", ("hash", "body"), schema.SQLITE) == (
        "INSERT OR REPLACE INTO texts (hash, body) VALUES (?, ?)")
    assert schema.upsert_sql("texts", ("hash", "body"), schema.POSTGRES) == (
        "INSERT INTO texts (hash, body) VALUES (?, ?) ON CONFLICT (hash) DO UPDATE SET body = EXCLUDED.body")
    assert schema.insert_ignore_sql("texts", ("hash", "body"), schema.POSTGRES).endswith("ON CONFLICT DO NOTHING")
    postgres = " ".join(schema.create_statements(schema.POSTGRES))
    assert "DOUBLE PRECISION" in postgres and " REAL" not in postgres and "rowid BIGINT GENERATED" in postgres
    assert "rowid" not in " ".join(schema.create_statements(schema.SQLITE))


def test_a_postgres_url_opens_the_postgres_store_class():
    from agentunit.store.location import is_postgres_url

    assert is_postgres_url("postgresql://h/db") and is_postgres_url("postgres://h/db")
    assert not is_postgres_url("results.db") and not is_postgres_url(SimpleNamespace())  # type: ignore[arg-type]


def test_a_postgres_url_without_psycopg_says_how_to_install_it(tmp_path):
    import subprocess
    import sys

    script = ("import sys\nsys.modules['psycopg'] = None\n"
              "from agentunit.store import Store\n"
              "try:\n    Store('postgresql://u:topsecret@127.0.0.1:1/db')\n"
              "except Exception as exc:\n    print(type(exc).__name__, exc)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert "PostgresError" in done.stdout and "pip install 'agentunit[postgres]'" in done.stdout, done.stderr
    assert "topsecret" not in done.stdout + done.stderr


def test_an_immediate_database_is_locked_on_open_is_retried(tmp_path, monkeypatch):
    from agentunit.store import sqlite as store_module

    real_upgrade, calls = schema.upgrade, []

    def flaky(conn, dialect, where):
        calls.append(where)
        if len(calls) < 3:
            raise sqlite3.OperationalError("database is locked")
        return real_upgrade(conn, dialect, where)

    monkeypatch.setattr(store_module.schema, "upgrade", flaky)
    Store(tmp_path / "a.db").close()
    assert len(calls) == 3

    def broken(conn, dialect, where):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store_module.schema, "upgrade", broken)
    with pytest.raises(sqlite3.OperationalError, match="disk I/O"):
        Store(tmp_path / "b.db")
