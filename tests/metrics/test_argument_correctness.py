import pytest

from agentunit import check
from agentunit.judges.base import JudgeReply
from agentunit.metrics.agentic import (
    argument_agreement,
    compared_with_own,
    values_in_text_unsupported,
    values_not_asked_for,
)
from tests.judge_helpers import pass_with, scripted_judge

TOOLS = [{"type": "function", "function": {"name": "get_weather", "description": "Weather for a city",
                                           "parameters": {"type": "object", "required": ["city"],
                                                          "properties": {"city": {"type": "string"}}}}}]


def _fits(request):
    return pass_with(0.9 if '"Paris"' in request.messages[-1][1] else 0.1)


@pytest.fixture
def arg_judge():
    with scripted_judge(_fits, "arg-judge") as provider:
        yield provider


def test_schema_failures_score_zero_without_a_judge_call(arg_judge):
    result = check("x", "argument-correctness", tools=TOOLS, query="Weather in Paris?",
                   tool_calls=[{"name": "get_weather", "arguments": {"town": "Paris"}}])
    assert result.value == 0.0 and "'city' is a required property" in result.detail["calls"][0]["schema_errors"][0]
    assert arg_judge.requests == []


def test_valid_arguments_are_judged_for_fit(arg_judge):
    good = check("x", "argument-correctness", tools=TOOLS, query="Weather in Paris?",
                 tool_calls=[{"name": "get_weather", "arguments": {"city": "Paris"}}])
    bad = check("x", "argument-correctness", tools=TOOLS, query="Weather in Paris?",
                tool_calls=[{"name": "get_weather", "arguments": {"city": "Rome"}}])
    assert good.value == pytest.approx(0.9) and good.passed and bad.value == pytest.approx(0.1)
    mixed = check("x", "argument-correctness", tools=TOOLS, query="Weather in Paris?",
                  tool_calls=[{"name": "get_weather", "arguments": {"city": "Paris"}},
                              {"name": "get_weather", "arguments": {}}])
    assert mixed.value == pytest.approx(0.45) and "check get_weather" in mixed.reason and mixed.passed is False


def test_schema_only_mode_and_not_measured(arg_judge):
    schema_only = check("x", {"metric": "argument-correctness", "config": {"judge": False, "tools": TOOLS}},
                        tool_calls=[{"name": "get_weather", "arguments": {"city": "Oslo"}}])
    assert schema_only.value == 1.0 and arg_judge.requests == []
    assert check("x", "argument-correctness").status == "not_measured"


def test_schema_only_mode_leaves_calls_without_a_schema_unchecked(arg_judge):
    result = check("x", {"metric": "argument-correctness", "config": {"judge": False, "tools": TOOLS}},
                   tool_calls=[{"name": "get_weather", "arguments": {"city": "Oslo"}},
                               {"name": "send_email", "arguments": {"to": "x"}}])
    assert result.value == 1.0 and result.detail["not_checked"] == ["send_email"]
    assert "not checked (no schema, judge off): send_email" in result.reason and arg_judge.requests == []
    nothing = check("x", {"metric": "argument-correctness", "config": {"judge": False}},
                    tool_calls=[{"name": "send_email", "arguments": {}}])
    assert nothing.status == "not_measured" and "send_email" in nothing.reason


# -- the judge's own arguments for the call -------------------------------------------------------------


def _fits_and_fills(own_text):
    """P(fit) 0.6 for any arguments; asked to fill the call itself (a generation), ``own_text``."""

    def respond(request):
        return JudgeReply(own_text) if not request.options else pass_with(0.6)

    return respond


