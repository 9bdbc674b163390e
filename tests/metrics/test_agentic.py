from agentunit import check


def test_tool_success_share_default_threshold_and_not_measured():
    calls = [{"name": "a"}, {"name": "b", "status": "error"}, {"name": "c"}, {"name": "d", "success": False}]
    result = check("x", "tool_success", tool_calls=calls)
    assert result.value == 0.5 and result.passed is False and result.detail["failed"] == ["b", "d"]
    assert check("x", {"metric": "tool_success", "threshold": 0.5}, tool_calls=calls).passed is True
    assert check("x", "tool_success", tool_calls=[{"name": "a"}]).passed is True
    empty = check("x", "tool_success", tool_calls=[])
    assert empty.value is None and "no tool calls" in empty.reason
