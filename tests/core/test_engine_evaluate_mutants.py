"""What the engine makes of one case: its metrics, the target's reply, a failed or timed-out call, the
verdict, and which conversations are played turn by turn (written against the surviving mutants of
core/engine.py's ``_evaluate``, ``_call_target`` and helpers; docs/testing.md, "Mutation testing")."""

import asyncio
import hashlib
import time
from types import SimpleNamespace

import pytest

import agentunit.core.engine as engine_module
from agentunit import evaluate
from agentunit.core.engine import Engine, RunOptions, _within
from agentunit.core.outcome import Outcome
from agentunit.core.trace import TraceLog
from agentunit.datasets.base import DatasetCase
from agentunit.metrics.base import MetricResult
from agentunit.store.sqlite import Store
from agentunit.suite import suite_from_dict
from agentunit.sustainability.meter import REMOTE_SCOPE
from agentunit.targets.base import Reply, Target


class Fixed(Target):
    """Answers every case with the reply ``make(case)`` builds, counting its calls."""

    kind = "fixed"

    def __init__(self, make, cache=False):
        super().__init__({"cache": cache})
        self.make, self.calls = make, 0

    async def send(self, case, request):
        self.calls += 1
        return self.make(case)


class Seen:
    """A metric that passes and keeps what it was given."""

    name = "seen"

    def __init__(self):
        self.cases, self.traces, self.outcomes = [], [], []

    def evaluate(self, case, trace, outcome):
        self.cases.append(case)
        self.traces.append(trace)
        self.outcomes.append(outcome)
        return MetricResult(name="seen", value=1.0, passed=True)


def _row(case, *keys):
    return {k: case[k] for k in keys}


# -- the case's metrics -------------------------------------------------------------------------------


def test_metric_specs_on_a_case_object_are_built_into_metrics():
    """A DatasetCase handed over with metric names and spec dicts gets them built, like a suite's."""
    result = evaluate(cases=[DatasetCase(id="c", output="x", metrics=["is-json", {"metric": "equals", "value": "x"}])])
    [case] = result.cases
    assert _row(case, "status", "passed", "score", "error") == {"status": "failed", "passed": False, "score": 0.5,
                                                                "error": None}
    assert case["metrics"] == [
        {"metric": "is-json", "status": "failed", "value": 0.0, "passed": False, "threshold": None, "weight": 1.0,
         "reason": "not valid JSON: Expecting value: line 1 column 1 (char 0)", "detail": {}, "error": None},
        {"metric": "equals", "status": "passed", "value": 1.0, "passed": True, "threshold": None, "weight": 1.0,
         "reason": "output equals the expected value", "detail": {}, "error": None}]


def test_a_metric_that_cannot_be_built_errors_its_case_and_the_run_goes_on():
    """Metric specs on a ``DatasetCase`` given to the API are built only when the case runs: one that
    cannot be built errors that case with the metric's own message, without calling the target, and the
    other cases still run (it used to raise out of the run after calling the target)."""
    calls = []

    def target(prompt):
        calls.append(prompt)
        return prompt

    result = evaluate(cases=[DatasetCase(id="bad", query="p", metrics=[{"metric": "no_such_metric"}]),
                             DatasetCase(id="good", query="q", metrics=[{"metric": "equals", "value": "q"}])],
                      target=target)
    bad, good = result.cases
    assert _row(bad, "status", "passed", "score", "error", "output") == {
        "status": "errored", "passed": False, "score": None, "output": None,
        "error": "a metric of this case cannot be built: UnknownMetricError: unknown metric 'no_such_metric'"
                 " — did you mean 'tool-success-metric', 'cost-metric'?"}
    assert bad["metrics"] == [] and calls == ["q"]
    assert good["status"] == "passed" and result.exit_code == 1


# -- what the target reported about its own call --------------------------------------------------------


