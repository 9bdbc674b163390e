import math

import pytest

from agentunit import check
from agentunit.judges import service as judge_service
from agentunit.judges.base import JudgeReply

WEATHER_RUN = {"query": "What's the weather in Paris?", "plan": ["call get_weather for Paris", "answer"],
               "tool_calls": [{"name": "get_weather", "arguments": {"city": "Paris"}, "output": "18°C, sunny"}]}


class Recorder:
    name = "scripted"

    def __init__(self):
        self.requests = []

    def describe(self):
        return {"provider": "recorder"}

    async def call(self, request):
        self.requests.append(request)
        return JudgeReply("PASS", [("PASS", math.log(0.75)), ("FAIL", math.log(0.25))])

    async def aclose(self):
        pass


@pytest.fixture
def recorder():
    service = judge_service.JudgeService({"provider": "local"})
    service.provider = Recorder()
    token = judge_service.set_current_judge(service)
    yield service.provider
    judge_service._current.reset(token)


@pytest.mark.parametrize("name", ["task-completion", "goal-fulfillment", "tool-selection-quality", "plan-quality",
                                  "reasoning-coherence"])
def test_one_decision_over_the_whole_run(recorder, name):
    result = check("It is 18°C and sunny in Paris.", name, **WEATHER_RUN)
    assert result.value == pytest.approx(0.75) and result.passed is True
    prompt = recorder.requests[-1].messages[-1][1]
    assert "User request: What's the weather in Paris?" in prompt
    assert 'tool get_weather({"city": "Paris"}) -> 18°C, sunny' in prompt
    assert "1. call get_weather for Paris" in prompt and "Final answer: It is 18°C" in prompt


def test_missing_inputs_are_not_measured(recorder):
    assert check("x", "plan-quality", query="q").status == "not_measured"
    assert check("x", "tool-selection-quality", query="q").status == "not_measured"
    assert recorder.requests == []
