"""What work split across forked processes needs (``agentunit.core.shards`` for a run,
``agentunit.suite.split`` for validation): how many CPUs there are, whether forking is safe, and a
forked process that ends with its parent."""

from __future__ import annotations

import os
import signal
import sys
import threading
from typing import Any

_prctl: Any = None  # libc's prctl, once loaded (importing ctypes takes about 2 ms)


def usable_cpus() -> int:
    """CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def may_fork() -> bool:
    """Whether this process may fork a helper: on Linux, with no other thread (a lock another thread
    held at the fork would stay held in the copy)."""
    return sys.platform == "linux" and hasattr(os, "fork") and threading.active_count() == 1


def load_prctl() -> Any:
    """libc's prctl, loaded in this process (None where there is none): a process that will fork loads it
    while it would otherwise wait, and each process it forks then starts sooner."""
    global _prctl
    if _prctl is None:
        try:
            import ctypes

            _prctl = ctypes.CDLL(None, use_errno=True).prctl
        except (OSError, AttributeError):
            _prctl = False
    return _prctl or None


def end_with_parent() -> None:  # pragma: no cover - runs in the forked process
    """Have the kernel kill this process when its parent ends (killed, say), so no helper runs on alone."""
    prctl = load_prctl()
    if prctl is not None:
        prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() == 1:  # the parent ended before the request was made
        os._exit(1)
