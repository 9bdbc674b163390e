"""AgentUnit-style adapters."""

from agentunit.adapters.base import AdapterOutcome, BaseAdapter

__all__ = ["AdapterOutcome", "BaseAdapter"]
