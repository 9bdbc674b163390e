"""Helpers for the sandbox tests: the bubblewrap requirement and a synchronous run."""

from __future__ import annotations

import os
import shutil
from typing import Any

import pytest

from agentunit.code.sandbox import Limits, RunResult, Sandbox
from agentunit.core.sync import run_blocking

# In CI (root) `make test` installs bubblewrap, so a missing bwrap fails there; elsewhere it skips.
requires_bwrap = pytest.mark.skipif(
    shutil.which("bwrap") is None and os.geteuid() != 0,
    reason="bubblewrap is not installed: sudo apt-get install bubblewrap (make test installs it as root)")


def run(code: str, language: str = "python", *, isolation: str = "bubblewrap", stdin: str | None = None,
        args: tuple[str, ...] = (), files: dict[str, str] | None = None, **limits: Any) -> RunResult:
    """Run ``code`` in a sandbox. The default timeout (60 s) is far above what a program that ends takes, even
    on a busy machine; a test of a program that only the timeout ends gives a short one itself."""
    limits.setdefault("timeout", 60)
    sandbox = Sandbox(isolation, Limits(**limits))
    return run_blocking(sandbox.run_program(code, language, args=args, stdin=stdin, files=files))


def host_processes_with(token: str) -> list[int]:
    """Host PIDs whose command line holds ``token``."""
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/cmdline", "rb") as handle:
                    if token.encode() in handle.read():
                        found.append(int(entry.name))
            except OSError:
                pass
    return found
