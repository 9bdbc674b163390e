"""A case's media in request templates (http and command targets): ``{{ image | data_uri }}`` and kin.

The variables ``image`` (the case's first image), ``images`` (all of them, a list), ``audio`` and
``video`` are placeholders, not bytes: rendering a template reads nothing. A filter turns a
placeholder into a marker naming the medium and the form wanted —

- ``data_uri``: ``data:image/png;base64,…`` (also what a bare ``{{ image }}`` gives);
- ``base64``: the content in base64, no header;
- ``path``: a local file holding it (the file itself for a path reference; for inline data or a URL a
  temporary file with the right extension, removed when the call is over);
- ``mime``: the type read from the content (``image/png``).

The rendered request (hashed for the cache key) keeps the markers and, per medium used, its content
identity (``sha256:…``); ``MediaFiller.fill`` puts the values in when the request is sent, reading each
medium once within the run's limits. A filter applied to a list maps over it; a filter's result is a
marker until then, so it is meant to be used as written, not transformed further in the template.
"""

from __future__ import annotations

import base64
import mimetypes
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

from agentunit.media.access import limits_for, media_identity, media_label
from agentunit.media.fields import case_refs
from agentunit.media.model import Media, MediaRef
from agentunit.media.references import load_media, local_file

FORMS = ("data_uri", "base64", "path", "mime")
MEDIA_VARIABLES = ("image", "images", "audio", "video")
_MARK = re.compile(r"__agentunit_media_(\d+)_(data_uri|base64|path|mime)__")
_EXTENSIONS = {"image/jpeg": ".jpg", "image/tiff": ".tif", "audio/mpeg": ".mp3", "audio/aac": ".aac",
               "audio/ogg": ".ogg", "video/quicktime": ".mov", "video/x-matroska": ".mkv"}


class TemplateMedium(str):
    """One case medium as a template value: text that is the marker of its ``data_uri`` form."""

    __slots__ = ()


def _marker(index: int, form: str) -> str:
    return f"__agentunit_media_{index}_{form}__"


def is_marker(text: str) -> bool:
    """``text`` is exactly one media marker (what a filter or a bare medium gives)."""
    return _MARK.fullmatch(text) is not None


def media_variables(case: Any) -> dict[str, Any]:
    """The media template variables of ``case`` (empty when it has none; nothing is read).

    ``image`` is the case's first image (the ``image`` field, else ``images[0]``, else
    ``metadata.image_path``), ``images`` every image in that order, ``audio`` and ``video`` the
    case's; a variable is defined only when the case has a medium for it.
    """
    if case.image is None and not case.images and case.audio is None and case.video is None \
            and not (case.metadata and any(k in case.metadata for k in ("image_path", "audio_path", "video_path"))):
        return {}
    out: dict[str, Any] = {}
    images = []
    for index, ref in enumerate(case_refs(case)):
        medium = TemplateMedium(_marker(index, "data_uri"))
        if ref.kind == "image":
            images.append(medium)
        else:
            out.setdefault(ref.kind, medium)
    if images:
        out["image"], out["images"] = images[0], images
    return out


def _media_filter(form: str) -> Any:
    def apply(value: Any) -> Any:
        if isinstance(value, TemplateMedium):
            index = _MARK.fullmatch(value)
            assert index is not None
            return _marker(int(index.group(1)), form)
        if isinstance(value, (list, tuple)) and all(isinstance(v, TemplateMedium) for v in value):
            return [apply(v) for v in value]
        from jinja2 import Undefined

        if isinstance(value, Undefined):
            str(value)  # raises Jinja2's "'image' is undefined": the case has no medium of that name
        shown = repr(value)[:60] if isinstance(value, str) else type(value).__name__
        raise TypeError(f"the {form} filter applies to a case medium ({', '.join(MEDIA_VARIABLES)}), got {shown}; "
                        f"give the case an image/images/audio/video field and write {{{{ image | {form} }}}}")

    apply.__name__ = form
    return apply


MEDIA_FILTERS = {form: _media_filter(form) for form in FORMS}


