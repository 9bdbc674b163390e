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

A **resident** helper (``agentunit run`` asks for them, from ``RESIDENT_FROM`` cases on) also keeps the cases
it validated in memory when its range awaits nothing, is splittable and is not too large to keep
(``KEEP_VALIDATED_CASES``), and waits: the run then sends it its order (``Resident.run``) and it runs its
range itself, as the run's forked range would (``agentunit.core.shards``), without a fork or a replay of its
spool. Its spool is written all the same, so nothing depends on the order coming: a run that is not split
dismisses it (``Resident.dismiss``) and replays the spool, and one it could not reach runs the range here.
"""

from __future__ import annotations

import marshal
import os
import select
import signal
from typing import IO, TYPE_CHECKING, Any

from agentunit._scratch import scratch_file
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


class Helper:
    """A forked process validating the raw records ``first`` ≤ index < ``stop`` (None: to the end).

    ``ids``: the cases' ids, in order, in chunks (marshal); ``result``: (count, awaits, splittable, spool
    size, spool count, kept) when the range is clean; ``taken``: its spool was taken in, the caller's now;
    ``ready``: read end of the pipe it writes a byte to once its result is written; ``orders``: write end
    of the pipe a resident helper reads its order from. (A plain class: start-up builds no dataclass.)
    """

    __slots__ = ("first", "ids", "orders", "pid", "ready", "result", "spool", "stop", "taken")

    def __init__(self, pid: int, first: int, stop: int | None, spool: CaseSpool, ids: IO[bytes],
                 result: IO[bytes], *, ready: int = -1, orders: int = -1) -> None:
        self.pid, self.first, self.stop, self.spool, self.ids, self.result = pid, first, stop, spool, ids, result
        self.taken = False
        self.ready, self.orders = ready, orders


class Resident:
    """A helper that keeps the range it validated and waits for its order."""

    def __init__(self, pid: int, orders: int):
        self.pid, self.orders = pid, orders

    def run(self, order: dict[str, Any]) -> bool:
        """Send the order to run the range (``agentunit.core.shards``); False when it cannot be sent (the
        helper is gone), and the caller runs the range another way."""
        import pickle

        data = pickle.dumps(order, protocol=pickle.HIGHEST_PROTOCOL)
        data = len(data).to_bytes(8, "little") + data  # its length first: the helper reads no more than that
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(self.orders, view):]
            return True
        except OSError:
            return False
        finally:
            self.close()

    def dismiss(self) -> None:
        """No order is coming: the helper reads the end of its pipe and exits; reaped here."""
        self.close()
        if self.pid:
            try:
                os.waitpid(self.pid, 0)
            except ChildProcessError:
                pass
            self.pid = 0

    def close(self) -> None:
        """Close this end of its pipe (it will read no order), without waiting for it (``dismiss`` waits)."""
        if self.orders >= 0:
            os.close(self.orders)
            self.orders = -1


def start_helpers(suite: Suite, processes: int | None, require_target: bool, *, split_from: int,
                  keep_up_to: int, resident: bool = False) -> list[Helper]:
    """Fork the helpers for ``suite``'s later ranges ([] when it is validated in this process alone).

    ``processes``: how many processes validate (None: one per usable CPU, up to ``MAX_PROCESSES``, from
    ``split_from`` estimated cases; 1: this process alone). ``keep_up_to``: the most cases a process keeps
    in memory (more go to a spool). ``resident``: a helper may keep its range and run it (see the module
    docstring). The suite decides whether its cases can be read in ranges (``Suite.reads_in_ranges``).
    """
    if processes == 1 or not suite.reads_in_ranges() or not may_fork():
        return []
    estimate = estimated_cases(suite)
    # Below split_from cases a helper costs more (a fork, a spool) than it saves.
    wanted = processes if processes is not None else \
        min(MAX_PROCESSES, usable_cpus()) if estimate >= split_from else 1
    count = min(wanted, estimate)
    if count < 2:
        return []
    here = round(estimate * HERE_SHARE / (HERE_SHARE + count - 1))
    if here > keep_up_to:  # spooled here too: every range costs the same
        here = estimate // count
    bounds = [here + (estimate - here) * k // (count - 1) for k in range(count - 1)]
    shared = suite.suite_metrics + suite.default_metrics
    helpers: list[Helper] = []
    try:
        for first, stop in zip(bounds, [*bounds[1:], None], strict=True):
            spool = CaseSpool(shared, intern=False)
            ids, result = scratch_file(), scratch_file()  # read after the helper ends
            ready, readied = os.pipe()
            ordered, orders = os.pipe() if resident else (-1, -1)
            parent = os.getpid()
            try:
                pid = os.fork()
            except OSError:  # no process to be had (a limit): every case is validated here
                for fd in (ready, readied, ordered, orders):
                    if fd >= 0:
                        os.close(fd)
                spool.close()
                ids.close()
                result.close()
                stop_helpers(helpers)
                return []
            if pid == 0:  # pragma: no cover - the helper's coverage is not collected
                # Only its own ends stay open here: another helper's end held would hide that one's ending.
                for fd in (ready, orders, *(h.ready for h in helpers), *(h.orders for h in helpers)):
                    if fd >= 0:
                        os.close(fd)
                _helper(suite, first, stop, spool, ids, result, require_target, readied, ordered, parent, keep_up_to)
            os.close(readied)
            if ordered >= 0:
                os.close(ordered)
            helpers.append(Helper(pid, first, stop, spool, ids, result, ready=ready, orders=orders))
    except BaseException:
        stop_helpers(helpers)
        raise
    return helpers


def take_in(helpers: list[Helper], ids: _CaseIds
            ) -> tuple[_CaseIds, int, bool, bool, list[CaseSpool], list[Resident | None]] | None:
    """Wait for every helper's result and take in their ranges: (the case ids with theirs added, their case
    count, whether one may await, whether all are splittable, their spools in order and, aligned with them,
    the resident helpers that keep theirs); None when any range cannot be used (the helpers are then
    stopped, and this process validates those records itself)."""
    results = []
    if not _all_ready(helpers):
        load_prctl()  # a forked range will need it: loaded while this process would wait anyway (~1.5 ms)
    for helper in helpers:
        if os.read(helper.ready, 1) != b"r":  # it ended without writing its result: it failed
            os.waitpid(helper.pid, 0)
            helper.pid = 0
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
    count, awaits, splittable, spools, residents = 0, False, True, [], []
    for helper, (cases, may_await, stateless, size, spooled, kept) in zip(helpers, results, strict=True):
        resident = Resident(helper.pid, helper.orders) if kept else None
        if resident is not None:
            helper.pid, helper.orders = 0, -1  # the caller's now, whatever happens to the range
        if not cases:  # the estimate ran past the records: an empty range is no range (its spool is dropped)
            if resident is not None:
                resident.dismiss()
            continue
        helper.spool.filled_elsewhere(size, spooled)
        count, awaits, splittable = count + cases, awaits or may_await, splittable and stateless
        spools.append(helper.spool)
        residents.append(resident)
        helper.taken = True
    return merged, count, awaits, splittable, spools, residents


def _all_ready(helpers: list[Helper]) -> bool:
    """Whether every helper has written its result or ended: its ready pipe reads without waiting (``poll``:
    ``select`` refuses descriptors past 1,023, which a caller holding many files may be given)."""
    poller = select.poll()
    for helper in helpers:
        poller.register(helper.ready, select.POLLIN)
    return len(poller.poll(0)) == len(helpers)


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
        for fd in (helper.ready, helper.orders):
            if fd >= 0:
                os.close(fd)
        helper.ready = helper.orders = -1
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


def _helper(suite: Suite, first: int, stop: int | None, spool: CaseSpool, ids: IO[bytes],  # pragma: no cover
            result: IO[bytes], require_target: bool, readied: int, ordered: int, parent: int,
            keep_up_to: int) -> None:
    """In the forked process: validate the range into ``spool``, write its ids and result, say so on
    ``readied``, and exit (code 0 only for a clean range) without running the parent's clean-up — or, given
    an ``ordered`` pipe and a range it may keep, keep its cases and run them when the order comes.

    It ends with its ``parent`` (killed, say): while validating, it looks at each chunk of ids whether its
    parent is still the process that forked it (the kernel's ending with the parent, ``end_with_parent``,
    needs ctypes: ~1.5 ms before the first case, so a resident helper asks for it only while it waits for
    its order); waiting, it reads the end of its pipe.
    """
    code = 1
    try:
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C stops the parent, which ends this one

        def emit(chunk: list[str]) -> None:
            if os.getppid() != parent:
                os._exit(1)
            marshal.dump(chunk, ids)

        if os.getppid() != parent:  # it ended before this process started
            os._exit(1)

        kept: list[Any] | None = [] if ordered >= 0 else None
        found = suite._validate_range(first, stop, spool, require_target, emit, _ID_CHUNK, keep=kept,
                                      keep_up_to=keep_up_to)
        if found is not None:
            count, awaits, splittable = found
            resident = kept is not None and len(kept) == count and not awaits and splittable
            marshal.dump(None, ids)
            spool.seal()
            marshal.dump((*found, spool._size, spool.count, resident), result)
            ids.flush()
            result.flush()
            os.write(readied, b"r")
            code = 0
            if resident:
                code = _serve(suite, kept, ordered)
    except BaseException:  # the parent validates (or runs) the range itself, and meets what went wrong there
        code = 1
    finally:
        os._exit(code)


def _serve(suite: Suite, cases: list[Any], ordered: int) -> int:  # pragma: no cover - in the helper
    """Wait for the run's order and run the kept ``cases`` (``agentunit.core.shards.run_resident``); the end of
    the pipe without an order dismisses it. The exit code."""
    import pickle

    import agentunit.reporting.spool  # noqa: F401 - imported while the order is awaited, not after it came
    from agentunit.core.shards import run_resident

    end_with_parent()  # running its range, it ends with the run

    head = _read(ordered, 8)
    if len(head) < 8:  # the end of the pipe: dismissed
        return 0
    size = int.from_bytes(head, "little")
    order = _read(ordered, size)
    if len(order) < size:
        return 1
    return run_resident(suite, cases, pickle.loads(order))


def _read(fd: int, size: int) -> bytes:  # pragma: no cover - in the helper
    """``size`` bytes from ``fd``, fewer at its end."""
    chunks, left = [], size
    while left and (chunk := os.read(fd, min(left, 1 << 20))):
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)
