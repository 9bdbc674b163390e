"""A result of ``evaluate(db=FILE)`` holds no SQLite connection (issue 58: the test run held ~370 open SQLite
handles, 3 per kept result — the database, its WAL and its shared memory); its cases are still read, each
read opening the database and closing it after."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from agentunit import evaluate
from agentunit.reporting.console import print_summary
from agentunit.reporting.markdown import write_markdown

pytestmark = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts open files in /proc/self/fd")

_CASES = [{"id": "a", "prompt": "hello", "metrics": [{"metric": "contains", "value": "hello"}]},
          {"id": "b", "prompt": "bye", "metrics": [{"metric": "contains", "value": "hello"}]}]


def _open_files(folder: Path) -> list[str]:
    """The files under ``folder`` this process has open (SQLite: the database, -wal and -shm)."""
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith(str(folder)):
            found.append(target)
    return found


def test_twenty_kept_results_hold_no_sqlite_file_open(tmp_path):
    results = [evaluate(cases=_CASES, target=lambda p: p, db=tmp_path / f"r{i}.db") for i in range(20)]
    assert _open_files(tmp_path) == []
    assert [len(r.cases) for r in results] == [2] * 20 and not results[0].passed
    assert _open_files(tmp_path) == []  # read, and closed again


def test_the_cases_and_the_reports_of_a_released_result_are_read_as_before(tmp_path):
    result = evaluate(cases=_CASES, target=lambda p: p, db=tmp_path / "r.db")
    assert [c["id"] for c in result.iter_cases()] == ["a", "b"] and result.summary["failed"] == 1
    reading = result.iter_cases()
    assert next(reading)["id"] == "a"
    assert _open_files(tmp_path)  # open while a read is under way...
    reading.close()
    assert _open_files(tmp_path) == []  # ...and closed with it
    out = io.StringIO()
    print_summary(result, out=out)
    assert "FAIL b" in out.getvalue()
    write_markdown(result, tmp_path / "r.md")
    assert "**b** (failed)" in (tmp_path / "r.md").read_text()
    assert list(result.store.metric_values(result.run_id))
    assert result.store.status_counts(result.run_id) == {"passed": 1, "failed": 1}
    assert _open_files(tmp_path) == []
    assert result.store.conn.execute("SELECT COUNT(*) FROM case_results").fetchone()[0] == 2  # SQL of one's own
    result.store.close()
    assert _open_files(tmp_path) == []


def test_an_in_memory_result_keeps_its_database():
    result = evaluate(cases=_CASES, target=lambda p: p)
    assert [c["id"] for c in result.cases] == ["a", "b"]
    assert result.store.conn.execute("SELECT COUNT(*) FROM case_results").fetchone()[0] == 2
