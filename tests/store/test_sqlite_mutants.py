"""What mutation testing found unpinned in ``agentunit.store.sqlite`` (docs/testing.md, "Mutation testing").

Naming runs (``latest``, ``latest~N``, id prefixes) and the messages that list recent runs; reading a
run back (verdicts, metric values, newest runs, repeat counts); opening a database read-only; and the
slow write path after a refused batch: which value is replaced by what, the notes kept in ``problems``
and the error raised for cases lost even reduced.
"""

from __future__ import annotations

import json
import sqlite3
from decimal import Decimal

import pytest

from agentunit.errors import AgentUnitError
from agentunit.metrics.base import MetricResult
from agentunit.store.base import CASE_COLUMNS as _CASE_COLUMNS
from agentunit.store.base import METRIC_COLUMNS as _METRIC_COLUMNS
from agentunit.store.base import _as_int, _note
from agentunit.store.sqlite import (
    Store,
    StoreWriteError,
    UnknownRunError,
    case_verdicts,
    connect_read_only,
    metric_values,
    recent_runs,
    resolve_run_id,
)


def _start(store, run_id, started_at, suite="s", status=None):
    store.start_run(run_id, suite=suite, suite_path=None, suite_hash=None, started_at=started_at, options={},
                    target=None)
    if status:
        store.mark_run(run_id, status)


def _case(store, run_id, seq, case_id, repeat=0, *, status="passed", score=1.0, metrics=(), error=None,
          output="o", envelope=None):
    store.add_case(run_id, seq, case_id, repeat, status=status, passed=status == "passed", score=score,
                   prompt="p", output=output, error=error, latency_ms=1.0, cached=False, envelope=envelope,
                   metrics=list(metrics))


@pytest.fixture
def runs_db(tmp_path):
    """Three runs: r-alpha (oldest), r-beta and r-best started at the same second (r-best inserted last)."""
    path = tmp_path / "r.db"
    store = Store(path, flush_interval=3600)
    _start(store, "r-alpha", "2026-01-01T00:00:00", suite="one", status="completed")
    _start(store, "r-beta", "2026-01-02T00:00:00", suite="two", status="failed")
    _start(store, "r-best", "2026-01-02T00:00:00", suite="three")
    store.close()
    conn = connect_read_only(path)
    yield conn
    conn.close()


# -- naming runs -----------------------------------------------------------------------------------------


def test_latest_is_the_newest_start_then_the_last_inserted(runs_db):
    assert resolve_run_id(runs_db, "latest") == "r-best"
    assert resolve_run_id(runs_db, "latest~0") == "r-best"
    assert resolve_run_id(runs_db, "latest~1") == "r-beta"
    assert resolve_run_id(runs_db, "latest~2") == "r-alpha"
    assert resolve_run_id(runs_db, "  latest~1 \n") == "r-beta"  # surrounding blanks ignored


def test_an_exact_id_wins_over_being_a_prefix_and_a_unique_prefix_names_its_run(tmp_path):
    path = tmp_path / "r.db"
    store = Store(path)
    _start(store, "run1", "2026-01-01")
    _start(store, "run10", "2026-01-02")
    store.close()
    conn = connect_read_only(path)
    assert resolve_run_id(conn, "run1") == "run1"
    assert resolve_run_id(conn, "run10") == "run10"
    assert resolve_run_id(conn, " run10 ") == "run10"
    with pytest.raises(UnknownRunError, match=r"^'run' is the prefix of several runs; recent runs:\n"):
        resolve_run_id(conn, "run")
    conn.close()


