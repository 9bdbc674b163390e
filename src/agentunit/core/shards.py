"""A large run that awaits nothing, split across processes (``--processes``; issue 20).

A run driven without an event loop (the echo target or recorded outputs, metrics without
``evaluate_async``: ``Engine.runs_inline``) spends its time in Python, on one core. When its metrics are
agentunit's own deterministic ones that keep no state across cases (``Suite.splittable``: no user metric
class, no ``python`` check, no model-backed metric, no ``privacy_budget``, whose budget is spent across the
run), it can be split. From
``SHARDED_FROM`` (1,000) validated cases on it is split into contiguous ranges of cases: forked processes
each run one range while this process runs the first. Each writes its rows into the run's SQLite database
through a connection of its own (WAL: writers take turns per batch; every query that reads results back
orders them, so the order rows were written in does not show), and its report lines into a spool of its
own, which this process then takes in range after range with the metric tallies (``ReportSpool.adopt``):
the database, the report and the statistics are those of the same run made in one process.

A range whose process failed (an exception, a signal) is run again here (rows it stored are written
again under the same keys), so nothing is lost. Runs are split only where forking is safe and pays: on
Linux, in a process with one thread, into a database file (not ``:memory:``), with no resume and no
executor, and more than one CPU to use. A progress display counts every range's cases (each process
writes its count into shared memory).
"""

from __future__ import annotations

import os
import pickle
import signal
import struct
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agentunit._scratch import remove_folder, scratch_folder, temporary_folder
from agentunit.core.forking import end_with_parent, usable_cpus
from agentunit.core.inline import SHARDED_FROM, drive

if TYPE_CHECKING:
    import mmap
    from collections.abc import Iterator

    from agentunit.core.engine import Engine
    from agentunit.datasets.base import DatasetCase

MAX_PROCESSES = 4  # every range is one more writer of the one database, and its lines are taken in here
# Cases per committed batch while ranges write at once: shorter turns at SQLite's write lock, less waiting
# (5,000 cases in 2 processes: 0.78 s with the usual 2,000, 0.72 s with 500; 20,000 cases 2.5 → 2.4 s) —
# and at least four commits a range, down to SPLIT_BATCH_MIN: the last commits of ranges that end together
# are then short (1,000 cases in 2 processes: ~3 ms less than one commit of a whole range at its end).
SPLIT_BATCH = 500
SPLIT_BATCH_MIN = 100
# Pages of write-ahead log after which a commit checkpoints it into the database (SQLite's default: 1,000)
# while ranges write at once: each checkpoint, and its fsync, then runs while the other processes compute,
# instead of one long one at the end, after every range (5,000 cases in 2 processes: 0.64 → 0.63 s).
SPLIT_CHECKPOINT_PAGES = 250
_STATE = "state.pickle"
_FOLDER_PREFIX = "agentunit-shards-"  # then the id of the process whose run it is, a dash, random letters


