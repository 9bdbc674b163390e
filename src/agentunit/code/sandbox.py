"""Run untrusted programs (model output) in a sandbox: one process tree per program, isolated and limited.

With bubblewrap (``isolation="bubblewrap"``, the default) each run gets:

- new user, PID, network, IPC, UTS and cgroup namespaces: no network at all (not even the host's
  loopback), only its own processes visible in ``/proc``, no further user namespaces;
- a filesystem of its own: ``/usr`` (and ``/bin``, ``/lib``… links) and a few ``/etc`` files read-only,
  a minimal read-only ``/dev``, a fresh size-limited tmpfs ``/sandbox`` as working directory and
  HOME (``/tmp`` points into it) and another for ``/dev/shm``; nothing else is writable, and nothing
  of the user's home, of ``/tmp`` or of the project is visible;
- an emptied environment (PATH, HOME, LANG, USER only: no API keys or tokens);
- resource limits (``setrlimit`` before exec): CPU seconds, address space, processes, file size,
  open files, no core dumps; run by root, the sandbox runs as an unused uid of its own so that the
  process limit applies (the kernel exempts root from it);
- a memory total for the whole process tree (``Limits.total_mb``, at most a quarter of the machine's
  memory): a cgroup v2 of its own (``memory.max``, ``pids.max``) where agentunit's cgroup can make one,
  else the tree's resident memory checked every 50 ms and the tree killed past the total
  (``rss-watch``); the result's ``isolation["memory"]`` says which (agentunit.code._memory);
- a wall-clock timeout after which the whole process tree is killed: the process group on the host
  and, through ``--die-with-parent`` and the PID namespace, every process inside, background and
  daemonised ones included; they are killed as well when the program ends;
- stdout and stderr read up to a cap; a program that writes more is stopped.

``isolation="none"`` (the suite's explicit ``sandbox: none``) runs the program in a temporary
directory on the host with the same environment, limits and timeout, and in new network and PID
namespaces when ``unshare`` can make them; it does not isolate the filesystem. The result's
``isolation`` names what was in effect and ``limits_hit`` every limit that was reached.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import math
import os
import resource
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from agentunit.code._memory import (
    _MIB,
    _TOTAL_HIT,
    _Cgroup,
    _memory_mechanism,
    _refuse_cgroups,
    _watch_memory,
    machine_share_mb,
)
from agentunit.code.languages import SANDBOX_PATH, command_for, get_language
from agentunit.errors import AgentUnitError, MetricConfigError

__all__ = ["ISOLATIONS", "Limits", "RunResult", "Sandbox", "SandboxUnavailable"]

ISOLATIONS = ("bubblewrap", "none")
SANDBOX_DIR = "/sandbox"
INSTALL_HINT = ("install bubblewrap (Debian/Ubuntu: `sudo apt-get install bubblewrap`; Fedora: `sudo dnf install "
                "bubblewrap`), or set `sandbox: none` in the metric's config to run without filesystem isolation")
_ETC_FILES = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "localtime", "nsswitch.conf", "hosts")
_UID_INSIDE = 1000
# Room for bubblewrap's own processes (monitor and PID 1) under the process limit.
_BWRAP_PROCESSES = 3
_READ_CHUNK = 65536
_GRACE_S = 0.5


class SandboxUnavailable(AgentUnitError):
    """The sandbox cannot isolate programs here; the message names the fix."""


@dataclass(frozen=True)
class Limits:
    """Resource limits of one run. Config keys of the code metrics have the same names.

    Args:
        timeout: wall-clock seconds before the whole process tree is killed.
        cpu_seconds: CPU seconds per process (RLIMIT_CPU); default: the timeout.
        memory_mb: address space per process (RLIMIT_AS), MiB; at most the total (``process_mb``).
        total_memory_mb: memory of the whole process tree together, MiB; default and ceiling: a quarter
            of the machine's memory (``total_mb``).
        processes: processes and threads of the sandbox's user (RLIMIT_NPROC).
        file_size_mb: largest file a process may write (RLIMIT_FSIZE), MiB.
        open_files: open file descriptors per process (RLIMIT_NOFILE).
        disk_mb: size of the sandbox's writable directory (bubblewrap's tmpfs), MiB.
        output_kb: stdout and stderr kept, each, KiB; a program that writes more is stopped.
    """

    timeout: float = 10.0
    cpu_seconds: float | None = None
    memory_mb: int = 1024
    processes: int = 64
    file_size_mb: int = 16
    open_files: int = 256
    disk_mb: int = 64
    output_kb: int = 1024
    total_memory_mb: int | None = None

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Limits:
        """The limits named in a metric's config (others keep their defaults); MetricConfigError when one
        is not a positive number."""
        values = {}
        for f in fields(cls):
            if f.name not in config or config[f.name] is None:
                continue
            value = config[f.name]
            if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
                raise MetricConfigError(f"config.{f.name} must be a positive number, got {value!r}")
            values[f.name] = value if f.name in ("timeout", "cpu_seconds") else int(value)
        return cls(**values)

    @property
    def cpu(self) -> int:
        return max(1, math.ceil(self.cpu_seconds if self.cpu_seconds is not None else self.timeout))

    @property
    def total_mb(self) -> int:
        """MiB for the whole tree: ``total_memory_mb`` (default: the machine's share), never more than the
        machine's share (a quarter of its memory, or of agentunit's cgroup limit if lower)."""
        share = machine_share_mb()
        return min(self.total_memory_mb or share, share)

    @property
    def process_mb(self) -> int:
        """RLIMIT_AS per process: ``memory_mb``, at most ``total_mb`` (one process cannot have more than all)."""
        return min(self.memory_mb, self.total_mb)

    def describe(self) -> dict[str, Any]:
        return {"timeout_s": self.timeout, "cpu_s": self.cpu, "memory_mb": self.process_mb,
                "total_memory_mb": self.total_mb, "processes": self.processes, "file_size_mb": self.file_size_mb,
                "open_files": self.open_files, "disk_mb": self.disk_mb, "output_kb": self.output_kb}


@dataclass
class RunResult:
    """What one sandboxed run did.

    ``exit_code`` is None when the sandbox killed the program (timeout, output cap); ``signal`` names
    the signal that ended it, if one did; ``limits_hit`` lists every limit reached, each with its
    value; ``isolation`` says what isolated it.
    """

    exit_code: int | None
    stdout: str
    stderr: str
    duration_s: float
    isolation: dict[str, str]
    limits_hit: list[str] = field(default_factory=list)
    signal: str | None = None

    @property
    def ok(self) -> bool:
        """Exited 0 by itself: not stopped by the sandbox, not killed by a signal. A limit the program
        ran into and coped with (a caught MemoryError) is listed in ``limits_hit`` but is no failure."""
        return self.exit_code == 0 and self.signal is None

    @property
    def timed_out(self) -> bool:
        return any(hit.startswith("timeout") for hit in self.limits_hit)

    def failure(self) -> str | None:
        """Why the run failed in one line, None when it is ok."""
        if self.ok:
            return None
        if self.limits_hit:
            return f"{self._ended()}; limit hit: " + "; ".join(self.limits_hit)
        return self._ended()

    def _ended(self) -> str:
        if self.exit_code is None:
            return "stopped by the sandbox"
        return f"killed by {self.signal}" if self.signal else f"exit code {self.exit_code}"

    def describe(self, tail: int = 1500) -> dict[str, Any]:
        """A detail for results: exit, limits, isolation, time and the tails of both streams."""
        return {"exit_code": self.exit_code, "signal": self.signal, "limits_hit": self.limits_hit,
                "duration_s": round(self.duration_s, 3), "isolation": self.isolation,
                "stdout_tail": self.stdout[-tail:], "stderr_tail": self.stderr[-tail:]}


class Sandbox:
    """Runs programs under ``isolation`` (``bubblewrap`` or ``none``) with ``limits``.

    ``run`` and ``run_program`` are coroutines: many sandboxes run at once in one event loop (the
    engine's ``-j``), each in its own process tree. The isolation is checked on first use; when it is
    unavailable ``SandboxUnavailable`` says how to get it.
    """

    def __init__(self, isolation: str = "bubblewrap", limits: Limits | None = None):
        if isolation not in ISOLATIONS:
            raise MetricConfigError(f"sandbox must be one of {', '.join(ISOLATIONS)}, got {isolation!r}")
        self.isolation = isolation
        self.limits = limits or Limits()

    async def run_program(self, code: str, language: str, *, args: Sequence[str] = (), stdin: str | None = None,
                          files: Mapping[str, str] | None = None) -> RunResult:
        """Save ``code`` under the language's file name (with any extra ``files``) and run it with ``args``."""
        lang = get_language(language)
        argv, mounts = command_for(lang, list(args))
        return await self.run({**(files or {}), lang.filename: code}, argv, stdin=stdin, mounts=mounts)

    async def run(self, files: Mapping[str, str], argv: Sequence[str], *, stdin: str | None = None,
                  mounts: Sequence[str] = ()) -> RunResult:
        """Write ``files`` into a fresh sandbox directory, run ``argv`` there and return what it did.

        ``mounts`` are host directories made visible read-only at the same path (an interpreter
        installed outside /usr). The process tree is always killed before this returns, also when the
        caller is cancelled.
        """
        for name in files:
            if not name or name.startswith("/") or ".." in name.split("/"):
                raise ValueError(f"sandbox file names are relative and stay in the directory, got {name!r}")
        uid = _sandbox_uid()
        if self.isolation == "bubblewrap":
            bwrap = _require_bubblewrap(uid is not None)
            return await self._run_bwrap(bwrap, files, list(argv), stdin, mounts, uid)
        return await self._run_host(files, list(argv), stdin, uid)

    # -- the two isolations ---------------------------------------------------------------------

    async def _run_bwrap(self, bwrap: str, files: Mapping[str, str], argv: list[str], stdin: str | None,
                         mounts: Sequence[str], uid: int | None) -> RunResult:
        fds: list[int] = []
        try:
            file_args = []
            targets = [(f"{SANDBOX_DIR}/{name}", content) for name, content in files.items()]
            for target, content in [*targets, ("/etc/passwd", _PASSWD), ("/etc/group", _GROUP)]:
                fds.append(_memfd(target, content))
                file_args += ["--file", str(fds[-1]), target]
            command = [bwrap, *_bwrap_args(self.limits, mounts), *file_args, "--remount-ro", "/",
                       "--chdir", SANDBOX_DIR, "--", *argv]
            isolation = {"mode": "bubblewrap",
                         "network": "none (new network namespace)",
                         "filesystem": f"system read-only; private {self.limits.disk_mb} MiB {SANDBOX_DIR} "
                                       "(cwd and HOME)",
                         "processes": "new PID namespace; killed with the run",
                         "user": f"uid {_UID_INSIDE} in a new user namespace"
                                 + (f" (host uid {uid})" if uid is not None else ""),
                         "environment": "emptied"}
            return await self._execute(command, stdin, cwd="/", env={"PATH": SANDBOX_PATH}, uid=uid,
                                       pass_fds=fds, isolation=isolation)
        finally:
            for fd in fds:
                os.close(fd)

    async def _run_host(self, files: Mapping[str, str], argv: list[str], stdin: str | None,
                        uid: int | None) -> RunResult:
        directory = tempfile.mkdtemp(prefix="agentunit-sandbox-")
        try:
            for name, content in files.items():
                path = os.path.join(directory, name)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8") as handle:
                    handle.write(content)
            if uid is not None:  # the program runs as its own uid and writes here
                for root, dirs, names in os.walk(directory):
                    for name in (*dirs, *names, ""):
                        os.chown(os.path.join(root, name), uid, uid)
            unshare = _unshare_prefix(uid is not None)
            isolation = {"mode": "none",
                         "network": "none (new network namespace)" if unshare else "host network",
                         "filesystem": "none: the program sees the host's files (sandbox: none)",
                         "processes": "new PID namespace; killed with the run" if unshare else
                                      "process group killed with the run",
                         "user": f"host uid {uid}" if uid is not None else f"host uid {os.getuid()} (yours)",
                         "environment": "emptied"}
            env = {"PATH": SANDBOX_PATH, "HOME": directory, "TMPDIR": directory, "LANG": "C.UTF-8",
                   "USER": "sandbox", "LOGNAME": "sandbox"}
            return await self._execute([*unshare, *argv], stdin, cwd=directory, env=env, uid=uid, pass_fds=[],
                                       isolation=isolation, host_disk=True)
        finally:
            shutil.rmtree(directory, ignore_errors=True)

    # -- running and watching the process tree --------------------------------------------------

    async def _execute(self, command: list[str], stdin: str | None, *, cwd: str, env: dict[str, str],
                       uid: int | None, pass_fds: list[int], isolation: dict[str, str],
                       host_disk: bool = False) -> RunResult:
        limits = self.limits
        cap = limits.output_kb * 1024
        hits: list[str] = []
        start = time.monotonic()
        pids = limits.processes + _BWRAP_PROCESSES
        group = _Cgroup.make(limits.total_mb, pids)
        try:
            process = await self._spawn(command, stdin, cwd, env, uid, pass_fds, group)
        except subprocess.SubprocessError:  # the child could not enter the cgroup: the program never ran
            if group is None:
                raise
            group.remove()
            _refuse_cgroups()
            group = None
            process = await self._spawn(command, stdin, cwd, env, uid, pass_fds, group)
        except BaseException:
            if group is not None:
                group.remove()
            raise
        isolation = {**isolation, "memory": _memory_mechanism(group, limits.total_mb, limits.process_mb, pids)}

        def stop(why: str) -> None:
            if why not in hits:
                hits.append(why)
            _kill_tree(process.pid, uid)

        captures = {"stdout": bytearray(), "stderr": bytearray()}
        readers = [asyncio.ensure_future(_read_capped(stream, captures[name], cap, functools.partial(
            stop, f"output: {name} over {limits.output_kb} KiB, program stopped")))
            for name, stream in (("stdout", process.stdout), ("stderr", process.stderr))]
        writer = asyncio.ensure_future(_feed(process.stdin, stdin)) if stdin is not None else None
        watcher = None if group is not None else \
            asyncio.ensure_future(_watch_memory(process.pid, limits.total_mb, stop))
        try:
            try:
                await asyncio.wait_for(process.wait(), limits.timeout)
            except asyncio.TimeoutError:
                stop(f"timeout: {limits.timeout:g} s wall clock, process tree killed")
                await process.wait()
        finally:
            # Whatever happened (normal exit, timeout, the caller cancelled), no process survives the run.
            if watcher is not None:
                watcher.cancel()
            if group is not None:
                group.kill()
            _kill_tree(process.pid, uid)
            if process.returncode is None:
                with contextlib.suppress(Exception):
                    await asyncio.shield(process.wait())
            await _until_gone(process.pid, uid)
            if group is not None:
                if group.out_of_memory():
                    hits.append(f"{_TOTAL_HIT.format(limits.total_mb)} (cgroup), killed by the kernel")
                await group.remove_when_empty()
            # A pipe held open by a process outside the tree must not hold the run: what was read is kept.
            _, pending = await asyncio.wait([*readers, *([writer] if writer else [])], timeout=_GRACE_S)
            for task in pending:
                task.cancel()
        duration = time.monotonic() - start
        out, err = (bytes(captures[n]).decode("utf-8", "replace") for n in ("stdout", "stderr"))
        killed_by_us = any(h.startswith(("timeout", "output", _TOTAL_HIT.format(limits.total_mb) + " (rss"))
                           for h in hits)
        code, sig = _exit_status(process.returncode, bwrap=isolation["mode"] == "bubblewrap" or
                                 isolation["processes"].startswith("new PID"))
        hits += _limits_from_exit(code, sig, err, limits, host_disk, already=hits)
        return RunResult(exit_code=None if killed_by_us else code, stdout=out, stderr=err, duration_s=duration,
                         isolation=isolation, limits_hit=hits, signal=sig)

    async def _spawn(self, command: list[str], stdin: str | None, cwd: str, env: dict[str, str], uid: int | None,
                     pass_fds: list[int], group: _Cgroup | None) -> asyncio.subprocess.Process:
        """Start ``command`` in a new session under the limits (in ``group``'s cgroup when given), as ``uid``."""
        setup = functools.partial(_apply_limits, self.limits, _process_allowance(uid, self.limits), uid,
                                  group.procs_fd if group is not None else None)
        return await asyncio.create_subprocess_exec(
            *command, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, cwd=cwd, env=env, start_new_session=True, pass_fds=pass_fds, preexec_fn=setup)


# -- helpers ------------------------------------------------------------------------------------

_PASSWD = f"sandbox:x:{_UID_INSIDE}:{_UID_INSIDE}:sandbox:{SANDBOX_DIR}:/bin/sh\n"
_GROUP = f"sandbox:x:{_UID_INSIDE}:\n"


def _memfd(name: str, content: str) -> int:
    """A memory-only file holding ``content``, read by bubblewrap into the sandbox (no host file)."""
    fd = os.memfd_create(f"agentunit-{os.path.basename(name)}", 0)
    data = content.encode("utf-8")
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def _system_mounts() -> list[str]:
    """The read-only system: /usr, the top-level links into it (or the directories themselves on
    systems without merged /usr) and the /etc files that programs need to start."""
    args = ["--ro-bind", "/usr", "/usr"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    for name in _ETC_FILES:
        args += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    return args


def _bwrap_args(limits: Limits, mounts: Sequence[str]) -> list[str]:
    args = ["--die-with-parent", "--new-session", "--unshare-all", "--unshare-user", "--disable-userns",
            "--uid", str(_UID_INSIDE), "--gid", str(_UID_INSIDE), "--hostname", "sandbox", *_system_mounts()]
    for mount in mounts:
        args += ["--ro-bind", mount, mount]
    size = str(limits.disk_mb * 1024 * 1024)
    # /dev is a tmpfs too: read-only but for a size-limited /dev/shm (POSIX semaphores, multiprocessing).
    args += ["--proc", "/proc", "--dev", "/dev", "--size", size, "--tmpfs", "/dev/shm", "--remount-ro", "/dev",
             "--size", size, "--tmpfs", SANDBOX_DIR,
             "--dir", f"{SANDBOX_DIR}/.tmp", "--symlink", f"{SANDBOX_DIR}/.tmp", "/tmp",
             "--clearenv", "--setenv", "PATH", SANDBOX_PATH, "--setenv", "HOME", SANDBOX_DIR,
             "--setenv", "TMPDIR", f"{SANDBOX_DIR}/.tmp", "--setenv", "LANG", "C.UTF-8",
             "--setenv", "USER", "sandbox", "--setenv", "LOGNAME", "sandbox"]
    return args


@functools.lru_cache(maxsize=4)
def _require_bubblewrap(drop_root: bool) -> str:
    """bubblewrap's path, once checked to start a sandbox here; SandboxUnavailable names the fix otherwise."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise SandboxUnavailable(f"no filesystem and network isolation: bubblewrap (bwrap) is not installed; "
                                 f"{INSTALL_HINT}")
    extra: dict[str, Any] = {"user": _UID_BASE, "group": _UID_BASE, "extra_groups": []} if drop_root else {}
    probe = subprocess.run([bwrap, *_bwrap_args(Limits(), ()), "--remount-ro", "/", "--", "true"],
                           capture_output=True, text=True, timeout=30, env={"PATH": SANDBOX_PATH}, cwd="/", **extra)
    if probe.returncode != 0:
        raise SandboxUnavailable(
            f"bubblewrap cannot create a sandbox here ({probe.stderr.strip() or f'exit {probe.returncode}'}); "
            "it needs unprivileged user namespaces (`sysctl kernel.unprivileged_userns_clone=1`, and on Ubuntu "
            "24.04+ `sysctl kernel.apparmor_restrict_unprivileged_userns=0` or an AppArmor profile for bwrap); "
            "in a container, run it with user namespaces allowed (e.g. docker --security-opt seccomp=unconfined); "
            "or set `sandbox: none`")
    return bwrap


@functools.lru_cache(maxsize=4)
def _unshare_prefix(drop_root: bool) -> tuple[str, ...]:
    """``unshare`` options giving a run without bubblewrap its own network and PID namespaces, when the
    system allows them; empty otherwise."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return ()
    prefix = (unshare, "--net", "--pid", "--fork", "--kill-child", "--mount-proc")
    if drop_root or os.geteuid() != 0:
        prefix = (*prefix, "--map-root-user")
    extra: dict[str, Any] = {"user": _UID_BASE, "group": _UID_BASE, "extra_groups": []} if drop_root else {}
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        if subprocess.run([*prefix, "true"], capture_output=True, timeout=30, cwd="/", **extra).returncode == 0:
            return prefix
    return ()


# Run by root, every sandbox gets a uid no account uses: RLIMIT_NPROC counts a user's processes and
# does not apply to root at all, and a uid per sandbox keeps parallel sandboxes from sharing the count.
_UID_BASE = 100_000_000 + (os.getpid() % 16384) * 4096
_uid_counter = itertools.count(1)


def _sandbox_uid() -> int | None:
    if os.geteuid() != 0:
        return None
    return _UID_BASE + next(_uid_counter) % 4095 + 1


def _process_allowance(uid: int | None, limits: Limits) -> int:
    """RLIMIT_NPROC for the run. It counts every task of the (real) user, so a run under the caller's
    own uid is allowed the caller's current tasks plus the limit."""
    allowance = limits.processes + _BWRAP_PROCESSES
    return allowance if uid is not None else allowance + _tasks_of(os.getuid())


def _tasks_of(uid: int) -> int:
    count = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            with open(f"/proc/{entry.name}/status", encoding="ascii", errors="replace") as handle:
                status = handle.read()
            fields_ = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
            if int(fields_["Uid"].split()[0]) == uid:
                count += int(fields_.get("Threads", "1"))
    return count


def _apply_limits(limits: Limits, processes: int, uid: int | None, cgroup_procs: int | None) -> None:
    """Runs in the child between fork and exec (so only system calls): into the cgroup, the limits, then
    the uid — in that order, since moving into a cgroup needs the privileges the uid change gives up."""
    if cgroup_procs is not None:
        os.write(cgroup_procs, b"0")  # "0": this process; what it starts is born inside
    for which, value in ((resource.RLIMIT_AS, limits.process_mb * _MIB),
                         (resource.RLIMIT_NPROC, processes),
                         (resource.RLIMIT_FSIZE, limits.file_size_mb * _MIB),
                         (resource.RLIMIT_NOFILE, limits.open_files),
                         (resource.RLIMIT_CORE, 0)):
        resource.setrlimit(which, (value, value))
    # SIGXCPU at the soft limit, SIGKILL a second later if the program catches it.
    resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu, limits.cpu + 1))
    if uid is not None:
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)


