import pytest

from agentunit import check
from agentunit.errors import MetricConfigError
from agentunit.judges.base import JudgeReply
from agentunit.metrics import create_metric
from agentunit.metrics.agentic import admits_failure, unrecovered_failures
from tests.judge_helpers import pass_with, scripted_judge

WEATHER_RUN = {"query": "What's the weather in Paris?", "plan": ["call get_weather for Paris", "answer"],
               "tool_calls": [{"name": "get_weather", "arguments": {"city": "Paris"}, "output": "18°C, sunny"}]}


@pytest.fixture
def recorder():
    with scripted_judge(lambda request: pass_with(0.75), "recorder") as provider:
        yield provider


@pytest.mark.parametrize("name", ["task-completion", "goal-fulfillment", "plan-quality", "reasoning-coherence"])
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
    no_tools = check("x", "tool-selection-quality", **WEATHER_RUN)  # calls, but nothing to choose among
    assert no_tools.status == "not_measured" and "set the case's tools or config.tools" in no_tools.reason
    assert recorder.requests == []


# -- tool-selection-quality: the agent's calls against the judge's own plan -------------------------------

TOOLS = [{"type": "function", "function": {"name": "get_forecast", "description": "Forecast for a city",
                                           "parameters": {"type": "object", "properties": {"city": {}, "day": {}}}}},
         {"name": "search_web", "parameters": {"type": "object", "properties": {"query": {}}}},
         {"name": "send_email"}]
REQUEST = "Get tomorrow's forecast for Paris and Rome, then email Sam which will be warmer."


def _planner(plan_text):
    def respond(request):
        assert not request.options  # one generation, no decision
        return JudgeReply(plan_text)

    return respond


def _calls(*names, failed=()):
    return [{"name": name, "arguments": {}, "output": "Error: timeout" if i in failed else "ok"}
            for i, name in enumerate(names)]


@pytest.mark.parametrize(("calls", "value", "missing", "extra"), [
    (_calls("get_forecast", "get_forecast", "send_email"), 1.0, [], []),
    (_calls("send_email", "get_forecast", "get_forecast"), 1.0, [], []),                 # order does not count
    (_calls("get_forecast", "get_forecast", "get_forecast", "send_email", failed=(0,)), 1.0, [], []),  # retried
    (_calls("get_forecast", "send_email"), 0.8, ["get_forecast"], []),                   # a call missing
    (_calls("get_forecast", "search_web", "send_email"), 2 / 3, ["get_forecast"], ["search_web"]),
    (_calls("get_forecast", "get_forecast", "get_forecast", "send_email"), 6 / 7, [], ["get_forecast"]),
    (_calls("search_web"), 0.0, ["get_forecast", "get_forecast", "send_email"], ["search_web"]),
])
def test_tool_selection_is_the_f1_of_the_calls_against_the_judges_plan(calls, value, missing, extra):
    plan = '{"calls": ["get_forecast", "get_forecast", "send_email"]}'
    with scripted_judge(_planner(plan)) as judge:
        result = check("x", "tool-selection-quality", query=REQUEST, tools=TOOLS, tool_calls=calls)
    assert result.value == pytest.approx(value) and result.passed is (value >= 0.85)
    assert (result.detail["missing"], result.detail["extra"]) == (missing, extra)
    assert result.detail["judge_plan"] == ["get_forecast", "get_forecast", "send_email"]
    (asked,) = judge.requests
    assert asked.messages == (
        ("system", "You plan the tool calls an agent needs. Reply with JSON only."),
        ("user", f"User request: {REQUEST}\nAvailable tools:\n- get_forecast: Forecast for a city (arguments: city, "
                 "day)\n- search_web (arguments: query)\n- send_email\n\nList, in order, the tool calls needed to "
                 "carry out the request: one entry per call (a tool called for two things is listed twice), none "
                 "that the request does not need."))
    assert asked.json_schema == {"type": "object", "required": ["calls"], "properties": {"calls": {
        "type": "array", "items": {"enum": ["get_forecast", "search_web", "send_email"]}, "maxItems": 12}}}


