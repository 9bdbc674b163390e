"""execution-efficiency against hand-computed counts."""

import pytest

from agentunit import check


def c(name, args=None, **extra):
    return {"name": name, "arguments": args or {}, **extra}


CASES = [
    # (calls, plan, score, redundant, retried, beyond_plan)
    ([c("search", {"q": "a"})], None, 1.0, 0, 0, 0),
    ([c("search", {"q": "a"}), c("search", {"q": "a"})], None, 0.5, 1, 0, 0),
    ([c("search", {"q": "a"}), c("search", {"q": "b"})], None, 1.0, 0, 0, 0),          # different arguments
    ([c("pay", status="error"), c("pay")], None, 0.5, 0, 1, 0),                           # failed, then retried
    ([c("pay", status="error")], None, 1.0, 0, 0, 0),                                      # failed, not retried
    ([c("pay", error="timeout"), c("pay", error="timeout"), c("pay")], None, 1 / 3, 0, 2, 0),
    ([c("search"), c("weather"), c("book")], ["search for hotels", "book the hotel"], 2 / 3, 0, 0, 1),
    ([c("get_weather"), c("book")], ["Get weather for the city", {"tool": "book"}], 1.0, 0, 0, 0),
    ([c("search", {"q": "a"}), c("search", {"q": "a"}), c("log")], ["search"], 1 / 3, 1, 0, 1),
    ([c("a"), c("b"), c("a"), c("b"), c("a"), c("b")], None, 1 / 3, 4, 0, 0),          # loop of identical calls
]


@pytest.mark.parametrize(("calls", "plan", "score", "redundant", "retried", "beyond"), CASES)
def test_hand_computed_waste(calls, plan, score, redundant, retried, beyond):
    result = check("done", "execution-efficiency", tool_calls=calls, plan=plan)
    assert result.value == pytest.approx(score)
    assert (result.detail["redundant"], result.detail["retried"], result.detail["beyond_plan"]) == \
        (redundant, retried, beyond)


def test_loops_are_reported_and_empty_traces_not_measured():
    calls = [c("search", {"p": i // 2}) if i % 2 == 0 else c("read", {"p": i // 2}) for i in range(6)]
    result = check("done", "execution-efficiency", tool_calls=calls)
    assert result.value == 1.0  # paging with new arguments is not waste …
    assert result.detail["loops"] == [{"tools": ["search", "read"], "repeats": 3, "start": 0}]  # … but is a loop
    assert check("done", "execution-efficiency").status == "not_measured"
    assert check("done", {"metric": "execution-efficiency", "threshold": 0.9},
                 tool_calls=[c("a"), c("a")]).passed is False
