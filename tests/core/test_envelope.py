import json

import pytest

from agentunit.core.envelope import (
    EnvelopeError,
    build_trace,
    observed_sequence,
    ordered_events,
    parse_reply,
    tool_call_failed,
    tool_call_failure,
)
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


@pytest.mark.parametrize(("call", "failed", "basis"), [
    ({"name": "a", "output": {"error": "rate limited"}}, True, "output"),
    ({"name": "a", "output": '{"errors": ["bad id"]}'}, True, "output"),
    ({"name": "a", "output": {"isError": True, "content": []}}, True, "output"),    # MCP tool result
    ({"name": "a", "output": {"ok": False}}, True, "output"),
    ({"name": "a", "output": {"status": "failed"}}, True, "output"),
    ({"name": "a", "output": {"error": None, "rows": 3}}, False, "output"),
    ({"name": "a", "output": "Traceback (most recent call last):\n  ..."}, True, "output"),
    ({"name": "a", "output": "  Error: not found"}, True, "output"),
    ({"name": "a", "output": "Error 409: conflict check failed, event not created"}, True, "output"),
    ({"name": "a", "output": "Error 2 of the tutorial: off-by-one"}, False, "output"),
    ({"name": "a", "output": "[ERROR] upstream down"}, True, "output"),
    ({"name": "a", "output": "requests.exceptions.ConnectionError: refused"}, True, "output"),
    ({"name": "a", "output": "Error-free delivery in 2 days"}, False, "output"),
    ({"name": "a", "output": "Terror: a film from 1990"}, False, "output"),
    ({"name": "a", "output": "No error found."}, False, "output"),
    ({"name": "a"}, False, "output"),
    ({"name": "a", "status": "ok", "output": "Error: shown to the user on purpose"}, False, "status"),
    ({"name": "a", "error": None, "output": {"error": "x"}}, False, "status"),           # an explicit report wins
    ({"name": "a", "status": 503}, True, "status"),
    ({"name": "a", "status": 200}, False, "status"),
])
def test_tool_call_failure_from_status_or_output(call, failed, basis):
    assert tool_call_failure(call) == (failed, basis)
    assert tool_call_failed(call) is failed


def test_error_text_is_read_from_the_start_only():
    assert tool_call_failed({"name": "a", "output": "Error: " + "x" * 5_000_000}) is True
    assert tool_call_failed({"name": "a", "output": "ok " * 1_000 + "Error: late"}) is False
    assert tool_call_failed({"name": "a", "output": "{" * 100_000}) is False  # too deep for JSON, not an error


def test_events_give_the_calls_and_their_order():
    outcome = parse_reply({"output": "done", "trusys": {"events": [
        {"type": "agent_call", "name": "planner", "input": "q"},
        {"type": "message", "role": "assistant", "content": "calling search"},
        {"type": "tool_call", "function": {"name": "search", "arguments": '{"q": 1}'}}]}})
    assert outcome.tool_calls == [{"name": "search", "function": {"name": "search", "arguments": '{"q": 1}'},
                                   "arguments": {"q": 1}}]
    assert [c["name"] for c in outcome.agent_calls] == ["planner"]
    trace = build_trace(outcome, "p")
    assert [e.type for e in trace.events] == ["prompt", "agent_call", "message", "tool_call", "agent_response"]
    assert trace.metadata["order"] == "observed" and trace.metadata["order_basis"] == "trusys.events"
    same = parse_reply({"output": "", "trusys": {"tool_calls": [{"name": "search"}],
                                                 "events": [{"type": "tool_call", "name": "search"}]}})
    assert [c["name"] for c in same.tool_calls] == ["search"]


@pytest.mark.parametrize(("events", "message"), [
    ({"type": "tool_call", "name": "x"}, "must be a list"),
    ([{"name": "x"}], r"events\[0\]' must be an object with a 'type'"),
    ([{"type": "tool_call"}], r"events\[0\]' has no 'name'"),
    ([{"type": "agent_response", "content": "x"}], "records itself"),
])
def test_malformed_events_raise(events, message):
    with pytest.raises(EnvelopeError, match=message):
        parse_reply({"output": "", "trusys": {"events": events}})
    with pytest.raises(EnvelopeError, match="list different tool calls"):
        parse_reply({"output": "", "trusys": {"tool_calls": [{"name": "a"}],
                                              "events": [{"type": "tool_call", "name": "b"}]}})


def _order(tool_calls, agent_calls):
    sequence, order, basis = observed_sequence(Outcome(tool_calls=tool_calls, agent_calls=agent_calls))
    return [p["name"] for _, p in sequence], order, basis


def test_calls_are_merged_by_seq_or_timestamp():
    assert _order([{"name": "t1", "seq": 1}, {"name": "t2", "seq": 4}],
                  [{"name": "a1", "seq": 2}, {"name": "a2", "seq": 3}]) == (["t1", "a1", "a2", "t2"], "observed", "seq")
    assert _order([{"name": "t", "timestamp": 1700000002.5}], [{"name": "a", "timestamp": "2023-11-14T22:13:21Z"}]) \
        == (["a", "t"], "observed", "timestamp")
    # seq missing on one call: the timestamps decide
    assert _order([{"name": "t", "seq": 1, "timestamp": 5}], [{"name": "a", "timestamp": 3}])[:2] == (["a", "t"],
                                                                                                      "observed")


@pytest.mark.parametrize(("tools", "agents", "why"), [
    ([{"name": "t"}], [{"name": "a"}], "1 tool call(s) without a usable seq"),
    ([{"name": "t", "seq": 10**400}], [{"name": "a", "seq": 1}], "1 tool call(s) without a usable seq"),
    ([{"name": "t", "seq": 1}], [{"name": "a", "seq": 1}], "tool call 't' and agent call 'a' have the same seq"),
    ([{"name": "t", "seq": 2}, {"name": "u", "seq": 1}], [{"name": "a", "seq": 3}], "seq goes backwards"),
    ([{"name": "t", "timestamp": "yesterday"}], [{"name": "a", "timestamp": 1}], "without a usable timestamp"),
    ([{"name": "t", "seq": True}], [{"name": "a", "seq": float("nan")}], "without a usable seq"),
])
def test_order_is_unknown_without_usable_keys(tools, agents, why):
    names, order, basis = _order(tools, agents)
    assert order == "unknown" and why in basis and names[0] == tools[0]["name"]
    assert ordered_events(Outcome(tool_calls=tools, agent_calls=agents)) is None


def test_one_kind_of_call_needs_no_key_and_events_that_miss_calls_are_not_trusted():
    assert _order([{"name": "t1"}, {"name": "t2"}], []) == (["t1", "t2"], "observed", "one kind of call")
    assert _order([], []) == ([], "observed", "no calls")
    outcome = Outcome(tool_calls=[{"name": "t"}], agent_calls=[{"name": "a"}],
                      events=[{"type": "tool_call", "name": "t"}])
    _, order, basis = observed_sequence(outcome)
    assert order == "unknown" and basis.startswith("trusys.events does not hold the same calls")


def test_ordered_events_concatenate_across_turns():
    first = parse_reply({"output": "", "trusys": {"tool_calls": [{"name": "t"}]}})
    second = parse_reply({"output": "", "trusys": {"events": [{"type": "agent_call", "name": "a"}]}})
    events = ordered_events(first) + ordered_events(second)
    merged = Outcome(tool_calls=first.tool_calls, agent_calls=second.agent_calls, events=events)
    assert [e.type for e in build_trace(merged).events] == ["tool_call", "agent_call"]
    assert build_trace(merged).order_known
