"""What a target produced for one case: the answer plus the evaluation metadata it reported."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Outcome:
    """The answer of the system under test for one case, and everything metrics may read about it.

    ``output`` is the answer text. The other fields come from the reply's ``trusys`` envelope, from
    the target (usage, logprobs, finish reason of an OpenAI-compatible endpoint) or from the runner
    (latency, cache hit). ``success``/``error`` describe the call itself, not the answer's quality.
    ``events`` is ``trusys.events``: the tool calls, agent calls and messages in the order they
    happened (its calls are the same as ``tool_calls`` and ``agent_calls``); None when not sent.
    """

    output: str | None = None
    success: bool = True
    error: str | None = None
    query: str | None = None
    context: list[str] | None = None
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    plan: list[Any] | None = None
    agent_calls: list[dict[str, Any]] = field(default_factory=list)
    usage: dict[str, Any] | None = None
    cost: float | None = None
    latency_ms: float | None = None
    logprobs: list[float] | None = None
    finish_reason: str | None = None
    cached: bool = False
    metadata: dict[str, Any] = field(default_factory=dict)
    resources: dict[str, Any] | None = None  # measured by the engine for sustainability metrics
    events: list[dict[str, Any]] | None = None  # last, so positional construction keeps its meaning


# AgentUnit adapters return ``AdapterOutcome(success=..., output=..., tool_calls=..., error=...)``.
AdapterOutcome = Outcome
