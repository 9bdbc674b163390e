"""The viewer's queries: paged, filtered, read-only, and clear about a database they cannot read."""

import hashlib
import sqlite3

import pytest

from agentunit.store.sqlite import Store
from agentunit.viewer import queries
from agentunit.viewer.compare import _compare, case_key, resolve
from agentunit.viewer.queries import ViewerError
from tests.viewer.hostile import _finish, _metric, _start


@pytest.fixture
def conn(results):
    connection = queries.connect(results["db"])
    yield connection
    connection.close()


def test_case_pages_follow_suite_order_and_say_whether_more_follow(conn):
    first, more = queries.case_page(conn, "run-a", limit=15)
    assert [c["id"] for c in first] == [f"c{i:02d}" for i in range(15)] and more
    last, more = queries.case_page(conn, "run-a", offset=30, limit=15)
    assert [c["id"] for c in last] == [f"c{i:02d}" for i in range(30, 40)] and not more


def test_filters_by_status_metric_verdict_and_search(conn):
    failed, _ = queries.case_page(conn, "run-a", status="failed")
    assert {c["id"] for c in failed} == {"c03", "c07", "c11", "c20", "c21"}
    assert all(c["failing"] == ["equals"] for c in failed)
    unpassed, _ = queries.case_page(conn, "run-b", status="unpassed")
    assert {c["id"] for c in unpassed} == {"c05", "c09", "c20", "c21"}
    by_metric, _ = queries.case_page(conn, "run-a", metric="equals", verdict="failed")
    assert by_metric == failed
    assert queries.case_page(conn, "run-a", metric="latency", verdict="failed")[0] == []
    found, _ = queries.case_page(conn, "run-a", search="NEEDLE")
    assert [c["id"] for c in found] == ["c30"]
    assert queries.case_page(conn, "run-a", search="%")[0] == []  # LIKE wildcards are literal
    assert queries.case_page(conn, "run-a", search="c_1")[0] == []


def test_a_large_output_is_previewed_and_read_whole_from_texts(tmp_path):
    store = Store(tmp_path / "big.db", large_text=100)
    _start(store, "r", "big", "2025-01-01T00:00:00+00:00")
    body = "needle-in-a-long-output " * 50
    store.add_case("r", 0, "big", 0, status="passed", passed=True, score=1.0, prompt="p", output=body, error=None,
                   latency_ms=1.0, cached=False, envelope=None, metrics=[_metric("equals", True)])
    _finish(store, "r")
    store.close()
    conn = queries.connect(tmp_path / "big.db")
    stored = conn.execute("SELECT output, output_hash FROM case_results").fetchone()
    assert stored == (None, hashlib.sha256(body.encode()).hexdigest())
    (row,), _ = queries.case_page(conn, "r", search="long-output")
    assert row["output"] == body[: queries.PREVIEW_CHARS]
    assert queries.get_case(conn, "r", "big")["output"] == body
    cut = queries.get_case(conn, "r", "big", max_chars=10)
    assert cut["output"] == body[:10] and cut["truncated"] == ["output"]


def test_a_case_has_every_metric_and_its_envelope(conn):
    case = queries.get_case(conn, "run-a", "c03")
    assert case["status"] == "failed" and [m["metric"] for m in case["metrics"]] == ["equals", "latency"]
    assert case["metrics"][0]["reason"] == "differs" and case["metrics"][1]["status"] == "not_measured"
    assert case["envelope"]["tool_calls"][0]["name"] == "lookup" and case["repeats"] == [(0, "failed")]
    assert queries.get_case(conn, "run-a", "nope") is None


def test_runs_trends_and_counts_come_from_stored_summaries(conn):
    runs, more = queries.list_runs(conn, limit=2)
    assert [r["run_id"] for r in runs] == [queries.get_run(conn, r["run_id"])["run_id"] for r in runs]
    assert more and runs[0]["started_at"] >= runs[1]["started_at"]
    assert queries.trends(conn, "demo") == {"equals": [("run-a", 35, 40), ("run-b", 36, 40)],
                                            "latency": [("run-a", 0, 0), ("run-b", 0, 0)]}
    run = queries.get_run(conn, "run-b")
    assert queries.status_counts(conn, run) == {"cases": 40, "passed": 36, "failed": 4, "errored": 0,
                                                "unmeasured": 0}
    assert queries.status_counts(conn, {**run, "summary": None}) == queries.status_counts(conn, run)
    assert queries.metric_counts(conn, {**run, "summary": None}) == queries.metric_counts(conn, run)
    assert queries.neighbour_runs(conn, run) == ("run-a", None)


def test_the_fallback_comparison_pairs_cases_by_id(conn, results):
    compared = _compare(conn, "run-a", "run-b")
    assert compared["cases"] == {"fixed": results["fixed"], "broken": results["broken"],
                                 "still_failing": ["c20", "c21"], "added": ["c40"], "removed": ["c00"]}
    equals = compared["metrics"]["equals"]
    assert equals["a"]["n"] == equals["b"]["n"] == 40 and equals["delta"] == pytest.approx(1 / 40)
    assert resolve(results["db"], conn, "run-a") == "run-a"
    with pytest.raises(ViewerError, match="nope"):
        resolve(results["db"], conn, "nope")
    assert [case_key(x) for x in ("c1", {"id": "c2", "repeat": 3}, ["c3", 1])] == [("c1", 0), ("c2", 3), ("c3", 1)]
    assert case_key("a#b#2", repeats=True) == ("a#b", 2) and case_key("a#2") == ("a#2", 0)


def test_the_database_is_opened_read_only(results):
    before = results["db"].read_bytes()
    conn = queries.connect(results["db"])
    with pytest.raises(sqlite3.OperationalError):
        conn.execute("DELETE FROM runs")
    conn.close()
    assert results["db"].read_bytes() == before


def test_a_missing_or_foreign_database_is_named_in_one_sentence(tmp_path):
    with pytest.raises(ViewerError, match=f"no results database at {tmp_path / 'none.db'}"):
        queries.connect(tmp_path / "none.db")
    (tmp_path / "text.db").write_text("not sqlite at all " * 100)
    with pytest.raises(ViewerError, match="not a readable SQLite database"):
        queries.connect(tmp_path / "text.db")
    sqlite3.connect(tmp_path / "other.db").execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(ViewerError, match="not an agentunit results database"):
        queries.connect(tmp_path / "other.db")
