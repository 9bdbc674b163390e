"""Spans read from exported trace files, in one shape whatever the file's layout.

Two layouts are read, detected from the content (``.json``: one document; ``.jsonl``/``.ndjson``: one
document a line):

- **OTLP JSON** (``{"resourceSpans": [{"scopeSpans": [{"spans": [...]}]}]}``): what the OTLP/HTTP JSON
  exporters, the OpenTelemetry Collector's file exporter, and ``MessageToDict(encode_spans(spans))`` write.
  Ids in hex (the OTLP JSON rule) or base64 (protobuf's JSON mapping), times in ``*UnixNano``, attributes
  as ``[{key, value: {stringValue | intValue | …}}]``.
- **span lists** (a JSON array of spans, ``{"spans": [...]}``/``{"data": [...]}``, or one span a line):
  the OpenTelemetry SDK's ``span.to_json()`` / console exporter and Phoenix's span export
  (``context.trace_id``/``span_id``, ``parent_id``, ISO ``start_time``/``end_time``, ``status_code``,
  ``attributes`` flat or nested, ``span_kind``).

Every problem is a TraceFileError naming the file (and line, for one-document-a-line files) and the span.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from agentunit.errors import AgentUnitError

MAX_TRACE_FILE_BYTES = 256 * 1024 * 1024
_HEX = re.compile(r"[0-9a-fA-F]+")
_ERROR_STATUSES = {"error", "status_code_error", "2"}
_OK_STATUSES = {"ok", "status_code_ok", "1"}


class TraceFileError(AgentUnitError):
    """A trace file that cannot be read; the message names the file, the line when known, and the span."""

    def __init__(self, message: str, file: str, line: int | None = None):
        super().__init__(f"{file}{f':{line}' if line else ''}: {message}")
        self.file, self.line, self.reason = file, line, message


@dataclass(slots=True)
class Span:
    """One span: ids in lowercase hex, times in ns since the epoch, attributes flat (dotted keys).

    ``status`` is ``ok``, ``error`` or ``unset``; ``events`` are ``{name, time_ns, attributes}``;
    ``order`` is the span's position in the files read (ties of start time keep it); ``where`` names the
    span in messages (file, line, index, name).
    """

    trace_id: str
    span_id: str
    parent_id: str | None
    name: str
    start_ns: int
    end_ns: int
    attributes: dict[str, Any] = field(default_factory=dict)
    status: str = "unset"
    status_message: str | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    order: int = 0
    where: str = ""
    file: str = ""
    line: int | None = None

    @property
    def duration_ms(self) -> float:
        return (self.end_ns - self.start_ns) / 1e6


def read_spans(path: Path, first_order: int = 0) -> list[Span]:
    """Every span of one trace file, in file order; raises TraceFileError."""
    file = str(path)
    try:
        size = path.stat().st_size
        if size > MAX_TRACE_FILE_BYTES:
            raise TraceFileError(f"trace file is {size} bytes, over the {MAX_TRACE_FILE_BYTES} byte limit", file)
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise TraceFileError(f"cannot read trace file: {exc.strerror or exc}", file) from None
    except UnicodeDecodeError as exc:
        raise TraceFileError(f"trace file is not UTF-8 text: {exc.reason}", file) from None
    documents: list[tuple[Any, int | None]] = []
    if path.suffix.lower() in (".jsonl", ".ndjson"):
        for number, line in enumerate(text.splitlines(), 1):
            if line.strip():
                documents.append((_decode(line, file, number), number))
    else:
        documents.append((_decode(text, file, None), None))
    spans: list[Span] = []
    for document, line in documents:
        for raw, where, decode in _raw_spans(document, file, line):
            spans.append(decode(raw, file, line, where, first_order + len(spans)))
    return spans


def _decode(text: str, file: str, line: int | None) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise TraceFileError(f"invalid JSON: {exc.msg} (column {exc.colno})", file,
                             line if line is not None else exc.lineno) from None
    except RecursionError:
        raise TraceFileError("invalid JSON: nested too deeply", file, line) from None


def _raw_spans(document: Any, file: str, line: int | None) -> list[tuple[Any, str, Any]]:
    """(raw span, where, decoder) for each span of one decoded document, in document order."""
    if isinstance(document, dict) and "resourceSpans" in document:
        found = []
        resource_spans = _list(document["resourceSpans"], "resourceSpans", file, line)
        for r, resource in enumerate(resource_spans):
            scopes = _list(_obj(resource, f"resourceSpans[{r}]", file, line).get("scopeSpans",
                           resource.get("instrumentationLibrarySpans")), f"resourceSpans[{r}].scopeSpans", file, line)
            for s, scope in enumerate(scopes):
                key = f"resourceSpans[{r}].scopeSpans[{s}].spans"
                for i, raw in enumerate(_list(_obj(scope, key, file, line).get("spans"), key, file, line)):
                    found.append((raw, f"{key}[{i}]", _otlp_span))
        return found
    if isinstance(document, dict) and isinstance(document.get("spans", document.get("data")), list):
        key = "spans" if isinstance(document.get("spans"), list) else "data"
        return [(raw, f"{key}[{i}]", _flat_span) for i, raw in enumerate(document[key])]
    if isinstance(document, list):
        return [(raw, f"[{i}]", _flat_span) for i, raw in enumerate(document)]
    if isinstance(document, dict) and ("context" in document or "span_id" in document):
        return [(document, "span", _flat_span)]
    raise TraceFileError("not a trace export: expected OTLP JSON ({\"resourceSpans\": …}) or a list of spans "
                         "(a JSON array, {\"spans\": […]}, or one span a line)", file, line)


def _list(value: Any, key: str, file: str, line: int | None) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise TraceFileError(f"{key} must be a list, got {type(value).__name__}", file, line)
    return value


def _obj(value: Any, key: str, file: str, line: int | None) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TraceFileError(f"{key} must be an object, got {type(value).__name__}", file, line)
    return value


def _otlp_span(raw: Any, file: str, line: int | None, where: str, order: int) -> Span:
    raw = _obj(raw, where, file, line)
    label = _label(where, raw.get("name"))
    attributes = _otlp_attributes(raw.get("attributes"), label, file, line)
    status = raw.get("status") if isinstance(raw.get("status"), dict) else {}
    events = []
    for e, event in enumerate(_list(raw.get("events"), f"{label}: events", file, line)):
        event = _obj(event, f"{label}: events[{e}]", file, line)
        events.append({"name": str(event.get("name", "")),
                       "time_ns": _nanos(event.get("timeUnixNano"), f"{label}: events[{e}].timeUnixNano", file, line,
                                         required=False),
                       "attributes": _otlp_attributes(event.get("attributes"), f"{label}: events[{e}]", file, line)})
    return _span(raw.get("traceId"), raw.get("spanId"), raw.get("parentSpanId"), raw.get("name"),
                 _nanos(raw.get("startTimeUnixNano"), f"{label}: startTimeUnixNano", file, line),
                 _nanos(raw.get("endTimeUnixNano"), f"{label}: endTimeUnixNano", file, line),
                 attributes, _status(status.get("code")), status.get("message"), events, order, label, file, line,
                 ("traceId", "spanId"))


def _flat_span(raw: Any, file: str, line: int | None, where: str, order: int) -> Span:
    raw = _obj(raw, where, file, line)
    label = _label(where, raw.get("name"))
    context = raw.get("context") if isinstance(raw.get("context"), dict) else {}
    attributes = raw.get("attributes") or {}
    if not isinstance(attributes, dict):
        raise TraceFileError(f"{label}: attributes must be an object, got {type(attributes).__name__}", file, line)
    attributes = flatten(attributes)
    kind = raw.get("span_kind")
    if isinstance(kind, str) and "openinference.span.kind" not in attributes:  # Phoenix keeps it beside them
        attributes["openinference.span.kind"] = kind
    status = raw.get("status") if isinstance(raw.get("status"), dict) else {}
    code = raw.get("status_code", status.get("status_code"))
    message = raw.get("status_message", status.get("description"))
    events = []
    for e, event in enumerate(_list(raw.get("events"), f"{label}: events", file, line)):
        event = _obj(event, f"{label}: events[{e}]", file, line)
        events.append({"name": str(event.get("name", "")),
                       "time_ns": _time(event.get("timestamp"), f"{label}: events[{e}].timestamp", file, line,
                                        required=False),
                       "attributes": flatten(event.get("attributes") if isinstance(event.get("attributes"), dict)
                                             else {})})
    return _span(context.get("trace_id", raw.get("trace_id")), context.get("span_id", raw.get("span_id")),
                 raw.get("parent_id", raw.get("parent_span_id")), raw.get("name"),
                 _time(raw.get("start_time"), f"{label}: start_time", file, line),
                 _time(raw.get("end_time"), f"{label}: end_time", file, line),
                 attributes, _status(code), message, events, order, label, file, line,
                 ("context.trace_id", "context.span_id"))


def _span(trace_id: Any, span_id: Any, parent_id: Any, name: Any, start: int | None, end: int | None,
          attributes: dict[str, Any], status: str, message: Any, events: list[dict[str, Any]], order: int,
          label: str, file: str, line: int | None, id_keys: tuple[str, str]) -> Span:
    trace = _hex_id(trace_id, 16, f"{label}: {id_keys[0]}", file, line)
    span = _hex_id(span_id, 8, f"{label}: {id_keys[1]}", file, line)
    parent = _hex_id(parent_id, 8, f"{label}: parent span id", file, line) if parent_id else None
    assert start is not None and end is not None  # required times raise when absent
    if end < start:
        raise TraceFileError(f"{label}: ends before it starts ({end} < {start} ns)", file, line)
    return Span(trace, span, parent, str(name or ""), start, end, attributes, status,
                str(message) if message else None, events, order, label, file, line)


def _label(where: str, name: Any) -> str:
    return f"span {where}" + (f" ({str(name)[:80]!r})" if name else "")


def _hex_id(value: Any, size: int, what: str, file: str, line: int | None) -> str:
    """An id as lowercase hex: hex (``0x`` allowed) of ``size`` bytes, else base64 of ``size`` bytes."""
    if isinstance(value, str) and value.strip():
        text = value.strip()
        text = text[2:] if text[:2].lower() == "0x" else text
        if len(text) == size * 2 and _HEX.fullmatch(text):
            return text.lower()
        try:
            raw = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            raw = b""
        if len(raw) == size:
            return raw.hex()
        if _HEX.fullmatch(text) and len(text) <= size * 2:  # a short hex id (0x-prefixed SDK JSON drops zeros)
            return text.lower().rjust(size * 2, "0")
    raise TraceFileError(f"{what} must be a {size}-byte id in hex or base64, got {str(value)[:60]!r}", file, line)


def _nanos(value: Any, what: str, file: str, line: int | None, *, required: bool = True) -> int | None:
    if value is None and not required:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise TraceFileError(f"{what} must be nanoseconds since the epoch, got {str(value)[:60]!r}", file, line)
    try:
        return int(value)
    except ValueError:
        raise TraceFileError(f"{what} must be nanoseconds since the epoch, got {str(value)[:60]!r}", file,
                             line) from None


def _time(value: Any, what: str, file: str, line: int | None, *, required: bool = True) -> int | None:
    """ISO 8601 text, or a number: ns when above 1e15, ms above 1e11, else seconds."""
    if value is None and not required:
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        number = float(value)
        scale = 1 if number > 1e15 else 1e6 if number > 1e11 else 1e9
        return int(value) if scale == 1 else round(number * scale)
    if isinstance(value, str) and value.strip():
        try:
            moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            moment = None
        if moment is not None:
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=timezone.utc)
            delta = moment - datetime(1970, 1, 1, tzinfo=timezone.utc)
            return (delta.days * 86_400 + delta.seconds) * 1_000_000_000 + delta.microseconds * 1000
    raise TraceFileError(f"{what} must be an ISO 8601 time or epoch number, got {str(value)[:60]!r}", file, line)


def _status(code: Any) -> str:
    text = str(code).strip().lower() if code is not None else ""
    return "error" if text in _ERROR_STATUSES else "ok" if text in _OK_STATUSES else "unset"


def _otlp_attributes(items: Any, label: str, file: str, line: int | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for index, item in enumerate(_list(items, f"{label}: attributes", file, line)):
        if not isinstance(item, dict) or not isinstance(item.get("key"), str):
            raise TraceFileError(f"{label}: attributes[{index}] must be {{key, value}}", file, line)
        out[item["key"]] = otlp_value(item.get("value"))
    return out


def otlp_value(value: Any) -> Any:
    """An OTLP ``AnyValue`` (``{stringValue: …}``, ``{intValue: "3"}``, arrays, kvlists) as a Python value."""
    if not isinstance(value, dict) or not value:
        return None
    key, inner = next(iter(value.items()))
    if key == "intValue":
        try:
            return int(inner)
        except (TypeError, ValueError):
            return inner
    if key == "doubleValue":
        try:
            return float(inner)
        except (TypeError, ValueError):
            return inner
    if key == "arrayValue":
        return [otlp_value(v) for v in (inner or {}).get("values", [])]
    if key == "kvlistValue":
        return {kv.get("key"): otlp_value(kv.get("value")) for kv in (inner or {}).get("values", [])
                if isinstance(kv, dict)}
    return inner  # stringValue, boolValue, bytesValue (base64 text)


def flatten(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested attributes (Phoenix writes ``{"llm": {"token_count": {"prompt": 3}}}``) as dotted keys; lists of
    objects are indexed (``llm.input_messages.0.message.role``), lists of values stay lists."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            out.update(flatten(value, name + "."))
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            for index, item in enumerate(value):
                out.update(flatten(item, f"{name}.{index}."))
        else:
            out[name] = value
    return out


@dataclass(slots=True)
class Role:
    """What a span was in the agent's run, read through one attribute convention.

    ``kind``: ``agent``, ``llm``, ``tool``, ``retriever`` or ``other``; ``name``: the tool's, agent's or
    model's; ``input``/``output``: text (a tool's ``arguments`` decoded from JSON where they are JSON);
    ``usage``: ``{prompt_tokens, completion_tokens, total_tokens}`` as reported; ``documents``: retrieved text.
    An LLM call's ``requested_calls`` are the tool calls its reply asked for (``{id, name, arguments}``) and
    ``call_results`` the tool results its input messages carried back, by call id: how an agent's tool
    calls show when the app exports no tool spans.
    """

    kind: str
    name: str | None = None
    input: str | None = None
    output: str | None = None
    arguments: Any = None
    call_id: str | None = None
    description: str | None = None
    usage: dict[str, int] | None = None
    cost: float | None = None
    model: str | None = None
    finish_reason: str | None = None
    documents: list[str] | None = None
    requested_calls: list[dict[str, Any]] | None = None
    call_results: dict[str, str] | None = None


def as_text(value: Any) -> str | None:
    """A text attribute: strings as they are, other values as JSON; None for None and empty text."""
    if value is None:
        return None
    if isinstance(value, str):
        return value if value != "" else None
    return json.dumps(value, ensure_ascii=False, default=str)


def decoded(value: Any) -> Any:
    """JSON text decoded (tool arguments and results are often exported as JSON strings); else the value."""
    if isinstance(value, str) and value.lstrip()[:1] in ("{", "["):
        try:
            return json.loads(value)
        except (ValueError, RecursionError):
            return value
    return value


def number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


def indexed(attributes: dict[str, Any], prefix: str) -> list[dict[str, Any]]:
    """Items of an indexed attribute family (``prefix.0.rest``, ``prefix.1.rest``) as dicts of ``rest``."""
    items: dict[int, dict[str, Any]] = {}
    start = prefix + "."
    for key, value in attributes.items():
        if key.startswith(start):
            head, _, rest = key[len(start):].partition(".")
            if head.isdigit() and rest:
                items.setdefault(int(head), {})[rest] = value
    return [items[i] for i in sorted(items)]


def usage_of(prompt: Any, completion: Any, total: Any) -> dict[str, int] | None:
    """``{prompt_tokens, completion_tokens, total_tokens}`` from what a span reported; None when nothing."""
    values = {k: number(v) for k, v in (("prompt_tokens", prompt), ("completion_tokens", completion),
                                         ("total_tokens", total))}
    found = {k: int(v) for k, v in values.items() if v is not None}
    if not found:
        return None
    if "total_tokens" not in found and "prompt_tokens" in found and "completion_tokens" in found:
        found["total_tokens"] = found["prompt_tokens"] + found["completion_tokens"]
    return found
