"""Graph and interaction measures checked against values computed by hand."""

import pytest

from agentunit.multiagent import (
    AgentInteraction,
    AgentRole,
    ConflictEvent,
    EmergentBehaviorDetector,
    HandoffEvent,
    InteractionAnalyzer,
    InteractionType,
    NetworkAnalyzer,
)


def _graph(edges, agents=None):
    adjacency = {}
    for a, b in edges:
        adjacency.setdefault(a, set()).add(b)
    nodes = agents or sorted({n for e in edges for n in e})
    return NetworkAnalyzer(adjacency, nodes)


STAR = [("hub", leaf) for leaf in "abcd"]  # 5 agents, 4 links
CHAIN = [("a", "b"), ("b", "c"), ("c", "d")]  # 4 agents in a line
COMPLETE = [(x, y) for x in "abcd" for y in "abcd" if x < y]  # K4
BRIDGE = [("a", "b"), ("b", "c"), ("a", "c"), ("d", "e"), ("e", "f"), ("d", "f"), ("c", "d")]  # two triangles + bridge


@pytest.mark.parametrize(("edges", "density", "centralization", "clustering", "path", "bottlenecks", "hubs"), [
    # star: 4/10 links; Σ(4-1)·4 / (4·3) = 1; no triangles; 4 pairs at 1 + 6 at 2 → 16/10
    (STAR, 0.4, 1.0, 0.0, 1.6, ["hub"], ["hub"]),
    # chain: 3/6; degrees 1,2,2,1 → (1+0+0+1)/(3·2); paths 1,1,1,2,2,3 → 10/6
    (CHAIN, 0.5, 1 / 3, 0.0, 10 / 6, ["b", "c"], []),
    # complete K4: every link, every triangle, every pair at 1
    (COMPLETE, 1.0, 0.0, 1.0, 1.0, [], []),
    # two triangles + bridge c–d: 7/15; degrees 2,2,3,3,2,2 → (1+1+0+0+1+1)/(5·4);
    # clustering a,b,e,f = 1, c,d = 1/3 → 14/18; paths: 7 pairs at 1, a–d b–d c–e c–f at 2,
    # a–e a–f b–e b–f at 3 → (7 + 8 + 12) / 15
    (BRIDGE, 7 / 15, 0.2, 14 / 18, 27 / 15, ["c", "d"], []),
])
def test_graph_measures_match_hand_computed_values(edges, density, centralization, clustering, path, bottlenecks, hubs):
    network = _graph(edges)
    assert network.calculate_density() == pytest.approx(density)
    assert network.calculate_centralization() == pytest.approx(centralization)
    assert network.calculate_clustering_coefficient() == pytest.approx(clustering)
    assert network.find_bottleneck_agents() == bottlenecks
    assert network.find_hub_agents(threshold=0.7) == hubs
    assert network.calculate_fault_tolerance() == pytest.approx(
        0.6 * density + 0.4 * (1 - len(bottlenecks) / network.n))
    assert network.calculate_avg_path_length() == pytest.approx(path)


def test_fault_tolerance_hand_values():
    assert _graph(STAR).calculate_fault_tolerance() == pytest.approx(0.6 * 0.4 + 0.4 * 0.8)  # 0.56
    assert _graph(CHAIN).calculate_fault_tolerance() == pytest.approx(0.6 * 0.5 + 0.4 * 0.5)  # 0.50
    assert _graph(COMPLETE).calculate_fault_tolerance() == pytest.approx(1.0)
    assert _graph(BRIDGE).calculate_fault_tolerance() == pytest.approx(0.6 * 7 / 15 + 0.4 * 4 / 6)


def test_direction_and_duplicates_do_not_double_links():
    network = NetworkAnalyzer({"a": {"b"}, "b": {"a"}}, ["a", "b", "c"])
    assert network.calculate_density() == pytest.approx(1 / 3)
    assert network.calculate_avg_path_length() == 1.0  # only a–b can reach each other
    assert not network.is_connected()


def test_too_small_graphs_are_not_measured():
    single = NetworkAnalyzer({}, ["solo"])
    assert single.calculate_density() is None
    assert single.calculate_fault_tolerance() is None
    assert _graph([("a", "b")]).calculate_centralization() is None


def _msg(sender, receiver, kind="request", message_type="generic", **kw):
    return AgentInteraction(from_agent=sender, to_agent=receiver, interaction_type=InteractionType(kind),
                            message_type=message_type, **kw)


def test_handoff_and_conflict_statistics():
    handoffs = [HandoffEvent("a", "b", success=True, handoff_time=1.0), HandoffEvent("b", "c", success=False,
                                                                                    handoff_time=3.0)]
    conflicts = [ConflictEvent(["a", "b"], resolved=True, resolution_time=4.0), ConflictEvent(["b", "c"])]
    analyzer = InteractionAnalyzer([_msg("a", "b")] * 4, handoffs, conflicts)
    assert analyzer.calculate_handoff_metrics() == {"success_rate": 0.5, "avg_time": 2.0, "total_handoffs": 2}
    assert analyzer.calculate_conflict_metrics() == {"rate": 50.0, "resolution_rate": 0.5,
                                                     "avg_resolution_time": 4.0, "total_conflicts": 2}
    empty = InteractionAnalyzer([_msg("a", "b")])
    assert empty.calculate_handoff_metrics()["success_rate"] is None
    assert empty.calculate_conflict_metrics()["resolution_rate"] is None


