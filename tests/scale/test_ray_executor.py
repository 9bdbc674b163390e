"""The Ray executor on a real two-node Ray cluster on 127.0.0.1: same rows as a local run, a killed
worker loses no case, and the CLI attaching to a running cluster.

One cluster for the module (starting one takes seconds on two cores); marked slow, skipped without Ray.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

# Before Ray is imported: no usage stats, no token authentication (a throwaway cluster), and every node
# address on loopback (Ray otherwise swaps 127.0.0.1 for the machine's outward address).
os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
os.environ["RAY_AUTH_MODE"] = "disabled"
os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
ray = pytest.importorskip("ray")
from ray.cluster_utils import Cluster  # noqa: E402

from agentunit.core.engine import Engine, RunOptions  # noqa: E402
from agentunit.scale import RayExecutor  # noqa: E402
from agentunit.store.sqlite import Store  # noqa: E402
from agentunit.suite.loader import load_suite  # noqa: E402
from tests.conftest import run_cli, write_suite  # noqa: E402

pytestmark = pytest.mark.slow

_OBJECT_STORE_BYTES = 80 * 1024 * 1024
_APP = '''
import os
import time
from pathlib import Path


def answer(prompt):
    folder = Path(__file__).parent
    with (folder / "calls.log").open("a") as log:  # which process called the target for what
        log.write(f"{os.getpid()} {prompt}\\n")
    if (folder / "hold").exists():  # from its 4th call (its second batch) a worker waits until one was killed
        calls = (folder / "calls.log").read_text().count(f"{os.getpid()} ")
        deadline = time.monotonic() + 60
        while calls >= 4 and not (folder / "killed").exists() and time.monotonic() < deadline:
            time.sleep(0.01)
    if prompt.startswith("boom"):
        raise RuntimeError("the agent crashed")
    time.sleep(float(prompt.split(":")[1]) if ":" in prompt else 0.0)
    return "Answer: " + prompt.split(":")[0].upper()
'''


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    """Two nodes of one CPU each on loopback, no dashboard, no usage stats, a small object store."""
    node = {"num_cpus": 1, "object_store_memory": _OBJECT_STORE_BYTES, "node_ip_address": "127.0.0.1"}
    started = Cluster(initialize_head=True, head_node_args={**node, "include_dashboard": False})
    started.add_node(**node)
    ray.init(address=started.address, logging_level="WARNING")
    try:
        yield started
    finally:
        ray.shutdown()
        started.shutdown()


def _suite(folder: Path, cases: int, sleep_s: float = 0.0, cache: bool = False) -> Path:
    """A python target (``app.answer``) in ``folder``; every 7th case fails a check, every 11th errors."""
    (folder / "app.py").write_text(_APP)
    rows = []
    for i in range(cases):
        word = "boom" if i % 11 == 10 else f"item{i}"
        expected = "nope" if i % 7 == 6 else f"ITEM{i}"
        checks = [{"metric": "contains", "value": expected}, {"metric": "starts-with", "value": "Answer:"}]
        rows.append({"id": f"c{i}", "prompt": f"{word}:{sleep_s}", "metrics": checks})
    suite = {"name": "ray", "target": {"type": "python", "function": "app:answer", "cache": cache}, "cases": rows}
    return write_suite(folder / "suite.json", suite)


def _run(suite_path: Path, db: Path, executor: RayExecutor | None = None, repeat: int = 1,
         on_progress: object = None) -> tuple[object, list[dict]]:
    store = Store(db)
    engine = Engine(load_suite(suite_path), store, RunOptions(concurrency=4, repeat=repeat, executor=executor),
                    on_progress=on_progress)  # type: ignore[arg-type]
    result = asyncio.run(engine.run())
    rows = list(result.iter_cases())
    store.close()
    return result, rows


def _verdicts(rows: list[dict]) -> list[tuple]:
    """What must equal a local run's: everything but timing and the cache flag."""
    return [(r["id"], r["repeat"], r["status"], r["passed"], r["score"], r["prompt"], r["output"], r["error"],
             [(m["metric"], m["value"], m["passed"], m["reason"]) for m in r["metrics"]]) for r in rows]


