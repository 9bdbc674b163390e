"""What work split across forked processes needs (``agentunit.core.shards`` for a run,
``agentunit.suite.split`` for validation): how many CPUs there are, whether forking is safe, and a
forked process that ends with its parent."""

from __future__ import annotations

import os
import signal
import sys
import threading


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


def end_with_parent() -> None:  # pragma: no cover - runs in the forked process
    """Have the kernel kill this process when its parent ends (killed, say), so no helper runs on alone."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() == 1:  # the parent ended before the request was made
        os._exit(1)
