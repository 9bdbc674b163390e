"""Tool calls an agent made that show only in its LLM calls' messages (no tool spans exported), recorded by the
real OpenTelemetry SDK (GenAI conventions) and the OpenInference tracer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from openinference.instrumentation import TracerProvider as OITracerProvider

import agentunit
from agentunit.traces import load_traces, recorded_run
from tests.traces.recorders import record, write_otlp, write_span_list


def _chat(tracer: Any, inputs: list[dict[str, Any]], outputs: list[dict[str, Any]]) -> None:
    with tracer.start_as_current_span("chat gpt-4o", attributes={
            "gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o",
            "gen_ai.input.messages": json.dumps(inputs), "gen_ai.output.messages": json.dumps(outputs)}):
        pass


def _genai_agent(tracer: Any, *, with_tool_span: bool = False) -> None:
    """An agent whose first reply asks for two tools; their results come back in the next call's input."""
    user = {"role": "user", "parts": [{"type": "text", "content": "Weather in Paris, then book a table"}]}
    asked = {"role": "assistant", "parts": [
        {"type": "tool_call", "id": "c1", "name": "get_weather", "arguments": {"city": "Paris"}},
        {"type": "tool_call", "id": "c2", "name": "book_table", "arguments": '{"people": 2}'}]}
    answered = [{"role": "tool", "parts": [{"type": "tool_call_response", "id": "c1", "response": "18C sunny"}]},
                {"role": "tool", "parts": [{"type": "tool_call_response", "id": "c2", "response": "table 7"}]}]
    with tracer.start_as_current_span("invoke_agent concierge", attributes={
            "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "concierge"}):
        _chat(tracer, [user], [asked])
        if with_tool_span:
            with tracer.start_as_current_span("execute_tool get_weather", attributes={
                    "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "get_weather",
                    "gen_ai.tool.call.id": "c1", "gen_ai.tool.call.result": "18C sunny"}):
                pass
        _chat(tracer, [user, asked, *answered],
              [{"role": "assistant", "parts": [{"type": "text", "content": "18C; table 7 is yours."}]}])


def test_tool_calls_in_genai_messages_become_tool_calls_in_order_with_their_results(tmp_path: Path) -> None:
    write_otlp(record(_genai_agent), tmp_path / "run.json")
    run = recorded_run(load_traces("run.json", tmp_path)[0])
    events = run.envelope["trusys"]["events"]
    assert [(e["name"], e["arguments"], e.get("output")) for e in events] == [
        ("get_weather", {"city": "Paris"}, "18C sunny"), ("book_table", {"people": 2}, "table 7")]
    assert {e["source"] for e in events} == {"llm_message"}
    assert run.envelope["output"] == "18C; table 7 is yours."


def test_a_call_its_tool_span_records_is_not_counted_twice(tmp_path: Path) -> None:
    write_otlp(record(lambda tracer: _genai_agent(tracer, with_tool_span=True)), tmp_path / "run.json")
    events = recorded_run(load_traces("run.json", tmp_path)[0]).envelope["trusys"]["events"]
    assert [(e["name"], e.get("source")) for e in events] == [("get_weather", None), ("book_table", "llm_message")]


def test_tool_calls_in_openinference_messages_are_scored_by_tool_correctness(tmp_path: Path) -> None:
    def run(tracer: Any) -> None:
        with tracer.start_as_current_span("agent", attributes={"openinference.span.kind": "AGENT",
                                                               "input.value": "Weather in Paris?"}):
            with tracer.start_as_current_span("llm", attributes={
                    "openinference.span.kind": "LLM",
                    "llm.input_messages.0.message.role": "user",
                    "llm.input_messages.0.message.content": "Weather in Paris?",
                    "llm.output_messages.0.message.role": "assistant",
                    "llm.output_messages.0.message.tool_calls.0.tool_call.id": "t1",
                    "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "get_weather",
                    "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments": '{"city": "Paris"}'}):
                pass
            with tracer.start_as_current_span("llm", attributes={
                    "openinference.span.kind": "LLM",
                    "llm.input_messages.0.message.role": "user",
                    "llm.input_messages.0.message.content": "Weather in Paris?",
                    "llm.input_messages.1.message.role": "tool",
                    "llm.input_messages.1.message.tool_call_id": "t1",
                    "llm.input_messages.1.message.content": "18C sunny",
                    "llm.output_messages.0.message.role": "assistant",
                    "llm.output_messages.0.message.content": "It is 18C and sunny."}):
                pass

    write_span_list(record(run, OITracerProvider), tmp_path / "spans.jsonl")
    (tmp_path / "suite.yaml").write_text("""
target: {type: traces, path: spans.jsonl, format: openinference}
defaults:
  metrics:
    - {metric: tool-correctness, value: [get_weather]}
    - {metric: contains, value: "18C"}
""", encoding="utf-8")
    result = agentunit.evaluate(tmp_path / "suite.yaml")
    case = result.cases[0]
    assert case["status"] == "passed", case
    assert [(e["name"], e["output"]) for e in case["envelope"]["events"]] == [("get_weather", "18C sunny")]
