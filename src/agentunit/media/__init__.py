"""Media in cases and replies: references, loading with limits, type sniffing, storage records.

A case gives its target media in ``image``, ``images``, ``audio``, ``video`` (or AgentUnit's
``metadata["image_path"]``, ``audio_path``, ``video_path``); a reply returns media in
``trusys.image``, ``images``, ``audio``, ``video`` and images among ``trusys.context``; an output can be
a medium itself (``output_media``). Metrics read them with ``media_of(case, outcome, kind, where)``;
the results keep ``{source, sha256, mime, size}`` per medium (and a small thumbnail per image), never
the bytes. The http and command targets' templates take them with ``{{ image | data_uri }}`` and kin
(agentunit.media.templates). See docs/media.md.
"""

from agentunit.media.access import load_ref, media_of, media_records, media_refs
from agentunit.media.fields import case_refs, reference_shape
from agentunit.media.model import (
    DEFAULT_MAX_BYTES,
    DEFAULT_TIMEOUT_S,
    KINDS,
    Media,
    MediaError,
    MediaLimits,
    MediaRef,
    cache_dir,
    current_limits,
    reset_limits,
    use_limits,
)
from agentunit.media.output import output_media
from agentunit.media.references import check_reference, describe_reference, is_remote, load_media, shorten
from agentunit.media.sniff import Sniffed, sniff

__all__ = [
    "DEFAULT_MAX_BYTES", "DEFAULT_TIMEOUT_S", "KINDS", "Media", "MediaError", "MediaLimits", "MediaRef", "Sniffed",
    "cache_dir", "case_refs", "check_reference", "current_limits", "describe_reference", "is_remote", "load_media",
    "load_ref", "media_of", "media_records", "media_refs", "output_media", "reference_shape", "reset_limits",
    "shorten", "sniff", "use_limits",
]
