"""Watching processes from a test: start a program, kill it once it forked, and see whether the process it forked
ends with it (agentunit's helpers and ranges must not run on alone); wait for a condition, not for a time.

A wait has a generous deadline (60 s) and ends as soon as its condition holds: a busy machine makes a test
slower, never wrong. A fixed sleep before a check is a race the machine's speed decides."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

DEADLINE_S = 60.0  # how long a wait for a condition lasts at most


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


def kill_once_forked(code: str, *args: str, cwd: Path, env: dict[str, str], ready: Path | None = None
                     ) -> tuple[int, int]:
    """Run ``python -c code *args``, SIGKILL it once it forked and, when ``ready`` is given, once that file exists
    (the program writes it where the test wants it killed); (its pid, its first child's pid)."""
    parent = subprocess.Popen([sys.executable, "-c", code, *args], cwd=cwd, env=env)
    forked: list[int] = []

    def has_forked() -> bool:
        forked[:] = children(parent.pid)
        return bool(forked) or parent.poll() is not None

    eventually(has_forked)
    assert forked, "it did not fork"
    if ready is not None:
        assert eventually(lambda: ready.exists() or parent.poll() is not None) and parent.poll() is None, \
            f"it did not get to write {ready.name}"
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()
    return parent.pid, forked[0]


def ends_within(pid: int, seconds: float = DEADLINE_S) -> bool:
    """Whether process ``pid`` ends within ``seconds`` (it need not be reaped: a zombie has ended)."""
    return eventually(lambda: not running(pid), seconds)


def eventually(condition: Callable[[], object], seconds: float = DEADLINE_S, interval: float = 0.02) -> bool:
    """Whether ``condition()`` holds within ``seconds``: checked at once, then every ``interval`` until it does."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() >= deadline:
            return bool(condition())
        time.sleep(interval)
    return True