def test_a_unique_prefix_and_the_messages_of_names_that_match_nothing_or_several(runs_db):
    assert resolve_run_id(runs_db, "r-a") == "r-alpha"
    assert resolve_run_id(runs_db, "r-bet") == "r-beta"
    recent = ("; recent runs:\n"
              "  latest    r-best  2026-01-02T00:00:00  running     three\n"
              "  latest~1  r-beta  2026-01-02T00:00:00  failed      two\n"
              "  latest~2  r-alpha  2026-01-01T00:00:00  completed   one")
    cases = {
        "r-be": "'r-be' is the prefix of several runs",
        "r-x": "'r-x' names no run",
        "": "'' names no run",   # an empty name is no prefix of everything
        "alpha": "'alpha' names no run",  # a prefix, not a substring
        "latest~3": "no run 'latest~3': the database holds 3 run(s)",
        "latest~": "bad run name 'latest~': use a run id, latest or latest~N (N ≥ 0)",
        "latest~-1": "bad run name 'latest~-1': use a run id, latest or latest~N (N ≥ 0)",
        "latest~x": "bad run name 'latest~x': use a run id, latest or latest~N (N ≥ 0)",
    }
    for name, message in cases.items():
        with pytest.raises(UnknownRunError) as info:
            resolve_run_id(runs_db, name)
        assert str(info.value) == message + recent, name


def test_an_empty_database_says_it_has_no_runs(tmp_path):
    path = tmp_path / "r.db"
    Store(path).close()
    conn = connect_read_only(path)
    with pytest.raises(UnknownRunError) as info:
        resolve_run_id(conn, "latest")
    assert str(info.value) == "no run 'latest': the database holds 0 run(s); the database has no runs yet"
    with pytest.raises(UnknownRunError) as info:
        resolve_run_id(conn, "abc")
    assert str(info.value) == "'abc' names no run; the database has no runs yet"
    assert recent_runs(conn) == [] and recent_runs(conn, None) == []
    conn.close()


def test_the_recent_runs_listed_are_the_ten_newest(tmp_path):
    path = tmp_path / "r.db"
    store = Store(path)
    for day in range(1, 13):
        _start(store, f"run{day:02d}", f"2026-01-{day:02d}")
    store.close()
    conn = connect_read_only(path)
    with pytest.raises(UnknownRunError) as info:
        resolve_run_id(conn, "nope")
    lines = str(info.value).split("\n")
    assert lines[0] == "'nope' names no run; recent runs:"
    assert lines[1] == "  latest    run12  2026-01-12  running     s"
    assert lines[10] == "  latest~9  run03  2026-01-03  running     s"
    assert len(lines) == 11
    assert resolve_run_id(conn, "latest~11") == "run01"
    assert len(recent_runs(conn)) == 10 and len(recent_runs(conn, None)) == 12
    conn.close()


def test_recent_runs_newest_first_with_or_without_a_limit(runs_db):
    expected = [{"run_id": "r-best", "suite": "three", "started_at": "2026-01-02T00:00:00", "status": "running"},
                {"run_id": "r-beta", "suite": "two", "started_at": "2026-01-02T00:00:00", "status": "failed"},
                {"run_id": "r-alpha", "suite": "one", "started_at": "2026-01-01T00:00:00", "status": "completed"}]
    assert recent_runs(runs_db) == expected
    assert recent_runs(runs_db, None) == expected
    assert recent_runs(runs_db, 2) == expected[:2]
    assert recent_runs(runs_db, 1) == expected[:1]


def test_the_store_lists_its_newest_runs_the_same_way(tmp_path):
    store = Store(tmp_path / "r.db")
    _start(store, "a", "2026-01-01", suite="one")
    _start(store, "b", "2026-01-02", suite="two")
    _start(store, "c", "2026-01-02", suite="three")
    assert store.latest_runs() == [
        {"run_id": "c", "suite": "three", "started_at": "2026-01-02", "status": "running"},
        {"run_id": "b", "suite": "two", "started_at": "2026-01-02", "status": "running"},
        {"run_id": "a", "suite": "one", "started_at": "2026-01-01", "status": "running"}]
    assert [r["run_id"] for r in store.latest_runs(2)] == ["c", "b"]
    run = store.get_run("b")
    assert run == {"run_id": "b", "suite": "two", "suite_path": None, "suite_hash": None,
                   "started_at": "2026-01-02", "finished_at": None, "status": "running", "options": {},
                   "target": None, "summary": None}
    store.close()


