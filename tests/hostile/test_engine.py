"""Issue 11, engine items: no silent pass when nothing was measured, a per-case limit that bounds the
metrics and judge calls too, no up-front workers for absurd -j, latency without retry waits, and
secret values a target or judge resolved never stored."""

from __future__ import annotations

import asyncio
import json

from agentunit import evaluate
from agentunit.core.engine import Engine, RunOptions
from agentunit.metrics.base import Metric, MetricResult
from agentunit.store.sqlite import Store
from agentunit.suite import suite_from_dict
from agentunit.targets.base import Reply, Target

CONTEXT_METRIC = [{"metric": "context-faithfulness"}]


def test_a_rag_app_that_stops_returning_context_does_not_stay_green():
    # no context anywhere: the faithfulness metric is not measured, so nothing was checked
    result = evaluate(cases=[{"id": "rag", "prompt": "q", "output": "an answer", "metrics": CONTEXT_METRIC}])
    case = result.cases[0]
    assert case["status"] == "unmeasured" and case["passed"] is False
    assert result.summary["unmeasured"] == 1 and result.summary["passed"] == 0
    assert not result.passed and result.exit_code == 1


def test_unmeasured_cases_are_counted_but_may_be_allowed():
    cases = [{"id": "rag", "output": "x", "metrics": CONTEXT_METRIC},
             {"id": "ok", "output": "x", "metrics": [{"metric": "contains", "value": "x"}]}]
    allowed = evaluate(cases=cases, allow_unmeasured=True)
    assert allowed.passed and allowed.exit_code == 0
    assert allowed.summary["unmeasured"] == 1 and allowed.summary["passed"] == 1
    assert allowed.summary["allow_unmeasured"] is True
    from_suite = evaluate({"name": "s", "options": {"allow_unmeasured": True}, "cases": cases})
    assert from_suite.passed and from_suite.summary["unmeasured"] == 1


def test_a_case_without_metrics_or_with_only_informational_ones_is_not_a_pass():
    result = evaluate(cases=[{"id": "bare", "output": "x"},
                             {"id": "info", "output": "x", "metrics": [{"metric": "contains", "value": "x",
                                                                        "weight": 0}]}])
    assert {c["id"]: c["status"] for c in result.cases} == {"bare": "unmeasured", "info": "unmeasured"}


class _Sleepy(Metric):
    """A model-backed metric whose judge never answers (in 30 s); says whether its wait ended."""

    name = "sleepy"

    def __init__(self):
        super().__init__()
        self.waited = []

    def evaluate(self, case, trace, outcome):  # pragma: no cover - only the async path runs
        raise AssertionError

    async def evaluate_async(self, case, trace, outcome):
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            self.waited.append("cancelled")
            raise
        self.waited.append("to the end")
        return MetricResult("sleepy", 1.0, passed=True)


def test_the_case_timeout_bounds_judge_backed_metrics():
    sleepy = _Sleepy()
    result = evaluate(cases=[{"id": "c", "output": "x"}], metrics=[sleepy, {"metric": "contains", "value": "x"}],
                      timeout=0.3)
    assert sleepy.waited == ["cancelled"]  # stopped at the case's limit: the run did not wait for its 30 s
    metrics = {m["metric"]: m for m in result.cases[0]["metrics"]}
    assert "timed out" in metrics["sleepy"]["error"] and metrics["contains"]["passed"] is True
    assert result.cases[0]["status"] == "errored"


def test_absurd_concurrency_starts_workers_only_for_the_jobs_there_are():
    suite = suite_from_dict({"name": "s", "target": "echo",
                             "cases": [{"prompt": f"p{i}", "metrics": [{"metric": "contains", "value": "p"}]}
                                       for i in range(3)]})
    engine = Engine(suite, Store(":memory:"), RunOptions(concurrency=10**9))
    seen = []
    original = engine._run_one

    async def counting(*args):
        seen.append(len(asyncio.all_tasks()))
        await original(*args)

    engine._run_one = counting
    result = asyncio.run(engine.run())
    assert result.summary["passed"] == 3 and max(seen) <= 5


class _RetryingTarget(Target):
    """Waits as a retrying target would, then reports the answering attempt's own time."""

    kind = "stub"

    async def send(self, case, request):
        await asyncio.sleep(0.3)  # backoff before the attempt that answered
        return Reply(body="ok", latency_ms=12.5)


def test_latency_is_the_answering_attempt_not_the_retry_waits():
    result = evaluate(cases=[{"prompt": "p", "metrics": [{"metric": "latency", "threshold": 100}]}],
                      target=_RetryingTarget({"type": "stub"}))
    case = result.cases[0]
    assert case["latency_ms"] == 12.5 and case["passed"]


class _EchoingKeyTarget(Target):
    """A server that echoes the Authorization header it received into its reply and its errors."""

    kind = "http"
    cacheable = True

    async def send(self, case, request):
        self.secrets.add("sk-live-SECRET-123456")
        if case.id == "bad":
            return Reply(body={"output": "denied", "trusys": {"tool_calls": [
                {"name": "auth", "arguments": {"key": "sk-live-SECRET-123456"}, "status": "error"}]}})
        return Reply(body="your key is Bearer sk-live-SECRET-123456")


def test_secrets_a_target_resolved_never_reach_the_database(tmp_path):
    db = tmp_path / "r.db"
    result = evaluate(cases=[{"id": "echo", "prompt": "p", "metrics": [{"metric": "contains", "value": "zzz"}]},
                             {"id": "bad", "prompt": "q", "metrics": ["tool_success"]}],
                      target=_EchoingKeyTarget({"type": "http"}), db=db)
    assert result.summary["cases"] == 2
    result.store.close()
    raw = db.read_bytes()
    assert b"sk-live-SECRET" not in raw
    import sqlite3

    rows = sqlite3.connect(db).execute("SELECT output, envelope FROM case_results ORDER BY seq").fetchall()
    assert rows[0][0] == "your key is Bearer ***"
    assert "***" in json.dumps(rows[1][1])
