"""The promptfoo-compatible metrics: config errors, absent inputs, trajectory sources, judged ones
with a scripted judge, meteor offline."""

from __future__ import annotations

import json

import pytest

from agentunit import check
from agentunit.errors import MetricConfigError
from agentunit.metrics import create_metric
from tests.judge_helpers import pass_with, scripted_judge

CALLS = [{"name": "search", "arguments": {"q": "paris"}}, {"name": "book", "arguments": '{"city": "Paris"}'}]


@pytest.mark.parametrize(("name", "value", "words"), [
    ("trajectory:tool-used", None, "needs a value"),
    ("trajectory:tool-used", [], "at least one"),
    ("trajectory:tool-used", {"min": 1}, "name"),
    ("trajectory:tool-sequence", {"mode": "fuzzy", "steps": ["a"]}, "mode"),
    ("trajectory:tool-sequence", [{"type": "tool"}], "step 1"),
    ("trajectory:tool-args-match", {"name": "a"}, "args"),
    ("trajectory:tool-args-match", {"name": "a", "args": {}, "mode": "fuzzy"}, "mode"),
    ("trajectory:tool-args-match", {"name": "a", "args": {}, "ignore": [""]}, "ignore"),
    ("trajectory:step-count", {"type": "tool"}, "min"),
    ("trajectory:step-count", {"type": "planet", "max": 1}, "type"),
    ("trajectory:goal-success", {"aim": "x"}, "goal"),
    ("meteor", [1, 2], "reference"),
    ("model-graded-closedqa", "  ", "empty"),
    ("is-valid-openai-function-call", [{"description": "no name"}], "function name"),
])
def test_bad_values_are_config_errors(name, value, words):
    with pytest.raises(MetricConfigError, match=words):
        create_metric(name, value=value)


def test_meteor_parameters_are_checked():
    with pytest.raises(MetricConfigError, match=r"config\.alpha"):
        create_metric("meteor", value="x", config={"alpha": "high"})


def test_meteor_needs_a_reference_and_no_download():
    with pytest.raises(MetricConfigError, match="value or expected_output"):
        check("a cat", "meteor")
    result = check("The cats sat on the mats", {"metric": "meteor", "value": "The cat sat on the mat"})
    assert 0.9 < result.value <= 1.0 and result.passed  # Porter stems match: cats → cat


def test_trajectory_reads_the_envelope_the_output_and_nothing():
    envelope = {"output": "ok", "trusys": {"tool_calls": CALLS}}
    used = check(envelope, {"metric": "trajectory:tool-used", "value": ["search", "book"]})
    assert used.passed and used.detail["source"] == "reply"
    openai = json.dumps({"tool_calls": [{"function": {"name": "book", "arguments": '{"city": "Paris"}'}}]})
    args = check(openai, {"metric": "trajectory:tool-args-match", "value": {"name": "book", "args": {"city": "Paris"}}})
    assert args.passed and args.detail["source"] == "output"
    none = check("no tools here", {"metric": "trajectory:tool-used", "value": "search"})
    assert none.passed is False and "actual tools: (none)" in none.reason


def test_tool_calls_keep_their_observed_order_with_agent_calls():
    envelope = {"output": "ok", "trusys": {"events": [
        {"type": "agent_call", "name": "planner"}, {"type": "tool_call", "name": "search"},
        {"type": "message", "content": "hi"}, {"type": "tool_call", "name": "book"}]}}
    count = check(envelope, {"metric": "trajectory:step-count", "value": {"type": ["agent", "message"], "max": 2}})
    assert count.passed and count.detail["steps"] == ["agent:planner", "tool:search", "message:message", "tool:book"]
    order = check(envelope, {"metric": "trajectory:tool-sequence", "value": {"mode": "exact", "steps": ["book",
                                                                                                        "search"]}})
    assert order.passed is False


def test_goal_success_sends_the_trajectory_and_the_output_to_the_judge():
    with scripted_judge(lambda request: pass_with(0.8)) as judge:
        result = check({"output": "Booked Paris.", "trusys": {"tool_calls": CALLS}},
                       {"metric": "trajectory:goal-success", "value": {"goal": "Book a trip to Paris"}})
    assert result.passed and result.value == pytest.approx(0.8)
    asked = judge.requests[0].messages[-1][1]
    assert "Book a trip to Paris" in asked and '"name": "search"' in asked and "Booked Paris." in asked


def test_closedqa_decides_the_criterion_as_llm_rubric_does():
    with scripted_judge(lambda request: pass_with(0.7)) as judge:
        result = check("The order is delayed.", {"metric": "model-graded-closedqa", "value": "Says it shipped"},
                       query="Has my order shipped?")
    assert result.value == pytest.approx(0.7) and result.passed is False  # llm-rubric's mark: 0.75
    assert result.reason.startswith('criterion "Says it shipped"')
    (asked,) = judge.requests
    assert asked.messages[-1][1] == ("Question: Has my order shipped?\nText: The order is delayed.\n\nStatement: The "
                                     "text says it shipped.\n\nIs the statement true? Answer yes or no.")
    with scripted_judge(lambda request: pass_with(0.9)) as judge:
        compound = check("Your order shipped.", {"metric": "model-graded-closedqa",
                                                 "value": "Says it shipped and is at most 2 sentences"})
    assert compound.passed and len(compound.detail["criteria"]) == 2 and len(judge.requests) == 1  # form by code
    with scripted_judge(lambda request: pass_with(0.9)):
        too_long = check("It shipped. It left Monday. It arrives Friday.",
                         {"metric": "model-graded-closedqa", "value": "Says it shipped and is at most 2 sentences"})
    assert too_long.value == 0.0 and too_long.passed is False


def test_function_call_without_schemas_is_an_error_and_case_tools_work():
    call = json.dumps({"function_call": {"name": "get_weather", "arguments": {"city": "Oslo"}}})
    assert check(call, "is-valid-openai-function-call").error is not None
    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {
        "type": "object", "required": ["city"]}}}]
    assert check(call, "is-valid-openai-function-call", tools=tools).passed


def test_is_refusal_counts_a_blank_output_as_a_refusal():
    assert check("  ", "is-refusal").passed is True
    assert check("Sure, here it is.", "not-is-refusal").passed is True


def test_goal_success_passes_at_the_mark_chosen_on_the_tune_rows():
    for probability, passed in ((0.3, True), (0.2, False)):
        with scripted_judge(lambda request, p=probability: pass_with(p)):
            result = check({"output": "Booked Paris.", "trusys": {"tool_calls": CALLS}},
                           {"metric": "trajectory:goal-success", "value": "Book a trip to Paris"})
        assert result.passed is passed
