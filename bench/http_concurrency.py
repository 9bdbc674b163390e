"""Bench: 2,000 cases against a local HTTP target that answers in 100 ms, with -j 64.

Prints the wall time of `agentunit run` and its ratio to the ideal 2000 × 0.1 s / 64 (target ≤ 1.25).
Usage: python bench/http_concurrency.py [CASES] [JOBS] [DELAY_S]
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _measure import run_agentunit


def main() -> None:
    cases, jobs, delay = (int(sys.argv[1]) if len(sys.argv) > 1 else 2000,
                          int(sys.argv[2]) if len(sys.argv) > 2 else 64,
                          float(sys.argv[3]) if len(sys.argv) > 3 else 0.1)
    work = Path(tempfile.mkdtemp(prefix="au-bench-http-"))
    port_file = work / "port"
    server = subprocess.Popen([sys.executable, str(Path(__file__).with_name("_slow_server.py")),
                               str(port_file), str(delay)])
    try:
        for _ in range(100):
            if port_file.exists() and port_file.read_text():
                break
            time.sleep(0.05)
        port = int(port_file.read_text())
        suite = {"name": f"http {cases} x {delay}s", "target": {"type": "http", "url": f"http://127.0.0.1:{port}/",
                                                                 "body": {"prompt": "{{ prompt }}"}},
                 "cases": [{"id": f"c{i}", "prompt": f"question {i}",
                            "metrics": [{"metric": "contains", "value": f"question {i}"}]} for i in range(cases)]}
        (work / "suite.json").write_text(json.dumps(suite))
        code, wall, peak_mb = run_agentunit(["run", str(work / "suite.json"), "-j", str(jobs), "--no-cache",
                                             "--db", str(work / "au.db"), "-o", str(work / "out.json"), "-q"])
    finally:
        server.terminate()
    summary = json.loads((work / "out.json").read_text())["summary"]
    ideal = cases * delay / jobs
    print(f"cases={cases} jobs={jobs} delay={delay}s exit={code} peak_rss_mb={peak_mb:.0f} summary="
          f"{ {k: summary[k] for k in ('cases', 'passed', 'failed', 'errored')} }")
    print(f"wall_s={wall:.2f} ideal_s={ideal:.2f} ratio={wall / ideal:.2f} (target ≤ 1.25)")


if __name__ == "__main__":
    main()
