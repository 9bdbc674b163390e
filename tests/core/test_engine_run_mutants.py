"""What ``Engine.run`` stores and hands back: the run's row (options, target, suite hash, UTC times, summary),
the target it builds, which cases a filter keeps, progress, resume, executors, the report spool and
``summarize`` (written against the surviving mutants of core/engine.py; docs/testing.md, "Mutation testing")."""

import asyncio
import hashlib
import json
import re
import sys
import time
from datetime import datetime, timedelta, timezone
from types import SimpleNamespace

import pytest

from agentunit import evaluate
from agentunit.core.engine import Engine, RunOptions, summarize
from agentunit.errors import AgentUnitError
from agentunit.reporting.json_report import write_json
from agentunit.store.sqlite import Store
from agentunit.suite import load_suite, suite_from_dict
from agentunit.targets import make_target

RUN_ID = re.compile(r"\d{8}T\d{6}-[0-9a-f]{6}")
UTC_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00")


def _contains(value):
    return [{"metric": "contains", "value": value}]


def _suite(cases, **extra):
    built = suite_from_dict({"name": "s", "cases": cases, **extra})
    built.validate()
    return built


def _python(function):
    return make_target({"type": "python", "function": function})


def _run(suite, store, options=None, **kwargs):
    return asyncio.run(Engine(suite, store, options or RunOptions(), **kwargs).run())


def _near_now(stamp):
    return abs(stamp - datetime.now(timezone.utc)) < timedelta(seconds=60)


# -- the run's row ------------------------------------------------------------------------------------


def test_a_run_is_stored_with_its_options_target_suite_hash_times_and_summary(tmp_path):
    """The runs table is what `agentunit show`/`compare` and a resume read: every field must be the run's."""
    path = tmp_path / "s.yaml"
    path.write_text("name: stored\ntarget: {type: echo}\ncases:\n"
                    "  - {id: a, prompt: a, metrics: [{metric: contains, value: a}]}\n"
                    "  - {id: b, prompt: b, metrics: [{metric: contains, value: z}]}\n")
    suite = load_suite(path)
    suite.validate()
    store = Store(tmp_path / "r.db")
    options = RunOptions(concurrency=3, timeout=12.5, cache=False, filter="a|b", allow_unmeasured=True)
    result = _run(suite, store, options)  # no target given: the engine builds the suite's echo target

    assert RUN_ID.fullmatch(result.run_id), result.run_id
    assert (result.suite, result.status) == ("stored", "completed")
    assert UTC_TIME.fullmatch(result.started_at) and UTC_TIME.fullmatch(result.finished_at)
    assert _near_now(datetime.fromisoformat(result.finished_at))
    assert result.started_at <= result.finished_at
    assert [(c["id"], c["output"], c["status"]) for c in result.cases] == [("a", "a", "passed"), ("b", "b", "failed")]
    summary = {"cases": 2, "passed": 1, "failed": 1, "errored": 0, "unmeasured": 0, "allow_unmeasured": True,
               "metrics": {"contains": {"failed": 1, "passed": 1}}}
    assert result.summary == summary
    assert store.get_run(result.run_id) == {
        "run_id": result.run_id, "suite": "stored", "suite_path": str(path),
        "suite_hash": hashlib.sha256(path.read_bytes()).hexdigest(),
        "started_at": result.started_at, "finished_at": result.finished_at, "status": "completed",
        "options": {"concurrency": 3, "repeat": 1, "timeout": 12.5, "cache": False, "filter": "a|b",
                    "allow_unmeasured": True},
        "target": {"type": "echo"}, "summary": summary}


def test_run_ids_and_times_are_utc_whatever_the_local_time_zone(monkeypatch):
    """Run ids sort by their UTC start and times carry +00:00: a machine's zone must not shift them."""
    monkeypatch.setenv("TZ", "AUT-05:30")  # local time 5 h 30 ahead of UTC
    time.tzset()
    try:
        result = evaluate(cases=[{"id": "a", "output": "x", "metrics": _contains("x")}])
    finally:
        monkeypatch.undo()
        time.tzset()
    stamp = datetime.strptime(result.run_id.split("-")[0], "%Y%m%dT%H%M%S").replace(tzinfo=timezone.utc)
    assert RUN_ID.fullmatch(result.run_id) and _near_now(stamp)
    assert UTC_TIME.fullmatch(result.started_at) and _near_now(datetime.fromisoformat(result.started_at))