@pytest.mark.parametrize("outcome, row", [
    (Outcome(output="x", success=False, error="tool crashed"),
     {"status": "errored", "passed": False, "score": None, "error": "tool crashed", "output": "x"}),
    (Outcome(output="x", success=False),
     {"status": "failed", "passed": False, "score": 1.0, "error": None, "output": "x"}),
    (Outcome(output="x", success=True, error="a note"),
     {"status": "passed", "passed": True, "score": 1.0, "error": None, "output": "x"}),
], ids=["failure-with-error", "failure-without-error", "success-with-error-text"])
def test_an_adapter_outcome_decides_the_case_by_its_success_flag(outcome, row):
    """An outcome that failed with an error errors the case with that error; one that failed without an
    error fails it even when every metric passed (with the metrics' score); an error text on a successful
    outcome is no error."""
    result = evaluate(cases=[{"id": "c", "prompt": "p"}], target=lambda prompt: outcome, metrics=[Seen()])
    [case] = result.cases
    assert _row(case, "status", "passed", "score", "error", "output") == row
    assert case["metrics"] == ([] if row["status"] == "errored" else [
        {"metric": "seen", "status": "passed", "value": 1.0, "passed": True, "threshold": None, "weight": 1.0,
         "reason": None, "detail": {}, "error": None}])


# -- transforms and failed calls ----------------------------------------------------------------------


def test_a_failed_call_keeps_its_error_when_the_case_has_a_transform():
    """The transform is not run on a call that failed: the case's error is the target's."""

    def agent(prompt):
        raise RuntimeError("boom")

    result = evaluate(cases=[{"id": "c", "prompt": "p", "transform": "output.upper()"}], target=agent,
                      metrics=[Seen()])
    assert _row(result.cases[0], "status", "error", "output", "metrics") == {
        "status": "errored", "error": "RuntimeError: boom", "output": None, "metrics": []}


def test_no_output_is_not_transformed():
    """A reply without output (None) skips the transform: the case is scored as it is, not errored."""
    seen = Seen()
    result = evaluate(cases=[{"id": "c", "prompt": "p", "transform": "output.upper()"}],
                      target=lambda prompt: Outcome(output=None), metrics=[seen])
    assert _row(result.cases[0], "status", "error", "output") == {"status": "passed", "error": None, "output": None}
    assert seen.outcomes[0].output is None


# -- the verdict --------------------------------------------------------------------------------------


class Broken:
    name = "broken"

    def evaluate(self, case, trace, outcome):
        raise ValueError("cannot compute")


def test_the_case_error_of_a_failing_metric_names_the_metric_and_a_failed_case_has_none():
    """A metric's exception errors the case with ``name: error``; a plain failure stores no case error."""
    result = evaluate(cases=[{"id": "e", "output": "x"}, {"id": "f", "output": "y"}],
                      metrics=[{"metric": "equals", "value": "x"}], concurrency=1)
    assert [_row(c, "id", "status", "error") for c in result.cases] == [
        {"id": "e", "status": "passed", "error": None}, {"id": "f", "status": "failed", "error": None}]
    errored = evaluate(cases=[{"id": "e", "output": "x"}], metrics=[Seen(), Broken()])
    [case] = errored.cases
    assert _row(case, "status", "passed", "score", "error") == {
        "status": "errored", "passed": False, "score": 1.0, "error": "broken: ValueError: cannot compute"}


def test_a_case_threshold_passes_a_case_on_its_weighted_score():
    """With ``threshold: 0.5`` one metric of two passing is enough (0.5 ≥ 0.5); without it the case fails."""
    metrics = [{"metric": "equals", "value": "x"}, {"metric": "equals", "value": "y"}]
    result = evaluate(cases=[{"id": "t", "output": "x", "threshold": 0.5, "metrics": metrics},
                             {"id": "n", "output": "x", "metrics": metrics}], concurrency=1)
    assert [_row(c, "id", "status", "passed", "score", "error") for c in result.cases] == [
        {"id": "t", "status": "passed", "passed": True, "score": 0.5, "error": None},
        {"id": "n", "status": "failed", "passed": False, "score": 0.5, "error": None}]


# -- the target call ----------------------------------------------------------------------------------


