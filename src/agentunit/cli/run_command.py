"""The work of ``agentunit run``, without click: load and validate the suite, run it, store and report.

Called by the click command (``agentunit.cli.commands``) and, for arguments it can read itself
(``agentunit.cli.run_arguments``), straight by the program (``agentunit.cli.entry``): a run then does
not import click (~12 ms of start-up). Ends by raising ``SystemExit`` with the run's exit status.
"""

from __future__ import annotations

import contextlib
import gc
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from agentunit.cli.usage import EXIT_OK, EXIT_USAGE, fail_usage, open_store, shown, suite_problems
from agentunit.errors import AgentUnitError


class Closing:
    """What a command does as it ends, as click's context keeps it (``meta``, ``call_on_close``) for a
    command run without click: ``close`` calls the callbacks, last registered first."""

    def __init__(self) -> None:
        self.meta: dict[str, Any] = {}
        self._callbacks: list[Any] = []

    def call_on_close(self, callback: Any) -> Any:
        self._callbacks.append(callback)
        return callback

    def close(self) -> None:
        while self._callbacks:
            self._callbacks.pop()()


def run_suite(context: Any, suite: Path | None, jobs: int | None, repeat: int | None, no_cache: bool,
              resume: str | None, db: Path | str, output: Path | None, junit: Path | None,
              markdown: Path | None, html: Path | None, filter_: str | None, timeout: float | None,
              allow_unmeasured: bool, quiet: bool, dry_run: bool, calibration: Path | None, executor: str,
              ray_address: str | None, ray_workers: int | None, processes: int | None) -> None:
    """Run SUITE against its target, store the results, write reports; raise ``SystemExit`` 0/1/2
    (130 when interrupted). ``context`` keeps what is undone as the command ends (click's context, a
    ``Closing``, or None: nothing is undone)."""
    from agentunit.core.engine import Engine, RunOptions
    from agentunit.suite.loader import load_suite

    _freeze_heap(context)
    _fewer_collections(context)
    if dry_run and resume:
        raise fail_usage("--dry-run and --resume cannot be combined")
    if executor != "ray" and (ray_address or ray_workers):
        raise fail_usage("--ray-address and --ray-workers need --executor ray")
    case_executor = _ray_executor(ray_address, ray_workers) if executor == "ray" else None
    store: Any = None  # a dry run only reads the database's caches

    def open_database() -> None:
        nonlocal store
        store = open_store(db)

    if resume:
        open_database()
        previous = store.get_run(resume)
        if previous is None:
            raise fail_usage(f"no run {resume!r} in {shown(db)}")
        _hold_run(store, resume)
        if suite is None and previous.get("suite_path"):
            suite = Path(previous["suite_path"])
        repeat = repeat or (previous.get("options") or {}).get("repeat", 1)
    if suite is None:
        raise fail_usage("missing SUITE (a .yaml or .json suite file)")
    with suite_problems(suite):
        loaded = load_suite(suite, calibration=calibration)
        _freeze_heap(context)  # the suite's data
        # The run follows at once. The database is opened while validation helpers read their ranges, before
        # this process reads its own (it would otherwise wait for them about as long).
        total = loaded.validate(require_target=True, processes=processes, resident=True,
                                meanwhile=None if dry_run or store is not None else open_database)
        for warning in loaded.problems.warning_texts():
            sys.stderr.write(warning + "\n")
        repeat = repeat or loaded.options.get("repeat", 1)
        options = RunOptions(concurrency=jobs or loaded.options.get("concurrency", 8), repeat=repeat,
                             timeout=timeout, cache=not no_cache and loaded.options.get("cache", True),
                             resume=resume, filter=filter_,
                             allow_unmeasured=allow_unmeasured or loaded.options.get("allow_unmeasured", False),
                             executor=case_executor, processes=processes, report_lines=output is not None)
        if not dry_run:  # a dry run sends nothing: the environment may be incomplete
            from agentunit.suite.environment import check_environment

            check_environment(loaded, connect=True)  # a missing key or a target where nothing answers: exit 2
        target = loaded.build_target()
        if dry_run:
            from agentunit.core.dryrun import dry_run as count_calls

            report = count_calls(loaded, db, options, target=target)
        else:
            engine = Engine(loaded, store, options, target=target)
    if dry_run:
        sys.stdout.write(report.text() + "\n")
        raise SystemExit(EXIT_OK)
    _freeze_heap(context)  # the validated cases too
    terminated: list[int] = []
    try:
        with _terminated_as_interrupted(terminated):
            result = execute(engine, total * repeat, show_progress=not quiet and sys.stderr.isatty())
    except KeyboardInterrupt:
        store.close()
        sys.stderr.write(f"{'terminated (SIGTERM)' if terminated else 'interrupted'}; committed results are kept. "
                         f"Continue with:\n  agentunit run {suite} --db {shown(db)} --resume {engine.run_id}\n")
        raise SystemExit(EXIT_TERMINATED if terminated else 130) from None
    except AgentUnitError as exc:  # the Ray executor lost a worker for good: what was stored is kept
        store.close()
        sys.stderr.write(f"error: {exc}; committed results are kept. Continue with:\n"
                         f"  agentunit run {suite} --db {shown(db)} --resume {engine.run_id}\n")
        raise SystemExit(EXIT_USAGE) from None
    _write_reports(result, output=output, junit=junit, markdown=markdown, html=html)
    if not quiet:
        from agentunit.reporting.console import print_summary

        print_summary(result, db_path=shown(db))
    store.close()
    code = 130 if result.status == "interrupted" else result.exit_code
    if AS_PROGRAM["on"] and _ran_nothing_of_the_authors(engine):
        _end_promptly(code)  # here, before the run's objects are let go one by one
    raise SystemExit(code)



