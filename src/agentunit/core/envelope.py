"""Parse a target's reply (text, JSON, or a ``trusys`` envelope) into an Outcome and a TraceLog.

Contract (see docs/suite-format.md): a reply is text or JSON. A JSON object carrying a ``trusys``
object supplies evaluation metadata: ``query``, ``context`` (string or list), ``tool_calls``
(``name``, ``description``, ``arguments``, ``output``), ``plan`` (list of steps), ``agent_calls``
(``name``, ``description``, ``input``, ``output``), ``events`` (tool calls, agent calls and messages
in the order they happened), media (``image``, ``images``, ``audio``, ``video``; ``context`` items
``{image: REF}``; ``output_media``; see docs/media.md). The answer is the ``output`` field when the
reply is the wrapper form ``{output, trusys}``, else the reply without ``trusys``. An answer that is
itself a medium (a ``data:`` URI of one, ``{base64, mime}``) becomes reply media with the field
``output``, and the answer text its short reference (agentunit.media.output).
"""

from __future__ import annotations

import itertools
import json
import re
from datetime import datetime, timezone
from functools import cache
from typing import TYPE_CHECKING, Any

from agentunit.core.outcome import Outcome
from agentunit.core.trace import TraceLog
from agentunit.media.fields import REPLY_MEDIA_KEYS, context_image, reference_shape, reply_refs
from agentunit.media.output import inline_output_medium, looks_inline, output_ref

if TYPE_CHECKING:  # built where a reply carries a medium: a reply of text builds none
    from agentunit.media.model import MediaRef

_FAILED_STATUSES = frozenset({"error", "failed", "failure", "fail", "exception", "timeout"})
_ENVELOPE_KEYS = ("query", "context", "tool_calls", "plan", "agent_calls", "events", "usage", "cost", "logprobs",
                  *REPLY_MEDIA_KEYS, "output_media")
_CALL_TYPES = ("tool_call", "agent_call")
_RESERVED_EVENT_TYPES = ("prompt", "agent_response")  # the trace records these itself
_STATUS_KEYS = ("status", "success", "error")
# Text that opens like an error report: a traceback, "Error: …", "[ERROR] …", "ValueError: …".
_ERROR_TEXT = (
    r"\s*(?:(?i:traceback\s*\(most recent call last\))"
    r"|(?i:\[(?:error|exception|fatal|critical|failure|failed)\])"
    r"|(?i:error|exception|fatal(?:\s+error)?|failure|failed)(?:\s+\d{3,5})?(?:\s*:|\s+[-\u2013\u2014]\s|\s*$)"
    r"|(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception)\s*[:(])")
_ERROR_TEXT_HEAD = 1_000  # an error report opens the text; only its start is read
_OUTPUT_JSON_LIMIT = 1_000_000  # an output longer than this is classified from its text only


@cache
def _error_text() -> re.Pattern[str]:
    """``_ERROR_TEXT`` compiled when a tool call's output is first read (~0.4 ms, at start-up otherwise)."""
    return re.compile(_ERROR_TEXT)


class EnvelopeError(ValueError):
    """The reply carried a ``trusys`` field that is not a valid envelope."""


