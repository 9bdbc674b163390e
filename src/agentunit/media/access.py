"""What metrics and the engine use: a case's or a reply's media, loaded lazily and once per case."""

from __future__ import annotations

from typing import Any

from agentunit.media.fields import case_refs
from agentunit.media.limits import MediaLimits, current_limits
from agentunit.media.model import KINDS, Media, MediaError, MediaRef
from agentunit.media.references import describe_reference, identity, load_media
from agentunit.media.thumbnail import thumbnail_for

ROLES = ("input", "reply", "context")


def media_refs(case: Any, outcome: Any, where: str = "input") -> list[MediaRef]:
    """The references (not loaded) of one role: ``input`` (the case's media), ``reply`` (``trusys.image``,
    ``images``, ``audio``, ``video``) or ``context`` (image items of ``trusys.context``)."""
    if where not in ROLES:
        raise ValueError(f"where must be one of {', '.join(ROLES)}, got {where!r}")
    if where == "input":
        return case_refs(case)
    return [r for r in (getattr(outcome, "media", None) or []) if r.role == where]


def media_of(case: Any, outcome: Any, kind: str, where: str = "input") -> list[Media]:
    """The loaded media of ``kind`` (image, audio, video) of one role (see ``media_refs``), in order.

    Each reference is read on first use and kept in ``outcome.media_cache`` for the rest of the case
    (so several metrics read a file or fetch a URL once). Paths are relative to the case's
    ``media_dir`` (the suite file's folder; the working directory when None); the run's limits apply.
    Raises MediaError naming the field and the case when a reference cannot be used.
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
    loaded = []
    for ref in media_refs(case, outcome, where):
        if ref.kind is not None and ref.kind != kind:
            continue
        media = load_ref(case, outcome, ref)
        if media.kind == kind:  # a reference of unknown kind (an output medium by path or URL) counts once read
            loaded.append(media)
    return loaded


def load_ref(case: Any, outcome: Any, ref: MediaRef) -> Media:
    """One reference loaded through ``outcome.media_cache`` (read once per case); paths relative to the
    case's ``media_dir``. Raises MediaError naming the field and the case."""
    cache = getattr(outcome, "media_cache", None)
    key = (ref.role, ref.field)
    media = cache.get(key) if cache is not None else None
    if media is None:
        media = load_media(ref.ref, base_dir=getattr(case, "media_dir", None), kind=ref.kind,
                           field=media_label(case, ref), limits=limits_for(case, ref))
        if cache is not None:
            cache[key] = media
    return media


def media_records(case: Any, outcome: Any) -> list[dict[str, Any]]:
    """What the results database keeps of every medium of a case and its reply: ``{field, source,
    sha256, mime, size}`` (``{field, source, error}`` for one that cannot be used), never the bytes;
    an image also gets ``thumbnail``, a small JPEG ``data:`` URI, when Pillow can read it.

    Media already loaded for the case are described from memory; others are hashed without being kept
    (a file once per version), and a URL not fetched during the case is not downloaded for this.
    Thumbnails are made once per content hash. Never raises.
    """
    cache = getattr(outcome, "media_cache", None) or {}
    base = getattr(case, "media_dir", None)
    records = []
    refs = case_refs(case) + list(getattr(outcome, "media", None) or [])
    for ref in refs:
        loaded = cache.get((ref.role, ref.field))
        try:
            limits = limits_for(case, ref)
            record = loaded.record() if loaded is not None else describe_reference(ref.ref, base_dir=base,
                                                                                   kind=ref.kind, limits=limits)
            if str(record.get("mime") or "").startswith("image/") and record.get("sha256"):
                thumb = thumbnail_for(record["sha256"], loaded.data if loaded is not None else
                                      lambda ref=ref, limits=limits: load_media(ref.ref, base_dir=base, kind=ref.kind,
                                                                                limits=limits).data)
                if thumb is not None:
                    record["thumbnail"] = thumb
        except Exception as exc:  # a record must never cost the case its result
            record = {"source": str(ref.ref)[:200], "error": f"{type(exc).__name__}: {exc}"}
        records.append({"field": ref.field, **record})
    return records


def limits_for(case: Any, ref: MediaRef) -> MediaLimits:
    """The run's limits for one reference: a reply's media and a cases file's are data, confined to the
    suite's folder and ``allow_paths``; the media of a case the suite's author wrote may lie anywhere
    (agentunit.trust)."""
    limits = current_limits()
    if ref.role == "input" and not getattr(case, "from_data", False):
        return limits.for_author()
    return limits


def media_label(case: Any, ref: MediaRef) -> str:
    """How errors name a medium: ``image (case 'c1')``, or the field alone outside a case."""
    case_id = getattr(case, "id", None)
    return f"{ref.field} (case {case_id!r})" if case_id is not None else ref.field


def media_identity(case: Any, ref: MediaRef) -> dict[str, str]:
    """``{field, id}`` of a case's medium for a request's cache key: ``id`` is the content's
    ``sha256:…`` (a URL: itself, not downloaded). Raises MediaError naming the field and the case."""
    try:
        return {"field": ref.field, "id": identity(ref.ref, getattr(case, "media_dir", None), limits_for(case, ref))}
    except MediaError as exc:
        raise exc.at(media_label(case, ref)) from None
