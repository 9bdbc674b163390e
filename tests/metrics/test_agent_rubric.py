import random

import pytest

from agentunit import check
from agentunit.metrics.agentic import check_rule, check_rule_unordered
from tests.judge_helpers import pass_with, scripted_judge


@pytest.mark.parametrize(("rule", "names", "passed"), [
    ("If tool search is called, do not call agent writer", ["search", "writer"], False),
    # a conditional about the run: both called breaks it, whichever came first
    ("If tool search is called, do not call agent writer", ["writer", "search"], False),
    ("Once tool search was called, never call agent writer", ["writer", "lookup"], True),
    ("If search is called, do not call search again", ["search"], True),                  # Y is X: twice breaks it
    ("If search is called, do not call search again", ["search", "lookup", "search"], False),
    # "after": about the order
    ("After search is called, do not call writer", ["writer", "search"], True),           # writer came first
    ("After search is called, do not call writer", ["search", "writer"], False),
    ("Never call writer after search", ["writer", "search", "lookup"], True),
    ("do not call `writer` after calling search.", ["search", "lookup", "writer"], False),
    ("If tool search is called, do not call agent writer", ["writer"], True),
    ("if `search` is used don't use writer.", ["search", "lookup", "writer"], False),
    ("validate input before tool pay", ["validate_card", "pay"], True),
    ("validate input before tool pay", ["pay", "validate_card"], False),
    ("validate input before tool pay", ["lookup"], True),                                    # pay never called
    ("Call login before calling fetch_orders", ["login", "fetch_orders"], True),
    ("Call login before calling fetch_orders", ["fetch_orders", "login"], False),
    ("never call delete_account", ["lookup", "delete-account"], False),                    # - and _ equal
    ("Never call delete_account", ["lookup"], True),
    ("always call audit_log", ["audit_log"], True),
    ("must use audit_log", ["lookup"], False),
])
def test_rules_the_trace_settles(rule, names, passed):
    result = check_rule(rule, names)
    assert result is not None and result["passed"] is passed and result["method"] == "trace"


def test_unknown_forms_are_left_to_the_judge():
    assert check_rule("Be polite to the user", ["search"]) is None


def test_metric_mixes_trace_and_judge_rules():
    with scripted_judge(lambda request: pass_with(0.7), "rule-judge"):
        result = check("Done, thanks!", {"metric": "agent-llm-rubric", "value": [
            "If tool search is called, do not call agent writer", "Be polite to the user"]},
            tool_calls=[{"name": "search"}, {"name": "writer"}])
        assert [r["method"] for r in result.detail["rules"]] == ["trace", "judge"]
        assert result.value == pytest.approx((0 + 0.7) / 2) and result.passed is False
        assert "broken: If tool search is called" in result.reason
        assert check("x", "agent-llm-rubric").status == "not_measured"
        from_case = check("x", "agent-llm-rubric", rules=["never call rm"], tool_calls=[{"name": "ls"}])
        assert from_case.value == 1.0 and from_case.passed is True


@pytest.mark.parametrize(("rule", "tools", "agents", "passed"), [
    # "if X is called, do not call Y" does not depend on the order: both called breaks it (issue 52)
    ("If tool search is called, do not call agent writer", ["search"], ["writer"], False),
    ("Once tool search was called, never call agent writer", ["search"], ["writer"], False),
    ("If tool search is called, do not call agent writer", ["lookup"], ["writer"], True),   # search never called
    ("If a is called, do not call b", ["b", "b", "a", "a", "b"], ["b"], False),             # a then b among tools
    ("If a is called, do not call b", ["b"], ["b", "a"], False),
    ("If search is called, do not call search", ["search"], ["search"], False),             # called twice anyway
    ("If search is called, do not call search", ["search"], ["writer"], True),
    # "after X, do not call Y" does
    ("After search is called, do not call writer", ["search"], ["writer"], None),
    ("Never call writer after search", ["search"], ["planner", "writer"], None),
    ("After search is called, do not call writer", ["search", "writer"], ["planner"], False),  # among tools
    ("After search is called, do not call writer", ["writer", "lookup"], ["search"], None),
    ("After search is called, do not call writer", ["writer"], ["planner"], True),            # search never called
    ("Call x before calling y", ["x"], ["y", "x"], None),
    ("Call x before calling y", ["x", "y"], ["z"], True),
    ("validate input before tool pay", ["validate_card", "pay"], ["pay"], None),
    ("validate input before tool pay", ["validate_card", "pay"], ["reviewer"], True),
    ("never call writer", ["search"], ["writer"], False),
    ("always call writer", ["search"], ["writer"], True),
])
def test_rules_without_the_order_between_tool_and_agent_calls(rule, tools, agents, passed):
    result = check_rule_unordered(rule, tools, agents)
    assert result["passed"] is passed
    assert result["method"] == ("order unknown" if passed is None else "trace")
    assert check_rule_unordered("Be polite", tools, agents) is None


