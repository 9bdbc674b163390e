"""Bench: N cases × 3 checks (contains, regex, starts-with) with the echo target, results in SQLite.

The same suite shape as ../shared/bench/vs-promptfoo.sh. Prints wall time, cases/s and peak RSS of
the `agentunit run` process. With --jsonl the cases stream from a cases_file (use it for 100,000).
Usage: python bench/engine_throughput.py [N] [--jsonl]
Targets: 1,000 cases ≥ 20× faster than promptfoo and peak RSS < 150 MB; 100,000 cases peak RSS < 300 MB.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from _measure import run_agentunit


def _case(i: int) -> dict:
    return {"id": f"c{i}", "prompt": f"Answer: item {i} of the benchmark",
            "metrics": [{"metric": "contains", "value": f"item {i}"}, {"metric": "regex", "value": r"\d+ of the"},
                        {"metric": "starts-with", "value": "Answer:"}]}


def main() -> None:
    n = int(next((a for a in sys.argv[1:] if a.isdigit()), 1000))
    streamed = "--jsonl" in sys.argv
    work = Path(tempfile.mkdtemp(prefix="au-bench-engine-"))
    suite: dict = {"name": f"bench {n}x3", "target": {"type": "echo"}}
    if streamed:
        with (work / "cases.jsonl").open("w") as handle:
            for i in range(n):
                handle.write(json.dumps(_case(i)) + "\n")
        suite["cases_file"] = "cases.jsonl"
    else:
        suite["cases"] = [_case(i) for i in range(n)]
    (work / "suite.json").write_text(json.dumps(suite))
    code, wall, peak_mb = run_agentunit(["run", str(work / "suite.json"), "--db", str(work / "au.db"),
                                         "-o", str(work / "out.json"), "-q"])
    # Only the document's head (summary, statistics) is parsed: the 100k cases after it are not loaded.
    head = ""
    with (work / "out.json").open() as handle:
        while ', "cases": [' not in head:
            chunk = handle.read(1 << 16)
            if not chunk:
                raise SystemExit(f"no cases list in {work / 'out.json'}")
            head += chunk
    summary = json.loads(head[: head.index(', "cases": [')] + "}")["summary"]
    print(f"cases={n} streamed={streamed} exit={code} "
          f"passed={summary['passed']}/{summary['cases']} errored={summary['errored']}")
    print(f"wall_s={wall:.2f} cases_per_s={n / wall:,.0f} peak_rss_mb={peak_mb:.0f}")


if __name__ == "__main__":
    main()
