import json

import pytest

from agentunit.core.envelope import EnvelopeError, build_trace, parse_reply, tool_call_failed
from agentunit.core.outcome import Outcome


def test_plain_text_reply_is_the_answer():
    outcome = parse_reply("Paris")
    assert outcome.output == "Paris" and outcome.context is None and outcome.tool_calls == []


def test_wrapper_form_reads_output_and_metadata():
    reply = json.dumps({"output": "It is sunny.", "trusys": {
        "query": "weather?", "context": "Forecast: sun.",
        "tool_calls": [{"name": "weather", "description": "forecast", "arguments": '{"city": "Paris"}',
                        "output": "sun"}],
        "plan": ["call weather", "answer"],
        "agent_calls": [{"name": "planner", "input": "q", "output": "plan"}]}})
    outcome = parse_reply(reply)
    assert outcome.output == "It is sunny."
    assert outcome.query == "weather?" and outcome.context == ["Forecast: sun."]
    assert outcome.tool_calls[0]["arguments"] == {"city": "Paris"}
    assert outcome.plan == ["call weather", "answer"] and outcome.agent_calls[0]["name"] == "planner"


def test_reply_without_output_field_is_the_reply_minus_trusys():
    outcome = parse_reply({"answer": 42, "trusys": {"context": ["a", {"content": "b"}]}})
    assert json.loads(outcome.output) == {"answer": 42}
    assert outcome.context == ["a", "b"]


def test_openai_style_tool_calls_are_normalised():
    outcome = parse_reply({"output": "", "trusys": {"tool_calls": [
        {"id": "1", "type": "function", "function": {"name": "lookup", "arguments": "{\"q\": 1}"}}]}})
    assert outcome.tool_calls[0]["name"] == "lookup" and outcome.tool_calls[0]["arguments"] == {"q": 1}


def test_json_text_without_trusys_stays_text():
    assert parse_reply('{"a": 1}').output == '{"a": 1}'
    assert parse_reply("{not json").output == "{not json"


@pytest.mark.parametrize("bad", [
    {"output": "x", "trusys": [1]},
    {"output": "x", "trusys": {"tool_calls": {"name": "x"}}},
    {"output": "x", "trusys": {"tool_calls": [{"arguments": {}}]}},
    {"output": "x", "trusys": {"context": 5}},
    {"output": "x", "trusys": {"agent_calls": ["x"]}},
])
def test_malformed_envelopes_raise(bad):
    with pytest.raises(EnvelopeError):
        parse_reply(bad)


def test_outcome_passes_through_and_none_is_empty():
    outcome = Outcome(output="x")
    assert parse_reply(outcome) is outcome
    assert parse_reply(None).output == ""


def test_trace_records_calls_in_order_with_metadata():
    outcome = parse_reply({"output": "done", "trusys": {
        "tool_calls": [{"name": "a"}, {"name": "b", "error": "boom"}], "agent_calls": [{"name": "x"}],
        "context": ["c"], "usage": {"total_tokens": 3}, "cost": 0.5,
        "interactions": [{"from": "a", "to": "b"}], "agent_roles": {"a": "planner"}}})
    trace = build_trace(outcome, "prompt")
    assert [e.type for e in trace.events] == ["prompt", "tool_call", "tool_call", "agent_call", "agent_response"]
    assert trace.metadata["context"] == ["c"] and trace.metadata["cost"] == 0.5
    assert trace.interactions == [{"from": "a", "to": "b"}] and trace.agent_roles == {"a": "planner"}
    assert [tool_call_failed(e.payload) for e in trace.of_type("tool_call")] == [False, True]


@pytest.mark.parametrize(("call", "failed"), [
    ({"name": "a"}, False), ({"name": "a", "status": "ok"}, False), ({"name": "a", "status": "FAILED"}, True),
    ({"name": "a", "success": False}, True), ({"name": "a", "error": ""}, False), ({"name": "a", "error": "x"}, True),
])
def test_tool_call_failure_rules(call, failed):
    assert tool_call_failed(call) is failed
