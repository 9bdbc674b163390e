import math

import pytest

from agentunit import check
from agentunit.judges import service as judge_service
from agentunit.judges.base import JudgeReply

TOOLS = [{"type": "function", "function": {"name": "get_weather", "description": "Weather for a city",
                                           "parameters": {"type": "object", "required": ["city"],
                                                          "properties": {"city": {"type": "string"}}}}}]


class ArgJudge:
    name = "scripted"

    def __init__(self):
        self.requests = []

    def describe(self):
        return {"provider": "arg-judge"}

    async def call(self, request):
        self.requests.append(request)
        ok = '"Paris"' in request.messages[-1][1]
        p = 0.9 if ok else 0.1
        return JudgeReply("PASS" if ok else "FAIL", [("PASS", math.log(p)), ("FAIL", math.log(1 - p))])

    async def aclose(self):
        pass


@pytest.fixture
def arg_judge():
    service = judge_service.JudgeService({"provider": "local"})
    service.provider = ArgJudge()
    token = judge_service.set_current_judge(service)
    yield service.provider
    judge_service._current.reset(token)


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