def test_a_case_without_output_and_no_target_errors_with_the_reason(tmp_path):
    """An unvalidated suite with no target: each case errors, saying why, and the run goes on."""
    suite = suite_from_dict({"cases": [{"id": "c", "prompt": "p"}]})
    result = asyncio.run(Engine(suite, Store(tmp_path / "r.db"), RunOptions()).run())
    assert _row(result.cases[0], "status", "error", "output", "metrics") == {
        "status": "errored", "error": "the suite has no target and this case has no recorded `output`",
        "output": None, "metrics": []}


def test_the_echo_target_and_plain_metrics_are_not_bounded_by_the_case_limit():
    """A case limit already spent (1e-9 s) does not time out the echo target (it cannot hang) nor a metric
    without ``evaluate_async`` (it cannot be interrupted): the case is measured."""
    seen = Seen()
    result = evaluate({"target": {"type": "echo"}, "cases": [{"id": "c", "prompt": "hi"}]},
                      metrics=[seen, {"metric": "equals", "value": "hi"}], timeout=1e-9)
    [case] = result.cases
    assert _row(case, "status", "error", "output") == {"status": "passed", "error": None, "output": "hi"}
    assert [(m["metric"], m["status"], m["error"]) for m in case["metrics"]] == [
        ("equals", "passed", None), ("seen", "passed", None)]


class _Clock:
    """``time`` for the engine module with a scripted ``perf_counter`` (the real ``monotonic``)."""

    def __init__(self, *ticks):
        self.ticks = list(ticks)
        self.monotonic = time.monotonic

    def perf_counter(self):
        return self.ticks.pop(0)


@pytest.mark.parametrize("reply", [
    Reply(body="x"),
    SimpleNamespace(body="x", usage=None, logprobs=None, finish_reason=None, cost=None, extra={}),
], ids=["reply-without-latency", "reply-object-without-latency-field"])
def test_a_reply_without_its_own_latency_is_timed_by_the_engine_in_milliseconds(monkeypatch, reply):
    """When the target does not say how long its attempt took (``latency_ms`` None, or a reply object
    without the field), the case's latency is the call's measured time: 0.25 s is 250 ms."""
    monkeypatch.setattr(engine_module, "time", _Clock(100.0, 100.25))
    result = evaluate(cases=[{"id": "c", "prompt": "p"}], target=Fixed(lambda case: reply), metrics=[Seen()])
    assert _row(result.cases[0], "status", "output", "latency_ms", "cached") == {
        "status": "passed", "output": "x", "latency_ms": 250.0, "cached": False}


def test_a_cached_reply_keeps_the_latency_of_the_call_that_made_it(tmp_path):
    """The second run is answered from the cache, with the first call's 12.5 ms, not no latency."""
    db = tmp_path / "r.db"
    latencies = []
    for _ in range(2):
        target = Fixed(lambda case: Reply(body="x", latency_ms=12.5), cache=True)
        result = evaluate(cases=[{"id": "c", "prompt": "p"}], target=target, metrics=[Seen()], db=db)
        latencies.append((target.calls, _row(result.cases[0], "latency_ms", "cached")))
        result.store.close()
    assert latencies == [(1, {"latency_ms": 12.5, "cached": False}), (0, {"latency_ms": 12.5, "cached": True})]


def test_the_replys_logprobs_finish_reason_cost_and_trace_reach_the_metrics_and_the_envelope():
    """What the transport reported beside the body is the outcome's; a trace the target recorded is the one
    the metrics get."""
    recorded = TraceLog()
    recorded.record("agent_response", content="x")
    reply = Reply(body="x", usage={"total_tokens": 3}, logprobs=[-0.5, -0.25], finish_reason="length", cost=0.25,
                  extra={"trace": recorded})
    seen = Seen()
    result = evaluate(cases=[{"id": "c", "prompt": "p"}], target=Fixed(lambda case: reply), metrics=[seen])
    assert result.cases[0]["envelope"] == {"usage": {"total_tokens": 3}, "cost": 0.25, "finish_reason": "length"}
    outcome = seen.outcomes[0]
    assert (outcome.logprobs, outcome.finish_reason, outcome.cost) == ([-0.5, -0.25], "length", 0.25)
    assert seen.traces[0] is recorded


