"""A metric result's texts that SQLite cannot take as they are (a lone surrogate) are stored made encodable,
in the batch, not replaced by a note (mutation testing found this unpinned)."""

from agentunit.metrics.base import MetricResult
from agentunit.store.sqlite import Store
from tests.store.test_sqlite_mutants import _start


def test_a_metrics_name_reason_and_error_with_a_lone_surrogate_are_stored_made_encodable(tmp_path):
    store = Store(tmp_path / "r.db", flush_interval=3600)
    _start(store, "run1", "t")
    metric = MetricResult("m\ud800", None, error="bad \ud800 error", label="l\ud800", reason="r\ud800")
    store.add_case("run1", 0, "a", 0, status="errored", passed=False, score=None, prompt="p", output="o", error=None,
                   latency_ms=1.0, cached=False, envelope=None, metrics=[metric])
    store.mark_run("run1", "completed", summary={})
    (case,) = store.iter_cases("run1")
    assert case["metrics"] == [{"metric": "m\ufffd", "status": "error", "value": None, "passed": None,
                                "threshold": None, "weight": 1.0, "reason": "r\ufffd", "detail": {},
                                "error": "bad \ufffd error"}]
    store.close()