def _all_merges(left, right):
    if not left or not right:
        return [left + right]
    return ([[left[0], *m] for m in _all_merges(left[1:], right)]
            + [[right[0], *m] for m in _all_merges(left, right[1:])])


def test_cutting_the_calls_to_a_few_runs_gives_the_verdict_of_every_interleaving():
    rng = random.Random(11)
    names = ["a", "b", "validate_x", "pay", "validate_pay", "c"]
    rules = ["If a is called, do not call b", "Call a before calling b", "validate input before tool pay",
             "If a is called, do not call a", "Call a before calling a", "validate input before tool validate_pay",
             "never call b", "always call pay", "After a is called, do not call b", "Never call a after a",
             "Never call validate_pay after pay"]
    for _ in range(200):
        tools = [rng.choice(names) for _ in range(rng.randint(0, 5))]
        agents = [rng.choice(names) for _ in range(rng.randint(0, 5))]
        for rule in rules:
            verdicts = {check_rule(rule, merged)["passed"] for merged in _all_merges(tools, agents)}
            expected = verdicts.pop() if len(verdicts) == 1 else None
            assert check_rule_unordered(rule, tools, agents)["passed"] is expected, (rule, tools, agents)


def test_unknown_order_rules_are_left_out_of_the_score():
    reply = {"output": "ok", "trusys": {"tool_calls": [{"name": "search"}], "agent_calls": [{"name": "writer"}]}}
    only_unknown = check(reply, {"metric": "agent-llm-rubric", "value": ["Call writer before calling search"]})
    assert only_unknown.status == "not_measured" and "order unknown for every rule" in only_unknown.reason
    mixed = check(reply, {"metric": "agent-llm-rubric", "value": ["Call writer before calling search",
                                                                   "never call delete"]})
    assert mixed.value == 1.0 and mixed.passed is True and mixed.detail["order"] == "unknown"
    assert [r["method"] for r in mixed.detail["rules"]] == ["order unknown", "trace"]


# -- issue 52: decide without the order what the order does not change ----------------------------------

SEPARATE = {"tool_calls": [{"name": "search"}, {"name": "lookup"}], "agent_calls": [{"name": "writer"}]}


def _rubric(rule: str, trusys: dict):
    """The metric on a reply whose tool and agent calls come in separate arrays (order unknown), with a
    judge that would pass any rule sent to it."""
    with scripted_judge(lambda request: pass_with(0.9), "rule-judge") as judge:
        result = check({"output": "done", "trusys": trusys}, {"metric": "agent-llm-rubric", "value": [rule]})
    return result, judge.requests


def test_a_conditional_rule_broken_in_every_order_fails_without_the_order():
    result, asked = _rubric("once tool search was called, never call agent writer", SEPARATE)
    assert result.status == "failed" and result.value == 0.0 and not asked
    (rule,) = result.detail["rules"]
    assert rule["method"] == "trace" and rule["kind"] == "exclusive" and "search and writer both called" in rule["why"]
    assert result.detail["order"] == "unknown"
    stated_as_if, asked = _rubric("If tool search is called, do not call agent writer", SEPARATE)
    assert stated_as_if.status == "failed" and not asked  # was "not measured: order unknown"


def test_a_rule_that_holds_in_every_order_passes_without_the_order():
    trusys = {**SEPARATE, "agent_calls": [{"name": "editor"}]}
    result, asked = _rubric("Once tool search was called, never call agent writer", trusys)
    assert result.status == "passed" and result.value == 1.0 and not asked
    assert result.detail["rules"][0]["method"] == "trace"
    before, asked = _rubric("After writer is called, do not call lookup", {**SEPARATE, "tool_calls": [
        {"name": "search"}]})   # lookup never called: no order breaks it
    assert before.status == "passed" and before.detail["rules"][0]["method"] == "trace" and not asked


def test_a_rule_whose_truth_depends_on_the_order_is_not_measured():
    result, asked = _rubric("Never call writer after search", SEPARATE)
    assert result.status == "not_measured" and "order unknown for every rule" in result.reason and not asked
    # the same rule, the order observed
    ordered = {"events": [{"type": "agent_call", "name": "writer"}, {"type": "tool_call", "name": "search"}]}
    assert _rubric("Never call writer after search", ordered)[0].status == "passed"
    assert _rubric("If search is called, do not call writer", ordered)[0].status == "failed"
