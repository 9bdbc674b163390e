"""AgentUnit adapters: wrap any agent framework behind prepare / execute / cleanup."""

from __future__ import annotations

from abc import ABC, abstractmethod

from agentunit.core.outcome import AdapterOutcome
from agentunit.core.trace import TraceLog
from agentunit.datasets.base import DatasetCase


class BaseAdapter(ABC):
    """Subclass and implement ``execute``; record tool calls with ``trace.record("tool_call", ...)``."""

    name = "adapter"

    def prepare(self) -> None:  # noqa: B027  (optional hook)
        """Acquire resources once before the first case."""

    @abstractmethod
    def execute(self, case: DatasetCase, trace: TraceLog) -> AdapterOutcome:
        """Run one case and return its outcome."""

    def cleanup(self) -> None:  # noqa: B027  (optional hook)
        """Release resources after the last case."""


__all__ = ["AdapterOutcome", "BaseAdapter"]
