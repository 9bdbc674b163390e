"""Recorded traces as cases: group spans into traces, and read each trace as one run of the agent.

A trace's case: ``prompt`` is the root span's input (else the first LLM call's last user message);
the answer is the root span's output (else the output of the LLM call that ended last); tool spans
become tool calls (name, arguments, result, error) and agent spans below the root agent calls, in
the order they started (``trusys.events``), and a tool call an LLM reply asked for that no tool span
records becomes one where its result reached the model (``source: llm_message``, the result from the
message that carried it back); the LLM calls' token usage and cost are summed; latency
runs from the first span's start to the last span's end.
"""

from __future__ import annotations

import glob
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import agentunit.traces.openinference as openinference
import agentunit.traces.otlp as otlp
from agentunit.errors import AgentUnitError
from agentunit.traces.spans import Role, Span, TraceFileError, read_spans

FORMATS = ("auto", "otlp", "openinference")
_CACHE: dict[tuple[Any, ...], list[RecordedTrace]] = {}
_CACHE_SIZE = 8


@dataclass
class RecordedTrace:
    """One trace: its spans in start order (ties: file order), its root, and the case id it answers."""

    trace_id: str
    case_id: str
    spans: list[Span]
    root: Span
    files: list[str] = field(default_factory=list)


@dataclass
class RecordedRun:
    """What a trace says the agent did: the reply envelope, and the transport facts of the target's Reply."""

    envelope: dict[str, Any]
    usage: dict[str, int] | None
    cost: float | None
    latency_ms: float
    finish_reason: str | None
    error: str | None


def trace_files(paths: str | list[str], base_dir: Path | None) -> list[Path]:
    """The files ``paths`` (a path or glob, or a list of them; relative to ``base_dir``) name, sorted, once
    each. Raises AgentUnitError when a pattern matches no file."""
    base = base_dir or Path.cwd()
    found: list[Path] = []
    for pattern in [paths] if isinstance(paths, str) else paths:
        full = pattern if Path(pattern).is_absolute() else str(base / pattern)
        matches = sorted(Path(m) for m in glob.glob(full, recursive=True) if Path(m).is_file())
        if not matches:
            raise AgentUnitError(f"traces path {pattern!r} matches no file (looked in {base})")
        found += [m for m in matches if m not in found]
    return found


def load_traces(paths: str | list[str], base_dir: Path | None = None, *, format: str = "auto",
                case_id_attribute: str | None = None) -> list[RecordedTrace]:
    """Read every trace of the files ``paths`` names, in the order their first span appears.

    ``case_id_attribute``: a span attribute whose value names the trace's case (the root span's, else the
    first span's that has it); without it, or where no span has it, the case id is the trace id (hex).
    Raises TraceFileError (file, line, span) for a file that cannot be read, AgentUnitError for a path
    that matches nothing. Results are kept while the files are unchanged.
    """
    if format not in FORMATS:
        raise AgentUnitError(f"traces format must be one of {', '.join(FORMATS)}, got {format!r}")
    files = trace_files(paths, base_dir)
    key = (tuple((str(f), f.stat().st_mtime_ns, f.stat().st_size) for f in files), format, case_id_attribute)
    if key in _CACHE:
        return _CACHE[key]
    spans: list[Span] = []
    for file in files:
        spans += read_spans(file, len(spans))
    grouped: dict[str, list[Span]] = {}
    for span in spans:
        grouped.setdefault(span.trace_id, []).append(span)
    traces = [_trace(trace_id, members, case_id_attribute) for trace_id, members in grouped.items()]
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[key] = traces
    return traces


