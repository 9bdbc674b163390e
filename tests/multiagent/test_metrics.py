"""The three multi-agent metrics read the run from the trace, the envelope, or agent calls."""

import pytest

from agentunit.core.envelope import build_trace, parse_reply
from agentunit.core.outcome import Outcome
from agentunit.core.trace import TraceLog
from agentunit.datasets.base import DatasetCase
from agentunit.metrics import create_metric
from agentunit.metrics.base import score
from agentunit.multiagent import (
    AgentInteraction,
    AgentRole,
    CoordinationEfficiencyMetric,
    HandoffEvent,
    NetworkFaultToleranceMetric,
    SwarmIntelligenceMetric,
)

CASE = DatasetCase(id="c", query="plan a trip")


def _reply(**trusys):
    outcome = parse_reply({"output": "done", "trusys": trusys})
    return outcome, build_trace(outcome, CASE.query)


def test_envelope_interactions_feed_every_metric():
    outcome, trace = _reply(
        interactions=[{"from": "lead", "to": "search", "type": "delegation", "message_type": "search"},
                      {"from": "search", "to": "lead", "type": "response", "message_type": "result"},
                      {"from": "lead", "to": "writer", "type": "delegation", "message_type": "write"},
                      {"from": "writer", "to": "lead", "type": "response", "message_type": "result"}],
        handoffs=[{"from": "lead", "to": "writer", "success": True},
                  {"from": "lead", "to": "search", "success": False}],
        agent_roles={"lead": {"capabilities": ["search", "write"], "can_delegate": True}},
    )
    coordination = score(create_metric("coordination_efficiency"), CASE, trace, outcome)
    # handoffs 0.5; communication 1.0 (all delivered, no times, no repeats); roles 1.0; load: 4, 2, 2 → 1 − cv
    mean, values = 8 / 3, [4, 2, 2]
    cv = (sum((v - mean) ** 2 for v in values) / 3) ** 0.5 / mean
    expected = (0.25 * 0.5 + 0.25 * 1.0 + 0.15 * 1.0 + 0.15 * (1 - cv)) / 0.80
    assert coordination.value == pytest.approx(expected)
    assert coordination.detail["not_measured"] == ["conflict_resolution_rate"]
    network = score(create_metric("network_fault_tolerance"), CASE, trace, outcome)
    assert network.detail["bottleneck_agents"] == ["lead"]  # a star around lead
    assert network.value == pytest.approx(0.6 * 2 / 3 + 0.4 * (1 - 1 / 3))


def test_agent_calls_stand_in_for_interactions():
    outcome, trace = _reply(agent_calls=[{"name": "planner", "output": "ok"}, {"name": "booker", "error": "down"}])
    result = score(NetworkFaultToleranceMetric(), CASE, trace, outcome)
    assert result.detail["agents"] == 3 and result.detail["hub_agents"] == ["main"]
    coordination = score(CoordinationEfficiencyMetric(), CASE, trace, outcome)
    assert coordination.detail["communication_efficiency"] == pytest.approx((0.5 * 0.5 + 0.2 * 1.0) / 0.7)


def test_python_objects_on_the_trace():
    trace = TraceLog(interactions=[AgentInteraction(from_agent="a", to_agent=["b", "c"], message_type="plan")],
                     handoffs=[HandoffEvent("a", "b")], agent_roles={"a": AgentRole("lead", capabilities=["plan"])})
    result = score(CoordinationEfficiencyMetric(threshold=0.9), CASE, trace, Outcome(output="x"))
    assert result.detail["role_adherence"] == 1.0 and result.detail["handoff_success_rate"] == 1.0
    assert result.passed is True


def test_nothing_to_measure_is_not_zero():
    outcome, trace = _reply()
    for metric in (CoordinationEfficiencyMetric(), SwarmIntelligenceMetric(), NetworkFaultToleranceMetric()):
        result = score(metric, CASE, trace, outcome)
        assert result.value is None and result.reason.startswith("not measured"), metric
    few = TraceLog(interactions=[AgentInteraction(from_agent="a", to_agent="b")])
    swarm = score(SwarmIntelligenceMetric(), CASE, few, Outcome(output="x"))
    # only collective decisions can be measured on one message: nobody negotiated → 0, the rest left out
    assert swarm.value == 0.0
    assert swarm.detail["not_measured"] == ["self_organization", "specialization", "adaptation_rate"]


def test_bad_envelope_record_is_an_error_on_the_case():
    outcome, trace = _reply(interactions=[{"from": "a"}])  # no receiver
    result = score(CoordinationEfficiencyMetric(), CASE, trace, outcome)
    assert result.status == "error" and "to_agent" in result.error


def team(prompt: str) -> dict:
    return {"output": f"Booked. Receipt sent to ops@example.com for {prompt}",
            "trusys": {"interactions": [{"from": "lead", "to": "booker", "type": "delegation", "message_type": "book"},
                                        {"from": "booker", "to": "lead", "type": "response", "message_type": "done"}],
                       "handoffs": [{"from": "lead", "to": "booker", "success": True}]}}


def test_suite_run_scores_multiagent_and_privacy_metrics_together():
    from agentunit.api import evaluate

    run = evaluate({"name": "team", "cases": [{"id": "trip", "query": "a trip"}],
                    "metrics": ["coordination_efficiency", "network_fault_tolerance",
                                {"metric": "pii_leakage", "config": {"ner": False}}]}, target=team)
    results = {m["metric"]: m for m in run.cases[0]["metrics"]}
    assert results["coordination_efficiency"]["value"] == pytest.approx(1.0)
    assert results["network_fault_tolerance"]["value"] == pytest.approx(0.6 * 1.0 + 0.4 * 1.0)
    assert results["pii_leakage"]["passed"] is False
    assert "ops@example.com" not in str(results["pii_leakage"]["detail"])