def test_logprobs_in_the_body_stay_when_the_transport_reports_none():
    """A reply whose body carries ``trusys.logprobs`` and whose transport reports none keeps the body's."""
    seen = Seen()
    body = {"output": "x", "trusys": {"logprobs": [-1.0]}}
    evaluate(cases=[{"id": "c", "prompt": "p"}], target=Fixed(lambda case: Reply(body=body)), metrics=[seen])
    assert (seen.outcomes[0].output, seen.outcomes[0].logprobs) == ("x", [-1.0])


# -- resources of the call ----------------------------------------------------------------------------


class Resources:
    """A metric that needs the call's resources measured (sampling every 5 s: only at start and stop)."""

    name = "resources-needed"
    info = SimpleNamespace(name="resources-needed", needs=("resources",), kind="score", value="none")
    sample_interval = 5.0
    cpu_tdp_watts = 65

    def evaluate(self, case, trace, outcome):
        return MetricResult(name=self.name, value=1.0, passed=outcome.resources is not None)


def test_concurrent_calls_counts_the_target_calls_in_flight_when_a_call_starts_and_ends():
    """Four cases, three at a time: ``a``, ``b`` and ``c`` wait; ``c`` lets ``a`` finish, which frees a worker
    for ``p``, which lets ``b`` and ``c`` finish. Each call's meter reads the calls in flight when it
    starts and when it ends (its own excluded), at least 1: a 2 (b and c at its end), b 1, c 2 (a and b at
    its start), p 2 (b and c). The meter gets the metric's settings (its 65 W TDP)."""
    events = {}

    async def agent(prompt):
        for name in "abcp":
            events.setdefault(name, asyncio.Event())
        if prompt == "c":
            events["a"].set()
        if prompt == "p":
            events["b"].set()
            events["c"].set()
            return prompt
        await events[prompt].wait()
        return prompt

    result = evaluate(cases=[{"id": n, "prompt": n} for n in "abcp"], target=agent, metrics=[Resources()],
                      concurrency=3)
    measured = {c["id"]: c["envelope"]["resources"] for c in result.cases}
    assert {k: (r["concurrent_calls"], r["cpu_tdp_watts"], r["samples"]) for k, r in measured.items()} == {
        "a": (2, 65.0, 2), "b": (1, 65.0, 2), "c": (2, 65.0, 2), "p": (2, 65.0, 2)}
    assert result.passed


@pytest.mark.parametrize("kind, scope", [
    ("http", REMOTE_SCOPE), ("openai", REMOTE_SCOPE), ("command", "agentunit process tree"),
])
def test_the_measured_scope_says_when_the_call_was_answered_outside_the_process(kind, scope):
    """http and openai targets are answered by a server the meter does not see: their scope says so."""
    target_class = type(f"{kind}Target", (Fixed,), {"kind": kind})
    result = evaluate(cases=[{"id": "c", "prompt": "p"}], target=target_class(lambda case: Reply(body="x")),
                      metrics=[Resources()])
    assert result.cases[0]["envelope"]["resources"]["scope"] == scope


# -- media and matrix labels in the envelope -------------------------------------------------------------


def test_a_case_medium_is_recorded_in_the_stored_envelope(tmp_path):
    """The envelope describes the case's own media (never the bytes)."""
    data = b"RIFF....WAVEfmt "
    (tmp_path / "a.wav").write_bytes(data)
    result = evaluate(cases=[DatasetCase(id="c", output="x", audio="a.wav", media_dir=str(tmp_path))],
                      metrics=[Seen()])
    assert result.cases[0]["envelope"] == {"media": [
        {"field": "audio", "source": "a.wav", "sha256": hashlib.sha256(data).hexdigest(), "mime": "audio/wav",
         "size": 16}]}


def test_metadata_that_is_not_an_object_gives_no_media_and_no_error():
    """A case object whose ``metadata`` is a list is scored and stored like any text case."""
    result = evaluate(cases=[DatasetCase(id="c", output="x", metadata=["tag"])], metrics=[Seen()])
    assert _row(result.cases[0], "status", "error", "envelope") == {"status": "passed", "error": None,
                                                                    "envelope": None}


