import pytest

import agentunit
from agentunit import BaseAdapter, DatasetCase, DatasetSource, Runner, Scenario, TraceLog
from agentunit.core.outcome import AdapterOutcome
from agentunit.errors import MetricConfigError, SuiteError
from agentunit.metrics import DEFAULT_METRICS


def test_check_with_name_and_dict_specs():
    assert agentunit.check("Paris", {"metric": "contains", "value": "Par"}).passed is True
    result = agentunit.check("Paris", "equals", expected_output="London")
    assert result.passed is False and result.value == 0.0
    assert agentunit.check("Paris", {"metric": "not-contains", "value": "Rome"}).passed is True


def test_check_fields_fill_case_and_outcome():
    r = agentunit.check("ok", "latency", latency_ms=120.0)
    assert r.value == 120.0 and r.passed is None
    r = agentunit.check("ok", {"metric": "latency", "threshold": 100}, latency_ms=120.0)
    assert r.passed is False
    r = agentunit.check("ok", "tool_success", tool_calls=[{"name": "a"}, {"name": "b", "error": "x"}])
    assert r.value == 0.5
    assert agentunit.check("ok", "tool_success").value is None


def test_check_rejects_unknown_fields_and_missing_values():
    with pytest.raises(TypeError, match="unknown field"):
        agentunit.check("x", "contains", valeu="x")
    with pytest.raises(MetricConfigError, match="needs a value"):
        agentunit.check("x", "contains")


def test_check_reads_an_envelope_output():
    r = agentunit.check({"output": "It rained", "trusys": {"tool_calls": [{"name": "weather"}]}}, "tool_success")
    assert r.value == 1.0


def test_evaluate_a_suite_file_and_bad_suite_dict():
    result = agentunit.evaluate("examples/trusys_example.yaml")
    assert result.passed and result.summary["cases"] == 4
    data = result.to_dict()
    assert set(data) == {"run_id", "suite", "started_at", "summary", "statistics", "cases"}
    with pytest.raises(SuiteError, match="unknown metric 'equal'"):
        agentunit.evaluate({"cases": [{"output": "x", "metrics": ["equal"]}]})


def test_agentunit_scenario_and_runner_with_an_adapter():
    class FAQAdapter(BaseAdapter):
        name = "faq"

        def __init__(self):
            self.prepared = self.cleaned = 0

        def prepare(self):
            self.prepared += 1

        def execute(self, case: DatasetCase, trace: TraceLog) -> AdapterOutcome:
            trace.record("tool_call", name="knowledge_base", arguments={"q": case.query})
            answer = "Paris is the capital of France." if "France" in case.query else "unknown"
            return AdapterOutcome(success=answer != "unknown", output=answer)

        def cleanup(self):
            self.cleaned += 1

    def load_cases():
        yield DatasetCase(id="faq-001", query="What is the capital of France?",
                          expected_output="Paris is the capital of France.")
        yield DatasetCase(id="faq-002", query="What is the capital of Mars?", expected_output="none")

    adapter = FAQAdapter()
    scenario = Scenario(name="faq-demo", adapter=adapter, dataset=DatasetSource(name="faq", loader=load_cases),
                        metrics=["answer_correctness", "tool_success"])
    result = Runner().run(scenario)
    runs = {r.case_id: r for r in result.scenarios[0].runs}
    assert runs["faq-001"].success and runs["faq-001"].metrics["answer_correctness"] == 1.0
    assert runs["faq-001"].metrics["tool_success"] == 1.0
    assert not runs["faq-002"].success
    assert result.scenarios[0].success_rate == 0.5
    assert adapter.prepared == 1 and adapter.cleaned == 1


def test_default_metrics_are_used_when_a_scenario_names_none():
    class Echo(BaseAdapter):
        def execute(self, case, trace):
            return AdapterOutcome(output=case.query, cost=0.5)

    result = Runner([Scenario(name="s", adapter=Echo(), dataset=[{"id": "a", "input": "hi"}])]).run()
    metrics = result.scenarios[0].runs[0].metrics
    assert set(metrics) == set(DEFAULT_METRICS)
    assert metrics["cost"] == 0.5 and metrics["tool_success"] is None


def test_lazy_facade_exports():
    assert agentunit.MetricResult.__name__ == "MetricResult"
    with pytest.raises(AttributeError):
        agentunit.nope  # noqa: B018


def test_evaluate_refuses_cases_that_have_nothing_to_run_before_running_any():
    contains = [{"metric": "contains", "value": "x"}]
    with pytest.raises(SuiteError, match="the suite has no `target`"):
        agentunit.evaluate(cases=[{"id": "a", "output": "x", "metrics": contains},
                                  {"id": "b", "prompt": "needs a target", "metrics": contains}])


def test_a_case_metric_replaces_the_suites_whatever_name_either_uses():
    result = agentunit.evaluate({"name": "s", "metrics": [{"metric": "faithfulness", "threshold": 0.2}],
                                 "cases": [{"output": "x", "context": "x",
                                            "metrics": [{"metric": "context-faithfulness", "weight": 0}]}]},
                                allow_unmeasured=True)
    assert [m["metric"] for m in result.cases[0]["metrics"]] == ["context-faithfulness"]
