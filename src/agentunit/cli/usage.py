"""What every command shares, without click: exit codes, usage errors, and the values of shared options.

The conversions here are the ones click's parameter types call (``agentunit.cli.commands``) and the ones
``agentunit.cli.run_arguments`` calls when it reads ``agentunit run``'s arguments itself: one rule each.
"""

from __future__ import annotations

import contextlib
import math
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from agentunit.errors import AgentUnitError, SuiteError

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
COUNT_MAX = 2**63 - 1  # counts (-j, --repeat, --processes) are stored as SQLite integers
DEFAULT_DATABASE = Path(".agentunit/agentunit.db")
DATABASE_VARIABLE = "AGENTUNIT_DB"
EXECUTORS = ("local", "ray")  # where `run` runs its cases; the first is the default


def open_store(db: Path | str) -> Any:
    """The results database at ``db`` (``agentunit.store.sqlite.Store``), or the usage error (exit 2) naming it."""
    from agentunit.store.sqlite import Store

    try:
        return Store(db)
    except AgentUnitError as exc:  # PostgreSQL unreachable, a newer schema: the message names the database
        raise fail_usage(str(exc)) from None
    except Exception as exc:  # sqlite3 and file-system errors: a bad --db is a usage problem
        raise fail_usage(f"cannot open the results database {shown(db)}: {type(exc).__name__}: {exc}") from None


def fail_usage(message: str) -> SystemExit:
    """Print ``error: message`` (made printable) on stderr; the exit (status 2) to raise."""
    from agentunit.suite.problems import printable

    sys.stderr.write(f"error: {printable(message)}\n")
    return SystemExit(EXIT_USAGE)


@contextlib.contextmanager
def suite_problems(suite: Path) -> Iterator[None]:
    """Loading a suite: its problems printed one per line, anything else one line — exit 2, never a
    traceback."""
    try:
        yield
    except SuiteError as exc:
        for problem in exc.problems:
            sys.stderr.write(f"{problem}\n")
        raise SystemExit(EXIT_USAGE) from None
    except AgentUnitError as exc:
        raise fail_usage(str(exc)) from None
    except Exception as exc:  # a bug or an input no check foresaw: still a one-line answer, never a traceback
        raise fail_usage(f"{suite}: cannot load the suite: {type(exc).__name__}: {exc}") from None


def shown(db: Path | str) -> str:
    """The database as it may be printed: a URL's password replaced by ``***``."""
    from agentunit.store.location import redact_url

    return redact_url(db)


def seconds(value: str | float) -> float:
    """``--timeout``: a finite number of seconds > 0 (ValueError names what is wrong)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{value!r} is not a number of seconds") from None
    if not math.isfinite(number) or number <= 0:
        raise ValueError(f"{value!r} is not a finite number of seconds > 0")
    return number


def database_location(value: str | Path) -> Path | str:
    """``--db``: a SQLite file path, or a ``postgresql://`` URL kept as text (ValueError when empty)."""
    from agentunit.store.location import is_postgres_url

    if isinstance(value, Path):
        return value
    text = str(value)
    if is_postgres_url(text):
        return text.strip()
    if not text:
        raise ValueError("the results database path is empty")
    return Path(text)
