"""How the agentic metrics read the run's calls and show them to the judge: the available tools'
schemas, the call names of each kind, a plan step naming a call, one line per call, and the calls
grouped when the order between tool and agent calls was not recorded."""

from __future__ import annotations

import json
import re
from typing import Any


def _normal_words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower().replace("_", " ").replace("-", " ")))


def _step_mentions(step: Any, name: str) -> bool:
    """A plan step (text, or ``{tool|name|agent, ...}``) names a tool/agent when all of its words occur in it."""
    if isinstance(step, dict):
        named = step.get("tool") or step.get("name") or step.get("agent")
        if isinstance(named, str):
            return named == name
        step = " ".join(str(v) for v in step.values())
    words = _normal_words(name)
    return bool(words) and words <= _normal_words(str(step))


def _available_tool_names(tools: Any) -> set[str]:
    """Names of the available tools: tool schemas (``_tool_specs``) and plain names."""
    return set(_tool_specs(tools)) | {tool for tool in tools or [] if isinstance(tool, str)}


def _call_names(trace) -> tuple[list[str], list[str]]:
    """Names of the trace's tool calls and of its agent calls, each in order."""
    return ([str(e.payload.get("name")) for e in trace.of_type("tool_call")],
            [str(e.payload.get("name")) for e in trace.of_type("agent_call")])


_ORDER_NOTE = "The order between the tool calls and the agent calls was not recorded."


def _tool_specs(tools: Any) -> dict[str, dict[str, Any]]:
    """name → {description, parameters} from OpenAI-style tool schemas or plain dicts."""
    specs = {}
    for tool in tools or []:
        if isinstance(tool, dict):
            function = tool.get("function") if isinstance(tool.get("function"), dict) else tool
            if isinstance(function.get("name"), str):
                specs[function["name"]] = function
    return specs


def _call_line(payload: dict[str, Any], limit: int) -> str:
    arguments = payload.get("arguments", payload.get("input", {}))
    return f"{payload.get('name')}({json.dumps(arguments, ensure_ascii=False, default=str)[:limit]})"


def _call_result(payload: dict[str, Any], limit: int) -> str:
    return str(payload.get("output", payload.get("error", "")))[:limit]


def _call_groups(trace) -> list[tuple[str, list[Any]]]:
    """The trace's calls for a judge prompt: (heading, events) — one ordered list, or one list per
    kind when the order between tool calls and agent calls is unknown."""
    calls = [e for e in trace.events if e.type in ("tool_call", "agent_call")]
    tools = [e for e in calls if e.type == "tool_call"]
    agents = [e for e in calls if e.type == "agent_call"]
    if trace.order_known or not tools or not agents:
        return [("Calls, in order", calls)]
    return [("Tool calls, in order", tools), ("Agent calls, in order", agents)]
