"""Judge requests and decisions, and the verdict reader shared by every provider.

A 1.5B local judge cannot be trusted with free-form grading, so metrics ask it small categorical
questions ("yes"/"no", "A".."E", "1".."5") and read the answer from the first generated token's
probabilities: P(option) = Σ exp(logprob) over the top tokens that spell the option (case and
surrounding spaces ignored), renormalised over the options. Providers without logprobs fall back
to the generated text, and the decision says which source was used.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class JudgeRequest:
    """One judge call.

    Args:
        messages: chat messages (system + user).
        options: the allowed answers for a decision (empty for free generation).
        max_tokens: generation budget.
        json_schema: a JSON Schema the output must follow (free generation only).
        images: ``data:`` URIs of images for a vision judge; ``as_messages`` sends them as
            ``image_url`` content parts after the text of the last user message (OpenAI's format).
    """

    messages: tuple[tuple[str, str], ...]
    options: tuple[str, ...] = ()
    max_tokens: int = 3
    json_schema: Any = None
    images: tuple[str, ...] = ()

    @classmethod
    def yes_no(cls, system: str, user: str) -> JudgeRequest:
        """A yes/no decision: the statements and questions most judge metrics ask (P(yes) is their score)."""
        return cls((("system", system), ("user", user)), options=("yes", "no"))

    def as_messages(self) -> list[dict[str, Any]]:
        messages: list[dict[str, Any]] = [{"role": role, "content": content} for role, content in self.messages]
        if self.images:
            last = max(i for i, m in enumerate(messages) if m["role"] == "user")
            messages[last]["content"] = [{"type": "text", "text": messages[last]["content"]},
                                         *({"type": "image_url", "image_url": {"url": url}} for url in self.images)]
        return messages


@dataclass
class JudgeReply:
    """What a provider returned: the text, the first token's top logprobs, token usage, and provider
    detail kept with the decision (an ensemble's members and their cost)."""

    text: str
    top_logprobs: list[tuple[str, float]] | None = None
    usage: dict[str, int] = field(default_factory=dict)
    detail: dict[str, Any] | None = None


@dataclass
class Decision:
    """A categorical verdict: the chosen option and the probability of each option."""

    option: str
    probabilities: dict[str, float]
    source: str  # "logprobs" or "text"
    text: str
    usage: dict[str, int]
    cached: bool = False
    cost: float | None = None
    detail: dict[str, Any] | None = None

    def to_detail(self) -> dict[str, Any]:
        detail = {"option": self.option, "probabilities": {k: round(v, 4) for k, v in self.probabilities.items()},
                  "source": self.source, "cached": self.cached, "usage": self.usage}
        if self.cost is not None:
            detail["cost"] = self.cost
        if self.detail:
            detail.update(self.detail)
        return detail


class JudgeOutputError(ValueError):
    """The judge's output matched none of the options."""


def normalise_token(token: str) -> str:
    return token.strip().strip(".:,;!\"'()").lower()


def read_decision(reply: JudgeReply, options: tuple[str, ...]) -> tuple[str, dict[str, float], str]:
    """(option, probabilities, source) from the reply; raises JudgeOutputError when nothing matches."""
    wanted = {normalise_token(o): o for o in options}
    if reply.top_logprobs:
        mass = dict.fromkeys(options, 0.0)
        for token, logprob in reply.top_logprobs:
            option = wanted.get(normalise_token(token))
            if option is not None and math.isfinite(logprob):
                mass[option] += math.exp(logprob)
        total = sum(mass.values())
        if total > 0:
            probabilities = {o: m / total for o, m in mass.items()}
            return max(probabilities, key=probabilities.__getitem__), probabilities, "logprobs"
    words = [normalise_token(w) for w in reply.text.replace("\n", " ").split()]
    for word in words[:3]:
        if word in wanted:
            option = wanted[word]
            return option, {o: float(o == option) for o in options}, "text"
    raise JudgeOutputError(f"judge answered {reply.text[:80]!r}, expected one of {', '.join(options)}")


_POLARITY = {"pass": "fail", "yes": "no", "true": "false"}


def positive_option(options: tuple[str, ...]) -> str | None:
    """The "good" option of a two-way question (PASS of PASS/FAIL, yes of yes/no, true of true/false;
    case ignored), or None when the options are not such a pair."""
    if len(options) != 2:
        return None
    first, second = (normalise_token(o) for o in options)
    if _POLARITY.get(first) == second:
        return options[0]
    if _POLARITY.get(second) == first:
        return options[1]
    return None


def options_grammar(options: tuple[str, ...]) -> str:
    """A GBNF grammar that only allows one of the options (for llama.cpp-based judges)."""
    return "root ::= " + " | ".join('"' + o.replace('"', '\\"') + '"' for o in options)