def test_ray_run_stores_what_a_local_run_stores(cluster: Cluster, tmp_path: Path) -> None:
    suite = _suite(tmp_path, 30, cache=True)
    ray_result, ray_rows = _run(suite, tmp_path / "au.db", RayExecutor(workers=2, batch_size=4), repeat=2)
    local_result, local_rows = _run(suite, tmp_path / "au.db", repeat=2)  # reads the cache the Ray run wrote
    again_result, again_rows = _run(suite, tmp_path / "au.db", RayExecutor(workers=2, batch_size=4), repeat=2)

    assert len(ray_rows) == 60
    assert _verdicts(ray_rows) == _verdicts(local_rows) == _verdicts(again_rows)
    for key in ("cases", "passed", "failed", "errored", "unmeasured", "metrics"):
        assert ray_result.summary[key] == local_result.summary[key] == again_result.summary[key], key
    assert ray_result.summary["repeat"] == local_result.summary["repeat"]
    assert ray_result.exit_code == local_result.exit_code == 1
    assert not any(r["cached"] for r in ray_rows)
    errored = [r for r in ray_rows if r["status"] == "errored"]
    assert all(r["cached"] for r in local_rows if r["status"] != "errored")  # the Ray run's replies, cached
    assert all(r["cached"] for r in again_rows if r["status"] != "errored")  # hits shipped to the workers
    assert {r["error"] for r in errored} == {"RuntimeError: the agent crashed"}


def test_killing_a_worker_mid_run_stores_every_case_once(cluster: Cluster, tmp_path: Path) -> None:
    suite = _suite(tmp_path, 48, sleep_s=0.05)
    executor = RayExecutor(workers=2, batch_size=3)
    killed: list[int] = []

    def kill_a_worker_mid_batch() -> None:
        """SIGKILL the first actor while its second batch's target calls are under way (they wait for it)."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            pids = executor.stats.worker_pids
            log = tmp_path / "calls.log"
            if pids and log.exists() and log.read_text().count(f"{pids[0]} ") >= 4:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])
                (tmp_path / "killed").touch()  # the other workers go on
                return
            time.sleep(0.002)

    (tmp_path / "hold").touch()
    killer = threading.Thread(target=kill_a_worker_mid_batch)
    killer.start()
    result, rows = _run(suite, tmp_path / "au.db", executor)
    killer.join()
    calls = [line.split(" ", 1) for line in (tmp_path / "calls.log").read_text().splitlines()]

    assert killed
    assert executor.stats.pids_seen - set(executor.stats.worker_pids)  # a restarted actor returned batches
    by_killed = {prompt for pid, prompt in calls if int(pid) == killed[0]}
    by_restarted = {prompt for pid, prompt in calls if int(pid) not in executor.stats.worker_pids}
    assert by_killed & by_restarted  # the lost batch's cases were called again by the restarted actor...
    assert Counter((r["id"], r["repeat"]) for r in rows) == Counter((f"c{i}", 0) for i in range(48))  # ...stored once
    assert result.status == "completed"
    assert result.summary["cases"] == 48
    local_result, local_rows = _run(suite, tmp_path / "local.db")
    assert _verdicts(rows) == _verdicts(local_rows)
    assert result.summary["passed"] == local_result.summary["passed"]


def test_cli_runs_a_suite_on_a_running_cluster(cluster: Cluster, tmp_path: Path) -> None:
    suite = _suite(tmp_path, 12)
    done = run_cli("run", str(suite), "--db", str(tmp_path / "au.db"), "-o", str(tmp_path / "out.json"), "-q",
                   "--executor", "ray", "--ray-address", cluster.address, "--ray-workers", "2",
)
    local = run_cli("run", str(suite), "--db", str(tmp_path / "local.db"), "-o", str(tmp_path / "local.json"), "-q")

    assert done.returncode == local.returncode == 1, done.stderr
    report, local_report = (json.loads((tmp_path / name).read_text()) for name in ("out.json", "local.json"))
    assert report["summary"]["cases"] == 12
    for key in ("passed", "failed", "errored"):
        assert report["summary"][key] == local_report["summary"][key]
