"""An ensemble of judges: ``{provider: ensemble, judges: [{...}, {...}], combine: mean | agreement}``.

Every member decides each question through its own judge service (its own cache, retries and
concurrency: a member's verdicts are shared with that judge used alone), and the decisions are
combined:

- ``mean``: each option's probability is the mean of the members' probabilities for it.
- ``agreement``: the ensemble takes the probabilities of its most critical member — for a
  PASS/FAIL (yes/no, true/false) question the member with the lowest P(PASS), for a digit score
  the member with the lowest expected score — so a metric passes only when it passes under every
  member. Whether the members' verdicts (their most probable options) agree is recorded.
  Other option sets cannot be ordered and are an error under ``agreement``.

The decision's detail lists each member's option, probabilities, source, cost and cache state.
Free-text generations (g-eval's steps, claim splitting, rationales) come from the first member.
"""

from __future__ import annotations

import asyncio
import math
from typing import Any

from agentunit.errors import AgentUnitError
from agentunit.judges.base import Decision, JudgeReply, JudgeRequest, positive_option

COMBINES = ("mean", "agreement")


class EnsembleProvider:
    """Two or more judges deciding together (see the module docstring)."""

    name = "ensemble"

    def __init__(self, config: dict[str, Any]):
        from agentunit.judges.service import service_for

        judges = config.get("judges")
        if not isinstance(judges, list) or len(judges) < 2:
            raise AgentUnitError("judge.judges must list two or more judge configs for provider: ensemble, e.g. "
                                 "[{provider: local}, {provider: openai, base_url: ..., model: ...}]")
        combine = config.get("combine", "mean")
        if combine not in COMBINES:
            raise AgentUnitError(f"judge.combine must be one of {', '.join(COMBINES)}, got {combine!r}")
        self.combine = combine
        self.members = []
        for index, member in enumerate(judges):
            if not isinstance(member, dict):
                raise AgentUnitError(f"judge.judges[{index}] must be a judge config like {{provider: local}}, "
                                     f"got {member!r}")
            if member.get("provider", "local") == "ensemble":
                raise AgentUnitError(f"judge.judges[{index}]: an ensemble cannot contain an ensemble; list its judges")
            try:
                self.members.append(service_for(member))
            except AgentUnitError as exc:
                raise AgentUnitError(f"judge.judges[{index}]: {exc}") from None
        self.model = f"{combine}(" + " + ".join(_label(m.provider.describe()) for m in self.members) + ")"

    def describe(self) -> dict[str, Any]:
        return {"provider": "ensemble", "model": self.model, "combine": self.combine,
                "judges": [m.provider.describe() for m in self.members]}

    @property
    def secrets(self) -> set[str]:
        return set().union(*(m.secrets for m in self.members))

    def bind_store(self, store: Any) -> None:
        """Members cache in the run's database while the ensemble does."""
        for member in self.members:
            member.store = store

    async def call(self, request: JudgeRequest) -> JudgeReply:
        from agentunit.judges.service import not_recorded

        with not_recorded():  # the members' decisions are parts of this one, not decisions of the metric
            if not request.options:
                reply, cached = await self.members[0].reply(request)
                return JudgeReply(reply.text, None, {} if cached else dict(reply.usage),
                                  {"ensemble": {"generated_by": _label(self.members[0].provider.describe())}})
            decisions = await asyncio.gather(*(m.decide(request) for m in self.members))
        if self.combine == "mean":
            probabilities, deciding = combine_mean(decisions, request.options), None
        else:
            probabilities, deciding = combine_agreement(decisions, request.options)
        option = max(probabilities, key=probabilities.__getitem__)
        usage: dict[str, int] = {}
        for decision in decisions:
            for name, count in ({} if decision.cached else decision.usage).items():
                usage[name] = usage.get(name, 0) + count
        costs = [0.0 if d.cached else d.cost for d in decisions]
        info: dict[str, Any] = {
            "combine": self.combine, "agreement": len({d.option for d in decisions}) == 1,
            "members": [{"judge": _label(m.provider.describe()), **d.to_detail()}
                        for m, d in zip(self.members, decisions, strict=True)],
            "cost": None if any(c is None for c in costs) else sum(c for c in costs if c is not None)}
        if deciding is not None:
            info["deciding_member"] = deciding
        top = [(o, math.log(p)) for o, p in probabilities.items() if p > 0]
        return JudgeReply(option, top, usage, {"ensemble": info})

    def cost_of_reply(self, reply: JudgeReply) -> float | None:
        """The members' cost of an uncached ensemble decision (None when any member's is unknown)."""
        info = (reply.detail or {}).get("ensemble", {})
        if "cost" in info:
            return info["cost"]
        return self.cost_of_usage(reply.usage)

    def cost_of_usage(self, usage: dict[str, int]) -> float | None:
        """A price for pooled token counts: only when every member prices them the same."""
        prices = {m.cost_of(usage) for m in self.members}
        return prices.pop() if len(prices) == 1 else None

    async def aclose(self) -> None:
        for member in self.members:
            await member.aclose()


def combine_mean(decisions: list[Decision], options: tuple[str, ...]) -> dict[str, float]:
    """Each option's probability averaged over the members."""
    return {o: sum(d.probabilities.get(o, 0.0) for d in decisions) / len(decisions) for o in options}


def combine_agreement(decisions: list[Decision], options: tuple[str, ...]) -> tuple[dict[str, float], int]:
    """(the most critical member's probabilities, its index): lowest P(positive) for a yes/no question,
    lowest expected score for a digit score. Raises AgentUnitError for options that cannot be ordered."""
    positive = positive_option(options)
    if positive is not None:
        def critical(d: Decision) -> float:
            return d.probabilities.get(positive, 0.0)
    elif all(o.strip().isdigit() for o in options):
        def critical(d: Decision) -> float:
            return sum(int(o) * p for o, p in d.probabilities.items())
    else:
        raise AgentUnitError(f"judge combine: agreement needs a PASS/FAIL (yes/no) question or a digit score; this "
                             f"question's options are {', '.join(options)} — use combine: mean")
    index = min(range(len(decisions)), key=lambda i: critical(decisions[i]))
    return dict(decisions[index].probabilities), index


def _label(described: dict[str, Any]) -> str:
    return " ".join(str(described[k]) for k in ("provider", "model") if described.get(k))
