"""Bench: sandboxed programs per second through the engine at -j 1, 4 and 16.

Each case's recorded output is a small program (Python, JavaScript, Bash, in turn) scored by
``code-execution``, and every fourth case is a HumanEval-shaped problem scored by
``code-correctness``; every program runs in its own bubblewrap sandbox. Prints, per concurrency,
sandboxed programs per second (one program per case) and the wall time per program.
Usage: python bench/code_execution.py [CASES] [J ...]   (default 48 cases at -j 1 4 16)
"""

from __future__ import annotations

import sys
import time

from agentunit.api import evaluate
from agentunit.code.sandbox import Limits, Sandbox
from agentunit.core.sync import run_blocking

PROGRAMS = [
    ("```python\nprint(sum(i * i for i in range({n})))\n```", lambda n: str(sum(i * i for i in range(n)))),
    ("```js\nlet s = 0; for (let i = 0; i < {n}; i++) s += i * i; console.log(s)\n```",
     lambda n: str(sum(i * i for i in range(n)))),
    ("```bash\ns=0; for ((i=0; i<{n}; i++)); do s=$((s + i * i)); done; echo $s\n```",
     lambda n: str(sum(i * i for i in range(n)))),
]
TESTS = ("def check(candidate):\n    assert candidate(3) == 9\n    assert candidate(-4) == 16\n"
         "    assert candidate(0) == 0\n")
SQUARE = "```python\ndef square(x):\n    return x * x\n```"


def _cases(count: int) -> list[dict]:
    cases = []
    for i in range(count):
        n = 100 + i
        if i % 4 == 3:
            cases.append({"id": f"c{i}", "prompt": "square", "output": SQUARE,
                          "metrics": [{"metric": "code-correctness",
                                       "value": {"tests": TESTS, "entry_point": "square"}}]})
            continue
        template, expected = PROGRAMS[i % len(PROGRAMS)]
        cases.append({"id": f"c{i}", "prompt": "sum of squares", "output": template.replace("{n}", str(n)),
                      "metrics": [{"metric": "code-execution", "value": expected(n)}]})
    return cases


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 48
    levels = [int(j) for j in sys.argv[2:]] or [1, 4, 16]
    run_blocking(Sandbox(limits=Limits(timeout=10)).run_program("pass", "python"))  # checks bubblewrap once
    cases = _cases(count)
    print(f"{count} cases, each program in its own bubblewrap sandbox")
    print(f"{'-j':>4} {'programs/s':>11} {'s/program':>10} {'passed':>9}")
    for jobs in levels:
        start = time.perf_counter()
        result = evaluate(cases=cases, concurrency=jobs, cache=False, name="code-bench")
        elapsed = time.perf_counter() - start
        passed = result.summary["passed"]
        print(f"{jobs:>4} {count / elapsed:>11.1f} {elapsed / count:>10.3f} {passed:>5}/{count}")


if __name__ == "__main__":
    main()
