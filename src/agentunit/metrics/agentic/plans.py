"""plan-adherence: did the agent carry out the steps of its own plan, in order? Steps naming a call
are aligned with the calls by code; the rest go to the judge, and the plan is also read as a whole."""

from __future__ import annotations

from typing import Any

from agentunit.judges.service import pass_fail
from agentunit.metrics._values import switch
from agentunit.metrics.agentic.calls import _ORDER_NOTE, _available_tool_names, _call_names, _step_mentions, _tool_specs
from agentunit.metrics.agentic.planned_calls import _judge_plan_calls
from agentunit.metrics.agentic.tool_use import weighted_lcs
from agentunit.metrics.base import MetricResult
from agentunit.metrics.judged import JudgedMetric
from agentunit.metrics.registry import register


@register("plan-adherence", family="agentic", needs=("output",), threshold=0.7, model="judge",
          example="{metric: plan-adherence}")
class PlanAdherence(JudgedMetric):
    """Share of the plan's steps that the agent carried out, in order.

    Algorithm: the executed steps are the trace's tool and agent calls in order. A plan step that
    names an executed tool or agent (all the name's words appear in the step, or ``{tool: name}``) is
    aligned deterministically — an order-preserving alignment (longest common subsequence), so a
    step done out of order does not count. A step naming an available tool (the case's ``tools`` or
    ``config.tools``) that was never called fails without a judge call. Only the remaining steps,
    which name nothing the trace can settle, go to the judge (one PASS/FAIL decision each, given the
    executed steps). Score = (aligned steps + Σ P(PASS) of judged steps) / steps. No plan → not measured.

    When the order between tool calls and agent calls is unknown (separate arrays without
    ``trusys.events``, ``seq`` or ``timestamp``), steps are aligned with the tool calls' order and,
    failing that, with the agent calls' order, each of which was observed. Any tool step may then
    have happened before or after any agent step, so the smaller of the two groups of aligned steps
    (the agent steps on a tie) is reported "order unknown" and left out of the score; the larger
    group stands, since its steps are in order whatever the interleaving.

    When steps went to the judge and the tools are listed (the case's or ``config.tools``), the plan
    is also read as a whole (``config.read_whole_plan``, default true): the judge turns the whole plan
    into the tool calls it makes (JSON constrained to the tools' names, one generation), and that
    reading scores LCS(plan calls, tool calls made) / the longer of the two — in order, nothing
    skipped, nothing added. The score is the higher of the two readings: step by step, the small judge fails steps
    written in other words ("Check when Anna is available tomorrow"); read whole, it sometimes adds a
    call, which one extra call in four costs 0.25. Pass mark 0.7, on the tune split of
    tests/data/labelled/agent_runs.jsonl (docs/agentic.md).
    """

    def setup(self) -> None:
        self._read_whole_plan = switch(self.config, "read_whole_plan", True, self.name)

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        plan = outcome.plan if outcome.plan is not None else case.plan
        if not plan:
            return self.not_measured("no plan (return trusys.plan or set the case's plan)")
        executed = [str(e.payload.get("name")) for e in trace.events if e.type in ("tool_call", "agent_call")]
        if not executed:
            executed = [str(c.get("name")) for c in outcome.tool_calls + outcome.agent_calls]
        tools, agents = _call_names(trace)
        ordered = trace.order_known or not tools or not agents
        if ordered:
            aligned, unknown = {i: executed[j] for i, j in _align(plan, executed).items()}, set()
        else:
            aligned, unknown = _align_without_order(plan, tools, agents)
        tool_list = self.config.get("tools", case.tools)
        available = _available_tool_names(tool_list)
        steps = []
        credit = 0.0
        for index, step in enumerate(plan):
            text = step if isinstance(step, str) else str(step)
            if index in unknown:
                steps.append({"step": text, "method": "order unknown", "call": aligned[index], "support": None})
            elif index in aligned:
                steps.append({"step": text, "method": "aligned", "call": aligned[index], "support": 1.0})
                credit += 1.0
            elif any(_step_mentions(step, name) for name in executed) or \
                    any(_step_mentions(step, name) for name in available):
                steps.append({"step": text, "method": "tool not called in order", "support": 0.0})
            else:
                support = await _judge_step(text, _calls_summary(trace, executed), outcome.output)
                steps.append({"step": text, "method": "judge", "support": round(support, 4)})
                credit += support
        counted = len(plan) - len(unknown)
        score = credit / counted
        judged = sum(1 for s in steps if s["method"] == "judge")
        reason = f"{credit:.2f}/{counted} plan steps followed" + (f" ({judged} judged)" if judged else "")
        detail = {"steps": steps, "executed": executed, "judge_calls": judged}
        specs = _tool_specs(tool_list)
        if judged and specs and self._read_whole_plan:
            read = await _whole_plan_reading(outcome.query or case.query, plan, specs, tools)
            detail["whole_plan"] = read
            detail["judge_calls"] += 1
            if read.get("score") is not None and read["score"] > score:
                score = read["score"]
                reason += (f"; read as a whole, the plan's {len(read['plan_calls'])} tool call(s) match the "
                           f"{len(tools)} made in order: {score:.2f}")
        if unknown:
            reason += (f"; {len(unknown)} step(s) order unknown (the order between tool calls and agent calls "
                       "was not recorded)")
        if not ordered:
            detail.update(order="unknown", order_basis=trace.metadata.get("order_basis"))
        return self.result(score, reason=reason, detail=detail)


