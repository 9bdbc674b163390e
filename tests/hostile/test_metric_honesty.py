"""Issue 11, honesty items for agentic and RAG metrics: a failed tool call is not counted as a
success, nothing checked is "not measured" rather than 1.0, `expected_tools: []` means "no tool",
order rules judge only an order that was observed, and the AgentUnit catalog as published (result
names, DEFAULT_METRICS, CompositeMetric, the custom LatencyMetric, registration before the catalog)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from agentunit import check, evaluate
from agentunit.core.envelope import build_trace
from agentunit.core.outcome import Outcome
from agentunit.datasets.base import DatasetCase
from agentunit.metrics import DEFAULT_METRICS, CompositeMetric, create_metric, registry, resolve_metrics
from agentunit.metrics.builtin import FaithfulnessMetric, HallucinationRateMetric
from tests.judge_helpers import pass_with, scripted_judge

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _case(result, metric: str) -> dict:
    """The result of ``metric`` in the single case of ``result``."""
    (case,) = result.cases
    return next(m for m in case["metrics"] if m["metric"] == metric)


@pytest.fixture
def no_judge():
    """A judge that must not be asked (the items below are settled without one)."""
    with scripted_judge(lambda request: pass_with(0.5), "must-not-be-called") as provider:
        yield provider
    assert provider.requests == []


@pytest.fixture
def restore_registry():
    with registry.restored():
        yield


# -- tool_success: a call without a status whose output is an error ---------------------------------

def test_a_call_without_status_whose_output_is_an_error_is_not_a_success():
    reply = {"output": "Here is the weather.", "trusys": {"tool_calls": [
        {"name": "weather", "output": {"error": "rate limited"}},
        {"name": "search", "output": "Traceback (most recent call last):\n  File \"s.py\", line 1\nKeyError: 'q'"},
        {"name": "lookup", "output": "Paris: 18°C"}]}}
    result = evaluate(cases=[{"id": "tools", "output": reply, "metrics": ["tool_success"]}])
    metric = _case(result, "tool_success")
    assert metric["value"] == pytest.approx(1 / 3) and metric["passed"] is False
    assert metric["detail"]["failed"] == ["weather", "search"]
    assert [(c["name"], c["failed"]) for c in metric["detail"]["classified_from_output"]] == [
        ("weather", True), ("search", True), ("lookup", False)]
    assert "classified from their output" in metric["reason"]


def test_every_metric_reading_tool_failures_agrees():
    calls = [{"name": "book", "output": "Error: no seats"}, {"name": "book", "output": "booked"}]
    efficiency = check("done", "execution-efficiency", tool_calls=calls)
    assert efficiency.detail["retried"] == 1  # the failed first booking was retried, as tool_success sees it
    assert check("done", "tool_success", tool_calls=calls).value == 0.5


# -- argument-correctness with the judge off and no schema ------------------------------------------

def test_argument_correctness_without_schema_and_judge_is_not_measured(no_judge):
    result = evaluate(cases=[{"id": "args", "output": {"output": "ok", "trusys": {"tool_calls": [
        {"name": "get_weather", "arguments": {"city": "Paris"}}]}},
        "metrics": [{"metric": "argument-correctness", "config": {"judge": False}}]}])
    metric = _case(result, "argument-correctness")
    assert metric["status"] == "not_measured" and metric["value"] is None
    assert "no schema" in metric["reason"] and "judge is off" in metric["reason"]


# -- context-recall with a blank expected answer -----------------------------------------------------

@pytest.mark.parametrize("blank", ["", "   ", "\n\t"])
def test_context_recall_with_a_blank_expected_answer_is_not_measured(no_judge, blank):
    result = check("Paris.", {"metric": "context-recall", "value": blank}, context="Paris is in France.")
    assert result.status == "not_measured" and result.error is None and "blank" in result.reason
    run = evaluate(cases=[{"id": "recall", "output": "Paris.", "expected_output": blank,
                           "context": "Paris is in France.", "metrics": ["context-recall"]}])
    assert _case(run, "context-recall")["status"] == "not_measured"


# -- expected_tools: [] means "no tool should be called" ---------------------------------------------

def test_an_empty_expected_tools_list_means_no_tool_should_be_called():
    called = {"output": "Deleted.", "trusys": {"tool_calls": [{"name": "delete_account"}]}}
    cases = [{"id": "called", "output": called, "expected_tools": [], "metrics": ["tool-correctness"]},
             {"id": "quiet", "output": "Hello!", "expected_tools": [], "metrics": ["tool-correctness"]},
             {"id": "absent", "output": "Hello!", "metrics": ["tool-correctness"]}]
    result = {c["id"]: c["metrics"][0] for c in evaluate(cases=cases).cases}
    assert result["called"]["status"] == "failed" and "delete_account" in result["called"]["reason"]
    assert result["quiet"]["status"] == "passed" and result["quiet"]["value"] == 1.0
    assert result["absent"]["status"] == "not_measured"


def test_tool_call_f1_reads_an_empty_list_as_no_tool():
    assert check("Hi", {"metric": "tool-call-f1", "value": []}).passed is True
    called = check({"output": "", "trusys": {"tool_calls": [{"name": "rm"}]}}, {"metric": "tool-call-f1", "value": []})
    assert called.passed is False and "rm" in called.reason
    # an empty metric value is not "fall back to the expected output"
    assert check("Hi", {"metric": "tool-call-f1", "value": []}, expected_output="search").passed is True


# -- the order of tool calls and agent calls ---------------------------------------------------------

RULE = "Call planner before calling search"
ARRAYS = {"tool_calls": [{"name": "search"}], "agent_calls": [{"name": "planner"}]}


def _rubric_case(trusys: dict) -> dict:
    return {"id": "order", "output": {"output": "done", "trusys": trusys},
            "metrics": [{"metric": "agent-llm-rubric", "value": [RULE]}]}


def test_order_rules_are_not_judged_on_an_order_that_was_never_observed(no_judge):
    metric = _case(evaluate(cases=[_rubric_case(ARRAYS)]), "agent-llm-rubric")
    assert metric["status"] == "not_measured" and "order unknown" in metric["reason"]


@pytest.mark.parametrize(("trusys", "status"), [
    ({"events": [{"type": "agent_call", "name": "planner"}, {"type": "message", "content": "plan ready"},
                 {"type": "tool_call", "name": "search"}]}, "passed"),
    ({"events": [{"type": "tool_call", "name": "search"}, {"type": "agent_call", "name": "planner"}]}, "failed"),
    ({"tool_calls": [{"name": "search", "timestamp": "2025-01-01T10:00:02Z"}],
      "agent_calls": [{"name": "planner", "timestamp": "2025-01-01T10:00:01Z"}]}, "passed"),
    ({"tool_calls": [{"name": "search", "seq": 2}], "agent_calls": [{"name": "planner", "seq": 1}]}, "passed"),
])
def test_an_observed_order_is_used(no_judge, trusys, status):
    (case,) = evaluate(cases=[_rubric_case(trusys)]).cases
    assert case["metrics"][0]["status"] == status
    assert [c["name"] for c in case["envelope"]["tool_calls"]] == ["search"]


def test_rules_that_hold_in_every_order_are_still_checked(no_judge):
    trusys = {**ARRAYS, "tool_calls": [{"name": "search"}, {"name": "rm"}]}
    case = _rubric_case(trusys)
    case["metrics"][0]["value"] = ["never call rm", RULE, "always call planner"]
    metric = _case(evaluate(cases=[case]), "agent-llm-rubric")
    methods = [r["method"] for r in metric["detail"]["rules"]]
    assert methods == ["trace", "order unknown", "trace"] and metric["status"] == "failed"
    assert metric["value"] == 0.5 and "order unknown: Call planner" in metric["reason"]


def test_plan_adherence_reports_steps_whose_order_was_not_observed(no_judge):
    plan = ["ask the planner agent", "search flights", "book flight"]
    arrays = {"plan": plan, "tool_calls": [{"name": "search"}, {"name": "book"}], "agent_calls": [{"name": "planner"}]}
    metric = _case(evaluate(cases=[{"id": "plan", "output": {"output": "ok", "trusys": arrays},
                                    "metrics": ["plan-adherence"]}]), "plan-adherence")
    steps = metric["detail"]["steps"]
    assert [s["method"] for s in steps] == ["order unknown", "aligned", "aligned"]
    assert metric["value"] == 1.0 and "1 step(s) order unknown" in metric["reason"]
    # the same run with its order observed: the planner came after the search, so one step is out of order
    order = [("tool_call", "search"), ("agent_call", "planner"), ("tool_call", "book")]
    events = {"plan": plan, "events": [{"type": kind, "name": name} for kind, name in order]}
    observed = _case(evaluate(cases=[{"id": "plan", "output": {"output": "ok", "trusys": events},
                                      "metrics": ["plan-adherence"]}]), "plan-adherence")
    assert observed["value"] == pytest.approx(2 / 3) and "order" not in observed["detail"]


def test_the_judge_is_not_shown_a_made_up_order():
    with scripted_judge(lambda request: pass_with(0.9), "rule-judge") as judge:
        result = check({"output": "ok", "trusys": ARRAYS}, {"metric": "agent-llm-rubric", "value": ["Be polite"]})
    prompt = judge.requests[0].messages[-1][1]
    assert result.value == pytest.approx(0.9)
    assert "Tool calls, in order:\n- search({})" in prompt and "Agent calls, in order:\n- planner({})" in prompt
    assert "order between the tool calls and the agent calls was not recorded" in prompt


# -- the AgentUnit catalog as published ----------------------------------------------------------------

def test_results_carry_the_catalog_names_when_asked_for_by_them():
    assert [m.name for m in resolve_metrics(["faithfulness", "hallucination_rate"])] == [
        "faithfulness", "hallucination_rate"]
    assert FaithfulnessMetric().name == "faithfulness" and HallucinationRateMetric().name == "hallucination_rate"
    assert create_metric("context-faithfulness").name == "context-faithfulness"
    assert create_metric("not-faithfulness").display_name == "not-faithfulness"
    result = evaluate(cases=[{"id": "rag", "output": "x", "metrics": ["faithfulness", "hallucination_rate",
                                                                      "hallucination"]}])
    assert [m["metric"] for m in result.cases[0]["metrics"]] == ["faithfulness", "hallucination_rate",
                                                                  "hallucination"]


def test_default_metrics_are_the_catalogs():
    # the "Default Metrics" list of the catalog's "Metric Resolution" section
    assert DEFAULT_METRICS == ("faithfulness", "answer_correctness", "tool_success", "cost", "token_usage")
    assert [m.name for m in resolve_metrics()] == list(DEFAULT_METRICS)


def test_composite_does_not_average_raw_measures_with_scores():
    composite = CompositeMetric([create_metric("tool_success"), create_metric("cost"), create_metric("token_usage")])
    outcome = Outcome(output="ok", tool_calls=[{"name": "search", "status": "ok"}], cost=0.002,
                      usage={"prompt_tokens": 1200, "completion_tokens": 300})
    result = composite.evaluate(DatasetCase(id="c"), build_trace(outcome), outcome)
    assert result.value == 1.0
    assert result.detail["left_out_raw"] == ["cost", "token_usage"] and "left out raw measures" in result.reason
    assert result.detail["metrics"]["token_usage"]["value"] == 1500


def _latency_metric_example() -> dict:
    """Run the LatencyMetric and register_metric blocks of docs/custom-metrics.md as written."""
    blocks = re.findall(r"```python\n(.*?)```", (DOCS / "custom-metrics.md").read_text(), re.S)
    namespace: dict = {"Any": object}
    for block in blocks:
        if "class LatencyMetric" in block or "register_metric(" in block:
            exec(compile(block, "custom-metrics.md", "exec"), namespace)
    return namespace


def test_the_custom_latency_metric_of_the_docs_resolves_by_name(restore_registry):
    namespace = _latency_metric_example()
    metric = create_metric("latency")
    assert type(metric).__name__ == "LatencyMetric" and metric.threshold_ms == 5000.0
    assert type(resolve_metrics(["latency"])[0]).__name__ == "LatencyMetric"
    tight = create_metric("latency", config={"threshold_ms": 1.0})
    assert tight.threshold_ms == 1.0
    result = evaluate(cases=[{"id": "lat", "output": "ok", "metrics": [{"metric": "latency",
                                                                       "config": {"threshold_ms": 250}}]}])
    metric_result = _case(result, "latency")
    assert metric_result["error"] is None and metric_result["detail"]["threshold_ms"] == 250
    assert namespace["LatencyMetric"] is registry.lookup("latency")[0].cls


def test_a_metric_registered_before_the_catalog_loads_is_kept():
    script = textwrap.dedent("""
        from agentunit.metrics.base import Metric, MetricResult
        from agentunit.metrics.registry import _catalog_loaded, register_metric

        assert not _catalog_loaded

        class LatencyMetric(Metric):
            name = "latency"

            def __init__(self, threshold_ms: float = 5000.0):
                self.threshold_ms = threshold_ms

            def evaluate(self, case, trace, outcome):
                return MetricResult(name=self.name, value=1.0, detail={})

        register_metric("latency", LatencyMetric)
        from agentunit.metrics import create_metric
        from agentunit.metrics.registry import lookup

        print(type(create_metric("latency")).__name__, lookup("equals")[0].name)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "HF_HUB_OFFLINE": "1"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["LatencyMetric", "equals"]