def shard_bounds(engine: Engine) -> list[int] | None:
    """The first case index of each range after the first (None: the run stays in this process)."""
    options, cases = engine.options, getattr(engine.suite, "case_count", None)
    wanted = options.processes
    if wanted is None:  # below SHARDED_FROM cases, forking costs more than a second core saves
        wanted = min(MAX_PROCESSES, usable_cpus()) if cases is not None and cases >= SHARDED_FROM else 1
    if (wanted <= 1 or not cases or cases < 2 or not engine._inline or not getattr(engine.suite, "splittable", False)
            or options.resume or options.executor is not None
            or sys.platform != "linux" or threading.active_count() != 1
            or getattr(engine.store, "dialect", None) != "sqlite" or _in_memory(engine.store.path)):
        return None
    count = min(wanted, cases)
    # Where helpers validated the suite and this process kept its range in memory, each range is one helper's:
    # each other process replays one spool, which costs about what this process's larger share does.
    starts = getattr(engine.suite, "range_starts", None)
    if starts and len(starts) == count - 1 and getattr(engine.suite, "first_range_in_memory", False):
        return list(starts)
    return [cases * k // count for k in range(1, count)]


def run_sharded(engine: Engine, run_id: str, jobs: Iterator[tuple[int, DatasetCase, int]], bounds: list[int]) -> None:
    """Run ``jobs`` in ranges split at ``bounds``: the first here, each other by the resident helper that
    validated it (``agentunit.suite.split``) or in a forked process; then take in each range's report lines
    and tallies in order (a range whose process failed is run here instead)."""
    _remove_orphans()
    folder = Path(scratch_folder(f"{_FOLDER_PREFIX}{os.getpid()}-"))
    children: list[tuple[int | None, Path, int, int | None]] = []
    shown, batch_size, checkpoint_pages = engine.on_progress, engine.store.batch_size, engine.store.checkpoint_pages()
    # Cases done by each forked range, written by its process, read here for the progress display.
    counts = None
    if shown is not None:
        import mmap  # here: only a progress display reads the counts

        counts = mmap.mmap(-1, 8 * len(bounds))
    ranges = list(enumerate(zip(bounds, [*bounds[1:], None], strict=True)))
    residents = _residents(engine, bounds, counts)
    try:
        started: dict[int, int] = {}  # first case index → the resident helper running that range
        # The resident helpers first: a process forked before an order is sent would hold the order's pipe open.
        for _slot, (first, stop) in ranges:
            resident = residents.pop(first, None)
            if resident is None:
                continue
            (folder / str(first)).mkdir()
            order = {"engine": type(engine), "run_id": run_id, "first": first, "stop": stop,
                     "place": str(folder / str(first)), "store": str(engine.store.path), "batch_size": batch_size,
                     "options": engine.options,
                     "spool": None if engine._report_spool is None else engine._report_spool.range_settings(first)}
            pid = resident.pid
            if resident.run(order):
                started[first], resident.pid = pid, 0
            else:
                resident.dismiss()
        for resident in residents.values():
            resident.dismiss()
        for slot, (first, stop) in ranges:
            place = folder / str(first)
            if first in started:
                children.append((started[first], place, first, stop))
                continue
            place.mkdir(exist_ok=True)  # made already for a resident helper that could not take its order
            try:
                pid: int | None = os.fork()
            except OSError:  # no process to be had (a limit): this range is run here
                pid = None
            if pid == 0:  # pragma: no cover - the child's coverage is not collected
                _child(engine, run_id, first, stop, place, counts, slot)
            children.append((pid, place, first, stop))
        if shown is not None and counts is not None:
            engine.on_progress = lambda done, total: shown(done + _counted(counts), total)
        engine.store.batch_size = min(batch_size, split_batch(bounds[0]))
        engine.store.checkpoint_pages(SPLIT_CHECKPOINT_PAGES)
        _run_range(engine, run_id, jobs, bounds[0])
        engine.store.flush()
        for slot, (pid, place, first, stop) in enumerate(children):
            state = None
            if pid is not None:
                status = os.waitpid(pid, 0)[1] if counts is None else \
                    _wait(pid, lambda: shown(engine._done + _counted(counts), None))
                state = _read_state(place) if os.waitstatus_to_exitcode(status) == 0 else None
            if counts is not None:  # this range is counted in engine._done from now on
                struct.pack_into("q", counts, 8 * slot, 0)
            if state is None:
                _run_range(engine, run_id, engine._jobs(set(), first), stop)
                engine.store.flush()
                continue
            engine.store.problems += state["problems"]
            engine._done += state["done"]
            if engine._report_spool is not None:
                engine._report_spool.adopt(place, state["spool"])
        if shown is not None:
            shown(engine._done, None)
    except BaseException:
        for resident in residents.values():  # not ordered yet: they end with their pipe
            resident.dismiss()
        for pid, *_ in children:
            if pid is not None:
                try:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                except (ProcessLookupError, ChildProcessError):
                    pass
        raise
    finally:
        engine.on_progress = shown
        engine.store.batch_size = batch_size
        engine.store.checkpoint_pages(checkpoint_pages)
        if counts is not None:
            counts.close()
        remove_folder(folder)


def split_batch(cases: int) -> int:
    """Cases per committed batch for a range of ``cases``: a quarter of the range, within
    [``SPLIT_BATCH_MIN``, ``SPLIT_BATCH``]."""
    return max(SPLIT_BATCH_MIN, min(SPLIT_BATCH, cases // 4))


def _wait(pid: int, waiting: Any) -> int:
    """The exit status of process ``pid``; ``waiting()`` is called every 0.05 s until it ends."""
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        waiting()
        time.sleep(0.05)


def _counted(counts: mmap.mmap) -> int:
    return sum(struct.unpack_from(f"{len(counts) // 8}q", counts))


def _run_range(engine: Engine, run_id: str, jobs: Iterator[tuple[int, DatasetCase, int]], stop: int | None) -> None:
    """Run the jobs before case index ``stop`` (None: all of them)."""
    for seq, case, repeat in jobs:
        if stop is not None and seq >= stop:
            break
        drive(engine._run_one(run_id, seq, case, repeat))


def _child(engine: Engine, run_id: str, first: int, stop: int | None, place: Path,  # pragma: no cover
           counts: mmap.mmap | None, slot: int) -> None:
    """In the forked process: run cases ``first`` ≤ index < ``stop`` into the run's database through a
    connection of its own and into a spool of its own, write what the parent takes in, and exit without
    running the parent's clean-up."""
    code = 1
    try:
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C stops the parent, which ends this one
        end_with_parent()
        # The parent's connection is never used or closed here (SQLite forbids it after a fork); this frame keeps
        # it referenced, so not collected either, until os._exit.
        parent_spool, parent_store = engine._report_spool, engine.store
        cases = (stop if stop is not None else engine.suite.case_count) - first  # known: shard_bounds needs it
        progress = None if counts is None else (lambda done, _total: struct.pack_into("q", counts, 8 * slot, done))
        _run_here(engine, run_id, engine._jobs(set(), first), stop, place, parent_store.path,
                  min(parent_store.batch_size, split_batch(cases)),
                  parent_spool.for_range(first) if parent_spool is not None else None, progress)
        code = 0
    except BaseException:
        import traceback

        # Straight to the file descriptor: a lock of sys.stderr may have been held by another thread at the fork.
        os.write(2, traceback.format_exc().encode("utf-8", "replace"))
    finally:
        os._exit(code)


def run_resident(suite: Any, cases: list[DatasetCase], order: dict[str, Any]) -> int:  # pragma: no cover
    """In a resident helper (``agentunit.suite.split``): run the ``cases`` it validated as the run's forked range
    would — an engine of the same options over the same suite, its run state and media limits set as the run
    sets them — into the run's database and a spool of its own, and write what the parent takes in. The exit
    code (the parent runs the range itself after a failure)."""
    from agentunit.media.limits import MediaLimits, use_limits
    from agentunit.metrics.base import begin_run_state
    from agentunit.reporting.spool import ReportSpool

    try:
        engine = order["engine"](suite, None, order["options"], target=suite.build_target())  # the run's class
        engine._inline, engine._judged, engine.run_id = True, False, order["run_id"]
        begin_run_state()
        use_limits(MediaLimits.for_suite(suite.options, suite.media_dir))
        first, settings = order["first"], order["spool"]
        spool = None if settings is None else ReportSpool(**settings)
        _run_here(engine, order["run_id"], engine._jobs(set(), first, cases=cases), order["stop"],
                  Path(order["place"]), order["store"], min(order["batch_size"], split_batch(len(cases))), spool, None)
        return 0
    except BaseException:
        import traceback

        os.write(2, traceback.format_exc().encode("utf-8", "replace"))
        return 1


def _run_here(engine: Engine, run_id: str, jobs: Iterator[tuple[int, DatasetCase, int]], stop: int | None,
              place: Path, path: Any, batch_size: int, spool: Any, progress: Any) -> None:  # pragma: no cover
    """Run ``jobs`` before index ``stop`` into the database at ``path`` through a connection of this process and
    into ``spool``, and write to ``place`` what the parent takes in."""
    from agentunit.store.sqlite import Store

    store = Store(path, batch_size=batch_size)
    store.checkpoint_pages(SPLIT_CHECKPOINT_PAGES)
    if spool is not None:
        store.listener, store.on_rewrite = spool.add, spool.discard
    engine.store, engine._done = store, 0
    engine.on_progress = progress
    _run_range(engine, run_id, jobs, stop)
    store.close()
    state: dict[str, Any] = {"problems": store.problems, "done": engine._done,
                             "spool": spool.export(place) if spool is not None else None}
    with open(place / _STATE, "wb") as file:
        pickle.dump(state, file, protocol=pickle.HIGHEST_PROTOCOL)


def _residents(engine: Engine, bounds: list[int], counts: Any) -> dict[int, Any]:
    """The resident helpers that will run their ranges, by first case index ({}: every range is forked): only
    where the ranges are theirs, no progress display counts the cases (a helper cannot write to shared
    memory made after it), the run set no judge up (a helper has none) and its target runs nothing of the
    suite author's (echo, recorded outputs: a helper builds the target again)."""
    suite = engine.suite
    take = getattr(suite, "resident_ranges", None)
    if take is None:
        return {}
    residents = take()
    target = getattr(engine, "target", None)
    if (counts is None and not engine._judged and list(bounds) == getattr(suite, "range_starts", None)
            and (target is None or getattr(target, "kind", None) == "echo")):
        return residents
    for resident in residents.values():
        resident.dismiss()
    return {}


def _remove_orphans() -> None:
    """Remove the range folders of runs whose process ended without removing its own (killed: SIGKILL cannot be
    caught); a folder whose process is alive, that is not named after one or is not this user's is left as it is,
    and a link of that name (anyone may make one in a shared /tmp) is never followed (``remove_folder``)."""
    base, user = temporary_folder(), os.getuid()
    try:
        names = [e.name for e in os.scandir(base)
                 if e.name.startswith(_FOLDER_PREFIX) and e.stat(follow_symlinks=False).st_uid == user]
    except OSError:
        return
    for name in names:
        pid = name[len(_FOLDER_PREFIX):].split("-", 1)[0]
        if pid.isdigit() and not _alive(int(pid)):
            remove_folder(os.path.join(base, name))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process
        return True
    return True


def _in_memory(path: Any) -> bool:
    text = str(path)
    return text == ":memory:" or "mode=memory" in text or text == ""


def _read_state(place: Path) -> dict[str, Any] | None:
    try:
        with open(place / _STATE, "rb") as file:
            return pickle.load(file)
    except (OSError, EOFError, pickle.UnpicklingError):
        return None
