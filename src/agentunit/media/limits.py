"""The limits on loading a medium, and the run's: set by the engine from the suite's options.

Apart from the media types (``agentunit.media.model``) so that a run whose cases and replies carry no medium
sets its limits without building those classes (issue 20).
"""

from __future__ import annotations

import contextvars
import math
from dataclasses import dataclass
from typing import Any

DEFAULT_MAX_BYTES = 20 * 1024 * 1024
DEFAULT_TIMEOUT_S = 15.0


@dataclass(frozen=True, slots=True)
class MediaLimits:
    """Bounds on one medium: ``max_bytes`` (default 20 MiB) for any reference, ``timeout_s`` (default 15 s)
    for the whole download of a URL."""

    max_bytes: int = DEFAULT_MAX_BYTES
    timeout_s: float = DEFAULT_TIMEOUT_S
    gate: Any = None  # agentunit.trust.FileGate: the folders a path may reach (None: anywhere, as in check())

    @classmethod
    def for_suite(cls, options: dict[str, Any] | None, folder: Any) -> MediaLimits:
        """``from_options``, with paths confined to the suite's ``folder`` (None: the working directory) and
        the folders of its ``allow_paths`` option: media paths in cases and replies are data
        (docs/security.md)."""
        from agentunit.trust import ALLOW_OPTION, suite_gate

        allowed = (options or {}).get(ALLOW_OPTION)
        allowed = [a for a in allowed if isinstance(a, str)] if isinstance(allowed, list) else []
        limits = cls.from_options(options)
        return cls(max_bytes=limits.max_bytes, timeout_s=limits.timeout_s,
                   gate=suite_gate(folder, allowed, whose="a case or a reply"))

    def for_author(self) -> MediaLimits:
        """These limits for media the suite's author wrote (an inline case, the Python API): a path may lie
        anywhere, but it must still be a regular file outside /proc, /sys and /dev."""
        from agentunit.trust import AUTHOR_GATE

        return self if self.gate is None or self.gate is AUTHOR_GATE else \
            MediaLimits(max_bytes=self.max_bytes, timeout_s=self.timeout_s, gate=AUTHOR_GATE)

    @classmethod
    def from_options(cls, options: dict[str, Any] | None) -> MediaLimits:
        """The suite options ``media_max_bytes`` and ``media_timeout``; a missing or invalid one keeps its
        default (the suite loader reports invalid values)."""
        options = options or {}
        size, timeout = options.get("media_max_bytes"), options.get("media_timeout")
        ok_size = isinstance(size, int) and not isinstance(size, bool) and size >= 1
        ok_timeout = isinstance(timeout, (int, float)) and not isinstance(timeout, bool) \
            and math.isfinite(timeout) and timeout > 0
        return cls(max_bytes=size if ok_size else DEFAULT_MAX_BYTES,
                   timeout_s=float(timeout) if ok_timeout else DEFAULT_TIMEOUT_S)


_LIMITS: contextvars.ContextVar[MediaLimits | None] = contextvars.ContextVar("agentunit_media_limits", default=None)


def current_limits() -> MediaLimits:
    """The limits of the run in progress (set by the engine from the suite's options), else the defaults."""
    return _LIMITS.get() or MediaLimits()


def use_limits(limits: MediaLimits) -> contextvars.Token[MediaLimits | None]:
    """Make ``limits`` current for this context (and the tasks it starts); returns a token for ``reset_limits``."""
    return _LIMITS.set(limits)


def reset_limits(token: contextvars.Token[MediaLimits | None]) -> None:
    _LIMITS.reset(token)


# The case in progress must end by this time (time.monotonic()): a download for it stops then, in whatever
# thread it runs (contextvars follow asyncio.to_thread), since a thread cannot be cancelled with the case.
_CASE_DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar("agentunit_case_deadline",
                                                                              default=None)


def case_deadline() -> float | None:
    """When the case in progress must end (``time.monotonic()``), None outside a case."""
    return _CASE_DEADLINE.get()


def use_case_deadline(deadline: float) -> contextvars.Token[float | None]:
    """Make ``deadline`` the case's for this context (set by the engine per case); returns a token for
    ``reset_case_deadline``."""
    return _CASE_DEADLINE.set(deadline)


def reset_case_deadline(token: contextvars.Token[float | None]) -> None:
    _CASE_DEADLINE.reset(token)
