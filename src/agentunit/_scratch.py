"""A run's scratch files and folders (validation helpers' results, spooled cases and report lines, the
ranges' databases) in the system's temporary folder, without importing ``tempfile`` at start-up.

``tempfile`` imports ``shutil`` and ``random``, and ``shutil`` imports zlib, bz2 and lzma: ~4 ms of every
run's start-up (issue 20) for three calls. On Linux an unnamed file is one ``open(O_TMPFILE)`` in the
folder ``tempfile`` would choose, a folder one ``mkdir``; anywhere else, and whenever that fails, the
work is ``tempfile``'s (and ``shutil.rmtree``'s) as before.
"""

from __future__ import annotations

import os
import sys
from typing import IO

_UNNAMED = getattr(os, "O_TMPFILE", 0)  # Linux ≥ 3.11; tempfile.TemporaryFile uses it there too


def temporary_folder() -> str:
    """The folder ``tempfile.gettempdir()`` chooses when its first choice is usable: ``tempfile.tempdir``
    when set, else the first non-empty ``$TMPDIR``, ``$TEMP``, ``$TMP``, else ``/tmp`` (``tempfile``'s own
    choice on systems other than POSIX)."""
    loaded = sys.modules.get("tempfile")
    if loaded is not None and loaded.tempdir is not None:
        return os.path.abspath(loaded.tempdir)
    if os.name != "posix":
        import tempfile

        return tempfile.gettempdir()
    for name in ("TMPDIR", "TEMP", "TMP"):
        value = os.environ.get(name)
        if value:
            return os.path.abspath(value)
    return "/tmp"


def scratch_file(prefix: str = "tmp") -> IO[bytes]:
    """A binary read-write file with no name, gone when closed, as ``tempfile.TemporaryFile(prefix=…)``
    makes it (``prefix`` names it only where ``tempfile`` has to)."""
    if _UNNAMED:
        try:
            return open(os.open(temporary_folder(), os.O_RDWR | os.O_EXCL | _UNNAMED, 0o600), "w+b")
        except OSError:  # no such folder, a file system without unnamed files: tempfile's way
            pass
    import tempfile

    return tempfile.TemporaryFile(prefix=prefix)


def scratch_folder(prefix: str) -> str:
    """A new folder readable by this user only, named ``prefix`` and random letters, in the temporary
    folder (as ``tempfile.mkdtemp(prefix=…)``); its absolute path."""
    if os.name == "posix":
        base = temporary_folder()
        for _ in range(100):
            path = os.path.join(base, prefix + os.urandom(6).hex())
            try:
                os.mkdir(path, 0o700)
                return path
            except FileExistsError:
                continue
            except OSError:  # the folder cannot be used: tempfile tries its other choices
                break
    import tempfile

    return tempfile.mkdtemp(prefix=prefix)


_BLOCK = 1 << 16  # shutil.copyfileobj's block on Linux: the memory a copy holds at once


def remove_folder(path: str | os.PathLike[str]) -> None:
    """Remove the folder ``path`` and what it holds, ignoring errors (``shutil.rmtree(path, ignore_errors=True)``).

    As ``shutil.rmtree`` does, it walks by file descriptor and follows no link, ``path`` included: a link is
    removed, never what it points to, and a folder swapped for a link while it is walked is left alone.
    What cannot be removed this way is left to ``shutil``.
    """
    try:
        _empty(os.fspath(path), None)
        os.rmdir(path)
    except OSError:
        import shutil

        shutil.rmtree(path, ignore_errors=True)


def _empty(name: str, parent: int | None) -> None:
    """Remove what the folder ``name`` (in the folder open as ``parent``; None: the working one) holds."""
    folder = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=parent)
    try:
        with os.scandir(folder) as entries:
            inside = [(entry.name, entry.is_dir(follow_symlinks=False)) for entry in entries]
        for entry, is_folder in inside:
            if is_folder:
                _empty(entry, folder)
                os.rmdir(entry, dir_fd=folder)
            else:
                os.unlink(entry, dir_fd=folder)
    finally:
        os.close(folder)


def copy_file(source: IO[bytes], target: IO[bytes]) -> None:
    """Copy what is left of ``source`` to ``target`` in blocks (``shutil.copyfileobj``)."""
    while block := source.read(_BLOCK):
        target.write(block)
