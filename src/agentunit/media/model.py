"""The media types: a loaded medium, a reference found in a case or reply, the error (the limits on loading one:
``agentunit.media.limits``)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from agentunit.errors import AgentUnitError
from agentunit.media.limits import (
    DEFAULT_MAX_BYTES,
    DEFAULT_TIMEOUT_S,
    MediaLimits,
    current_limits,
    reset_limits,
    use_limits,
)

# The limits live in agentunit.media.limits; their names are kept here too, for code that imported them from here.
__all__ = ["DEFAULT_MAX_BYTES", "DEFAULT_TIMEOUT_S", "KINDS", "Media", "MediaError", "MediaLimits", "MediaRef",
           "cache_dir", "current_limits", "reset_limits", "use_limits"]

KINDS = ("image", "audio", "video")


@dataclass(frozen=True, slots=True)
class Media:
    """One loaded medium.

    ``kind`` is image, audio or video and ``mime`` its type, both read from the content (magic bytes),
    never from a name. ``source`` is the reference as written, a ``data:`` URI or base64 shortened to
    ``data:image/png;base64,… (1234 bytes)``; ``size`` is ``len(data)``.
    """

    kind: str
    mime: str
    data: bytes
    sha256: str
    source: str
    size: int

    def __repr__(self) -> str:  # never print megabytes
        return f"Media(kind={self.kind!r}, mime={self.mime!r}, size={self.size}, sha256={self.sha256[:12]}…, " \
               f"source={self.source!r})"

    def record(self) -> dict[str, Any]:
        """What the results database and reports keep: ``{source, sha256, mime, size}``, never the bytes."""
        return {"source": self.source, "sha256": self.sha256, "mime": self.mime, "size": self.size}


@dataclass(frozen=True, slots=True)
class MediaRef:
    """A media reference found in a case or a reply, not loaded.

    ``field`` names where it was written (``image``, ``images[1]``, ``metadata.audio_path``,
    ``trusys.image``, ``trusys.context[2].image``, ``output``); ``kind`` is what that field must hold
    (None: any, known once read — an output medium named by path or URL); ``role`` is ``input`` (the
    case's media, sent to the target), ``reply`` (media the reply returned) or ``context`` (image items
    of the reply's retrieved context).
    """

    field: str
    ref: Any
    kind: str | None
    role: str = "input"


class MediaError(AgentUnitError):
    """A media reference that cannot be used: missing, unreadable, oversized, of the wrong type, bad base64,
    a URL that failed. The message names the field, the reference and a fix."""

    def __init__(self, reason: str, *, field: str | None = None, reference: str | None = None,
                 suggestion: str | None = None):
        self.reason = reason
        self.field = field
        self.reference = reference
        self.suggestion = suggestion
        super().__init__(self._text())

    def _text(self) -> str:
        text = f"{self.field}: " if self.field else ""
        text += f"{self.reference}: " if self.reference else ""
        text += self.reason
        return text + (f" — {self.suggestion}" if self.suggestion else "")

    def at(self, field: str) -> MediaError:
        """The same error, naming ``field``."""
        return MediaError(self.reason, field=field, reference=self.reference, suggestion=self.suggestion)

    def located_reason(self) -> str:
        """The message without the field, for a suite problem (which names the field itself)."""
        return (f"{self.reference}: " if self.reference else "") + self.reason


def cache_dir() -> str:
    """Where fetched media are kept on disk: ``$AGENTUNIT_HOME/media`` when set, else
    ``~/.cache/agentunit/media`` (the models directory's rule)."""
    home = os.environ.get("AGENTUNIT_HOME")
    base = home if home else os.path.join(os.path.expanduser("~"), ".cache", "agentunit")
    return os.path.join(base, "media")
