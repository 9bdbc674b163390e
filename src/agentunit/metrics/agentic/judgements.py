"""Judge decisions about the whole run over its transcript: task-completion, goal-fulfillment,
plan-quality and reasoning-coherence, with the checks by code they apply (success claimed after a call
that failed for good, values the run never saw)."""

from __future__ import annotations

import re
from typing import Any, ClassVar

from agentunit.core.envelope import tool_call_failed, tool_calls_of
from agentunit.judges.base import JudgeRequest
from agentunit.judges.service import current_judge, pass_fail
from agentunit.metrics._grounding import unsupported_values
from agentunit.metrics._values import switch
from agentunit.metrics.agentic.calls import _ORDER_NOTE, _available_tool_names, _call_groups, _call_line, _call_result
from agentunit.metrics.agentic.planned_calls import goal_call_option, halve_without_goal_call
from agentunit.metrics.base import MetricResult
from agentunit.metrics.judged import JudgedMetric
from agentunit.metrics.rag import context_of
from agentunit.metrics.registry import register


def agent_transcript(case: Any, trace: Any, outcome: Any, tools: Any = None) -> str:
    """The run as the judge sees it: request, plan, calls with arguments and outputs, the available
    tools (``tools``, else the case's), final answer.

    The calls are one ordered list, or, when the order between tool calls and agent calls was not
    recorded, one list per kind with a note saying so."""
    lines = [f"User request: {outcome.query or case.query}"]
    plan = outcome.plan if outcome.plan is not None else case.plan
    if plan:
        lines.append("Plan:\n" + "\n".join(f"{i}. {step}" for i, step in enumerate(plan, 1)))
    groups = [(heading, events) for heading, events in _call_groups(trace) if events]
    for heading, events in groups:
        rendered = [f"- {e.type.replace('_call', '')} {_call_line(e.payload, 300)} -> {_call_result(e.payload, 300)}"
                    for e in events]
        lines.append(f"{heading}:\n" + "\n".join(rendered))
    if len(groups) > 1:
        lines.append(_ORDER_NOTE)
    available = sorted(_available_tool_names(tools if tools is not None else case.tools))
    if available:
        lines.append(f"Available tools: {', '.join(available)}")
    lines.append(f"Final answer: {outcome.output}")
    return "\n".join(lines)


def unrecovered_failures(calls: list[dict[str, Any]]) -> list[str]:
    """Names of the failed calls the run never recovered from: no later call of the same tool succeeded."""
    return [str(call.get("name")) for i, call in enumerate(calls) if tool_call_failed(call)
            and not any(later.get("name") == call.get("name") and not tool_call_failed(later)
                        for later in calls[i + 1:])]


_ADMITS_FAILURE = re.compile(
    r"\b(?:could ?n[o'’]t|can ?n[o'’]t|cannot|unable|fail(?:ed|s|ure)?|errors?|unsuccessful|unfortunately|went wrong"
    r"|did ?n[o'’]t (?:go through|work|succeed)|no such|does ?n[o'’]t exist"
    r"|(?:(?:was|were|is|are|has|have) ?n[o'’]t|not) (?:been )?(?:able|possible|created|booked|sent|placed|completed"
    r"|done|processed|found|saved|updated))\b", re.IGNORECASE)


def admits_failure(text: str) -> bool:
    """The text tells the user something did not work ("couldn't", "failed", "was not booked", "no such …")."""
    return _ADMITS_FAILURE.search(text) is not None


def claimed_success_after_failure(trace, outcome) -> list[str]:
    """The failed calls the run never recovered from, when the final answer does not admit any failure:
    the agent reports success for work that did not happen. Empty when there are none or the answer
    says something did not work (then whether the run did the job is the judge's to decide)."""
    failed = unrecovered_failures(tool_calls_of(trace, outcome))
    return failed if failed and not admits_failure(outcome.output or "") else []


