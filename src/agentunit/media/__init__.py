"""Media in cases and replies: references, loading with limits, type sniffing, storage records.

A case gives its target media in ``image``, ``images``, ``audio``, ``video`` (or AgentUnit's
``metadata["image_path"]``, ``audio_path``, ``video_path``); a reply returns media in
``trusys.image``, ``images``, ``audio``, ``video`` and images among ``trusys.context``; an output can be
a medium itself (``output_media``). Metrics read them with ``media_of(case, outcome, kind, where)``;
the results keep ``{source, sha256, mime, size}`` per medium (and a small thumbnail per image), never
the bytes. The http and command targets' templates take them with ``{{ image | data_uri }}`` and kin
(agentunit.media.templates). See docs/media.md.
"""

from agentunit._lazy import lazy_exports

# Imported now: the function shares its module's name, and importing the module (as references does) would
# otherwise leave the module under this name.
from agentunit.media.sniff import sniff as sniff

_EXPORTS = {
    "DEFAULT_MAX_BYTES": "limits",
    "DEFAULT_TIMEOUT_S": "limits",
    "KINDS": "model",
    "Media": "model",
    "MediaError": "model",
    "MediaLimits": "limits",
    "MediaRef": "model",
    "Sniffed": "sniff",
    "cache_dir": "model",
    "case_refs": "fields",
    "check_reference": "references",
    "current_limits": "limits",
    "describe_reference": "references",
    "is_remote": "references",
    "load_media": "references",
    "load_ref": "access",
    "media_of": "access",
    "media_records": "access",
    "media_refs": "access",
    "output_media": "output",
    "reference_shape": "fields",
    "reset_limits": "limits",
    "shorten": "references",
    "use_limits": "limits",
}

__all__ = sorted([*_EXPORTS, "sniff"])
__getattr__, __dir__ = lazy_exports(globals(), _EXPORTS)
