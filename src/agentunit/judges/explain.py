"""Rationales a person can act on, generated after the decision (``config.explain: true``).

A judge metric decides first; only then is the judge asked, in one more generation, why. The
rationale request is the decision's own conversation, the judge's decided option as its answer, and
"Why did you answer X? Reply with one sentence starting with 'Because the response', quoting the
words of the response that decided it." The verdict is already in the conversation and its
probabilities were read before, so the rationale cannot steer it — it can only account for it.
Like every judge call it is cached by its full request.

A metric that made several decisions (one per claim, per criterion, per turn) gets the rationale of
the one that weighed most against passing: the lowest P(PASS) (yes/true) among its two-way
decisions — the decision that failed the result, or the one closest to failing it — else its first.
"""

from __future__ import annotations

from typing import Any

from agentunit.judges.base import Decision, JudgeRequest, positive_option

RATIONALE_MAX_TOKENS = 80
RATIONALE_MAX_CHARS = 400
# Measured against two other wordings on the embedded judge: this one quotes the deciding words, in one
# sentence (~1.2 s); "the main reason ... name the requirement" restated the requirement first (~2.7 s).
ASK = ('Why did you answer {option}? Reply with one sentence starting with "Because the response", quoting the '
       "words of the response that decided it.")


def decision_to_explain(decisions: list[tuple[Any, JudgeRequest, Decision]]) -> tuple[Any, JudgeRequest, Decision]:
    """The recorded (service, request, decision) whose rationale explains the result (module docstring)."""
    two_way = [(entry, positive_option(entry[1].options)) for entry in decisions]
    two_way = [(entry, positive) for entry, positive in two_way if positive is not None]
    if two_way:
        entry, _ = min(two_way, key=lambda item: item[0][2].probabilities.get(item[1], 0.0))
        return entry
    return decisions[0]


def rationale_request(request: JudgeRequest, decision: Decision) -> JudgeRequest:
    """The decision's conversation, its answer, and the question why (free text, no options)."""
    messages = (*request.messages, ("assistant", decision.option), ("user", ASK.format(option=decision.option)))
    return JudgeRequest(messages, max_tokens=RATIONALE_MAX_TOKENS)


def one_sentence(text: str) -> str:
    """The rationale's first line, cut after its first sentence and at RATIONALE_MAX_CHARS."""
    line = next((part.strip() for part in text.strip().splitlines() if part.strip()), "")
    for end in (". ", "! ", "? "):
        cut = line.find(end)
        if cut > 0:
            line = line[:cut + 1]
            break
    return line[:RATIONALE_MAX_CHARS]


async def rationale(decisions: list[tuple[Any, JudgeRequest, Decision]]) -> dict[str, Any]:
    """The result detail of a rationale for the recorded decisions: ``rationale`` (None when no
    decision was made), the decision it explains, and the generation's usage and cache state."""
    if not decisions:
        return {"rationale": None, "rationale_of": "no judge decision was made"}
    service, request, decision = decision_to_explain(decisions)
    text, usage, cached = await service.generate(rationale_request(request, decision))
    positive = positive_option(request.options)
    about: dict[str, Any] = {"option": decision.option}
    if positive is not None:
        about[f"P({positive})"] = round(decision.probabilities.get(positive, 0.0), 4)
    return {"rationale": one_sentence(text) or None, "rationale_of": about,
            "rationale_judge": {"usage": usage, "cached": cached}}
