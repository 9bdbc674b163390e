import json

import pytest

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


# -- hostile text, failed writes, large texts stored once, old databases --------------------------------

LEGACY_SCHEMA = """
CREATE TABLE runs (run_id TEXT PRIMARY KEY, suite TEXT NOT NULL, suite_path TEXT, suite_hash TEXT,
    started_at TEXT NOT NULL, finished_at TEXT, status TEXT NOT NULL, options TEXT, target TEXT, summary TEXT);
CREATE TABLE case_results (run_id TEXT NOT NULL, seq INTEGER NOT NULL, case_id TEXT NOT NULL,
    repeat INTEGER NOT NULL, status TEXT NOT NULL, passed INTEGER NOT NULL, score REAL, prompt TEXT, output TEXT,
    error TEXT, latency_ms REAL, cached INTEGER NOT NULL DEFAULT 0, envelope TEXT, recorded_at REAL NOT NULL,
    PRIMARY KEY (run_id, case_id, repeat));
CREATE TABLE cache (key TEXT PRIMARY KEY, reply TEXT NOT NULL, latency_ms REAL, created_at REAL NOT NULL);
"""


def test_a_database_of_the_previous_schema_is_read_and_extended(tmp_path):
    import sqlite3

    conn = sqlite3.connect(tmp_path / "old.db")
    conn.executescript(LEGACY_SCHEMA)
    conn.execute("INSERT INTO case_results VALUES ('run0', 0, 'old', 0, 'passed', 1, 1.0, 'p', 'old output', NULL,"
                 " 2.0, 0, NULL, 0)")
    conn.execute("INSERT INTO cache VALUES ('k', '{\"body\": \"old reply\"}', 3.0, 0)")
    conn.commit()
    conn.close()
    store = Store(tmp_path / "old.db", large_text=10)
    assert [(c["id"], c["output"]) for c in store.iter_cases("run0")] == [("old", "old output")]
    assert store.cache_get("k") == ('{"body": "old reply"}', 3.0)
    store.add_case("run0", 1, "new", 0, status="passed", passed=True, score=1.0, prompt="p", output="a long new output",
                   error=None, latency_ms=1.0, cached=False, envelope=None, metrics=[])
    store.flush()
    assert [c["output"] for c in store.iter_cases("run0")] == ["old output", "a long new output"]
    Store(tmp_path / "old.db")  # opening it again finds the columns already there


def test_large_texts_in_cached_replies_and_outputs_are_stored_once(tmp_path):
    store = Store(tmp_path / "r.db", large_text=100, flush_interval=3600)
    body = "long answer " * 50
    envelope_reply = json.dumps({"body": {"output": body, "trusys": {"context": ["short", "ctx " * 40]}},
                                 "usage": None, "extra": {}}, ensure_ascii=False)
    plain_reply = json.dumps({"body": body, "usage": {"prompt_tokens": 3}, "extra": {}})
    store.cache_put("env", envelope_reply, 5.0)
    store.cache_put("plain", plain_reply, 6.0)
    assert json.loads(store.cache_get("env")[0]) == json.loads(envelope_reply)  # from the pending buffer
    for seq in range(3):
        store.add_case("run1", seq, f"c{seq}", 0, status="passed", passed=True, score=1.0, prompt="p", output=body,
                       error=None, latency_ms=1.0, cached=True, envelope=None, metrics=[])
    store.flush()
    assert json.loads(store.cache_get("env")[0]) == json.loads(envelope_reply)
    assert json.loads(store.cache_get("plain")[0]) == json.loads(plain_reply) and store.cache_get("plain")[1] == 6.0
    assert [c["output"] for c in store.iter_cases("run1")] == [body] * 3
    texts = store.conn.execute("SELECT body FROM texts ORDER BY LENGTH(body)").fetchall()
    assert [t[0] for t in texts] == ["ctx " * 40, body]  # the body once for two replies and three outputs
    replies = "".join(r[0] for r in store.conn.execute("SELECT reply FROM cache"))
    assert "long answer" not in replies and "ctx ctx" not in replies
    assert store.conn.execute("SELECT COUNT(*) FROM case_results WHERE output IS NOT NULL").fetchone()[0] == 0


def test_a_reply_that_is_one_large_string_or_not_json_round_trips(tmp_path):
    store = Store(tmp_path / "r.db", large_text=10)
    store.cache_put("str", json.dumps("x" * 50), None)
    store.cache_put("bad", "not json at all, but long", None)
    store.flush()
    assert store.cache_get("str") == (json.dumps("x" * 50), None)
    assert store.cache_get("bad") == ("not json at all, but long", None)


