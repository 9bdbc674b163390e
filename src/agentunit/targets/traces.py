"""The ``traces`` target: answer each case from a run the app already recorded (no call is made).

``{type: traces, path: "traces/*.json", format: auto | otlp | openinference, case_id_attribute: ATTR,
sessions: true, session_attribute: ATTR}``. A suite without cases gets one case per trace (with
``sessions``, one multi-turn case per conversation: the traces sharing ``session.id``); a suite with
cases answers each from the trace (or session) whose id (or ``case_id_attribute`` value) is the case's id,
or the one named by the case's ``metadata.trace_id`` / ``metadata.session_id``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agentunit.datasets.base import DatasetCase
from agentunit.errors import AgentUnitError
from agentunit.targets.base import Reply, Target
from agentunit.traces import RecordedSession, RecordedTrace, group_sessions, load_traces, recorded_run, session_run


class TracesTarget(Target):
    """Replies read from recorded traces: output, ordered tool/agent calls, usage, cost, latency."""

    kind = "traces"

    def __init__(self, spec: dict[str, Any], base_dir: Path | None = None):
        super().__init__(spec)
        self.cache_enabled = False  # reading a file is the cache
        self.base_dir = base_dir
        self.format = spec.get("format", "auto")
        self._by_id: dict[str, RecordedTrace | RecordedSession] | None = None

    def _index(self) -> dict[str, RecordedTrace | RecordedSession]:
        if self._by_id is None:
            traces = load_traces(self.spec["path"], self.base_dir, format=self.format,
                                 case_id_attribute=self.spec.get("case_id_attribute"))
            index: dict[str, RecordedTrace | RecordedSession] = {}
            if self.spec.get("sessions"):
                for session in group_sessions(traces, self.spec.get("session_attribute")):
                    index.setdefault(session.session_id, session)
            else:
                for trace in traces:
                    index.setdefault(trace.case_id, trace)
                    index.setdefault(trace.trace_id, trace)
            self._by_id = index
        return self._by_id

    def request(self, case: DatasetCase) -> dict[str, Any]:
        return {"trace": self._wanted(case)}

    @staticmethod
    def _wanted(case: DatasetCase) -> str:
        return str(case.metadata.get("session_id") or case.metadata.get("trace_id") or case.id)

    async def send(self, case: DatasetCase, request: dict[str, Any]) -> Reply:
        wanted = self._wanted(case)
        trace = self._index().get(wanted)
        if trace is None:
            raise AgentUnitError(f"no recorded trace for case {case.id!r}: no trace id or "
                                 f"{self.spec.get('case_id_attribute') or 'case id'} {wanted!r} "
                                 f"in {self.spec['path']!r}")
        prices = {k: float(v) for k, v in self.spec.items() if k.startswith("cost_per_1k_")}
        if isinstance(trace, RecordedSession):
            run = session_run(trace, self.format, prices=prices)
            where = f"session {trace.session_id}"
        else:
            run = recorded_run(trace, self.format, prices=prices)
            where = f"trace {trace.trace_id} in {', '.join(trace.files)}"
        if run.error:
            raise AgentUnitError(f"{run.error} ({where})")
        return Reply(body=run.envelope, usage=run.usage, cost=run.cost, finish_reason=run.finish_reason,
                     latency_ms=run.latency_ms)
