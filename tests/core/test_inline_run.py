"""A run in which nothing can suspend (the echo target or recorded outputs, metrics without
``evaluate_async``) is driven without an event loop, and stores what the event-loop run stores (issue 20)."""

import asyncio

import pytest

from agentunit.core.engine import Engine, RunOptions
from agentunit.store.sqlite import Store
from agentunit.suite import suite_from_dict
from agentunit.targets.base import Reply
from agentunit.targets.echo import EchoTarget

_CHECKS = [{"metric": "contains", "value": "item"}, {"metric": "regex", "value": r"\d+"},
           {"metric": "starts-with", "value": "Answer:"}]


def _suite(target=None, metrics=None, *, validated=True, outputs=False):
    cases = []
    for i in range(5):
        case = {"id": f"c{i}", "prompt": f"Answer: item {i}", "metrics": metrics or _CHECKS}
        if outputs:
            case["output"] = f"Answer: item {i}" if i != 3 else "no"
        cases.append(case)
    data = {"name": "inline", "cases": cases}
    if target is not None:
        data["target"] = target
    suite = suite_from_dict(data)
    if validated:
        suite.validate()
    return suite


def _no_event_loop(monkeypatch):
    def refused(*args, **kwargs):
        raise AssertionError("asyncio.run was called for a run that awaits nothing")

    monkeypatch.setattr(asyncio, "run", refused)


def _stored(result):
    return [{k: v for k, v in case.items() if k != "latency_ms"} for case in result.iter_cases()]


def test_echo_with_deterministic_checks_runs_without_an_event_loop(tmp_path, monkeypatch):
    engine = Engine(_suite({"type": "echo"}), Store(tmp_path / "r.db"))
    assert engine.runs_inline()
    _no_event_loop(monkeypatch)
    result = engine.execute()
    assert result.status == "completed" and result.summary["passed"] == 5
    assert result.store.get_run(result.run_id)["status"] == "completed"


def test_recorded_outputs_without_a_target_run_without_an_event_loop(tmp_path, monkeypatch):
    engine = Engine(_suite(outputs=True), Store(tmp_path / "r.db"))
    assert engine.target is None and engine.runs_inline()
    _no_event_loop(monkeypatch)
    result = engine.execute()
    assert (result.summary["passed"], result.summary["failed"]) == (4, 1)


def test_inline_and_event_loop_runs_store_the_same_results(tmp_path):
    suite = _suite({"type": "echo"}, [*_CHECKS, {"metric": "equals", "value": "Answer: item 2"}])
    inline = Engine(suite, Store(tmp_path / "a.db"), RunOptions(concurrency=4)).execute()
    looped = asyncio.run(Engine(suite, Store(tmp_path / "b.db"), RunOptions(concurrency=4)).run())
    assert _stored(inline) == _stored(looped)
    assert inline.summary == looped.summary
    assert [c["status"] for c in _stored(inline)] == ["failed", "failed", "passed", "failed", "failed"]


class _SleepyEcho(EchoTarget):
    async def send(self, case, request):
        await asyncio.sleep(0)
        return Reply(body=case.query)


def test_runs_that_may_suspend_use_the_event_loop(tmp_path):
    store = Store(tmp_path / "r.db")
    assert not Engine(_suite({"type": "echo"}, validated=False), store).runs_inline()  # metrics not looked at
    assert not Engine(_suite({"type": "python", "function": "builtins:str"}), store).runs_inline()
    judged = _suite({"type": "echo"}, [{"metric": "llm-rubric", "value": "is polite"}])
    assert not Engine(judged, store).runs_inline()  # a judge metric awaits its calls
    assert not Engine(_suite(), store, target=_SleepyEcho({"type": "echo"})).runs_inline()
    assert not Engine(_suite({"type": "echo"}), store, RunOptions(executor=object())).runs_inline()


def test_a_subclass_awaiting_real_work_still_gets_its_event_loop(tmp_path):
    result = Engine(_suite({"type": "echo"}), Store(tmp_path / "r.db"), target=_SleepyEcho({"type": "echo"})).execute()
    assert result.summary["passed"] == 5


def test_a_run_that_suspends_when_driven_inline_stops_as_interrupted(tmp_path, monkeypatch):
    engine = Engine(_suite({"type": "echo"}), Store(tmp_path / "r.db"), target=_SleepyEcho({"type": "echo"}))
    monkeypatch.setattr(engine, "runs_inline", lambda: True)  # a wrong answer: the driver must not pass it off
    with pytest.raises(RuntimeError, match="suspends"):
        engine.execute()
    assert engine.store.get_run(engine.run_id)["status"] == "interrupted"


def test_a_calibration_set_after_validation_forgets_what_validation_found(tmp_path):
    suite = _suite({"type": "echo"})
    assert suite.awaits_nothing
    suite.use_calibration(None)
    assert not suite.awaits_nothing and not Engine(suite, Store(tmp_path / "r.db")).runs_inline()
