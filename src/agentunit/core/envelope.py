"""Parse a target's reply (text, JSON, or a ``trusys`` envelope) into an Outcome and a TraceLog.

Contract (see docs/suite-format.md): a reply is text or JSON. A JSON object carrying a ``trusys``
object supplies evaluation metadata: ``query``, ``context`` (string or list), ``tool_calls``
(``name``, ``description``, ``arguments``, ``output``), ``plan`` (list of steps), ``agent_calls``
(``name``, ``description``, ``input``, ``output``). The answer is the ``output`` field when the
reply is the wrapper form ``{output, trusys}``, else the reply without ``trusys``.
"""

from __future__ import annotations

import json
from typing import Any

from agentunit.core.outcome import Outcome
from agentunit.core.trace import TraceLog

_FAILED_STATUSES = frozenset({"error", "failed", "failure", "fail", "exception", "timeout"})
_ENVELOPE_KEYS = ("query", "context", "tool_calls", "plan", "agent_calls", "usage", "cost", "logprobs")


class EnvelopeError(ValueError):
    """The reply carried a ``trusys`` field that is not a valid envelope."""


def parse_reply(reply: Any, *, parse_text_json: bool = True) -> Outcome:
    """Turn a raw reply into an Outcome.

    Args:
        reply: text, a decoded JSON value, or an ``Outcome`` (returned as is).
        parse_text_json: when the reply is text holding a JSON object, look inside it for ``trusys``.
    """
    if isinstance(reply, Outcome):
        return reply
    if isinstance(reply, str):
        if parse_text_json and reply.lstrip()[:1] == "{":
            try:
                decoded = json.loads(reply)
            except ValueError:
                return Outcome(output=reply)
            if isinstance(decoded, dict) and "trusys" in decoded:
                return _from_envelope(decoded)
        return Outcome(output=reply)
    if isinstance(reply, dict):
        if "trusys" in reply:
            return _from_envelope(reply)
        if "output" in reply:
            # A Python target may return the envelope fields at the top level.
            return _from_envelope({"output": reply["output"], "trusys": {
                k: reply[k] for k in _ENVELOPE_KEYS if k in reply}})
        return Outcome(output=_as_text(reply))
    if reply is None:
        return Outcome(output="")
    return Outcome(output=_as_text(reply))


def _from_envelope(reply: dict[str, Any]) -> Outcome:
    meta = reply["trusys"]
    if meta is None:
        meta = {}
    if not isinstance(meta, dict):
        raise EnvelopeError(f"'trusys' must be an object, got {type(meta).__name__}")
    rest = {k: v for k, v in reply.items() if k != "trusys"}
    output = _as_text(rest["output"]) if "output" in rest else _as_text(rest) if rest else ""
    usage = meta.get("usage")
    cost = meta.get("cost")
    return Outcome(
        output=output,
        query=_opt_text(meta.get("query")),
        context=_as_context(meta.get("context")),
        tool_calls=[_tool_call(c, i) for i, c in enumerate(_as_list(meta.get("tool_calls"), "tool_calls"))],
        plan=_as_plan(meta.get("plan")),
        agent_calls=[_agent_call(c, i) for i, c in enumerate(_as_list(meta.get("agent_calls"), "agent_calls"))],
        usage=usage if isinstance(usage, dict) else None,
        cost=float(cost) if isinstance(cost, (int, float)) else None,
        logprobs=meta.get("logprobs") if isinstance(meta.get("logprobs"), list) else None,
        metadata={k: v for k, v in meta.items() if k not in _ENVELOPE_KEYS},
    )


def build_trace(outcome: Outcome, prompt: str | None = None) -> TraceLog:
    """Record the outcome as TraceLog events so trace-based metrics and envelope metrics agree."""
    trace = TraceLog()
    if prompt is not None:
        trace.record("prompt", content=prompt)
    for call in outcome.tool_calls:
        trace.record("tool_call", **call)
    for call in outcome.agent_calls:
        trace.record("agent_call", **call)
    if outcome.output is not None:
        trace.record("agent_response", content=outcome.output)
    meta = trace.metadata
    for key in ("query", "context", "plan", "usage", "cost"):
        value = getattr(outcome, key)
        if value is not None:
            meta[key] = value
    for key in ("interactions", "handoffs", "conflicts"):
        if isinstance(outcome.metadata.get(key), list):
            setattr(trace, key, list(outcome.metadata[key]))
    if isinstance(outcome.metadata.get("agent_roles"), dict):
        trace.agent_roles = dict(outcome.metadata["agent_roles"])
    return trace


def tool_calls_of(trace: TraceLog, outcome: Outcome) -> list[dict[str, Any]]:
    """The run's tool calls: the outcome's, else the trace's ``tool_call`` events (an adapter's trace)."""
    return outcome.tool_calls or [e.payload for e in trace.of_type("tool_call")]


def tool_call_failed(call: dict[str, Any]) -> bool:
    """A tool call failed when it reports an error, ``success: false`` or a failure status."""
    if call.get("error"):
        return True
    if call.get("success") is False:
        return True
    status = call.get("status")
    return isinstance(status, str) and status.lower() in _FAILED_STATUSES


def _as_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)


def _opt_text(value: Any) -> str | None:
    return None if value is None else _as_text(value)


def _as_list(value: Any, name: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise EnvelopeError(f"'trusys.{name}' must be a list, got {type(value).__name__}")
    return value


def _as_context(value: Any) -> list[str] | None:
    if value is None:
        return None
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [_context_item(v) for v in value]
    raise EnvelopeError(f"'trusys.context' must be a string or a list, got {type(value).__name__}")


def _context_item(value: Any) -> str:
    if isinstance(value, dict):
        for key in ("content", "text", "page_content"):
            if isinstance(value.get(key), str):
                return value[key]
    return _as_text(value)


def _as_plan(value: Any) -> list[Any] | None:
    if value is None:
        return None
    if isinstance(value, str):
        return [line.strip() for line in value.splitlines() if line.strip()]
    if isinstance(value, list):
        return value
    raise EnvelopeError(f"'trusys.plan' must be a list of steps, got {type(value).__name__}")


def _tool_call(call: Any, index: int) -> dict[str, Any]:
    if not isinstance(call, dict):
        raise EnvelopeError(f"'trusys.tool_calls[{index}]' must be an object")
    call = dict(call)
    function = call.get("function")
    if "name" not in call and isinstance(function, dict):  # OpenAI tool_calls shape
        call["name"] = function.get("name")
        call.setdefault("arguments", function.get("arguments"))
    if "name" not in call:
        raise EnvelopeError(f"'trusys.tool_calls[{index}]' has no 'name'")
    args = call.get("arguments")
    if isinstance(args, str):
        try:
            call["arguments"] = json.loads(args)
        except ValueError:
            pass
    call.setdefault("arguments", {})
    return call


def _agent_call(call: Any, index: int) -> dict[str, Any]:
    if not isinstance(call, dict) or "name" not in call:
        raise EnvelopeError(f"'trusys.agent_calls[{index}]' must be an object with a 'name'")
    return dict(call)
