"""Multi-agent metrics: coordination efficiency, swarm intelligence, network fault tolerance.

They read the run's ``interactions``, ``handoffs``, ``conflicts`` and ``agent_roles`` from the
TraceLog (filled from the reply's ``trusys`` envelope or set by an adapter). Without interactions,
the ``agent_call`` events of the trace stand in: each is a delegation from its ``from`` agent
(default ``main``) to the called agent.
"""

from __future__ import annotations

from typing import Any

from agentunit.core.envelope import tool_call_failed
from agentunit.metrics.base import Metric, MetricResult
from agentunit.metrics.registry import register
from agentunit.multiagent.analysis import (
    SWARM_WEIGHTS,
    EmergentBehaviorDetector,
    InteractionAnalyzer,
    NetworkAnalyzer,
    weighted_mean,
)
from agentunit.multiagent.calculator import (
    COORDINATION_WEIGHTS,
    CoordinationMetrics,
    EmergentBehaviorMetrics,
    MultiAgentMetricsCalculator,
    NetworkMetrics,
)
from agentunit.multiagent.types import AgentInteraction, InteractionType

__all__ = ["CoordinationEfficiencyMetric", "CoordinationMetrics", "EmergentBehaviorDetector",
           "EmergentBehaviorMetrics", "InteractionAnalyzer", "MultiAgentMetricsCalculator", "NetworkAnalyzer",
           "NetworkFaultToleranceMetric", "NetworkMetrics", "SwarmIntelligenceMetric", "calculator_for"]


def _from_agent_calls(trace) -> list[AgentInteraction]:
    interactions = []
    for event in trace.of_type("agent_call"):
        call = event.payload
        latency = call.get("latency_ms")
        interactions.append(AgentInteraction(
            from_agent=str(call.get("from") or call.get("caller") or "main"), to_agent=str(call["name"]),
            interaction_type=InteractionType.DELEGATION, message_type=str(call.get("task") or "call"),
            content=call.get("input"), success=not tool_call_failed(call),
            response_time=float(latency) / 1000.0 if isinstance(latency, int | float) else 0.0,
            timestamp=event.created_at,
        ))
    return interactions


def calculator_for(trace, outcome=None, **options: Any) -> MultiAgentMetricsCalculator | None:
    """A calculator over the run recorded in ``trace`` (and the outcome's envelope), or None when empty."""
    meta = outcome.metadata if outcome is not None else {}
    interactions = trace.interactions or meta.get("interactions") or _from_agent_calls(trace)
    handoffs = trace.handoffs or meta.get("handoffs") or []
    conflicts = trace.conflicts or meta.get("conflicts") or []
    roles = trace.agent_roles or meta.get("agent_roles") or {}
    if not interactions and not handoffs:
        return None
    return MultiAgentMetricsCalculator(interactions, handoffs, conflicts, roles, **options)


class _MultiAgentMetric(Metric):
    def _calculator(self, trace, outcome) -> MultiAgentMetricsCalculator | None:
        options = {k: self.config[k] for k in ("target_response_time", "hub_threshold") if k in self.config}
        return calculator_for(trace, outcome, **options)


def _unmeasured(parts: dict[str, float | None]) -> list[str]:
    return [k for k, v in parts.items() if v is None]


@register("coordination_efficiency", family="multiagent", needs=(),
          example="{metric: coordination_efficiency, threshold: 0.7}")