def test_dry_run_reads_large_texts_from_the_source_database(tmp_path):
    source = Store(tmp_path / "src.db", large_text=10)
    source.cache_put("k", json.dumps({"body": "y" * 40}), 7.0)
    source.judge_cache_put("j\ud83d", '{"text": "cut \ud83d"}')
    source.close()
    reader = Store(":memory:")
    reader.read_caches_from(tmp_path / "src.db")
    assert reader.cache_get("k") == (json.dumps({"body": "y" * 40}), 7.0)
    assert reader.judge_cache_get("j\ufffd") == '{"text": "cut \ufffd"}'


def test_every_stored_text_is_made_encodable(tmp_path):
    cut = "\ud83d"
    store = Store(tmp_path / "r.db")
    store.start_run("run1", suite=f"s{cut}", suite_path=f"x{cut}.yaml", suite_hash=None, started_at="t",
                    options={"filter": cut}, target={"url": cut})
    store.add_case("run1", 0, f"id{cut}", 0, status="failed", passed=False, score=0.0, prompt=f"p{cut}",
                   output=f"o{cut}", error=f"e{cut}", latency_ms=1.0, cached=False, envelope={"context": [cut]},
                   metrics=[MetricResult(f"m{cut}", 0.0, {"quote": cut}, passed=False, reason=f"r{cut}",
                                         label=f"l{cut}")])
    store.cache_put("k", json.dumps({"body": cut}, ensure_ascii=False), None)
    store.mark_run("run1", "completed", summary={"metrics": {f"m{cut}": {"failed": 1}}})
    (case,) = store.iter_cases("run1")
    assert (case["id"], case["prompt"], case["output"], case["error"]) == ("id\ufffd", "p\ufffd", "o\ufffd", "e\ufffd")
    assert case["envelope"] == {"context": ["\ufffd"]}
    assert case["metrics"][0]["metric"] == "m\ufffd" and case["metrics"][0]["detail"] == {"quote": "\ufffd"}
    assert case["metrics"][0]["reason"] == "r\ufffd" and store.label_counts("run1") == {"l\ufffd": {"failed": 1}}
    run = store.get_run("run1")
    assert run["suite"] == "s\ufffd" and run["target"] == {"url": "\ufffd"} and "m\ufffd" in run["summary"]["metrics"]
    assert store.cache_get("k")[0] == '{"body": "\ufffd"}'


def test_a_case_the_database_refuses_even_reduced_raises_after_the_others_are_written(tmp_path):
    from agentunit.store.sqlite import StoreWriteError

    store = Store(tmp_path / "r.db", flush_interval=3600)
    _add(store, "a", 0)
    _add(store, "broken", 1, status=None)  # NOT NULL status: no reduced form can fix that
    _add(store, "c", 2)
    with pytest.raises(StoreWriteError, match="broken"):
        store.flush()
    assert [c["id"] for c in store.iter_cases("run1")] == ["a", "c"]
    assert any(p.startswith("lost case 'broken'") for p in store.problems)


def test_a_locked_database_raises_at_once_and_keeps_the_batch_for_the_next_flush(tmp_path):
    import sqlite3

    store = Store(tmp_path / "r.db", flush_interval=3600)
    store.conn.execute("PRAGMA busy_timeout=0")
    _add(store, "a", 0)
    other = sqlite3.connect(tmp_path / "r.db", isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        store.flush()
    other.execute("ROLLBACK")
    store.flush()
    assert [c["id"] for c in store.iter_cases("run1")] == ["a"] and store.problems == []


def test_a_value_of_a_type_sqlite_cannot_bind_is_replaced_by_a_note(tmp_path):
    from decimal import Decimal

    store = Store(tmp_path / "r.db", flush_interval=3600)
    store.add_case("run1", 0, "c", 0, status="passed", passed=True, score=1.0, prompt="p", output=["not", "text"],
                   error=None, latency_ms=1.0, cached=False, envelope=None,
                   metrics=[MetricResult("m", 1.0, passed=True, threshold=Decimal("0.5"), reason=object())])
    _add(store, "d", 1)
    store.flush()
    first, second = store.iter_cases("run1")
    assert first["status"] == "passed" and first["output"].startswith("[output not stored: ProgrammingError")
    metric = first["metrics"][0]
    assert metric["threshold"] is None and metric["reason"].startswith("[reason not stored")
    assert "[threshold not stored" in metric["error"] and metric["value"] == 1.0 and metric["status"] == "passed"
    assert second["id"] == "d" and second["output"] == "o"
