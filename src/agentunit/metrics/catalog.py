"""Imports every built-in metric family so that each registers itself once."""

from agentunit.metrics import agentic, numeric, performance, reference, text  # noqa: F401