# -- the target -----------------------------------------------------------------------------------------


def _matrix_suite():
    return _suite([{"id": "a", "prompt": "hi", "metrics": _contains("h")}],
                  targets=[{"type": "echo", "label": "same"},
                           {"type": "python", "function": lambda prompt: prompt.upper(), "label": "upper"}])


def test_a_matrix_suite_runs_each_case_on_every_one_of_its_targets(tmp_path):
    """`targets:` builds one target per label: each expanded case is answered by its own."""
    result = _run(_matrix_suite(), Store(tmp_path / "r.db"))
    assert [(c["id"], c["output"], c["status"]) for c in result.cases] == [
        ("a [same]", "hi", "passed"), ("a [upper]", "HI", "failed")]


def test_a_target_given_to_the_engine_replaces_the_suites_targets(tmp_path):
    """evaluate(..., target=...) overrides the suite's target, `targets:` included."""
    result = _run(_matrix_suite(), Store(tmp_path / "r.db"), target=_python(lambda prompt: f"<{prompt}>"))
    assert [(c["id"], c["output"]) for c in result.cases] == [("a [same]", "<hi>"), ("a [upper]", "<hi>")]


def test_a_python_target_module_is_found_in_the_suites_folder(tmp_path, monkeypatch):
    """`function: module:attr` is imported from the suite file's folder, not only the working directory."""
    module = "engine_run_mutants_agent"
    (tmp_path / f"{module}.py").write_text("def answer(prompt):\n    return prompt[::-1]\n")
    path = tmp_path / "s.yaml"
    path.write_text(f"name: py\ntarget: {{type: python, function: '{module}:answer'}}\n"
                    "cases:\n  - {id: a, prompt: abc, metrics: [{metric: equals, value: cba}]}\n")
    monkeypatch.setattr(sys, "path", list(sys.path))
    suite = load_suite(path)
    suite.validate()
    # what loading the suite imported is forgotten: the engine must find the module by itself
    sys.path[:] = [p for p in sys.path if p != str(tmp_path)]
    sys.modules.pop(module, None)
    try:
        result = _run(suite, Store(tmp_path / "r.db"))
    finally:
        sys.modules.pop(module, None)
    assert [(c["output"], c["status"], c["error"]) for c in result.cases] == [("cba", "passed", None)]


def test_the_suites_timeout_option_bounds_each_case():
    """`options: {timeout: …}` applies when the run sets none (the default would be 300 s)."""
    async def slow(prompt):
        await asyncio.sleep(2)
        return prompt

    result = evaluate({"name": "t", "options": {"timeout": 0.1},
                       "cases": [{"id": "a", "prompt": "p", "metrics": _contains("p")}]}, target=slow)
    assert [(c["status"], c["error"]) for c in result.cases] == [("errored", "target timed out after 0.1 s")]


def test_the_echo_target_is_never_timed_out():
    """The echo target cannot hang, so the case limit does not apply to it (a Python target's call is
    bounded: with a limit already spent it times out)."""
    case = [{"id": "a", "prompt": "hi", "metrics": _contains("hi")}]
    echo = evaluate(cases=case, target={"type": "echo"}, timeout=1e-12)
    assert [(c["status"], c["output"], c["error"]) for c in echo.cases] == [("passed", "hi", None)]
    bounded = evaluate(cases=case, target=lambda prompt: prompt, timeout=1e-12)
    assert [(c["status"], c["error"]) for c in bounded.cases] == [("errored", "target timed out after 1e-12 s")]


# -- which cases run ------------------------------------------------------------------------------------


def test_a_filter_matches_ids_or_prompts_and_skips_cases_without_stopping(tmp_path):
    """--filter keeps a case whose id or prompt matches; a case before it that does not match is skipped,
    and a case without a prompt is matched on its id only."""
    suite = _suite([{"id": "one", "prompt": "alpha", "metrics": _contains("a")},
                    {"id": "two", "prompt": "beta match", "metrics": _contains("b")},
                    {"id": "three", "output": "x", "metrics": _contains("x")},
                    {"id": "four-XX", "output": "y", "metrics": _contains("y")}])
    result = _run(suite, Store(tmp_path / "r.db"), RunOptions(filter="match|XX"),
                  target=_python(lambda prompt: prompt))
    assert [(c["id"], c["output"]) for c in result.cases] == [("two", "beta match"), ("four-XX", "y")]


