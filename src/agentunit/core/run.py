"""What a run is given and what it gives back: ``RunOptions``, ``RunResult`` and the run's id.

Apart from the engine (``agentunit.core.engine``, which re-exports them) so that code handing options
to a run or reading its result (reports, the CLI, executors) needs nothing else of it.

A result kept after its run need not keep the database open: ``RunResult.release`` closes the store's
connection (``evaluate`` does, for a database that outlives it) and puts a ``ReleasedStore`` in its
place, whose reads open the database for themselves and close it after.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agentunit.reporting.spool import ReportSpool
    from agentunit.store.sqlite import Store


@dataclass
class RunOptions:
    """How to run a suite.

    Args:
        concurrency: cases in flight at once (``-j``).
        repeat: attempts per case (``--repeat``); pass rate, pass@k and pass^k are reported when > 1.
        timeout: seconds for one target call, retries included (None: the suite's, else 300).
        cache: reuse cached target replies (``--no-cache`` turns this off).
        resume: run id to continue; its committed cases are skipped.
        filter: regular expression; only cases whose id or prompt matches run.
        allow_unmeasured: cases where no metric gave a verdict do not fail the run
            (``--allow-unmeasured``); they are still counted and shown as unmeasured, never as passed.
        executor: runs the cases elsewhere and hands their values back to be stored here (an object with
            ``async drain(engine, run_id, jobs)``, e.g. ``agentunit.scale.RayExecutor``); None: in this process.
        processes: processes a run that awaits nothing is split across (``--processes``; None: one per
            usable CPU, up to 4, from 1,000 cases on; see ``agentunit.core.shards``).
        report_lines: make the JSON report's case lines while cases are stored (False when no JSON report
            will be written, as ``agentunit run`` without ``--output``: a report written anyway reads the
            database; the console's statistics are counted either way).
    """

    concurrency: int = 8
    repeat: int = 1
    timeout: float | None = None
    cache: bool = True
    resume: str | None = None
    filter: str | None = None
    allow_unmeasured: bool = False
    executor: Any = None
    processes: int | None = None
    report_lines: bool = True


@dataclass
class RunResult:
    """A finished (or interrupted) run: ids, summary and access to every case result in the store."""

    run_id: str
    suite: str
    started_at: str
    finished_at: str | None
    status: str
    summary: dict[str, Any]
    store: Store = field(repr=False)  # a ReleasedStore once ``release`` let its connection go
    # The report lines and tallies made while the run executed here (None: reports read the store).
    spool: ReportSpool | None = field(default=None, repr=False, compare=False)

    @property
    def passed(self) -> bool:
        """No case failed or errored, and none was unmeasured unless the run allows it."""
        s = self.summary
        unmeasured_ok = s.get("unmeasured", 0) == 0 or s.get("allow_unmeasured", False)
        return s["failed"] == 0 and s["errored"] == 0 and unmeasured_ok

    @property
    def exit_code(self) -> int:
        return 0 if self.passed else 1

    def iter_cases(self) -> Iterator[dict[str, Any]]:
        return self.store.iter_cases(self.run_id)

    def release(self) -> None:
        """Close the store's connection, for a database that outlives it (a file, a server): reads then open
        the database for themselves and close it after (``ReleasedStore``). An in-memory database, which
        would go with its connection, is kept open. For the owner of the store (``evaluate``)."""
        store = self.store
        if isinstance(store, ReleasedStore) or in_memory(str(getattr(store, "path", ":memory:"))):
            return
        store.close()
        self.store = ReleasedStore(store)  # type: ignore[assignment]

    @property
    def cases(self) -> list[dict[str, Any]]:
        return list(self.iter_cases())

    def to_dict(self) -> dict[str, Any]:
        """The ``--output`` JSON document (see docs/results.md)."""
        from agentunit.reporting.json_report import report_dict

        return report_dict(self)


def in_memory(path: str) -> bool:
    """Whether a store's path names an in-memory SQLite database (gone when its last connection closes)."""
    return path == ":memory:" or path.startswith("file::memory:") or "mode=memory" in path


class ReleasedStore:
    """The store of a finished run, its connection closed: each read opens the database and closes it
    after (``iter_cases`` and ``metric_values`` after their last row), so a result kept in memory holds
    no file handle. Other methods of the store work the same way, one connection per call; ``conn``
    (code reading SQL itself) opens one that stays until ``close``. ``problems`` is the closed store's."""

    def __init__(self, store: Any):
        self._kind: type = type(store)
        self._location: str = getattr(store, "_url", store.path)  # a PostgreSQL path is shown with its password hidden
        self.path: str = store.path
        self.dialect: str = store.dialect
        self.problems: list[str] = store.problems
        self._held: Any = None

    @contextlib.contextmanager
    def opened(self) -> Iterator[Any]:
        """The store, opened for one read and closed after it."""
        store = self._kind(self._location)
        try:
            yield store
        finally:
            store.close()

    def iter_cases(self, run_id: str, **options: Any) -> Iterator[dict[str, Any]]:
        with self.opened() as store:
            yield from store.iter_cases(run_id, **options)

    def metric_values(self, run_id: str) -> Iterator[tuple[Any, ...]]:
        with self.opened() as store:
            yield from store.metric_values(run_id)

    @property
    def conn(self) -> Any:
        if self._held is None:
            self._held = self._kind(self._location)
        return self._held.conn

    def flush(self) -> None:
        """Nothing to write: the run's rows were written before its store was closed."""

    def close(self) -> None:
        if self._held is not None:
            self._held.close()
            self._held = None

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        method = getattr(self._kind, name)  # AttributeError for what a store does not have
        if not callable(method):
            raise AttributeError(name)

        def call(*args: Any, **kwargs: Any) -> Any:
            with self.opened() as store:
                value = getattr(store, name)(*args, **kwargs)
                return list(value) if isinstance(value, Iterator) else value

        return call


def new_run_id() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S") + "-" + os.urandom(3).hex()
