"""Bounds on the work code does, for tests that guard a complexity, instead of bounds on how long it took.

A duration depends on the machine and on everything else it runs; the number of Python lines agentunit
executes for an input does not. ``line_budget`` counts them (``sys.settrace``, this thread only) and stops
the code as soon as it passes its budget, so a quadratic regression fails at once instead of running for
minutes. Work done in C (a regular expression, ``bytes.find``, a parser) is not counted: a test of such code
compares the CPU time of a hostile input with that of a plain one of the same size, or of a tenth of the size,
in the same process (``cpu_ratio``): a ratio of two costs of the same code, which the machine's speed and load
change alike. No test asserts how long anything took; timings are in bench/.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

import agentunit

_AGENTUNIT = os.path.dirname(os.path.abspath(agentunit.__file__)) + os.sep


class WorkBudgetExceeded(BaseException):
    """Raised inside the code under test when it passes its budget. A BaseException, so the code's own
    ``except Exception`` (a metric turning an error into a result) cannot swallow it."""


class LineCount:
    """The lines counted so far (``lines``) against the budget (``limit``)."""

    def __init__(self, limit: int):
        self.limit, self.lines = limit, 0


@contextmanager
def line_budget(limit: int, root: str = _AGENTUNIT) -> Iterator[LineCount]:
    """Count the Python lines executed in files under ``root`` (agentunit's source) in this thread; raise
    ``WorkBudgetExceeded`` in the code once there are more than ``limit``."""
    count = LineCount(limit)

    def lines(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            count.lines += 1
            if count.lines > limit:
                raise WorkBudgetExceeded(f"more than {limit:,} lines of agentunit executed")
        return lines

    def calls(frame: FrameType, event: str, arg: Any) -> Any:
        return lines if frame.f_code.co_filename.startswith(root) else None

    previous = sys.gettrace()
    sys.settrace(calls)
    try:
        yield count
    finally:
        sys.settrace(previous)
    assert count.lines, "no line of agentunit ran in this thread: the budget measured nothing"


def cpu_ratio(hostile: Callable[[], Any], plain: Callable[[], Any], below: float, rounds: int = 3,
              floor: float = 1e-3) -> float:
    """CPU time of ``hostile()`` over that of ``plain()`` (or ``floor`` seconds, if more): this process's, the
    least of up to ``rounds`` calls each, interleaved so that a change of load meets both; it stops at the first
    round whose ratio is under ``below`` (the caller asserts that it is)."""
    best = {hostile: float("inf"), plain: float("inf")}
    ratio = float("inf")
    for _ in range(rounds):
        for call in (plain, hostile):
            start = time.process_time()
            call()
            best[call] = min(best[call], time.process_time() - start)
        ratio = best[hostile] / max(best[plain], floor)
        if ratio < below:
            break
    return ratio
