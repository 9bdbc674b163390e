"""``MultiAgentMetricsCalculator``: every multi-agent measure of one run, as three dataclasses."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from agentunit.multiagent.analysis import (
    SWARM_WEIGHTS,
    EmergentBehaviorDetector,
    InteractionAnalyzer,
    NetworkAnalyzer,
    weighted_mean,
)
from agentunit.multiagent.types import (
    AgentRole,
    coerce_conflict,
    coerce_handoff,
    coerce_interaction,
    coerce_role,
)

COORDINATION_WEIGHTS = {"handoff_success_rate": 0.25, "conflict_resolution_rate": 0.20,
                        "communication_efficiency": 0.25, "role_adherence": 0.15, "load_balance_score": 0.15}


@dataclass
class CoordinationMetrics:
    """Coordination measures; None where the run holds nothing to measure (e.g. no handoffs)."""

    handoff_success_rate: float | None = None
    avg_handoff_time: float | None = None
    conflict_rate: float | None = None  # per 100 interactions
    conflict_resolution_rate: float | None = None
    avg_resolution_time: float | None = None
    communication_efficiency: float | None = None
    role_adherence: float | None = None
    load_balance_score: float | None = None

    def components(self) -> dict[str, float | None]:
        return {k: getattr(self, k) for k in COORDINATION_WEIGHTS}

    @property
    def coordination_efficiency(self) -> float | None:
        """25 % handoffs + 20 % conflict resolution + 25 % communication + 15 % roles + 15 % load balance."""
        return weighted_mean(self.components(), COORDINATION_WEIGHTS)


@dataclass
class NetworkMetrics:
    """Topology of the communication graph (see ``NetworkAnalyzer``)."""

    density: float | None = None
    centralization: float | None = None
    avg_path_length: float | None = None
    clustering_coefficient: float | None = None
    hub_agents: list[str] = field(default_factory=list)
    bottleneck_agents: list[str] = field(default_factory=list)
    agent_count: int = 0
    connected: bool = False

    @property
    def fault_tolerance(self) -> float | None:
        """0.6 × density + 0.4 × (1 − bottleneck ratio)."""
        if self.density is None or not self.agent_count:
            return None
        return 0.6 * self.density + 0.4 * (1.0 - len(self.bottleneck_agents) / self.agent_count)


@dataclass
class EmergentBehaviorMetrics:
    """Emergent-behaviour measures (see ``EmergentBehaviorDetector``)."""

    self_organization_score: float | None = None
    specialization_emergence: float | None = None
    collective_decision_score: float | None = None
    adaptation_rate: float | None = None
    swarm_intelligence_score: float | None = None


class MultiAgentMetricsCalculator:
    """Computes coordination, network and emergent-behaviour measures for one run.

    Args:
        interactions: ``AgentInteraction`` objects or envelope dicts, in order.
        handoffs: ``HandoffEvent`` objects or dicts.
        conflicts: ``ConflictEvent`` objects or dicts.
        agent_roles: agent id → ``AgentRole`` (or dict / role name).
        target_response_time: seconds a response may take and still count as fully efficient.
        hub_threshold: degree centrality from which an agent counts as a hub.
    """

    def __init__(self, interactions: list[Any], handoffs: list[Any] | None = None,
                 conflicts: list[Any] | None = None, agent_roles: dict[str, Any] | None = None,
                 target_response_time: float = 5.0, hub_threshold: float = 0.7):
        self.interactions = [coerce_interaction(i) for i in interactions]
        self.handoffs = [coerce_handoff(h) for h in handoffs or []]
        self.conflicts = [coerce_conflict(c) for c in conflicts or []]
        self.agent_roles: dict[str, AgentRole] = {k: coerce_role(k, v) for k, v in (agent_roles or {}).items()}
        self.hub_threshold = hub_threshold
        self.interaction_analyzer = InteractionAnalyzer(self.interactions, self.handoffs, self.conflicts,
                                                        self.agent_roles, target_response_time)

    def calculate_coordination_metrics(self) -> CoordinationMetrics:
        analyzer = self.interaction_analyzer
        handoffs, conflicts = analyzer.calculate_handoff_metrics(), analyzer.calculate_conflict_metrics()
        return CoordinationMetrics(
            handoff_success_rate=handoffs["success_rate"], avg_handoff_time=handoffs["avg_time"],
            conflict_rate=conflicts["rate"], conflict_resolution_rate=conflicts["resolution_rate"],
            avg_resolution_time=conflicts["avg_resolution_time"],
            communication_efficiency=analyzer.calculate_communication_efficiency(),
            role_adherence=analyzer.calculate_role_adherence(),
            load_balance_score=analyzer.calculate_load_balance(),
        )

    def network_analyzer(self) -> NetworkAnalyzer:
        return NetworkAnalyzer.from_interactions(self.interaction_analyzer)

    def calculate_network_metrics(self) -> NetworkMetrics:
        network = self.network_analyzer()
        return NetworkMetrics(
            density=network.calculate_density(), centralization=network.calculate_centralization(),
            avg_path_length=network.calculate_avg_path_length(),
            clustering_coefficient=network.calculate_clustering_coefficient(),
            hub_agents=network.find_hub_agents(self.hub_threshold),
            bottleneck_agents=network.find_bottleneck_agents(), agent_count=network.n,
            connected=network.is_connected(),
        )

    def calculate_emergent_behavior_metrics(self) -> EmergentBehaviorMetrics:
        parts = EmergentBehaviorDetector(self.interactions, self.agent_roles).components()
        return EmergentBehaviorMetrics(
            self_organization_score=parts["self_organization"], specialization_emergence=parts["specialization"],
            collective_decision_score=parts["collective_decision"], adaptation_rate=parts["adaptation_rate"],
            swarm_intelligence_score=weighted_mean(parts, SWARM_WEIGHTS),
        )

    def calculate_all(self) -> dict[str, Any]:
        """All three groups as dicts, plus the three headline scores."""
        coordination = self.calculate_coordination_metrics()
        network = self.calculate_network_metrics()
        emergent = self.calculate_emergent_behavior_metrics()
        return {"coordination": asdict(coordination), "network": asdict(network), "emergent": asdict(emergent),
                "coordination_efficiency": coordination.coordination_efficiency,
                "network_fault_tolerance": network.fault_tolerance,
                "swarm_intelligence": emergent.swarm_intelligence_score}
