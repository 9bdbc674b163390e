"""Where media are written: the case fields, AgentUnit's metadata paths and the reply's ``trusys`` keys.

Nothing here reads a medium; it finds the references (``MediaRef``) and checks their shape.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the types are imported where a medium is found: a case or reply of text builds neither class
    from agentunit.media.model import MediaRef

CASE_MEDIA_FIELDS = {"image": "image", "images": "image", "audio": "audio", "video": "video"}
METADATA_MEDIA_KEYS = {"image_path": "image", "audio_path": "audio", "video_path": "video"}
REPLY_MEDIA_KEYS = ("image", "images", "audio", "video")
_LIST_FIELDS = frozenset({"images"})


def reference_shape(value: Any) -> str | None:
    """What is wrong with the shape of a reference (text, ``{base64, mime}``), or None; nothing is read."""
    from agentunit.media.model import Media

    if isinstance(value, (Media, Path, bytes, bytearray)):
        return None
    if isinstance(value, str):
        return None if value.strip() else "must not be blank"
    if isinstance(value, dict):
        if not isinstance(value.get("base64"), str):
            return "must be a path, URL, data: URI or {base64, mime}; an object needs `base64` text"
        extra = set(value) - {"base64", "mime"}
        if extra:
            return f"has unknown key(s) {', '.join(sorted(map(str, extra)))}; an object holds only base64 and mime"
        if "mime" in value and not isinstance(value["mime"], str):
            return "mime must be text"
        return None
    return f"must be a media reference (a path, URL, data: URI or {{base64, mime}}), got {type(value).__name__}"


def field_shape(name: str, value: Any) -> str | None:
    """The shape check of one case media field: ``images`` a reference or a list of them, the others one."""
    if name in _LIST_FIELDS and isinstance(value, list):
        for index, item in enumerate(value):
            problem = reference_shape(item)
            if problem:
                return f"item {index} {problem}"
        return None
    return reference_shape(value)


def field_items(name: str, value: Any) -> list[tuple[str, Any]]:
    """``(field, reference)`` pairs of one field: ``images`` → ``images[0]``, ``images[1]``, …"""
    if value is None:
        return []
    if name in _LIST_FIELDS and isinstance(value, (list, tuple)):
        return [(f"{name}[{i}]", item) for i, item in enumerate(value)]
    return [(name, value)]


def case_refs(case: Any) -> list[MediaRef]:
    """The media a case gives the target: ``image``, ``images``, ``audio``, ``video``; for a kind none of
    them gives, AgentUnit's ``metadata["image_path"]`` (``audio_path``, ``video_path``)."""
    from agentunit.media.model import MediaRef

    refs = []
    for name, kind in CASE_MEDIA_FIELDS.items():
        for field, ref in field_items(name, getattr(case, name, None)):
            refs.append(MediaRef(field, ref, kind, "input"))
    metadata = getattr(case, "metadata", None)
    if isinstance(metadata, dict):
        given = {r.kind for r in refs}
        for key, kind in METADATA_MEDIA_KEYS.items():
            if kind not in given and metadata.get(key) is not None:
                refs.append(MediaRef(f"metadata.{key}", metadata[key], kind, "input"))
    return refs


def reply_refs(meta: dict[str, Any]) -> tuple[list[MediaRef], str | None]:
    """The media of a reply's ``trusys`` object (``image``, ``images``, ``audio``, ``video``) and what is
    wrong with their shape (None when nothing); nothing is read."""
    from agentunit.media.model import MediaRef

    refs = []
    for name in REPLY_MEDIA_KEYS:
        value = meta.get(name)
        if value is None:
            continue
        if name != "images" and isinstance(value, list):
            return [], f"'trusys.{name}' must be one media reference (use 'images' for a list)"
        problem = field_shape(name, value)
        if problem:
            return [], f"'trusys.{name}' {problem}"
        for field, ref in field_items(name, value):
            refs.append(MediaRef(f"trusys.{field}", ref, CASE_MEDIA_FIELDS[name], "reply"))
    return refs, None


def context_image(item: Any, index: int) -> MediaRef | None:
    """A ``trusys.context`` item that is an image (``{image: REF}``, with optional text), else None."""
    if isinstance(item, dict) and "image" in item:
        from agentunit.media.model import MediaRef

        return MediaRef(f"trusys.context[{index}].image", item["image"], "image", "context")
    return None
