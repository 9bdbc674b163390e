"""A Ray run that succeeds prints nothing but agentunit's own output (issue 58): no error-level line about
actor constructor arguments in the object store, no token-authentication notice. On the local Ray cluster
the executor tests use, and on a local Ray the run starts itself."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli, write_suite
from tests.scale.test_ray_executor import _OBJECT_STORE_BYTES, Cluster

pytestmark = pytest.mark.slow

_APP = "def answer(prompt):\n    return 'Answer: ' + prompt.upper()\n"


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    """One node of two CPUs on loopback, as the executor tests start theirs."""
    started = Cluster(initialize_head=True, head_node_args={
        "num_cpus": 2, "object_store_memory": _OBJECT_STORE_BYTES, "node_ip_address": "127.0.0.1",
        "include_dashboard": False})
    try:
        yield started
    finally:
        started.shutdown()


def _suite(folder: Path) -> Path:
    """Six cases on a python target, every one passing."""
    (folder / "app.py").write_text(_APP)
    cases = [{"id": f"c{i}", "prompt": f"item{i}", "metrics": [{"metric": "contains", "value": f"ITEM{i}"}]}
             for i in range(6)]
    return write_suite(folder / "suite.json", {"name": "quiet", "target": {"type": "python", "function": "app:answer"},
                                               "cases": cases})


def _noise(stderr: str) -> list[str]:
    """What Ray printed: every line of stderr (agentunit prints nothing there on success)."""
    return [line for line in stderr.splitlines() if line.strip()]


# First: while the cluster below runs, a run without an address would join it instead of starting its own.
def test_a_local_ray_started_for_the_run_prints_no_token_notice(tmp_path: Path) -> None:
    suite = _suite(tmp_path)
    env = {k: v for k, v in os.environ.items() if k not in ("RAY_AUTH_MODE", "RAY_ADDRESS")}  # Ray's defaults
    env.update(HOME=str(tmp_path), RAY_USAGE_STATS_ENABLED="0",  # HOME: where Ray writes its token file
               PYTHONPATH=os.pathsep.join(p for p in (os.environ.get("PYTHONPATH"), str(ROOT)) if p))
    done = subprocess.run([sys.executable, "-m", "agentunit", "run", str(suite), "--db", str(tmp_path / "au.db"),
                           "--executor", "ray", "--ray-workers", "1"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300, env=env, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    assert "PASSED  6/6 passed" in done.stdout
    assert _noise(done.stderr) == []  # before: "WARNING authentication_token_setup.py:85 -- Token authentication
    # is enabled for this Ray cluster …" and the core_worker error line


def test_a_run_on_a_cluster_prints_no_error_line(cluster: Cluster, tmp_path: Path) -> None:
    suite = _suite(tmp_path)
    done = run_cli("run", str(suite), "--db", str(tmp_path / "au.db"), "--executor", "ray",
                   "--ray-address", cluster.address, "--ray-workers", "2", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "PASSED  6/6 passed" in done.stdout
    assert _noise(done.stderr) == []  # before: "[… E …] core_worker.cc: Actor … has constructor arguments in the
    # object store and max_restarts > 0 …"
