"""AgentUnit's ``Runner``: which scenarios it runs, the options it passes to the engine (concurrency, the
results database, the scenario's name, timeout, retries and metrics) and every field of the results it
returns (mutation testing found these unpinned; the end-to-end tests are in tests/test_api.py)."""

import threading
import time
from datetime import timezone

from agentunit.core.outcome import AdapterOutcome
from agentunit.core.runner import Runner, ScenarioResult, ScenarioRun, run_suite
from agentunit.core.scenario import Scenario
from agentunit.metrics import DEFAULT_METRICS
from agentunit.store.sqlite import connect_read_only, recent_runs

_CONTAINS = [{"metric": "contains", "value": "ok"}]


class _Adapter:
    name = "scripted"

    def __init__(self, seconds=0.0, fail_first=0):
        self.seconds, self.fail_first = seconds, fail_first
        self.lock = threading.Lock()
        self.in_flight = self.most = self.calls = 0

    def prepare(self):
        pass

    def execute(self, case, trace):
        with self.lock:
            self.calls += 1
            call = self.calls
            self.in_flight += 1
            self.most = max(self.most, self.in_flight)
        time.sleep(self.seconds)
        with self.lock:
            self.in_flight -= 1
        if call <= self.fail_first:
            return AdapterOutcome(success=False, output="not yet")
        return AdapterOutcome(output=f"ok {case.query}" if case.query != "bad" else "nope", cost=0.5)

    def cleanup(self):
        pass


def _scenario(name="s", cases=("a",), **options):
    return Scenario(name=name, adapter=options.pop("adapter", _Adapter()),
                    dataset=[{"id": f"c-{q}", "input": q} for q in cases], **{"metrics": _CONTAINS, **options})


def test_every_field_of_a_scenarios_runs():
    result = Runner().run(_scenario(cases=("a", "bad")))
    (scenario,) = result.scenarios
    assert isinstance(scenario, ScenarioResult) and scenario.name == "s" and len(scenario.run_id) > 0
    good, bad = scenario.runs
    assert isinstance(good, ScenarioRun)
    assert (good.scenario_name, good.case_id, good.success, good.metrics, good.error) == \
        ("s", "c-a", True, {"contains": 1.0}, None)
    assert (bad.case_id, bad.success, bad.metrics) == ("c-bad", False, {"contains": 0.0})
    assert [m["metric"] for m in good.results] == ["contains"] and good.results[0]["value"] == 1.0
    assert isinstance(good.duration_ms, float) and good.duration_ms >= 0
    assert scenario.success_rate == 0.5 and result.passed is False
    assert scenario.metric_mean("contains") == 0.5 and scenario.metric_mean("absent") is None
    assert result.started_at.tzinfo is timezone.utc and result.started_at <= result.finished_at
    assert result.finished_at.tzinfo is timezone.utc


def test_results_without_runs():
    assert ScenarioResult(name="empty").success_rate == 0.0
    runs = [ScenarioRun("s", "a", True, {"m": None}, None), ScenarioRun("s", "b", True, {"m": 0.25}, None),
            ScenarioRun("s", "c", False, {"m": 0.75}, None)]
    assert ScenarioResult(name="s", runs=runs).metric_mean("m") == 0.5


def test_scenarios_run_from_the_constructor_one_given_or_a_list():
    first, second = _scenario("one"), _scenario("two")
    assert [s.name for s in Runner([first, second]).run().scenarios] == ["one", "two"]
    assert [s.name for s in Runner([first]).run(second).scenarios] == ["two"]
    assert [s.name for s in Runner().run([second, first]).scenarios] == ["two", "one"]
    assert Runner().run().scenarios == [] and Runner().run().passed is True
    assert [s.name for s in run_suite([first]).scenarios] == ["one"]


def test_concurrency_defaults_to_one_and_is_taken_from_the_config():
    one = _Adapter(seconds=0.05)
    Runner(config="not a dict").run(_scenario(cases=("a", "b", "c", "d"), adapter=one))
    assert one.most == 1
    two = _Adapter(seconds=0.05)
    run_suite([_scenario(cases=("a", "b", "c", "d"), adapter=two)], concurrency=2)
    assert two.most == 2


def test_by_default_nothing_is_written_to_disk(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert Runner().run(_scenario()).passed is True
    assert list(tmp_path.iterdir()) == []  # an in-memory results database


def test_results_go_to_the_configured_database_under_the_scenarios_name(tmp_path):
    db = tmp_path / "r.db"
    result = Runner(config={"db": str(db)}).run(_scenario("stored"))
    runs = recent_runs(connect_read_only(db))
    assert [(r["run_id"], r["suite"]) for r in runs] == [(result.scenarios[0].run_id, "stored")]


def test_a_scenarios_retries_timeout_and_default_metrics_reach_the_engine():
    flaky = _Adapter(fail_first=1)
    (run,) = Runner().run(_scenario(adapter=flaky, retries=1)).scenarios[0].runs
    assert flaky.calls == 2 and run.success is True
    (slow,) = Runner().run(_scenario(adapter=_Adapter(seconds=0.3), timeout=0.1)).scenarios[0].runs
    assert (slow.success, slow.error, slow.metrics) == (False, "target timed out after 0.1 s", {})
    (default,) = Runner().run(_scenario(metrics=None)).scenarios[0].runs
    assert set(default.metrics) == set(DEFAULT_METRICS) and default.metrics["cost"] == 0.5
