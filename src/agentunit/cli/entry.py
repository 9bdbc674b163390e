"""Where the ``agentunit`` program starts: ``program`` (its console script, ``python -m agentunit``) and
``main`` (the command group, as a script calling it from Python gets it)."""

from __future__ import annotations

import gc
import sys
from typing import Any

import agentunit.cli.run_command as run_command


def main() -> None:
    """Run the command in ``sys.argv`` (click reads it); always ends by raising ``SystemExit``."""
    from agentunit.cli.commands import app

    try:
        app()
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)
    finally:
        # The process ends here: the interpreter's last collection need not go through all it loaded and ran.
        gc.freeze()


def program() -> None:
    """The ``agentunit`` program: ``main``, except that ``agentunit run`` with arguments read without click
    (``agentunit.cli.run_arguments``) runs without importing click, and that a run that ran nothing of the
    suite author's ends the process as soon as its reports are written and its store closed
    (``run_command._end_promptly``). ``main`` itself always returns by raising ``SystemExit``."""
    from agentunit.cli.run_arguments import parse_run_arguments

    run_command.AS_PROGRAM["on"] = True
    arguments = parse_run_arguments(sys.argv[1:])
    if arguments is None:
        main()
        return
    try:
        _run_without_click(arguments)
    except KeyboardInterrupt:  # as main: one that came after the command's own handling
        sys.stderr.write("interrupted\n")
        sys.exit(130)
    finally:
        gc.freeze()


def _run_without_click(arguments: dict[str, Any]) -> None:
    """``run_command.run_suite`` as click's ``main`` would call it: its context closed as it ends, an
    interrupt while loading ends it with click's ``Aborted!`` (status 1), and a reader gone from stdout or
    stderr with status 1 and nothing more written (click's ``_PacifyFlushWrapper``)."""
    import errno

    closing = run_command.Closing()
    try:
        try:
            run_command.run_suite(closing, **arguments)
        finally:
            closing.close()
    except (EOFError, KeyboardInterrupt):
        sys.stderr.write("\n")  # closes the terminal's ^C echo, as click does
        sys.stderr.write("Aborted!\n")
        sys.stderr.flush()
        sys.exit(1)
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
        import click.utils

        # click 8.5 named it _PacifyFlushWrapper (the old name is deprecated there); 8.1-8.4 have only the old one
        wrapper = getattr(click.utils, "_PacifyFlushWrapper", None) or click.utils.PacifyFlushWrapper
        sys.stdout = wrapper(sys.stdout)
        sys.stderr = wrapper(sys.stderr)
        sys.exit(1)