def _kill_tree(pid: int, uid: int | None) -> int:
    """SIGKILL the run's process group; with a uid of its own, every live process of that uid as well (a
    program that started a new session left the group). Returns how many of those were still alive."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
    alive = 0
    if uid is not None:
        for entry in os.scandir("/proc"):
            if entry.name.isdigit():
                with contextlib.suppress(OSError, ValueError, IndexError):
                    with open(f"{entry.path}/stat", "rb") as handle:
                        state = handle.read().rsplit(b")", 1)[1].split()[0]
                    if state != b"Z" and os.stat(entry.path).st_uid == uid:
                        alive += 1
                        os.kill(int(entry.name), signal.SIGKILL)
    return alive


async def _until_gone(pid: int, uid: int | None) -> None:
    """Kill until no process of the run is alive (a dying PID namespace takes a few milliseconds)."""
    deadline = time.monotonic() + _GRACE_S * 4
    while _kill_tree(pid, uid) and time.monotonic() < deadline:
        await asyncio.sleep(0.01)


async def _read_capped(stream: asyncio.StreamReader, kept: bytearray, cap: int, overflow: Any) -> None:
    """Read ``stream`` into ``kept`` to its end, up to ``cap`` bytes; past the cap, call ``overflow`` and stop."""
    while True:
        chunk = await stream.read(_READ_CHUNK)
        if not chunk:
            return
        room = cap - len(kept)
        kept += chunk[:room]
        if len(chunk) > room:
            overflow()
            return


async def _feed(stdin: asyncio.StreamWriter, data: str) -> None:
    """Write ``data`` to the program's stdin and close it; a program that stops reading is not an error."""
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        stdin.write(data.encode("utf-8"))
        await stdin.drain()
        stdin.close()


