"""Fetch a medium from an http(s) URL once: bounded in size and time, cached by URL and by content hash.

In the process, a URL maps to the sha256 of what it returned (and a failure to its reason for
``FAILURE_TTL_S``, so a dead link costs one timeout per run, not one per case); on disk, the bytes live under
``cache_dir()/sha256[:2]/sha256`` and ``cache_dir()/urls/sha256(url)`` names the content of a URL, so
a later run reads the file instead of downloading again (delete the folder to fetch anew). When the
folder cannot be written, the bytes are kept in memory instead (up to ``MEMORY_BYTES``).
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from collections import OrderedDict
from typing import Any

from agentunit.media.limits import MediaLimits
from agentunit.media.model import MediaError, cache_dir

MEMORY_BYTES = 256 * 1024 * 1024
FAILURE_TTL_S = 300.0
_CHUNK = 64 * 1024
_USER_AGENT = "agentunit-media/1"

_by_url: dict[str, str | tuple[MediaError, float]] = {}  # URL → sha256 of its content, or (why it failed, when)
_memory: OrderedDict[str, bytes] = OrderedDict()  # sha256 → bytes, when the disk cache is not writable
_memory_size = 0
_lock = threading.Lock()
_url_locks: dict[str, threading.Lock] = {}


def fetch_url(url: str, limits: MediaLimits) -> bytes:
    """The content at ``url``, fetched at most once per process (and once per cache folder).

    Raises MediaError (reference: the URL) when the download fails, times out after
    ``limits.timeout_s`` in all, or exceeds ``limits.max_bytes``.
    """
    with _lock:
        url_lock = _url_locks.setdefault(url, threading.Lock())
    with url_lock:  # two cases asking for one URL at once download it once
        known = _by_url.get(url)
        if isinstance(known, tuple):
            if time.monotonic() - known[1] < FAILURE_TTL_S:
                raise known[0]
            known = None
        data = _cached(known) if known else _from_disk_index(url)
        if data is not None:
            return data
        try:
            data = _download(url, limits)
        except MediaError as exc:
            _by_url[url] = (exc, time.monotonic())
            raise
        digest = hashlib.sha256(data).hexdigest()
        _store(url, digest, data)
        _by_url[url] = digest
        return data


def known_sha256(url: str) -> str | None:
    """The sha256 of a URL's content if it was fetched (by this process or into the disk cache), else None;
    never downloads."""
    known = _by_url.get(url)
    if isinstance(known, str):
        return known
    try:
        with open(_index_path(url), encoding="ascii") as handle:
            digest = handle.read().strip()
    except (OSError, ValueError):
        return None
    return digest if len(digest) == 64 else None


def forget() -> None:
    """Clear the in-process caches (tests; the disk cache is kept)."""
    global _memory_size
    with _lock:
        _by_url.clear()
        _memory.clear()
        _memory_size = 0


def _download(url: str, limits: MediaLimits) -> bytes:
    """GET ``url`` with urllib: the Content-Length is checked first, then the bytes as they arrive, and
    the socket timeout is what is left of ``limits.timeout_s`` before each read."""
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + limits.timeout_s
    request = urllib.request.Request(url, headers={"User-Agent": _USER_AGENT, "Accept": "*/*"})
    fix = "check that the URL is reachable from this machine, or use a local file"
    try:
        with urllib.request.urlopen(request, timeout=limits.timeout_s) as response:
            declared = response.headers.get("Content-Length")
            if declared and declared.isdigit() and int(declared) > limits.max_bytes:
                raise _too_large(url, int(declared), limits)
            parts, total = [], 0
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError
                _set_timeout(response, left)
                chunk = response.read(_CHUNK)
                if not chunk:
                    break
                total += len(chunk)
                if total > limits.max_bytes:
                    raise _too_large(url, total, limits)
                parts.append(chunk)
            return b"".join(parts)
    except MediaError:
        raise
    except urllib.error.HTTPError as exc:
        raise MediaError(f"download failed: HTTP {exc.code} {exc.reason}", reference=url, suggestion=fix) from None
    except (TimeoutError, OSError) as exc:  # URLError, socket errors, a timeout while connecting or reading
        if isinstance(exc, TimeoutError) or "timed out" in str(exc):
            raise MediaError(f"download timed out after {limits.timeout_s:g} s", reference=url,
                             suggestion="raise the suite option media_timeout, or use a local copy") from None
        reason = getattr(exc, "reason", None) or exc
        raise MediaError(f"download failed: {reason}", reference=url, suggestion=fix) from None
    except ValueError as exc:  # a malformed URL urllib refuses
        raise MediaError(f"not a usable URL: {exc}", reference=url, suggestion="write a full http(s) URL") from None


def _set_timeout(response: Any, seconds: float) -> None:
    sock = getattr(getattr(getattr(response, "fp", None), "raw", None), "_sock", None)
    if sock is not None:
        try:
            sock.settimeout(seconds)
        except OSError:
            pass


def _too_large(url: str, size: int, limits: MediaLimits) -> MediaError:
    return MediaError(f"is over the {limits.max_bytes:,}-byte limit (at least {size:,} bytes)", reference=url,
                      suggestion="raise the suite option media_max_bytes, or use a smaller file")


def _index_path(url: str) -> str:
    return os.path.join(cache_dir(), "urls", hashlib.sha256(url.encode("utf-8", "surrogatepass")).hexdigest())


def _blob_path(digest: str) -> str:
    return os.path.join(cache_dir(), digest[:2], digest)


def _cached(digest: str) -> bytes | None:
    if digest in _memory:
        _memory.move_to_end(digest)
        return _memory[digest]
    try:
        with open(_blob_path(digest), "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    return data if hashlib.sha256(data).hexdigest() == digest else None  # a damaged file is fetched again


def _from_disk_index(url: str) -> bytes | None:
    digest = known_sha256(url)
    if digest is None:
        return None
    data = _cached(digest)
    if data is not None:
        _by_url[url] = digest
    return data


def _store(url: str, digest: str, data: bytes) -> None:
    """Write the bytes and the URL's index entry atomically; keep the bytes in memory when that fails."""
    try:
        _write_atomic(_blob_path(digest), data)
        _write_atomic(_index_path(url), digest.encode("ascii"))
    except OSError:
        _remember(digest, data)


def _write_atomic(path: str, data: bytes) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    temporary = f"{path}.{os.getpid()}.{threading.get_ident()}.tmp"
    with open(temporary, "wb") as handle:
        handle.write(data)
    os.replace(temporary, path)


def _remember(digest: str, data: bytes) -> None:
    global _memory_size
    with _lock:
        if digest in _memory or len(data) > MEMORY_BYTES:
            return
        _memory[digest] = data
        _memory_size += len(data)
        while _memory_size > MEMORY_BYTES:
            _, dropped = _memory.popitem(last=False)
            _memory_size -= len(dropped)
