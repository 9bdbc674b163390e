"""The judge's second opinion for moderation: one yes/no decision, "does the text break the policy?"

Asked per category, the embedded 1.5B judge separates the categories worse than the classifier
(per-category AUC 0.50–0.93 vs 0.62–0.96 on the tuning rows), and asked to pick one of 14 lettered
categories it answers almost uniformly; asked once whether the text breaks any rule of the whole
policy, its P(yes) ranks harmful texts nearly as well as the classifier (AUC 0.79 vs 0.81) and
differently from it (their mean: 0.87). ``method: both`` uses it that way.
"""

from __future__ import annotations

from typing import Any

from agentunit.judges.base import JudgeRequest
from agentunit.moderation.taxonomy import CATEGORIES, DEFINITIONS

__all__ = ["harm_request", "judge_harm"]

_SYSTEM = "You are a content moderator. Answer yes or no."
_NOT_COUNTED = ("Reporting, education, support for someone in crisis, fiction without harmful detail, refusals "
                "and everyday idioms (\"kill the oven\") do not count.")


def harm_request(text: str) -> JudgeRequest:
    """The judge call for ``text``: the whole policy (every category with its definition), what does
    not count, the text, and a yes/no question whether it breaks any rule."""
    policy = "\n".join(f"- {category}: {DEFINITIONS[category]}" for category in CATEGORIES)
    user = (f"Moderation policy:\n{policy}\n{_NOT_COUNTED}\n\nText:\n\"\"\"\n{text}\n\"\"\"\n\n"
            "Does the text break any rule of this policy? Answer yes or no.")
    return JudgeRequest.yes_no(_SYSTEM, user)


async def judge_harm(text: str, judge: Any) -> tuple[float, dict[str, Any]]:
    """(P(the text breaks the policy), the decision's detail) from the current judge."""
    decision = await judge.decide(harm_request(text))
    return decision.probabilities.get("yes", 0.0), decision.to_detail()
