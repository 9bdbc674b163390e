"""An output that is itself a medium: what text-to-image, text-to-speech and text-to-video targets return.

A reply's output is a medium when it is, inline, a ``data:`` URI of a medium, a ``{base64, mime}``
object or bytes (the reply parser decodes it at once: its kind comes from the content), or when the
reply names it: ``trusys.output_media: REF`` (any reference form; a target option
``output_is_media: true`` writes it for a text answer). The medium is then reply media of its kind
(``media_of(case, outcome, "image", "reply")``) with the field ``output`` (or ``trusys.output_media``),
and the stored output text is the short reference (``data:image/png;base64,… (1234 bytes)``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported where a medium is met: a reply of text builds none of the media classes
    from agentunit.media.model import Media, MediaRef

OUTPUT_FIELDS = ("trusys.output_media", "output")
_MEDIA_TYPES = ("image/", "audio/", "video/")
_TEXT_IMAGES = ("image/svg+xml",)  # images written as text, which the sniffer does not read: kept as text
_MAYBE_MEDIA = ("", "application/octet-stream", "binary/octet-stream")


def looks_inline(value: Any) -> bool:
    """Whether ``value`` may be an inline medium (cheap; nothing is decoded): text starting with
    ``data:``, a ``{base64, mime}`` object, bytes or a loaded Media."""
    if isinstance(value, str):
        return value[:64].lstrip()[:5].lower() == "data:"
    if isinstance(value, dict):
        return isinstance(value.get("base64"), str) and set(value) <= {"base64", "mime"}
    if isinstance(value, (bytes, bytearray)):
        return True
    from agentunit.media.model import Media

    return isinstance(value, Media)


def inline_output_medium(value: Any, field: str = "output", *, required: bool = False) -> Media | None:
    """The medium an output value is when it is one inline, decoded within the run's limits; else None.

    Algorithm: a ``data:`` URI is judged by its declared type first — ``image/``, ``audio/``,
    ``video/`` (SVG excepted) must hold a recognised medium, else MediaError naming ``field``; no type
    or ``application/octet-stream`` is a medium when the content is one, else text; any other type
    (``text/plain``, JSON) is text, not decoded. A ``{base64, mime}`` object, bytes and a Media must
    hold a recognised medium. ``required`` (``trusys.output_media``): every form must be a medium.
    """
    if not looks_inline(value):
        return None
    from agentunit.media.model import MediaError
    from agentunit.media.references import load_media  # here: a reply of plain text needs none of it

    if isinstance(value, str):
        text = value.strip()
        declared = text[5:text.find(",")].split(";")[0].strip().lower() if "," in text[:256] else None
        must = required or (declared is not None and declared.startswith(_MEDIA_TYPES)
                            and declared not in _TEXT_IMAGES)
        if not must and declared not in _MAYBE_MEDIA:
            return None
        try:
            return load_media(text, field=field)
        except MediaError:
            if must:
                raise
            return None
    return load_media(value, field=field)


def output_ref(value: Any, field: str) -> MediaRef:
    """The reply-media reference of an output medium named by reference (``trusys.output_media``):
    inline data decoded now (its kind known), a path or URL kept unread (kind None: known when
    loaded). Raises MediaError naming ``field`` for a value that is no reference."""
    from agentunit.media.model import MediaError, MediaRef

    medium = inline_output_medium(value, field, required=True)
    if medium is not None:
        return MediaRef(field, medium, medium.kind, "reply")
    from agentunit.media.references import parse_reference

    try:
        parse_reference(value, None)
    except MediaError as exc:
        raise exc.at(field) from None
    return MediaRef(field, value, None, "reply")


def output_media(outcome: Any, case: Any = None) -> Media | None:
    """The medium the outcome's output is (``trusys.output_media``, else an inline ``output``), loaded
    once per case; None when the output is not a medium. Raises MediaError when it cannot be read."""
    refs = [r for r in (getattr(outcome, "media", None) or []) if r.role == "reply" and r.field in OUTPUT_FIELDS]
    if not refs:
        return None
    ref = min(refs, key=lambda r: OUTPUT_FIELDS.index(r.field))
    from agentunit.media.access import load_ref

    return load_ref(case, outcome, ref)
