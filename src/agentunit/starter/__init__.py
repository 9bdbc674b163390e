"""``agentunit init``: write a starter suite (and a small app to test) for a kind of application."""

from agentunit.starter.write import KINDS, Starter, write_starter

__all__ = ["KINDS", "Starter", "write_starter"]
