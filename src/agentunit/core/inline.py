"""Running a coroutine that never suspends without an event loop (a run of the echo target or recorded
outputs with agentunit's own checks: ``Engine.runs_inline``), in this process or in a range's."""

from __future__ import annotations

from typing import Any

SHARDED_FROM = 1_000  # validated cases from which a run that awaits nothing is split across processes by default


def drive(coroutine: Any) -> Any:
    """The value of a coroutine that finishes without suspending, stepped without an event loop."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    coroutine.close()  # its `finally` blocks run: the run is recorded as interrupted
    raise RuntimeError("a run driven without an event loop awaited something that suspends "
                       "(Engine.runs_inline() was wrong for this target or metric)")
