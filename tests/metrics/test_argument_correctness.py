import pytest

from agentunit import check
from tests.judge_helpers import pass_with, scripted_judge

TOOLS = [{"type": "function", "function": {"name": "get_weather", "description": "Weather for a city",
                                           "parameters": {"type": "object", "required": ["city"],
                                                          "properties": {"city": {"type": "string"}}}}}]


def _fits(request):
    return pass_with(0.9 if '"Paris"' in request.messages[-1][1] else 0.1)


@pytest.fixture
def arg_judge():
    with scripted_judge(_fits, "arg-judge") as provider:
        yield provider


def test_schema_failures_score_zero_without_a_judge_call(arg_judge):
    result = check("x", "argument-correctness", tools=TOOLS, query="Weather in Paris?",
                   tool_calls=[{"name": "get_weather", "arguments": {"town": "Paris"}}])
    assert result.value == 0.0 and "'city' is a required property" in result.detail["calls"][0]["schema_errors"][0]
    assert arg_judge.requests == []


def test_valid_arguments_are_judged_for_fit(arg_judge):
    good = check("x", "argument-correctness", tools=TOOLS, query="Weather in Paris?",
                 tool_calls=[{"name": "get_weather", "arguments": {"city": "Paris"}}])
    bad = check("x", "argument-correctness", tools=TOOLS, query="Weather in Paris?",
                tool_calls=[{"name": "get_weather", "arguments": {"city": "Rome"}}])
    assert good.value == pytest.approx(0.9) and good.passed and bad.value == pytest.approx(0.1)
    mixed = check("x", "argument-correctness", tools=TOOLS, query="Weather in Paris?",
                  tool_calls=[{"name": "get_weather", "arguments": {"city": "Paris"}},
                              {"name": "get_weather", "arguments": {}}])
    assert mixed.value == pytest.approx(0.45) and "check get_weather" in mixed.reason and mixed.passed is False


def test_schema_only_mode_and_not_measured(arg_judge):
    schema_only = check("x", {"metric": "argument-correctness", "config": {"judge": False, "tools": TOOLS}},
                        tool_calls=[{"name": "get_weather", "arguments": {"city": "Oslo"}}])
    assert schema_only.value == 1.0 and arg_judge.requests == []
    assert check("x", "argument-correctness").status == "not_measured"


def test_schema_only_mode_leaves_calls_without_a_schema_unchecked(arg_judge):
    result = check("x", {"metric": "argument-correctness", "config": {"judge": False, "tools": TOOLS}},
                   tool_calls=[{"name": "get_weather", "arguments": {"city": "Oslo"}},
                               {"name": "send_email", "arguments": {"to": "x"}}])
    assert result.value == 1.0 and result.detail["not_checked"] == ["send_email"]
    assert "not checked (no schema, judge off): send_email" in result.reason and arg_judge.requests == []
    nothing = check("x", {"metric": "argument-correctness", "config": {"judge": False}},
                    tool_calls=[{"name": "send_email", "arguments": {}}])
    assert nothing.status == "not_measured" and "send_email" in nothing.reason