def parse_reply(reply: Any, *, parse_text_json: bool = True) -> Outcome:
    """Turn a raw reply into an Outcome.

    Args:
        reply: text, a decoded JSON value, or an ``Outcome`` (returned as is).
        parse_text_json: when the reply is text holding a JSON object, look inside it for ``trusys``
            (and for an ``output`` that is an inline medium, or a ``{base64, mime}`` object).

    Raises EnvelopeError for a malformed ``trusys``, MediaError for an output medium that cannot be used.
    """
    if isinstance(reply, Outcome):
        return reply
    if isinstance(reply, str):
        if looks_inline(reply):
            return _medium_outcome(reply) or Outcome(output=reply)
        if parse_text_json and reply.lstrip()[:1] == "{":
            try:
                decoded = json.loads(reply)
            except ValueError:
                return Outcome(output=reply)
            if isinstance(decoded, dict):
                if "trusys" in decoded:
                    return _from_envelope(decoded)
                inline = decoded if looks_inline(decoded) else decoded.get("output")
                if looks_inline(inline):
                    return _medium_outcome(inline) or Outcome(output=reply)
        return Outcome(output=reply)
    if looks_inline(reply):  # {base64, mime}, bytes or a Media from a Python target
        return _medium_outcome(reply) or Outcome(output=_as_text(reply))
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
    output_refs, output = _output_media(meta.get("output_media"), rest)
    usage = meta.get("usage")
    cost = meta.get("cost")
    tool_calls = [_tool_call(c, f"tool_calls[{i}]")
                  for i, c in enumerate(_as_list(meta.get("tool_calls"), "tool_calls"))]
    agent_calls = [_agent_call(c, f"agent_calls[{i}]")
                   for i, c in enumerate(_as_list(meta.get("agent_calls"), "agent_calls"))]
    events = None
    if meta.get("events") is not None:
        events = _as_events(meta["events"])
        tool_calls = _calls_from_events(events, "tool_call", tool_calls, "tool_calls")
        agent_calls = _calls_from_events(events, "agent_call", agent_calls, "agent_calls")
    media, problem = reply_refs(meta)
    if problem:
        raise EnvelopeError(problem)
    context, context_images = _as_context(meta.get("context"))
    return Outcome(
        output=output,
        query=_opt_text(meta.get("query")),
        context=context,
        tool_calls=tool_calls,
        plan=_as_plan(meta.get("plan")),
        agent_calls=agent_calls,
        events=events,
        usage=usage if isinstance(usage, dict) else None,
        cost=float(cost) if isinstance(cost, (int, float)) else None,
        logprobs=meta.get("logprobs") if isinstance(meta.get("logprobs"), list) else None,
        metadata={k: v for k, v in meta.items() if k not in _ENVELOPE_KEYS},
        media=(output_refs + media + context_images) or None,
    )


def _output_media(named: Any, rest: dict[str, Any]) -> tuple[list[MediaRef], str]:
    """The output media of an envelope (``trusys.output_media``, an inline medium as ``output``) and the
    output text: an inline medium's short reference; the reference when the reply gave no text."""
    from agentunit.media.model import MediaRef
    from agentunit.media.references import shorten  # here: a reply of plain text needs none of it

    refs: list[MediaRef] = []
    raw = rest.get("output")
    if named is not None:
        refs.append(output_ref(named, "trusys.output_media"))
        if raw is named or (isinstance(raw, str) and raw == named):  # one medium, decoded once
            return refs, shorten(refs[0].ref)
    medium = inline_output_medium(raw) if "output" in rest and looks_inline(raw) else None
    if medium is not None:
        refs.append(MediaRef("output", medium, medium.kind, "reply"))
        return refs, medium.source
    output = _as_text(raw) if "output" in rest else _as_text(rest) if rest else ""
    if refs and not output:
        output = shorten(refs[0].ref)
    return refs, output


def _medium_outcome(value: Any) -> Outcome | None:
    """The outcome of a reply that is an inline medium: its short reference as the output, the medium as
    reply media ``output``; None when the value is not a medium (plain text)."""
    medium = inline_output_medium(value)
    if medium is None:
        return None
    from agentunit.media.model import MediaRef

    return Outcome(output=medium.source, media=[MediaRef("output", medium, medium.kind, "reply")])


