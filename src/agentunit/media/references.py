"""Media references: what a case or reply may write, and how each is read.

A reference is a local path (relative to ``base_dir``: the suite file's folder, or the working
directory for ``check()``), a ``file://`` URI, a ``data:`` URI, ``{base64: ..., mime: ...}``, or an
http(s) URL (fetched once, see ``agentunit.media.fetch``). The Python API also takes ``bytes``, a
``pathlib.Path`` and a loaded ``Media``. The type always comes from the content (``sniff``), never
from a name or a declared mime type.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, unquote_to_bytes, urlparse

from agentunit.media.limits import MediaLimits, current_limits
from agentunit.media.model import Media, MediaError
from agentunit.media.sniff import HEAD_BYTES, Sniffed, describe_start, sniff
from agentunit.trust import FileGate, PathRefused

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
_FORMATS = {"image": "PNG, JPEG, GIF, WEBP, BMP, TIFF, AVIF or HEIC",
            "audio": "WAV, MP3, AAC, FLAC, OGG or M4A",
            "video": "MP4, MOV, WEBM, MKV, AVI or OGG video"}
_NOUNS = {"image": "an image", "audio": "audio", "video": "a video"}
_FORMS = "a path, file:// URI, data: URI, {base64, mime} or http(s) URL"
_FACTS_LIMIT = 4096
_file_facts: dict[tuple[str, int, int], tuple[str, Sniffed | None]] = {}  # (path, size, mtime) → (sha256, type)


@dataclass(frozen=True, slots=True)
class _Parsed:
    """A reference taken apart: its ``form`` and what that form needs to be read."""

    form: str  # path | url | data | base64 | bytes | media
    source: str  # the reference as written, inline data shortened
    path: Path | None = None
    url: str | None = None
    payload: Any = None  # data: URI or base64 text, raw bytes, or a Media
    encoded: bool = True  # a data: URI's payload is base64 (else percent-encoded)


def load_media(ref: Any, *, base_dir: str | Path | None = None, kind: str | None = None,
               limits: MediaLimits | None = None, field: str | None = None) -> Media:
    """Read a reference into a ``Media``; raise MediaError naming ``field``, the reference and a fix.

    Algorithm: parse the form; read the bytes (a file after checking its size against
    ``limits.max_bytes``; base64 decoded; a URL fetched within the limits); sniff the type from the
    content; when ``kind`` is given, refuse content of another kind; hash with sha256.
    """
    limits = limits or current_limits()
    try:
        if isinstance(ref, Media):
            found = sniff(ref.data)
            _check_kind(ref.kind, ref.mime, kind, ref.source, ref.data, label=found.label if found else "")
            return ref
        parsed = parse_reference(ref, base_dir)
        data = _read(parsed, limits)
        found = _kind_of(sniff(data), kind, parsed.source, _quotable(parsed, data))
        return Media(kind=found.kind, mime=found.mime, data=data, sha256=hashlib.sha256(data).hexdigest(),
                     source=parsed.source, size=len(data))
    except MediaError as exc:
        if field:
            raise exc.at(field) from None
        raise


def check_reference(ref: Any, *, base_dir: str | Path | None = None, kind: str | None = None,
                    limits: MediaLimits | None = None, field: str | None = None) -> None:
    """Everything about a reference that can be known without downloading it: its form, and for local
    and inline media that it exists, is readable, within the size limit and of ``kind``. A file is read
    only as far as its type needs (``HEAD_BYTES``, all of it for an MP4 whose track list comes late).
    URLs pass (they are checked when fetched). Raises MediaError like ``load_media``."""
    limits = limits or current_limits()
    try:
        parsed = parse_reference(ref, base_dir)
        if parsed.form == "url":
            return
        if parsed.form == "path":
            assert parsed.path is not None
            found, _ = _file_type(parsed.path, parsed.source, limits)
            _kind_of(found, kind, parsed.source)
        else:
            data = _read(parsed, limits)
            _kind_of(sniff(data), kind, parsed.source, data)
    except MediaError as exc:
        if field:
            raise exc.at(field) from None
        raise


def describe_reference(ref: Any, *, base_dir: str | Path | None = None, kind: str | None = None,
                       limits: MediaLimits | None = None) -> dict[str, Any]:
    """The stored record of a reference without keeping its bytes or downloading anything:
    ``{source, sha256, mime, size}``; ``sha256`` null for a URL not fetched yet; ``{source, error}`` when
    it cannot be used. A file's hash is computed once per file version (path, size, mtime)."""
    from agentunit.media.fetch import known_sha256

    limits = limits or current_limits()
    try:
        if isinstance(ref, Media):
            return ref.record()
        parsed = parse_reference(ref, base_dir)
        if parsed.form == "url":
            assert parsed.url is not None
            return {"source": parsed.source, "sha256": known_sha256(parsed.url), "mime": None, "size": None}
        if parsed.form == "path":
            assert parsed.path is not None
            digest, found, size = _file_facts_of(parsed.path, parsed.source, limits)
            found = _kind_of(found, kind, parsed.source)
            return {"source": parsed.source, "sha256": digest, "mime": found.mime, "size": size}
        data = _read(parsed, limits)
        found = _kind_of(sniff(data), kind, parsed.source, data)
        return {"source": parsed.source, "sha256": hashlib.sha256(data).hexdigest(), "mime": found.mime,
                "size": len(data)}
    except MediaError as exc:
        return {"source": exc.reference or shorten(ref), "error": exc.reason}


