"""The PostgreSQL results store on a real server (``conftest.postgres_server``): same results as SQLite,
concurrent runs, compare and the viewer, resume, the caches, and a password that never shows."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import quote

import pytest

from agentunit.api import evaluate
from agentunit.reporting.json_report import report_dict
from agentunit.store import Store, open_store, schema
from agentunit.store.location import redact_url
from tests.conftest import ROOT, run_cli, write_suite
from tests.store.conftest import _QUOTED, PASSWORD

pytestmark = pytest.mark.usefixtures("postgres_server")


def _suite(n: int = 30) -> dict[str, Any]:
    cases = []
    for i in range(n):
        prompt = f"Answer: item {i} of the suite" + (" é ✓" if i % 5 == 0 else "")
        if i == 7:
            prompt += " " + "long " * 1200  # a large output: stored once in ``texts``
        cases.append({"id": f"c{i}", "prompt": prompt, "metrics": [
            {"metric": "contains", "value": f"item {i}"}, {"metric": "regex", "value": r"\d+ of the"},
            {"metric": "starts-with", "value": "Answer:" if i % 4 else "Nope"}]})
    return {"name": "pg-parity", "target": {"type": "echo"}, "cases": cases}


def _comparable(report: dict[str, Any]) -> dict[str, Any]:
    """A report without what differs between any two runs (ids, times, latencies)."""
    text = json.dumps(report, sort_keys=True).replace(report["run_id"], "RUN")
    out = json.loads(text)
    for key in ("run_id", "started_at"):
        out.pop(key, None)
    for case in out["cases"]:
        case.pop("latency_ms", None)
    for key in ("duration_s", "finished_at", "latency"):
        out["summary"].pop(key, None)
    return out


def test_a_suite_run_into_postgres_reports_exactly_as_into_sqlite(tmp_path, postgres_url):
    into_sqlite = evaluate(_suite(), repeat=2, db=tmp_path / "r.db")
    into_postgres = evaluate(_suite(), repeat=2, db=postgres_url)
    assert into_postgres.exit_code == into_sqlite.exit_code == 1  # every 4th case fails starts-with
    sqlite_report, postgres_report = report_dict(into_sqlite), report_dict(into_postgres)
    assert len(postgres_report["cases"]) == 60
    assert _comparable(postgres_report) == _comparable(sqlite_report)
    # the large output went to ``texts`` once (two repeats, one row) and reads back whole
    store = open_store(postgres_url)
    try:
        # the pass marks behind the verdicts (what judge agreement is keyed on) read as from SQLite
        assert store.verdict_thresholds(into_postgres.run_id) == into_sqlite.store.verdict_thresholds(
            into_sqlite.run_id) == {"contains": {None}, "regex": {None}, "starts-with": {None}}
        assert store.conn.execute("SELECT COUNT(*) FROM texts").fetchone()[0] == 1
        assert store.conn.execute("SELECT COUNT(*) FROM case_results WHERE output_hash IS NOT NULL").fetchone()[0] == 2
        assert schema.stored_version(store.conn, schema.POSTGRES) == schema.SCHEMA_VERSION
    finally:
        store.close()


def test_the_target_cache_is_shared_through_postgres(tmp_path, postgres_url):
    (tmp_path / "countagent.py").write_text(
        "import os\n"
        "def answer(prompt):\n"
        "    with open(os.environ['AU_CALLS'], 'a') as log:\n"
        "        log.write(prompt + '\\n')\n"
        "    return prompt.upper()\n")
    suite = write_suite(tmp_path / "s.json", {
        "name": "cached", "target": {"type": "python", "function": "countagent:answer", "cache": True},
        "cases": [{"id": f"c{i}", "prompt": f"p{i}", "metrics": [{"metric": "equals", "value": f"P{i}"}]}
                  for i in range(20)]})
    calls = tmp_path / "calls.log"
    env = {"AU_CALLS": str(calls), "AGENTUNIT_DB": postgres_url}
    first = run_cli("run", str(suite), "-q", cwd=tmp_path, env=env)
    assert first.returncode == 0, first.stderr
    assert len(calls.read_text().splitlines()) == 20
    dry = run_cli("run", str(suite), "--dry-run", cwd=tmp_path, env=env)  # caches read from PostgreSQL
    assert dry.returncode == 0, dry.stderr
    assert "20" in dry.stdout and PASSWORD not in dry.stdout + dry.stderr
    store = open_store(postgres_url)
    try:
        # The database is shared by the session's tests, and runs started in the same second tie on
        # time: find the second run as the one that was not there before it.
        before = {r["run_id"] for r in store.latest_runs(10_000)}
        second = run_cli("run", str(suite), "-q", cwd=tmp_path, env=env)  # another process, the same cache
        assert second.returncode == 0, second.stderr
        assert len(calls.read_text().splitlines()) == 20
        new = [r["run_id"] for r in store.latest_runs(10_000) if r["run_id"] not in before]
        assert len(new) == 1
        assert all(case["cached"] for case in store.iter_cases(new[0]))
    finally:
        store.close()


def _metric(name: str, passed: bool) -> SimpleNamespace:
    return SimpleNamespace(name=name, status="passed" if passed else "failed", value=1.0 if passed else 0.0,
                           passed=passed, threshold=0.5, weight=1.0, reason="r", detail={"k": name}, error=None,
                           label=None)


def test_concurrent_writers_in_threads_lose_no_row(postgres_url):
    """Eight stores on their own connections, small batches, the same cache keys and large texts written
    in different orders: every run keeps every case and metric, no deadlock surfaces."""
    n, writers = 1500, 8
    errors: list[BaseException] = []
    shared_text = "shared " * 1000

    def write(k: int) -> None:
        try:
            store = Store(postgres_url, batch_size=50, flush_interval=10)
            run_id = f"thread-{k}"
            store.start_run(run_id, suite="concurrent", suite_path=None, suite_hash=None,
                            started_at="2026-01-01T00:00:00+00:00", options={}, target=None)
            keys = list(range(200))
            random.Random(k).shuffle(keys)
            for seq in range(n):
                if seq < len(keys):
                    store.cache_put(f"key-{keys[seq]}", json.dumps({"output": shared_text + str(keys[seq] % 7)}), 1.0)
                    store.judge_cache_put(f"judge-{keys[seq]}", "{}")
                store.add_case(run_id, seq, f"c{seq}", 0, status="passed", passed=True, score=1.0, prompt="p",
                               output=shared_text if seq % 10 == 0 else "o", error=None, latency_ms=1.0,
                               cached=False, envelope=None, metrics=[_metric("a", True), _metric("b", seq % 2 == 0),
                                                                     _metric("c", True)])
            store.mark_run(run_id, "completed", finished_at="2026-01-01T00:00:01+00:00", summary={"cases": n})
            store.close()
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(k,)) for k in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not errors, errors
    store = open_store(postgres_url)
    try:
        q = store.conn.execute
        assert q("SELECT COUNT(*) FROM runs WHERE status = 'completed'").fetchone()[0] == writers
        assert dict(q("SELECT run_id, COUNT(*) FROM case_results GROUP BY run_id").fetchall()) == {
            f"thread-{k}": n for k in range(writers)}
        assert q("SELECT COUNT(*) FROM metric_results").fetchone()[0] == writers * n * 3
        assert q("SELECT COUNT(*) FROM cache").fetchone()[0] == 200
        assert q("SELECT COUNT(*) FROM judge_cache").fetchone()[0] == 200
        assert q("SELECT COUNT(*) FROM texts").fetchone()[0] == 8  # the shared output and 7 reply bodies
    finally:
        store.close()


def test_two_cli_runs_writing_at_once_both_complete_with_every_row(tmp_path, postgres_url):
    n = 3000
    suite = write_suite(tmp_path / "s.json", _suite(n) | {"name": "two-at-once"})
    procs = [subprocess.Popen([sys.executable, "-m", "agentunit", "run", str(suite), "--db", postgres_url, "-q",
                               "-o", str(tmp_path / f"out{k}.json")], cwd=ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env={**os.environ, "HF_HUB_OFFLINE": "1"})
             for k in range(2)]
    outputs = [proc.communicate(timeout=300) for proc in procs]
    assert [proc.returncode for proc in procs] == [1, 1], outputs  # the suite has failing cases
    reports = [json.loads((tmp_path / f"out{k}.json").read_text()) for k in range(2)]
    assert reports[0]["run_id"] != reports[1]["run_id"]
    assert _comparable(reports[0]) == _comparable(reports[1])
    store = open_store(postgres_url)
    try:
        q = store.conn.execute
        for report in reports:
            run_id = report["run_id"]
            assert store.get_run(run_id)["status"] == "completed"
            assert q("SELECT COUNT(*) FROM case_results WHERE run_id = ?", (run_id,)).fetchone()[0] == n
            assert q("SELECT COUNT(*) FROM metric_results WHERE run_id = ?", (run_id,)).fetchone()[0] == n * 3
    finally:
        store.close()


def test_resume_skips_the_cases_a_postgres_run_committed(tmp_path, postgres_url):
    suite = write_suite(tmp_path / "s.json", _suite(40) | {"name": "resumable"})
    first = run_cli("run", str(suite), "--db", postgres_url, "-q", cwd=tmp_path)
    assert first.returncode == 1, first.stderr
    store = open_store(postgres_url)
    run_id = store.latest_runs(1)[0]["run_id"]
    # as if killed after 25 cases: the rest of the rows gone, the run still "running"
    store.conn.execute("DELETE FROM metric_results WHERE run_id = ? AND case_id IN"
                       " (SELECT case_id FROM case_results WHERE run_id = ? AND seq >= 25)", (run_id, run_id))
    store.conn.execute("DELETE FROM case_results WHERE run_id = ? AND seq >= 25", (run_id,))
    store.conn.execute("UPDATE case_results SET latency_ms = -1 WHERE run_id = ?", (run_id,))
    store.conn.execute("UPDATE runs SET status = 'running', finished_at = NULL, summary = NULL WHERE run_id = ?",
                       (run_id,))
    store.close()
    out = tmp_path / "resumed.json"
    resumed = run_cli("run", str(suite), "--db", postgres_url, "--resume", run_id, "-o", str(out), cwd=tmp_path)
    assert resumed.returncode == 1, resumed.stderr
    store = open_store(postgres_url)
    try:
        rows = store.conn.execute("SELECT seq, latency_ms FROM case_results WHERE run_id = ? ORDER BY seq",
                                  (run_id,)).fetchall()
        assert [seq for seq, _ in rows] == list(range(40))
        assert all(latency == -1 for seq, latency in rows if seq < 25)  # committed cases were not run again
        assert store.get_run(run_id)["status"] == "completed"
    finally:
        store.close()
    assert json.loads(out.read_text())["summary"]["cases"] == 40


# -- readers: compare and the viewer ---------------------------------------------------------------------


@pytest.fixture
def both(tmp_path, postgres_url) -> dict[str, Any]:
    from tests.viewer.hostile import build_runs

    sqlite_path = tmp_path / "results.db"
    return {"sqlite": sqlite_path, "postgres": postgres_url, "runs": build_runs(sqlite_path),
            "pg_runs": build_runs(postgres_url)}


def _as_on_postgres(value: Any) -> Any:
    """``value`` with NUL characters as PostgreSQL stores them (U+FFFD; the hostile run has some)."""
    return json.loads(json.dumps(value).replace("\\u0000", "\\ufffd"))


def test_compare_reads_postgres_as_sqlite(both):
    from agentunit.stats import compare_runs, resolve_run

    differs = ("hostile_ids",)  # NUL characters in the hostile ids: U+FFFD on PostgreSQL
    assert {k: v for k, v in both["runs"].items() if k not in differs} == {
        k: v for k, v in both["pg_runs"].items() if k not in differs}
    assert [i.replace("\x00", "\ufffd") for i in both["runs"]["hostile_ids"]] == both["pg_runs"]["hostile_ids"]
    assert compare_runs(both["postgres"], "run-a", "latest~1") == compare_runs(both["sqlite"], "run-a", "latest~1")
    assert resolve_run(both["postgres"], "latest") == resolve_run(both["sqlite"], "latest")
    with pytest.raises(Exception, match="prefix of several runs"):
        resolve_run(both["postgres"], "run-")
    cli = run_cli("compare", "run-a", "run-b", "--db", both["postgres"], "--json")
    reference = run_cli("compare", "run-a", "run-b", "--db", str(both["sqlite"]), "--json")
    assert (cli.returncode, json.loads(cli.stdout)) == (reference.returncode, json.loads(reference.stdout))


def test_the_viewer_queries_read_postgres_as_sqlite(both):
    from agentunit.viewer import queries

    pg, lite = queries.connect(both["postgres"]), queries.connect(both["sqlite"])
    try:
        run_b = {id(conn): queries.get_run(conn, "run-b") for conn in (pg, lite)}
        calls = [
            lambda c: queries.suites(c),
            lambda c: queries.list_runs(c, limit=2),
            lambda c: queries.list_runs(c, suite="demo", offset=1),
            lambda c: queries.trends(c, "demo"),
            lambda c: queries.get_run(c, "run-a"),
            lambda c: queries.neighbour_runs(c, run_b[id(c)]),
            lambda c: queries.metric_counts(c, {"run_id": "run-b"}),
            lambda c: queries.status_counts(c, {"run_id": "run-b"}),
            lambda c: queries.case_page(c, "run-b", limit=7, offset=3),
            lambda c: queries.case_page(c, "run-b", status="unpassed"),
            lambda c: queries.case_page(c, "run-b", metric="equals", verdict="failed"),
            lambda c: queries.case_page(c, "run-b", search="NEEDLE"),
            lambda c: queries.case_page(c, "run-b", search="50%_"),
            lambda c: queries.get_case(c, "run-b", "c05"),
            lambda c: queries.get_case(c, "run-b", "c05", max_chars=5),
            lambda c: list(queries.case_statuses(c, "run-a", [("c03", 0), ("c99", 0)]).items()),
        ]
        for index, call in enumerate(calls):
            assert _as_on_postgres(call(pg)) == _as_on_postgres(call(lite)), index
    finally:
        pg.close()
        lite.close()


def test_the_viewer_serves_a_postgres_database(both):
    from agentunit.viewer import make_server
    from tests.viewer.conftest import fetch

    pages = ["/", "/run/run-b", "/run/run-b?status=failed", "/run/run-b/case?id=c05", "/compare?a=run-a&b=run-b",
             f"/run/{quote(both['runs']['hostile'], safe='')}"]
    bodies: dict[str, list[tuple[int, str]]] = {}
    for kind in ("postgres", "sqlite"):
        server = make_server(both[kind], port=0)
        thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        thread.start()
        try:
            bodies[kind] = [fetch(server.url.rstrip("/") + page)[::2] for page in pages]
        finally:
            server.shutdown()
            server.server_close()
    assert [status for status, _ in bodies["postgres"]] == [200] * len(pages)
    # "/" and the hostile run show metric names holding NUL, stored as U+FFFD on PostgreSQL: sorted elsewhere
    assert bodies["postgres"][1:-1] == bodies["sqlite"][1:-1]
    assert "run-b" in bodies["postgres"][0][1] and len(bodies["postgres"][-1][1]) > 1000
    assert PASSWORD not in "".join(body for _, body in bodies["postgres"])


# -- schema, versions, migrations -------------------------------------------------------------------------


def test_both_dialects_have_the_declared_tables_and_columns(tmp_path, postgres_url):
    for db, dialect in ((tmp_path / "a.db", schema.SQLITE), (postgres_url, schema.POSTGRES)):
        store = open_store(db)
        try:
            for table in schema.TABLES:
                have = schema.existing_columns(store.conn, table.name, dialect) - {"rowid"}
                assert have == set(table.column_names), (dialect, table.name)
            assert schema.stored_version(store.conn, dialect) == schema.SCHEMA_VERSION
        finally:
            store.close()


def test_a_postgres_database_of_version_1_is_upgraded_and_a_newer_one_refused(postgres_url):
    store = open_store(postgres_url)
    store.conn.execute("ALTER TABLE case_results DROP COLUMN output_hash")
    store.conn.execute("DELETE FROM schema_version WHERE version > 1")
    store.close()
    store = open_store(postgres_url)
    assert "output_hash" in schema.existing_columns(store.conn, "case_results", schema.POSTGRES)
    store.conn.execute("INSERT INTO schema_version VALUES (99, 'from the future', 0)")
    store.close()
    with pytest.raises(schema.SchemaVersionError, match=r"schema version 99.*upgrade agentunit") as caught:
        open_store(postgres_url)
    assert PASSWORD not in str(caught.value) and _QUOTED not in str(caught.value) and "***" in str(caught.value)


# -- secrets ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("url", "shown"), [
    ("postgresql://u:pa%40ss@h:5432/db", "postgresql://u:***@h:5432/db"),
    ("postgres://u:p:w@h/db?sslmode=require", "postgres://u:***@h/db?sslmode=require"),
    ("postgresql://u@h/db?password=secret&sslmode=disable", "postgresql://u@h/db?password=***&sslmode=disable"),
    ("postgresql://h/db", "postgresql://h/db"),
    (".agentunit/agentunit.db", ".agentunit/agentunit.db"),
])
def test_a_url_is_shown_with_its_password_redacted(url, shown):
    assert redact_url(url) == shown


def test_a_wrong_password_or_a_dead_server_is_one_line_without_the_password(tmp_path, postgres_server):
    suite = write_suite(tmp_path / "s.json", _suite(3))
    wrong = postgres_server.url(password="wr0ng%21pw")
    dead = f"postgresql://agentunit:{_QUOTED}@127.0.0.1:1/postgres"
    for url in (wrong, dead):
        for args in (["run", str(suite), "--db", url], ["compare", "latest~1", "latest", "--db", url],
                     ["view", "--db", url, "--port", "0"]):
            done = run_cli(*args, cwd=tmp_path, timeout=60)
            text = done.stdout + done.stderr
            assert done.returncode == 2, text
            assert "Traceback" not in text and "***" in text and "postgresql://agentunit:***@127.0.0.1" in text
            for secret in (PASSWORD, _QUOTED, "wr0ng!pw", "wr0ng%21pw"):
                assert secret not in text, (args, text)
    done = run_cli("run", str(suite), "-q", cwd=tmp_path, env={"AGENTUNIT_DB": wrong})
    assert done.returncode == 2 and "wr0ng" not in done.stderr and "password authentication failed" in done.stderr


def test_a_run_prints_the_database_without_its_password(tmp_path, postgres_url):
    suite = write_suite(tmp_path / "s.json", _suite(5))
    done = run_cli("run", str(suite), "--db", postgres_url, cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert redact_url(postgres_url) in done.stdout + done.stderr
    assert _QUOTED not in done.stdout + done.stderr and PASSWORD not in done.stdout + done.stderr


# -- the SQLite path never loads psycopg --------------------------------------------------------------------


def test_the_cli_and_a_sqlite_run_do_not_import_psycopg(tmp_path):
    suite = write_suite(tmp_path / "s.json", _suite(5))
    script = (
        "import sys\n"
        "suite, db_a, db_b = sys.argv[1:4]\n"
        "import agentunit.cli\n"
        "assert 'psycopg' not in sys.modules, 'import agentunit.cli loaded psycopg'\n"
        "sys.argv = ['agentunit', 'run', suite, '--db', db_a, '-q']\n"
        "try:\n"
        "    agentunit.cli.main()\n"
        "except SystemExit as exit:\n"
        "    code = exit.code\n"
        "from agentunit.api import evaluate\n"
        "evaluate(suite, db=db_b)\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('psycopg', 'psycopg_binary'))\n"
        "print('RUN', code, 'LOADED', loaded)\n")
    done = subprocess.run([sys.executable, "-c", script, str(suite), str(tmp_path / "a.db"),
                           str(tmp_path / "b.db")], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "RUN 1 LOADED []" in done.stdout, done.stdout + done.stderr
    assert Path(tmp_path / "a.db").exists() and Path(tmp_path / "b.db").exists()


def test_postgres_writes_are_batched(postgres_url):
    """100 cases in 2 batches take 2 transactions, whatever the row count (pipelined executemany). Counted by
    the transaction ids the server gave out (one per writing transaction, none to a read), at once: the
    statistics collector's counts come late, and a time is no count at all."""
    store = Store(postgres_url, batch_size=50, flush_interval=60)
    store.start_run("batched", suite="b", suite_path=None, suite_hash=None, started_at="x", options={}, target=None)

    def next_transaction_id() -> int:
        return int(store.conn.execute("SELECT pg_snapshot_xmax(pg_current_snapshot())::text").fetchone()[0])

    before = next_transaction_id()
    for seq in range(100):
        store.add_case("batched", seq, f"c{seq}", 0, status="passed", passed=True, score=1.0, prompt="p", output="o",
                       error=None, latency_ms=1.0, cached=False, envelope=None,
                       metrics=[_metric("a", True), _metric("b", True), _metric("c", True)])
    store.flush()
    after = next_transaction_id()
    store.close()
    assert after - before == 2, after - before  # 2 batch transactions, not 100 (or 400)