def build_trace(outcome: Outcome, prompt: str | None = None) -> TraceLog:
    """Record the outcome as TraceLog events so trace-based metrics and envelope metrics agree.

    The calls are recorded in the order they happened when the outcome says it (see
    ``observed_sequence``); ``trace.metadata["order"]`` is ``observed`` or ``unknown`` and
    ``trace.metadata["order_basis"]`` says why.
    """
    trace = TraceLog()
    if prompt is not None:
        trace.record("prompt", content=prompt)
    if outcome.tool_calls or outcome.agent_calls or outcome.events is not None:
        sequence, order, basis = observed_sequence(outcome)
        for event_type, payload in sequence:
            trace.record(event_type, **payload)
    else:  # a plain answer: what observed_sequence says of no calls
        order, basis = "observed", "no calls"
    if outcome.output is not None:
        trace.record("agent_response", content=outcome.output)
    meta = trace.metadata
    meta["order"], meta["order_basis"] = order, basis
    for key in _TRACE_METADATA:
        value = getattr(outcome, key)
        if value is not None:
            meta[key] = value
    extra = outcome.metadata
    if extra:
        for key in ("interactions", "handoffs", "conflicts"):
            if isinstance(extra.get(key), list):
                setattr(trace, key, list(extra[key]))
        if isinstance(extra.get("agent_roles"), dict):
            trace.agent_roles = dict(extra["agent_roles"])
    return trace


_TRACE_METADATA = ("query", "context", "plan", "usage", "cost", "media")


def observed_sequence(outcome: Outcome) -> tuple[list[tuple[str, dict[str, Any]]], str, str]:
    """The outcome's calls as ``(event type, payload)`` in the order they happened, when that is known.

    Returns (sequence, order, basis). Tool calls and agent calls arrive in two arrays whose order
    between them is not given by the arrays, so the order is, first that succeeds:

    1. ``outcome.events`` (``trusys.events``), when its calls are exactly the outcome's calls: that order;
    2. only one kind of call (or none): the array's order;
    3. ``seq`` on every call, else ``timestamp`` on every call (epoch seconds or ISO 8601): the two
       arrays merged by it, each array keeping its own order — keys that go backwards within an
       array, or a tool call and an agent call with the same key, leave the order unknown;
    4. otherwise ``unknown``: the tool calls are listed before the agent calls, and ``basis`` says why
       (metrics whose verdict depends on that order report it as not measured).
    """
    tools = [("tool_call", c) for c in outcome.tool_calls]
    agents = [("agent_call", c) for c in outcome.agent_calls]
    events = outcome.events
    if events is not None:
        if _events_cover_calls(events, outcome):
            return [_event_entry(e) for e in events], "observed", "trusys.events"
        note = "trusys.events does not hold the same calls as tool_calls/agent_calls; "
    else:
        note = ""
    if not tools or not agents:
        return tools + agents, "observed", note + ("no calls" if not tools and not agents else "one kind of call")
    merged, why = _merge_by_key(tools, agents, "seq")
    if merged is not None:
        return merged, "observed", note + "seq"
    merged, why_time = _merge_by_key(tools, agents, "timestamp")
    if merged is not None:
        return merged, "observed", note + "timestamp"
    return tools + agents, "unknown", note + ("tool calls and agent calls came in separate arrays without "
                                              f"trusys.events ({why}; {why_time})")


def ordered_events(outcome: Outcome) -> list[dict[str, Any]] | None:
    """The outcome's calls in observed order as ``trusys.events`` items (``{type, …call}``); None when
    the order between its tool calls and agent calls is unknown. Concatenating the lists of the
    turns of a conversation keeps the observed order of the whole conversation."""
    sequence, order, _ = observed_sequence(outcome)
    if order != "observed":
        return None
    return [{"type": event_type, **payload} for event_type, payload in sequence]


def tool_calls_of(trace: TraceLog, outcome: Outcome) -> list[dict[str, Any]]:
    """The run's tool calls: the outcome's, else the trace's ``tool_call`` events (an adapter's trace)."""
    return outcome.tool_calls or [e.payload for e in trace.of_type("tool_call")]


