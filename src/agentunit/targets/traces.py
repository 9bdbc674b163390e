"""The ``traces`` target: answer each case from a run the app already recorded (no call is made).

``{type: traces, path: "traces/*.json", format: auto | otlp | openinference, case_id_attribute: ATTR}``.
A suite without cases gets one case per trace; a suite with cases answers each from the trace whose id
(or ``case_id_attribute`` value) is the case's id, or the trace named by the case's ``metadata.trace_id``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agentunit.datasets.base import DatasetCase
from agentunit.errors import AgentUnitError
from agentunit.targets.base import Reply, Target
from agentunit.traces import RecordedTrace, load_traces, recorded_run


class TracesTarget(Target):
    """Replies read from recorded traces: output, ordered tool/agent calls, usage, cost, latency."""

    kind = "traces"

    def __init__(self, spec: dict[str, Any], base_dir: Path | None = None):
        super().__init__(spec)
        self.cache_enabled = False  # reading a file is the cache
        self.base_dir = base_dir
        self.format = spec.get("format", "auto")
        self._by_id: dict[str, RecordedTrace] | None = None

    def _index(self) -> dict[str, RecordedTrace]:
        if self._by_id is None:
            traces = load_traces(self.spec["path"], self.base_dir, format=self.format,
                                 case_id_attribute=self.spec.get("case_id_attribute"))
            index: dict[str, RecordedTrace] = {}
            for trace in traces:
                index.setdefault(trace.case_id, trace)
                index.setdefault(trace.trace_id, trace)
            self._by_id = index
        return self._by_id

    def request(self, case: DatasetCase) -> dict[str, Any]:
        return {"trace": self._wanted(case)}

    @staticmethod
    def _wanted(case: DatasetCase) -> str:
        return str(case.metadata.get("trace_id") or case.id)

    async def send(self, case: DatasetCase, request: dict[str, Any]) -> Reply:
        wanted = self._wanted(case)
        trace = self._index().get(wanted)
        if trace is None:
            raise AgentUnitError(f"no recorded trace for case {case.id!r}: no trace id or "
                                 f"{self.spec.get('case_id_attribute') or 'case id'} {wanted!r} "
                                 f"in {self.spec['path']!r}")
        run = recorded_run(trace, self.format, prices={k: float(v) for k, v in self.spec.items()
                                                       if k.startswith("cost_per_1k_")})
        if run.error:
            raise AgentUnitError(f"{run.error} (trace {trace.trace_id} in {', '.join(trace.files)})")
        return Reply(body=run.envelope, usage=run.usage, cost=run.cost, finish_reason=run.finish_reason,
                     latency_ms=run.latency_ms)
