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
