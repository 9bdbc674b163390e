"""Reading a reply's envelope: call order by seq and timestamp, event checks and their messages, an
answer that is a medium (written against the surviving mutants of core/envelope.py; docs/testing.md)."""

import base64
import time

import pytest

from agentunit.core.envelope import EnvelopeError, observed_sequence, parse_reply, tool_calls_of
from agentunit.core.outcome import Outcome
from agentunit.core.trace import TraceLog

_PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
                     "0000000d4944415478da63f8cfc0f01f0005000201a0a3c6a60000000049454e44ae426082")


def _order(tools, agents):
    """(names in observed order, order, basis) for tool and agent calls given as (name, fields)."""
    outcome = Outcome(output="x", tool_calls=[{"name": n, **f} for n, f in tools],
                      agent_calls=[{"name": n, **f} for n, f in agents])
    sequence, order, basis = observed_sequence(outcome)
    return [payload["name"] for _, payload in sequence], order, basis


# -- merging the two arrays by seq / timestamp ------------------------------------------------------


def test_calls_are_merged_by_seq_each_array_keeping_its_order():
    names, order, basis = _order([("t1", {"seq": 1}), ("t2", {"seq": 2}), ("t5", {"seq": 5})], [("a3", {"seq": 3})])
    assert (names, order, basis) == (["t1", "t2", "a3", "t5"], "observed", "seq")


def test_the_array_that_ends_first_leaves_the_rest_of_the_other_in_order():
    names, order, _ = _order([("t1", {"seq": 1})], [("a2", {"seq": 2}), ("a3", {"seq": 3})])
    assert (names, order) == (["t1", "a2", "a3"], "observed")


def test_equal_keys_within_one_array_are_not_going_backwards():
    names, order, basis = _order([("t1", {"seq": 1}), ("t1b", {"seq": 1})], [("a2", {"seq": 2})])
    assert (names, order, basis) == (["t1", "t1b", "a2"], "observed", "seq")


def test_why_the_order_is_unknown_is_spelled_out():
    names, order, basis = _order([("t2", {"seq": 2}), ("t1", {"seq": 1})], [("a3", {"seq": 3})])
    assert (names, order) == (["t2", "t1", "a3"], "unknown")
    assert basis == ("tool calls and agent calls came in separate arrays without trusys.events "
                     "(seq goes backwards within the tool calls; 2 tool call(s) without a usable timestamp)")


def test_a_nan_seq_orders_nothing():
    _, order, basis = _order([("t", {"seq": float("nan")})], [("a", {"seq": 1})])
    assert order == "unknown" and "1 tool call(s) without a usable seq" in basis


def test_timestamps_of_64_characters_are_read_and_longer_ones_are_not():
    stamp = "2026-12-02T06:00:00"
    longest = " " * (64 - len(stamp)) + stamp  # stripped before parsing, but measured as given
    names, order, basis = _order([("t", {"timestamp": longest})], [("a", {"timestamp": "2026-12-02T06:00:01"})])
    assert (names, order, basis) == (["t", "a"], "observed", "timestamp")
    _, order, basis = _order([("t", {"timestamp": " " + longest})], [("a", {"timestamp": "2026-12-02T06:00:01"})])
    assert order == "unknown" and "1 tool call(s) without a usable timestamp" in basis


def test_a_naive_timestamp_is_read_as_utc_against_aware_ones_whatever_the_local_zone(monkeypatch):
    monkeypatch.setenv("TZ", "Asia/Kolkata")  # UTC+05:30: a naive time read as local would move
    time.tzset()
    try:
        # the agent call at 04:00 UTC (06:00+02:00) came before the tool call at 05:00 (naive: UTC)
        names, order, basis = _order([("t", {"timestamp": "2026-12-02T05:00:00"})],
                                     [("a", {"timestamp": "2026-12-02T06:00:00+02:00"})])
        assert (names, order, basis) == (["a", "t"], "observed", "timestamp")
        names, _, _ = _order([("t", {"timestamp": "2026-12-02T05:00:00"})],
                             [("a", {"timestamp": "2026-12-02T05:10:00Z"})])
        assert names == ["t", "a"]
    finally:
        monkeypatch.undo()
        time.tzset()


# -- trusys.events ----------------------------------------------------------------------------------


def _envelope(**trusys):
    return parse_reply({"output": "x", "trusys": trusys})


def test_events_that_are_not_a_list_are_refused_by_name():
    with pytest.raises(EnvelopeError) as caught:
        _envelope(events="tool_call")
    assert str(caught.value) == "'trusys.events' must be a list, got str"