EXIT_TERMINATED = 143  # 128 + SIGTERM, as a shell reports a process that SIGTERM ended


@contextlib.contextmanager
def _terminated_as_interrupted(terminated: list[int]) -> Iterator[None]:
    """While the block runs, SIGTERM (a CI cancel, ``timeout``, ``kill``) ends the run as Ctrl-C does: the run
    is recorded ``interrupted`` with its ``finished_at``, and what was computed is kept (the engine's own
    ending). The signal is appended to ``terminated``. Only in the main thread (where signals are handled)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_sigterm(signum: int, frame: Any) -> None:
        terminated.append(signum)
        interrupt = signal.getsignal(signal.SIGINT)  # asyncio.run's (it cancels the run's task) or Python's own
        if callable(interrupt):
            interrupt(signal.SIGINT, frame)
            return
        raise KeyboardInterrupt  # Ctrl-C ignored (a background job): end the run all the same

    before = signal.signal(signal.SIGTERM, on_sigterm)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def _hold_run(store: Any, run_id: str) -> None:
    """Take run ``run_id``'s lease before the run reads what it has committed: while another process runs or
    continues that run, this ``--resume`` exits 2 naming the run and its holder instead of running every
    remaining case a second time (``agentunit.store.lease``). The lease is let go as the run ends."""
    from agentunit.store.lease import RunHeldError

    try:
        store.hold_run(run_id)
    except RunHeldError as exc:
        store.close()
        raise fail_usage(str(exc)) from None


def execute(engine: Any, total: int, show_progress: bool) -> Any:
    """Run ``engine`` (``total`` attempts), with a progress bar on stderr when ``show_progress``."""
    if not show_progress:
        return engine.execute()
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    # A run that awaits nothing finishes cases quickly and may fork (agentunit.core.shards): it refreshes the
    # display itself, from its progress calls, instead of from a refresh thread a fork must not inherit.
    refresh_here = engine.runs_inline()
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  transient=True, auto_refresh=not refresh_here) as progress:
        task = progress.add_task(engine.suite.name, total=total)
        shown_at = [0.0]

        def update(done: int, _total: int | None) -> None:
            progress.update(task, completed=done)
            if refresh_here and (time.monotonic() - shown_at[0] >= 0.1 or done >= total):
                shown_at[0] = time.monotonic()
                progress.refresh()

        engine.on_progress = update
        return engine.execute()


def _ray_executor(address: str | None, workers: int | None) -> Any:
    """``--executor ray``: the executor (Ray itself is imported when the run starts)."""
    import importlib.util

    from agentunit.scale import RayExecutor

    if importlib.util.find_spec("ray") is None:
        raise fail_usage("--executor ray needs Ray: pip install 'agentunit[ray]'")
    return RayExecutor(address=address, workers=workers)


def _freeze_heap(context: Any) -> None:
    """What is loaded so far (modules, then the suite and its validated cases) lives through the run: the
    garbage collector's passes leave it out (``gc.freeze``) until the command ends (``gc.unfreeze``)."""
    if context is None:
        return
    if not context.meta.get(_FROZEN):
        context.meta[_FROZEN] = True
        context.call_on_close(gc.unfreeze)
    gc.freeze()


