from agentunit.metrics.base import MetricResult
from agentunit.store.sqlite import Store


def _add(store, case_id, seq, repeat=0, status="passed"):
    store.add_case("run1", seq, case_id, repeat, status=status, passed=status == "passed", score=1.0,
                   prompt="p", output="o", error=None, latency_ms=1.0, cached=False, envelope={"plan": ["a"]},
                   metrics=[MetricResult("contains", 1.0, {"k": 1}, passed=True),
                            MetricResult("tool_success", None, reason="not measured: none")])


def test_wal_mode_batches_and_reads_back_in_suite_order(tmp_path):
    store = Store(tmp_path / "r.db", batch_size=3, flush_interval=3600)
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    store.start_run("run1", suite="s", suite_path=None, suite_hash=None, started_at="t", options={}, target=None)
    _add(store, "b", 1)
    _add(store, "a", 0)
    assert store.status_counts("run1") == {}  # still buffered
    _add(store, "c", 2, status="failed")        # batch of 3 → committed
    assert store.status_counts("run1") == {"passed": 2, "failed": 1}
    cases = list(store.iter_cases("run1"))
    assert [c["id"] for c in cases] == ["a", "b", "c"]
    assert cases[0]["envelope"] == {"plan": ["a"]}
    assert [m["status"] for m in cases[0]["metrics"]] == ["passed", "not_measured"]
    assert cases[0]["metrics"][0]["detail"] == {"k": 1} and cases[0]["metrics"][1]["value"] is None
    assert [c["id"] for c in store.iter_cases("run1", only_unpassed=True)] == ["c"]
    assert store.metric_counts("run1") == {"contains": {"passed": 3}, "tool_success": {"not_measured": 3}}
    assert store.completed_keys("run1") == {("a", 0), ("b", 0), ("c", 0)}
    store.close()


def test_time_based_flush_and_cache(tmp_path):
    store = Store(tmp_path / "r.db", batch_size=1000, flush_interval=0)
    store.start_run("run1", suite="s", suite_path=None, suite_hash=None, started_at="t", options={}, target=None)
    _add(store, "a", 0)
    assert store.status_counts("run1") == {"passed": 1}
    store.cache_put("k", '{"body": "x"}', 12.5)
    assert store.cache_get("k") == ('{"body": "x"}', 12.5)  # served from the pending buffer
    store.flush()
    assert Store(tmp_path / "r.db").cache_get("k") == ('{"body": "x"}', 12.5)
    assert store.cache_get("missing") is None


def test_runs_are_recorded_and_marked(tmp_path):
    store = Store(tmp_path / "r.db")
    store.start_run("run1", suite="s", suite_path="x.yaml", suite_hash="h", started_at="t",
                    options={"repeat": 2}, target={"type": "echo"})
    store.mark_run("run1", "completed", finished_at="t2", summary={"cases": 0})
    run = store.get_run("run1")
    assert run["status"] == "completed" and run["options"] == {"repeat": 2} and run["summary"] == {"cases": 0}
    assert store.get_run("nope") is None and store.latest_runs()[0]["run_id"] == "run1"