# -- reading a run back ----------------------------------------------------------------------------------


def test_verdicts_metric_values_and_repeat_counts_in_suite_order(tmp_path):
    path = tmp_path / "r.db"
    store = Store(path, flush_interval=3600)
    _start(store, "run1", "t")
    _start(store, "other", "t")
    _case(store, "run1", 1, "b", 1, status="failed", score=0.25,
          metrics=[MetricResult("m1", 0.25, passed=False), MetricResult("m2", None, reason="not measured: x")])
    _case(store, "run1", 1, "b", 0, score=0.5, metrics=[MetricResult("m1", 0.5, passed=True)])
    _case(store, "run1", 0, "a", 0, status="errored", score=None)
    _case(store, "other", 0, "z", 0)
    store.flush()
    assert store.repeat_counts("run1") == [("a", 1, 0), ("b", 2, 1)]
    assert list(store.metric_values("run1")) == [("b", 0, "m1", "passed", 0.5, True),
                                                 ("b", 1, "m1", "failed", 0.25, False),
                                                 ("b", 1, "m2", "not_measured", None, None)]
    assert store.completed_keys("run1") == {("a", 0), ("b", 0), ("b", 1)}
    store.close()
    conn = connect_read_only(path)
    verdicts = case_verdicts(conn, "run1")
    assert verdicts == [("a", 0, "errored", False, None), ("b", 0, "passed", True, 0.5),
                        ("b", 1, "failed", False, 0.25)]
    assert all(type(v[3]) is bool for v in verdicts)
    values = list(metric_values(conn, "run1"))
    assert values[0] == ("b", 0, "m1", "passed", 0.5, True) and type(values[0][5]) is bool
    assert values[2][5] is None
    assert case_verdicts(conn, "nope") == [] and list(metric_values(conn, "nope")) == []
    conn.close()


def test_iter_cases_limit_and_unpassed_cases(tmp_path):
    store = Store(tmp_path / "r.db", flush_interval=3600)
    for seq, status in enumerate(["passed", "failed", "errored", "passed"]):
        _case(store, "run1", seq, f"c{seq}", status=status)
    store.flush()
    assert [c["id"] for c in store.iter_cases("run1", limit=2)] == ["c0", "c1"]
    assert [c["id"] for c in store.iter_cases("run1", only_unpassed=True)] == ["c1", "c2"]
    assert [c["id"] for c in store.iter_cases("run1", only_unpassed=True, limit=1)] == ["c1"]
    store.close()


# -- opening a database read-only ------------------------------------------------------------------------


def test_connect_read_only_refuses_what_is_not_a_results_database(tmp_path):
    with pytest.raises(AgentUnitError) as info:
        connect_read_only(tmp_path / "missing.db")
    assert str(info.value) == f"no results database at {tmp_path / 'missing.db'} (run a suite first, or pass --db)"
    assert not (tmp_path / "missing.db").exists()  # nothing created
    with pytest.raises(AgentUnitError, match="no results database"):
        connect_read_only(tmp_path)  # a directory is not a database file
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite at all, " * 100)
    with pytest.raises(AgentUnitError, match=r"junk\.db is not a readable results database: "):
        connect_read_only(junk)
    other = tmp_path / "other.db"
    raw = sqlite3.connect(other)
    raw.execute("CREATE TABLE runs (x)")
    raw.execute("CREATE TABLE case_results (x)")
    raw.commit()
    raw.close()
    with pytest.raises(AgentUnitError) as info:
        connect_read_only(other)
    assert str(info.value) == f"{other} is not an agentunit results database (no runs table)"


def test_a_read_only_connection_cannot_write(tmp_path):
    path = tmp_path / "r.db"
    Store(path).close()
    conn = connect_read_only(path)
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == 5000
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        conn.execute("INSERT INTO runs (run_id, suite, started_at, status) VALUES ('x', 's', 't', 'running')")
    conn.close()


