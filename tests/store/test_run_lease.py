"""One process at a time runs a run: a second ``--resume`` of a run another process is running exits 2
naming the run and its holder, instead of running every remaining case again (``agentunit.store.lease``)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from agentunit.store.lease import RunHeldError, lease_file
from agentunit.store.sqlite import Store
from tests.conftest import write_suite

_RUN = "20260101T000000-abcdef"


def _start(store: Store, run_id: str = _RUN) -> None:
    store.start_run(run_id, suite="s", suite_path=None, suite_hash=None, started_at="t", options={}, target=None)


def test_a_run_held_by_one_store_is_refused_to_another_naming_the_holder(tmp_path):
    db = tmp_path / "r.db"
    first, second = Store(db), Store(db)
    try:
        _start(first)
        assert lease_file(str(db), _RUN).is_file()
        with pytest.raises(RunHeldError, match=rf"run {_RUN} is being run by another agentunit process "
                                               rf"\(pid {os.getpid()} on .+ since .+\)"):
            second.mark_run(_RUN, "running")  # what a continued run does first
        first.hold_run(_RUN)  # its own lease: nothing to do
        first.mark_run(_RUN, "completed", finished_at="t2")  # the run ended: its lease is let go
        assert not lease_file(str(db), _RUN).exists()
        second.mark_run(_RUN, "running")
        with pytest.raises(RunHeldError):
            first.hold_run(_RUN)
    finally:
        second.close()
        first.close()
    assert not lease_file(str(db), _RUN).exists()  # closing let the lease go and removed its file


def test_a_database_in_memory_leases_nothing():
    store = Store(":memory:")
    _start(store)
    store.mark_run(_RUN, "running")
    assert lease_file(":memory:", _RUN) is None
    store.close()


def test_an_unusual_run_id_gets_a_lock_file_named_by_its_hash(tmp_path):
    path = lease_file(str(tmp_path / "r.db"), "../../etc/x")
    assert path.parent == tmp_path and len(path.name.removeprefix("r.db-run-").removesuffix(".lock")) == 64


# A process holding the lease of run argv[3] in the database argv[1]; with argv[2] == "fork" it forks a child that
# lives on. It prints its pid and the child's once the lease is taken, then sleeps until killed.
_HOLDER = textwrap.dedent("""
    import os, sys, time
    from agentunit.store.sqlite import Store
    RUN = sys.argv[3]
    store = Store(sys.argv[1])
    store.start_run(RUN, suite="s", suite_path=None, suite_hash=None, started_at="t", options={}, target=None)
    child = os.fork() if sys.argv[2] == "fork" else 0
    if sys.argv[2] == "fork" and child == 0:
        time.sleep(600)  # until killed: the test kills both
        os._exit(0)
    print(os.getpid(), child, flush=True)
    time.sleep(600)
""")


@pytest.mark.parametrize("fork", ["fork", "no-fork"])
def test_a_killed_holders_lease_is_taken_over_even_while_its_forked_child_lives(tmp_path, fork):
    db = tmp_path / "r.db"
    holder = subprocess.Popen([sys.executable, "-c", _HOLDER, str(db), fork, _RUN], stdout=subprocess.PIPE, text=True)
    pid, child = (int(x) for x in holder.stdout.readline().split())
    store = Store(db)
    try:
        with pytest.raises(RunHeldError, match=f"pid {pid} on "):
            store.hold_run(_RUN)
        os.kill(pid, signal.SIGKILL)
        holder.wait(60)
        store.hold_run(_RUN)  # the kernel let the dead holder's lock go; its child never held it
        if child:
            assert Path(f"/proc/{child}").exists()
    finally:
        store.close()
        if child:
            os.kill(child, signal.SIGKILL)
        holder.kill()  # killed already, unless a check above failed first
        holder.wait()
        holder.stdout.close()


_AGENT = textwrap.dedent("""
    import os, time
    def answer(prompt):
        with open(os.environ["AU_CALL_LOG"], "a") as log:
            log.write(prompt + "\\n")
        go = os.environ.get("AU_GO")
        deadline = time.monotonic() + 600  # past any start of the second resume, however busy the machine
        while go and not os.path.exists(go) and time.monotonic() < deadline:  # held until the test says go
            time.sleep(0.02)
        return prompt.upper()
""")


def test_two_resumes_of_one_run_at_once_the_second_exits_2_and_no_case_runs_twice(tmp_path):
    (tmp_path / "lagging_agent.py").write_text(_AGENT)
    total = 12
    suite = write_suite(tmp_path / "s.json", {
        "name": "held", "target": {"type": "python", "function": "lagging_agent:answer"},
        "cases": [{"id": f"c{i}", "prompt": f"p{i}", "metrics": [{"metric": "equals", "value": f"P{i}"}]}
                  for i in range(total)]})
    db, log, go = tmp_path / "r.db", tmp_path / "calls.log", tmp_path / "go"
    env = {**os.environ, "AU_CALL_LOG": str(log), "HF_HUB_OFFLINE": "1"}

    def agentunit(*args: str, **more: str) -> subprocess.Popen[str]:
        return subprocess.Popen([sys.executable, "-m", "agentunit", "run", str(suite), "--db", str(db), "-q", "-j",
                                 "1", *args], cwd=tmp_path, env={**env, **more}, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)

    first = agentunit()
    assert first.wait(300) == 0, first.communicate()
    with sqlite3.connect(db) as conn:  # as if killed after 4 cases
        (run_id,) = conn.execute("SELECT run_id FROM runs").fetchone()
        conn.execute("DELETE FROM metric_results WHERE case_id NOT IN ('c0', 'c1', 'c2', 'c3')")
        conn.execute("DELETE FROM case_results WHERE case_id NOT IN ('c0', 'c1', 'c2', 'c3')")
        conn.execute("UPDATE runs SET status = 'interrupted'")
    log.unlink()
    resuming = agentunit("--resume", run_id, AU_GO=str(go))
    deadline = time.monotonic() + 60
    while not log.exists() and resuming.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)  # until the first resume runs its first remaining case (and waits there)
    second = agentunit("--resume", run_id)  # not held back: run unleased, it would run every remaining case
    try:
        _, err = second.communicate(timeout=300)
    finally:
        go.touch()
    assert second.returncode == 2, err
    assert f"run {run_id} is being run by another agentunit process (pid {resuming.pid} on " in err
    assert "Traceback" not in err
    _, err = resuming.communicate(timeout=300)
    assert resuming.returncode == 0, err
    calls = log.read_text().split()
    assert sorted(calls) == sorted(f"p{i}" for i in range(4, total))  # each remaining case ran once
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM case_results").fetchone()[0] == total
        assert conn.execute("SELECT status FROM runs").fetchone()[0] == "completed"
    assert not lease_file(str(db), run_id).exists()
    again = agentunit("--resume", run_id)  # the lease was let go: the run can be continued (nothing left)
    assert again.wait(300) == 0, again.communicate()
    assert len(log.read_text().split()) == total - 4
