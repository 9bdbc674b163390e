from agentunit.core.trace import TraceLog


def test_record_last_response_and_roundtrip(tmp_path):
    trace = TraceLog()
    trace.record("tool_call", name="search", arguments={"q": "x"})
    trace.record("agent_response", content="first")
    trace.record("agent_response", content="final")
    trace.metadata["cost"] = 0.1
    assert trace.last_response() == "final"
    assert len(trace.of_type("tool_call")) == 1
    path = trace.save(tmp_path / "t.json")
    loaded = TraceLog.load(path)
    assert [e.type for e in loaded.events] == ["tool_call", "agent_response", "agent_response"]
    assert loaded.metadata == {"cost": 0.1} and loaded.events[0].payload["arguments"] == {"q": "x"}


def test_order_is_known_unless_the_trace_says_otherwise(tmp_path):
    trace = TraceLog()
    assert trace.order_known  # events recorded live are in the order they happened
    trace.metadata["order"] = "unknown"
    assert not trace.order_known
    assert not TraceLog.load(trace.save(tmp_path / "t.json")).order_known
