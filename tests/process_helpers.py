"""Watching forked processes from a test: start a program, kill it once it forked, and see whether the process
it forked ends with it (agentunit's helpers and ranges must not run on alone)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path


def children(pid: int) -> list[int]:
    """The process ids of ``pid``'s children ([] once it is gone)."""
    try:
        return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def running(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie has ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


def kill_once_forked(code: str, *args: str, cwd: Path, env: dict[str, str], after: float = 0.0) -> tuple[int, int]:
    """Run ``python -c code *args``, SIGKILL it ``after`` seconds after its first fork; (its pid, its first
    child's pid)."""
    parent = subprocess.Popen([sys.executable, "-c", code, *args], cwd=cwd, env=env)
    forked: list[int] = []
    deadline = time.monotonic() + 60
    while not forked and parent.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
        forked = children(parent.pid)
    assert forked, "it did not fork"
    time.sleep(after)
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()
    return parent.pid, forked[0]


def ends_within(pid: int, seconds: float = 10) -> bool:
    """Whether process ``pid`` ends within ``seconds``."""
    deadline = time.monotonic() + seconds
    while running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not running(pid)