def used_media(value: Any, case: Any) -> list[dict[str, str]]:
    """The media a rendered request uses, for the cache key: ``{field, id}`` per medium whose marker it
    holds, ``id`` the content's ``sha256:…`` (a URL: itself). Raises MediaError naming the field."""
    found: set[int] = set()
    _scan(value, found)
    if not found:
        return []
    refs = case_refs(case)
    used = []
    for index in sorted(found):
        if index < len(refs):
            used.append(media_identity(case, refs[index]))
    return used


def _scan(value: Any, found: set[int]) -> None:
    if isinstance(value, str):
        if "__agentunit_media_" in value:
            found.update(int(m.group(1)) for m in _MARK.finditer(value))
    elif isinstance(value, dict):
        for item in value.values():
            _scan(item, found)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _scan(item, found)


class MediaFiller:
    """Puts a case's media into a rendered request; temporary files live until ``close()``.

    Use as a context manager around the call: ``with MediaFiller(case) as media: body = media.fill(body)``.
    """

    def __init__(self, case: Any):
        self.case = case
        self._refs = case_refs(case)
        self._values: dict[tuple[int, str], str] = {}
        self._loaded: dict[int, Media] = {}
        self._scratch: str | None = None

    def __enter__(self) -> MediaFiller:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def fill(self, value: Any) -> Any:
        """``value`` (text, or JSON-like data) with every marker replaced by its medium in that form.

        Algorithm: a string that is exactly one marker becomes the value itself (no copy of the
        payload into a larger text); markers inside longer text are substituted; dicts and lists are
        rebuilt around the strings that changed. Each medium is read once (a local file needed only as
        a path or for its type is checked, not read whole). Raises MediaError naming the case's field.
        """
        if isinstance(value, str):
            if "__agentunit_media_" not in value:
                return value
            whole = _MARK.fullmatch(value)
            if whole:
                return self._value(int(whole.group(1)), whole.group(2), value)
            return _MARK.sub(lambda m: self._value(int(m.group(1)), m.group(2), m.group(0)), value)
        if isinstance(value, dict):
            return {k: self.fill(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.fill(v) for v in value]
        return value

    def close(self) -> None:
        """Remove the temporary files made for ``path``."""
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None

    def _value(self, index: int, form: str, marker: str) -> str:
        if index >= len(self._refs):
            return marker  # not one of this case's media: case text that looks like a marker stays as written
        key = (index, form)
        if key not in self._values:
            self._values[key] = self._make(index, form)
        return self._values[key]

    def _make(self, index: int, form: str) -> str:
        ref = self._refs[index]
        field = media_label(self.case, ref)
        if form == "path" or (form == "mime" and index not in self._loaded):
            local = local_file(ref.ref, base_dir=self.case.media_dir, kind=ref.kind, field=field,
                               limits=limits_for(self.case, ref))
            if local is not None:  # a local file is passed as itself, and its type read from its head
                return str(local[0]) if form == "path" else local[1]
        media = self._load(index, ref, field)
        if form == "mime":
            return media.mime
        if form == "path":
            return self._write(index, ref, media)
        if form == "data_uri":
            return f"data:{media.mime};base64,{self._value(index, 'base64', '')}"
        return base64.b64encode(media.data).decode("ascii")

    def _load(self, index: int, ref: MediaRef, field: str) -> Media:
        if index not in self._loaded:
            self._loaded[index] = load_media(ref.ref, base_dir=self.case.media_dir, kind=ref.kind,
                                             limits=limits_for(self.case, ref), field=field)
        return self._loaded[index]

    def _write(self, index: int, ref: MediaRef, media: Media) -> str:
        if self._scratch is None:
            self._scratch = tempfile.mkdtemp(prefix="agentunit-media-")
        extension = _EXTENSIONS.get(media.mime) or mimetypes.guess_extension(media.mime) or ".bin"
        name = re.sub(r"[^A-Za-z0-9_]+", "_", ref.field).strip("_") or "medium"
        path = Path(self._scratch) / f"{index}-{name}{extension}"
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(media.data)
        return str(path)