def test_a_plan_that_is_not_the_requested_json_is_an_error():
    with scripted_judge(_planner('{"calls": "get_forecast"')):
        result = check("x", "tool-selection-quality", query=REQUEST, tools=TOOLS, tool_calls=_calls("get_forecast"))
    assert result.status == "error" and "plan of tool calls was not the requested JSON" in result.error


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


# -- a run that claims success after a call that failed for good ------------------------------------------

BOOKING = {"query": "Find a slot tomorrow and book the meeting.",
           "tool_calls": [{"name": "get_free_slots", "output": "free 15:00-16:00"},
                          {"name": "create_event", "output": "Error 409: conflict check failed, event not created"}]}
RETRIED = [*BOOKING["tool_calls"], {"name": "create_event", "output": "event created"}]


@pytest.mark.parametrize("name", ["task-completion", "goal-fulfillment", "trajectory:goal-success"])
def test_success_claimed_after_an_unrecovered_failure_fails_without_the_judge(recorder, name):
    spec = {"metric": name, "value": "book the meeting"} if name == "trajectory:goal-success" else name
    claimed = check("I booked the meeting at 15:00.", spec, **BOOKING)
    assert claimed.value == 0.0 and claimed.passed is False
    assert claimed.detail["unrecovered_failures"] == ["create_event"] and "create_event failed" in claimed.reason
    assert recorder.requests == []
    retried = check("I booked the meeting at 15:00.", spec, query=BOOKING["query"], tool_calls=RETRIED)
    admitted = check("The slot is 15:00, but I couldn't create the event: the calendar reported a conflict.", spec,
                     **BOOKING)
    assert retried.value == pytest.approx(0.75) and admitted.value == pytest.approx(0.75)  # the judge decides these
    assert len(recorder.requests) == 2


@pytest.mark.parametrize(("calls", "failed"), [
    ([{"name": "a", "output": "Error: down"}], ["a"]),
    ([{"name": "a", "output": "Error: down"}, {"name": "a", "output": "ok"}], []),
    ([{"name": "a", "output": "Error: down"}, {"name": "b", "output": "ok"}], ["a"]),   # another tool is no retry
    ([{"name": "a", "output": "Error: down"}, {"name": "a", "error": "again"}], ["a", "a"]),
    ([{"name": "a", "output": "ok"}, {"name": "a", "output": "Error: down"}], ["a"]),  # an earlier success is no retry
])
def test_unrecovered_failures_are_failed_calls_never_retried_successfully(calls, failed):
    assert unrecovered_failures(calls) == failed


@pytest.mark.parametrize(("answer", "admits"), [
    ("I couldn't book it.", True), ("I couldn’t book it.", True), ("The booking failed.", True),
    ("Unfortunately the slot is gone.", True), ("The event was not created.", True),
    ("There is no such order.", True), ("I was unable to reach the calendar.", True),
    ("I booked it at 15:00.", False), ("Yoga doesn't fit, so I booked pilates.", False),
    ("Done: the meeting is in both calendars.", False),
])
def test_an_answer_admits_failure_in_plain_words(answer, admits):
    assert admits_failure(answer) is admits


# -- the request's goal call: the last call of the judge's own plan ----------------------------------------

def _plans_then_passes(plan_text):
    def respond(request):
        return pass_with(0.75) if request.options else JudgeReply(plan_text)

    return respond


GOAL_PLAN = '{"calls": ["get_forecast", "get_forecast", "send_email"]}'
GOAL_METRICS = [("task-completion", 0.4), ("goal-fulfillment", 0.6), ("trajectory:goal-success", 0.25)]


GOAL = "Sam learns which of Paris and Rome will be warmer tomorrow."


