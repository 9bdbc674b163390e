"""Analyses of a multi-agent run: interaction statistics, communication-graph topology, emergent behaviour.

Every measure returns None when the run holds too little to compute it (no handoffs, one agent, fewer
than ten interactions, …): callers leave it out rather than count it as 0 or 1.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from agentunit.multiagent.types import AgentInteraction, AgentRole, ConflictEvent, HandoffEvent, InteractionType

# Below this many interactions, halves of the run are too small to compare.
MIN_INTERACTIONS_FOR_TRENDS = 10
MIN_RESPONSE_TIMES_FOR_TRENDS = 4
_COLLECTIVE_TYPES = (InteractionType.NEGOTIATION, InteractionType.COLLABORATION)


def _clamp(value: float) -> float:
    return max(0.0, min(1.0, value))


def _trend(early: float, late: float) -> float:
    """0.5 when unchanged, towards 1 when ``late`` shrank to 0, towards 0 when it grew from 0."""
    scale = max(early, late)
    return 1.0 if scale == 0 else _clamp(0.5 + (early - late) / (2 * scale))


def _entropy(counts: Iterable[int]) -> float:
    counts = [c for c in counts if c]
    total = sum(counts)
    return -sum(c / total * math.log2(c / total) for c in counts) if total else 0.0


def weighted_mean(parts: dict[str, float | None], weights: dict[str, float]) -> float | None:
    """Weighted mean of the parts that were measured, the weights renormalised over them."""
    measured = {k: v for k, v in parts.items() if v is not None}
    total = sum(weights[k] for k in measured)
    return sum(weights[k] * v for k, v in measured.items()) / total if total else None


class InteractionAnalyzer:
    """Statistics over interactions, handoffs and conflicts.

    Args:
        interactions, handoffs, conflicts: the run's events.
        agent_roles: agent id → ``AgentRole`` (for role adherence and idle agents in load balance).
        target_response_time: seconds a response may take and still count as fully efficient.
    """

    def __init__(self, interactions: list[AgentInteraction], handoffs: list[HandoffEvent] | None = None,
                 conflicts: list[ConflictEvent] | None = None, agent_roles: dict[str, AgentRole] | None = None,
                 target_response_time: float = 5.0):
        self.interactions = list(interactions)
        self.handoffs = list(handoffs or [])
        self.conflicts = list(conflicts or [])
        self.agent_roles = dict(agent_roles or {})
        self.target_response_time = target_response_time
        self.adjacency: dict[str, set[str]] = defaultdict(set)
        self.activity: Counter[str] = Counter({agent: 0 for agent in self.agent_roles})
        for item in self.interactions:
            for receiver in item.receivers:
                self.adjacency[item.from_agent].add(receiver)
                self.activity[item.from_agent] += 1
                self.activity[receiver] += 1
        for handoff in self.handoffs:  # a handoff links two agents but is not a message
            self.adjacency[handoff.from_agent].add(handoff.to_agent)
            self.activity.setdefault(handoff.from_agent, 0)
            self.activity.setdefault(handoff.to_agent, 0)

    @property
    def agents(self) -> list[str]:
        """Every agent seen: senders, receivers, handoff parties and agents with a role."""
        return sorted(self.activity)

    def calculate_handoff_metrics(self) -> dict[str, Any]:
        """``success_rate`` (successful / all handoffs), ``avg_time`` (s), ``total_handoffs``."""
        if not self.handoffs:
            return {"success_rate": None, "avg_time": None, "total_handoffs": 0}
        ok = sum(1 for h in self.handoffs if h.success)
        return {"success_rate": ok / len(self.handoffs),
                "avg_time": sum(h.handoff_time for h in self.handoffs) / len(self.handoffs),
                "total_handoffs": len(self.handoffs)}

    def calculate_conflict_metrics(self) -> dict[str, Any]:
        """``rate`` (conflicts per 100 interactions), ``resolution_rate``, ``avg_resolution_time`` (s)."""
        rate = 100.0 * len(self.conflicts) / len(self.interactions) if self.interactions else None
        if not self.conflicts:
            return {"rate": rate, "resolution_rate": None, "avg_resolution_time": None, "total_conflicts": 0}
        resolved = [c for c in self.conflicts if c.resolved]
        return {"rate": rate, "resolution_rate": len(resolved) / len(self.conflicts),
                "avg_resolution_time": sum(c.resolution_time for c in resolved) / len(resolved) if resolved else None,
                "total_conflicts": len(self.conflicts)}

    def calculate_communication_efficiency(self) -> float | None:
        """0.5 × delivery success + 0.3 × response speed + 0.2 × (1 − redundancy).

        Response speed is ``min(1, target_response_time / mean response time)`` over messages that
        report one; redundancy is the share of messages repeating an earlier message exactly (same
        sender, receivers, type and non-empty content). A part that cannot be measured (no response
        times) is left out and the weights renormalised.
        """
        if not self.interactions:
            return None
        success = sum(1 for i in self.interactions if i.success) / len(self.interactions)
        times = [i.response_time for i in self.interactions if i.response_time > 0]
        speed = min(1.0, self.target_response_time / (sum(times) / len(times))) if times else None
        seen: set[tuple[Any, ...]] = set()
        repeats = 0
        for item in self.interactions:
            if item.content is None:
                continue
            key = (item.from_agent, tuple(item.receivers), item.message_type, repr(item.content))
            repeats += key in seen
            seen.add(key)
        redundancy = repeats / len(self.interactions)
        return weighted_mean({"success": success, "speed": speed, "unique": 1.0 - redundancy},
                             {"success": 0.5, "speed": 0.3, "unique": 0.2})

    def calculate_load_balance(self) -> float | None:
        """1 − coefficient of variation of per-agent activity (messages sent + received), clamped to 0..1.

        Agents with a role but no messages count with activity 0. Fewer than two agents → None.
        """
        values = list(self.activity.values())
        if len(values) < 2 or not any(values):
            return None
        mean = sum(values) / len(values)
        std = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))
        return _clamp(1.0 - std / mean)

    def calculate_role_adherence(self) -> float | None:
        """Share of messages, from agents that have a role, that the role allows (``AgentRole.allows``)."""
        checked = [i for i in self.interactions if i.from_agent in self.agent_roles]
        if not checked:
            return None
        return sum(1 for i in checked if self.agent_roles[i.from_agent].allows(i)) / len(checked)

    def role_violations(self) -> list[dict[str, str]]:
        """Messages outside their sender's role."""
        return [{"agent": i.from_agent, "message_type": i.message_type, "interaction_type": i.interaction_type.value}
                for i in self.interactions
                if i.from_agent in self.agent_roles and not self.agent_roles[i.from_agent].allows(i)]