def test_communication_efficiency_weights():
    # 3 of 4 delivered; mean response 10 s against a 5 s target → 0.5; one exact repeat of 4 → 0.75 unique
    items = [_msg("a", "b", content="x", response_time=10.0), _msg("a", "b", content="x", response_time=10.0),
             _msg("b", "a", content="y", response_time=10.0), _msg("b", "a", content="z", success=False,
                                                                   response_time=10.0)]
    value = InteractionAnalyzer(items).calculate_communication_efficiency()
    assert value == pytest.approx(0.5 * 0.75 + 0.3 * 0.5 + 0.2 * 0.75)
    # without response times the speed part is left out: (0.5·1 + 0.2·1) / 0.7
    assert InteractionAnalyzer([_msg("a", "b")]).calculate_communication_efficiency() == pytest.approx(1.0)


def test_load_balance_counts_idle_agents_with_a_role():
    # a sends 2 to b: activity a=2, b=2 → perfectly balanced
    assert InteractionAnalyzer([_msg("a", "b"), _msg("a", "b")]).calculate_load_balance() == pytest.approx(1.0)
    # with an idle role c: activities 2, 2, 0 → 1 − std/mean
    roles = {"c": AgentRole("idle")}
    value = InteractionAnalyzer([_msg("a", "b"), _msg("a", "b")], agent_roles=roles).calculate_load_balance()
    mean = 4 / 3
    std = ((2 - mean) ** 2 * 2 + mean**2) / 3
    assert value == pytest.approx(1 - std**0.5 / mean)


def test_role_adherence_checks_capabilities_and_delegation():
    roles = {"searcher": AgentRole("searcher", capabilities=["search"]),
             "lead": AgentRole("lead", can_delegate=True)}
    items = [_msg("searcher", "lead", message_type="search"), _msg("searcher", "lead", message_type="write"),
             _msg("searcher", "lead", kind="delegation", message_type="search"),
             _msg("lead", "searcher", kind="delegation"), _msg("other", "lead")]
    analyzer = InteractionAnalyzer(items, agent_roles=roles)
    assert analyzer.calculate_role_adherence() == pytest.approx(2 / 4)  # "other" has no role
    assert [v["message_type"] for v in analyzer.role_violations()] == ["write", "search"]


def test_specialization_and_collective_decisions():
    specialised = [_msg("a", "b", message_type="search")] * 4 + [_msg("b", "a", message_type="write")] * 4
    mixed = [_msg("a", "b", message_type=t) for t in ("search", "write")] * 2
    assert EmergentBehaviorDetector(specialised).detect_specialization() == pytest.approx(1.0)
    assert EmergentBehaviorDetector(mixed).detect_specialization() == pytest.approx(0.0)
    assert EmergentBehaviorDetector([_msg("a", "b")]).detect_specialization() is None
    talk = [_msg("a", "b", kind="negotiation"), _msg("c", "d")]
    assert EmergentBehaviorDetector(talk).detect_collective_decision_making() == pytest.approx(0.5)


def test_self_organization_and_adaptation_trends():
    chaotic = [_msg(s, r, message_type=t) for s, r, t in
               [("a", "b", "x"), ("b", "c", "y"), ("c", "a", "z"), ("a", "c", "w"), ("b", "a", "v")]]
    settled = [_msg("a", "b", message_type="x")] * 5
    detector = EmergentBehaviorDetector(chaotic + settled)
    assert detector.detect_self_organization() == pytest.approx(1.0)  # entropy log2(5) → 0
    assert EmergentBehaviorDetector(settled + chaotic).detect_self_organization() == pytest.approx(0.0)
    assert EmergentBehaviorDetector(settled).detect_self_organization() is None  # fewer than ten
    slow_then_fast = [_msg("a", "b", response_time=t) for t in (4.0, 4.0, 2.0, 2.0)]
    assert EmergentBehaviorDetector(slow_then_fast).detect_adaptation_rate() == pytest.approx(0.5 + 2 / 8)
    swarm = EmergentBehaviorDetector(chaotic + settled).calculate_swarm_intelligence()
    parts = EmergentBehaviorDetector(chaotic + settled).components()
    measured = {k: v for k, v in parts.items() if v is not None}
    weights = {"self_organization": 0.3, "specialization": 0.25, "collective_decision": 0.25, "adaptation_rate": 0.2}
    assert swarm == pytest.approx(sum(weights[k] * v for k, v in measured.items()) / sum(weights[k] for k in measured))