class CoordinationEfficiencyMetric(_MultiAgentMetric):
    """How well agents coordinate: a weighted mean of five measures of the run.

    25 % handoff success rate (successful / all handoffs), 20 % conflict resolution rate (resolved /
    all conflicts), 25 % communication efficiency (0.5 × message success + 0.3 × response speed
    against ``target_response_time`` (5 s) + 0.2 × (1 − share of exact repeats)), 15 % role adherence
    (messages the sender's ``AgentRole`` allows / messages from agents with a role), 15 % load balance
    (1 − coefficient of variation of messages per agent). A part with nothing to measure (no handoffs,
    no conflicts, no roles) is left out and listed in ``not_measured``; the weights are renormalised
    over the rest. No interactions or handoffs → not measured.
    """

    def evaluate(self, case, trace, outcome) -> MetricResult:
        calculator = self._calculator(trace, outcome)
        if calculator is None:
            return self.not_measured("no agent interactions, handoffs or agent calls in the trace")
        metrics = calculator.calculate_coordination_metrics()
        value = metrics.coordination_efficiency
        if value is None:
            return self.not_measured("none of the coordination measures applies to this run")
        parts = metrics.components()
        detail = {**parts, "avg_handoff_time": metrics.avg_handoff_time, "conflict_rate": metrics.conflict_rate,
                  "avg_resolution_time": metrics.avg_resolution_time, "weights": COORDINATION_WEIGHTS,
                  "not_measured": _unmeasured(parts),
                  "role_violations": calculator.interaction_analyzer.role_violations()[:20]}
        return self.result(value, detail=detail,
                           reason=f"coordination {value:.2f} over {len(parts) - len(detail['not_measured'])} measures")


@register("swarm_intelligence", family="multiagent", needs=(), example="{metric: swarm_intelligence}")
class SwarmIntelligenceMetric(_MultiAgentMetric):
    """Emergent collective behaviour: a weighted mean of four signals in the order of interactions.

    30 % self-organization (entropy of (sender, receivers, message type) patterns falls from the
    first half of the run to the second; 0.5 = unchanged), 25 % specialization (normalised Herfindahl
    index of each agent's message types), 25 % collective decisions (share of agents taking part in
    negotiation or collaboration messages), 20 % adaptation (mean response time falls from the first
    half to the second; 0.5 = unchanged). Trends need ten interactions (four response times);
    unmeasurable parts are left out and listed in ``not_measured``.
    """

    def evaluate(self, case, trace, outcome) -> MetricResult:
        calculator = self._calculator(trace, outcome)
        if calculator is None:
            return self.not_measured("no agent interactions or agent calls in the trace")
        parts = EmergentBehaviorDetector(calculator.interactions, calculator.agent_roles).components()
        value = weighted_mean(parts, SWARM_WEIGHTS)
        if value is None:
            return self.not_measured("too few interactions to detect emergent behaviour")
        return self.result(value, detail={**parts, "weights": SWARM_WEIGHTS, "not_measured": _unmeasured(parts),
                                          "interactions": len(calculator.interactions)},
                           reason=f"swarm intelligence {value:.2f}")


@register("network_fault_tolerance", family="multiagent", needs=(), example="{metric: network_fault_tolerance}")
class NetworkFaultToleranceMetric(_MultiAgentMetric):
    """Resilience of the communication graph: 0.6 × density + 0.4 × (1 − bottleneck ratio).

    The graph is undirected (agents linked when either messaged or handed a task to the other);
    density is 2m / (n(n − 1)); bottlenecks are articulation points (agents whose loss disconnects
    others). The detail adds Freeman degree centralization, average clustering, average shortest
    path length and hub agents (degree centrality ≥ ``hub_threshold``, 0.7). Fewer than two agents →
    not measured.
    """

    def evaluate(self, case, trace, outcome) -> MetricResult:
        calculator = self._calculator(trace, outcome)
        if calculator is None:
            return self.not_measured("no agent interactions or agent calls in the trace")
        network = calculator.calculate_network_metrics()
        value = network.fault_tolerance
        if value is None:
            return self.not_measured("fewer than two agents")
        detail = {"density": network.density, "centralization": network.centralization,
                  "clustering": network.clustering_coefficient, "avg_path_length": network.avg_path_length,
                  "hub_agents": network.hub_agents, "bottleneck_agents": network.bottleneck_agents,
                  "bottleneck_count": len(network.bottleneck_agents), "agents": network.agent_count,
                  "connected": network.connected}
        return self.result(value, detail=detail,
                           reason=f"density {network.density:.2f}, {len(network.bottleneck_agents)} bottleneck(s)")