@pytest.mark.parametrize(("own", "value"), [
    ('{"city": "Paris", "days": 3}', 0.8),     # every compared argument equal: half-way to 1
    ('{"city": "paris", "days": 3.0}', 0.8),   # text compared without case, numbers by value
    ('{"city": "Paris", "days": 4}', 0.3),     # a number differs: halved
    ('{"city": "Paris, France", "days": 3}', 0.6),  # text partly equal (F1 0.67): kept
    ('{"city": "Rome", "days": 3}', 0.6),      # text that differs does not lower it
    ('["Paris"]', 0.6),                         # not a JSON object: not compared
])
def test_the_arguments_are_compared_with_the_judges_own(own, value):
    properties = {"city": {"type": "string"}, "days": {"type": "integer"}}
    tools = [{"name": "forecast", "description": "Forecast for a city",
              "parameters": {"type": "object", "properties": properties}}]
    with scripted_judge(_fits_and_fills(own)) as judge:
        result = check("x", "argument-correctness", tools=tools, query="Forecast for Paris, next 3 days?",
                       tool_calls=[{"name": "forecast", "arguments": {"city": "Paris", "days": 3}}])
    call = result.detail["calls"][0]
    assert result.value == pytest.approx(value) and call["judge_probability"] == 0.6
    assert ("agreement" in call) is own.startswith("{")
    (asked,) = [r for r in judge.requests if not r.options]
    assert asked.json_schema == tools[0]["parameters"] and asked.max_tokens == 120
    assert asked.messages == (
        ("system", "You call tools for a user. Reply with the tool's arguments as JSON only."),
        ("user", "User request: Forecast for Paris, next 3 days?\nTool: forecast — Forecast for a city\nParameters "
                 '(JSON Schema): {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": '
                 '"integer"}}}\n\nWrite the arguments this call needs to serve the request, as a JSON object.'))


def test_argument_agreement_by_kind():
    assert argument_agreement(3, "3") == (1.0, "number") and argument_agreement(2.5, 25) == (0.0, "number")
    assert argument_agreement(True, False) == (0.0, "boolean") and argument_agreement(True, 1) == (0.0, "boolean")
    assert argument_agreement("Los Angeles Lakers", "Lakers") == (0.5, "text")
    assert argument_agreement(["a", "b"], ["a", "b"]) == (1.0, "items")
    assert argument_agreement([1, 2], [1, 2]) == (1.0, "text")  # a list of numbers: as JSON text


def test_a_boolean_that_differs_halves_and_no_shared_argument_keeps():
    assert compared_with_own(0.8, {"metric": True}, {"metric": False}) == (0.4, {"metric": 0.0})
    assert compared_with_own(0.8, {"a": 1}, {"b": 1}) == (0.8, {})
    assert compared_with_own(0.8, {"a": "x y"}, {"a": "x y"}) == (pytest.approx(0.9), {"a": 1.0})


def test_a_later_call_is_filled_with_the_earlier_calls_results_in_view():
    tools = [{"name": "geocode", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}},
             {"name": "get_weather", "parameters": {"type": "object", "properties": {"lat": {"type": "number"}}}}]
    geocoded = "lat 48.86 " + "x" * 400  # an earlier result is shown up to 300 characters
    calls = [{"name": "geocode", "arguments": {"city": "Paris"}, "output": geocoded},
             {"name": "get_weather", "arguments": {"lat": 48.86}, "output": "ok"}]
    with scripted_judge(_fits_and_fills('{"lat": 48.8534, "city": "Paris"}')) as judge:
        result = check("x", "argument-correctness", tools=tools, query="Weather in Paris?", tool_calls=calls)
    first, second = [r.messages[1][1] for r in judge.requests if not r.options]
    assert first.startswith("User request: Weather in Paris?\nTool: geocode\n")
    assert second.startswith('User request: Weather in Paris?\nEarlier calls and their results:\n- geocode({"city": '
                             f'"Paris"}}) -> {geocoded[:300]}\nTool: get_weather\n')
    # 48.8534 is within 0.5 % of 48.86: a rounded result still agrees
    assert [c["agreement"] for c in result.detail["calls"]] == [{"city": 1.0}, {"lat": 1.0}]
    assert result.value == pytest.approx(0.8)


