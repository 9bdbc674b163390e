"""Recorded agent traces (OpenTelemetry GenAI / OTLP JSON, OpenInference / Phoenix) read as cases.

``load_traces`` reads trace files into ``RecordedTrace`` objects, ``recorded_run`` reads one as a run of
the agent (its answer, tool and agent calls in the order they happened, usage, cost, latency),
``group_sessions``/``session_run`` read the traces of one conversation as one multi-turn case, and the
``traces`` target (agentunit.targets.traces) answers each case from its trace. See docs/traces.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from agentunit.traces.record import (
    FORMATS,
    RecordedRun,
    RecordedSession,
    RecordedTrace,
    group_sessions,
    load_traces,
    recorded_run,
    session_cases,
    session_run,
    trace_cases,
)
from agentunit.traces.spans import Role, Span, TraceFileError, read_spans

__all__ = ["FORMATS", "RecordedRun", "RecordedSession", "RecordedTrace", "Role", "Span", "TraceFileError",
           "group_sessions", "load_traces", "raw_trace_cases", "read_spans", "recorded_run", "session_cases",
           "session_run", "trace_cases"]


def raw_trace_cases(target: dict[str, Any], base_dir: Path | None, problems: Any, suite_file: str | None
                    ) -> Iterator[Any]:
    """The raw cases of a suite whose ``traces`` target supplies them (one per trace); a trace file that
    cannot be read is a problem naming the file, line and span, a path matching nothing one at the target."""
    from agentunit.errors import AgentUnitError
    from agentunit.suite.sources import RawCase

    fmt = target.get("format", "auto")
    try:
        traces = load_traces(target["path"], base_dir, format=fmt, case_id_attribute=target.get("case_id_attribute"))
    except TraceFileError as exc:
        problems.error(exc.reason, file=exc.file, line=exc.line or 1,
                       suggestion="fix or remove the file, or narrow the target's `path`")
        return
    except AgentUnitError as exc:
        problems.error(str(exc), ("target", "path"), file=suite_file)
        return
    cases = session_cases(group_sessions(traces, target.get("session_attribute")), fmt) \
        if target.get("sessions") else trace_cases(traces, fmt)
    for raw in cases:
        yield RawCase(raw, suite_file, ("target", "path"), None, from_data=True)
