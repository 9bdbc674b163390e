"""A scripted judge provider for tests: answers come from a function of the request."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator

from agentunit.judges import service as judge_service
from agentunit.judges.base import JudgeReply, JudgeRequest


def verdict(option: str, probability: float, other: str) -> JudgeReply:
    """A reply choosing ``option`` with the given probability over ``other``."""
    return JudgeReply(option, [(option, math.log(probability)), (other, math.log(1 - probability))])


def pass_with(probability: float) -> JudgeReply:
    """A reply to a two-way question whose P(PASS) — or P(yes), for the yes/no questions llm-rubric asks —
    is ``probability``: the first-token logprobs hold both spellings, so it answers either."""
    good, bad = math.log(probability), math.log(1 - probability)
    return JudgeReply("PASS" if probability >= 0.5 else "FAIL",
                      [("PASS", good), ("FAIL", bad), ("yes", good), ("no", bad)])


class ScriptedProvider:
    name = "scripted"

    def __init__(self, respond: Callable[[JudgeRequest], JudgeReply], label: str = "scripted"):
        self.respond = respond
        self.label = label
        self.requests: list[JudgeRequest] = []

    def describe(self) -> dict[str, str]:
        return {"provider": self.label}

    async def call(self, request: JudgeRequest) -> JudgeReply:
        self.requests.append(request)
        return self.respond(request)

    async def aclose(self) -> None:
        """Nothing to release."""


@contextlib.contextmanager
def scripted_judge(respond: Callable[[JudgeRequest], JudgeReply], label: str = "scripted"
                   ) -> Iterator[ScriptedProvider]:
    """Make a scripted provider the current judge for the duration of the block."""
    service = judge_service.JudgeService({"provider": "local"})
    provider = ScriptedProvider(respond, label)
    service.provider = provider
    provider.service = service  # for ``evaluate(..., judge=provider.service)``
    token = judge_service.set_current_judge(service)
    try:
        yield provider
    finally:
        judge_service._current.reset(token)