# -- the slow write path: rows one by one, reduced ---------------------------------------------------------


def test_reduce_replaces_each_refused_value_by_its_kind(tmp_path):
    store = Store(tmp_path / "r.db")
    bad = object()
    case = ("run1", Decimal("3"), "c", bad, "passed", bad, bad, "p", bad, "an error", 1.0, bad, bad, 5.0, None)
    reduced, notes = store._reduce(case, _CASE_COLUMNS)
    assert reduced[:3] == ("run1", 3, "c")       # seq: a Decimal coerced to int
    assert reduced[3] == 0 and reduced[5] == 0 and reduced[11] == 0  # repeat, passed, cached: 0
    assert reduced[4] == "passed"
    assert reduced[6] is None                    # score: a number dropped ...
    assert reduced[8] == notes[4] and reduced[8].startswith("[output not stored: ProgrammingError: ")
    assert reduced[9] == "an error; " + notes[3]  # ... its note appended to the row's error
    assert reduced[12] == '{"store_error": ' + f'"{notes[6]}"' + "}"  # JSON: an object naming the note
    assert reduced[13:] == (5.0, None)
    assert [n.split(" not stored")[0] for n in notes] == [
        "[seq", "[repeat", "[passed", "[score", "[output", "[cached", "[envelope"]
    store.close()


def test_reduce_without_an_error_to_append_to_and_the_other_columns(tmp_path):
    store = Store(tmp_path / "r.db")
    bad = object()
    row = (bad, "c", 0, 0, "m", bad, bad, 1, bad, bad, "why", None, None, "lbl")
    reduced, notes = store._reduce(row, _METRIC_COLUMNS)
    assert reduced[0].startswith("<object object at ")  # run_id: coerced to text, never dropped
    assert reduced[5].startswith("<object object at ")  # status too
    assert reduced[6] is None and reduced[8] is None and reduced[9] is None
    assert reduced[12] == f"{notes[2]}; {notes[3]}; {notes[4]}"  # no error before: only the notes
    assert reduced[10] == "why" and reduced[13] == "lbl" and reduced[7] == 1
    assert store._reduce(("run1", "c", 0, 0, "m", "passed", 1.0, 1, 0.5, 1.0, None, None, None, None),
                         _METRIC_COLUMNS) == (("run1", "c", 0, 0, "m", "passed", 1.0, 1, 0.5, 1.0, None, None,
                                               None, None), [])
    store.close()


def test_note_and_as_int():
    assert _note("output", "x" * 400) == "[output not stored: " + "x" * 300 + "]"
    assert _note("reason", "why\udc80") == "[reason not stored: why\ufffd]"
    assert _as_int("7") == 7 and _as_int(2.9) == 2 and _as_int(True) == 1
    assert _as_int(None) == 0 and _as_int("x") == 0 and _as_int(float("inf")) == 0


def test_a_refused_row_is_stored_reduced_and_the_problem_names_it(tmp_path):
    store = Store(tmp_path / "r.db", flush_interval=3600)
    rewrites = []
    store.on_rewrite = lambda: rewrites.append(True)
    _case(store, "run1", 0, "good", metrics=[MetricResult("m", 1.0, passed=True)])
    store.add_case("run1", 1, "bad", 2, status="failed", passed=False, score=0.5, prompt="p", output="o",
                   error="boom", latency_ms=Decimal("1.5"), cached=False, envelope=None,
                   metrics=[MetricResult("m", 0.5, passed=False, threshold=Decimal("0.7"))])
    store.flush()
    assert rewrites == [True]
    why = "not stored: ProgrammingError: Error binding parameter 1: type 'decimal.Decimal' is not supported]"
    latency, threshold = f"[latency_ms {why}", f"[threshold {why}"
    assert store.problems == [f"case 'bad' #2 stored reduced: {latency}; m: {threshold}"]
    good, bad = store.iter_cases("run1")
    assert good["id"] == "good" and good["metrics"][0]["value"] == 1.0
    assert bad["repeat"] == 2 and bad["latency_ms"] is None and bad["error"] == f"boom; {latency}"
    assert bad["metrics"][0]["threshold"] is None and bad["metrics"][0]["error"] == threshold
    assert bad["metrics"][0]["value"] == 0.5 and bad["score"] == 0.5 and bad["status"] == "failed"
    store.flush()  # the buffers were emptied: nothing written twice, no new problem
    assert len(store.problems) == 1 and rewrites == [True]
    store.close()