def test_a_filter_matches_a_hand_built_case_whose_id_is_a_number():
    """DatasetCase objects built in Python may carry an int id: it is stored, reported and filtered as text."""
    from agentunit.datasets.base import DatasetCase

    cases = [DatasetCase(id=7, query="alpha"), DatasetCase(id=12, query="beta")]
    contains_a = [{"metric": "contains", "value": "a"}]
    result = evaluate(cases=cases, target=lambda prompt: prompt, metrics=contains_a, filter="^12$")
    assert [c["id"] for c in result.cases] == ["12"]
    every = evaluate(cases=cases, target=lambda prompt: prompt, metrics=contains_a)
    assert [c["id"] for c in every.cases] == ["7", "12"]


def test_an_invalid_filter_is_refused_with_its_regex_error(tmp_path):
    """The message names the option and says what is wrong with the expression."""
    with pytest.raises(AgentUnitError) as info:
        Engine(_suite([{"id": "a", "output": "x"}]), Store(tmp_path / "r.db"), RunOptions(filter="(a"))
    assert str(info.value) == ("--filter '(a' is not a valid regular expression: "
                               "missing ), unterminated subpattern at position 0")


# -- progress, resume ---------------------------------------------------------------------------------


def test_progress_is_reported_once_per_stored_case_with_the_count_so_far(tmp_path):
    """The CLI's progress bar is fed (cases done, None); an engine not yet run has no run id."""
    calls = []
    suite = _suite([{"id": c, "output": c, "metrics": _contains(c)} for c in "abc"])
    engine = Engine(suite, Store(tmp_path / "r.db"), RunOptions(concurrency=1),
                    on_progress=lambda done, total: calls.append((done, total)))
    assert engine.run_id is None
    result = asyncio.run(engine.run())
    assert calls == [(1, None), (2, None), (3, None)]
    assert engine.run_id == result.run_id


def test_a_resumed_run_is_marked_running_keeps_its_start_and_hands_back_no_spool(tmp_path):
    """A resumed run shows as running while it goes and keeps its start time; its report reads the
    database (its earlier cases were not spooled), so it hands back no spool."""
    store = Store(tmp_path / "r.db")
    store.start_run("r1", suite="s", suite_path=None, suite_hash=None, started_at="2026-01-02T03:04:05+00:00",
                    options={}, target=None)
    store.mark_run("r1", "interrupted")  # stopped before any case was committed
    seen = []
    suite = _suite([{"id": c, "output": c, "metrics": _contains(c)} for c in "ab"])
    result = _run(suite, store, RunOptions(resume="r1", concurrency=1),
                  on_progress=lambda done, total: seen.append(store.get_run("r1")["status"]))
    assert seen == ["running", "running"]
    assert (result.run_id, result.started_at, result.status, result.summary["cases"]) == (
        "r1", "2026-01-02T03:04:05+00:00", "completed", 2)
    assert result.spool is None
    assert store.get_run("r1")["status"] == "completed"


# -- executors -----------------------------------------------------------------------------------------


class _Executor:
    """Runs the jobs in this process as an executor would elsewhere, storing each ``times`` times."""

    def __init__(self, times=1):
        self.times, self.seen = times, []

    async def drain(self, engine, run_id, jobs):
        for seq, case, repeat in jobs:
            self.seen.append((type(engine).__name__, run_id, seq, case.id, repeat))
            for _ in range(self.times):
                engine._store_case(run_id, seq, repeat, await engine._evaluate(case, repeat))


