"""Bench: the Ray executor with 1, 2 and 4 workers against the local executor (docs/scale-out.md).

Three suites, each run through the engine in this process (results into a SQLite file):
- I/O-bound: a python target that sleeps 50 ms per case, one case at a time per worker (-j 1), so the
  speedup is the workers' alone;
- CPU-bound metric: an echo target and a `python` metric that burns about 20 ms of CPU per case;
- overhead: an echo target and three cheap checks; per-case cost of Ray (1 worker, 32-case batches)
  against the local executor, start-up (pool start, suite shipped to the workers) measured apart.
Without --ray-address a local Ray with 4 CPUs' worth of slots is started on this machine (its real
cores bound the CPU-bound speedup); with it, the bench runs on that cluster.
Usage: python bench/ray_scaling.py [--ray-address ADDR] [--cases N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")  # a local Ray stays on 127.0.0.1
os.environ.setdefault("RAY_AUTH_MODE", "disabled")  # a throwaway local Ray on loopback

_APP = """
import time


def sleepy(prompt):
    time.sleep(0.05)
    return "Answer: " + prompt


def burn(output, context):
    total = 0
    for i in range(400_000):  # about 20 ms of pure Python: holds the GIL, as a CPU-bound metric does
        total += i * i
    return total > 0
"""


def _write_suite(folder: Path, name: str, cases: int, target: dict[str, Any], metrics: list[dict[str, Any]]) -> Path:
    rows = [{"id": f"c{i}", "prompt": f"item {i} of the bench", "metrics": metrics} for i in range(cases)]
    path = folder / f"{name}.json"
    path.write_text(json.dumps({"name": name, "target": target, "cases": rows}))
    return path


def _run(suite: Path, db: Path, executor: Any = None, concurrency: int = 8) -> float:
    """Wall seconds of one engine run (the suite load excluded); checks every case passed."""
    from agentunit.core.engine import Engine, RunOptions
    from agentunit.store.sqlite import Store
    from agentunit.suite.loader import load_suite

    loaded = load_suite(suite)
    store = Store(db)
    engine = Engine(loaded, store, RunOptions(concurrency=concurrency, executor=executor, cache=False))
    start = time.perf_counter()
    result = asyncio.run(engine.run())
    wall = time.perf_counter() - start
    store.close()
    if result.summary["passed"] != result.summary["cases"] or result.status != "completed":
        raise SystemExit(f"{suite.name}: {result.summary}")
    return wall


def _ray(workers: int, batch_size: int = 4) -> Any:
    from agentunit.scale import RayExecutor

    return RayExecutor(workers=workers, batch_size=batch_size)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ray-address", help="an existing cluster (default: start a local Ray)")
    parser.add_argument("--cases", type=int, default=80, help="cases of the I/O- and CPU-bound suites")
    args = parser.parse_args()
    import ray

    if args.ray_address:
        ray.init(address=args.ray_address, logging_level="WARNING")
    else:
        ray.init(num_cpus=4, include_dashboard=False, object_store_memory=80 * 1024 * 1024, logging_level="WARNING")
    work = Path(tempfile.mkdtemp(prefix="au-bench-ray-"))
    (work / "app.py").write_text(_APP)
    os.chdir(work)  # the python target and the metric's file are found from here, as on the workers
    n = args.cases
    io_suite = _write_suite(work, "io", n, {"type": "python", "function": "app:sleepy"},
                            [{"metric": "contains", "value": "Answer:"}])
    cpu_suite = _write_suite(work, "cpu", n, {"type": "echo"}, [{"metric": "python", "value": "file://app.py:burn"}])
    cheap = [{"metric": "contains", "value": "item"}, {"metric": "regex", "value": r"\d+ of the"},
             {"metric": "starts-with", "value": "item"}]
    tiny = _write_suite(work, "tiny", 1, {"type": "echo"}, cheap)
    many = _write_suite(work, "many", 2000, {"type": "echo"}, cheap)
    print(f"Ray {ray.__version__}, cluster CPUs {ray.cluster_resources().get('CPU')}, machine cores {os.cpu_count()}")

    for label, suite, concurrency in (("I/O-bound target (50 ms sleep)", io_suite, 1),
                                      ("CPU-bound metric (~20 ms CPU)", cpu_suite, 1)):
        local = _run(suite, work / "local.db", concurrency=concurrency)
        print(f"\n{label}, {n} cases, -j {concurrency}: local {local:.2f} s ({n / local:.1f} cases/s)")
        one = None
        for workers in (1, 2, 4):
            executor = _ray(workers)
            wall = _run(suite, work / f"ray{workers}.db", executor, concurrency=concurrency)
            cases_wall = wall - executor.stats.startup_s  # the cases alone, once the pool is up
            one = one or cases_wall
            print(f"  ray {workers} worker(s): {wall:.2f} s, of which pool start {executor.stats.startup_s:.2f} s; "
                  f"cases {cases_wall:.2f} s ({n / cases_wall:.1f} cases/s), speedup vs 1 worker "
                  f"{one / cases_wall:.2f}x, vs local {local / cases_wall:.2f}x")

    local_one, local_many = _run(tiny, work / "l1.db"), _run(many, work / "l2.db")
    ray_one = _run(tiny, work / "r1.db", _ray(1, batch_size=32))
    ray_many = _run(many, work / "r2.db", _ray(1, batch_size=32))
    local_case = (local_many - local_one) / 1999 * 1000
    ray_case = (ray_many - ray_one) / 1999 * 1000
    print(f"\nOverhead, echo target + 3 checks, 2000 cases: local {local_case:.3f} ms/case; "
          f"ray (1 worker, 32-case batches) {ray_case:.3f} ms/case (+{ray_case - local_case:.3f} ms); "
          f"ray start-up per run {ray_one - local_one:.2f} s (pool of 1 worker)")
    ray.shutdown()


if __name__ == "__main__":
    main()
