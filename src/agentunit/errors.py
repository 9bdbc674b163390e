"""Exceptions that carry enough context to be shown to a user without a traceback."""

from __future__ import annotations

from dataclasses import dataclass


class AgentUnitError(Exception):
    """Base class for every error agentunit raises on purpose."""


@dataclass
class Problem:
    """One validation problem in a suite file: where it is, what is wrong, how to fix it."""

    message: str
    file: str | None = None
    line: int | None = None
    field: str | None = None
    suggestion: str | None = None

    def __str__(self) -> str:
        where = self.file or "<suite>"
        if self.line is not None:
            where += f":{self.line}"
        text = f"{where}: "
        if self.field:
            text += f"{self.field}: "
        text += self.message
        if self.suggestion:
            text += f" — {self.suggestion}"
        return text


class SuiteError(AgentUnitError):
    """A suite (file or objects) is invalid. Holds every problem found, not only the first."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


class TargetError(AgentUnitError):
    """The system under test failed to answer (transport error, bad status, timeout, bad reply)."""

    def __init__(self, message: str, *, retryable: bool = False, retry_after: float | None = None):
        super().__init__(message)
        self.retryable = retryable
        self.retry_after = retry_after


class MetricConfigError(AgentUnitError):
    """A metric was given a value or config it cannot use."""