class NetworkAnalyzer:
    """Topology of the communication graph, computed with networkx.

    The graph is undirected: two agents are linked when either sent the other a message or a task.
    Agents with no link stay in the graph as isolated nodes.

    Args:
        adjacency: agent → agents it sent to.
        agents: every agent (isolated ones included).
    """

    def __init__(self, adjacency: dict[str, Iterable[str]], agents: Iterable[str]):
        import networkx as nx

        self.graph = nx.Graph()
        self.graph.add_nodes_from(agents)
        for source, targets in adjacency.items():
            self.graph.add_edges_from((source, t) for t in targets if t != source)
        self.agents = sorted(self.graph.nodes)
        self.n = self.graph.number_of_nodes()

    @classmethod
    def from_interactions(cls, analyzer: InteractionAnalyzer) -> NetworkAnalyzer:
        return cls(analyzer.adjacency, analyzer.agents)

    def calculate_density(self) -> float | None:
        """Links / possible links, 2m / (n(n − 1)). Fewer than two agents → None."""
        import networkx as nx

        return nx.density(self.graph) if self.n >= 2 else None

    def calculate_centralization(self) -> float | None:
        """Freeman degree centralization: Σ(d_max − d_i) / ((n − 1)(n − 2)); star = 1, complete or ring = 0."""
        if self.n < 3:
            return None
        degrees = [d for _, d in self.graph.degree()]
        top = max(degrees)
        return sum(top - d for d in degrees) / ((self.n - 1) * (self.n - 2))

    def calculate_clustering_coefficient(self) -> float | None:
        """Mean local clustering coefficient (networkx ``average_clustering``)."""
        import networkx as nx

        return nx.average_clustering(self.graph) if self.n >= 3 else None

    def calculate_avg_path_length(self) -> float | None:
        """Mean shortest-path length over the pairs of agents that can reach each other."""
        import networkx as nx

        total = pairs = 0.0
        for component in nx.connected_components(self.graph):
            k = len(component)
            if k < 2:
                continue
            sub_pairs = k * (k - 1) / 2
            total += nx.average_shortest_path_length(self.graph.subgraph(component)) * sub_pairs
            pairs += sub_pairs
        return total / pairs if pairs else None

    def is_connected(self) -> bool:
        import networkx as nx

        return self.n > 0 and nx.is_connected(self.graph)

    def find_hub_agents(self, threshold: float = 0.7) -> list[str]:
        """Agents whose degree centrality (degree / (n − 1)) is at least ``threshold`` and above the mean.

        The second condition keeps regular graphs (complete, ring) hub-free: no agent stands out.
        """
        if self.n < 2:
            return []
        centrality = {a: d / (self.n - 1) for a, d in self.graph.degree()}
        mean = sum(centrality.values()) / self.n
        return sorted(a for a, c in centrality.items() if c >= threshold and c > mean + 1e-12)

    def find_bottleneck_agents(self) -> list[str]:
        """Articulation points: agents whose loss disconnects others (single points of failure)."""
        import networkx as nx

        return sorted(nx.articulation_points(self.graph))

    def calculate_fault_tolerance(self) -> float | None:
        """0.6 × density + 0.4 × (1 − bottlenecks / agents)."""
        density = self.calculate_density()
        if density is None:
            return None
        return 0.6 * density + 0.4 * (1.0 - len(self.find_bottleneck_agents()) / self.n)