def is_remote(ref: Any) -> bool:
    """An http(s) URL: known only when fetched (at run time), never at load time."""
    return isinstance(ref, str) and ref[:8].lower().startswith(("http://", "https://"))


def shorten(ref: Any) -> str:
    """The reference as written, for messages and storage, inline data shortened to its size."""
    if isinstance(ref, Media):
        return ref.source
    try:
        return parse_reference(ref, None).source
    except MediaError as exc:
        return exc.reference or type(ref).__name__


def parse_reference(ref: Any, base_dir: str | Path | None) -> _Parsed:
    """Take a reference apart (nothing is read). Raises MediaError for a value that is no reference."""
    if isinstance(ref, Media):
        return _Parsed("media", ref.source, payload=ref)
    if isinstance(ref, (bytes, bytearray, memoryview)):
        raw = bytes(ref)
        return _Parsed("bytes", f"<bytes> ({len(raw):,} bytes)", payload=raw)
    if isinstance(ref, Path):
        return _Parsed("path", str(ref), path=_resolve(ref, base_dir))
    if isinstance(ref, dict):
        return _inline(ref)
    if not isinstance(ref, str):
        raise MediaError(f"is not a media reference (got {type(ref).__name__})", suggestion=f"write {_FORMS}")
    text = ref.strip()
    if not text:
        raise MediaError("is empty", suggestion=f"write {_FORMS}")
    if text[:5].lower() == "data:":
        return _data_uri(text)
    scheme = _SCHEME.match(text)
    if scheme is None:
        if "\x00" in text:
            raise MediaError("a path cannot hold a NUL character", reference=repr(text[:80]))
        return _Parsed("path", text, path=_resolve(_expand_user(Path(text)), base_dir))
    name = scheme.group(1).lower()
    if name in ("http", "https"):
        if not urlparse(text).netloc:
            raise MediaError("URL has no host", reference=text, suggestion="write a full http(s) URL")
        return _Parsed("url", text, url=text)
    if name == "file":
        parts = urlparse(text)
        if parts.netloc not in ("", "localhost"):
            raise MediaError(f"file:// URI names another host ({parts.netloc})", reference=text,
                             suggestion="write file:///absolute/path (three slashes) or a plain path")
        return _Parsed("path", text, path=_resolve(Path(unquote(parts.path)), base_dir))
    raise MediaError(f"unsupported scheme {name!r}", reference=text[:200], suggestion=f"write {_FORMS}")


def _expand_user(path: Path) -> Path:
    try:
        return path.expanduser()
    except RuntimeError:  # ~name of no known user: read as written
        return path


def _resolve(path: Path, base_dir: str | Path | None) -> Path:
    if path.is_absolute():
        return path
    return Path(base_dir) / path if base_dir is not None else Path.cwd() / path


def _inline(ref: dict[str, Any]) -> _Parsed:
    payload, mime = ref.get("base64"), ref.get("mime")
    mime_text = f", mime: {mime}" if isinstance(mime, str) else ""
    if not isinstance(payload, str) or set(ref) - {"base64", "mime"}:
        raise MediaError("is not a media reference (an object must be {base64: ..., mime: ...})",
                         reference=_object_keys(ref), suggestion=f"write {_FORMS}")
    if mime is not None and not isinstance(mime, str):
        raise MediaError("mime must be text", reference=_object_keys(ref))
    return _Parsed("base64", f"{{base64: … ({_approx_bytes(payload):,} bytes){mime_text}}}", payload=payload)


def _object_keys(ref: dict[str, Any]) -> str:
    return "{" + ", ".join(str(k)[:40] for k in list(ref)[:6]) + "}"


def _data_uri(text: str) -> _Parsed:
    header, comma, payload = text.partition(",")
    if not comma:
        raise MediaError("malformed data: URI (no comma before the data)", reference=text[:60] + "…",
                         suggestion="write data:MIME;base64,DATA")
    encoded = header.lower().endswith(";base64")
    size = _approx_bytes(payload) if encoded else len(payload)
    return _Parsed("data", f"{header},… ({size:,} bytes)", payload=payload, encoded=encoded)