async def _whole_plan_reading(question: str, plan: list[Any], specs: dict[str, dict[str, Any]],
                              made: list[str]) -> dict[str, Any]:
    """The plan read as a whole against the tool calls made: ``{plan_calls, score}`` with score =
    LCS(plan calls, calls made) / the longer of the two; ``{skipped: reason}`` when the judge's reading
    is empty or not the requested JSON."""
    planned = await _judge_plan_calls(question, plan, specs)
    if not planned:
        return {"skipped": "the judge's reading of the plan was empty or not the requested JSON"}
    shared = len(weighted_lcs(planned, made, lambda a, b: float(a == b)))
    return {"plan_calls": planned, "score": shared / max(len(planned), len(made))}


def _align(plan: list[Any], executed: list[str]) -> dict[int, int]:
    """Order-preserving alignment of plan steps to executed calls that they name (LCS)."""
    return {i: j for i, j, _ in weighted_lcs(plan, executed, lambda step, name: float(_step_mentions(step, name)))}


def _align_without_order(plan: list[Any], tools: list[str], agents: list[str]) -> tuple[dict[int, str], set[int]]:
    """Align the plan with the tool calls, then the rest with the agent calls (two observed orders).

    Returns ({step: call name}, steps whose order is unknown). Every pair of an aligned tool step and
    an aligned agent step has an unobserved relative order; the fewest steps to set aside so that no
    such pair remains is the smaller group (a minimum vertex cover of a complete bipartite graph).
    """
    by_tools = {i: tools[j] for i, j in _align(plan, tools).items()}
    rest = [i for i in range(len(plan)) if i not in by_tools]
    by_agents = {rest[i]: agents[j] for i, j in _align([plan[i] for i in rest], agents).items()}
    unknown = set(by_agents) if len(by_agents) <= len(by_tools) else set(by_tools)
    return {**by_tools, **by_agents}, unknown if by_tools and by_agents else set()


def _calls_summary(trace, executed: list[str]) -> str:
    """The executed calls for a judge prompt: one ordered list, or one per kind when the order between
    kinds is unknown (so the judge is not shown an order that was never observed)."""
    tools, agents = _call_names(trace)
    if trace.order_known or not tools or not agents:
        return "Executed calls, in order: " + (", ".join(executed) or "(no tool or agent calls)")
    return f"Tool calls, in order: {', '.join(tools)}\nAgent calls, in order: {', '.join(agents)}\n{_ORDER_NOTE}"


async def _judge_step(step: str, calls: str, output: str | None) -> float:
    decision = await pass_fail(
        "You check whether an agent carried out a step of its plan. Reply FAIL or PASS.",
        f"{calls}\nFinal answer: {output or ''}\n\nPlan step: {step}\n\n"
        "If the executed calls or the final answer show that this step was carried out, reply PASS. "
        "Otherwise reply FAIL.")
    return decision.probabilities["PASS"]
