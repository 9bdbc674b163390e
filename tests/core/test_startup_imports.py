"""A run of deterministic checks imports neither the embedded judge's client nor urllib, nor the judge service,
the matrix, transform and media-reading modules (issue 20: start-up pays only for what the run uses)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

_NOT_NEEDED = ("agentunit.judges.local", "agentunit.judges.prefill", "urllib.request", "http.client", "secrets",
               "asyncio", "agentunit.media.access", "agentunit.media.thumbnail", "agentunit.stats.compare",
               "agentunit.stats.paired", "regex", "csv", "shlex", "glob", "statistics",
               "agentunit.suite.split", "agentunit.judges.service", "agentunit.judges.base",
               "agentunit.judges.model_file", "agentunit.suite.matrix", "agentunit.suite.transform",
               "agentunit.media.references", "agentunit.sustainability.meter", "mmap", "tempfile", "shutil",
               "random", "hashlib", "_hashlib")


def _fresh(code: str, cwd: Path) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _after_a_one_case_run(tmp_path: Path, options: list[str], printed: str) -> str:
    """What a fresh interpreter prints of ``printed`` (an expression) after ``agentunit run`` of a one-case
    echo suite with ``options``, the run's own output first."""
    case = {"id": "c0", "prompt": "Answer: 42", "metrics": [{"metric": "contains", "value": "42"}]}
    (tmp_path / "suite.json").write_text(json.dumps({"name": "one", "target": {"type": "echo"}, "cases": [case]}))
    return _fresh("import sys\nfrom agentunit.cli import main\n"
                  f"sys.argv = ['agentunit', 'run', 'suite.json', '--db', 'a.db', *{options!r}]\n"
                  "try:\n    main()\nexcept SystemExit as e:\n    assert e.code == 0, e.code\n"
                  f"print({printed})", tmp_path)


def test_a_run_without_judge_metrics_does_not_import_the_local_judge(tmp_path: Path) -> None:
    out = _after_a_one_case_run(tmp_path, ["-o", "out.json", "-q"],
                                f"sorted(m for m in {_NOT_NEEDED!r} if m in sys.modules)")
    assert out == "[]"


def test_a_split_run_imports_neither_tempfile_shutil_random_nor_hashlib(tmp_path: Path) -> None:
    """1,000 cases: validation helpers, ranges run in other processes, their folder made and removed, the
    report's lines copied, the suite file hashed (~7 ms of start-up those modules would cost)."""
    from agentunit.core.forking import usable_cpus

    if usable_cpus() < 2:
        pytest.skip("a run splits only where it has two CPUs")
    cases = [{"id": f"c{i}", "prompt": f"Answer: item {i} of the benchmark",
              "metrics": [{"metric": "contains", "value": f"item {i}"}, {"metric": "regex", "value": r"\d+ of"}]}
             for i in range(1_000)]
    (tmp_path / "suite.json").write_text(json.dumps({"name": "split", "target": {"type": "echo"}, "cases": cases}))
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    code = ("import atexit, sys\n"
            "atexit.register(lambda: print(sorted(m for m in ('tempfile', 'shutil', 'random', 'hashlib', '_hashlib',"
            " 'agentunit.core.shards') if m in sys.modules)))\n"
            "sys.argv = ['agentunit', 'run', 'suite.json', '--db', 'a.db', '-o', 'out.json', '-q']\n"
            "from agentunit.cli import program\nprogram()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path,
                          env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "['agentunit.core.shards']"  # split, and nothing more
    assert len(json.loads((tmp_path / "out.json").read_text())["cases"]) == 1_000
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("agentunit-")] == []  # its folders removed


def test_the_printed_summary_of_a_run_without_a_matrix_imports_no_matrix_tables(tmp_path: Path) -> None:
    out = _after_a_one_case_run(tmp_path, [], "'agentunit.reporting.matrix' in sys.modules")
    assert out.splitlines()[-1] == "False"


def test_asking_whether_a_provider_exists_imports_nothing(tmp_path: Path) -> None:
    out = _fresh("import sys\nfrom agentunit.judges.providers import PROVIDERS\n"
                 "print('local' in PROVIDERS, 'ensemble' in PROVIDERS, 'nope' in PROVIDERS, {} in PROVIDERS, "
                 "'agentunit.judges.local' in sys.modules, 'agentunit.judges.ensemble' in sys.modules)", tmp_path)
    assert out == "True True False False False False"


def test_the_judges_package_imports_a_module_when_a_name_of_it_is_asked_for(tmp_path: Path) -> None:
    out = _fresh("import sys\nimport agentunit.judges.providers\n"
                 "print('agentunit.judges.base' in sys.modules, 'agentunit.judges.service' in sys.modules)\n"
                 "from agentunit.judges import JudgeRequest, current_judge\n"
                 "print(JudgeRequest.__module__, current_judge.__module__)", tmp_path)
    assert out.splitlines() == ["False False", "agentunit.judges.base agentunit.judges.service"]
