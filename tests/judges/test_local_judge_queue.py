"""The local judge answers one request at a time, in a thread nobody can stop (issue 58): a caller that gives up
does not free the judge's queue before the model is free, so the next call waits in line (its case's clock
stopped) rather than on the model's lock with its clock running."""

from __future__ import annotations

import asyncio
import math
import threading
import time

from agentunit.judges.base import JudgeReply, JudgeRequest
from agentunit.judges.local import LocalProvider
from agentunit.judges.service import CaseClock, JudgeService

WORK_S = 0.4


def _provider() -> tuple[LocalProvider, list[tuple[str, float, float]]]:
    """A local provider whose model work is a thread sleeping ``WORK_S`` under the model's lock."""
    provider = object.__new__(LocalProvider)  # no model file: only the asynchronous side is tried
    lock, spans = threading.Lock(), []

    def work(request: JudgeRequest) -> JudgeReply:
        with lock:
            start = time.monotonic()
            time.sleep(WORK_S)
            spans.append((request.messages[-1][1], start, time.monotonic()))
        return JudgeReply("yes", [("yes", math.log(0.9)), ("no", math.log(0.1))])

    provider._call = work
    provider._server = "loaded"  # ready() has nothing to load
    provider.describe = lambda: {"provider": "local", "model": "fake"}
    return provider, spans


def test_a_call_given_up_keeps_its_place_until_the_model_is_free():
    provider, spans = _provider()
    service = JudgeService({"provider": "local", "concurrency": 4}, built=provider)
    assert service.capacity == 1  # one request at a time, whatever `concurrency` says

    async def main() -> tuple[float, float]:
        first = asyncio.ensure_future(service.decide(JudgeRequest.yes_no("s", "first")))
        await asyncio.sleep(0.05)
        clock = CaseClock(time.monotonic() + 60)

        async def second() -> float:
            clock.start()
            await service.decide(JudgeRequest.yes_no("s", "second"))
            return clock.waited

        waiting = asyncio.ensure_future(second())
        await asyncio.sleep(0.05)
        first.cancel()  # its case gave up: the model still works on it
        return await waiting, time.monotonic()

    waited, _ = asyncio.run(main())
    (first, _, first_end), (second, second_start, _) = spans
    assert (first, second) == ("first", "second")
    assert second_start >= first_end  # never both at the model
    assert waited >= WORK_S - 0.15  # the second waited in line (its clock stopped) for the rest of the first
