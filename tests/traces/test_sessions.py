"""The traces of one conversation (spans sharing ``session.id``) read as one multi-turn case."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import agentunit
from agentunit.suite.loader import load_suite
from tests.traces.recorders import messages, record, write_otlp


def _turn(tracer: Any, session: str, question: str, answer: str, tool: str | None = None) -> None:
    with tracer.start_as_current_span("invoke_agent chef", attributes={
            "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "chef", "session.id": session,
            "gen_ai.input.messages": messages("user", question)}):
        if tool:
            with tracer.start_as_current_span(f"execute_tool {tool}", attributes={
                    "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": tool,
                    "gen_ai.tool.call.arguments": json.dumps({"diet": "vegetarian"})}):
                pass
        with tracer.start_as_current_span("chat gpt-4o", attributes={
                "gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o",
                "gen_ai.input.messages": messages("user", question),
                "gen_ai.output.messages": messages("assistant", answer),
                "gen_ai.usage.input_tokens": 50, "gen_ai.usage.output_tokens": 10}):
            pass


def _record(tmp_path: Path) -> None:
    def run(tracer: Any) -> None:
        _turn(tracer, "s-ana", "I'm Ana and I'm vegetarian.", "Nice to meet you, Ana.")
        _turn(tracer, "s-bo", "What is 2 + 2?", "4.")
        _turn(tracer, "s-ana", "Suggest a dinner for me.", "Mushroom risotto, Ana.", tool="search_recipes")

    write_otlp(record(run), tmp_path / "traces.json")
    (tmp_path / "suite.yaml").write_text("""
target: {type: traces, path: traces.json, sessions: true}
defaults:
  metrics: [{metric: contains, value: "Ana"}]
""", encoding="utf-8")


def test_turns_of_a_session_become_the_conversation_of_one_case(tmp_path: Path) -> None:
    _record(tmp_path)
    suite = load_suite(tmp_path / "suite.yaml")
    suite.validate()
    cases = {c.id: c for c in suite.iter_cases()}
    assert list(cases) == ["s-ana", "s-bo"]
    ana = cases["s-ana"]
    assert ana.query == "Suggest a dinner for me."
    assert ana.conversation == [{"role": "user", "content": "I'm Ana and I'm vegetarian."},
                                {"role": "assistant", "content": "Nice to meet you, Ana."}]
    assert cases["s-bo"].conversation is None


def test_a_session_answers_with_its_last_turn_and_every_turns_calls(tmp_path: Path) -> None:
    _record(tmp_path)
    result = agentunit.evaluate(tmp_path / "suite.yaml")
    cases = {c["id"]: c for c in result.cases}
    assert cases["s-ana"]["status"] == "passed" and cases["s-bo"]["status"] == "failed"
    assert cases["s-ana"]["output"] == "Mushroom risotto, Ana."
    envelope = cases["s-ana"]["envelope"]
    assert [e["name"] for e in envelope["events"]] == ["search_recipes"]
    assert envelope["usage"] == {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}


def test_without_sessions_each_trace_is_its_own_case(tmp_path: Path) -> None:
    _record(tmp_path)
    text = (tmp_path / "suite.yaml").read_text().replace(", sessions: true", "")
    (tmp_path / "suite.yaml").write_text(text)
    assert len(agentunit.evaluate(tmp_path / "suite.yaml").cases) == 3