_SIGNALS_FROM_EXIT = {signal.SIGKILL, signal.SIGXCPU, signal.SIGXFSZ, signal.SIGSEGV, signal.SIGABRT,
                      signal.SIGTERM, signal.SIGBUS, signal.SIGILL, signal.SIGFPE}


def _exit_status(returncode: int | None, *, bwrap: bool) -> tuple[int | None, str | None]:
    """The program's exit code and the signal that ended it. A negative code is a signal; bubblewrap
    and ``unshare --fork`` report their child's death by signal N as exit 128 + N."""
    if returncode is None:
        return None, None
    if returncode < 0:
        return returncode, signal.Signals(-returncode).name
    if bwrap and returncode > 128 and (returncode - 128) in {int(s) for s in _SIGNALS_FROM_EXIT}:
        return returncode, signal.Signals(returncode - 128).name
    return returncode, None


# Messages by which programs report a limit they ran into (Python, Node, the shell, libc).
_LIMIT_MESSAGES = (
    ("memory", ("MemoryError", "out of memory", "Cannot allocate memory", "std::bad_alloc",
                "allocation failed", "failed to reserve")),
    ("file size", ("File too large", "EFBIG")),
    ("disk", ("No space left on device", "ENOSPC")),
    ("processes", ("Resource temporarily unavailable", "BlockingIOError", "EAGAIN", "fork: retry",
                   "can't start new thread")),
    ("open files", ("Too many open files", "EMFILE")),
)


def _limits_from_exit(code: int | None, sig: str | None, stderr: str, limits: Limits, host_disk: bool,
                      already: list[str]) -> list[str]:
    """The limits a run reached, from the signal that ended it and the errors it printed (a program
    that caught the error and exited 0 still passes; the limit is reported)."""
    found = []
    names = {"memory": f"memory: {limits.process_mb} MiB address space",
             "file size": f"file size: {limits.file_size_mb} MiB per file",
             "disk": "disk: the host disk is full" if host_disk else f"disk: {limits.disk_mb} MiB sandbox directory",
             "processes": f"processes: {limits.processes}",
             "open files": f"open files: {limits.open_files}"}
    if sig == "SIGXCPU":
        found.append(f"cpu: {limits.cpu} s")
    if sig == "SIGXFSZ":
        found.append(names["file size"])
    tail = stderr[-20000:]
    for key, needles in _LIMIT_MESSAGES:
        if names[key] not in found and names[key] not in already and any(n in tail for n in needles):
            found.append(names[key])
    return found
