"""OpenTelemetry GenAI semantic conventions: what a span was (agent, LLM call, tool call) from ``gen_ai.*``.

Read: ``gen_ai.operation.name`` (``invoke_agent``, ``execute_tool``, ``chat``, ``text_completion``,
``generate_content``), ``gen_ai.agent.name``/``description``, ``gen_ai.tool.name``/``description``/
``call.id``/``call.arguments``/``call.result``, ``gen_ai.request.model``/``response.model``,
``gen_ai.usage.input_tokens``/``output_tokens`` (and the older ``prompt_tokens``/``completion_tokens``),
``gen_ai.response.finish_reasons``; messages from ``gen_ai.input.messages``/``gen_ai.output.messages``
(JSON, ``{role, parts: [{type: text, content}]}``), the older ``gen_ai.prompt``/``gen_ai.completion``
(JSON or indexed ``gen_ai.prompt.0.content``), or the span events ``gen_ai.user.message``/``gen_ai.choice``.
``gen_ai.usage.cost`` is read when an exporter adds it (the conventions define no cost attribute).
"""

from __future__ import annotations

from typing import Any

from agentunit.traces.spans import Role, Span, as_text, decoded, indexed, number, usage_of

LLM_OPERATIONS = ("chat", "text_completion", "generate_content", "completion")
AGENT_OPERATIONS = ("invoke_agent",)
TOOL_OPERATIONS = ("execute_tool",)


def applies(span: Span) -> bool:
    """The span carries GenAI attributes (``gen_ai.*``)."""
    return any(key.startswith("gen_ai.") for key in span.attributes)


def role(span: Span) -> Role:
    """The span's role under the GenAI conventions (``other`` when it is none of agent, LLM call, tool call)."""
    a = span.attributes
    operation = str(a.get("gen_ai.operation.name") or "").strip().lower()
    if operation in TOOL_OPERATIONS or (not operation and "gen_ai.tool.name" in a):
        return Role("tool", name=as_text(a.get("gen_ai.tool.name")) or _after(span.name, "execute_tool"),
                    arguments=decoded(a.get("gen_ai.tool.call.arguments")),
                    output=as_text(decoded(a.get("gen_ai.tool.call.result"))),
                    call_id=as_text(a.get("gen_ai.tool.call.id")),
                    description=as_text(a.get("gen_ai.tool.description")))
    if operation in AGENT_OPERATIONS or (not operation and "gen_ai.agent.name" in a):
        return Role("agent", name=as_text(a.get("gen_ai.agent.name")) or _after(span.name, "invoke_agent"),
                    description=as_text(a.get("gen_ai.agent.description")),
                    input=last_user_text(input_messages(span)), output=message_text(output_messages(span)))
    if operation in LLM_OPERATIONS or (not operation and ("gen_ai.request.model" in a or "gen_ai.system" in a)):
        outputs = output_messages(span)
        reasons = a.get("gen_ai.response.finish_reasons")
        finish = reasons[-1] if isinstance(reasons, list) and reasons else reasons if isinstance(reasons, str) \
            else next((m.get("finish_reason") for m in reversed(outputs) if m.get("finish_reason")), None)
        return Role("llm", model=as_text(a.get("gen_ai.response.model") or a.get("gen_ai.request.model")),
                    input=last_user_text(input_messages(span)), output=message_text(outputs),
                    usage=usage_of(a.get("gen_ai.usage.input_tokens", a.get("gen_ai.usage.prompt_tokens")),
                                   a.get("gen_ai.usage.output_tokens", a.get("gen_ai.usage.completion_tokens")),
                                   a.get("gen_ai.usage.total_tokens")),
                    cost=number(a.get("gen_ai.usage.cost")), finish_reason=as_text(finish),
                    requested_calls=requested_tool_calls(span), call_results=tool_results(span))
    return Role("other", input=last_user_text(input_messages(span)), output=message_text(output_messages(span)))


def input_messages(span: Span) -> list[dict[str, Any]]:
    """The span's input messages as ``{role, content}`` (content: the text of the message's text parts)."""
    a = span.attributes
    for key in ("gen_ai.input.messages", "gen_ai.prompt"):
        found = _messages(a.get(key))
        if found:
            return found
    found = [_message(m) for m in indexed(a, "gen_ai.prompt")]
    if found:
        return found
    return [{"role": e["name"].split(".")[1], "content": as_text(e["attributes"].get("content")) or ""}
            for e in span.events if e["name"] in ("gen_ai.system.message", "gen_ai.user.message",
                                                  "gen_ai.assistant.message", "gen_ai.tool.message")]


