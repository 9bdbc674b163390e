"""promptfoo's trajectory:goal-success: the judge decides whether the agent achieved the goal from the
trajectory and the final output, with the checks by code task-completion applies."""

from __future__ import annotations

import json
from typing import Any

from agentunit.core.envelope import tool_calls_of
from agentunit.errors import MetricConfigError
from agentunit.judges.service import pass_fail
from agentunit.metrics.agentic.judgements import claimed_success_after_failure, unadmitted_failure_reason
from agentunit.metrics.agentic.planned_calls import goal_call_option, halve_without_goal_call
from agentunit.metrics.base import MetricResult
from agentunit.metrics.judged import JudgedMetric
from agentunit.metrics.promptfoo_compat.trajectory import Step, trajectory_steps
from agentunit.metrics.registry import register

MAX_JUDGE_STEPS = 24


def judge_trajectory(steps: list[Step]) -> str:
    """The trajectory as the judge sees it: numbered steps, repeats collapsed, at most 24 kept."""
    compact: list[dict[str, Any]] = []
    for step in steps:
        if compact and compact[-1]["type"] == step.type and compact[-1]["name"] == step.name:
            compact[-1]["times"] = compact[-1].get("times", 1) + 1
            continue
        compact.append({"index": len(compact) + 1, "type": step.type, "name": step.name})
    if len(compact) > MAX_JUDGE_STEPS:
        half = MAX_JUDGE_STEPS // 2
        compact = [*compact[:half], {"omitted": len(compact) - 2 * half}, *compact[-half:]]
    return json.dumps({"stepCount": len(steps), "steps": compact})


GOAL_SYSTEM = ("You grade whether an AI agent achieved a goal, from its final output and a summary of the steps it "
               "took. Judge end-to-end success, not style; use the steps as evidence of what the agent did. "
               "Reply PASS or FAIL.")


@register("trajectory:goal-success", family="agentic", value="required", needs=("output",), threshold=0.25,
          model="judge", example="{metric: \"trajectory:goal-success\", value: \"Tell the user whether the order "
                                 "shipped\"}")
class TrajectoryGoalSuccess(JudgedMetric):
    """Did the agent achieve the goal? (promptfoo's ``trajectory:goal-success``.)

    Value: the goal, as text or ``{goal}``. The judge gets the goal, the trajectory (the steps as
    numbered ``{type, name}``, repeats collapsed, at most 24 kept) and the final output, and decides
    PASS/FAIL; score = P(PASS), pass ≥ threshold (default 0.25, the best round mark on the tune rows of
    tests/data/labelled/agent_runs.jsonl's task-completion runs: the embedded judge leans to FAIL here,
    and at 0.5 it failed nine in ten complete runs). promptfoo's grader returns a score with partial
    credit; agentunit's judge answers one binary question. Before the judge, as for
    task-completion: a failed tool call never retried successfully, with a final output that admits no
    failure, scores 0 by code (the agent claims a goal its calls did not reach). After it, as for
    task-completion, the score is halved when the run never made the goal's last planned call
    (``goal_call_check``, the judge planning the calls for the goal; only with the case's ``tools`` or
    ``config.tools``; ``config.check_goal_call: false`` turns it off): the pass mark stays 0.25 on the
    tune rows with the check.
    """

    def setup(self) -> None:
        self._goal = _goal(self.value) if self.value is not None else None
        self._check_goal_call = goal_call_option(self.name, self.config)

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        goal = self._goal if self._goal is not None else _goal(case.expected_output)
        steps, source = trajectory_steps(trace, outcome)
        if failed := claimed_success_after_failure(trace, outcome):
            return self.result(0.0, reason=unadmitted_failure_reason(failed),
                               detail={"goal": goal, "method": "code", "unrecovered_failures": failed})
        trajectory = judge_trajectory(steps)
        user = f"Goal: {goal}\nTrajectory: {trajectory}\nFinal output: {outcome.output}\n\nWas the goal achieved?"
        decision = await pass_fail(GOAL_SYSTEM, user)
        score = decision.probabilities["PASS"]
        reason = f"P(goal achieved) {score:.3f} over {len(steps)} step(s)"
        detail = {"goal": goal, "trajectory": json.loads(trajectory), "source": source,
                  "judge": decision.to_detail()}
        if self._check_goal_call:
            score, reason, detail["goal_call"] = await halve_without_goal_call(
                goal, self.config.get("tools", case.tools), tool_calls_of(trace, outcome), score, reason)
        return self.result(score, reason=reason, detail=detail)


def _goal(value: Any) -> str:
    if isinstance(value, dict):
        value = value.get("goal")
    if not isinstance(value, str) or not value.strip():
        raise MetricConfigError("trajectory:goal-success value must be the goal as text or {goal: …}")
    return value.strip()
