"""Run leases: one process at a time runs a run (a new run, or one continued with ``--resume``).

Without a lease, two ``--resume`` of one run started together both read the same committed cases and
both run every remaining case. The store takes the run's lease as it starts or continues the run and
lets it go when the run ends or the store closes; a second process asking for it gets ``RunHeldError``
naming the run and the process that holds it.

Either lease ends with its holder, however it ends (SIGKILL included), so a dead holder's run can be
continued at once and no liveness check (a pid reused, another host) is needed:

- SQLite: an exclusive ``flock`` on ``DB-run-RUN.lock`` beside the database file, holding the holder's
  description (pid, host, start) for the message. The file is removed when the lease is let go. SQLite's
  write-ahead log needs every writer on one host, so a lock of that host's kernel suffices. A process
  forked while the lease is held closes its copy of the lock file at once: the lease is the forking
  process's alone, and does not outlive it in a child.
- PostgreSQL: a session advisory lock (``pg_try_advisory_lock``) on two keys, a fixed namespace and a
  32-bit hash of the run id; the holding session's ``application_name`` carries the description.
"""

from __future__ import annotations

import os
import weakref
from pathlib import Path
from typing import Any

from agentunit.errors import AgentUnitError

# PostgreSQL advisory lock namespace of run leases ("agru"): the two-key form, apart from the schema
# upgrade lock (``agentunit.store.schema``, one bigint key).
PG_LEASE_NAMESPACE = 0x61677275
_SAFE_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")
_ATTEMPTS = 20  # tries to lock the file now at the path (it is removed and made again as leases end)


class RunHeldError(AgentUnitError):
    """Another process holds the run: it is running it now, or continuing it."""

    def __init__(self, run_id: str, holder: str | None):
        by = f"another agentunit process ({holder})" if holder else "another agentunit process"
        super().__init__(f"run {run_id} is being run by {by}: one process at a time runs a run. Wait for it "
                         f"to end (or stop it), then --resume {run_id} continues what is left")
        self.run_id, self.holder = run_id, holder


def describe_holder() -> str:
    """This process, as a lease names its holder: ``pid N on HOST since TIME`` (UTC). The host name comes from
    ``os.uname`` where there is one: importing ``socket`` for it would cost every run ~5 ms of start-up."""
    import time

    if hasattr(os, "uname"):
        host = os.uname().nodename
    else:  # pragma: no cover - Windows
        import socket

        host = socket.gethostname()
    since = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    return f"pid {os.getpid()} on {host} since {since}"


def lease_file(db_path: str, run_id: str) -> Path | None:
    """The lock file of run ``run_id`` in the SQLite database at ``db_path``: ``DB-run-RUN.lock`` beside it
    (a run id that is not a plain file name is replaced by its sha256); None for a database in memory, which
    no other process can open."""
    path = db_path
    if path.startswith("file:"):  # a SQLite URI: its path, without the query
        path = path[len("file:"):].split("?", 1)[0]
        if "mode=memory" in db_path:
            return None
    if path in ("", ":memory:"):
        return None
    name = run_id if _plain_name(run_id) else _sha256(run_id).hex()
    return Path(f"{path}-run-{name}.lock")


def _plain_name(run_id: str) -> bool:
    """Whether ``run_id`` can be part of a file name as it is (agentunit's own ids always can)."""
    return 0 < len(run_id) <= 80 and run_id not in (".", "..") and set(run_id) <= _SAFE_CHARACTERS


def _sha256(text: str) -> bytes:
    import hashlib  # here: only an unusual run id or a PostgreSQL lease needs it (hashlib loads OpenSSL)

    return hashlib.sha256(text.encode("utf-8", "replace")).digest()


# Leases held by this process, closed in a child as it is forked (``_forget_in_child``).
_HELD: weakref.WeakSet[FileLease] = weakref.WeakSet()


class FileLease:
    """A run's lease on SQLite: an exclusive ``flock`` on its lock file (see the module docstring)."""

    def __init__(self, path: Path, run_id: str):
        self.path, self.run_id = path, run_id
        self._file: Any = None

    def acquire(self) -> None:
        """Lock the file at ``path`` without waiting, or raise ``RunHeldError`` with the holder's description.

        The file at the path may be removed by the holder letting go between our open and our lock: the
        lock is ours only if the file we locked is still the one at the path (same device and inode);
        else we try again with the file there now."""
        import fcntl

        self.path.parent.mkdir(parents=True, exist_ok=True)
        for _ in range(_ATTEMPTS):
            handle = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 - kept open while the lease is held
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _read_holder(handle)
                handle.close()
                raise RunHeldError(self.run_id, holder) from None
            if _same_file(handle, self.path):
                try:  # who holds it, for a process refused
                    handle.seek(0)
                    handle.truncate()
                    handle.write(describe_holder())
                    handle.flush()
                except OSError:
                    handle.close()
                    raise
                self._file = handle
                _HELD.add(self)
                return
            handle.close()  # locked a file already removed: try the one at the path now
        raise RunHeldError(self.run_id, None)

    def release(self) -> None:
        """Remove the lock file, then unlock it (removing it while locked: no one holds a removed file)."""
        handle, self._file = self._file, None
        if handle is None:
            return
        _HELD.discard(self)
        if _same_file(handle, self.path):
            self.path.unlink(missing_ok=True)
        handle.close()  # closing the last descriptor of the file unlocks it

    def _forget(self) -> None:
        """In a forked child: close the inherited descriptor, unlocking nothing (the parent keeps its own)."""
        handle, self._file = self._file, None
        if handle is not None:
            handle.close()


def _same_file(handle: Any, path: Path) -> bool:
    """Whether ``handle`` is open on the file now at ``path``."""
    try:
        here, there = os.fstat(handle.fileno()), os.stat(path)
    except OSError:
        return False
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


def _read_holder(handle: Any) -> str | None:
    """The holder's description written in the lock file (None while it is still being written)."""
    try:
        handle.seek(0)
        text = handle.read(400).strip()
    except (OSError, ValueError):
        return None
    return text or None


def take_file_lease(db_path: str, run_id: str) -> FileLease | None:
    """Run ``run_id``'s lease in the SQLite database at ``db_path`` (None: a database in memory, a system
    without ``flock`` or a folder where no lock file can be made, where runs are not leased); ``RunHeldError``
    when another process holds it."""
    path = lease_file(db_path, run_id)
    if path is None:
        return None
    try:
        import fcntl  # noqa: F401 - POSIX only
    except ImportError:  # pragma: no cover - Windows: no lease
        return None
    lease = FileLease(path, run_id)
    try:
        lease.acquire()
    except OSError:  # no lock file can be made there (a read-only folder): the run goes on, unleased
        return None
    return lease


def pg_lease_keys(run_id: str) -> tuple[int, int]:
    """The two int4 keys of run ``run_id``'s advisory lock: the namespace, and a signed 32-bit hash of the id."""
    return PG_LEASE_NAMESPACE, int.from_bytes(_sha256(run_id)[:4], "big", signed=True)


def _forget_in_child() -> None:
    for lease in list(_HELD):
        lease._forget()
    _HELD.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)
