"""Bench: code-correctness without tests — the judge's verdicts on right and mutated programs.

The 12 HumanEval-shaped problems of tests/code/humaneval_problems.py each have a right solution and a
mutated one (an off-by-one, a flipped comparison, a missed case) that its tests reject. Scored here
with no tests, only the task as the case's prompt, so ``code-correctness`` falls back to the
judge: for Python, tests the judge writes from the prompt (score: the share passed), else a yes/no
question. Prints balanced accuracy at the metric's pass mark, ROC AUC of the score, judge calls and
seconds per decision, next to the baseline "the program runs" (every program here runs: BA 0.5).
Usage: python bench/code_judge.py [--cache PATH]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.judge_agreement import auc  # noqa: E402
from tests.code.humaneval_problems import PROBLEMS  # noqa: E402

from agentunit.api import check  # noqa: E402
from agentunit.calibration.stats import balanced_accuracy, confusion  # noqa: E402
from agentunit.judges.service import current_judge, service_for, use_judge  # noqa: E402
from agentunit.store.sqlite import Store  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", default="/tmp/agentunit-code-judge.db")
    args = parser.parse_args()
    use_judge(None)
    service_for(None).store = Store(args.cache)
    labels, scores, verdicts, rows, methods = [], [], [], [], []
    calls_before = current_judge().stats.calls
    start = time.perf_counter()
    for problem in PROBLEMS:
        for variant, label in (("right", 1), ("mutated", 0)):
            result = check(f"```python\n{problem[variant]}```", "code-correctness", query=problem["prompt"])
            labels.append(label)
            scores.append(result.value or 0.0)
            verdicts.append(int(bool(result.passed)))
            rows.append((problem["entry_point"], variant, result.value, result.passed))
            methods.append(result.detail.get("method"))
    elapsed = time.perf_counter() - start
    calls = current_judge().stats.calls - calls_before
    for name, variant, value, passed in rows:
        print(f"{name:>20} {variant:>8} score={value:.3f} {'pass' if passed else 'fail'}")
    ba = balanced_accuracy(confusion([bool(x) for x in labels], [bool(v) for v in verdicts]))
    print(f"\n{len(rows)} programs: BA {ba:.3f} at the metric's pass marks, "
          f"AUC {auc(scores, labels):.3f}; baseline 'the program runs' BA 0.500")
    print("methods: " + ", ".join(f"{m} {methods.count(m)}" for m in sorted(set(map(str, methods)))))
    print(f"judge calls {calls}, {elapsed / max(len(rows), 1):.2f} s per program (sandbox run + decision)")


if __name__ == "__main__":
    main()