def _spec(name, **config):
    spec = {"metric": name, "config": config}
    return {**spec, "value": GOAL} if name == "trajectory:goal-success" else spec


@pytest.mark.parametrize(("name", "mark"), GOAL_METRICS)
@pytest.mark.parametrize(("calls", "made"), [
    (_calls("get_forecast", "get_forecast", "send_email"), True),
    (_calls("get_forecast", "send_email", "get_forecast"), True),     # the order of the calls does not count
    (_calls("get_forecast", "get_forecast"), False),                  # looked up, never sent
    (_calls("get_forecast", "search_web"), False),
])
def test_a_run_that_never_makes_the_goal_call_is_halved(name, mark, calls, made):
    with scripted_judge(_plans_then_passes(GOAL_PLAN)) as judge:
        result = check("Rome will be warmer; I emailed Sam.", _spec(name), query=REQUEST, tools=TOOLS,
                       tool_calls=calls)
    assert result.value == pytest.approx(0.75 if made else 0.375)
    assert result.passed is (result.value >= mark)
    assert result.detail["goal_call"] == {"plan": ["get_forecast", "get_forecast", "send_email"],
                                          "goal_call": "send_email", "made": made}
    assert ("halved: the request's goal call send_email" in result.reason) is not made
    (planned,) = [r for r in judge.requests if r.json_schema]
    # trajectory:goal-success plans for its goal, the others for the request
    planned_for = GOAL if name == "trajectory:goal-success" else REQUEST
    assert planned.messages[-1][1].startswith(f"User request: {planned_for}\n")


@pytest.mark.parametrize(("name", "mark"), GOAL_METRICS)
def test_a_goal_call_that_failed_does_not_count_as_made(name, mark):
    calls = [*_calls("get_forecast", "get_forecast"), {"name": "send_email", "output": "Error: mailbox full"}]
    with scripted_judge(_plans_then_passes(GOAL_PLAN)):
        result = check("The forecasts are in, but I couldn't email Sam: the mailbox is full.", _spec(name),
                       query=REQUEST, tools=TOOLS, tool_calls=calls)
    assert result.value == pytest.approx(0.375) and result.detail["goal_call"]["made"] is False


@pytest.mark.parametrize(("name", "mark"), GOAL_METRICS)
def test_the_goal_call_check_is_skipped_without_tools_or_a_plan_and_can_be_turned_off(name, mark):
    looked_up = _calls("get_forecast", "get_forecast")
    with scripted_judge(_plans_then_passes(GOAL_PLAN)) as judge:
        off = check("x", _spec(name, check_goal_call=False), query=REQUEST, tools=TOOLS, tool_calls=looked_up)
        no_tools = check("x", _spec(name), query=REQUEST, tool_calls=looked_up)
    assert off.value == pytest.approx(0.75) and "goal_call" not in off.detail
    assert no_tools.value == pytest.approx(0.75) and "set the case's tools" in no_tools.detail["goal_call"]["skipped"]
    assert not any(r.json_schema for r in judge.requests)
    for plan in ('{"calls": "send_email"', '{"calls": []}'):
        with scripted_judge(_plans_then_passes(plan)):
            unread = check("x", _spec(name), query=REQUEST, tools=TOOLS, tool_calls=looked_up)
        assert unread.value == pytest.approx(0.75)
        assert "empty or not the requested JSON" in unread.detail["goal_call"]["skipped"]
    with pytest.raises(MetricConfigError, match=r"config\.check_goal_call must be true or false, got 'no'"):
        create_metric(name, value=REQUEST if name == "trajectory:goal-success" else None,
                      config={"check_goal_call": "no"})


# -- goal-fulfillment and reasoning-coherence: values the run never saw ---------------------------------

FORECASTS = [{"name": "get_forecast", "arguments": {"city": "Paris"}, "output": "Paris, tomorrow: 18°C, light rain"},
             {"name": "get_forecast", "arguments": {"city": "Rome"}, "output": "Rome, tomorrow: 24°C, sunny"}]


