"""Collects suite problems with their location, resolving line numbers only when reported."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from agentunit.errors import Problem, SuiteError
from agentunit.suite.locate import as_written, format_path, line_of

MAX_PROBLEMS = 50

# A published misspelling of ``expected_output``, read with a warning and never suggested.
MISSPELLED_EXPECTED = "expcted_output"


def printable(text: str) -> str:
    """``text`` on one line with nothing a terminal would act on: newlines, escape sequences and lone
    surrogates (from suite keys or values quoted in a message) are written as Python escapes."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape", "backslashreplace").decode("ascii")
                   for c in text)


class _Pending:
    """A problem noted, its line not yet looked up (a plain class: start-up builds no dataclass)."""

    __slots__ = ("file", "key_path", "line", "message", "suggestion")

    def __init__(self, message: str, file: str | None, key_path: tuple[Any, ...], line: int | None,
                 suggestion: str | None) -> None:
        self.message, self.file, self.key_path, self.line, self.suggestion = message, file, key_path, line, suggestion


@dataclass
class Problems:
    """Errors and warnings found while reading a suite; ``raise_if_any`` turns errors into SuiteError."""

    file: str | None = None
    errors: list[_Pending] = field(default_factory=list)
    warnings: list[_Pending] = field(default_factory=list)
    # Every problem noted, kept ones and those past MAX_PROBLEMS: callers compare these counts to learn
    # whether a step found a problem, which the kept lists stop telling once they are full.
    error_count: int = 0
    warning_count: int = 0

    def error(self, message: str, key_path: tuple[Any, ...] = (), *, file: str | None = None,
              line: int | None = None, suggestion: str | None = None) -> None:
        self.error_count += 1
        if len(self.errors) < MAX_PROBLEMS:
            self.errors.append(_Pending(message, file or self.file, key_path, line, suggestion))

    def warn(self, message: str, key_path: tuple[Any, ...] = (), *, file: str | None = None,
             line: int | None = None, suggestion: str | None = None) -> None:
        self.warning_count += 1
        if len(self.warnings) < MAX_PROBLEMS:
            self.warnings.append(_Pending(message, file or self.file, key_path, line, suggestion))

    def unknown_keys(self, data: dict[str, Any], allowed: Iterable[str], key_path: tuple[Any, ...], what: str,
                     *, file: str | None = None, line: int | None = None) -> None:
        """An error for each key of ``data`` not in ``allowed``, suggesting the closest allowed key or
        listing them; an accepted misspelling (MISSPELLED_EXPECTED) is never suggested."""
        if isinstance(allowed, (frozenset, set)) and data.keys() <= allowed:
            return
        allowed = list(allowed)
        advertised = sorted(set(allowed) - {MISSPELLED_EXPECTED})
        for key in data:
            if key not in allowed:
                import difflib  # only for a misspelled key: not on a valid suite's path

                close = difflib.get_close_matches(str(key), advertised, n=1, cutoff=0.6)
                self.error(f"unknown {what} field {key!r}", (*key_path, key), file=file, line=line,
                           suggestion=f"did you mean {close[0]!r}?" if close else f"allowed: {', '.join(advertised)}")

    def resolve(self, pending: list[_Pending]) -> list[Problem]:
        out = []
        for p in pending:
            line = p.line
            key_path = as_written(p.file, p.key_path) if p.line is None else p.key_path
            if line is None and p.file:  # every problem in a file names a line; the file's first at worst
                line = (line_of(p.file, key_path) if key_path else None) or 1
            out.append(Problem(printable(p.message), file=p.file, line=line,
                               field=printable(format_path(key_path)) or None,
                               suggestion=printable(p.suggestion) if p.suggestion else None))
        return out

    def raise_if_any(self) -> None:
        if self.errors:
            found = self.resolve(self.errors)
            if self.error_count > len(self.errors):
                more = self.error_count - len(self.errors)
                found.append(Problem(f"{more} more errors not shown", file=found[-1].file, line=found[-1].line,
                                     suggestion=f"fix the {len(self.errors)} above and load the suite again"))
            raise SuiteError(found)

    def warning_texts(self) -> list[str]:
        return [f"warning: {p}" for p in self.resolve(self.warnings)]