def test_metrics_go_with_their_own_case_in_the_slow_path(tmp_path):
    store = Store(tmp_path / "r.db", flush_interval=3600)
    _case(store, "run1", 0, "a", 0, metrics=[MetricResult("ma", 1.0, passed=True)])
    _case(store, "run1", 1, "a", 1, metrics=[MetricResult("mb", 1.0, passed=True)])
    _case(store, "run2", 0, "a", 0, metrics=[MetricResult("mc", 1.0, passed=True)])
    store.cache_put("k", '{"body": "x"}', Decimal("3"))  # refused: makes the batch fail
    store.flush()
    assert [[m["metric"] for m in c["metrics"]] for c in store.iter_cases("run1")] == [["ma"], ["mb"]]
    assert [[m["metric"] for m in c["metrics"]] for c in store.iter_cases("run2")] == [["mc"]]
    assert store.problems == ["a target reply was not cached: ProgrammingError: Error binding parameter 3: "
                              "type 'decimal.Decimal' is not supported"]
    assert store.cache_get("k") is None
    store.close()


def test_a_large_output_whose_text_is_refused_is_replaced_by_a_note(tmp_path):
    store = Store(tmp_path / "r.db", flush_interval=3600, large_text=10)
    _case(store, "run1", 0, "big", output="y" * 20)
    key = next(iter(store._texts))
    store._texts[key] = object()  # a body the database cannot bind
    store.flush()
    (case,) = store.iter_cases("run1")
    assert case["output"] == "[output not stored: its text could not be stored]"
    assert store.conn.execute("SELECT output_hash FROM case_results").fetchone() == (None,)
    assert store.problems == ["case 'big' #0 stored reduced: [output not stored: its text could not be stored]"]
    store.close()


def test_the_error_for_lost_cases_quotes_five_of_them(tmp_path):
    store = Store(tmp_path / "r.db", flush_interval=3600)
    for seq in range(6):
        _case(store, "run1", seq, f"lost{seq}", status=None)
    _case(store, "run1", 6, "kept")
    with pytest.raises(StoreWriteError) as info:
        store.flush()
    message = str(info.value)
    assert message.startswith(f"results DB {store.path}: 6 case result(s) could not be written, even reduced: "
                              "case 'lost0' #0: IntegrityError: NOT NULL constraint failed: case_results.status; ")
    assert "'lost4'" in message and "'lost5'" not in message
    assert message.endswith(" …. Every other case was written; please report this as a bug.")
    assert store.problems[-1] == ("lost case 'lost5' #0: IntegrityError: NOT NULL constraint failed: "
                                  "case_results.status")
    assert [c["id"] for c in store.iter_cases("run1")] == ["kept"]
    _case(store, "run1", 7, "one", status=None)
    with pytest.raises(StoreWriteError) as info:
        store.flush()
    assert str(info.value).endswith("case_results.status. Every other case was written; please report this as a bug.")
    store.close()


# -- more reading back: defaults, threads, exact tables, large texts next to a read-only source ----------


def test_the_newest_ten_runs_by_default(tmp_path):
    store = Store(tmp_path / "r.db")
    for day in range(1, 13):
        _start(store, f"run{day:02d}", f"2026-01-{day:02d}")
    assert [r["run_id"] for r in store.latest_runs()] == [f"run{day:02d}" for day in range(12, 2, -1)]
    store.close()