@pytest.mark.parametrize(("name", "mark"), [("goal-fulfillment", 0.6), ("reasoning-coherence", 0.7)])
def test_an_answer_stating_a_value_no_call_gave_is_halved(recorder, name, mark):
    right = check("Rome will be warmer: 24°C against 18°C in Paris, 6 degrees more.",
                  _spec(name, check_goal_call=False), query=REQUEST, tool_calls=FORECASTS)
    wrong = check("Rome will be warmer: 26°C against 18°C in Paris; I told Sam at 9 am.",
                  _spec(name, check_goal_call=False), query=REQUEST, tool_calls=FORECASTS)
    assert right.value == pytest.approx(0.75) and right.detail["unsupported_values"] == []
    assert wrong.value == pytest.approx(0.375)
    assert right.passed is True and wrong.passed is False and wrong.value < mark <= right.value
    assert wrong.detail["unsupported_values"] == ["26", "9 am"]
    assert "halved: the final answer states '26', '9 am', which no call returned" in wrong.reason


def test_the_values_check_reads_the_context_and_can_be_turned_off(recorder):
    answer = "Rome will be warmer (24°C); Sam's office opens at 9 am."
    read = check(answer, "reasoning-coherence", query=REQUEST, tool_calls=FORECASTS,
                 context=["The office opens at 9 am."])
    off = check(answer, {"metric": "reasoning-coherence", "config": {"check_values": False}}, query=REQUEST,
                tool_calls=FORECASTS)
    assert read.value == pytest.approx(0.75) and read.detail["unsupported_values"] == []
    assert off.value == pytest.approx(0.75) and "unsupported_values" not in off.detail
    with pytest.raises(MetricConfigError, match=r"config\.check_values must be true or false, got 1"):
        create_metric("goal-fulfillment", config={"check_values": 1})


def test_task_completion_does_not_check_values(recorder):
    result = check("Rome will be warmer: 26°C.", _spec("task-completion", check_goal_call=False), query=REQUEST,
                   tool_calls=FORECASTS)
    assert result.value == pytest.approx(0.75) and "unsupported_values" not in result.detail


def test_the_values_check_and_the_goal_call_halve_together_and_agent_calls_are_evidence():
    made = [*FORECASTS, {"name": "search_web", "arguments": {"query": "x"}, "output": "nothing"}]
    with scripted_judge(_plans_then_passes(GOAL_PLAN)):
        both = check("Rome will be warmer: 26°C.", "goal-fulfillment", query=REQUEST, tools=TOOLS, tool_calls=made)
    assert both.value == pytest.approx(0.75 / 4)
    assert both.detail["goal_call"]["made"] is False and both.detail["unsupported_values"] == ["26"]
    reply = {"output": "Rome will be warmer: 24°C, and the writer signed it Dana.",
             "trusys": {"tool_calls": FORECASTS, "agent_calls": [{"name": "writer", "output": "Signed, Dana"}]}}
    with scripted_judge(lambda request: pass_with(0.75)):
        signed = check(reply, "reasoning-coherence", query=REQUEST)
    assert signed.value == pytest.approx(0.75) and signed.detail["unsupported_values"] == []


def test_the_transcript_lists_the_tools_of_the_config_or_else_the_case(recorder):
    listed = {"tools": ["get_weather", "geocode"], "check_goal_call": False}
    check("It is 18°C and sunny in Paris.", {"metric": "task-completion", "config": listed}, **WEATHER_RUN)
    assert "Available tools: geocode, get_weather\n" in recorder.requests[-1].messages[-1][1]
    check("It is 18°C and sunny in Paris.", {"metric": "task-completion", "config": {"check_goal_call": False}},
          tools=[{"name": "get_weather"}], **WEATHER_RUN)
    assert "Available tools: get_weather\n" in recorder.requests[-1].messages[-1][1]
