"""Validating a large suite in several processes (``agentunit run --processes``; issue 20).

Every case is validated before anything runs, and validating is Python work on one core (about 40 µs a
case). From ``SPLIT_FROM`` (2,000) cases on, ``Suite.validate`` forks helpers: each validates a later range
of the suite's raw records into a case spool (``agentunit.suite.replay``, its metrics as recipes) while this
process validates the first range itself; the run then replays each range's cases from its spool.

A helper hands back only a range that is clean: if any of its cases meets a problem (an error or a
warning), records a human verdict or a transform, has no output and no target, or cannot be spooled, or
the helper fails in any way, every helper's work is dropped and this process validates the rest itself,
as it does without helpers — so problems are found, worded and ordered exactly as in one process. The
helpers' case ids are checked here against every id before them, in suite order (a repeated id is a
problem, reported as one process reports it).

Split only where forking is safe (Linux, one thread), for a suite whose cases are built one per record of
its inline cases and cases files (no prebuilt cases, no prompt × target matrix, no calibration; recorded
traces count for nothing in the estimate), and with more than one CPU to use.
"""

from __future__ import annotations

import marshal
import os
import signal
import tempfile
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING

from agentunit.core.forking import end_with_parent, load_prctl, may_fork, usable_cpus
from agentunit.suite.replay import CaseSpool

if TYPE_CHECKING:
    from agentunit.suite.model import Suite, _CaseIds

MAX_PROCESSES = 4
# A helper also writes its cases to a spool (~7 µs a case on top of ~40 µs validating), and a run replays
# them (~15 µs a case): this process validates, and runs, a share this much larger than each helper's
# (measured: 5,000 cases, two processes) — unless its share is too large to keep in memory either.
HERE_SHARE = 1.15
_ID_CHUNK = 10_000


@dataclass
class Helper:
    """A forked process validating the raw records ``first`` ≤ index < ``stop`` (None: to the end)."""

    pid: int
    first: int
    stop: int | None
    spool: CaseSpool
    ids: IO[bytes]  # the cases' ids, in order, in chunks (marshal)
    result: IO[bytes]  # (count, awaits, splittable, spool size, spool count) when the range is clean
    taken: bool = False  # its spool was taken in: the caller's now