def tool_call_failure(call: dict[str, Any]) -> tuple[bool, str]:
    """Whether a tool call failed, and from what: ``(failed, basis)``.

    A call that reports its status (has an ``error``, ``success`` or ``status`` field) failed when
    ``error`` is truthy, ``success`` is false, or ``status`` is error/failed/failure/fail/exception/
    timeout or an HTTP code ≥ 400 — basis ``"status"``. A call without any of them is classified from
    its ``output`` — basis ``"output"``: it failed when the output is error-shaped, i.e. an object (or
    JSON text of one) with a truthy ``error``/``errors``/``exception``, ``isError: true``, ``success``
    or ``ok`` false, or a failure ``status``; or text that opens like an error report (a Python
    traceback, ``Error:``/``Error 409:``/``Exception:``/``Fatal:``/``Failed:``, ``[ERROR]``, ``SomethingError:``).
    """
    if any(key in call for key in _STATUS_KEYS):
        return _reports_failure(call), "status"
    return _error_shaped(call.get("output")), "output"


def tool_call_failed(call: dict[str, Any]) -> bool:
    """A tool call failed (the one rule every metric uses; see ``tool_call_failure``)."""
    return tool_call_failure(call)[0]


def _reports_failure(fields: dict[str, Any]) -> bool:
    if fields.get("error"):
        return True
    if fields.get("success") is False:
        return True
    status = fields.get("status")
    if isinstance(status, str):
        return status.strip().lower() in _FAILED_STATUSES
    return isinstance(status, int) and not isinstance(status, bool) and status >= 400


def _error_shaped(output: Any) -> bool:
    if isinstance(output, str):
        if output.lstrip()[:1] == "{" and len(output) <= _OUTPUT_JSON_LIMIT:
            try:
                output = json.loads(output)
            except (ValueError, RecursionError):  # no error report opens with "{" (see _ERROR_TEXT)
                return False
        else:
            return _error_text().match(output[:_ERROR_TEXT_HEAD]) is not None
    if not isinstance(output, dict):
        return False
    return bool(output.get("error") or output.get("errors") or output.get("exception")
                or output.get("isError") is True or output.get("ok") is False or _reports_failure(
                    {k: output[k] for k in ("success", "status") if k in output}))


def _events_cover_calls(events: list[dict[str, Any]], outcome: Outcome) -> bool:
    for event_type, calls in (("tool_call", outcome.tool_calls), ("agent_call", outcome.agent_calls)):
        listed = [_event_entry(e)[1] for e in events if e.get("type") == event_type]
        if listed != calls:
            return False
    return True