def test_an_event_without_a_type_is_refused_with_the_types_it_may_have():
    with pytest.raises(EnvelopeError) as caught:
        _envelope(events=[{"type": "message"}, {"name": "x"}])
    assert str(caught.value) == ("'trusys.events[1]' must be an object with a 'type' "
                                 "(tool_call, agent_call, message, …)")


def test_an_event_type_is_stored_stripped():
    outcome = _envelope(events=[{"type": " message ", "content": "hi"}])
    assert outcome.events == [{"type": "message", "content": "hi"}]


def test_agent_call_events_need_a_name_like_the_agent_calls_array():
    with pytest.raises(EnvelopeError) as caught:
        _envelope(events=[{"type": "message"}, {"type": "agent_call", "input": "q"}])
    assert str(caught.value) == "'trusys.events[1]' must be an object with a 'name'"
    with pytest.raises(EnvelopeError) as caught:
        _envelope(agent_calls=[{"input": "q"}])
    assert str(caught.value) == "'trusys.agent_calls[0]' must be an object with a 'name'"


def test_events_the_trace_records_itself_are_refused_with_the_type_to_use():
    with pytest.raises(EnvelopeError) as caught:
        _envelope(events=[{"type": "prompt", "content": "x"}])
    assert str(caught.value) == ("'trusys.events[0]' has type 'prompt', which the trace records itself; "
                                 "use type 'message' for text exchanged during the run")


# -- an answer that is a medium ---------------------------------------------------------------------


def test_a_reply_that_is_a_data_uri_becomes_reply_media_named_output():
    outcome = parse_reply("data:image/png;base64," + base64.b64encode(_PNG).decode())
    assert outcome.output == "data:image/png;base64,… (70 bytes)"
    [ref] = outcome.media
    assert (ref.field, ref.kind, ref.role) == ("output", "image", "reply")
    assert ref.ref.mime == "image/png" and ref.ref.size == 70 and ref.ref.source == outcome.output


def test_a_text_data_uri_is_an_answer_not_a_medium():
    outcome = parse_reply("data:text/plain,hello")
    assert (outcome.output, outcome.media) == ("data:text/plain,hello", None)


# -- tool calls of an adapter's trace ----------------------------------------------------------------


def test_tool_calls_come_from_the_outcome_else_from_the_trace():
    trace = TraceLog()
    trace.record("tool_call", name="search", arguments={"q": "x"})
    trace.record("agent_response", content="done")
    assert tool_calls_of(trace, Outcome(output="x")) == [{"name": "search", "arguments": {"q": "x"}}]
    own = [{"name": "own", "arguments": {}}]
    assert tool_calls_of(trace, Outcome(output="x", tool_calls=own)) == own


# -- envelope shape errors: each names the field and what it got ---------------------------------------


@pytest.mark.parametrize("reply, message", [
    ({"output": "x", "trusys": "meta"}, "'trusys' must be an object, got str"),
    ({"output": "x", "trusys": {"tool_calls": {"name": "t"}}}, "'trusys.tool_calls' must be a list, got dict"),
    ({"output": "x", "trusys": {"tool_calls": [{"name": "t"}, "u"]}}, "'trusys.tool_calls[1]' must be an object"),
    ({"output": "x", "trusys": {"tool_calls": [{"arguments": {}}]}}, "'trusys.tool_calls[0]' has no 'name'"),
    ({"output": "x", "trusys": {"agent_calls": "g"}}, "'trusys.agent_calls' must be a list, got str"),
    ({"output": "x", "trusys": {"agent_calls": [{"name": "g"}, {}]}},
     "'trusys.agent_calls[1]' must be an object with a 'name'"),
    ({"output": "x", "trusys": {"events": [{"type": "tool_call", "name": "a"}], "tool_calls": [{"name": "b"}]}},
     "'trusys.events' and 'trusys.tool_calls' list different tool calls; send the calls in one of them "
     "(events carries their order)"),
    ({"output": "x", "trusys": {"events": [{"type": "agent_call", "name": "a"}], "agent_calls": [{"name": "b"}]}},
     "'trusys.events' and 'trusys.agent_calls' list different agent calls; send the calls in one of them "
     "(events carries their order)"),
    ({"output": "x", "trusys": {"image": ["a.png"]}}, "'trusys.image' must be one media reference (use 'images' for a "
                                                      "list)"),
    ({"output": "x", "trusys": {"context": 3}}, "'trusys.context' must be a string or a list, got int"),
    ({"output": "x", "trusys": {"context": ["ok", {"image": ""}]}}, "'trusys.context[1].image' must not be blank"),
    ({"output": "x", "trusys": {"plan": 3}}, "'trusys.plan' must be a list of steps, got int"),
])
def test_a_malformed_envelope_is_refused_with_what_is_wrong(reply, message):
    with pytest.raises(EnvelopeError) as caught:
        parse_reply(reply)
    assert str(caught.value) == message


