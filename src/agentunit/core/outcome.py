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
    ``media`` lists the reply's media references (``trusys.image``, ``images``, ``audio``, ``video`` and
    image items of ``trusys.context``), not loaded; ``media_cache`` keeps what
    ``agentunit.media.media_of`` loaded for this case, so each medium is read once.
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
    media: list[Any] | None = None  # agentunit.media.MediaRef items
    media_cache: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)


# AgentUnit adapters return ``AdapterOutcome(success=..., output=..., tool_calls=..., error=...)``.
AdapterOutcome = Outcome
