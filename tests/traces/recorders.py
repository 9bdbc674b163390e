"""Agent runs recorded by the real OpenTelemetry SDK (GenAI conventions) and the OpenInference tracer,
exported as OTLP JSON (the OTLP encoder) or as the SDK's span JSON (``span.to_json()``, Phoenix's shape)."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from google.protobuf.json_format import MessageToDict
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import Status, StatusCode


def record(run: Callable[[Any], None], provider_class: type = TracerProvider) -> list[ReadableSpan]:
    """The finished spans of ``run(tracer)``, traced by a fresh provider with an in-memory exporter."""
    exporter = InMemorySpanExporter()
    provider = provider_class()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    run(provider.get_tracer("agent-app"))
    provider.shutdown()
    return list(exporter.get_finished_spans())


def write_otlp(spans: Sequence[ReadableSpan], path: Path, *, hex_ids: bool = True) -> Path:
    """OTLP JSON: the protobuf export request as JSON; ids in hex as the OTLP JSON encoding wants them
    (``hex_ids=False`` keeps protobuf's base64)."""
    document = MessageToDict(encode_spans(spans))
    if hex_ids:
        for resource in document["resourceSpans"]:
            for scope in resource["scopeSpans"]:
                for span in scope["spans"]:
                    for key in ("traceId", "spanId", "parentSpanId"):
                        if key in span:
                            span[key] = base64.b64decode(span[key]).hex()
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def write_span_list(spans: Sequence[ReadableSpan], path: Path) -> Path:
    """The SDK's own span JSON (``to_json()``), one span a line."""
    path.write_text("\n".join(json.dumps(json.loads(s.to_json())) for s in spans) + "\n", encoding="utf-8")
    return path


def messages(role: str, text: str) -> str:
    return json.dumps([{"role": role, "parts": [{"type": "text", "content": text}]}])


def genai_travel_agent(tracer: Any, *, case: str, tools: Sequence[str], answer: str = "Booked AF123 to Paris.",
                       fail_tool: str | None = None) -> None:
    """A travel agent following the GenAI conventions: an LLM call, tools in ``tools`` order (``booking`` runs
    as a sub-agent that calls ``book_flight``), a final LLM call."""
    with tracer.start_as_current_span("invoke_agent travel", attributes={
            "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "travel", "app.case_id": case}):
        with tracer.start_as_current_span("chat gpt-4o", attributes={
                "gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o",
                "gen_ai.input.messages": messages("user", "Book me a flight to Paris"),
                "gen_ai.usage.input_tokens": 120, "gen_ai.usage.output_tokens": 30}):
            pass
        for tool in tools:
            if tool == "book_flight":
                with tracer.start_as_current_span("invoke_agent booking", attributes={
                        "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "booking"}):
                    _tool(tracer, tool, {"flight": "AF123"}, "confirmed", fail_tool == tool)
            else:
                _tool(tracer, tool, {"to": "Paris"}, '["AF123"]', fail_tool == tool)
        with tracer.start_as_current_span("chat gpt-4o", attributes={
                "gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o",
                "gen_ai.input.messages": messages("user", "Book me a flight to Paris"),
                "gen_ai.output.messages": json.dumps([{"role": "assistant", "finish_reason": "stop",
                                                       "parts": [{"type": "text", "content": answer}]}]),
                "gen_ai.response.finish_reasons": ["stop"],
                "gen_ai.usage.input_tokens": 200, "gen_ai.usage.output_tokens": 40}):
            pass


def _tool(tracer: Any, name: str, arguments: dict[str, Any], result: str, failed: bool) -> None:
    with tracer.start_as_current_span(f"execute_tool {name}", attributes={
            "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name,
            "gen_ai.tool.call.arguments": json.dumps(arguments), "gen_ai.tool.call.result": result}) as span:
        if failed:
            span.set_status(Status(StatusCode.ERROR, "upstream 503"))


def openinference_support_agent(tracer: Any, *, question: str, tools: Sequence[tuple[str, dict[str, Any], str]],
                                answer: str) -> None:
    """A support agent traced with OpenInference's tracer (``openinference.instrumentation``): an AGENT root,
    a RETRIEVER, an LLM call with messages, token counts and cost, then TOOL spans in ``tools`` order."""
    from openinference.instrumentation import get_llm_attributes

    with tracer.start_as_current_span("support-agent", openinference_span_kind="agent",
                                      attributes={"agent.name": "support"}) as root:
        root.set_input(question)
        with tracer.start_as_current_span("retrieve", openinference_span_kind="retriever") as retrieve:
            retrieve.set_input(question)
            retrieve.set_attribute("retrieval.documents.0.document.content", "Refunds take 5 days.")
        with tracer.start_as_current_span("llm", openinference_span_kind="llm", attributes={
                **get_llm_attributes(model_name="gpt-4o-mini",
                                     input_messages=[{"role": "system", "content": "Be brief."},
                                                     {"role": "user", "content": question}],
                                     output_messages=[{"role": "assistant", "content": "Checking."}],
                                     token_count={"prompt": 50, "completion": 5, "total": 55}),
                "llm.cost.total": 0.0012}):
            pass
        for name, arguments, result in tools:
            with tracer.start_as_current_span(name, openinference_span_kind="tool") as span:
                span.set_tool(name=name, description=f"the {name} tool", parameters={"type": "object"})
                span.set_input(json.dumps(arguments), mime_type="application/json")
                span.set_output(result)
        root.set_output(answer)