def test_an_executor_is_given_the_engine_the_run_id_and_every_job(tmp_path):
    """`options.executor.drain(engine, run_id, jobs)` runs the cases; they are stored under the run."""
    executor = _Executor()
    suite = _suite([{"id": c, "output": c, "metrics": _contains(c)} for c in "ab"])
    result = _run(suite, Store(tmp_path / "r.db"), RunOptions(executor=executor, repeat=2))
    assert executor.seen == [("Engine", result.run_id, 0, "a", 0), ("Engine", result.run_id, 0, "a", 1),
                             ("Engine", result.run_id, 1, "b", 0), ("Engine", result.run_id, 1, "b", 1)]
    assert [(c["id"], c["repeat"], c["status"]) for c in result.cases] == [
        ("a", 0, "passed"), ("a", 1, "passed"), ("b", 0, "passed"), ("b", 1, "passed")]


# -- the report spool ------------------------------------------------------------------------------------


def _report(result, tmp_path):
    out = tmp_path / "report.json"
    write_json(result, out)
    return json.loads(out.read_text())["cases"]


def test_a_new_sqlite_run_hands_its_spooled_report_lines_to_the_report(tmp_path):
    """A run into SQLite keeps its report lines as it goes (RunResult.spool): `--output` streams them
    instead of reading a 100,000-case run back; without repeats the cases carry no `repeat`."""
    suite = _suite([{"id": c, "output": c, "metrics": _contains(c)} for c in "ab"])
    result = _run(suite, Store(tmp_path / "r.db"), RunOptions(concurrency=1))
    assert result.spool is not None and result.spool.usable and result.spool.count == 2
    cases = _report(result, tmp_path)
    assert [(c["id"], c["status"], "repeat" in c) for c in cases] == [("a", "passed", False), ("b", "passed", False)]


def test_a_repeated_runs_spooled_lines_carry_each_cases_repeat(tmp_path):
    """With --repeat the spool places each attempt at seq × repeats + repeat and writes its `repeat`."""
    suite = _suite([{"id": c, "output": c, "metrics": _contains(c)} for c in "ab"])
    result = _run(suite, Store(tmp_path / "r.db"), RunOptions(concurrency=1, repeat=2))
    assert result.spool is not None and result.spool.usable and result.spool.count == 4
    cases = _report(result, tmp_path)
    assert [(c["id"], c["repeat"]) for c in cases] == [("a", 0), ("a", 1), ("b", 0), ("b", 1)]


def test_a_spool_that_disagrees_with_the_database_is_not_handed_back(tmp_path):
    """A case stored twice under one key is one row in the database and two spooled lines: the spool is
    dropped and the report reads the database."""
    suite = _suite([{"id": "a", "output": "a", "metrics": _contains("a")}])
    result = _run(suite, Store(tmp_path / "r.db"), RunOptions(executor=_Executor(times=2)))
    assert result.spool is None and result.summary["cases"] == 1
    assert [c["id"] for c in _report(result, tmp_path)] == ["a"]


@pytest.mark.parametrize("store", [
    SimpleNamespace(dialect="postgresql", listener=None, on_rewrite=None),  # PostgreSQL's own text rules
    SimpleNamespace(listener=None, on_rewrite=None),  # a store that names no dialect
    SimpleNamespace(dialect="sqlite"),  # no listener to feed a spool
], ids=["postgresql", "no-dialect", "no-listener"])
def test_only_a_sqlite_store_that_takes_a_listener_gets_a_spool(store):
    """The spool mirrors SQLite's text rules through the store's listener; any other store gets none
    and is left as it was."""
    before = dict(vars(store))
    assert Engine._spool(SimpleNamespace(store=store, options=RunOptions()), resumed=False) is None
    assert vars(store) == before


# -- summarize ----------------------------------------------------------------------------------------------


def test_summarize_by_default_counts_one_attempt_and_does_not_allow_unmeasured(tmp_path):
    """summarize(store, run_id) alone: counts of every status (0 when none), metrics, no repeat block,
    allow_unmeasured False."""
    def agent(prompt):
        if prompt == "boom":
            raise RuntimeError("down")
        return prompt

    store = Store(tmp_path / "r.db")
    suite = _suite([{"id": "a", "prompt": "a", "metrics": _contains("z")},
                    {"id": "b", "prompt": "boom", "metrics": _contains("b")}])
    result = _run(suite, store, target=_python(agent))
    assert summarize(store, result.run_id) == {
        "cases": 2, "passed": 0, "failed": 1, "errored": 1, "unmeasured": 0, "allow_unmeasured": False,
        "metrics": {"contains": {"failed": 1}}}
    assert summarize(store, result.run_id, 1) == result.summary


