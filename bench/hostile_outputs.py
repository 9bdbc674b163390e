"""Bench: seconds each deterministic metric takes on the 10 MB hostile output and on the billion-laughs payload
of tests/metrics/test_safety.py (the test asserts the verdicts and that the work grows with the output; the
times are measured here, where a busy machine makes them slower instead of failing a test).

Usage: python bench/hostile_outputs.py [--repeat N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' inputs, as the test builds them

from tests.metrics.test_safety import _ONE_MB, _TEN_MB, BILLION_LAUGHS, SPECS

from agentunit import check


def _seconds(output: str, spec: dict, repeat: int) -> tuple[float, float]:
    """(wall, CPU) seconds of the fastest of ``repeat`` checks."""
    best = (float("inf"), float("inf"))
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        check(output, spec)
        best = min(best, (time.perf_counter() - wall, time.process_time() - cpu))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=1, help="checks per metric and size (the fastest is shown)")
    args = parser.parse_args()
    print(f"{'metric':<32} {'10 MB s':>8} {'CPU s':>7} {'1 MB s':>7} {'10 MB / 1 MB':>12}")
    for spec in SPECS:
        ten_wall, ten_cpu = _seconds(_TEN_MB, spec, args.repeat)
        one_wall, one_cpu = _seconds(_ONE_MB, spec, args.repeat)
        print(f"{spec['metric']:<32} {ten_wall:>8.3f} {ten_cpu:>7.3f} {one_wall:>7.3f} "
              f"{ten_cpu / max(one_cpu, 1e-3):>12.1f}")
    for metric in ("is-xml", "contains-xml"):
        wall, cpu = _seconds(BILLION_LAUGHS, {"metric": metric, "value": "lolz"}, args.repeat)
        print(f"billion laughs, {metric:<16} {wall:>8.4f} {cpu:>7.4f}")


if __name__ == "__main__":
    main()