def test_own_arguments_that_repeat_an_earlier_call_are_not_compared():
    tools = [{"name": "get_weather", "parameters": {"type": "object", "properties": {"lat": {"type": "number"}}}}]
    calls = [{"name": "get_weather", "arguments": {"lat": 51.51}, "output": "London: 14 °C"},
             {"name": "get_weather", "arguments": {"lat": 35.68}, "output": "Tokyo: 22 °C"}]
    with scripted_judge(_fits_and_fills('{"lat": 51.51}')):  # the judge fills both calls with London
        result = check("x", "argument-correctness", tools=tools, query="Weather in London and Tokyo?",
                       tool_calls=calls)
    london, tokyo = result.detail["calls"]
    assert london["agreement"] == {"lat": 1.0} and london["score"] == pytest.approx(0.8)
    assert tokyo["score"] == pytest.approx(0.6) and "agreement" not in tokyo  # not halved against the copy
    assert tokyo["not_compared"] == "the judge's own arguments repeat an earlier call of this tool"
    # a fill that differs from every earlier call is still compared
    with scripted_judge(_fits_and_fills('{"lat": 40.0}')):
        other = check("x", "argument-correctness", tools=tools, query="Weather in London and Tokyo?",
                      tool_calls=calls)
    assert [c["score"] for c in other.detail["calls"]] == [pytest.approx(0.3), pytest.approx(0.3)]
    # the same arguments as an earlier call of another tool are the judge's fill for this one: compared
    two_tools = [{"name": "geocode", "parameters": {"type": "object", "properties": {"lat": {"type": "number"}}}},
                 *tools]
    with scripted_judge(_fits_and_fills('{"lat": 51.51}')):
        mixed = check("x", "argument-correctness", tools=two_tools, query="Weather in London?",
                      tool_calls=[{"name": "geocode", "arguments": {"lat": 51.51}, "output": "ok"},
                                  {"name": "get_weather", "arguments": {"lat": 51.51}, "output": "14 °C"}])
    weather = mixed.detail["calls"][1]
    assert "not_compared" not in weather and weather["agreement"] == {"lat": 1.0}


def test_numbers_agree_within_half_a_percent():
    assert argument_agreement(48.86, 48.8534) == (1.0, "number") and argument_agreement(200, 199) == (1.0, "number")
    assert argument_agreement(2020, 2002) == (0.0, "number") and argument_agreement(0, 0.001) == (0.0, "number")
    assert argument_agreement(0, 0) == (1.0, "number")


@pytest.mark.parametrize(("own", "given", "expected"), [
    ("19:45", "7:45pm", (1.0, "time")),
    ("09:15", "9:15 am", (1.0, "time")),
    ("00:00", "12am", (1.0, "time")),
    ("12:00", "12 p.m.", (1.0, "time")),
    ("19:45", "17:45", (0.0, "time")),           # an am/pm slip
    ("09:00", "21:00", (0.0, "time")),
    ("2026-05-09", "May 9, 2026", (1.0, "date")),
    ("2026-06-09", "June 9, 2026", (1.0, "date")),
    ("2026-05-05", "5 May 2026", (1.0, "date")),
    ("2026-06-05", "5 June 2026", (1.0, "date")),
    ("2026-06-01", "2026-01-06", (0.0, "date")),  # day and month swapped
    ("jo@acme.com", "Jo@Acme.com", (1.0, "email")),
    ("jo@acme.com", "joe@acme.com", (0.0, "email")),
    ("UA 1234", "UA1234", (1.0, "code")),
    ("UA 1234", "UA1243", (0.0, "code")),
    ("DE", "de", (1.0, "code")),
    ("DE", "GE", (0.0, "code")),
    ("NASDAQ", "Nasdaq", (1.0, "code")),
    ("kilograms", "kg", (1.0, "unit")),
    ("pounds", "lb", (1.0, "unit")),
    ("kilograms", "g", (0.0, "unit")),           # a unit mix-up
    ("seconds", "minutes", (0.0, "unit")),
    (["milk", "eggs", "bread"], ["Bread", "Milk ", "eggs"], (1.0, "items")),  # any order, case ignored
    (["milk", "eggs", "bread"], ["milk", "eggs", "bread", "butter"], (0.0, "items")),  # one nobody asked for
    (["milk", "eggs", "bread"], ["milk", "eggs"], (0.0, "items")),
])
def test_times_dates_addresses_units_lists_and_codes_are_compared_as_values(own, given, expected):
    assert argument_agreement(own, given) == expected


@pytest.mark.parametrize(("own", "given"), [
    ("London", "LON"),        # an abbreviation, not the same code
    ("Spotify", "spotify"),   # a word, not a code
    ("9", "9 am"),            # a bare number is not a time of day
    ("25:00", "1am"),         # not a time
    ("13:00", "13pm"),
    ("May 2026", "2026-05"),  # not a whole date
    ("living room", "in"),    # "in" is not read as inches
])
def test_other_strings_are_compared_as_text(own, given):
    assert argument_agreement(own, given)[1] == "text"


