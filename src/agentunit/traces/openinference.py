"""OpenInference (Arize Phoenix) attributes: what a span was from ``openinference.span.kind``.

Read: the span kind (``AGENT``, ``LLM``, ``TOOL``, ``RETRIEVER``, ``CHAIN``, …), ``input.value``/
``output.value``, ``agent.name``, ``tool.name``/``tool.description``/``tool.id`` (a tool span's arguments
are its ``input.value``, its result its ``output.value``), ``llm.model_name``, ``llm.input_messages.N.message.
{role, content}``/``llm.output_messages.N.message.content``, ``llm.token_count.{prompt, completion, total}``,
``llm.cost.{total, prompt, completion}``, ``retrieval.documents.N.document.content``.
"""

from __future__ import annotations

from typing import Any

from agentunit.traces.spans import Role, Span, as_text, decoded, indexed, number, usage_of

KIND = "openinference.span.kind"


def applies(span: Span) -> bool:
    """The span carries an OpenInference span kind."""
    return isinstance(span.attributes.get(KIND), str)


def role(span: Span) -> Role:
    """The span's role under the OpenInference conventions."""
    a = span.attributes
    kind = str(a.get(KIND) or "").strip().upper()
    value_in, value_out = as_text(a.get("input.value")), as_text(a.get("output.value"))
    if kind == "TOOL":
        arguments = a.get("tool_call.function.arguments", a.get("input.value"))
        return Role("tool", name=as_text(a.get("tool.name") or a.get("tool_call.function.name")) or span.name,
                    arguments=decoded(arguments) if arguments is not None else {}, output=value_out,
                    call_id=as_text(a.get("tool.id") or a.get("tool_call.id")),
                    description=as_text(a.get("tool.description")))
    if kind == "AGENT":
        return Role("agent", name=as_text(a.get("agent.name")) or span.name, input=value_in, output=value_out)
    if kind == "LLM":
        inputs = [m for m in indexed(a, "llm.input_messages") if m.get("message.content")]
        users = [m for m in inputs if m.get("message.role") == "user"]
        asked = (users or inputs)[-1].get("message.content") if inputs else None
        outputs = [m for m in indexed(a, "llm.output_messages") if m.get("message.content")]
        answer = outputs[-1].get("message.content") if outputs else None
        cost = number(a.get("llm.cost.total"))
        if cost is None and (number(a.get("llm.cost.prompt")) is not None
                             or number(a.get("llm.cost.completion")) is not None):
            cost = (number(a.get("llm.cost.prompt")) or 0.0) + (number(a.get("llm.cost.completion")) or 0.0)
        return Role("llm", model=as_text(a.get("llm.model_name")), input=as_text(asked) or value_in,
                    output=as_text(answer) or value_out,
                    usage=usage_of(a.get("llm.token_count.prompt"), a.get("llm.token_count.completion"),
                                   a.get("llm.token_count.total")), cost=cost,
                    requested_calls=_requested_calls(a), call_results=_call_results(a))
    if kind == "RETRIEVER":
        documents = [as_text(d.get("document.content")) for d in indexed(a, "retrieval.documents")]
        return Role("retriever", input=value_in, output=value_out, documents=[d for d in documents if d])
    return Role("other", input=value_in, output=value_out)


def _requested_calls(a: dict[str, Any]) -> list[dict[str, Any]]:
    """``llm.output_messages.N.message.tool_calls.M.tool_call.{id, function.name, function.arguments}``."""
    calls = []
    for message in indexed(a, "llm.output_messages"):
        for call in indexed(message, "message.tool_calls"):
            name = as_text(call.get("tool_call.function.name"))
            if name:
                arguments = decoded(call.get("tool_call.function.arguments"))
                calls.append({"id": as_text(call.get("tool_call.id")), "name": name,
                              "arguments": arguments if arguments is not None else {}})
    return calls


def _call_results(a: dict[str, Any]) -> dict[str, str]:
    """Tool results in ``llm.input_messages.N.message`` with role ``tool``, by ``message.tool_call_id``."""
    return {str(m["message.tool_call_id"]): as_text(m.get("message.content")) or ""
            for m in indexed(a, "llm.input_messages")
            if m.get("message.role") == "tool" and m.get("message.tool_call_id")}
