"""The ``agentunit`` command line: run, init, calibrate, compare, metrics, import, models, view.

Exit codes (contract): 0 every case passed · 1 some case failed or errored · 2 bad usage or an
invalid suite (the message names file:line); ``calibrate`` reports and does not gate: 0 when it ran.

``program`` is the console script; ``main`` runs the command group (``app``, built on click, in
``agentunit.cli.commands``: imported when first asked for, since ``agentunit run`` may not need it).
"""

from __future__ import annotations

from typing import Any

from agentunit.cli.entry import main, program
from agentunit.cli.usage import EXIT_FAILED, EXIT_OK, EXIT_USAGE

__all__ = ["EXIT_FAILED", "EXIT_OK", "EXIT_USAGE", "app", "main", "program"]


def __getattr__(name: str) -> Any:  # the commands (``app``, …), from the click module when first asked for
    if name.startswith("__"):
        raise AttributeError(name)
    import importlib

    commands = importlib.import_module("agentunit.cli.commands")
    try:
        return getattr(commands, name)
    except AttributeError:
        raise AttributeError(f"module 'agentunit.cli' has no attribute {name!r}") from None