class _AgentJudgement(JudgedMetric):
    """One judge decision about the whole run over its transcript. With ``statement`` set, the judge
    is asked whether that statement about the run is true (yes/no) and the score is P(yes); otherwise
    it is asked the PASS/FAIL ``question`` and the score is P(PASS). With ``fails_unadmitted_failure``,
    a run whose failed call was never retried successfully while its answer admits no failure scores 0
    without a judge call (``claimed_success_after_failure``). With ``checks_goal_call``, a run that
    never made the request's goal call (``halve_without_goal_call``) has its score halved. With
    ``checks_values``, an answer stating values the run never saw (``halve_unsupported_values``) has
    its score halved."""

    question: ClassVar[str] = ""
    statement: ClassVar[str | None] = None  # true of the run means PASS; replaces ``question`` when set
    judged: ClassVar[str] = ""  # what a PASS says, for the reason: "the agent completed the request"
    requires: ClassVar[str | None] = None  # "plan" or "tool_calls"
    fails_unadmitted_failure: ClassVar[bool] = False
    checks_goal_call: ClassVar[bool] = False
    checks_values: ClassVar[bool] = False

    def setup(self) -> None:
        self._check_goal_call = self.checks_goal_call and goal_call_option(self.name, self.config)
        self._check_values = self.checks_values and switch(self.config, "check_values", True, self.name)

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        if self.requires == "plan" and not (outcome.plan or case.plan):
            return self.not_measured("no plan (return trusys.plan or set the case's plan)")
        if self.requires == "tool_calls" and not trace.of_type("tool_call"):
            return self.not_measured("no tool calls")
        if self.fails_unadmitted_failure and (failed := claimed_success_after_failure(trace, outcome)):
            return self.result(0.0, reason=unadmitted_failure_reason(failed),
                               detail={"method": "code", "unrecovered_failures": failed})
        transcript = agent_transcript(case, trace, outcome, self.config.get("tools"))
        if self.statement:
            question = f"Statement: {self.statement}\nIs the statement true?"
            decision = await current_judge().decide(JudgeRequest.yes_no(
                "You check whether statements about an AI agent's run are true. Answer yes or no.",
                f"{transcript}\n\n{question}"))
            score = decision.probabilities["yes"]
        else:
            question = self.question
            decision = await pass_fail("You evaluate an AI agent's run. Reply FAIL or PASS.",
                                       f"{transcript}\n\n{question}")
            score = decision.probabilities["PASS"]
        reason = f"P(pass) = {score:.3f} that {self.judged}"
        detail = {"judge": decision.to_detail(), "question": question}
        if self._check_goal_call:
            score, reason, detail["goal_call"] = await halve_without_goal_call(
                outcome.query or case.query, self.config.get("tools", case.tools), tool_calls_of(trace, outcome),
                score, reason)
        if self._check_values:
            calls = [*tool_calls_of(trace, outcome),
                     *(outcome.agent_calls or [e.payload for e in trace.of_type("agent_call")])]
            score, reason, detail["unsupported_values"] = halve_unsupported_values(
                outcome.output or "", outcome.query or case.query or "", calls, context_of(case, outcome) or [],
                score, reason)
        return self.result(score, reason=reason, detail=detail)


UNSUPPORTED_VALUE_FACTOR = 0.5


def halve_unsupported_values(answer: str, request: str, calls: list[dict[str, Any]], passages: list[str],
                             score: float, reason: str) -> tuple[float, str, list[str]]:
    """``_grounding.unsupported_values`` of the final answer against the request, the context passages
    and the calls (tool and agent calls); when there are any, the score halved
    (``UNSUPPORTED_VALUE_FACTOR``) with the reason extended: (score, reason, the unsupported values)."""
    unsupported = unsupported_values(answer, "\n".join([request, *passages]), calls)
    if unsupported:
        score *= UNSUPPORTED_VALUE_FACTOR
        reason += (f"; halved: the final answer states {', '.join(repr(v) for v in unsupported)}, which no call "
                   "returned or was given and neither the request nor the context says")
    return score, reason, unsupported


def unadmitted_failure_reason(failed: list[str]) -> str:
    """The reason given when a run claims success after calls that failed for good."""
    return (f"{', '.join(dict.fromkeys(failed))} failed and was never retried successfully, but the final answer "
            "does not say that anything went wrong")