class EmergentBehaviorDetector:
    """Signs of emergent coordination in the order of interactions.

    Args:
        interactions: in the order they happened.
        agent_roles: agent id → role (only the agent count is used).
    """

    def __init__(self, interactions: list[AgentInteraction], agent_roles: dict[str, AgentRole] | None = None):
        self.interactions = list(interactions)
        self.agent_roles = dict(agent_roles or {})

    def _agents(self) -> set[str]:
        agents = set(self.agent_roles)
        for item in self.interactions:
            agents.add(item.from_agent)
            agents.update(item.receivers)
        return agents

    def detect_self_organization(self) -> float | None:
        """Entropy reduction of communication patterns from the first half of the run to the second.

        A pattern is (sender, receivers, message type). Score ``0.5 + (H₁ − H₂) / (2·max(H₁, H₂))``:
        0.5 unchanged, 1.0 the second half settled into one pattern, 0 it dissolved. Needs ten interactions.
        """
        if len(self.interactions) < MIN_INTERACTIONS_FOR_TRENDS:
            return None
        half = len(self.interactions) // 2

        def patterns(items: list[AgentInteraction]) -> Counter:
            return Counter((i.from_agent, tuple(i.receivers), i.message_type) for i in items)

        early, late = patterns(self.interactions[:half]), patterns(self.interactions[half:])
        return _trend(_entropy(early.values()), _entropy(late.values()))

    def detect_specialization(self) -> float | None:
        """Mean normalised Herfindahl index of each sender's message types, weighted by messages sent.

        Per agent ``(HHI − 1/K) / (1 − 1/K)`` with K the distinct message types in the run: 1 when
        every agent sticks to one type, 0 when each spreads evenly over all. One type in the run → None.
        """
        by_agent: dict[str, Counter] = defaultdict(Counter)
        for item in self.interactions:
            by_agent[item.from_agent][item.message_type] += 1
        kinds = len({i.message_type for i in self.interactions})
        if kinds < 2:
            return None
        total = weighted = 0.0
        for counts in by_agent.values():
            n = sum(counts.values())
            hhi = sum((c / n) ** 2 for c in counts.values())
            weighted += n * (hhi - 1 / kinds) / (1 - 1 / kinds)
            total += n
        return _clamp(weighted / total)

    def detect_collective_decision_making(self) -> float | None:
        """Share of agents that take part (send or receive) in negotiation or collaboration messages."""
        agents = self._agents()
        if len(agents) < 2:
            return None
        involved: set[str] = set()
        for item in self.interactions:
            if item.interaction_type in _COLLECTIVE_TYPES:
                involved.add(item.from_agent)
                involved.update(item.receivers)
        return len(involved) / len(agents)

    def detect_adaptation_rate(self) -> float | None:
        """Response-time improvement from the first half of the run to the second, ``0.5 + (t₁ − t₂)/(2·max)``."""
        times = [i.response_time for i in self.interactions if i.response_time > 0]
        if len(times) < MIN_RESPONSE_TIMES_FOR_TRENDS:
            return None
        half = len(times) // 2
        return _trend(sum(times[:half]) / half, sum(times[half:]) / (len(times) - half))

    def components(self) -> dict[str, float | None]:
        return {"self_organization": self.detect_self_organization(),
                "specialization": self.detect_specialization(),
                "collective_decision": self.detect_collective_decision_making(),
                "adaptation_rate": self.detect_adaptation_rate()}

    def calculate_swarm_intelligence(self) -> float | None:
        """30 % self-organization + 25 % specialization + 25 % collective decisions + 20 % adaptation."""
        return weighted_mean(self.components(), SWARM_WEIGHTS)


SWARM_WEIGHTS = {"self_organization": 0.30, "specialization": 0.25, "collective_decision": 0.25,
                 "adaptation_rate": 0.20}