def _trace(trace_id: str, spans: list[Span], case_id_attribute: str | None) -> RecordedTrace:
    ordered = sorted(spans, key=lambda s: (s.start_ns, s.order))
    ids = {s.span_id for s in spans}
    seen: set[str] = set()
    for span in spans:
        if span.span_id in seen:
            raise TraceFileError(f"{span.where}: span id {span.span_id} appears twice in trace {trace_id}",
                                 span.file, span.line)
        seen.add(span.span_id)
    roots = [s for s in ordered if s.parent_id is None or s.parent_id not in ids]
    root = roots[0] if roots else ordered[0]
    case_id = trace_id
    if case_id_attribute:
        for span in [root, *ordered]:
            value = span.attributes.get(case_id_attribute)
            if value not in (None, ""):
                case_id = str(value)
                break
    return RecordedTrace(trace_id, case_id, ordered, root, sorted({s.file for s in spans}))


def span_role(span: Span, format: str = "auto") -> Role:
    """The span's role under ``format``'s conventions (``auto``: OpenInference where the span has its kind,
    else GenAI)."""
    if format == "openinference" or (format == "auto" and openinference.applies(span)):
        return openinference.role(span)
    if format == "otlp" or otlp.applies(span):
        return otlp.role(span)
    return openinference.role(span)  # neither: input.value/output.value where present


def recorded_run(trace: RecordedTrace, format: str = "auto", *, prices: dict[str, float] | None = None
                 ) -> RecordedRun:
    """Read one trace as one run of the agent (see the module docstring).

    ``prices``: ``cost_per_1k_prompt_tokens``/``cost_per_1k_completion_tokens`` for traces whose LLM spans
    report tokens but no cost.
    """
    roles = {span.span_id: span_role(span, format) for span in trace.spans}
    root_role = roles[trace.root.span_id]
    llms = [(s, roles[s.span_id]) for s in trace.spans if roles[s.span_id].kind == "llm"]
    query = root_role.input or next((r.input for _, r in llms if r.input), None)
    output = root_role.output
    if output is None:
        ended = sorted((s for s, r in llms if r.output), key=lambda s: (s.end_ns, s.order))
        output = roles[ended[-1].span_id].output if ended else None
    timed: list[tuple[tuple[int, float], dict[str, Any]]] = []
    context: list[str] = []
    for span in trace.spans:
        role = roles[span.span_id]
        if role.kind == "retriever" and role.documents:
            context += role.documents
        if span is trace.root or role.kind not in ("tool", "agent"):
            continue
        call: dict[str, Any] = {"type": f"{role.kind}_call", "name": role.name or span.name}
        if role.kind == "tool":
            call["arguments"] = role.arguments if role.arguments is not None else {}
            if role.output is not None:
                call["output"] = role.output
            if role.call_id:
                call["id"] = role.call_id
        else:
            call.update({k: v for k, v in (("input", role.input), ("output", role.output)) if v is not None})
        if role.description:
            call["description"] = role.description
        if span.status == "error":
            call["error"] = span.status_message or "the span's status is ERROR"
        call.update(span_id=span.span_id, timestamp=_iso(span.start_ns), duration_ms=round(span.duration_ms, 3))
        timed.append(((span.start_ns, span.order), call))
    timed += _message_tool_calls(trace, roles, llms)
    events = [call for _, call in sorted(timed, key=lambda item: item[0])]
    usage = _sum_usage([r.usage for _, r in llms if r.usage])
    costs = [r.cost for _, r in llms if r.cost is not None]
    cost = sum(costs) if costs else _priced(usage, prices)
    latency_ms = (max(s.end_ns for s in trace.spans) - min(s.start_ns for s in trace.spans)) / 1e6
    meta: dict[str, Any] = {"query": query, "events": events}
    if usage:
        meta["usage"] = usage
    if cost is not None:
        meta["cost"] = cost
    if context:
        meta["context"] = context
    meta["recorded_trace"] = {"trace_id": trace.trace_id, "files": trace.files, "spans": len(trace.spans),
                              "root": trace.root.name,
                              "llm_calls": [{"model": r.model, "usage": r.usage, "cost": r.cost,
                                             "span_id": s.span_id} for s, r in llms]}
    error = None
    if trace.root.status == "error":
        error = (f"the recorded run failed: root span {trace.root.name!r} has status ERROR"
                 + (f": {trace.root.status_message}" if trace.root.status_message else ""))
    finish = next((r.finish_reason for _, r in reversed(llms) if r.finish_reason), None)
    return RecordedRun({"output": output if output is not None else "", "trusys": meta}, usage, cost,
                       latency_ms, finish, error)


