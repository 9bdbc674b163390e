"""The memory total of a sandboxed program's whole process tree, and the share of the machine a sandbox
may use.

Where agentunit's cgroup v2 can hold children with the memory and pids controllers, each run gets a
cgroup of its own (``memory.max`` with no swap, ``pids.max``, killed together on running out); the
program enters it between fork and exec. Elsewhere (cgroup v1, a cgroup that cannot delegate, a cgroup
the program could not enter) the tree's resident memory is read from /proc every ``_MEMORY_POLL_S``
and the tree stopped past the total (``rss-watch``). agentunit.code.sandbox runs the program and
chooses between the two per run.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import functools
import itertools
import os
import time
from collections.abc import Callable

_MIB = 1024 * 1024
# The tree's memory, when no cgroup holds it, is checked this often: the overshoot between two checks is
# what a program can allocate in that time.
_MEMORY_POLL_S = 0.05
_MACHINE_SHARE = 4  # a sandbox may use at most 1/4 of the machine's memory, however it is configured
# How long a run's cgroup may take to empty after the tree was killed: as long as the sandbox waits for
# the tree to be gone (agentunit.code.sandbox._until_gone).
_EMPTY_WAIT_S = 2.0

_TOTAL_HIT = "memory: {} MiB in all for the program's processes"
_CGROUP_CONTROLLERS = ("memory", "pids")
_cgroup_counter = itertools.count(1)
_cgroups_refused = False  # set when a cgroup could not be made or entered: rss-watch for the rest of the process


@functools.lru_cache(maxsize=1)
def machine_share_mb() -> int:
    """The most one sandbox may use, MiB: a quarter of the memory agentunit may use (the machine's RAM,
    or its cgroup's memory limit when lower)."""
    ram = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    limit = _own_memory_limit()
    return max(1, min(ram, limit or ram) // _MACHINE_SHARE // _MIB)


def _own_memory_limit() -> int | None:
    """The memory limit of agentunit's own cgroup (v2 ``memory.max`` or v1 ``memory.limit_in_bytes``), if any."""
    files = []
    v2 = _own_cgroup_dir()
    if v2 is not None:
        files.append(os.path.join(v2, "memory.max"))
    for line in _read_text("/proc/self/cgroup").splitlines():
        _, controllers, path = [*line.split(":", 2), "", ""][:3]
        if "memory" in controllers.split(","):
            files.append(f"/sys/fs/cgroup/memory{path}/memory.limit_in_bytes")
    for name in files:
        value = _read_text(name).strip()
        if value.isdigit():
            return int(value)
    return None


def _read_text(path: str) -> str:
    """The file's text; empty when it cannot be read (a /proc or cgroup file that is absent here)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError:
        return ""


def _own_cgroup_dir(mountinfo: str | None = None, cgroup: str | None = None) -> str | None:
    """Where agentunit's cgroup v2 is: the cgroup2 mount point joined with the ``0::`` path of
    /proc/self/cgroup (taken relative to the mount's root); None without a cgroup2 mount."""
    mountinfo = _read_text("/proc/self/mountinfo") if mountinfo is None else mountinfo
    cgroup = _read_text("/proc/self/cgroup") if cgroup is None else cgroup
    own = next((line[3:] for line in cgroup.splitlines() if line.startswith("0::")), None)
    if own is None:
        return None
    for line in mountinfo.splitlines():
        before, _, after = line.partition(" - ")
        parts = before.split()
        if after.split()[:1] == ["cgroup2"] and len(parts) >= 5:
            root, point = parts[3], parts[4]
            if own == root or own.startswith(root.rstrip("/") + "/"):
                relative = own[len(root.rstrip("/")):].lstrip("/")
                return os.path.join(point, relative) if relative else point
    return None


@functools.lru_cache(maxsize=1)
def _cgroup_parent() -> str | None:
    """The cgroup v2 that will hold one cgroup per run, or None (then rss-watch).

    Algorithm: agentunit's own cgroup serves when memory and pids are enabled for its children, or can be
    (the root cgroup; a delegated cgroup without processes). A cgroup holding processes cannot enable
    them (the kernel's no-internal-process rule): when agentunit is its only process (``systemd-run
    --scope -p Delegate=yes``, a container's sole process) it moves itself into a child first, as nsjail
    does; with other processes there it leaves them alone and returns None.
    """
    base = _own_cgroup_dir()
    if base is None or not os.access(base, os.W_OK):
        return None
    wanted = set(_CGROUP_CONTROLLERS)
    try:
        if not wanted <= set(_read_text(os.path.join(base, "cgroup.controllers")).split()):
            return None
        if wanted <= set(_read_text(os.path.join(base, "cgroup.subtree_control")).split()):
            return base
        try:
            _write(base, "cgroup.subtree_control", " ".join(f"+{c}" for c in _CGROUP_CONTROLLERS))
        except OSError as exc:
            if exc.errno != errno.EBUSY or _read_text(os.path.join(base, "cgroup.procs")).split() != [str(os.getpid())]:
                return None
            leaf = os.path.join(base, "agentunit")
            os.makedirs(leaf, exist_ok=True)
            _write(leaf, "cgroup.procs", str(os.getpid()))
            _write(base, "cgroup.subtree_control", " ".join(f"+{c}" for c in _CGROUP_CONTROLLERS))
        return base
    except OSError:
        return None


def _refuse_cgroups() -> None:
    """Use rss-watch for every later run of this process (a cgroup could not be made or entered)."""
    global _cgroups_refused
    _cgroups_refused = True


def _write(folder: str, name: str, value: str) -> None:
    """Write ``value`` to the cgroup file ``name`` of ``folder``."""
    with open(os.path.join(folder, name), "w", encoding="ascii") as handle:
        handle.write(value)


class _Cgroup:
    """One run's cgroup v2: ``memory.max`` (no swap) and ``pids.max`` over the whole tree, the tree
    killed together when it runs out (``memory.oom.group``); the program enters it between fork and exec
    through ``procs_fd``, and it is removed after the run."""

    def __init__(self, path: str, procs_fd: int):
        self.path, self.procs_fd = path, procs_fd

    @classmethod
    def make(cls, total_mb: int, pids: int) -> _Cgroup | None:
        """A new cgroup under ``_cgroup_parent()`` holding ``total_mb`` MiB and ``pids`` processes; None where
        there is none to use."""
        parent = None if _cgroups_refused else _cgroup_parent()
        if parent is None:
            return None
        path = os.path.join(parent, f"agentunit-{os.getpid()}-{next(_cgroup_counter)}")
        try:
            os.mkdir(path, 0o755)
            _write(path, "memory.max", str(total_mb * _MIB))
            for name in ("memory.swap.max", "memory.oom.group"):  # absent without swap, or on old kernels
                if os.path.exists(os.path.join(path, name)):
                    _write(path, name, "0" if name == "memory.swap.max" else "1")
            _write(path, "pids.max", str(pids))
            procs_fd = os.open(os.path.join(path, "cgroup.procs"), os.O_WRONLY | os.O_CLOEXEC)
        except OSError:
            with contextlib.suppress(OSError):
                os.rmdir(path)
            _refuse_cgroups()
            return None
        return cls(path, procs_fd)

    def kill(self) -> None:
        """SIGKILL every process in the cgroup (``cgroup.kill``, Linux 5.14+; the caller kills the tree too)."""
        with contextlib.suppress(OSError):
            _write(self.path, "cgroup.kill", "1")

    def out_of_memory(self) -> bool:
        """Whether the kernel killed a process of the cgroup for reaching ``memory.max``."""
        for line in _read_text(os.path.join(self.path, "memory.events")).splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill" and value.strip().isdigit():
                return int(value) > 0
        return False

    def remove(self) -> None:
        """Close ``procs_fd`` and remove the cgroup now (used when the program did not start; a cgroup still
        holding a process stays)."""
        with contextlib.suppress(OSError):
            os.close(self.procs_fd)
        with contextlib.suppress(OSError):
            os.rmdir(self.path)

    async def remove_when_empty(self) -> None:
        """Remove the cgroup once its last process is gone (rmdir answers EBUSY until then)."""
        with contextlib.suppress(OSError):
            os.close(self.procs_fd)
        deadline = time.monotonic() + _EMPTY_WAIT_S
        while True:
            try:
                os.rmdir(self.path)
                return
            except OSError as exc:
                if exc.errno != errno.EBUSY or time.monotonic() > deadline:
                    return
            await asyncio.sleep(0.01)


def _memory_mechanism(group: _Cgroup | None, total_mb: int, process_mb: int, pids: int) -> str:
    """The result's ``isolation["memory"]``: how the tree's total is held, and the per-process limit."""
    per_process = f"{process_mb} MiB address space per process"
    if group is not None:
        return (f"cgroup: {total_mb} MiB in all (memory.max, no swap), "
                f"{pids} processes (pids.max); {per_process}")
    return (f"rss-watch: {total_mb} MiB in all, the tree's resident memory checked every "
            f"{_MEMORY_POLL_S * 1000:g} ms (no cgroup v2 to use here); {per_process}")


async def _watch_memory(pid: int, total_mb: int, stop: Callable[[str], None]) -> None:
    """Stop the run once the tree's resident memory passes ``total_mb``, checked every _MEMORY_POLL_S."""
    allowed = total_mb * _MIB // os.sysconf("SC_PAGE_SIZE")
    while True:
        await asyncio.sleep(_MEMORY_POLL_S)
        if _tree_pages(pid) > allowed:
            stop(f"{_TOTAL_HIT.format(total_mb)} (rss-watch), process tree killed")
            return


def _tree_pages(root: int) -> int:
    """Resident anonymous pages (``statm`` resident − shared: the memory the tree itself holds, not the
    files it maps) of ``root`` and its descendants, found through ``/proc/PID/task/TID/children``.
    Orphans stay in the tree: the sandbox's PID namespace adopts them."""
    total, todo, seen = 0, [root], set()
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        with contextlib.suppress(OSError, ValueError, IndexError):  # a process that ended meanwhile
            with open(f"/proc/{pid}/statm", "rb") as handle:
                fields_ = handle.read().split()
            total += int(fields_[1]) - int(fields_[2])
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children", "rb") as handle:
                    todo += [int(child) for child in handle.read().split()]
    return total

