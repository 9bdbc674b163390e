import pytest

from agentunit import check
from agentunit.metrics.agentic import check_rule
from tests.judge_helpers import pass_with, scripted_judge


@pytest.mark.parametrize(("rule", "names", "passed"), [
    ("If tool search is called, do not call agent writer", ["search", "writer"], False),
    ("If tool search is called, do not call agent writer", ["writer", "search"], True),   # writer came first
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
