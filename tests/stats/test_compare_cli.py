"""End to end: run a suite twice with different recorded outputs, then `agentunit compare`."""

from __future__ import annotations

import json

from tests.conftest import run_cli, write_suite


def _suite(version: int) -> dict:
    """12 cases on the echo target (the output is the prompt): version 2 fixes c0, breaks c1..c8,
    keeps c9 passing and c11 failing, drops c10 and adds `new`."""
    cases = []
    for i in range(12):
        reference = f"the quick brown fox {i} jumps over the lazy dog"
        if version == 1:
            prompt = "nothing here" if i in (0, 11) else reference
        else:
            prompt = reference if i in (0, 9) else ("still wrong" if i == 11 else f"a slow cat {i}")
        case_id = "new" if version == 2 and i == 10 else f"c{i}"
        cases.append({"id": case_id, "prompt": prompt,
                      "metrics": [{"metric": "contains", "value": f"fox {i}"},
                                  {"metric": "rouge-n", "value": reference, "threshold": 0.5}]})
    return {"name": "compare-e2e", "target": {"type": "echo"}, "cases": cases}


def test_compare_two_runs_json_text_and_exit_codes(tmp_path):
    db = str(tmp_path / "r.db")
    for version in (1, 2):
        suite = write_suite(tmp_path / f"v{version}.json", _suite(version))
        assert run_cli("run", str(suite), "--db", db, "-q").returncode == 1

    proc = run_cli("compare", "latest~1", "latest", "--db", db, "--json")
    assert proc.returncode == 1, proc.stderr  # significantly worse: CI fails
    result = json.loads(proc.stdout)
    assert result["cases"] == {"fixed": ["c0"], "broken": [f"c{i}" for i in range(1, 9)], "still_failing": ["c11"],
                               "added": ["new"], "removed": ["c10"]}
    contains = result["metrics"]["contains"]
    assert set(contains) >= {"a", "b", "delta", "p_value", "test"}
    assert set(contains["a"]) >= {"pass_rate", "ci", "n"} and contains["a"]["n"] == 12
    assert contains["test"] == "mcnemar_exact" and contains["p_value"] < 0.05
    assert "contains" in result["regressed"] and "score" in result["metrics"]["rouge-n"]

    text = run_cli("compare", "latest~1", "latest", "--db", db)
    assert text.returncode == 1 and "REGRESSED at level 0.05" in text.stdout and "c8" in text.stdout
    assert run_cli("compare", "latest~1", "latest", "--db", db, "--level", "0.01").returncode == 0
    assert run_cli("compare", "latest", "latest~1", "--db", db).returncode == 0  # the reverse is better
    same = run_cli("compare", "latest", "latest", "--db", db)
    assert same.returncode == 0 and "no significant regression" in same.stdout


def test_compare_unknown_run_or_database_exits_2_without_a_traceback(tmp_path):
    db = str(tmp_path / "r.db")
    suite = write_suite(tmp_path / "v1.json", _suite(1))
    run_cli("run", str(suite), "--db", db, "-q")
    proc = run_cli("compare", "latest~3", "latest", "--db", db)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("error: no run 'latest~3'") and "recent runs" in proc.stderr
    assert "latest " in proc.stderr  # the newest run listed with its name
    proc = run_cli("compare", "latest", "latest", "--db", str(tmp_path / "missing.db"))
    assert proc.returncode == 2 and "no results database" in proc.stderr and "Traceback" not in proc.stderr
    bad = run_cli("compare", "latest", "latest", "--db", db, "--level", "2")
    assert bad.returncode == 2
