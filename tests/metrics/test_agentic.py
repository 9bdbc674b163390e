from agentunit import check


def test_tool_success_share_default_threshold_and_not_measured():
    calls = [{"name": "a"}, {"name": "b", "status": "error"}, {"name": "c"}, {"name": "d", "success": False}]
    result = check("x", "tool_success", tool_calls=calls)
    assert result.value == 0.5 and result.passed is False and result.detail["failed"] == ["b", "d"]
    assert check("x", {"metric": "tool_success", "threshold": 0.5}, tool_calls=calls).passed is True
    assert check("x", "tool_success", tool_calls=[{"name": "a"}]).passed is True
    empty = check("x", "tool_success", tool_calls=[])
    assert empty.value is None and "no tool calls" in empty.reason


def test_tool_success_classifies_calls_without_a_status_from_their_output():
    calls = [{"name": "a", "output": "ValueError: bad id"}, {"name": "b", "status": "ok", "output": "Error: shown"},
             {"name": "c", "output": {"rows": 2}}]
    result = check("x", "tool_success", tool_calls=calls)
    assert result.value == 2 / 3 and result.detail["failed"] == ["a"]
    assert result.detail["classified_from_output"] == [{"call": 0, "name": "a", "failed": True},
                                                       {"call": 2, "name": "c", "failed": False}]
    assert result.reason == "2/3 tool calls succeeded; 2 without a status classified from their output (1 error-shaped)"