def start_helpers(suite: Suite, processes: int | None, require_target: bool) -> list[Helper]:
    """Fork the helpers for ``suite``'s later ranges ([] when it is validated in this process alone).

    ``processes``: how many processes validate (None: one per usable CPU, up to ``MAX_PROCESSES``, from
    ``agentunit.suite.model.SPLIT_FROM`` estimated cases; 1: this process alone).
    """
    if processes == 1 or not _splittable_source(suite) or not may_fork():
        return []
    estimate = estimated_cases(suite)
    # Below SPLIT_FROM cases a helper costs more (a fork, a spool) than it saves.
    from agentunit.suite.model import KEEP_VALIDATED_CASES, SPLIT_FROM

    wanted = processes if processes is not None else \
        min(MAX_PROCESSES, usable_cpus()) if estimate >= SPLIT_FROM else 1
    count = min(wanted, estimate)
    if count < 2:
        return []
    here = round(estimate * HERE_SHARE / (HERE_SHARE + count - 1))
    if here > KEEP_VALIDATED_CASES:  # spooled here too: every range costs the same
        here = estimate // count
    bounds = [here + (estimate - here) * k // (count - 1) for k in range(count - 1)]
    shared = suite.suite_metrics + suite.default_metrics
    helpers: list[Helper] = []
    try:
        for first, stop in zip(bounds, [*bounds[1:], None], strict=True):
            spool = CaseSpool(shared, intern=False)
            ids, result = tempfile.TemporaryFile(), tempfile.TemporaryFile()  # noqa: SIM115 (read after the helper ends)
            try:
                pid = os.fork()
            except OSError:  # no process to be had (a limit): every case is validated here
                spool.close()
                ids.close()
                result.close()
                stop_helpers(helpers)
                return []
            if pid == 0:  # pragma: no cover - the helper's coverage is not collected
                _helper(suite, first, stop, spool, ids, result, require_target)
            helpers.append(Helper(pid, first, stop, spool, ids, result))
    except BaseException:
        stop_helpers(helpers)
        raise
    return helpers


def take_in(helpers: list[Helper], ids: _CaseIds) -> tuple[_CaseIds, int, bool, bool, list[CaseSpool]] | None:
    """Wait for every helper and take in their ranges: (the case ids with theirs added, their case count,
    whether one may await, whether all are splittable, their spools in order); None when any range cannot
    be used (the helpers are then stopped, and this process validates those records itself)."""
    results = []
    load_prctl()  # the run's forked ranges will need it: loaded here while the helpers finish
    for helper in helpers:
        status = os.waitpid(helper.pid, 0)[1]
        helper.pid = 0
        if os.waitstatus_to_exitcode(status) != 0:
            return None
    try:
        for helper in helpers:
            helper.result.seek(0)
            results.append(marshal.load(helper.result))
        # Their ids go through a copy: one repeated makes every range be validated again here, with the ids
        # as they were.
        merged = ids.copy()
        for helper in helpers:
            helper.ids.seek(0)
            while (chunk := marshal.load(helper.ids)) is not None:
                for case_id in chunk:
                    if merged.seen_before(case_id):
                        return None
    except (EOFError, ValueError, TypeError, OSError):  # what a helper wrote cannot be read back (a full disk)
        return None
    count, awaits, splittable, spools = 0, False, True, []
    for helper, (cases, may_await, stateless, size, spooled) in zip(helpers, results, strict=True):
        if not cases:  # the estimate ran past the records: an empty range is no range (its spool is dropped)
            continue
        helper.spool.filled_elsewhere(size, spooled)
        count, awaits, splittable = count + cases, awaits or may_await, splittable and stateless
        spools.append(helper.spool)
        helper.taken = True
    return merged, count, awaits, splittable, spools


def stop_helpers(helpers: list[Helper]) -> None:
    """End the helpers still running and drop what they left (the spools taken in are the caller's)."""
    for helper in helpers:
        if helper.pid:
            try:
                os.kill(helper.pid, signal.SIGKILL)
                os.waitpid(helper.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
            helper.pid = 0
        if not helper.taken:
            helper.spool.close()
        helper.ids.close()
        helper.result.close()


def estimated_cases(suite: Suite) -> int:
    """About how many raw records the suite has: its inline cases, and a line each of its cases files
    (only where to split depends on it)."""
    count = len(suite.inline_cases)
    for path in suite.case_files:
        try:
            with open(path, "rb") as handle:
                count += sum(block.count(b"\n") for block in iter(lambda: handle.read(1 << 20), b""))
        except OSError:  # reported when the records are read
            pass
    return count


def _splittable_source(suite: Suite) -> bool:
    """Whether the suite's cases are built one per raw record, as ``Suite`` reads them (not a subclass's way)."""
    from agentunit.suite.model import Suite

    return (type(suite)._located_cases is Suite._located_cases and type(suite)._raw_cases is Suite._raw_cases
            and suite.prebuilt_cases is None and suite.variants is None and suite.calibration is None)


def _helper(suite: Suite, first: int, stop: int | None, spool: CaseSpool, ids: IO[bytes],  # pragma: no cover
            result: IO[bytes], require_target: bool) -> None:
    """In the forked process: validate the range into ``spool``, write its ids and result, and exit
    (code 0 only for a clean range) without running the parent's clean-up."""
    code = 1
    try:
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C stops the parent, which ends this one
        end_with_parent()

        def emit(chunk: list[str]) -> None:
            marshal.dump(chunk, ids)

        found = suite._validate_range(first, stop, spool, require_target, emit, _ID_CHUNK)
        if found is not None:
            marshal.dump(None, ids)
            spool.seal()
            marshal.dump((*found, spool._size, spool.count), result)
            ids.flush()
            result.flush()
            code = 0
    except BaseException:  # the parent validates the range itself, and meets what went wrong there
        pass
    finally:
        os._exit(code)
