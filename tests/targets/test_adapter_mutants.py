"""AgentUnit adapters as a target: named in the config, prepared once, retried while the outcome says it
failed, their tool calls, answer, cost and usage put in the trace, cleaned up only when prepared (mutation
testing found these unpinned; the Runner's own tests are in tests/test_api.py)."""

import asyncio

import pytest

from agentunit.core.outcome import AdapterOutcome
from agentunit.datasets.base import DatasetCase
from agentunit.targets.adapter import AdapterTarget

_CASE = DatasetCase(id="c", query="q")


class _Adapter:
    name = "scripted"

    def __init__(self, *outcomes, record_tool=None):
        self.outcomes, self.calls, self.prepared, self.cleaned = list(outcomes), 0, 0, 0
        self.record_tool = record_tool

    def prepare(self):
        self.prepared += 1

    def execute(self, case, trace):
        self.calls += 1
        if self.record_tool:
            trace.record("tool_call", name=self.record_tool, arguments={"attempt": self.calls})
        return self.outcomes[min(self.calls, len(self.outcomes)) - 1]

    def cleanup(self):
        self.cleaned += 1


def _events(trace):
    return [(e.type, e.payload) for e in trace.events]


def test_the_config_names_the_adapter_or_its_class():
    class Unnamed:
        def execute(self, case, trace):
            return "x"

    assert AdapterTarget(_Adapter()).spec == {"type": "adapter", "adapter": "scripted"}
    assert AdapterTarget(Unnamed()).describe() == {"type": "adapter", "adapter": "Unnamed"}
    assert AdapterTarget(_Adapter()).retries == 0


def test_a_failed_outcome_is_retried_with_a_fresh_trace_and_the_last_one_is_kept():
    adapter = _Adapter(AdapterOutcome(success=False, output="bad"), AdapterOutcome(success=False, output="worse"),
                       AdapterOutcome(output="good"), record_tool="search")
    target = AdapterTarget(adapter, retries=1)

    async def go():
        first = await target.send(_CASE, {})
        second = await target.send(_CASE, {})
        await target.aclose()
        return first, second

    first, second = asyncio.run(go())
    assert adapter.calls == 3 and adapter.prepared == 1 and adapter.cleaned == 1
    assert (first.body.output, first.body.success) == ("worse", False)
    assert _events(first.extra["trace"]) == [("tool_call", {"name": "search", "arguments": {"attempt": 2}}),
                                             ("agent_response", {"content": "worse"})]
    assert (second.body.output, second.body.success) == ("good", True)


def test_an_answer_that_is_not_an_outcome_is_not_retried_and_kept_as_it_is():
    adapter = _Adapter("plain text")
    reply = asyncio.run(AdapterTarget(adapter, retries=3).send(_CASE, {}))
    assert reply.body == "plain text" and adapter.calls == 1 and _events(reply.extra["trace"]) == []


def test_the_outcomes_calls_answer_cost_and_usage_go_in_the_trace_once():
    outcome = AdapterOutcome(output="done", cost=0.25, usage={"total_tokens": 3},
                             tool_calls=[{"name": "search", "arguments": {}}, {"name": "book", "arguments": {"x": 1}}])
    reply = asyncio.run(AdapterTarget(_Adapter(outcome, record_tool="search")).send(_CASE, {}))
    trace = reply.extra["trace"]
    assert _events(trace) == [("tool_call", {"name": "search", "arguments": {"attempt": 1}}),
                              ("tool_call", {"name": "book", "arguments": {"x": 1}}),
                              ("agent_response", {"content": "done"})]
    assert trace.metadata == {"cost": 0.25, "usage": {"total_tokens": 3}}


def test_a_response_the_adapter_recorded_is_not_added_again_and_a_silent_success_answers_empty():
    class Recording(_Adapter):
        def execute(self, case, trace):
            trace.record("agent_response", content="said")
            return AdapterOutcome(output="returned")

    reply = asyncio.run(AdapterTarget(Recording()).send(_CASE, {}))
    assert _events(reply.extra["trace"]) == [("agent_response", {"content": "said"})]
    silent = asyncio.run(AdapterTarget(_Adapter(AdapterOutcome())).send(_CASE, {}))
    assert silent.body.output == "" and _events(silent.extra["trace"]) == []
    failed = asyncio.run(AdapterTarget(_Adapter(AdapterOutcome(success=False))).send(_CASE, {}))
    assert failed.body.output is None


def test_an_async_execute_is_awaited():
    class Async(_Adapter):
        async def execute(self, case, trace):
            trace.record("tool_call", name="lookup")
            return AdapterOutcome(output=f"async {case.query}")

    reply = asyncio.run(AdapterTarget(Async()).send(_CASE, {}))
    assert reply.body.output == "async q"
    assert _events(reply.extra["trace"]) == [("tool_call", {"name": "lookup"}),
                                             ("agent_response", {"content": "async q"})]


def test_aclose_cleans_up_only_a_prepared_adapter_and_once():
    adapter = _Adapter(AdapterOutcome(output="x"))
    target = AdapterTarget(adapter)
    asyncio.run(target.aclose())
    assert adapter.cleaned == 0

    async def go():
        await target.send(_CASE, {})
        await target.aclose()
        await target.aclose()

    asyncio.run(go())
    assert (adapter.prepared, adapter.cleaned) == (1, 1)


@pytest.mark.parametrize("retries", [-1, 1.5, True, "2"])
def test_a_retry_count_that_is_not_a_whole_number_from_zero_is_refused(retries):
    from agentunit.core.scenario import Scenario

    with pytest.raises(ValueError, match=r"retries must be a whole number ≥ 0, got "):
        AdapterTarget(object(), retries=retries)
    with pytest.raises(ValueError) as info:
        Scenario(name="s", adapter=object(), retries=retries)
    assert str(info.value) == f"scenario 's': retries must be a whole number ≥ 0, got {retries!r}"
