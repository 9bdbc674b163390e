"""The run's trajectory as promptfoo's trajectory assertions read it: its steps (tool calls, shell
commands, agent calls, messages) in the order they happened, the step matchers their values name (globs
over names, step types), and the ``TrajectoryMetric`` base that checks its value when built."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from agentunit.core.envelope import ordered_events
from agentunit.errors import MetricConfigError
from agentunit.metrics.base import Metric

COMMAND_TOOLS = frozenset({"exec_command", "local_shell", "shell"})
STEP_TYPES = ("tool", "command", "agent", "message")


@dataclass
class Step:
    """One step of the run's trajectory: a tool call, shell command, agent call or message."""

    type: str
    name: str
    aliases: list[str]
    args: Any = None
    has_args: bool = False
    raw: dict[str, Any] = field(default_factory=dict)

    def label(self) -> str:
        return f"{self.type}:{self.name}"


def trajectory_steps(trace, outcome) -> tuple[list[Step], str]:
    """The run's steps in the order they happened, and where they came from.

    Calls come from the reply (``trusys.events``, else ``tool_calls`` then ``agent_calls`` — their
    relative order is only known with ``events``, ``seq`` or ``timestamp``), else the trace's
    ``tool_call``/``agent_call`` events (an adapter's trace), else tool calls written in the output
    (OpenAI ``tool_calls``, Anthropic ``tool_use``, Google ``functionCall``), as tool-call-f1 reads them.
    """
    entries: list[tuple[str, dict[str, Any]]] = []
    source = "reply"
    events = ordered_events(outcome)
    if events is not None and (outcome.events or outcome.tool_calls or outcome.agent_calls):
        entries = [(str(e.get("type")), e) for e in events]
    elif outcome.tool_calls or outcome.agent_calls:
        entries = [("tool_call", c) for c in outcome.tool_calls] + [("agent_call", c) for c in outcome.agent_calls]
    else:
        source = "trace"
        entries = [(e.type, e.payload) for e in getattr(trace, "events", [])
                   if e.type in ("tool_call", "agent_call")]
    if not entries and outcome.output:
        from agentunit.metrics.tool_calls import collect_tool_calls

        source = "output"
        entries = [("tool_call", c) for c in collect_tool_calls(outcome.output, []) if isinstance(c.get("name"), str)]
    return [s for s in (_step(kind, payload) for kind, payload in entries) if s is not None], source


def _step(kind: str, payload: dict[str, Any]) -> Step | None:
    name = payload.get("name")
    if kind == "message":
        text = payload.get("content", payload.get("text", ""))
        return Step("message", "message", ["message", str(name or "")], raw=payload) if text is not None else None
    if not isinstance(name, str) or not name.strip():
        return None
    name = name.strip()
    if kind == "agent_call":
        return Step("agent", name, [name], raw=payload)
    if kind != "tool_call":
        return None
    has_args = "arguments" in payload and payload["arguments"] is not None
    args = _parsed(payload.get("arguments"))
    command = _command(name, args)
    if command is not None:
        executable = command.split()[0]
        return Step("command", command, [command, name, executable], args, has_args, payload)
    return Step("tool", name, [name], args, has_args, payload)


def _parsed(value: Any) -> Any:
    if isinstance(value, str) and value.strip()[:1] in ("{", "["):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _command(name: str, args: Any) -> str | None:
    lowered = name.lower()
    if not isinstance(args, dict):
        return None
    if lowered not in COMMAND_TOOLS and not (lowered == "execute" and any(k in args for k in ("cmd", "command",
                                                                                            "commands"))):
        return None
    for key, separator in (("cmd", " "), ("command", " "), ("commands", "; ")):
        value = args.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
        if isinstance(value, list) and value:
            joined = separator.join(str(v).strip() for v in value if str(v).strip())
            if joined:
                return joined
    return None


def glob_match(text: str, pattern: str) -> bool:
    """promptfoo's span pattern: ``*`` any characters, ``?`` one, the whole name, case ignored."""
    regex = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)
    return re.fullmatch(regex, text, re.I | re.S) is not None


@dataclass(frozen=True)
class Matcher:
    """A step matcher: ``pattern`` (or ``name``) as a glob over the step's names, and its types."""

    pattern: str | None
    types: tuple[str, ...]

    @property
    def label(self) -> str:
        return self.pattern or "*"

    def matches(self, step: Step) -> bool:
        if self.types and step.type not in self.types:
            return False
        return self.pattern is None or any(glob_match(alias, self.pattern) for alias in step.aliases)


def matcher_of(value: Any, what: str, default_type: str | None = None, *, named: bool = False) -> Matcher:
    """A step matcher from a string (a tool name or glob) or ``{name|pattern, type}``."""
    if isinstance(value, str):
        return Matcher(value, (default_type,) if default_type else ())
    if not isinstance(value, dict):
        raise MetricConfigError(f"{what} must be a tool name or an object with `name`/`pattern`, got {value!r}")
    pattern = value.get("pattern") or value.get("name")
    if pattern is not None and not isinstance(pattern, str):
        raise MetricConfigError(f"{what} `name`/`pattern` must be text, got {pattern!r}")
    if named and not pattern:
        raise MetricConfigError(f"{what} must include a `name` or `pattern`")
    kinds = value.get("type")
    if kinds is None:
        types: tuple[str, ...] = (default_type,) if default_type else ()
    else:
        listed = kinds if isinstance(kinds, list) else [kinds]
        unknown = [k for k in listed if k not in (*STEP_TYPES, "span", "search", "reasoning")]
        if unknown:
            raise MetricConfigError(f"{what} `type` must be among {', '.join(STEP_TYPES)}, got {unknown!r}")
        types = tuple("agent" if k == "span" else k for k in listed)
    return Matcher(pattern or None, types)


def _bound(value: dict[str, Any], key: str, what: str) -> int | None:
    bound = value.get(key)
    if bound is None:
        return None
    if isinstance(bound, bool) or not isinstance(bound, (int, float)) or bound < 0:
        raise MetricConfigError(f"{what} `{key}` must be a number ≥ 0, got {bound!r}")
    return bound


def _actual(steps: list[Step]) -> str:
    return ", ".join(s.label() for s in steps) or "(none)"


class TrajectoryMetric(Metric):
    """Base for the trajectory checks: the value is checked when the metric is built."""

    kind_name = "trajectory"

    def setup(self) -> None:
        if self.value is None:
            raise MetricConfigError(f"{self.name} needs a value (see `agentunit metrics {self.name}`)")
        self.parse(self.value)

    def parse(self, value: Any) -> Any:
        raise NotImplementedError

    def steps(self, trace, outcome) -> tuple[list[Step], str]:
        return trajectory_steps(trace, outcome)
