import pytest

from agentunit import check
from tests.judge_helpers import pass_with, scripted_judge

WEATHER_RUN = {"query": "What's the weather in Paris?", "plan": ["call get_weather for Paris", "answer"],
               "tool_calls": [{"name": "get_weather", "arguments": {"city": "Paris"}, "output": "18°C, sunny"}]}


@pytest.fixture
def recorder():
    with scripted_judge(lambda request: pass_with(0.75), "recorder") as provider:
        yield provider


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


@pytest.mark.parametrize(("name", "says"), [("task-completion", "completed the user's request"),
                                            ("plan-quality", "the plan is a sound")])
def test_the_reason_says_what_was_judged(recorder, name, says):
    result = check("It is 18°C and sunny in Paris.", name, **WEATHER_RUN)
    assert result.reason.startswith("P(pass) = 0.750 that ") and says in result.reason
    assert result.detail["question"] in recorder.requests[-1].messages[-1][1]


def test_faithfulness_names_its_least_supported_claim():
    def respond(request):
        return pass_with(0.2 if "Lyon" in request.messages[-1][1] else 0.9)

    with scripted_judge(respond):
        result = check("Paris is the capital of France. Lyon is its largest city.", "context-faithfulness",
                       context=["Paris is the capital of France."])
    assert "least supported: \"Lyon is its largest city.\"" in result.reason
