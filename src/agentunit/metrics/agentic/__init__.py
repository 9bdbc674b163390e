"""Agentic metrics computed from the trace's tool and agent calls, one module per idea:

- ``tool_use``: tool-success, tool-correctness, execution-efficiency (which tools were called, and how well);
- ``arguments``: argument-correctness (each call's arguments against its schema, the request and the judge's own);
- ``plans``: plan-adherence (the agent's own plan carried out, in order);
- ``planned_calls``: tool-selection-quality and the goal-call check (the judge's own plan of the calls);
- ``rules``: agent-llm-rubric (the user's rules about the calls);
- ``judgements``: task-completion, goal-fulfillment, plan-quality, reasoning-coherence (judge decisions about
  the whole run);
- ``calls``: how they read the run's calls and show them to the judge.

Each name below is imported from its module on first use, so a run that uses one of these metrics imports
only its module (the registry's index, metrics/_index.py, names the module of every metric).
"""

from __future__ import annotations

from agentunit._lazy import lazy_exports

_EXPORTS = {
    **dict.fromkeys(("ToolSuccessMetric", "weighted_lcs", "ToolCorrectness", "ExecutionEfficiency"), "tool_use"),
    **dict.fromkeys((
        "MAX_PLANNED_CALLS", "GOAL_CALL_MISSED_FACTOR", "goal_call_option", "halve_without_goal_call",
        "goal_call_check", "effective_calls", "multiset_f1", "ToolSelectionQuality",
    ), "planned_calls"),
    **dict.fromkeys(("PlanAdherence",), "plans"),
    **dict.fromkeys((
        "ArgumentCorrectness", "OWN_AGREE_LIFT", "OWN_MISMATCH_SCALE", "NUMBER_TOLERANCE", "EARLIER_RESULT_CHARS",
        "argument_agreement", "repeats_earlier_call", "values_in_text_unsupported", "SHORT_TEXT_WORDS",
        "values_not_asked_for", "compared_with_own",
    ), "arguments"),
    **dict.fromkeys(("check_rule", "check_rule_unordered", "AgentRubric"), "rules"),
    **dict.fromkeys((
        "agent_transcript", "unrecovered_failures", "admits_failure", "claimed_success_after_failure",
        "UNSUPPORTED_VALUE_FACTOR", "halve_unsupported_values", "unadmitted_failure_reason", "TaskCompletion",
        "GoalFulfillment", "PlanQuality", "ReasoningCoherence",
    ), "judgements"),
}

__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(globals(), _EXPORTS)
