"""Conversational metrics over ``conversation: [{role, content}]`` (plus the target's reply to the
last user turn): knowledge-retention, role-adherence, conversation-relevancy, conversational-g-eval.

Each assistant turn gets one PASS/FAIL judge decision over a window of the turns before it (the
shared windowing helper), read from token probabilities; the detail lists every turn's probability.
Without a conversation a metric is not measured.
"""

from __future__ import annotations

from typing import Any, ClassVar

from agentunit.errors import MetricConfigError
from agentunit.judges.service import pass_fail
from agentunit.metrics.base import MetricResult
from agentunit.metrics.judged import GEval, JudgedMetric
from agentunit.metrics.registry import register

DEFAULT_WINDOW = 6


def conversation_turns(case: Any, outcome: Any) -> list[tuple[str, str]]:
    """The case's turns, with the target's reply appended when the conversation ends on a user turn."""
    turns = [(str(t.get("role", "user")), str(t.get("content", ""))) for t in case.conversation or []
             if isinstance(t, dict)]
    if turns and turns[-1][0] == "user" and outcome.output:
        turns.append(("assistant", outcome.output))
    return turns


def window(turns: list[tuple[str, str]], index: int, size: int) -> str:
    """The ``size`` turns before ``index``, as a transcript."""
    start = max(0, index - size)
    return "\n".join(f"{role}: {content}" for role, content in turns[start:index]) or "(start of the conversation)"


class _TurnMetric(JudgedMetric):
    """Mean over assistant turns of one PASS/FAIL decision per turn."""

    instruction: ClassVar[str] = ""
    system: ClassVar[str] = "You evaluate one reply of an assistant in a conversation. Reply FAIL or PASS."
    # "min": one bad turn fails the conversation (forgetting, leaving the role); "mean": share of good turns
    aggregate: ClassVar[str] = "mean"

    def setup(self) -> None:
        size = self.config.get("window", DEFAULT_WINDOW)
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise MetricConfigError("config.window must be a positive integer")
        self._window = size

    def context_for(self, case: Any, turns: list[tuple[str, str]], index: int) -> str:
        return f"Conversation so far:\n{window(turns, index, self._window)}"

    def unmeasured(self, case: Any) -> str | None:
        return None

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:

        turns = conversation_turns(case, outcome)
        if not any(role == "assistant" for role, _ in turns):
            return self.not_measured("no conversation with assistant turns")
        reason = self.unmeasured(case)
        if reason:
            return self.not_measured(reason)
        scored = []
        for index, (role, content) in enumerate(turns):
            if role != "assistant":
                continue
            prompt = f"{self.context_for(case, turns, index)}\n\nAssistant reply: {content}\n\n{self.instruction}"
            decision = await pass_fail(self.system, prompt)
            scored.append({"turn": index, "reply": content[:200], "pass": round(decision.probabilities["PASS"], 4)})
        worst = min(scored, key=lambda t: t["pass"])
        value = worst["pass"] if self.aggregate == "min" else sum(t["pass"] for t in scored) / len(scored)
        return self.result(value, reason=f"{self.aggregate} {value:.3f} over {len(scored)} assistant turns"
                           + (f"; weakest turn {worst['turn']}" if worst["pass"] < 0.5 else ""),
                           detail={"turns": scored, "window": self._window})


@register("knowledge-retention", family="conversation", needs=("output",), threshold=0.5, model="judge",
          example="{metric: knowledge-retention}")
class KnowledgeRetention(_TurnMetric):
    """Facts the user gave earlier are not forgotten or contradicted: for each assistant turn, the
    judge sees every earlier user turn and decides whether the reply stays consistent with what the
    user said. Score = the lowest P(PASS) over assistant turns (one forgetful turn fails the
    conversation; every turn's probability is in the detail)."""

    aggregate = "min"
    instruction = ("If the reply contradicts, ignores or asks again for something the user already said, "
                   "reply FAIL. Otherwise reply PASS.")

    def context_for(self, case, turns, index) -> str:
        said = [content for role, content in turns[:index] if role == "user"]
        return "What the user said earlier:\n" + ("\n".join(f"- {s}" for s in said) or "(nothing)")


@register("role-adherence", family="conversation", needs=("output",), threshold=0.5, model="judge",
          example='{metric: role-adherence}')
class RoleAdherence(_TurnMetric):
    """Assistant turns stay in the case's ``role`` (e.g. "a polite airline support agent"): one
    decision per assistant turn with the preceding window; score = the lowest P(PASS) over the turns
    (one turn out of role fails the conversation). No role → not measured."""

    aggregate = "min"
    instruction = "If the reply stays in the assistant's role, reply PASS. If it breaks the role, reply FAIL."

    def unmeasured(self, case) -> str | None:
        return None if case.role else "no role (set the case's role)"

    def context_for(self, case, turns, index) -> str:
        return f"The assistant's role: {case.role}\nConversation so far:\n{window(turns, index, self._window)}"


@register("conversation-relevancy", family="conversation", needs=("output",), threshold=0.5, model="judge",
          example="{metric: conversation-relevancy, config: {window: 3}}")
class ConversationRelevancy(_TurnMetric):
    """Each assistant turn is relevant to the preceding window of turns (``config.window``, default 6):
    one decision per assistant turn; score = mean P(PASS)."""

    instruction = ("If the reply is relevant to what was just said and helps the conversation, reply PASS. "
                   "If it is off-topic or ignores the last message, reply FAIL.")


@register("conversational-g-eval", family="conversation", value="required", needs=("output",), threshold=0.5,
          model="judge", example='{metric: conversational-g-eval, value: "The assistant resolves the issue politely"}')
class ConversationalGEval(GEval):
    """G-Eval over a whole conversation: evaluation steps generated once from the criteria (frozen in
    the judge cache), then one decision over the score digits for the full transcript;
    probability-weighted mean, normalised to 0..1."""

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        turns = conversation_turns(case, outcome)
        if not any(role == "assistant" for role, _ in turns):
            return self.not_measured("no conversation with assistant turns")
        transcript = "\n".join(f"{role}: {content}" for role, content in turns)
        return await self.score_text(str(self.expected(case)), None, transcript)
