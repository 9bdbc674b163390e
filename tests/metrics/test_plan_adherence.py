"""plan-adherence: deterministic alignment first, the judge only for steps the trace cannot settle."""

import json

import pytest

from agentunit import check
from agentunit.errors import MetricConfigError
from agentunit.judges.base import JudgeReply
from agentunit.metrics import create_metric
from tests.judge_helpers import pass_with, scripted_judge


def _step_done(request):
    return pass_with(0.8 if "confirm" in request.messages[-1][1].split("Plan step:")[-1].lower() else 0.2)


@pytest.fixture
def step_judge():
    with scripted_judge(_step_done, "step-judge") as provider:
        yield provider


def calls(*names):
    return [{"name": n} for n in names]


@pytest.mark.parametrize(("plan", "executed", "score"), [
    (["search flights", "book flight"], ("search", "book"), 1.0),
    (["search flights", "book flight"], ("book", "search"), 0.5),            # out of order: one step aligned
    (["search flights", "book flight", "send email"], ("search", "book"), 2 / 3),
    ([{"tool": "get_weather"}, "Summarize"], ("get_weather",), None),       # second step goes to the judge
    (["Get weather for Paris", "book hotel"], ("get_weather", "book_hotel"), 1.0),
])
def test_alignment(step_judge, plan, executed, score):
    result = check("done", "plan-adherence", plan=plan, tool_calls=calls(*executed),
                   tools=["search", "book", "send_email", "get_weather", "book_hotel"])
    if score is not None:
        assert result.value == pytest.approx(score) and step_judge.requests == []
    else:
        assert [s["method"] for s in result.detail["steps"]] == ["aligned", "judge"]
        assert result.value == pytest.approx((1 + 0.2) / 2) and len(step_judge.requests) == 1


def test_judge_only_for_ambiguous_steps_and_not_measured_without_plan(step_judge):
    result = check("Booked and confirmed.", "plan-adherence", plan=["search hotels", "Confirm with the user"],
                   tool_calls=calls("search"))
    assert result.detail["judge_calls"] == 1 and result.value == pytest.approx((1 + 0.8) / 2)
    assert check("x", "plan-adherence", tool_calls=calls("a")).status == "not_measured"
    missing = check("x", "plan-adherence", plan=["call send_email"], tool_calls=calls("search"),
                    tools=[{"type": "function", "function": {"name": "send_email"}}])
    assert missing.value == 0.0 and missing.detail["steps"][0]["method"] == "tool not called in order"


def test_without_the_order_between_tool_and_agent_calls(step_judge):
    reply = {"output": "ok", "trusys": {"tool_calls": calls("search"), "agent_calls": calls("writer")}}
    tie = check(reply, "plan-adherence", plan=["search flights", "ask the writer agent"])
    # one tool step and one agent step: either may have come first, so the agent step is set aside
    assert [s["method"] for s in tie.detail["steps"]] == ["aligned", "order unknown"]
    assert tie.value == 1.0 and tie.detail["order"] == "unknown" and "1 step(s) order unknown" in tie.reason
    tools_only = check(reply, "plan-adherence", plan=["search flights", "summarise"])
    assert tools_only.detail["steps"][0]["method"] == "aligned" and "order unknown" not in tools_only.reason
    prompt = step_judge.requests[-1].messages[-1][1]
    assert "Tool calls, in order: search\nAgent calls, in order: writer\nThe order between" in prompt
    out_of_order = check({"output": "ok", "trusys": {"tool_calls": calls("book", "search"),
                                                     "agent_calls": calls("writer")}},
                         "plan-adherence", plan=["search flights", "book flight", "ask the writer agent"])
    # search then book was observed out of order among the tool calls themselves: that verdict stands
    assert sorted(s["method"] for s in out_of_order.detail["steps"]) == ["aligned", "order unknown",
                                                                         "tool not called in order"]
    assert out_of_order.value == 0.5


# -- the plan read as a whole: the judge turns it into tool calls, compared in order -------------------------

SLOT_TOOLS = [{"name": "get_free_slots", "description": "Free time of a person"},
              {"name": "create_event", "description": "Put an event in calendars"},
              {"name": "search_web"}]
REWORDED = ["Check when Anna is available tomorrow", "Check when Ben is available tomorrow",
            "Put 'Budget review' in a half hour they share", "Tell the user when it is"]


