import json

import pytest

from agentunit import check
from agentunit.errors import MetricConfigError

TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}, "unit": {"enum": ["c", "f"]}},
    "required": ["city"]}}},
    {"type": "function", "function": {"name": "get_time", "parameters": {"type": "object"}}}]


def _openai(*calls):
    return json.dumps([{"type": "function", "function": {"name": n, "arguments": json.dumps(a)}} for n, a in calls])


@pytest.mark.parametrize(("output", "passed"), [
    (_openai(("get_weather", {"city": "Paris"})), True),
    (_openai(("get_weather", {"city": "Paris", "unit": "c"}), ("get_time", {})), True),
    (_openai(("get_weather", {})), False),
    (_openai(("get_weather", {"city": "Paris", "unit": "k"})), False),
    (_openai(("launch_rocket", {})), False),
    (json.dumps({"tool_calls": json.loads(_openai(("get_time", {})))}), True),
    ('[{"type": "function", "function": {"name": "get_weather", "arguments": "{not json"}}]', False),
    ("I will not call any tool.", False),
])
def test_is_valid_openai_tools_call(output, passed):
    assert check(output, {"metric": "is-valid-openai-tools-call", "config": {"tools": TOOLS}}).passed is passed


def test_tools_call_from_envelope_and_case_tools():
    result = check("", "is-valid-openai-tools-call", tools=TOOLS,
                   tool_calls=[{"name": "get_weather", "arguments": {"city": "Oslo"}}])
    assert result.passed is True
    assert "needs tool schemas" in check("[]", "is-valid-openai-tools-call").error


@pytest.mark.parametrize(("output", "expected", "f1"), [
    (_openai(("get_weather", {}), ("get_time", {})), ["get_weather", "get_time"], 1.0),
    (_openai(("get_weather", {})), "get_weather, get_time", 2 / 3),
    (_openai(("get_weather", {}), ("search", {})), ["get_weather"], 2 / 3),
    (_openai(("get_weather", {}), ("get_weather", {})), ["get_weather"], 1.0),     # repeats do not count
    ('[{"type": "tool_use", "name": "get_time", "input": {}}]', ["get_time"], 1.0),  # Anthropic
    ('{"functionCall": {"name": "get_time", "args": {}}}', ["get_time"], 1.0),      # Google
    ('Calling now:\n{"name": "get_time", "arguments": {}}', ["get_time"], 1.0),     # embedded JSON
    ("no calls", ["get_time"], 0.0),
])
def test_tool_call_f1(output, expected, f1):
    result = check(output, {"metric": "tool-call-f1", "value": expected})
    assert result.value == pytest.approx(f1)
    assert result.passed is (f1 == 1.0)


def test_tool_call_f1_threshold_and_envelope():
    spec = {"metric": "tool-call-f1", "value": ["a", "b"], "threshold": 0.6}
    assert check("", spec, tool_calls=[{"name": "a"}]).passed is True
    with pytest.raises(MetricConfigError):
        check("", {"metric": "tool-call-f1", "value": ""})


@pytest.mark.parametrize(("actual", "expected", "passed"), [
    ("stop", "stop", True), ("end_turn", "stop", True), ("max_tokens", "length", True),
    ("tool_use", "tool_calls", True), ("STOP", "stop", True), ("length", "stop", False),
])
def test_finish_reason(actual, expected, passed):
    assert check("x", {"metric": "finish-reason", "value": expected}, finish_reason=actual).passed is passed
