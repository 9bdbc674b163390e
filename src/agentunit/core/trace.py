"""Ordered record of what happened while a target answered one case."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any


def _now() -> datetime:
    return datetime.now(timezone.utc)


@dataclass(slots=True)
class TraceEvent:
    """One event: a prompt, a tool call, an agent call, a response.

    Args:
        type: event kind, e.g. ``tool_call``, ``agent_call``, ``agent_response``.
        payload: event data (for tool calls: ``name``, ``arguments``, ``output``, ``status``, ``cost``).
        created_at: when it happened (UTC).
    """

    type: str
    payload: dict[str, Any]
    created_at: datetime = field(default_factory=_now)

    @property
    def timestamp(self) -> float:
        """``created_at`` in seconds since the epoch (AgentUnit's name)."""
        return self.created_at.timestamp()


@dataclass(slots=True)
class TraceLog:
    """Events of one case run, plus run metadata (``cost``, ``usage``, ``plan``, ``query``, ``context``).

    ``metadata["order"]`` is ``unknown`` when the events were built from a reply whose tool calls and
    agent calls came in separate arrays with nothing saying how they interleave (``order_basis`` says
    why); the order of tool calls among themselves, and of agent calls among themselves, is still known.

    The multi-agent fields (``interactions``, ``handoffs``, ``conflicts``, ``agent_roles``) hold the
    data the multi-agent metrics read.
    """

    events: list[TraceEvent] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)
    interactions: list[Any] = field(default_factory=list)
    handoffs: list[Any] = field(default_factory=list)
    conflicts: list[Any] = field(default_factory=list)
    agent_roles: dict[str, Any] = field(default_factory=dict)

    def record(self, event_type: str, **payload: Any) -> TraceEvent:
        """Append an event and return it."""
        event = TraceEvent(type=event_type, payload=payload)
        self.events.append(event)
        return event

    def of_type(self, event_type: str) -> list[TraceEvent]:
        """Events of one type, in order."""
        return [e for e in self.events if e.type == event_type]

    @property
    def order_known(self) -> bool:
        """Whether the order between tool calls and agent calls was observed (a trace recorded live is)."""
        return self.metadata.get("order") != "unknown"

    def last_response(self) -> str | None:
        """Content of the last ``agent_response`` event, if any."""
        for event in reversed(self.events):
            if event.type == "agent_response":
                return str(event.payload.get("content"))
        return None

    def to_dict(self) -> dict[str, Any]:
        return {
            "events": [
                {"type": e.type, "payload": e.payload, "created_at": e.created_at.isoformat()}
                for e in self.events
            ],
            "metadata": self.metadata,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TraceLog:
        events = [
            TraceEvent(
                type=e.get("type", "event"),
                payload=e.get("payload", {}),
                created_at=datetime.fromisoformat(e["created_at"]) if e.get("created_at") else _now(),
            )
            for e in data.get("events", [])
        ]
        return cls(events=events, metadata=dict(data.get("metadata", {})))

    def save(self, path: str | Path) -> Path:
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(self.to_dict(), indent=2, default=str))
        return target

    @classmethod
    def load(cls, path: str | Path) -> TraceLog:
        return cls.from_dict(json.loads(Path(path).read_text()))