def test_a_matrix_case_keeps_its_envelope_beside_its_labels(tmp_path):
    """The prompt and target labels are added to what the reply reported, not put in its place."""

    def agent(prompt):
        return {"output": prompt, "usage": {"prompt_tokens": 1}}

    suite = suite_from_dict({
        "name": "m", "prompts": ["a {{ q }}"],
        "targets": [{"type": "python", "function": agent, "label": "one"},
                    {"type": "python", "function": agent, "label": "two"}],
        "metrics": [{"metric": "equals", "value": "a hi"}], "cases": [{"id": "c", "vars": {"q": "hi"}}]})
    suite.validate(require_target=True)
    result = asyncio.run(Engine(suite, Store(tmp_path / "r.db"), RunOptions(concurrency=1)).run())
    assert [(c["id"], c["status"], c["envelope"]) for c in result.cases] == [
        ("c [one]", "passed", {"usage": {"prompt_tokens": 1}, "matrix": {"prompt": "prompt-1", "target": "one"}}),
        ("c [two]", "passed", {"usage": {"prompt_tokens": 1}, "matrix": {"prompt": "prompt-1", "target": "two"}})]


# -- which conversations are played turn by turn ------------------------------------------------------------


def _recording():
    seen = []

    def chat(prompt, case):
        seen.append((prompt, [t.get("content") for t in case.conversation or []]))
        return f"re: {prompt}"

    return chat, seen


def test_a_conversation_of_one_user_turn_is_played():
    """One user turn is a conversation too: the target gets the turn as its prompt and no history."""
    chat, seen = _recording()
    result = evaluate(cases=[DatasetCase(id="c", conversation=[{"role": "user", "content": "hi"}])], target=chat,
                      metrics=[Seen()])
    assert seen == [("hi", [])] and result.cases[0]["output"] == "re: hi"


def test_turns_without_a_role_are_user_turns():
    """A turn with no ``role`` is the user's: the conversation is played turn by turn."""
    chat, seen = _recording()
    result = evaluate(cases=[DatasetCase(id="c", conversation=[{"content": "a"}, {"content": "b"}])], target=chat,
                      metrics=[Seen()])
    assert seen == [("a", []), ("b", ["a", "re: a"])] and result.cases[0]["output"] == "re: b"


def test_a_conversation_with_an_assistant_turn_is_context_for_one_call():
    """A conversation that already holds the assistant's turns is not played: one call with the case's
    prompt, the conversation given as it is."""
    chat, seen = _recording()
    turns = [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}]
    result = evaluate(cases=[DatasetCase(id="c", query="q", conversation=turns)], target=chat, metrics=[Seen()])
    assert seen == [("q", ["a", "b"])] and result.cases[0]["output"] == "re: q"


# -- _within ------------------------------------------------------------------------------------------


def test_a_deadline_reached_exactly_is_passed_and_the_awaitable_never_runs(monkeypatch):
    """At ``remaining == 0`` the awaitable is closed without running and TimeoutError is raised."""
    ran = []

    async def work():
        ran.append(True)
        return "done"

    monkeypatch.setattr(engine_module, "time", SimpleNamespace(monotonic=lambda: 50.0))
    awaitable = work()
    with pytest.raises(asyncio.TimeoutError):
        asyncio.run(_within(awaitable, 50.0))
    assert ran == [] and awaitable.cr_frame is None  # closed


def test_within_without_asyncio_timeout_uses_wait_for(monkeypatch):
    """Before Python 3.11 (no ``asyncio.timeout``) the deadline is kept with ``wait_for``: the value comes
    back in time, a slower awaitable times out."""
    monkeypatch.setattr(engine_module, "_HAS_TIMEOUT_CM", False)

    async def value():
        return "done"

    async def slow():
        await asyncio.sleep(1)
        return "late"

    assert asyncio.run(_within(value(), time.monotonic() + 5)) == "done"
    with pytest.raises(asyncio.TimeoutError):
        asyncio.run(_within(slow(), time.monotonic() + 0.05))