def output_messages(span: Span) -> list[dict[str, Any]]:
    """The span's output messages as ``{role, content, finish_reason}``."""
    a = span.attributes
    for key in ("gen_ai.output.messages", "gen_ai.completion"):
        found = _messages(a.get(key))
        if found:
            return found
    found = [_message(m) for m in indexed(a, "gen_ai.completion")]
    if found:
        return found
    choices = []
    for event in span.events:
        if event["name"] == "gen_ai.choice":
            attrs = event["attributes"]
            message = decoded(attrs.get("message"))
            content = message.get("content") if isinstance(message, dict) else attrs.get("message.content")
            choices.append({"role": "assistant", "content": _content_text(content) or "",
                            "finish_reason": attrs.get("finish_reason")})
    return choices


def requested_tool_calls(span: Span) -> list[dict[str, Any]]:
    """The tool calls the model's reply asked for: ``{type: tool_call, id, name, arguments}`` parts of
    ``gen_ai.output.messages``, OpenAI-style ``tool_calls`` of a message (``{id, function: {name,
    arguments}}``), or the indexed ``gen_ai.completion.N.tool_calls.M.{id, name, arguments}``."""
    a = span.attributes
    raw = decoded(a.get("gen_ai.output.messages") or a.get("gen_ai.completion"))
    found: list[dict[str, Any]] = []
    for message in raw if isinstance(raw, list) else [raw] if isinstance(raw, dict) else []:
        if not isinstance(message, dict):
            continue
        for part in message.get("parts") or []:
            if isinstance(part, dict) and part.get("type") == "tool_call":
                found.append(_call(part.get("id"), part.get("name"), part.get("arguments")))
        for call in message.get("tool_calls") or []:
            if isinstance(call, dict):
                function = call.get("function") if isinstance(call.get("function"), dict) else call
                found.append(_call(call.get("id"), function.get("name"), function.get("arguments")))
    if not found:
        for message in indexed(a, "gen_ai.completion"):
            found += [_call(c.get("id"), c.get("name"), c.get("arguments")) for c in indexed(message, "tool_calls")]
    return [c for c in found if c["name"]]


def tool_results(span: Span) -> dict[str, str]:
    """Tool results the input messages carry, by call id: ``{type: tool_call_response, id, response}`` parts,
    ``{role: tool, tool_call_id, content}`` messages, or the indexed ``gen_ai.prompt.N`` form."""
    a = span.attributes
    raw = decoded(a.get("gen_ai.input.messages") or a.get("gen_ai.prompt"))
    messages = raw if isinstance(raw, list) else []
    if not messages:
        messages = [{"role": m.get("role"), "tool_call_id": m.get("tool_call_id"), "content": m.get("content")}
                    for m in indexed(a, "gen_ai.prompt")]
    results: dict[str, str] = {}
    for message in messages:
        if not isinstance(message, dict):
            continue
        for part in message.get("parts") or []:
            if isinstance(part, dict) and part.get("type") == "tool_call_response" and part.get("id"):
                results[str(part["id"])] = as_text(decoded(part.get("response"))) or ""
        if message.get("role") == "tool" and message.get("tool_call_id"):
            results[str(message["tool_call_id"])] = _content_text(message.get("content")) or ""
    return results


def _call(call_id: Any, name: Any, arguments: Any) -> dict[str, Any]:
    decoded_arguments = decoded(arguments)
    return {"id": as_text(call_id), "name": as_text(name),
            "arguments": decoded_arguments if decoded_arguments is not None else {}}


def last_user_text(messages: list[dict[str, Any]]) -> str | None:
    """The last user message's text (the question asked), else the last message's."""
    users = [m for m in messages if m.get("role") == "user" and m.get("content")]
    chosen = users[-1] if users else messages[-1] if messages else None
    return chosen.get("content") or None if chosen else None


def message_text(messages: list[dict[str, Any]]) -> str | None:
    """The text of the last message that has text."""
    return next((m["content"] for m in reversed(messages) if m.get("content")), None)


def _messages(value: Any) -> list[dict[str, Any]]:
    value = decoded(value)
    if isinstance(value, dict):
        value = [value]
    if not isinstance(value, list):
        return [{"role": "user", "content": value}] if isinstance(value, str) and value else []
    return [_message(m) for m in value if isinstance(m, dict)]


def _message(message: dict[str, Any]) -> dict[str, Any]:
    content = message.get("content")
    if content is None and "parts" in message:
        content = message["parts"]
    return {"role": str(message.get("role") or ""), "content": _content_text(content) or "",
            "finish_reason": message.get("finish_reason")}


def _content_text(content: Any) -> str | None:
    """Text of message content: a string, or the text parts of a parts list (``{type: text, content}``)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [str(p.get("content", p.get("text", ""))) for p in content
                 if isinstance(p, dict) and p.get("type", "text") == "text"]
        return "\n".join(t for t in texts if t) or None
    return as_text(content)


def _after(name: str, prefix: str) -> str:
    """``execute_tool search`` → ``search`` (the span name the conventions recommend); else the name."""
    return name[len(prefix):].strip() or name if name.startswith(prefix) else name
