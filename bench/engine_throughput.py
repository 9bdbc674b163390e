"""Bench: N cases × 3 checks (contains, regex, starts-with) with the echo target, results in SQLite.

The same suite shape as ../shared/bench/vs-promptfoo.sh. Prints wall time, cases/s and peak RSS of
the `agentunit run` process, its start-up (the same command on a one-case suite, best of three) and
the per-case cost (wall − start-up) / N, and the same in CPU time (user + system of the child, which
moves less than wall time on a busy machine). With --jsonl the cases stream from a cases_file (use it for
100,000 and 1,000,000).
With --processes K the run is split across K processes (1: one process; default: agentunit's own choice,
one per CPU up to 4 from 1,000 cases on, validating included); peak RSS is the main process's.
Usage: python bench/engine_throughput.py [N] [--jsonl] [--processes K]
Targets (issue 20): ≤ 0.1 ms per case at 5,000 and 100,000 cases; 1,000,000 cases under 100 MB peak RSS.
"""

from __future__ import annotations

import json
import resource
import shutil
import sys
import tempfile
from pathlib import Path

from _measure import run_agentunit


def _case(i: int) -> dict:
    return {"id": f"c{i}", "prompt": f"Answer: item {i} of the benchmark",
            "metrics": [{"metric": "contains", "value": f"item {i}"}, {"metric": "regex", "value": r"\d+ of the"},
                        {"metric": "starts-with", "value": "Answer:"}]}


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 1000
    streamed = "--jsonl" in sys.argv
    split = ["--processes", sys.argv[sys.argv.index("--processes") + 1]] if "--processes" in sys.argv else []
    work = Path(tempfile.mkdtemp(prefix="au-bench-engine-"))
    try:  # the suite, database and report of 1,000,000 cases take 1.5 GB
        _measure(n, streamed, split, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _measure(n: int, streamed: bool, split: list[str], work: Path) -> None:
    suite: dict = {"name": f"bench {n}x3", "target": {"type": "echo"}}
    if streamed:
        with (work / "cases.jsonl").open("w") as handle:
            for i in range(n):
                handle.write(json.dumps(_case(i)) + "\n")
        suite["cases_file"] = "cases.jsonl"
    else:
        suite["cases"] = [_case(i) for i in range(n)]
    (work / "suite.json").write_text(json.dumps(suite))
    cpu_before = _children_cpu()
    code, wall, peak_mb = run_agentunit(["run", str(work / "suite.json"), "--db", str(work / "au.db"),
                                         "-o", str(work / "out.json"), "-q", *split])
    cpu = _children_cpu() - cpu_before
    # Only the document's head (summary, statistics) is parsed: the 100k cases after it are not loaded.
    head = ""
    with (work / "out.json").open() as handle:
        while ', "cases": [' not in head:
            chunk = handle.read(1 << 16)
            if not chunk:
                raise SystemExit(f"no cases list in {work / 'out.json'}")
            head += chunk
    summary = json.loads(head[: head.index(', "cases": [')] + "}")["summary"]
    startup, startup_cpu = _startup(work)
    print(f"cases={n} streamed={streamed} {' '.join(split) or 'processes default'} exit={code} "
          f"passed={summary['passed']}/{summary['cases']} errored={summary['errored']}")
    print(f"wall_s={wall:.2f} cases_per_s={n / wall:,.0f} peak_rss_mb={peak_mb:.0f}")
    print(f"startup_s={startup:.3f} per_case_ms={(wall - startup) / n * 1000:.3f}")
    print(f"cpu_s={cpu:.2f} startup_cpu_s={startup_cpu:.3f} per_case_cpu_ms={(cpu - startup_cpu) / n * 1000:.3f}")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)  # CPU times are the child's own (unlike ru_maxrss)
    return usage.ru_utime + usage.ru_stime


def _startup(work: Path) -> tuple[float, float]:
    """Wall and CPU time of the same command on a one-case suite (best of three each): interpreter,
    imports, database, report."""
    (work / "one.json").write_text(json.dumps({"name": "one", "target": {"type": "echo"}, "cases": [_case(0)]}))
    walls, cpus = [], []
    for _ in range(3):
        before = _children_cpu()
        walls.append(run_agentunit(["run", str(work / "one.json"), "--db", str(work / "one.db"),
                                    "-o", str(work / "one-out.json"), "-q"])[1])
        cpus.append(_children_cpu() - before)
    return min(walls), min(cpus)


if __name__ == "__main__":
    main()
