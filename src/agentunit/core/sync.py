"""Running a coroutine from synchronous code (``agentunit.check``, a metric's sync ``evaluate``)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any


def run_blocking(coroutine: Any) -> Any:
    """Run a coroutine to completion, also when the calling thread already runs an event loop (then in
    a fresh loop on a worker thread)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
