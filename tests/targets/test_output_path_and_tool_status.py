"""``output_path`` (how an http target reads its answer out of a JSON reply) and the HTTP-status rule of
a failed tool call: the exact steps, the errors that name the failing step, the 400 boundary."""

import pytest

from agentunit.core.envelope import tool_call_failure
from agentunit.targets._http import extract_path

REPLY = {"data": {"choices": [{"text": "first"}, {"text": "second"}], "id": 7}}


@pytest.mark.parametrize("path", ["data.choices.1.text", "data.choices[1].text", "$.data.choices[1].text",
                                  " $.data.choices.1.text. ", ".data..choices.1.text"])
def test_every_spelling_of_a_path_reaches_the_same_value(path):
    assert extract_path(REPLY, path) == "second"


def test_an_empty_path_is_the_whole_reply():
    assert extract_path(REPLY, "") is REPLY and extract_path(REPLY, "$") is REPLY


def test_a_missing_step_names_itself_and_what_there_is():
    with pytest.raises(KeyError) as raised:
        extract_path(REPLY, "data.answer")
    assert raised.value.args[0] == "no 'answer' (have: choices, id)"
    many = {f"k{i}": i for i in range(12)}
    with pytest.raises(KeyError) as raised:
        extract_path(many, "nope")
    assert raised.value.args[0] == f"no 'nope' (have: {', '.join(f'k{i}' for i in range(10))})"
    with pytest.raises(KeyError) as raised:
        extract_path(REPLY, "data.id.value")
    assert raised.value.args[0] == "no 'value' (have: int)"
    with pytest.raises(KeyError) as raised:
        extract_path(REPLY, "data.choices.5")
    assert raised.value.args[0] == "no index '5' in a list of 2"


@pytest.mark.parametrize(("status", "failed"), [(399, False), (400, True), (401, True), (200, False), (True, False),
                                                ("error", True), (" Failed ", True), ("ok", False)])
def test_a_tool_call_with_an_http_status_fails_from_400(status, failed):
    assert tool_call_failure({"name": "fetch", "status": status}) == (failed, "status")