def test_a_read_only_connection_serves_other_threads_and_needs_only_the_three_tables(tmp_path):
    import threading

    path = tmp_path / "r.db"
    Store(path).close()
    conn = connect_read_only(path)
    counts = []
    worker = threading.Thread(target=lambda: counts.append(conn.execute("SELECT COUNT(*) FROM runs").fetchone()))
    worker.start()
    worker.join()
    assert counts == [(0,)]
    conn.close()
    bare = tmp_path / "bare.db"
    raw = sqlite3.connect(bare)
    for table in ("runs", "case_results", "metric_results"):
        raw.execute(f"CREATE TABLE {table} (x)")
    raw.commit()
    raw.close()
    connect_read_only(bare).close()  # exactly the three tables is enough


def test_large_texts_are_read_locally_even_when_a_source_database_is_attached(tmp_path):
    source = Store(tmp_path / "source.db")
    source.close()
    store = Store(tmp_path / "r.db", flush_interval=3600, large_text=10)
    store.read_caches_from(tmp_path / "source.db")
    _case(store, "run1", 0, "big", output="local text " * 3)
    store.cache_put("k", '{"body": "' + "b" * 20 + '"}', 1.0)
    store.flush()
    (case,) = store.iter_cases("run1")
    assert case["output"] == "local text " * 3
    assert store.cache_get("k") == ('{"body": "' + "b" * 20 + '"}', 1.0)
    store.conn.execute("DELETE FROM texts")  # a reply whose large text is gone is no reply
    assert store.cache_get("k") is None
    store.close()


# -- opening, the write path's edges, the listener ----------------------------------------------------------


def test_a_file_that_is_not_a_database_is_refused_with_what_to_do(tmp_path):
    junk = tmp_path / "notes.db"
    junk.write_bytes(b"plain text, not SQLite " * 50)
    with pytest.raises(AgentUnitError) as info:
        Store(junk)
    assert str(info.value) == (f"cannot open the results database {junk}: file is not a database — give --db (or "
                               "AGENTUNIT_DB) a new file name or an agentunit results database")


def test_missing_folders_are_created_and_the_connection_serves_other_threads(tmp_path):
    import threading

    store = Store(tmp_path / "a" / "b" / "r.db", flush_interval=3600)
    assert (tmp_path / "a" / "b" / "r.db").is_file()
    store.cache_put("k", '{"body": "x"}', 1.0)
    store.flush()
    found = []
    worker = threading.Thread(target=lambda: found.append(store.cache_get("k")))
    worker.start()
    worker.join()
    assert found == [('{"body": "x"}', 1.0)]
    store.close()


def test_an_output_of_exactly_large_text_characters_is_stored_once_by_hash(tmp_path):
    store = Store(tmp_path / "r.db", flush_interval=3600, large_text=10)
    _case(store, "run1", 0, "at", output="x" * 10)
    _case(store, "run1", 1, "below", output="y" * 9)
    store.flush()
    hashes = dict(store.conn.execute("SELECT case_id, output_hash FROM case_results").fetchall())
    assert hashes["at"] is not None and hashes["below"] is None
    assert [c["output"] for c in store.iter_cases("run1")] == ["x" * 10, "y" * 9]
    store.close()


def test_an_empty_envelope_is_stored_as_none_and_the_listener_gets_each_case(tmp_path):
    store = Store(tmp_path / "r.db", flush_interval=3600, large_text=10)
    heard = []
    store.listener = lambda case_row, metric_rows, output, details: heard.append(
        (case_row[2], case_row[8], len(metric_rows), output, details))
    _case(store, "run1", 0, "a", output="z" * 12, envelope={},
          metrics=[MetricResult("m", 1.0, {"k": 1}, passed=True), MetricResult("n", 0.0, passed=False)])
    store.flush()
    assert heard == [("a", None, 2, "z" * 12, [{"k": 1}, {}])]  # the full output, though the row keeps its hash
    (case,) = store.iter_cases("run1")
    assert case["envelope"] is None
    store.close()