_FROZEN = "agentunit.heap_frozen"


def _fewer_collections(context: Any) -> None:
    """A run makes and drops objects case after case, hardly any of them in reference cycles: the garbage
    collector's youngest generation is collected every 50,000 net allocations of container objects instead
    of every 700 (measured: 0.89 s, 7-8 % of the CPU of a 100,000-case run, went to ~2,900 collections that
    found ~700 cyclic objects; now 0.12 s). Cyclic garbage waiting meanwhile stays under that count. The
    thresholds are restored when the command ends; a collector switched off (threshold 0) stays off."""
    if context is None or _THRESHOLDS in context.meta:
        return
    before = gc.get_threshold()
    context.meta[_THRESHOLDS] = before
    context.call_on_close(lambda: gc.set_threshold(*before))
    if before[0]:
        gc.set_threshold(max(before[0], _YOUNG_THRESHOLD), *before[1:])


_THRESHOLDS = "agentunit.gc_thresholds"
_YOUNG_THRESHOLD = 50_000

_WRITERS = {"output": ("json_report", "write_json"), "junit": ("junit", "write_junit"),
            "markdown": ("markdown", "write_markdown"), "html": ("html", "write_html")}


def _write_reports(result: Any, **paths: Path | None) -> None:
    import importlib

    for key, path in paths.items():
        if path is not None:
            module, function = _WRITERS[key]
            getattr(importlib.import_module(f"agentunit.reporting.{module}"), function)(result, path)


# Whether this process is the ``agentunit`` program itself (``agentunit.cli.program``), which may end as soon as
# its work is done; not when ``main`` or the command group is called from Python (a test, a script going on).
AS_PROGRAM = {"on": False}


def _ran_nothing_of_the_authors(engine: Any) -> bool:
    """Whether the run executed none of the suite author's Python in this process: an echo target or
    recorded outputs, agentunit's own deterministic metrics, no transform. Nothing of theirs (a file left
    open, an object's ``__del__``) can then be waiting for the interpreter's tear-down."""
    suite = engine.suite
    return engine.runs_inline() and getattr(suite, "splittable", False) and not suite.has_transforms


def _end_promptly(code: int) -> None:
    """End the process now with exit status ``code``, without letting go of the run's objects one by one and
    without the interpreter's tear-down of every module (after 1,000 cases ~6 ms, 5,000 ~10 ms).

    What an ending must do is done first: the ``atexit`` functions (logging's flush, ``weakref.finalize``,
    coverage), then stdout and stderr are flushed. Returns, leaving the usual exit to the caller, when a
    thread other than this one is alive (the interpreter would wait for it), a profiler or tracer is attached
    (``python -m cProfile``, a debugger: they report as the interpreter ends) or the streams cannot be
    flushed (a closed pipe: the usual exit reports it as it always does).
    """
    import atexit
    import os
    import threading

    run_exit_functions = getattr(atexit, "_run_exitfuncs", None)  # CPython's: another interpreter ends as usual
    if threading.active_count() != 1 or run_exit_functions is None or sys.getprofile() or sys.gettrace():
        return
    run_exit_functions()  # CPython's own ending calls it; each runs once: a usual exit after it finds none
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    os._exit(code)
