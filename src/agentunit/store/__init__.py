"""Results storage (SQLite)."""

from agentunit.store.sqlite import DEFAULT_DB, Store

__all__ = ["DEFAULT_DB", "Store"]
