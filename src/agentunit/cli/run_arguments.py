"""``agentunit run``'s arguments read without click, for a run to start ~12 ms sooner (issue 20).

``parse_run_arguments`` reads the usual forms only (``run``, then the suite and its options as
``--name value``, ``--name=value``, ``-j N``, ``-o FILE``, ``-q``, ``--``) and gives exactly the
parameters click would give the ``run`` command (``agentunit.cli.commands``), with the same
conversions (``agentunit.cli.usage``). Anything else (help, an unknown or misspelled option, a
value click would refuse or that needs a closer look, shell completion) gives None, and click
reads the arguments, so every message and error stays click's.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from agentunit.cli.usage import COUNT_MAX, DATABASE_VARIABLE, DEFAULT_DATABASE, EXECUTORS, database_location, seconds


class _ForClick(Exception):
    """An argument only click should read."""


def parse_run_arguments(args: Sequence[str]) -> dict[str, Any] | None:
    """The ``run`` command's parameters for the program's arguments ``args`` (``sys.argv[1:]``), or None
    when they are not ``run``'s in a form read here (click reads them then)."""
    if not args or args[0] != "run" or _completing():
        return None
    try:
        return _parameters(args[1:])
    except _ForClick:
        return None


def _parameters(args: Sequence[str]) -> dict[str, Any]:
    given: dict[str, str] = {}
    flags: set[str] = set()
    positional: list[str] = []
    index, only_positional = 0, False
    while index < len(args):
        token = args[index]
        index += 1
        if only_positional or not token.startswith("-"):
            positional.append(token)
        elif token == "--":
            only_positional = True
        elif token in _FLAGS:
            flags.add(_FLAGS[token])
        else:
            name, equals, value = token.partition("=") if token.startswith("--") else (token, "", "")
            if name not in _VALUED:
                raise _ForClick
            if not equals:
                if index == len(args):
                    raise _ForClick
                value = args[index]
                index += 1
            if value.startswith("-"):  # click takes it as the value; a forgotten value is likelier
                raise _ForClick
            given[_VALUED[name]] = value
    if len(positional) > 1:
        raise _ForClick
    parameters: dict[str, Any] = {"suite": _path(positional[0]) if positional else None}
    for parameter, convert in _CONVERSIONS.items():
        raw = given.get(parameter)
        parameters[parameter] = convert(raw) if raw is not None else None
    for flag in _FLAG_PARAMETERS:
        parameters[flag] = flag in flags
    if parameters["db"] is None:
        from_environment = os.environ.get(DATABASE_VARIABLE)
        parameters["db"] = _database(from_environment) if from_environment else DEFAULT_DATABASE
    if parameters["executor"] is None:
        parameters["executor"] = EXECUTORS[0]
    return parameters


def _completing() -> bool:
    """Whether the shell asks for completions (click's ``_PROG_COMPLETE`` variables)."""
    return any(name.startswith("_") and name.endswith("_COMPLETE") for name in os.environ)


def _count(text: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise _ForClick
    number = int(text)
    if not 1 <= number <= COUNT_MAX:
        raise _ForClick
    return number


def _text(text: str) -> str:
    return text


def _path(text: str) -> Path:
    """What ``click.Path(dir_okay=False, path_type=Path)`` gives: the path of anything but a folder or an
    unreadable file (click words those errors)."""
    try:
        found = os.stat(text)
    except OSError:
        return Path(text)
    if stat.S_ISDIR(found.st_mode) or not os.access(text, os.R_OK):
        raise _ForClick
    return Path(text)


def _seconds(text: str) -> float:
    try:
        return seconds(text)
    except ValueError:
        raise _ForClick from None


def _database(text: str) -> Path | str:
    try:
        return database_location(text)
    except ValueError:
        raise _ForClick from None


def _executor(text: str) -> str:
    if text not in EXECUTORS:
        raise _ForClick
    return text


_CONVERSIONS: dict[str, Callable[[str], Any]] = {
    "jobs": _count, "repeat": _count, "resume": _text, "db": _database, "output": _path, "junit": _path,
    "markdown": _path, "html": _path, "filter_": _text, "timeout": _seconds, "calibration": _path,
    "executor": _executor, "ray_address": _text, "ray_workers": _count, "processes": _count,
}
# Each option's names, as the click command declares them.
_VALUED = {name: parameter for parameter, names in {
    "jobs": ("-j", "--jobs", "--concurrency"), "repeat": ("--repeat",), "resume": ("--resume",), "db": ("--db",),
    "output": ("-o", "--output"), "junit": ("--junit",), "markdown": ("--markdown",), "html": ("--html",),
    "filter_": ("--filter",), "timeout": ("--timeout",), "calibration": ("--calibration",),
    "executor": ("--executor",), "ray_address": ("--ray-address",), "ray_workers": ("--ray-workers",),
    "processes": ("--processes",),
}.items() for name in names}
_FLAGS = {"--no-cache": "no_cache", "--allow-unmeasured": "allow_unmeasured", "-q": "quiet", "--quiet": "quiet",
          "--dry-run": "dry_run"}
_FLAG_PARAMETERS = tuple(dict.fromkeys(_FLAGS.values()))