@register("task-completion", family="agentic", threshold=0.4, model="judge", example="{metric: task-completion}")
class TaskCompletion(_AgentJudgement):
    """Did the agent complete the user's task? One judge decision over the request, the calls (with
    arguments and results) and the final answer: the judge is asked whether the statement "the agent
    completed every part of the request: each call it relied on succeeded, and nothing asked for was
    left undone" is true of the run (yes/no); score = P(yes).

    First, by code: a run with a failed call that was never retried successfully, whose final answer
    admits no failure ("couldn't", "failed", "was not booked", …), scores 0 without a judge call — it
    claims work that did not happen. An answer that admits the failure goes to the judge.

    Then the goal call (``goal_call_check``): the judge plans the calls the request needs, and when the
    run never made the plan's last call successfully — it looked up the slots but booked nothing — the
    score is halved (``config.check_goal_call: false`` turns this off; it needs the case's ``tools`` or
    ``config.tools`` and costs one generation per request). Pass mark 0.4, the best round mark with the
    check on the tune split of tests/data/labelled/agent_runs.jsonl (docs/agentic.md): the small
    judge's P(yes) for complete runs sits at 0.6–0.7 and it passes half of the runs that leave a
    requested action undone, which the check halves below the mark."""

    judged = "the agent fully completed the user's request"
    fails_unadmitted_failure = True
    checks_goal_call = True
    statement = ("The agent completed every part of the user's request: each call it relied on "
                 "succeeded, and nothing the user asked for was left undone.")


@register("goal-fulfillment", family="agentic", threshold=0.6, model="judge", example="{metric: goal-fulfillment}")
class GoalFulfillment(_AgentJudgement):
    """Does the final answer give the user what they were after (the goal behind the request), judged
    over the whole run? One judge decision over the request, the calls (with arguments and results)
    and the final answer: the judge is asked whether the statement "everything the final answer tells
    the user is true according to the call results: every action it says was done really succeeded,
    every name, time and number matches the calls, and it gives the user all they asked for" is true
    of the run (yes/no); score = P(yes).

    First, by code, as for task-completion: a failed call never retried successfully, with a final
    answer that admits no failure, scores 0 without a judge call. Then, as for task-completion, the
    score is halved when the run never made the request's goal call (``goal_call_check``;
    ``config.check_goal_call: false`` turns it off). Then, by code, the score is halved when the final
    answer states a time, date, number, name, channel or address that no call returned or was given
    and neither the request nor the context says ("posted to #general" after a call that posted to
    #investing; ``_grounding.unsupported_values``; ``config.check_values: false`` turns it off).
    Pass mark 0.6, the best round mark with the goal call checked on the tune split of
    tests/data/labelled/agent_runs.jsonl (docs/agentic.md), unchanged by the values check: the small
    judge's P(yes) is mostly 0.6–0.78 for good and bad runs alike (medians 0.71 and 0.69 there), so the
    mark is a narrow cut."""

    judged = "the final answer gives the user what they wanted"
    fails_unadmitted_failure = True
    checks_goal_call = True
    checks_values = True
    statement = ("Everything the final answer tells the user is true according to the call results: every "
                 "action it says was done really succeeded, every name, time and number matches the calls, "
                 "and it gives the user all they asked for.")


@register("plan-quality", family="agentic", threshold=0.5, model="judge", example="{metric: plan-quality}")
class PlanQuality(_AgentJudgement):
    """Is the plan a sound, complete and efficient way to do the request? Score = P(PASS); no plan →
    not measured."""

    judged = "the plan is a sound, complete and efficient way to do the request"
    question = ("If the plan is a sound, complete and efficient way to do the user's request, reply PASS. "
                "If steps are missing, wrong or pointless, reply FAIL.")
    requires = "plan"


@register("reasoning-coherence", family="agentic", threshold=0.7, model="judge",
          example="{metric: reasoning-coherence}")
class ReasoningCoherence(_AgentJudgement):
    """Does the final answer follow from the calls' results? One judge decision over the request, the
    calls (with arguments and results) and the final answer: the judge is asked whether the statement
    "the final answer follows from the call results: each name, time and number it gives is what the
    results say, and what it concludes from them (an overlap, a comparison, a total) is correct" is
    true of the run (yes/no); score = P(yes). Then, by code, the score is halved when the final answer
    states a time, date, number, name, channel or address that no call returned or was given and neither
    the request nor the context says (``_grounding.unsupported_values``; ``config.check_values: false``
    turns it off). Pass mark 0.7, the best round mark on the tune split of
    tests/data/labelled/agent_runs.jsonl (docs/agentic.md), unchanged by the values check: the small
    judge's P(yes) is mostly 0.64–0.75 for sound and flawed runs alike (medians 0.72 and 0.69 there),
    so the mark is a narrow cut."""

    judged = "the final answer follows from the call results"
    checks_values = True
    statement = ("The final answer follows from the call results: each name, time and number it gives is "
                 "what the results say, and what it concludes from them (an overlap, a comparison, a total) "
                 "is correct.")
