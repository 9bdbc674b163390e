"""Run an AgentUnit ``BaseAdapter`` as a target."""

from __future__ import annotations

import asyncio
import inspect
import threading
from typing import Any

from agentunit.core.outcome import Outcome
from agentunit.core.trace import TraceLog
from agentunit.datasets.base import DatasetCase
from agentunit.targets.base import Reply, Target


class AdapterTarget(Target):
    """Calls ``adapter.execute(case, trace)`` in a worker thread (awaited if it is async).

    ``prepare`` runs once before the first case and ``cleanup`` after the run. An outcome with
    ``success=False`` is retried up to ``retries`` times (AgentUnit's Scenario retries).
    """

    kind = "adapter"

    def __init__(self, adapter: Any, retries: int = 0):
        super().__init__({"type": "adapter", "adapter": getattr(adapter, "name", type(adapter).__name__)})
        if isinstance(retries, bool) or not isinstance(retries, int) or retries < 0:
            raise ValueError(f"retries must be a whole number ≥ 0, got {retries!r}")
        self.adapter = adapter
        self.retries = retries
        self._prepared = False
        self._lock = threading.Lock()

    def _prepare(self) -> None:
        with self._lock:
            if not self._prepared:
                self.adapter.prepare()
                self._prepared = True

    async def send(self, case: DatasetCase, request: dict[str, Any]) -> Reply:
        await asyncio.to_thread(self._prepare)
        outcome: Any = None
        trace = TraceLog()
        for _ in range(self.retries + 1):
            trace = TraceLog()
            if inspect.iscoroutinefunction(self.adapter.execute):
                outcome = await self.adapter.execute(case, trace)
            else:
                outcome = await asyncio.to_thread(self.adapter.execute, case, trace)
            if not isinstance(outcome, Outcome) or outcome.success:
                break
        if isinstance(outcome, Outcome):
            recorded = {e.payload.get("name") for e in trace.of_type("tool_call")}
            for call in outcome.tool_calls:
                if call.get("name") not in recorded:
                    trace.record("tool_call", **call)
            if outcome.output is not None and trace.last_response() is None:
                trace.record("agent_response", content=outcome.output)
            for key in ("cost", "usage"):
                if getattr(outcome, key) is not None:
                    trace.metadata.setdefault(key, getattr(outcome, key))
            if outcome.output is None and outcome.success:
                outcome.output = ""
        return Reply(body=outcome, extra={"trace": trace})

    async def aclose(self) -> None:
        if self._prepared:
            await asyncio.to_thread(self.adapter.cleanup)
            self._prepared = False
