"""A run's lease on PostgreSQL (a session advisory lock): a ``--resume`` of a run another session holds exits 2
naming the run and its holder, and runs nothing; the lease ends with the session that held it."""

from __future__ import annotations

import os

import pytest

from agentunit.store import open_store
from tests.conftest import run_cli, write_suite
from tests.store.conftest import _QUOTED, PASSWORD

pytestmark = pytest.mark.usefixtures("postgres_server")


def _start(store, run_id):
    store.start_run(run_id, suite="s", suite_path=None, suite_hash=None, started_at="t", options={}, target=None)


def test_a_run_held_by_one_session_is_refused_to_another_naming_the_holder(postgres_url):
    from agentunit.store.lease import RunHeldError

    first, second = open_store(postgres_url), open_store(postgres_url)
    open_stores = [first, second]
    try:
        _start(first, "run-a")
        _start(second, "run-b")  # another run: its own lease
        with pytest.raises(RunHeldError, match=rf"run run-a is being run by another agentunit process "
                                               rf"\(pid {os.getpid()} on .+\)"):
            second.mark_run("run-a", "running")
        first.mark_run("run-a", "completed", finished_at="t2")  # ended: let go
        second.mark_run("run-a", "running")
        with pytest.raises(RunHeldError):
            first.hold_run("run-a")
        open_stores.remove(second)
        second.close()  # closing lets its leases go
        first.hold_run("run-a")
        first.hold_run("run-b")
    finally:
        for store in open_stores:
            store.close()


def test_a_resume_of_a_run_held_elsewhere_exits_2_and_runs_nothing(tmp_path, postgres_url):
    cases = [{"id": f"c{i}", "prompt": f"p{i}", "metrics": [{"metric": "contains", "value": f"p{i}"}]}
             for i in range(6)]
    suite = write_suite(tmp_path / "s.json", {"name": "held", "target": {"type": "echo"}, "cases": cases})
    first = run_cli("run", str(suite), "--db", postgres_url, "-q", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    holder = open_store(postgres_url)
    try:
        run_id = holder.latest_runs(1)[0]["run_id"]
        holder.conn.execute("DELETE FROM metric_results WHERE run_id = ? AND case_id <> 'c0'", (run_id,))
        holder.conn.execute("DELETE FROM case_results WHERE run_id = ? AND case_id <> 'c0'", (run_id,))
        holder.mark_run(run_id, "running")  # this process continues the run (and holds it)
        refused = run_cli("run", str(suite), "--db", postgres_url, "--resume", run_id, cwd=tmp_path)
        assert refused.returncode == 2, refused.stdout + refused.stderr
        assert f"run {run_id} is being run by another agentunit process (pid {os.getpid()} on " in refused.stderr
        assert PASSWORD not in refused.stderr + refused.stdout and _QUOTED not in refused.stderr + refused.stdout
        count = "SELECT COUNT(*) FROM case_results WHERE run_id = ?"
        assert holder.conn.execute(count, (run_id,)).fetchone()[0] == 1  # nothing ran
    finally:
        holder.close()
    resumed = run_cli("run", str(suite), "--db", postgres_url, "--resume", run_id, "-q", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    store = open_store(postgres_url)
    try:
        assert store.conn.execute(count, (run_id,)).fetchone()[0] == 6
    finally:
        store.close()
