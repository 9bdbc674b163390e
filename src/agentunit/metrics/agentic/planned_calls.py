"""The judge's own plan of the tool calls a request needs: tool-selection-quality scores the agent's
calls against it, and the goal-call check (was the plan's last call made?) halves task-completion,
goal-fulfillment and trajectory:goal-success when it was not. The judge also reads an agent's plan as
the calls it makes (plan-adherence's whole-plan reading)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from agentunit.core.envelope import tool_call_failed, tool_calls_of
from agentunit.judges.base import JudgeOutputError, JudgeRequest
from agentunit.judges.service import current_judge
from agentunit.metrics._values import switch
from agentunit.metrics.agentic.calls import _tool_specs
from agentunit.metrics.base import MetricResult
from agentunit.metrics.judged import JudgedMetric
from agentunit.metrics.registry import register


def _tool_lines(specs: dict[str, dict[str, Any]]) -> str:
    """The available tools for a judge prompt: name, description and argument names, one per line."""
    lines = []
    for name, spec in specs.items():
        properties = (spec.get("parameters") or {}).get("properties") or {}
        lines.append(f"- {name}" + (f": {spec['description']}" if spec.get("description") else "")
                     + (f" (arguments: {', '.join(properties)})" if properties else ""))
    return "\n".join(lines)


MAX_PLANNED_CALLS = 12  # the plan's length bound: a judge that repeats a call without end still closes its JSON


async def _judge_plan(question: str, specs: dict[str, dict[str, Any]]) -> list[str] | None:
    """The tool calls the judge would make for the request, in order: names of the available tools only
    (its JSON output is constrained to them); None when the reply is not the requested JSON."""
    return await _listed_calls(
        "You plan the tool calls an agent needs. Reply with JSON only.",
        f"User request: {question}\nAvailable tools:\n{_tool_lines(specs)}\n\nList, in order, the tool "
        "calls needed to carry out the request: one entry per call (a tool called for two things is "
        "listed twice), none that the request does not need.", specs)


async def _judge_plan_calls(question: str, plan: list[Any], specs: dict[str, dict[str, Any]]) -> list[str] | None:
    """The tool calls the agent's plan makes, in the plan's order, as the judge reads the whole plan
    (JSON constrained to the available tools' names); None when the reply is not the requested JSON."""
    steps = "\n".join(f"{i}. {step}" for i, step in enumerate(plan, 1))
    return await _listed_calls(
        "You turn an agent's plan into the tool calls it makes. Reply with JSON only.",
        f"User request: {question}\nAvailable tools:\n{_tool_lines(specs)}\n\nPlan:\n{steps}\n\nList, in the "
        "plan's order, the tool calls that carrying out this plan makes: one entry per call (a step that calls "
        "a tool twice is listed twice); a step that calls no tool, such as telling the user, is left out.", specs)


async def _listed_calls(system: str, user: str, specs: dict[str, dict[str, Any]]) -> list[str] | None:
    """One generation of ``{"calls": [tool name, …]}`` (JSON constrained to the tools' names, at most
    MAX_PLANNED_CALLS), parsed; None when the reply is not the requested JSON."""
    schema = {"type": "object", "required": ["calls"], "properties": {"calls": {
        "type": "array", "items": {"enum": list(specs)}, "maxItems": MAX_PLANNED_CALLS}}}
    text, _, _ = await current_judge().generate(JudgeRequest((("system", system), ("user", user)),
                                                             max_tokens=200, json_schema=schema))
    try:
        calls = json.loads(text)["calls"]
    except (ValueError, KeyError, TypeError):
        return None
    return [str(c) for c in calls] if isinstance(calls, list) else None


GOAL_CALL_MISSED_FACTOR = 0.5


def goal_call_option(metric: str, config: dict[str, Any]) -> bool:
    """``config.check_goal_call`` (default true), validated."""
    return switch(config, "check_goal_call", True, metric)


async def halve_without_goal_call(request: str, tools: Any, calls: list[dict[str, Any]], score: float,
                                  reason: str) -> tuple[float, str, dict[str, Any]]:
    """``goal_call_check``, then the score halved (``GOAL_CALL_MISSED_FACTOR``) with the reason extended
    when the goal call was not made: (score, reason, the check for the detail)."""
    check = await goal_call_check(request, tools, calls)
    if check.get("made") is False:
        score *= GOAL_CALL_MISSED_FACTOR
        reason += (f"; halved: the request's goal call {check['goal_call']} (the last call of the judge's plan) "
                   "was never made successfully")
    return score, reason, check


async def goal_call_check(request: str, tools: Any, calls: list[dict[str, Any]]) -> dict[str, Any]:
    """Whether the run made the request's goal call.

    The judge plans the tool calls the request needs (``_judge_plan``: the plan tool-selection-quality
    scores against, one generation cached per request and tool list); its last call is the one the
    request is for — the booking, the message, the order after the lookups, or the lookup whose result
    a question asks for. ``made`` is whether the run called that tool with a call that did not fail.

    Returns ``{"plan", "goal_call", "made"}``, or ``{"skipped": reason}`` without available tools or
    without a readable, non-empty plan (then nothing is checked).
    """
    specs = _tool_specs(tools)
    if not specs:
        return {"skipped": "no available tools to plan with (set the case's tools or config.tools)"}
    planned = await _judge_plan(request, specs)
    if not planned:
        return {"skipped": "the judge's plan of tool calls was empty or not the requested JSON"}
    goal = planned[-1]
    made = any(call.get("name") == goal and not tool_call_failed(call) for call in calls)
    return {"plan": planned, "goal_call": goal, "made": made}


def effective_calls(calls: list[dict[str, Any]]) -> list[str]:
    """Names of the calls that count for tool selection: a failed call retried later (the same tool called
    again) is the retry's, not a second choice of that tool."""
    return [str(call.get("name")) for i, call in enumerate(calls)
            if not (tool_call_failed(call) and any(later.get("name") == call.get("name") for later in calls[i + 1:]))]


def multiset_f1(planned: list[str], used: list[str]) -> float:
    """F1 of two lists of tool names counted with repeats: 2·|shared| / (|planned| + |used|)."""
    shared = sum((Counter(planned) & Counter(used)).values())
    return 2 * shared / (len(planned) + len(used)) if shared else 0.0


@register("tool-selection-quality", family="agentic", threshold=0.85, model="judge",
          example="{metric: tool-selection-quality}")
class ToolSelectionQuality(JudgedMetric):
    """Were the right tools chosen for the request, as many times as needed and no more?

    Algorithm: the judge plans the calls itself — given the request and the available tools (the
    case's ``tools`` or ``config.tools``), it lists the tool calls the request needs, in order, as
    JSON constrained to the tools' names (one generation, cached per request and tool list). The
    score is the F1 of that plan against the agent's calls, tool names counted with repeats
    (``multiset_f1``), after dropping a failed call that the agent retried with the same tool. The
    detail lists the judge's plan, the calls counted, and the tools missing or extra. Pass mark 0.85,
    chosen on the tune split of tests/data/labelled/agent_runs.jsonl (docs/agentic.md): asked PASS/FAIL
    about the run, the 1.5B judge was at chance (AUC 0.456); asked to plan, it agrees with right runs
    more than with runs that use a wrong tool, miss a call or add one (AUC 0.705). No tool calls, or no
    list of available tools → not measured; a plan that is not the requested JSON → an error.
    """

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        calls = tool_calls_of(trace, outcome)
        if not calls:
            return self.not_measured("no tool calls")
        specs = _tool_specs(self.config.get("tools", case.tools))
        if not specs:
            return self.not_measured("no available tools to choose from (set the case's tools or config.tools)")
        planned = await _judge_plan(outcome.query or case.query, specs)
        if planned is None:
            raise JudgeOutputError("the judge's plan of tool calls was not the requested JSON")
        used = effective_calls(calls)
        score = multiset_f1(planned, used)
        missing = list((Counter(planned) - Counter(used)).elements())
        extra = list((Counter(used) - Counter(planned)).elements())
        reason = f"{score:.3f} F1 of the calls against the judge's plan"
        if missing or extra:
            reason += "; " + "; ".join(part for part in (f"not called: {', '.join(missing)}" if missing else "",
                                                         f"not planned: {', '.join(extra)}" if extra else "") if part)
        return self.result(score, reason=reason, detail={"method": "judge plan", "judge_plan": planned,
                                                         "calls": used, "missing": missing, "extra": extra})
