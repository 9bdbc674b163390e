"""A run ended by SIGTERM (a CI cancel, ``timeout``) ends as Ctrl-C does (issue 58): the run is recorded
``interrupted`` with its ``finished_at``, the cases computed before it are kept, and the process exits 143."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

AGENTS = {
    # a function awaited in the run's event loop
    "async": "import asyncio, os\n"
             "async def answer(prompt):\n"
             "    with open(os.environ['AU_CALL_LOG'], 'a') as log:\n"
             "        log.write(prompt + '\\n')\n"
             "    await asyncio.sleep(0.2)\n"
             "    return prompt.upper()\n",
    # a plain function: a run that may be driven without an event loop
    "sync": "import os, time\n"
            "def answer(prompt):\n"
            "    with open(os.environ['AU_CALL_LOG'], 'a') as log:\n"
            "        log.write(prompt + '\\n')\n"
            "    time.sleep(0.2)\n"
            "    return prompt.upper()\n",
}


def _lines(path: Path) -> int:
    return len(path.read_text().splitlines()) if path.exists() else 0


@pytest.mark.parametrize("kind", sorted(AGENTS))
def test_sigterm_records_the_run_as_interrupted_with_its_end_and_keeps_what_was_computed(tmp_path, kind):
    (tmp_path / "slowagent.py").write_text(AGENTS[kind])
    total = 200  # 40 s at least: SIGTERM comes long before the end
    (tmp_path / "s.json").write_text(json.dumps({
        "name": "terminable", "target": {"type": "python", "function": "slowagent:answer"},
        "cases": [{"id": f"c{i}", "prompt": f"p{i}", "metrics": [{"metric": "equals", "value": f"P{i}"}]}
                  for i in range(total)]}))
    db, log = tmp_path / "r.db", tmp_path / "calls.log"
    env = {**os.environ, "AU_CALL_LOG": str(log), "PYTHONPATH": os.pathsep.join(
        [str(tmp_path), *[p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]])}
    proc = subprocess.Popen([sys.executable, "-m", "agentunit", "run", "s.json", "--db", str(db), "-j", "1", "-q"],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 180  # a generous bound on a busy machine, not a measure of speed
        while _lines(log) < 3 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _lines(log) >= 3, "the run did not get going"  # two cases done, the third under way
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=180)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    with sqlite3.connect(db) as conn:
        status, finished_at = conn.execute("SELECT status, finished_at FROM runs").fetchone()
        kept = conn.execute("SELECT COUNT(*) FROM case_results").fetchone()[0]
    assert (status, proc.returncode) == ("interrupted", 143), err
    assert finished_at
    assert 2 <= kept < total
    assert "terminated (SIGTERM); committed results are kept" in err and "--resume" in err
