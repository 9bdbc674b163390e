"""Every code example of the AgentUnit catalog for the privacy, sustainability and multi-agent
families, composite and custom metrics runs as written (docs/privacy.md, docs/sustainability.md,
docs/multiagent.md, docs/custom-metrics.md hold them verbatim)."""

import re
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import agentunit.privacy.metrics as privacy_metrics
import agentunit.sustainability.metrics as sustainability_metrics
from agentunit.core.outcome import Outcome
from agentunit.core.trace import TraceLog
from agentunit.datasets.base import DatasetCase
from agentunit.metrics import registry
from agentunit.metrics.base import MetricResult
from agentunit.multiagent import AgentInteraction, AgentRole, ConflictEvent, HandoffEvent, InteractionType

DOCS = Path(__file__).resolve().parent.parent / "docs"
FILES = ["privacy.md", "sustainability.md", "multiagent.md", "custom-metrics.md"]
BLOCKS = [(name, i, block) for name in FILES
          for i, block in enumerate(re.findall(r"```python\n(.*?)```", (DOCS / name).read_text(), re.S))]


def _run_data() -> dict[str, Any]:
    t0 = datetime(2026, 1, 1, 12, 0, 0)
    pattern = [("agent_a", "agent_b", "negotiation", "plan"), ("agent_b", "agent_c", "delegation", "search"),
               ("agent_c", "agent_b", "response", "result"), ("agent_b", "agent_a", "response", "plan")]
    interactions = [AgentInteraction(from_agent=s, to_agent=r, interaction_type=InteractionType(k), message_type=m,
                                     content=f"msg {i}", response_time=3.0 - 0.2 * i,
                                     timestamp=t0 + timedelta(seconds=i))
                    for i, (s, r, k, m) in enumerate(pattern * 3)]
    handoffs = [HandoffEvent("agent_a", "agent_b", task_id="t1", handoff_time=0.5),
                HandoffEvent("agent_b", "agent_c", task_id="t2", success=False, handoff_time=1.5)]
    conflicts = [ConflictEvent(["agent_a", "agent_b"], conflict_type="priority", resolved=True, resolution_time=2.0)]
    role_a = AgentRole("planner", capabilities=["plan"], can_delegate=True)
    role_b = AgentRole("coordinator", capabilities=["plan", "search"], can_delegate=True)
    roles = {"agent_a": role_a, "agent_b": role_b}
    trace = TraceLog(interactions=interactions, handoffs=handoffs, conflicts=conflicts, agent_roles=roles)
    trace.record("prompt", content="plan a trip")
    trace.record("tool_call", name="search", arguments={"q": "flights"}, status="success")
    trace.record("agent_response", content="Paris is the capital of France.")
    adjacency: dict[str, set[str]] = {}
    for item in interactions:
        adjacency.setdefault(item.from_agent, set()).add(item.to_agent)
    return {
        "Any": Any,
        "case": DatasetCase(id="example", query="What is the capital of France?",
                            expected_output="Paris is the capital of France.",
                            context=["Paris is the capital of France."]),
        "trace": trace,
        "outcome": Outcome(output="Paris is the capital of France."),
        "interaction_list": interactions, "handoff_list": handoffs, "conflict_list": conflicts,
        "interactions": interactions, "handoffs": handoffs, "conflicts": conflicts,
        "role_a": role_a, "role_b": role_b, "agent_roles": roles,
        "adjacency_dict": adjacency, "agent_list": sorted({"agent_a", "agent_b", "agent_c"}),
        **{n: getattr(privacy_metrics, n) for n in privacy_metrics.__all__},
        **{n: getattr(sustainability_metrics, n) for n in sustainability_metrics.__all__},
    }


@pytest.fixture
def restore_registry():
    with registry.restored():
        yield


def test_the_docs_hold_every_catalog_example():
    assert len(BLOCKS) >= 14
    text = "".join(b for _, _, b in BLOCKS)
    for name in ("PIILeakageMetric(", "PrivacyBudgetMetric(", "EnergyMetric(", "CarbonMetric(",
                 "ResourceUtilizationMetric(", "MultiAgentMetricsCalculator(", "EmergentBehaviorDetector(",
                 "CompositeMetric([", "register_metric(", "case.metadata = {"):
        assert name in text, name


@pytest.mark.parametrize(("doc", "index", "code"), BLOCKS, ids=[f"{d}#{i}" for d, i, _ in BLOCKS])
def test_catalog_example_runs_as_written(doc, index, code, restore_registry):
    """Each block runs after the blocks before it in the same page, as a reader would run them."""
    namespace = _run_data()
    for _, earlier, block in [b for b in BLOCKS if b[0] == doc and b[1] < index]:
        exec(compile(block, f"{doc}#{earlier}", "exec"), namespace)
    namespace.pop("result", None)
    exec(compile(code, f"{doc}#{index}", "exec"), namespace)
    result = namespace.get("result")
    if isinstance(result, MetricResult):
        assert result.error is None and result.value is not None, result
    if "calculate_all" in code:
        all_metrics = namespace["all_metrics"]
        assert all_metrics["coordination_efficiency"] is not None and all_metrics["network_fault_tolerance"] > 0
    if "register_metric" in code:
        assert registry.lookup("latency")[0].cls.__name__ == "LatencyMetric"