def _message_tool_calls(trace: RecordedTrace, roles: dict[str, Role], llms: list[tuple[Span, Role]]
                        ) -> list[tuple[tuple[int, float], dict[str, Any]]]:
    """Tool calls known only from the LLM calls' messages (the app exported no tool span for them).

    A call an LLM reply asked for becomes a tool call placed where its result reached the model (the start
    of the LLM call whose input carries it back under its id), else at the end of the asking call; calls
    asked together keep the reply's order. A call is already a tool span when one has its id, or,
    for tool spans without ids, when an unmatched tool span of that name starts after the LLM call began.
    """
    tool_spans = [(s, roles[s.span_id]) for s in trace.spans if roles[s.span_id].kind == "tool"]
    span_ids = {r.call_id for _, r in tool_spans if r.call_id}
    unnamed = [(s, r) for s, r in tool_spans if not r.call_id]
    results: dict[str, str] = {}
    answered_at: dict[str, tuple[int, float]] = {}  # when the result reached the model: the call was done by then
    for span, role in llms:
        for call_id, result in (role.call_results or {}).items():
            results.setdefault(call_id, result)
            answered_at.setdefault(call_id, (span.start_ns, span.order - 0.5))
    found = []
    for span, role in llms:
        for index, request in enumerate(role.requested_calls or []):
            if request["id"] and request["id"] in span_ids:
                continue
            match = next((pair for pair in unnamed if pair[1].name == request["name"]
                          and pair[0].start_ns >= span.start_ns), None)
            if match is not None:
                unnamed.remove(match)
                continue
            call: dict[str, Any] = {"type": "tool_call", "name": request["name"], "arguments": request["arguments"]}
            if request["id"]:
                call["id"] = request["id"]
                if request["id"] in results:
                    call["output"] = results[request["id"]]
            when = answered_at.get(request["id"] or "", (span.end_ns, span.order + 0.5))
            call.update(source="llm_message", span_id=span.span_id, timestamp=_iso(when[0]))
            found.append(((when[0], when[1] + index / 1000), call))
    return found


SESSION_ATTRIBUTES = ("session.id", "gen_ai.conversation.id")  # OpenInference's, the GenAI conventions'


@dataclass
class RecordedSession:
    """The traces of one conversation (one per turn), in the order their turns started."""

    session_id: str
    traces: list[RecordedTrace]


def group_sessions(traces: list[RecordedTrace], attribute: str | None = None) -> list[RecordedSession]:
    """Traces grouped by the session they belong to: the value of ``attribute`` (default ``session.id``, else
    ``gen_ai.conversation.id``) on the trace's root span, else on any of its spans; a trace without one is a
    session of its own (named by its case id). Sessions in the order of their first turn."""
    keys = (attribute,) if attribute else SESSION_ATTRIBUTES
    grouped: dict[str, list[RecordedTrace]] = {}
    for trace in traces:
        session = next((str(span.attributes[key]) for span in [trace.root, *trace.spans] for key in keys
                        if span.attributes.get(key) not in (None, "")), trace.case_id)
        grouped.setdefault(session, []).append(trace)
    sessions = [RecordedSession(sid, sorted(ts, key=lambda t: (t.root.start_ns, t.root.order)))
                for sid, ts in grouped.items()]
    return sorted(sessions, key=lambda s: (s.traces[0].root.start_ns, s.traces[0].root.order))