def test_a_clean_flush_takes_the_fast_path(tmp_path):
    store = Store(tmp_path / "r.db", flush_interval=3600)
    store.on_rewrite = lambda: pytest.fail("a batch without a bad row was written one by one")
    _case(store, "run1", 0, "a", metrics=[MetricResult("m", 1.0, passed=True)])
    store.cache_put("k", '{"body": "x"}', 1.0)
    store.flush()
    assert [c["id"] for c in store.iter_cases("run1")] == ["a"] and store.problems == []
    store.close()


def test_five_lost_cases_are_all_quoted_without_an_ellipsis(tmp_path):
    store = Store(tmp_path / "r.db", flush_interval=3600)
    for seq in range(5):
        _case(store, "run1", seq, f"lost{seq}", status=None)
    with pytest.raises(StoreWriteError) as info:
        store.flush()
    assert "'lost4'" in str(info.value) and " …" not in str(info.value)
    store.close()


def test_a_reply_whose_large_text_is_gone_is_no_reply_without_a_source_database(tmp_path):
    store = Store(tmp_path / "r.db", flush_interval=3600, large_text=10)
    store.cache_put("k", '{"body": "' + "b" * 20 + '"}', 1.0)
    store.flush()
    store.conn.execute("DELETE FROM texts")
    assert store.cache_get("k") is None
    store.close()


# -- what is read back: verdicts, weights, empty summaries, large strings inside replies -----------------------


def test_cases_and_metrics_read_back_field_by_field(tmp_path):
    store = Store(tmp_path / "r.db", flush_interval=3600)
    _start(store, "run1", "t")
    store.add_case("run1", 0, "a", 0, status="failed", passed=False, score=0.5, prompt="p", output="o", error=None,
                   latency_ms=1.0, cached=True, envelope=None,
                   metrics=[MetricResult("m", 0.5, passed=False, threshold=0.7, weight=2.0, reason="why")])
    store.mark_run("run1", "completed", summary={})
    (case,) = store.iter_cases("run1")
    assert (case["passed"], case["score"], case["cached"]) == (False, 0.5, True)
    (metric,) = case["metrics"]
    assert (metric["weight"], metric["reason"], metric["threshold"], metric["passed"]) == (2.0, "why", 0.7, False)
    assert store.get_run("run1")["summary"] is None  # an empty summary is stored as none
    store.close()


def test_the_slow_path_keeps_good_large_texts_and_every_note(tmp_path):
    store = Store(tmp_path / "r.db", flush_interval=3600, large_text=10)
    _case(store, "run1", 0, "big", output="g" * 12)
    store.add_case("run1", 1, "bad", 0, status="failed", passed=False, score=0.5, prompt="p", output="o",
                   error=None, latency_ms=1.0, cached=False, envelope=None,
                   metrics=[MetricResult("m1", 0.5, passed=False, threshold=Decimal("0.7")),
                            MetricResult("m2", 0.5, passed=False, weight=Decimal("2"))])
    store.flush()
    big, bad = store.iter_cases("run1")
    assert bad["metrics"][1]["weight"] is None
    assert big["output"] == "g" * 12  # its text was written, not replaced by a note
    (problem,) = store.problems
    assert problem.startswith("case 'bad' #0 stored reduced: m1: [threshold not stored: ")
    assert "; m2: [weight not stored: " in problem
    store.close()


def test_a_string_of_exactly_large_text_characters_in_a_reply_is_stored_once(tmp_path):
    store = Store(tmp_path / "r.db", flush_interval=3600, large_text=10)
    reply = '{"body": "' + "é" * 10 + '", "short": "abc"}'
    store.cache_put("k", reply, 2.0)
    store.flush()
    stored, refs = store.conn.execute("SELECT reply, refs FROM cache WHERE key = 'k'").fetchone()
    assert json.loads(stored) == {"body": "", "short": "abc"} and json.loads(refs)[0][0] == ["body"]
    assert store.cache_get("k") == (reply, 2.0)  # put back as written: not ASCII-escaped
    store.close()