def test_a_batch_copy_refuses_falls_back_to_rows_and_loses_nothing(postgres_url):
    """A NUL in an output and a case written twice in one batch make the COPY path fail; the batch is
    written row by row instead: the NUL stored as U+FFFD, the later write of the case kept."""
    store = Store(postgres_url, batch_size=200, flush_interval=60)
    store.start_run("fallback", suite="f", suite_path=None, suite_hash=None, started_at="x", options={}, target=None)
    for seq in range(150):
        store.add_case("fallback", seq, f"c{seq}", 0, status="passed", passed=True, score=1.0, prompt="p",
                       output="nul\x00here" if seq == 3 else "o", error=None, latency_ms=1.0, cached=False,
                       envelope=None, metrics=[_metric("a", True)])
    store.add_case("fallback", 150, "c5", 0, status="failed", passed=False, score=0.0, prompt="again", output="o2",
                   error=None, latency_ms=1.0, cached=False, envelope=None, metrics=[_metric("a", False)])
    store.flush()
    cases = {case["id"]: case for case in store.iter_cases("fallback")}
    assert len(cases) == 150 and not store.problems
    assert cases["c3"]["output"] == "nul\ufffdhere"
    assert cases["c5"]["prompt"] == "again" and cases["c5"]["metrics"][0]["passed"] is False
    for seq in range(100):  # the next batch goes through COPY again
        store.add_case("fallback", 200 + seq, f"d{seq}", 0, status="passed", passed=True, score=1.0, prompt="p",
                       output="o", error=None, latency_ms=1.0, cached=False, envelope=None,
                       metrics=[_metric("a", True)])
    store.close()
    store = open_store(postgres_url)
    try:
        assert store.status_counts("fallback") == {"passed": 249, "failed": 1}
        assert store.conn.execute("SELECT COUNT(*) FROM metric_results").fetchone()[0] == 250
    finally:
        store.close()
