"""`agentunit compare` stays within one suite (issue 58): `latest` and `latest~N` count the runs of the
other side's suite (for `latest~1 latest`: the newest run's), `--suite` chooses it, and two runs of
different suites are refused (exit 2) unless `--across-suites`."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from agentunit.cli import app
from agentunit.errors import AgentUnitError
from agentunit.metrics.base import MetricResult
from agentunit.stats.compare import compare_runs, resolve_run
from agentunit.store.sqlite import Store, UnknownRunError

# (run id, suite, day): the suites' runs interleave, the newest run is beta's.
_RUNS = [("alpha-1", "alpha", 1), ("beta-1", "beta", 2), ("alpha-2", "alpha", 3), ("beta-2", "beta", 4)]


def _write(store: Store, run_id: str, suite: str, day: int) -> None:
    started = f"2026-01-0{day}T00:00:00+00:00"
    store.start_run(run_id, suite=suite, suite_path=None, suite_hash=None, started_at=started, options={},
                    target=None)
    ids = ["a1", "a2"] if suite == "alpha" else ["b1", "b2"]
    for seq, case_id in enumerate(ids):
        passed = not (run_id == "beta-2" and case_id == "b2")  # beta-2 breaks b2
        store.add_case(run_id, seq, case_id, 0, status="passed" if passed else "failed", passed=passed, score=None,
                       prompt="p", output="o", error=None, latency_ms=1.0, cached=False, envelope=None,
                       metrics=[MetricResult("contains", float(passed), passed=passed)])
    store.mark_run(run_id, "completed", finished_at=started)


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "r.db"
    store = Store(path)
    for run in _RUNS:
        _write(store, *run)
    store.close()
    return path


def _cli(*args: str):
    return CliRunner().invoke(app, ["compare", *args])


def test_latest_counts_the_runs_of_the_newest_runs_suite(db):
    result = compare_runs(db, "latest~1", "latest")
    assert (result["a"], result["b"], result["suite"]) == ("beta-1", "beta-2", "beta")
    assert result["cases"]["added"] == result["cases"]["removed"] == [] and result["cases"]["broken"] == ["b2"]


def test_a_run_id_scopes_latest_on_the_other_side(db):
    assert compare_runs(db, "alpha-1", "latest")["b"] == "alpha-2"
    assert compare_runs(db, "latest~1", "alpha-2")["a"] == "alpha-1"
    assert compare_runs(db, "latest", "beta-1")["a"] == "beta-2"


def test_suite_chooses_the_suite(db):
    result = compare_runs(db, "latest~1", "latest", suite="alpha")
    assert (result["a"], result["b"], result["suite"]) == ("alpha-1", "alpha-2", "alpha")
    assert resolve_run(db, "latest~1", suite="beta") == "beta-1"
    with pytest.raises(UnknownRunError, match="of suite 'alpha'") as info:
        compare_runs(db, "latest~2", "latest", suite="alpha")
    assert "alpha-2" in str(info.value) and "beta-2" not in str(info.value)  # lists that suite's runs
    with pytest.raises(UnknownRunError, match="no run of suite 'gamma'"):
        compare_runs(db, "latest~1", "latest", suite="gamma")


def test_runs_of_two_suites_are_refused_unless_asked_for(db):
    with pytest.raises(AgentUnitError, match="suite 'alpha' and run beta-2 of suite 'beta'"):
        compare_runs(db, "alpha-2", "beta-2")
    with pytest.raises(AgentUnitError, match="not 'beta'"):
        compare_runs(db, "alpha-1", "latest", suite="beta")
    across = compare_runs(db, "alpha-2", "beta-2", across_suites=True)
    assert across["suite"] is None and across["cases"]["added"] == ["b1", "b2"]
    # across suites without --suite, latest~N counts every run, as before
    assert compare_runs(db, "latest~1", "latest", across_suites=True)["a"] == "alpha-2"


def test_the_command_compares_one_suite_and_refuses_two(db):
    done = _cli("latest~1", "latest", "--db", str(db), "--json")
    assert done.exit_code == 0, done.output
    result = json.loads(done.stdout)
    assert (result["a"], result["b"], result["suite"]) == ("beta-1", "beta-2", "beta")
    assert json.loads(_cli("latest~1", "latest", "--db", str(db), "--suite", "alpha", "--json").stdout)["b"] \
        == "alpha-2"
    refused = _cli("alpha-2", "beta-2", "--db", str(db))
    assert refused.exit_code == 2 and "Traceback" not in refused.stderr
    assert refused.stderr.startswith("error: run alpha-2 is of suite 'alpha' and run beta-2 of suite 'beta'")
    assert "--across-suites" in refused.stderr and refused.stdout == ""
    assert _cli("alpha-2", "beta-2", "--db", str(db), "--across-suites").exit_code == 0
    unknown = _cli("latest~1", "latest", "--db", str(db), "--suite", "gamma")
    assert unknown.exit_code == 2 and "no run of suite 'gamma'" in unknown.stderr and "'alpha'" in unknown.stderr
