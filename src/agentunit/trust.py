"""The trust boundary for files: one gate that every reader of a named file goes through.

The suite file is its author's configuration. Every file it reaches as *data* — a cases file's media,
a promptfoo tests file's ``file://`` vars, a target reply's media path — was named by whoever wrote
that data, so a path named there may reach only a regular file inside the suite's folder or a folder
the suite file allows (``options.allow_paths``). Files the author names in the suite file itself may
lie anywhere, but every reader still refuses what is not a regular file (devices such as
``/dev/zero``, FIFOs, folders) and anything under ``/proc``, ``/sys`` or ``/dev``, and checks the size
before reading.

Algorithm of ``FileGate.open``: resolve the path (symlinks followed, so ``link -> /etc/shadow`` is
judged by where it leads); refuse it outside the gate's roots; refuse the system folders; open the
resolved path without blocking (a FIFO cannot hang the run) and without following a link swapped in
since; ``fstat`` the open descriptor (what is read is what was checked) and refuse anything but a
regular file, or one larger than ``max_bytes``; read at most ``max_bytes + 1`` bytes, since a file
may grow after the check.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

from agentunit.errors import AgentUnitError

SYSTEM_FOLDERS = ("/proc", "/sys", "/dev")
ALLOW_OPTION = "allow_paths"  # the suite option listing the folders data may also reach
DEFAULT_MAX_BYTES = 64 * 1024 * 1024


class PathRefused(AgentUnitError):
    """A named file the gate refuses: outside the allowed folders, not a regular file, or too large.

    ``reason`` says why in a sentence without the file's content; ``suggestion`` the way to allow it.
    """

    def __init__(self, reason: str, *, path: str, suggestion: str | None = None) -> None:
        super().__init__(f"{path}: {reason}" + (f" — {suggestion}" if suggestion else ""))
        self.reason, self.path, self.suggestion = reason, path, suggestion


class FileGate:
    """Where named files may be read from, and how much of them.

    ``roots``: the resolved folders a path must lie in (None: anywhere, for the author's own
    references); ``max_bytes``: the largest file read; ``whose``: how refusals name the writer of the
    path ("a cases file", "a target reply"), for messages.
    """

    __slots__ = ("max_bytes", "roots", "whose")

    def __init__(self, roots: Iterable[str | Path] | None, *, max_bytes: int = DEFAULT_MAX_BYTES,
                 whose: str = "data") -> None:
        self.roots = None if roots is None else tuple(_real_folder(r) for r in roots)
        self.max_bytes = max_bytes
        self.whose = whose

    def resolve(self, path: str | Path) -> Path:
        """The real path of ``path`` once the folder rules allow it (nothing is opened).
        Raises PathRefused, or FileNotFoundError for a path that does not exist."""
        shown = str(path)
        real = Path(os.path.realpath(path))
        if not real.exists():
            raise FileNotFoundError(2, "No such file or directory", shown)
        if _inside_any(real, SYSTEM_FOLDERS):
            raise PathRefused(f"{real} is a system file ({', '.join(SYSTEM_FOLDERS)} are never read)", path=shown,
                              suggestion="copy what you need into a regular file in the suite's folder")
        if self.roots is not None and not _inside_any(real, self.roots):
            folders = " or ".join(self.roots) or "no folder"
            raise PathRefused(f"{self.whose} may only name files inside {folders}, and this leads to {real}",
                              path=shown, suggestion=f"move the file into the suite's folder, or list its folder "
                                                     f"under `options: {{{ALLOW_OPTION}: [...]}}` in the suite file")
        return real

    def open(self, path: str | Path) -> BinaryIO:
        """A binary file object for a regular file the gate allows (see the module's algorithm).
        Raises PathRefused, or OSError (a file that does not exist, cannot be read)."""
        real = self.resolve(path)
        flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        descriptor = os.open(real, flags)
        try:
            facts = os.fstat(descriptor)
            if not stat.S_ISREG(facts.st_mode):
                raise PathRefused(f"{real} is not a regular file ({_kind(facts.st_mode)})", path=str(path),
                                  suggestion="name a regular file")
            if facts.st_size > self.max_bytes:
                raise PathRefused(f"{real} holds {facts.st_size:,} bytes, above the limit of {self.max_bytes:,}",
                                  path=str(path), suggestion="name a smaller file")
            os.set_blocking(descriptor, True)
            return os.fdopen(descriptor, "rb")
        except BaseException:
            os.close(descriptor)
            raise

    def read_bytes(self, path: str | Path) -> bytes:
        """The bytes of an allowed regular file of at most ``max_bytes`` (read bounded, in case it grew)."""
        with self.open(path) as handle:
            data = handle.read(self.max_bytes + 1)
        if len(data) > self.max_bytes:
            raise PathRefused(f"{path} grew past the limit of {self.max_bytes:,} bytes while read", path=str(path))
        return data

    def read_text(self, path: str | Path) -> str:
        """``read_bytes`` decoded as UTF-8 (raises UnicodeDecodeError)."""
        return self.read_bytes(path).decode("utf-8")


def suite_gate(folder: str | Path | None, allowed: Iterable[str] | None = None, *, max_bytes: int = DEFAULT_MAX_BYTES,
               whose: str = "data") -> FileGate:
    """The gate for data of a suite whose file lies in ``folder`` (None: the working directory): the
    folder itself and each ``allowed`` folder (relative ones from the suite's folder)."""
    base = Path(folder) if folder is not None else Path.cwd()
    roots = [base, *(base / Path(a).expanduser() for a in allowed or ())]
    return FileGate(roots, max_bytes=max_bytes, whose=whose)


AUTHOR_GATE = FileGate(None, whose="the suite file")  # the author's own references: anywhere, regular files only

def _real_folder(folder: str | Path) -> str:
    return os.path.realpath(folder)


def _inside_any(real: Path, folders: Iterable[str]) -> bool:
    text = str(real)
    return any(text == f or text.startswith(f.rstrip(os.sep) + os.sep) for f in folders)


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


__all__ = ["ALLOW_OPTION", "AUTHOR_GATE", "DEFAULT_MAX_BYTES", "SYSTEM_FOLDERS", "FileGate", "PathRefused",
           "suite_gate"]
