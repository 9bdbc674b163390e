"""agentunit.assert_passes: every metric that did not pass is listed; not measured is not a pass."""

from __future__ import annotations

import pytest

import agentunit


def test_passing_metrics_return_their_results() -> None:
    results = agentunit.assert_passes("Paris is the capital", ["contains", {"metric": "icontains", "value": "paris"}],
                                      expected_output="Paris")
    assert [r.status for r in results] == ["passed", "passed"]


def test_every_failure_is_listed_with_value_threshold_and_reason() -> None:
    with pytest.raises(AssertionError) as raised:
        agentunit.assert_passes("It is 18C in Lyon", [
            {"metric": "contains", "value": "Paris"}, {"metric": "contains", "value": "18C"},
            {"metric": "levenshtein", "value": "It is 18C in Paris", "threshold": 0.9}])
    text = str(raised.value)
    assert text.startswith("2 of 3 metric(s) did not pass:")
    assert "contains: failed, value 0 — 'Paris' not found in output" in text
    assert "levenshtein: failed, value " in text and "threshold 0.9" in text
    assert "'18C'" not in text


def test_not_measured_is_not_a_pass_unless_allowed() -> None:
    with pytest.raises(AssertionError, match="tool-correctness: not measured"):
        agentunit.assert_passes("done", "tool-correctness")
    agentunit.assert_passes("done", "tool-correctness", allow_unmeasured=True)
    agentunit.assert_passes("done", ["tool-correctness", {"metric": "contains", "value": "done"}],
                            allow_unmeasured=True)


def test_tool_calls_in_an_envelope() -> None:
    reply = {"output": "Booked.", "trusys": {"events": [
        {"type": "tool_call", "name": "search", "arguments": {"q": "Paris"}},
        {"type": "tool_call", "name": "book", "arguments": {"id": 1}}]}}
    agentunit.assert_passes(reply, {"metric": "tool-correctness", "config": {"mode": "exact"}},
                            expected_tools=["search", "book"])
    with pytest.raises(AssertionError, match="tool-correctness: failed"):
        agentunit.assert_passes(reply, {"metric": "tool-correctness", "config": {"mode": "exact"}},
                                expected_tools=["book", "search"])


def test_usage_errors() -> None:
    with pytest.raises(TypeError, match="needs metrics"):
        agentunit.assert_passes("x")
    with pytest.raises(TypeError, match="empty list"):
        agentunit.assert_passes("x", [])
    with pytest.raises(TypeError, match="unknown field"):
        agentunit.assert_passes("x", "contains", expected="x")
