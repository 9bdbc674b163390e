"""promptfoo's assertion types that agentunit had no metric for, one module per group:

- ``trajectory``: the run's steps and the step matchers the trajectory assertions share;
- ``trajectory_checks``: trajectory:tool-used, trajectory:tool-sequence, trajectory:tool-args-match,
  trajectory:step-count;
- ``trajectory_goal``: trajectory:goal-success (judged);
- ``function_call``: is-valid-openai-function-call;
- ``text_checks``: is-refusal, model-graded-closedqa, meteor;
- ``comparison``: select-best and max-score (over a test's outputs);
- ``classifier``: classifier (the local moderation classifier standing in for HuggingFace models).

Each follows promptfoo's algorithm and value shapes (src/assertions/*.ts in promptfoo, MIT), over
agentunit's inputs: the trajectory is the run's tool calls, agent calls and messages in the order
they happened (``trusys.events``/``tool_calls``/``agent_calls`` or an adapter's trace), not
OpenTelemetry spans. Differences are stated in each docstring and in docs/promptfoo.md. Each name below
is imported from its module on first use (the registry's index names the module of every metric).
"""

from __future__ import annotations

from agentunit._lazy import lazy_exports

_EXPORTS = {
    **dict.fromkeys((
        "COMMAND_TOOLS", "STEP_TYPES", "Step", "trajectory_steps", "glob_match", "Matcher", "matcher_of",
        "TrajectoryMetric",
    ), "trajectory"),
    **dict.fromkeys((
        "TrajectoryToolUsed", "TrajectoryToolSequence", "strict_equal", "partial_match", "TrajectoryToolArgsMatch",
        "TrajectoryStepCount",
    ), "trajectory_checks"),
    **dict.fromkeys(("MAX_JUDGE_STEPS", "judge_trajectory", "GOAL_SYSTEM", "TrajectoryGoalSuccess"), "trajectory_goal"),
    **dict.fromkeys(("function_call_of", "IsValidOpenAIFunctionCall"), "function_call"),
    **dict.fromkeys(("IsRefusal", "ModelGradedClosedQa", "meteor", "Meteor"), "text_checks"),
    **dict.fromkeys(("SelectBest", "MaxScore"), "comparison"),
    **dict.fromkeys(("CLASSIFIER_MODELS", "classifier_model", "Classifier"), "classifier"),
}

__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(globals(), _EXPORTS)