def test_a_time_that_differs_halves_and_equal_values_in_other_forms_lift():
    own = {"restaurant": "Nobu", "date": "2026-05-09", "time": "19:45"}
    assert compared_with_own(0.6, {"restaurant": "Nobu", "date": "2026-05-09", "time": "17:45"}, own)[0] == 0.3
    assert compared_with_own(0.6, {"restaurant": "NOBU", "date": "May 9, 2026", "time": "7:45pm"}, own)[0] == \
        pytest.approx(0.8)


def test_a_value_inside_free_text_that_the_request_does_not_give_halves_the_call():
    tools = [{"name": "send_email", "parameters": {"type": "object", "properties": {
        "to": {"type": "string"}, "body": {"type": "string"}, "date": {"type": "string"}}}}]
    query = "Today is 4 May 2026. Email jo@acme.com tomorrow and ask her to move our call to 4pm."

    def score(arguments, fill='{"to": "jo@acme.com"}'):
        with scripted_judge(_fits_and_fills(fill)):
            return check("x", "argument-correctness", tools=tools, query=query,
                         tool_calls=[{"name": "send_email", "arguments": arguments}])

    wrong = score({"to": "jo@acme.com", "body": "Hi Jo, could we move our call to 2pm?"})
    assert wrong.detail["calls"][0]["unsupported_values"] == ["2pm"] and wrong.value == pytest.approx(0.3)
    # the same time written otherwise, a name, and a date alone (compared with the judge's, not read as text)
    right = score({"to": "jo@acme.com", "body": "Hi Jo, could we move our call to 16:00? Thanks, Sam",
                   "date": "5 May 2026"})
    assert "unsupported_values" not in right.detail["calls"][0] and right.value == pytest.approx(0.8)
    assert values_in_text_unsupported({"body": "Move our call to 2pm"}, " ", []) == []  # no request to read
    # halved once, also when the judge's own arguments cannot be compared
    assert score({"body": "Move our call to 2pm please"}, fill="not json").value == pytest.approx(0.3)
    assert score({"to": "jo@acme.com", "body": "Move our call to 2pm please"}, fill='{"to": "jo@acme.com", '
                 '"body": "Move our call to 4pm"}').value == pytest.approx(0.3)


@pytest.mark.parametrize(("given", "own", "flagged"), [
    ("sell", "buy", True),                           # the other side than the one asked for
    ("Argentina", "Brazil", True),
    ("Los Angeles Clippers", "Lakers", True),
    ("Los Angeles Lakers", "Lakers", False),         # more words, one of them asked for
    ("Brasil", "Brazil", False),                     # written like a word of the request
    ("LON", "London", False),                        # code-shaped: not read for its words
    ("NYSE", "NASDAQ", False),                       # (so a wrong code is left to the judge)
    ("kg", "kilograms", False),                      # a unit, compared as a unit
    ("Lyon", "Paris", False),                        # the judge inferred its value too: nothing to go by
    ("please move the call to Friday", "move the call", False),  # free text
])
def test_a_short_text_argument_naming_what_the_request_does_not_is_found(given, own, flagged):
    request = {"Paris": "Weather in France's capital?", "London": "Flights from London"}.get(
        own, "Buy 10 shares of Brazil's biggest miner on the NASDAQ for the Lakers fan, in kilograms; move the call")
    assert values_not_asked_for({"x": given}, {"x": own}, request) == ([given] if flagged else [])


def test_a_value_not_asked_for_halves_the_call_and_is_named():
    tools = [{"name": "trade", "parameters": {"type": "object", "properties": {
        "ticker": {"type": "string"}, "side": {"type": "string"}}}}]
    with scripted_judge(_fits_and_fills('{"ticker": "AAPL", "side": "buy"}')):
        wrong = check("x", "argument-correctness", tools=tools, query="Buy 10 shares of Apple.",
                      tool_calls=[{"name": "trade", "arguments": {"ticker": "AAPL", "side": "sell"}}])
        right = check("x", "argument-correctness", tools=tools, query="Buy 10 shares of Apple.",
                      tool_calls=[{"name": "trade", "arguments": {"ticker": "AAPL", "side": "Buy"}}])
    assert wrong.detail["calls"][0]["not_in_request"] == ["sell"] and wrong.value == pytest.approx(0.3)
    assert "not_in_request" not in right.detail["calls"][0] and right.value == pytest.approx(0.8)
