"""The judge's queue is not the case's time (issue 58): a case waiting in line for a judge that serves one request
at a time has its clock stopped, the wait is reported per case and summed in the run summary, and a separate
limit (the judge's ``queue_timeout``) bounds it."""

from __future__ import annotations

import asyncio
import math

import pytest

from agentunit import evaluate
from agentunit.judges.base import JudgeReply, JudgeRequest
from agentunit.judges.service import CaseClock, JudgeService, current_judge
from agentunit.metrics.base import MetricResult

CALL_S = 0.3  # one judge call: eight in line take 2.4 s, past the 1 s case limit


class SlowJudge:
    """A judge provider that takes ``CALL_S`` per call and serves one call at a time (as the local judge)."""

    name = "slow"
    capacity = 1

    def __init__(self) -> None:
        self.calls = 0
        self.running = 0
        self.most_at_once = 0

    def describe(self) -> dict[str, str]:
        return {"provider": "slow"}

    async def call(self, request: JudgeRequest) -> JudgeReply:
        self.calls += 1
        self.running += 1
        self.most_at_once = max(self.most_at_once, self.running)
        try:
            await asyncio.sleep(CALL_S)
        finally:
            self.running -= 1
        return JudgeReply("yes", [("yes", math.log(0.9)), ("no", math.log(0.1))])

    async def aclose(self) -> None:
        """Nothing to release."""


class AsksTheJudge:
    """A metric that asks the current judge one yes/no question about the output."""

    name = "asks-the-judge"

    def evaluate(self, case, trace, outcome):  # pragma: no cover - the engine awaits evaluate_async
        raise AssertionError("not called")

    async def evaluate_async(self, case, trace, outcome):
        decision = await current_judge().decide(JudgeRequest.yes_no("Judge.", f"Is {outcome.output!r} fine?"))
        return MetricResult(name=self.name, value=decision.probabilities["yes"], passed=decision.option == "yes")


def _judge(config: dict | None = None) -> tuple[JudgeService, SlowJudge]:
    provider = SlowJudge()
    return JudgeService({"provider": "local", **(config or {})}, built=provider), provider


def _run(judge: JudgeService, cases: int = 8, timeout: float = 1.0):
    return evaluate(cases=[{"id": f"c{i}", "prompt": f"question {i}"} for i in range(cases)],
                    target={"type": "echo"}, metrics=[AsksTheJudge()], concurrency=8, timeout=timeout, judge=judge)


def test_cases_waiting_in_line_for_the_judge_do_not_time_out_and_report_their_wait():
    judge, provider = _judge()
    result = _run(judge)
    errors = [c["error"] for c in result.cases if c["status"] != "passed"]
    assert errors == [] and result.summary["passed"] == 8
    assert provider.calls == 8 and provider.most_at_once == 1  # one at a time: the judge's capacity
    waits = sorted(c["envelope"]["judge_queue_wait_s"] for c in result.cases)
    assert all(w >= 0 for w in waits)
    assert waits[-1] >= 6 * CALL_S  # the last in line waited for the seven before it: past its 1 s limit
    assert result.summary["judge"]["queue_wait_s"] == pytest.approx(sum(waits), abs=0.01)


def test_a_case_past_the_judge_wait_limit_errors_naming_the_judges_queue():
    judge, _ = _judge({"queue_timeout": 0.5})
    result = _run(judge, timeout=30.0)
    errored = [c for c in result.cases if c["status"] == "errored"]
    assert errored and result.summary["passed"] >= 1  # the first ones in line got their turn
    for case in errored:
        assert "in line for the judge" in case["error"] and "judge's queue" in case["error"]
        assert "queue_timeout (0.5 s)" in case["error"]
        assert case["envelope"]["judge_queue_wait_s"] >= 0.5


def test_the_service_sends_no_more_at_once_than_the_provider_serves():
    judge, _ = _judge({"concurrency": 4})
    assert judge.capacity == 1
    judge, provider = _judge({"provider": "openai", "concurrency": 4})  # no capacity stated: concurrency
    provider.capacity = None
    assert judge.capacity == 4


def test_a_bad_queue_timeout_is_refused():
    from agentunit.errors import AgentUnitError

    with pytest.raises(AgentUnitError, match="judge queue_timeout must be a number of seconds > 0"):
        JudgeService({"provider": "local", "queue_timeout": 0}, built=SlowJudge())


@pytest.mark.parametrize("movable", [True, False])
def test_the_case_clock_stops_while_waiting_and_still_times_out_after(monkeypatch, movable):
    """``CaseClock.within`` follows a deadline that moves on while the case waits; with and without
    ``asyncio.timeout`` (Python 3.11+ and 3.10)."""
    import time

    import agentunit.judges.service as service_module

    monkeypatch.setattr(service_module, "_HAS_TIMEOUT_CM", movable)

    async def waits_then_works(clock: CaseClock, wait: float, work: float) -> str:
        clock.pause()
        await asyncio.sleep(wait)
        clock.resume()
        await asyncio.sleep(work)
        return "done"

    async def main() -> None:
        clock = CaseClock(time.monotonic() + 0.3)
        assert await clock.within(waits_then_works(clock, 0.5, 0.1)) == "done"  # 0.6 s, 0.1 s of it the case's
        assert clock.waited >= 0.5 and clock.queued
        clock = CaseClock(time.monotonic() + 0.3)
        with pytest.raises(asyncio.TimeoutError):
            await clock.within(waits_then_works(clock, 0.1, 1.0))  # its own work outlasts the limit
        clock = CaseClock(time.monotonic() - 1)
        with pytest.raises(asyncio.TimeoutError):
            await clock.within(waits_then_works(clock, 0, 0))

    asyncio.run(main())