def test_an_empty_envelope_adds_nothing():
    outcome = parse_reply({"output": "x", "trusys": None})
    assert (outcome.output, outcome.query, outcome.events, outcome.tool_calls) == ("x", None, None, [])
    # no `output` and nothing else: the answer is empty, not the JSON of an empty object
    assert parse_reply({"trusys": {}}).output == ""


def test_envelope_values_that_are_not_text_are_written_as_json_keeping_non_ascii():
    from datetime import date

    outcome = parse_reply({"output": {"answer": "café", "day": date(2026, 12, 2)}, "trusys": {"query": 3}})
    assert outcome.output == '{"answer": "café", "day": "2026-12-02"}'
    assert outcome.query == "3"


def test_tool_calls_take_openai_function_fields_only_when_they_have_no_name():
    outcome = parse_reply({"output": "x", "trusys": {"tool_calls": [
        {"name": "own", "function": {"name": "fn", "arguments": '{"a": 1}'}},
        {"function": {"name": "fn", "arguments": '{"a": 1}'}},
        {"name": "bare"},
    ]}})
    assert outcome.tool_calls == [
        {"name": "own", "function": {"name": "fn", "arguments": '{"a": 1}'}, "arguments": {}},
        {"function": {"name": "fn", "arguments": '{"a": 1}'}, "name": "fn", "arguments": {"a": 1}},
        {"name": "bare", "arguments": {}},
    ]


def test_context_items_give_their_text_and_image_items_become_context_media():
    outcome = parse_reply({"output": "x", "trusys": {"context": [
        {"image": "https://example.com/a.png", "text": "a chart"}, "plain", {"content": "c"}, {"text": "t"},
        {"page_content": "p"}, {"image": "https://example.com/b.png"}, {"other": 1}]}})
    assert outcome.context == ["a chart", "plain", "c", "t", "p", '{"other": 1}']
    assert [(m.field, m.kind, m.role, m.ref) for m in outcome.media] == [
        ("trusys.context[0].image", "image", "context", "https://example.com/a.png"),
        ("trusys.context[5].image", "image", "context", "https://example.com/b.png")]


# -- an output that is a medium inside an envelope ------------------------------------------------------


def _uri():
    return "data:image/png;base64," + base64.b64encode(_PNG).decode()


def test_an_inline_medium_as_the_envelope_output_becomes_reply_media_named_output():
    outcome = parse_reply({"output": _uri(), "trusys": {}})
    assert outcome.output == "data:image/png;base64,… (70 bytes)"
    assert [(m.field, m.kind, m.role, m.ref.size) for m in outcome.media] == [("output", "image", "reply", 70)]


def test_output_media_equal_to_the_output_text_is_one_medium():
    import json

    outcome = parse_reply(json.dumps({"output": _uri(), "trusys": {"output_media": _uri()}}))
    assert outcome.output == "data:image/png;base64,… (70 bytes)"
    assert [(m.field, m.role) for m in outcome.media] == [("trusys.output_media", "reply")]


def test_output_media_without_an_output_text_is_shown_by_its_short_reference():
    outcome = parse_reply({"trusys": {"output_media": _uri()}})
    assert outcome.output == "data:image/png;base64,… (70 bytes)"
    assert [m.field for m in outcome.media] == ["trusys.output_media"]


# -- tool call failure read from the output -------------------------------------------------------------


@pytest.mark.parametrize("output, failed", [
    ('  {"error": "quota"}', True),  # leading spaces: still read as JSON
    ({"exception": "boom"}, True),
    ({"success": False}, True),
    ({"success": True, "data": 1}, False),
])
def test_an_output_object_reports_failure_by_its_fields(output, failed):
    from agentunit.core.envelope import tool_call_failure

    assert tool_call_failure({"name": "t", "output": output}) == (failed, "output")


def test_json_outputs_are_read_up_to_a_million_characters():
    from agentunit.core.envelope import tool_call_failed

    head = '{"error": "'
    exactly = head + "x" * (1_000_000 - len(head) - 2) + '"}'
    assert len(exactly) == 1_000_000 and tool_call_failed({"name": "t", "output": exactly})
    longer = head + "x" * (1_000_001 - len(head) - 2) + '"}'
    assert not tool_call_failed({"name": "t", "output": longer})  # classified from its text: not an error report


