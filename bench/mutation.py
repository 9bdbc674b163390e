"""Bench: mutation score of the scoring rules and key modules (mutmut; not part of the CI run).

mutmut (``pip install -e '.[mutation]'``) copies ``src/`` and ``tests/`` into ``mutants/``, makes
every small change it can to the modules named by ``[tool.mutmut] only_mutate`` in pyproject.toml (an
operator, a constant, a dropped argument…), and for each such mutant runs the tests that cover the
mutated function: a mutant that no test notices "survived". The tests are those of
``pytest_add_cli_args_test_selection`` (tests/core, targets, judges, store, suite) without the real-model
judge, served-judge and PostgreSQL tests.

Printed: per module, mutants, killed (a test failed or timed out), survived, without tests, other
(suspicious, segfault, not yet checked) and the score, killed / (killed + survived + without tests);
then the surviving mutants by name (``mutmut show NAME`` prints the change).

How long (measured on a 2-core machine shared with other work, at ``nice -n 19``): generating the
mutants takes ~80 s, collecting which tests cover what ~1 minute; then 60–180 mutants a minute per
worker, slower where the tests start servers or subprocesses, and mutants that loop until their CPU
limit take longest. ``--quick`` (core/scoring.py, core/outcome.py, targets/_secrets.py,
judges/service.py, suite/fields.py: 909 mutants) takes about 10 minutes with two workers; the whole scope
(about 9,100 mutants) takes hours. A function that runs only at import or once per process before the
first test (``store.sqlite._statements``, ``suite.cases._media_field``, the templating sandbox's wrapped
filters) is never run with its mutant active: its mutants survive whatever the tests (docs/testing.md).
Results are kept in ``mutants/``: a rerun only tests what changed, and ``--report`` prints the figures
of the last run without running anything, ``--unchecked`` carries on an interrupted run, and
``--survivors-only`` retests the survivors after tests were added.

Usage: python bench/mutation.py [MODULE ...] [--quick] [--children N] [--report | --unchecked | --survivors-only]
                               [--survivors] [--root CHECKOUT]
  MODULE: a path under src/agentunit, e.g. core/scoring.py (default: the whole only_mutate scope)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUICK = ["core/scoring.py", "core/outcome.py", "targets/_secrets.py", "judges/service.py", "suite/fields.py"]

# mutmut's exit codes (mutmut.stats.status_by_exit_code), grouped as this report counts them.
KILLED = {1: "killed", 3: "killed", 36: "timeout", 24: "timeout", -24: "timeout", 152: "timeout", 255: "timeout",
          37: "caught by type check"}
SURVIVED = {0}
NO_TESTS = {5, 33}


def mutant_pattern(module: str) -> str:
    """The mutmut name pattern of a module's mutants: core/scoring.py → agentunit.core.scoring.*"""
    dotted = module.removesuffix(".py").replace("/", ".").removesuffix(".__init__")
    return f"agentunit.{dotted}.*"


def run_mutmut(root: Path, names: list[str], children: int) -> float:
    """Run mutmut in ``root`` over the mutants ``names`` (patterns or names; all of the configured scope
    when empty); returns the seconds it took."""
    command = [sys.executable, "-m", "mutmut", "run", "--max-children", str(children), *names]
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    start = time.perf_counter()
    completed = subprocess.run(command, cwd=root, env=env)
    if completed.returncode != 0:
        sys.exit(f"mutmut exited with status {completed.returncode}")
    return time.perf_counter() - start


def results(root: Path, modules: list[str]) -> dict[str, dict[str, int | None]]:
    """{module: {mutant name: exit code (None: not checked yet)}} from mutmut's ``mutants/**/*.py.meta``."""
    found: dict[str, dict[str, int | None]] = {}
    base = root / "mutants" / "src" / "agentunit"
    for meta in sorted(base.rglob("*.py.meta")):
        module = meta.relative_to(base).as_posix().removesuffix(".meta")
        if modules and module not in modules:
            continue
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        if codes or modules:  # a named module with nothing to mutate (core/outcome.py: fields only) shows as 0
            found[module] = codes
    return found


def tally(codes: dict[str, int | None]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for code in codes.values():
        if code in KILLED:
            counts["killed"] += 1
        elif code in SURVIVED:
            counts["survived"] += 1
        elif code in NO_TESTS:
            counts["no tests"] += 1
        else:
            counts["other"] += 1
    return counts


def score(counts: Counter[str]) -> float | None:
    judged = counts["killed"] + counts["survived"] + counts["no tests"]
    return counts["killed"] / judged if judged else None


def report(found: dict[str, dict[str, int | None]], survivors: bool) -> None:
    header = f"{'module':28} {'mutants':>8} {'killed':>7} {'survived':>9} {'no tests':>9} {'other':>6} {'score':>7}"
    print(header)
    print("-" * len(header))
    total: Counter[str] = Counter()
    for module, codes in found.items():
        counts = tally(codes)
        total += counts
        value = score(counts)
        print(f"{module:28} {len(codes):8d} {counts['killed']:7d} {counts['survived']:9d} {counts['no tests']:9d} "
              f"{counts['other']:6d} {'' if value is None else f'{value:.1%}':>7}")
    value = score(total)
    print("-" * len(header))
    print(f"{'all':28} {sum(total.values()):8d} {total['killed']:7d} {total['survived']:9d} {total['no tests']:9d} "
          f"{total['other']:6d} {'' if value is None else f'{value:.1%}':>7}")
    if survivors:
        print("\nsurviving mutants (mutmut show NAME prints the change):")
        for codes in found.values():
            for name, code in codes.items():
                if code in SURVIVED or code in NO_TESTS:
                    print(f"  {name}{'  (no tests)' if code in NO_TESTS else ''}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help="paths under src/agentunit (default: the configured scope)")
    parser.add_argument("--quick", action="store_true", help=f"only {', '.join(QUICK)}")
    parser.add_argument("--children", type=int, default=1, help="mutants tested at once (default 1)")
    parser.add_argument("--report", action="store_true", help="print the last run's figures; run nothing")
    parser.add_argument("--unchecked", action="store_true",
                        help="test only the mutants the last run did not get to (an interrupted run goes on)")
    parser.add_argument("--survivors-only", action="store_true",
                        help="retest only the mutants that survived the last run (after adding tests)")
    parser.add_argument("--survivors", action="store_true", help="list the surviving mutants too")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="the checkout to run in (default: this one; a copy keeps its own mutants/)")
    args = parser.parse_args()
    modules = [m.removeprefix("src/agentunit/") for m in args.modules] + (QUICK if args.quick else [])
    if not args.report:
        names = [mutant_pattern(m) for m in modules]
        if args.unchecked and not modules:
            names = []  # mutmut's own default: every mutant without a result
        elif args.unchecked or args.survivors_only:
            wanted = {None} if args.unchecked else SURVIVED | NO_TESTS
            names = [name for codes in results(args.root, modules).values()
                     for name, code in codes.items() if code in wanted]
            if not names:
                sys.exit("nothing to test: every mutant of the scope has a result" if args.unchecked
                         else "no surviving mutant to retest")
        seconds = run_mutmut(args.root, names, args.children)
        print(f"\nmutmut ran for {seconds / 60:.1f} min with {args.children} worker(s)\n")
    found = results(args.root, modules)
    if not found:
        sys.exit("no mutation results in mutants/: run without --report first")
    report(found, args.survivors)


if __name__ == "__main__":
    main()
