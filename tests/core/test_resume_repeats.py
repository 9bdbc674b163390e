"""Resuming a ``--repeat N`` run runs the repeats that were not committed, also of a case whose first
repeat was: resume skips committed (case, repeat) pairs, never whole cases, and ``agentunit run --resume``
keeps the interrupted run's repeat count when ``--repeat`` is not given again."""

import asyncio
import sqlite3

from agentunit.core.engine import Engine, RunOptions
from agentunit.store.sqlite import Store
from agentunit.suite import suite_from_dict
from agentunit.targets import make_target


def _suite():
    built = suite_from_dict({"name": "r", "cases": [
        {"id": c, "prompt": c, "metrics": [{"metric": "contains", "value": c}]} for c in ("a", "b")]})
    built.validate()
    return built


def _stored_pairs(store, run_id):
    return sorted(store.conn.execute("SELECT case_id, repeat FROM case_results WHERE run_id = ?", (run_id,)))


def test_a_run_interrupted_after_a_cases_first_repeat_runs_its_other_repeats_on_resume(tmp_path):
    calls = []
    hold = asyncio.Event()

    async def agent(prompt):
        calls.append(prompt)
        if len(calls) > 1:
            await hold.wait()  # never set: the run is interrupted here, during the second call
        return prompt

    store = Store(tmp_path / "r.db")

    async def interrupted_run():
        engine = Engine(_suite(), store, RunOptions(repeat=3, concurrency=1),
                        target=make_target({"type": "python", "function": agent}))
        task = asyncio.ensure_future(engine.run())
        while len(calls) < 2:
            await asyncio.sleep(0.01)
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass
        return engine.run_id

    run_id = asyncio.run(interrupted_run())
    assert _stored_pairs(store, run_id) == [("a", 0)]  # only the first repeat of "a" was committed
    assert store.get_run(run_id)["status"] == "interrupted"

    resumed_calls = []

    def answer(prompt):
        resumed_calls.append(prompt)
        return prompt

    resumed = asyncio.run(Engine(_suite(), store, RunOptions(repeat=3, resume=run_id),
                                 target=make_target({"type": "python", "function": answer})).run())
    assert sorted(resumed_calls) == ["a", "a", "b", "b", "b"]  # nothing committed ran again
    assert resumed.run_id == run_id and resumed.status == "completed"
    assert _stored_pairs(store, run_id) == [("a", 0), ("a", 1), ("a", 2), ("b", 0), ("b", 1), ("b", 2)]
    assert resumed.summary["cases"] == 6 and resumed.summary["repeat"]["k"] == 3
    attempts = {c["id"]: c["attempts"] for c in resumed.summary["repeat"]["cases"]}
    assert attempts == {"a": 3, "b": 3}


def test_cli_resume_without_repeat_keeps_the_interrupted_runs_repeat_count(tmp_path):
    from click.testing import CliRunner

    from agentunit.cli import app

    suite = tmp_path / "s.yaml"
    suite.write_text("name: r\ntarget: {type: echo}\ncases:\n"
                     "  - {id: a, prompt: a, metrics: [{metric: contains, value: a}]}\n"
                     "  - {id: b, prompt: b, metrics: [{metric: contains, value: b}]}\n")
    db = tmp_path / "r.db"
    first = CliRunner().invoke(app, ["run", str(suite), "--db", str(db), "--repeat", "3", "-q"])
    assert first.exit_code == 0, first.output
    with sqlite3.connect(db) as conn:  # as if killed once the first repeat of "a" was committed
        (run_id,) = conn.execute("SELECT run_id FROM runs").fetchone()
        conn.execute("DELETE FROM case_results WHERE NOT (case_id = 'a' AND repeat = 0)")
        conn.execute("DELETE FROM metric_results WHERE NOT (case_id = 'a' AND repeat = 0)")
        conn.execute("UPDATE runs SET status = 'running', summary = NULL")

    resumed = CliRunner().invoke(app, ["run", "--resume", run_id, "--db", str(db), "-q"])
    assert resumed.exit_code == 0, resumed.output
    with sqlite3.connect(db) as conn:
        pairs = sorted(conn.execute("SELECT case_id, repeat FROM case_results WHERE run_id = ?", (run_id,)))
        status = conn.execute("SELECT status FROM runs WHERE run_id = ?", (run_id,)).fetchone()[0]
    assert pairs == [("a", 0), ("a", 1), ("a", 2), ("b", 0), ("b", 1), ("b", 2)] and status == "completed"