def _event_entry(event: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return str(event.get("type")), {k: v for k, v in event.items() if k != "type"}


def _merge_by_key(tools: list[tuple[str, dict[str, Any]]], agents: list[tuple[str, dict[str, Any]]],
                  key: str) -> tuple[list[tuple[str, dict[str, Any]]] | None, str]:
    """Merge two ordered arrays by ``key`` (each keeps its order); (None, why) when that is not possible."""
    keyed = []
    for array in (tools, agents):
        values = [_order_key(payload.get(key), key) for _, payload in array]
        missing = sum(v is None for v in values)
        if missing:
            return None, f"{missing} {array[0][0].replace('_', ' ')}(s) without a usable {key}"
        if any(b < a for a, b in itertools.pairwise(values)):
            return None, f"{key} goes backwards within the {array[0][0].replace('_', ' ')}s"
        keyed.append(values)
    merged = []
    i = j = 0
    while i < len(tools) and j < len(agents):
        if keyed[0][i] == keyed[1][j]:
            return None, (f"tool call {tools[i][1].get('name')!r} and agent call {agents[j][1].get('name')!r} "
                          f"have the same {key}")
        if keyed[0][i] < keyed[1][j]:
            merged.append(tools[i])
            i += 1
        else:
            merged.append(agents[j])
            j += 1
    return merged + tools[i:] + agents[j:], key


def _order_key(value: Any, key: str) -> float | None:
    if isinstance(value, bool):
        return None
    try:
        if isinstance(value, (int, float)):
            number = float(value)
            return number if number == number else None  # NaN orders nothing
        if key == "timestamp" and isinstance(value, str) and len(value) <= 64:
            moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
            if moment.tzinfo is None:  # a naive time is read as UTC, so naive and aware times compare
                moment = moment.replace(tzinfo=timezone.utc)
            return moment.timestamp()
    except (ValueError, OverflowError):  # not a time, or a number beyond a float
        return None
    return None


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


def _as_context(value: Any) -> tuple[list[str] | None, list[Any]]:
    """The context's passages, and its image items (``{image: REF}``, kept as references, their text if
    any among the passages)."""
    if value is None:
        return None, []
    if isinstance(value, str):
        return [value], []
    if not isinstance(value, list):
        raise EnvelopeError(f"'trusys.context' must be a string or a list, got {type(value).__name__}")
    texts, images = [], []
    for index, item in enumerate(value):
        image = context_image(item, index)
        if image is None:
            texts.append(_context_item(item))
            continue
        problem = reference_shape(image.ref)
        if problem:
            raise EnvelopeError(f"'{image.field}' {problem}")
        images.append(image)
        text = _context_text(item)
        if text is not None:
            texts.append(text)
    return texts, images


def _context_text(value: Any) -> str | None:
    if isinstance(value, dict):
        for key in ("content", "text", "page_content"):
            if isinstance(value.get(key), str):
                return value[key]
    return None


def _context_item(value: Any) -> str:
    text = _context_text(value)
    return text if text is not None else _as_text(value)


def _as_plan(value: Any) -> list[Any] | None:
    if value is None:
        return None
    if isinstance(value, str):
        return [line.strip() for line in value.splitlines() if line.strip()]
    if isinstance(value, list):
        return value
    raise EnvelopeError(f"'trusys.plan' must be a list of steps, got {type(value).__name__}")


def _as_events(value: Any) -> list[dict[str, Any]]:
    """``trusys.events``: objects with a ``type``; call events are normalised like the arrays' calls."""
    events = []
    for index, item in enumerate(_as_list(value, "events")):
        where = f"events[{index}]"
        if not isinstance(item, dict) or not isinstance(item.get("type"), str) or not item["type"].strip():
            raise EnvelopeError(f"'trusys.{where}' must be an object with a 'type' "
                                "(tool_call, agent_call, message, …)")
        event_type = item["type"].strip()
        fields = {k: v for k, v in item.items() if k != "type"}
        if event_type == "tool_call":
            fields = _tool_call(fields, where)
        elif event_type == "agent_call":
            fields = _agent_call(fields, where)
        elif event_type in _RESERVED_EVENT_TYPES:
            raise EnvelopeError(f"'trusys.{where}' has type {event_type!r}, which the trace records itself; "
                                "use type 'message' for text exchanged during the run")
        events.append({"type": event_type, **fields})
    return events


def _calls_from_events(events: list[dict[str, Any]], event_type: str, array: list[dict[str, Any]],
                       name: str) -> list[dict[str, Any]]:
    """The calls of one kind: those of ``events``; an array sent alongside must list the same calls."""
    from_events = [_event_entry(e)[1] for e in events if e["type"] == event_type]
    if array and [c.get("name") for c in array] != [c.get("name") for c in from_events]:
        raise EnvelopeError(f"'trusys.events' and 'trusys.{name}' list different {event_type.replace('_', ' ')}s; "
                            f"send the calls in one of them (events carries their order)")
    return from_events


def _tool_call(call: Any, where: str) -> dict[str, Any]:
    if not isinstance(call, dict):
        raise EnvelopeError(f"'trusys.{where}' must be an object")
    call = dict(call)
    function = call.get("function")
    if "name" not in call and isinstance(function, dict):  # OpenAI tool_calls shape
        call["name"] = function.get("name")
        call.setdefault("arguments", function.get("arguments"))
    if "name" not in call:
        raise EnvelopeError(f"'trusys.{where}' has no 'name'")
    args = call.get("arguments")
    if isinstance(args, str):
        try:
            call["arguments"] = json.loads(args)
        except (ValueError, RecursionError):
            pass
    call.setdefault("arguments", {})
    return call


def _agent_call(call: Any, where: str) -> dict[str, Any]:
    if not isinstance(call, dict) or "name" not in call:
        raise EnvelopeError(f"'trusys.{where}' must be an object with a 'name'")
    return dict(call)