def _reads_plan_as(plan_text):
    def respond(request):
        if request.json_schema:
            return JudgeReply(plan_text)
        return pass_with(0.2)  # every reworded step failed step by step, as the small judge does

    return respond


@pytest.mark.parametrize(("reading", "made", "score"), [
    ('{"calls": ["get_free_slots", "get_free_slots", "create_event"]}',
     ("get_free_slots", "get_free_slots", "create_event"), 1.0),
    ('{"calls": ["get_free_slots", "get_free_slots", "search_web", "create_event"]}',
     ("get_free_slots", "get_free_slots", "create_event"), 0.75),                      # one call added
    ('{"calls": ["get_free_slots", "get_free_slots", "create_event"]}',
     ("create_event", "get_free_slots", "get_free_slots"), 2 / 3),                     # out of order
    ('{"calls": ["get_free_slots", "get_free_slots", "create_event"]}',
     ("get_free_slots", "create_event"), 2 / 3),                                       # a step skipped
])
def test_the_plan_read_as_a_whole_scores_its_calls_against_those_made_in_order(reading, made, score):
    with scripted_judge(_reads_plan_as(reading)) as judge:
        result = check("Booked.", "plan-adherence", query="Book a meeting with Anna and Ben.", plan=REWORDED,
                       tool_calls=calls(*made), tools=SLOT_TOOLS)
    assert result.value == pytest.approx(score) and result.passed is (score >= 0.7)
    assert result.detail["whole_plan"] == {"plan_calls": json.loads(reading)["calls"], "score": pytest.approx(score)}
    assert result.detail["judge_calls"] == 5 and "read as a whole" in result.reason
    (asked,) = [r for r in judge.requests if r.json_schema]
    assert "Plan:\n1. Check when Anna is available tomorrow\n2. Check when Ben" in asked.messages[-1][1]
    assert asked.json_schema["properties"]["calls"]["items"] == {"enum": ["get_free_slots", "create_event",
                                                                          "search_web"]}


def test_the_step_by_step_reading_stands_when_it_scores_higher_or_the_whole_reading_is_off():
    reading = '{"calls": ["search_web"]}'
    made = calls("get_free_slots", "get_free_slots", "create_event")
    with scripted_judge(_reads_plan_as(reading)):
        lower = check("Booked.", "plan-adherence", plan=REWORDED, tool_calls=made, tools=SLOT_TOOLS)
        off = check("Booked.", {"metric": "plan-adherence", "config": {"read_whole_plan": False}}, plan=REWORDED,
                    tool_calls=made, tools=SLOT_TOOLS)
    assert lower.value == pytest.approx(0.2) and lower.detail["whole_plan"]["score"] == pytest.approx(0)
    assert "read as a whole" not in lower.reason
    assert off.value == pytest.approx(0.2) and "whole_plan" not in off.detail and off.detail["judge_calls"] == 4
    for reply in ('{"calls": [', '{"calls": []}'):
        with scripted_judge(_reads_plan_as(reply)):
            unread = check("Booked.", "plan-adherence", plan=REWORDED, tool_calls=made, tools=SLOT_TOOLS)
        assert unread.value == pytest.approx(0.2)
        assert unread.detail["whole_plan"] == {
            "skipped": "the judge's reading of the plan was empty or not the requested JSON"}
    with pytest.raises(MetricConfigError, match=r"config\.read_whole_plan must be true or false, got 1"):
        create_metric("plan-adherence", config={"read_whole_plan": 1})


def test_tools_listed_in_the_config_count_as_the_case_s_tools(step_judge):
    for tools in (["send_email"], [{"type": "function", "function": {"name": "send_email"}}]):
        missing = check("x", {"metric": "plan-adherence", "config": {"tools": tools}}, plan=["call send_email"],
                        tool_calls=calls("search"))
        assert missing.value == 0.0 and missing.detail["steps"][0]["method"] == "tool not called in order"
    with scripted_judge(_reads_plan_as('{"calls": ["get_free_slots", "get_free_slots", "create_event"]}')):
        read = check("Booked.", {"metric": "plan-adherence", "config": {"tools": SLOT_TOOLS}}, plan=REWORDED,
                     tool_calls=calls("get_free_slots", "get_free_slots", "create_event"))
    assert read.value == pytest.approx(1.0) and read.detail["whole_plan"]["score"] == pytest.approx(1.0)