def test_usage_and_logprobs_are_kept_only_in_their_shapes():
    kept = parse_reply({"output": "x", "trusys": {"usage": {"total_tokens": 3}, "logprobs": [-0.5, -0.25],
                                                   "cost": 2}})
    assert (kept.usage, kept.logprobs, kept.cost) == ({"total_tokens": 3}, [-0.5, -0.25], 2.0)
    dropped = parse_reply({"output": "x", "trusys": {"usage": 3, "logprobs": {"a": -0.5}, "cost": "2"}})
    assert (dropped.usage, dropped.logprobs, dropped.cost) == (None, None, None)


def test_the_trace_opens_with_the_prompt_then_the_answer():
    from agentunit.core.envelope import build_trace

    trace = build_trace(Outcome(output="answer"), "question")
    assert [(e.type, e.payload) for e in trace.events] == [("prompt", {"content": "question"}),
                                                          ("agent_response", {"content": "answer"})]


def test_the_trace_says_how_it_knows_the_call_order():
    from agentunit.core.envelope import build_trace

    plain = build_trace(Outcome(output="a")).metadata
    assert (plain["order"], plain["order_basis"]) == ("observed", "no calls")
    empty_events = build_trace(Outcome(output="a", events=[])).metadata
    assert (empty_events["order"], empty_events["order_basis"]) == ("observed", "trusys.events")
    agents_only = build_trace(Outcome(output="a", agent_calls=[{"name": "g"}]))
    assert [(e.type, e.payload) for e in agents_only.events] == [("agent_call", {"name": "g"}),
                                                                ("agent_response", {"content": "a"})]
    assert agents_only.metadata["order_basis"] == "one kind of call"


def test_json_text_is_read_for_an_envelope_only_when_asked_and_despite_leading_spaces():
    text = '  {"output": "x", "trusys": {"query": "q"}}'
    assert (parse_reply(text).output, parse_reply(text).query) == ("x", "q")
    assert parse_reply(text, parse_text_json=False).output == text


def test_json_text_holding_a_medium_or_an_output_medium_becomes_reply_media():
    import json

    encoded = base64.b64encode(_PNG).decode()
    cases = ((json.dumps({"base64": encoded, "mime": "image/png"}), "{base64: … (70 bytes), mime: image/png}"),
             (json.dumps({"output": _uri()}), "data:image/png;base64,… (70 bytes)"))
    for text, shown in cases:
        outcome = parse_reply(text)
        assert outcome.output == shown
        assert [(m.field, m.kind, m.role) for m in outcome.media] == [("output", "image", "reply")]
    plain = '{"output": "just text"}'
    assert (parse_reply(plain).output, parse_reply(plain).media) == (plain, None)


def test_multi_agent_fields_of_the_envelope_reach_the_trace():
    from agentunit.core.envelope import build_trace

    outcome = parse_reply({"output": "a", "trusys": {"interactions": [{"from": "a", "to": "b"}],
                                                     "handoffs": [{"from": "a", "to": "c"}],
                                                     "conflicts": [{"agents": ["b", "c"]}],
                                                     "agent_roles": {"a": "planner"}, "handoffs_note": "kept"}})
    trace = build_trace(outcome)
    assert trace.interactions == [{"from": "a", "to": "b"}] and trace.handoffs == [{"from": "a", "to": "c"}]
    assert trace.conflicts == [{"agents": ["b", "c"]}] and trace.agent_roles == {"a": "planner"}


def test_replies_that_are_not_text_are_written_as_json_text():
    assert parse_reply({"answer": 1, "city": "Zürich"}).output == '{"answer": 1, "city": "Zürich"}'
    assert parse_reply(42).output == "42"
    assert parse_reply([1, "é"]).output == '[1, "é"]'
    assert parse_reply(None).output == ""


def test_a_python_reply_that_is_a_medium_becomes_reply_media():
    encoded = base64.b64encode(_PNG).decode()
    for reply in ({"base64": encoded, "mime": "image/png"}, _PNG):
        outcome = parse_reply(reply)
        assert [(m.field, m.kind, m.role) for m in outcome.media] == [("output", "image", "reply")]
        assert "(70 bytes)" in outcome.output


def test_json_text_whose_output_is_a_text_data_uri_stays_the_whole_text():
    text = '{"output": "data:text/plain,hello"}'
    assert (parse_reply(text).output, parse_reply(text).media) == (text, None)
