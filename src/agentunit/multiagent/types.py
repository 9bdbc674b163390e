"""Data types of a multi-agent run: interactions, handoffs, conflicts and roles (AgentUnit-compatible).

Apps report them in their reply's ``trusys`` envelope (``interactions``, ``handoffs``, ``conflicts``,
``agent_roles``) as plain JSON objects; ``coerce_*`` turn those into these types, so metrics read one
shape whatever the source (Python objects, envelope dicts, or ``agent_call`` events of a TraceLog).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field, fields
from datetime import datetime
from enum import Enum
from typing import Any

AgentID = str


class InteractionType(Enum):
    """Kinds of message between agents."""

    REQUEST = "request"
    RESPONSE = "response"
    NOTIFICATION = "notification"
    DELEGATION = "delegation"
    COLLABORATION = "collaboration"
    NEGOTIATION = "negotiation"
    CONFLICT = "conflict"
    HANDOFF = "handoff"


@dataclass(frozen=True)
class AgentRole:
    """What an agent is meant to do.

    Args:
        name: role name.
        description: free text.
        responsibilities: message types or tasks the role handles.
        capabilities: actions/message types the role may perform; with ``responsibilities`` this is
            what role adherence checks an agent's messages against (empty: anything goes).
        authority_level: 0–10.
        specialization: primary area.
        can_delegate: whether the role may send ``delegation`` / ``handoff`` messages.
        can_escalate: whether the role may escalate.
    """

    name: str
    description: str = ""
    responsibilities: list[str] = field(default_factory=list)
    capabilities: list[str] = field(default_factory=list)
    authority_level: int = 5
    specialization: str = "general"
    can_delegate: bool = False
    can_escalate: bool = True
    required_skills: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not 0 <= self.authority_level <= 10:
            raise ValueError("authority_level must be between 0 and 10")
        if not str(self.name).strip():
            raise ValueError("role name cannot be empty")

    def allows(self, interaction: AgentInteraction) -> bool:
        """Whether sending this interaction is within the role."""
        kind = interaction.interaction_type
        if kind in (InteractionType.DELEGATION, InteractionType.HANDOFF) and not self.can_delegate:
            return False
        allowed = {a.lower() for a in (*self.capabilities, *self.responsibilities)}
        if not allowed:
            return True
        return interaction.message_type.lower() in allowed or kind.value in allowed


@dataclass
class AgentInteraction:
    """One message from an agent to one or more agents.

    Args:
        from_agent: sender id.
        to_agent: receiver id, or a list of ids for a broadcast.
        interaction_type: an ``InteractionType`` (or its value).
        message_type: the app's own label for the message (``search``, ``summarize``, …).
        content: the message.
        success: whether the message was delivered and acted on.
        response_time: seconds until the receiver answered (0 = unknown).
        timestamp: when it was sent.
    """

    from_agent: AgentID = ""
    to_agent: AgentID | list[AgentID] = ""
    interaction_type: InteractionType = InteractionType.REQUEST
    message_type: str = "generic"
    content: Any = None
    success: bool = True
    response_time: float = 0.0
    timestamp: datetime = field(default_factory=datetime.now)
    interaction_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    metadata: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.from_agent:
            raise ValueError("from_agent is required")
        if not self.to_agent:
            raise ValueError("to_agent is required")
        if not isinstance(self.interaction_type, InteractionType):
            self.interaction_type = InteractionType(str(self.interaction_type).lower())

    @property
    def receivers(self) -> list[AgentID]:
        return list(self.to_agent) if isinstance(self.to_agent, list | tuple) else [self.to_agent]


@dataclass
class HandoffEvent:
    """A task passed from one agent to another.

    Args:
        from_agent / to_agent: the agents.
        task_id: the task.
        success: whether the receiver took the task over.
        handoff_time: seconds the handoff took.
    """

    from_agent: AgentID = ""
    to_agent: AgentID = ""
    task_id: str = ""
    success: bool = True
    handoff_time: float = 0.0
    handoff_reason: str = "unspecified"
    timestamp: datetime = field(default_factory=datetime.now)
    handoff_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass
class ConflictEvent:
    """A disagreement between agents.

    Args:
        agents_involved: the agents.
        conflict_type: ``resource``, ``priority``, ``strategy``, ``information``, …
        resolved: whether it was resolved.
        resolution_time: seconds to resolution.
        resolution_method: how it was resolved.
    """

    agents_involved: list[AgentID] = field(default_factory=list)
    conflict_type: str = "unspecified"
    description: str = ""
    severity: str = "medium"
    resolved: bool = False
    resolution_time: float = 0.0
    resolution_method: str = "unresolved"
    timestamp: datetime = field(default_factory=datetime.now)
    conflict_id: str = field(default_factory=lambda: str(uuid.uuid4()))

    def resolve(self, method: str) -> None:
        """Mark the conflict resolved now."""
        self.resolved = True
        self.resolution_method = method
        self.resolution_time = (datetime.now() - self.timestamp).total_seconds()


def _build(cls: type, data: dict[str, Any], aliases: dict[str, str]) -> Any:
    names = {f.name for f in fields(cls)}
    kwargs = {}
    for key, value in data.items():
        key = aliases.get(key, key)
        if key in names:
            kwargs[key] = value
    if isinstance(kwargs.get("timestamp"), str):
        kwargs["timestamp"] = datetime.fromisoformat(kwargs["timestamp"])
    return cls(**kwargs)


_INTERACTION_KEYS = {"from": "from_agent", "to": "to_agent", "type": "interaction_type", "sender": "from_agent",
                     "receiver": "to_agent", "latency_s": "response_time"}
_HANDOFF_KEYS = {"from": "from_agent", "to": "to_agent", "task": "task_id", "duration": "handoff_time"}
_CONFLICT_KEYS = {"agents": "agents_involved", "type": "conflict_type", "duration": "resolution_time"}


def coerce_interaction(item: Any) -> AgentInteraction:
    """An ``AgentInteraction`` from itself or from an envelope dict (``from``/``to``/``type`` accepted)."""
    return item if isinstance(item, AgentInteraction) else _build(AgentInteraction, item, _INTERACTION_KEYS)


def coerce_handoff(item: Any) -> HandoffEvent:
    """A ``HandoffEvent`` from itself or from an envelope dict."""
    return item if isinstance(item, HandoffEvent) else _build(HandoffEvent, item, _HANDOFF_KEYS)


def coerce_conflict(item: Any) -> ConflictEvent:
    """A ``ConflictEvent`` from itself or from an envelope dict."""
    return item if isinstance(item, ConflictEvent) else _build(ConflictEvent, item, _CONFLICT_KEYS)


def coerce_role(name: str, item: Any) -> AgentRole:
    """An ``AgentRole`` from itself, a dict, or a bare role name."""
    if isinstance(item, AgentRole):
        return item
    if isinstance(item, str):
        return AgentRole(name=item)
    data = dict(item)
    data.setdefault("name", name)
    return _build(AgentRole, data, {})
