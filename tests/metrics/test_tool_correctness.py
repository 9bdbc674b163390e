"""tool-correctness against hand-computed expectations."""

import pytest

from agentunit import check
from agentunit.errors import MetricConfigError


def calls(*items):
    return [{"name": i} if isinstance(i, str) else {"name": i[0], "arguments": i[1]} for i in items]


W = ("weather", {"city": "Paris"})
S = ("search", {"q": "hotels"})

CASES = [
    # (expected, called, mode, score)
    (["weather"], calls("weather"), "any", 1.0),
    (["weather", "search"], calls("search", "weather"), "any", 1.0),
    (["weather", "search"], calls("search", "weather"), "ordered", 0.5),
    (["weather", "search"], calls("search", "weather"), "exact", 0.0),
    (["weather", "search"], calls("weather", "search"), "exact", 1.0),
    (["weather", "search"], calls("weather"), "any", 0.5),
    (["weather", "search"], calls(), "any", 0.0),
    (["weather"], calls("weather", "weather"), "any", 1.0),                     # duplicate call: extra, no penalty
    (["weather"], calls("weather", "weather"), "exact", 0.0),                   # exact: nothing extra allowed
    (["weather", "weather"], calls("weather"), "any", 0.5),                     # one call serves one expected tool
    (["weather", "weather"], calls("weather", "weather"), "ordered", 1.0),
    ([{"name": "weather", "arguments": {"city": "Paris"}}], calls(W), "any", 1.0),
    ([{"name": "weather", "arguments": {"city": "Paris"}}], calls(("weather", {"city": "Rome"})), "any", 0.5),
    ([{"name": "weather", "arguments": {"city": "Paris"}}], calls(("weather", {"city": "Paris", "unit": "c"})),
     "any", 1.0),                                                               # extra arguments are fine
    ([{"name": "weather", "arguments": {"city": "Paris"}}], calls(("weather", {})), "exact", 0.0),
    ([{"name": "book", "arguments": {"hotel": {"name": "Ritz", "nights": 2}}}],
     calls(("book", {"hotel": {"name": "Ritz", "nights": 2}})), "any", 1.0),   # nested arguments compare deep
    ([{"name": "book", "arguments": {"hotel": {"name": "Ritz", "nights": 2}}}],
     calls(("book", {"hotel": {"name": "Ritz", "nights": 3}})), "any", 0.5),
    (["search", "weather", "book"], calls("search", "log", "weather", "book"), "ordered", 1.0),  # extras between
    (["search", "weather", "book"], calls("book", "search", "weather"), "ordered", 2 / 3),
    (["search", "weather", "book"], calls("book", "search", "weather"), "any", 1.0),
    ([{"name": "weather", "arguments": {"city": "Paris"}}, "weather"],
     calls(("weather", {"city": "Rome"}), W), "any", 1.0),                     # best assignment, not first-come
    ([{"name": "weather", "arguments": {"city": "Paris"}}, "search"],
     calls(("weather", {"city": "Rome"}), "search"), "ordered", 0.75),
    (["a", "b", "c", "d"], calls("d", "c", "b", "a"), "ordered", 0.25),
    (["a", "b"], calls("c", "d"), "any", 0.0),
]


@pytest.mark.parametrize(("expected", "called", "mode", "score"), CASES)
def test_hand_computed_scores(expected, called, mode, score):
    result = check("done", {"metric": "tool-correctness", "value": expected, "config": {"mode": mode}},
                   tool_calls=called)
    assert result.value == pytest.approx(score)
    assert result.passed is (score == 1.0)


def test_detail_explains_partial_credit():
    result = check("done", {"metric": "tool-correctness",
                            "value": ["search", {"name": "weather", "arguments": {"city": "Paris"}}, "book"]},
                   tool_calls=calls(("weather", {"city": "Rome"}), "log", "search"))
    assert result.detail["missing"] == ["book"] and result.detail["wrong_arguments"] == ["weather"]
    assert result.detail["extra"] == ["log"] and result.value == pytest.approx(1.5 / 3)
    assert "missing book" in result.reason and "wrong arguments for weather" in result.reason
    exact = check("done", {"metric": "tool-correctness", "value": ["a", "b"], "config": {"mode": "exact"}},
                  tool_calls=calls("a"))
    assert exact.value == 0.0 and exact.detail["partial_credit"] == 0.5


def test_expected_tools_from_the_case_trace_and_not_measured():
    assert check("x", "tool-correctness", expected_tools=["a"], tool_calls=calls("a")).value == 1.0
    assert check("x", {"metric": "tool-correctness", "value": "a, b"}, tool_calls=calls("b", "a")).value == 1.0
    missing = check("x", "tool-correctness", tool_calls=calls("a"))
    assert missing.status == "not_measured" and "expected tools" in missing.reason
    assert check("x", {"metric": "not-tool-correctness", "value": ["a"]}, tool_calls=calls("b")).passed is True
    with pytest.raises(MetricConfigError):
        check("x", {"metric": "tool-correctness", "value": ["a"], "config": {"mode": "sorted"}})
    with pytest.raises(MetricConfigError):
        check("x", {"metric": "tool-correctness", "value": [42]})


@pytest.mark.parametrize("mode", ["any", "ordered", "exact"])
def test_an_empty_value_means_no_tool_in_every_mode(mode):
    spec = {"metric": "tool-correctness", "value": [], "config": {"mode": mode}}
    assert check("x", spec).passed is True
    called = check("x", spec, tool_calls=calls("rm", "ls"))
    assert called.value == 0.0 and called.reason == "no tool expected; unexpected calls: rm, ls"
    assert called.detail["extra"] == ["rm", "ls"]
    # a blank string is no list at all: not measured, like an absent value
    assert check("x", {"metric": "tool-correctness", "value": " "}, tool_calls=calls("rm")).status == "not_measured"
    with pytest.raises(MetricConfigError, match="must be a list"):
        check("x", {"metric": "tool-correctness", "value": {"name": "a"}})