def _approx_bytes(payload: str) -> int:
    """Decoded size of base64 text (exact for well-formed, padded text without whitespace)."""
    length = len(payload)
    return max(0, length * 3 // 4 - payload[-2:].count("="))


def _read(parsed: _Parsed, limits: MediaLimits) -> bytes:
    if parsed.form == "bytes":
        data = parsed.payload
    elif parsed.form == "media":
        data = parsed.payload.data
    elif parsed.form == "url":
        from agentunit.media.fetch import fetch_url

        assert parsed.url is not None
        return fetch_url(parsed.url, limits)
    elif parsed.form == "path":
        assert parsed.path is not None
        return _read_file(parsed.path, parsed.source, limits)
    elif parsed.encoded:
        data = _decode_base64(parsed.payload, parsed.source, limits)
    else:
        data = unquote_to_bytes(parsed.payload)
    if len(data) > limits.max_bytes:
        raise _too_large(parsed.source, len(data), limits)
    return data


def _decode_base64(text: str, source: str, limits: MediaLimits) -> bytes:
    """Strict base64 (standard or URL-safe alphabet); whitespace (folded YAML) and missing padding allowed."""
    if _approx_bytes(text) > limits.max_bytes * 1.05 + 16:  # refuse before decoding megabytes for nothing
        raise _too_large(source, _approx_bytes(text), limits)
    compact = "".join(text.split())
    if "-" in compact or "_" in compact:
        compact = compact.replace("-", "+").replace("_", "/")
    compact += "=" * (-len(compact) % 4)
    try:
        return base64.b64decode(compact, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise MediaError(f"invalid base64 ({exc})", reference=source,
                         suggestion="encode the file's bytes with base64 (e.g. `base64 -w0 FILE`)") from None


def _stat(path: Path, source: str, limits: MediaLimits) -> os.stat_result:
    """The file's facts once the run's data gate allows it (agentunit.trust: inside the suite's folder or
    ``allow_paths``, links judged by where they lead, no /proc, /sys or /dev) and it is a regular file
    within the size limit."""
    where = "the suite file's folder or the working directory"
    gate = limits.gate
    try:
        if gate is not None:
            path = gate.resolve(path)
        info = path.stat()
    except PathRefused as exc:
        raise MediaError(exc.reason, reference=source, suggestion=exc.suggestion) from None
    except FileNotFoundError:
        raise MediaError(f"file not found (looked for {path})", reference=source,
                         suggestion=f"check the path; a relative path is relative to {where}") from None
    except (OSError, ValueError) as exc:
        raise MediaError(f"cannot read the file: {getattr(exc, 'strerror', None) or exc}", reference=source,
                         suggestion="check the path and the file's permissions") from None
    if not path.is_file():
        raise MediaError(f"is not a file ({path})", reference=source, suggestion="name a file, not a folder")
    if info.st_size > limits.max_bytes:
        raise _too_large(source, info.st_size, limits)
    return info


def _open_error(exc: OSError, source: str) -> MediaError:
    return MediaError(f"cannot read the file: {exc.strerror or exc}", reference=source,
                      suggestion="check the file's permissions")


def _open(path: Path, source: str, limits: MediaLimits) -> Any:
    """The file opened for reading: through the run's data gate when there is one (what is read is the
    regular file that was checked, never a link or device swapped in)."""
    gate = limits.gate
    if gate is None:
        return path.open("rb")
    try:
        return FileGate(gate.roots, max_bytes=limits.max_bytes, whose=gate.whose).open(path)
    except PathRefused as exc:
        raise MediaError(exc.reason, reference=source, suggestion=exc.suggestion) from None


def _read_file(path: Path, source: str, limits: MediaLimits) -> bytes:
    _stat(path, source, limits)
    try:
        with _open(path, source, limits) as handle:
            data = handle.read(limits.max_bytes + 1)
    except OSError as exc:
        raise _open_error(exc, source) from None
    if len(data) > limits.max_bytes:  # grew since the stat
        raise _too_large(source, len(data), limits)
    return data


def _file_type(path: Path, source: str, limits: MediaLimits) -> tuple[Sniffed | None, bytes]:
    """The file's type from its head (all of it when the head leaves the kind uncertain), and that head."""
    info = _stat(path, source, limits)
    key = (str(path), info.st_size, info.st_mtime_ns)
    if key in _file_facts:
        return _file_facts[key][1], b""
    try:
        with _open(path, source, limits) as handle:
            head = handle.read(HEAD_BYTES)
    except OSError as exc:
        raise _open_error(exc, source) from None
    found = sniff(head)
    if found is not None and not found.certain and info.st_size > len(head):
        head = _read_file(path, source, limits)
        found = sniff(head)
    return found, head


def _file_facts_of(path: Path, source: str, limits: MediaLimits) -> tuple[str, Sniffed | None, int]:
    info = _stat(path, source, limits)
    key = (str(path), info.st_size, info.st_mtime_ns)
    facts = _file_facts.get(key)
    if facts is None:
        data = _read_file(path, source, limits)
        facts = (hashlib.sha256(data).hexdigest(), sniff(data))
        if len(_file_facts) >= _FACTS_LIMIT:
            _file_facts.clear()
        _file_facts[key] = facts
    return facts[0], facts[1], info.st_size


def local_file(ref: Any, *, base_dir: str | Path | None = None, kind: str | None = None,
               limits: MediaLimits | None = None, field: str | None = None) -> tuple[Path, str] | None:
    """``(resolved path, mime)`` of a local file reference after checking it like ``check_reference``
    (exists, within the size limit, of ``kind``; the type from its head, cached per file version);
    None for any other form. Raises MediaError naming ``field``."""
    limits = limits or current_limits()
    try:
        parsed = parse_reference(ref, base_dir)
        if parsed.form != "path":
            return None
        assert parsed.path is not None
        found, _ = _file_type(parsed.path, parsed.source, limits)
        return parsed.path, _kind_of(found, kind, parsed.source).mime
    except MediaError as exc:
        if field:
            raise exc.at(field) from None
        raise


def file_sha256(ref: Any, base_dir: str | Path | None, limits: MediaLimits | None = None) -> str | None:
    """The sha256 of a local file reference (cached per file version), None for any other form."""
    limits = limits or current_limits()
    parsed = parse_reference(ref, base_dir)
    if parsed.form != "path":
        return None
    assert parsed.path is not None
    return _file_facts_of(parsed.path, parsed.source, limits)[0]


def _too_large(source: str, size: int, limits: MediaLimits) -> MediaError:
    return MediaError(f"is {size:,} bytes, over the {limits.max_bytes:,}-byte limit", reference=source,
                      suggestion="raise the suite option media_max_bytes, or use a smaller file")


def _quotable(parsed: _Parsed, data: bytes) -> bytes:
    """What an error may quote of unrecognised content: inline data and downloads (the writer's own bytes),
    never a local file's (a file's first bytes are no business of the report)."""
    return b"" if parsed.form == "path" else data


def _kind_of(found: Sniffed | None, kind: str | None, source: str, data: bytes = b"") -> Sniffed:
    """``found``, when it is of ``kind`` (an uncertain container takes the kind asked for); else MediaError."""
    if found is None:
        wanted = kind or "image, audio or video"
        formats = _FORMATS.get(kind or "", "PNG, JPEG, WAV, MP3, MP4, …")
        raise MediaError(f"content is not a recognised {wanted} format (it {describe_start(data)})" if data else
                         f"content is not a recognised {wanted} format", reference=source,
                         suggestion=f"give a file in one of: {formats}")
    if kind is None or found.kind == kind:
        return found
    if not found.certain and kind in ("audio", "video"):
        return Sniffed(kind, found.mime.replace(found.kind + "/", kind + "/"), found.label, False)
    _check_kind(found.kind, found.mime, kind, source, data, label=found.label)
    return found


def _check_kind(found_kind: str, mime: str, kind: str | None, source: str, data: bytes, label: str = "") -> None:
    if kind is None or found_kind == kind:
        return
    what = f"{label} {found_kind}" if label else found_kind
    raise MediaError(f"holds {what} ({mime}), not {_NOUNS[kind]}", reference=source,
                     suggestion=f"give {_NOUNS[kind]} ({_FORMATS[kind]}), or put this file in the `{found_kind}` field")


def identity(ref: Any, base_dir: str | Path | None = None, limits: MediaLimits | None = None) -> str:
    """A short text that changes when the medium does, without downloading anything (for cache keys):
    ``sha256:HEX`` of the content of a file, bytes or Media; of the text of an inline reference; a URL itself."""
    if isinstance(ref, Media):
        return f"sha256:{ref.sha256}"
    if isinstance(ref, (bytes, bytearray, memoryview)):
        return f"sha256:{hashlib.sha256(bytes(ref)).hexdigest()}"
    parsed = parse_reference(ref, base_dir)
    if parsed.form == "url":
        return str(parsed.url)
    if parsed.form == "path":
        return f"sha256:{file_sha256(ref, base_dir, limits)}"
    return f"text-sha256:{hashlib.sha256(str(parsed.payload).encode('utf-8', 'surrogatepass')).hexdigest()}"