def test_summarize_of_a_repeated_run_averages_the_per_case_statistics(tmp_path):
    """--repeat 2: per case attempts, passes, pass rate, pass@k and pass^k; the run's figures are their means."""
    calls = []

    def flaky(prompt):  # "b" answers right the first time only
        calls.append(prompt)
        return "no" if prompt == "b" and calls.count("b") > 1 else prompt

    store = Store(tmp_path / "r.db")
    suite = _suite([{"id": c, "prompt": c, "metrics": _contains(c)} for c in "ab"])
    result = _run(suite, store, RunOptions(repeat=2, concurrency=1), target=_python(flaky))
    repeat = {"k": 2, "pass_rate": 0.75, "pass_at_k": 1.0, "pass_hat_k": 0.5, "cases": [
        {"id": "a", "attempts": 2, "passes": 2, "pass_rate": 1.0, "pass_at_k": 1.0, "pass_hat_k": 1.0, "k": 2},
        {"id": "b", "attempts": 2, "passes": 1, "pass_rate": 0.5, "pass_at_k": 1.0, "pass_hat_k": 0.0, "k": 2}]}
    assert result.summary["repeat"] == repeat
    assert summarize(store, result.run_id, 2)["repeat"] == repeat


# -- the judge's database ------------------------------------------------------------------------------------


def test_a_given_judge_gets_its_own_database_back_after_the_run(tmp_path):
    """A judge service outlives the run: its cache database is the run's only while the run goes."""
    from agentunit.judges.service import JudgeService

    service = JudgeService({"provider": "local"})
    own = Store(tmp_path / "judge.db")
    service.store = own
    result = _run(_suite([{"id": "a", "output": "x", "metrics": _contains("x")}]), Store(tmp_path / "r.db"),
                  judge=service)
    assert result.passed and service.store is own


# -- media limits ----------------------------------------------------------------------------------------------


def test_the_suites_media_size_limit_applies_to_media_a_reply_returns(tmp_path):
    """`options: {media_max_bytes: …}` bounds the media read while the run goes, not only at loading."""
    (tmp_path / "big.png").write_bytes(b"\x89PNG" + bytes(96))
    path = tmp_path / "s.yaml"
    path.write_text("name: media\noptions: {media_max_bytes: 10}\ncases:\n"
                    "  - {id: a, output: {output: x, trusys: {image: big.png}},\n"
                    "     metrics: [{metric: contains, value: x}]}\n")
    result = evaluate(path)
    assert result.cases[0]["envelope"] == {
        "media": [{"field": "trusys.image", "source": "big.png", "error": "is 100 bytes, over the 10-byte limit"}]}


# -- resources -----------------------------------------------------------------------------------------------


def test_a_lone_calls_resources_count_one_call_in_flight(monkeypatch):
    """`concurrent_calls` counts the target calls in flight while the call was measured: one, alone."""
    import agentunit.sustainability.meter as meter_module
    from agentunit.sustainability.meter import ResourceMeter

    meters = []

    class Kept(ResourceMeter):
        def start(self):
            meters.append(self)
            return super().start()

    monkeypatch.setattr(meter_module, "ResourceMeter", Kept)  # the engine imports it from there when it meters

    async def agent(prompt):
        for _ in range(2000):  # until the sampler has looked at least twice during this call
            if meters[-1]._samples >= 3:
                break
            await asyncio.sleep(0.005)
        return prompt

    class Resources:
        name = "resources-seen"
        info = SimpleNamespace(name="resources-seen", needs=("resources",), kind="score", value="none")
        sample_interval = 0.01

        def evaluate(self, case, trace, outcome):
            from agentunit.metrics.base import MetricResult

            return MetricResult(name=self.name, value=1.0, passed=True)

    result = evaluate(cases=[{"id": "c", "prompt": "p"}], target=agent, metrics=[Resources()], concurrency=1)
    resources = result.cases[0]["envelope"]["resources"]
    assert resources["samples"] >= 3 and resources["concurrent_calls"] == 1