def session_cases(sessions: list[RecordedSession], format: str = "auto") -> Iterator[dict[str, Any]]:
    """A case per session: the last turn's question as the prompt, the turns before it as the
    ``conversation`` (user question, assistant answer, each read as ``recorded_run`` reads a trace)."""
    for session in sessions:
        turns = [_turn(trace, format) for trace in session.traces]
        conversation: list[dict[str, str]] = []
        for question, answer in turns[:-1]:
            conversation += [{"role": "user", "content": question}, {"role": "assistant", "content": answer}]
        case: dict[str, Any] = {"id": session.session_id, "prompt": turns[-1][0] or "",
                                "metadata": {"session_id": session.session_id,
                                             "trace_ids": [t.trace_id for t in session.traces]}}
        if conversation:
            case["conversation"] = conversation
        yield case


def session_run(session: RecordedSession, format: str = "auto", *, prices: dict[str, float] | None = None
                ) -> RecordedRun:
    """A session read as one run: the last turn's answer; every turn's tool and agent calls in order, its
    context, usage and cost summed; latency from the first turn's start to the last turn's end; the first
    failed turn's error."""
    runs = [recorded_run(trace, format, prices=prices) for trace in session.traces]
    last = runs[-1]
    meta = dict(last.envelope["trusys"])
    meta["events"] = [event for run in runs for event in run.envelope["trusys"]["events"]]
    context = [doc for run in runs for doc in run.envelope["trusys"].get("context", [])]
    if context:
        meta["context"] = context
    usage = _sum_usage([run.usage for run in runs if run.usage])
    costs = [run.cost for run in runs if run.cost is not None]
    cost = sum(costs) if costs else None
    for key, value in (("usage", usage), ("cost", cost)):
        if value is not None:
            meta[key] = value
    meta["recorded_session"] = {"session_id": session.session_id, "turns": len(runs),
                                "trace_ids": [t.trace_id for t in session.traces]}
    spans = [span for trace in session.traces for span in trace.spans]
    latency_ms = (max(s.end_ns for s in spans) - min(s.start_ns for s in spans)) / 1e6
    error = next((run.error for run in runs if run.error), None)
    return RecordedRun({"output": last.envelope["output"], "trusys": meta}, usage, cost, latency_ms,
                       last.finish_reason, error)


def _turn(trace: RecordedTrace, format: str) -> tuple[str, str]:
    run = recorded_run(trace, format)
    return str(run.envelope["trusys"].get("query") or ""), str(run.envelope.get("output") or "")


def trace_cases(traces: list[RecordedTrace], format: str = "auto") -> Iterator[dict[str, Any]]:
    """A suite case (raw, as a cases file holds it) for each trace: id, prompt, and where it came from."""
    for trace in traces:
        root_role = span_role(trace.root, format)
        query = root_role.input
        if query is None:
            query = next((r.input for r in (span_role(s, format) for s in trace.spans)
                          if r.kind == "llm" and r.input), None)
        yield {"id": trace.case_id, "prompt": query or "",
               "metadata": {"trace_id": trace.trace_id, "trace_files": trace.files}}


def _sum_usage(usages: list[dict[str, int]]) -> dict[str, int] | None:
    if not usages:
        return None
    total: dict[str, int] = {}
    for usage in usages:
        for key, value in usage.items():
            total[key] = total.get(key, 0) + value
    return total


def _priced(usage: dict[str, int] | None, prices: dict[str, float] | None) -> float | None:
    if not usage or not prices:
        return None
    prompt, completion = prices.get("cost_per_1k_prompt_tokens"), prices.get("cost_per_1k_completion_tokens")
    if prompt is None and completion is None:
        return None
    return (usage.get("prompt_tokens", 0) * (prompt or 0.0) + usage.get("completion_tokens", 0) * (completion or 0.0)
            ) / 1000.0


def _iso(ns: int) -> str:
    return datetime.fromtimestamp(ns / 1e9, tz=timezone.utc).isoformat(timespec="microseconds").replace("+00:00", "Z")
