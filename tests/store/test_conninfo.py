"""libpq's ``key=value`` connection string given as ``--db`` is a PostgreSQL database, never a SQLite file name,
and its password is never printed (``agentunit.store.location``)."""

from __future__ import annotations

import pytest

from agentunit.store.location import conninfo_pairs, is_postgres_url, redact_url, url_secrets
from tests.conftest import run_cli, write_suite
from tests.store.conftest import PASSWORD

CONNINFO = "host=127.0.0.1 port=1 password=hunter2 dbname=x"


@pytest.mark.parametrize(("db", "shown"), [
    (CONNINFO, "host=127.0.0.1 port=1 password=*** dbname=x"),
    ("  dbname = results  user=me password = 'a b\\'c' ", "dbname=results user=me password=***"),
    ("host=db sslpassword=k3y", "host=db sslpassword=***"),
    ("host=db password='it''s secret'", "host=db password=***"),  # not libpq's syntax: cut at the password
    ("HOST=db PASSWORD=zz", "HOST=db PASSWORD=***"),
])
def test_a_connection_string_is_postgres_and_shown_without_its_password(db, shown):
    assert is_postgres_url(db)
    assert redact_url(db) == shown


def test_file_paths_stay_file_paths():
    for path in ("results.db", ".agentunit/agentunit.db", "a=b.db", "./host=x.db", "key = value", ":memory:"):
        assert not is_postgres_url(path) and redact_url(path) == path


def test_values_are_read_as_libpq_reads_them():
    assert conninfo_pairs("host=db password='a b\\'c\\\\' port = 5432") == [
        ("host", "db", "db"), ("password", "'a b\\'c\\\\'", "a b'c\\"), ("port", "5432", "5432")]
    assert conninfo_pairs("host=db junk") is None and conninfo_pairs("host=db password='open") is None
    assert url_secrets("host=db password='a b\\'c'") == ["'a b\\'c'", "a b'c"]


def _suite(tmp_path):
    return write_suite(tmp_path / "s.json", {"name": "s", "target": {"type": "echo"},
                                             "cases": [{"prompt": "hi", "metrics": [{"metric": "contains",
                                                                                     "value": "hi"}]}]})


@pytest.mark.parametrize("db", [CONNINFO, "host=127.0.0.1 port=1 password='hunter2 and more"])
def test_a_run_with_a_connection_string_goes_to_postgres_and_never_prints_the_password(tmp_path, db):
    suite = _suite(tmp_path)
    done = run_cli("run", str(suite), "--db", db, cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "hunter2" not in done.stdout + done.stderr
    assert "PostgreSQL" in done.stderr and "password=***" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]  # no SQLite file named after it
    from_environment = run_cli("run", str(suite), "--resume", "r1", cwd=tmp_path, env={"AGENTUNIT_DB": db})
    assert from_environment.returncode == 2 and "hunter2" not in from_environment.stdout + from_environment.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]


def test_a_connection_string_reaches_a_real_server(tmp_path, postgres_url):
    from urllib.parse import urlsplit

    parts = urlsplit(postgres_url)
    conninfo = (f"host={parts.hostname} port={parts.port} dbname={parts.path.lstrip('/')} user={parts.username}"
                f" password={PASSWORD}")
    done = run_cli("run", str(_suite(tmp_path)), "--db", conninfo, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert PASSWORD not in done.stdout + done.stderr and "password=***" in done.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]
