"""Fetch a medium from an http(s) URL once: bounded in size and time, cached by URL and by content hash.

In the process, a URL maps to the sha256 of what it returned (and a failure to its reason for
``FAILURE_TTL_S``, so a dead link costs one timeout per run, not one per case); on disk, the bytes live under
``cache_dir()/sha256[:2]/sha256`` and ``cache_dir()/urls/sha256(url)`` names the content of a URL, so
a later run reads the file instead of downloading again (delete the folder to fetch anew). When the
folder cannot be written, the bytes are kept in memory instead (up to ``MEMORY_BYTES``).

Time: one deadline covers the whole download — connection, TLS, headers and body — at ``media_timeout``
after it starts, or earlier when the case in progress must end first (``case_deadline``). A watchdog
shuts the connection down at the deadline, so a server that sends a byte now and then (each read
within a socket timeout) cannot hold the download, nor the thread it runs in, any longer.
"""

from __future__ import annotations

import hashlib
import os
import socket
import threading
import time
from collections import OrderedDict
from typing import Any

from agentunit.media.limits import MediaLimits, case_deadline
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

    Raises MediaError (reference: the URL) when the download fails, takes longer than
    ``limits.timeout_s`` in all, is still running when the case's deadline comes, or exceeds
    ``limits.max_bytes``. A failure is remembered for the URL, except a stop at the case's deadline
    (the URL may be fine; the case ran out of time).
    """
    deadline, for_case = _deadline(limits)
    with _lock:
        url_lock = _url_locks.setdefault(url, threading.Lock())
    # Two cases asking for one URL at once download it once; the second waits no longer than its own deadline.
    if not url_lock.acquire(timeout=max(0.0, deadline - time.monotonic())):
        raise _out_of_time(url, limits, for_case)
    try:
        known = _by_url.get(url)
        if isinstance(known, tuple):
            if time.monotonic() - known[1] < FAILURE_TTL_S:
                raise known[0]
            known = None
        data = _cached(known) if known else _from_disk_index(url)
        if data is not None:
            return data
        try:
            data = _download(url, limits, deadline, for_case)
        except MediaError as exc:
            if not (for_case and exc.reason.startswith(_STOPPED)):
                _by_url[url] = (exc, time.monotonic())
            raise
        digest = hashlib.sha256(data).hexdigest()
        _store(url, digest, data)
        _by_url[url] = digest
        return data
    finally:
        url_lock.release()


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


def _deadline(limits: MediaLimits) -> tuple[float, bool]:
    """The download's deadline (``time.monotonic()``): ``limits.timeout_s`` from now, or the case's
    deadline when that comes first; and whether it is the case's."""
    own = time.monotonic() + limits.timeout_s
    case = case_deadline()
    return (case, True) if case is not None and case < own else (own, False)


_STOPPED = "download stopped"


def _out_of_time(url: str, limits: MediaLimits, for_case: bool) -> MediaError:
    if for_case:
        return MediaError(f"{_STOPPED}: the case's time limit ran out", reference=url,
                          suggestion="raise --timeout or the suite option timeout, or use a local copy")
    return MediaError(f"download timed out after {limits.timeout_s:g} s (media_timeout, for the connection, "
                      "headers and body in all)", reference=url,
                      suggestion="raise the suite option media_timeout, or use a local copy")


def _download(url: str, limits: MediaLimits, deadline: float, for_case: bool) -> bytes:
    """GET ``url`` with urllib until ``deadline``: the Content-Length is checked first, then the bytes as
    they arrive; a watchdog shuts the connection down at the deadline (see the module's docstring)."""
    import http.client
    import urllib.error
    import urllib.request

    left = deadline - time.monotonic()
    if left <= 0:
        raise _out_of_time(url, limits, for_case)
    request = urllib.request.Request(url, headers={"User-Agent": _USER_AGENT, "Accept": "*/*"})
    fix = "check that the URL is reachable from this machine, or use a local file"
    watchdog = _Watchdog(deadline)
    try:
        with _opener(watchdog).open(request, timeout=left) as response:
            declared = response.headers.get("Content-Length")
            if declared and declared.isdigit() and int(declared) > limits.max_bytes:
                raise _too_large(url, int(declared), limits)
            parts, total = [], 0
            while chunk := response.read(_CHUNK):
                total += len(chunk)
                if total > limits.max_bytes:
                    raise _too_large(url, total, limits)
                parts.append(chunk)
            if watchdog.expired:  # a connection shut down at the deadline reads as its end: this is not all
                raise TimeoutError
            return b"".join(parts)
    except MediaError:
        raise
    except (OSError, http.client.HTTPException, ValueError) as exc:
        # The watchdog's shutdown surfaces as whatever the read was doing: an EOF, a reset, an IncompleteRead.
        if watchdog.expired or isinstance(exc, TimeoutError) or "timed out" in str(exc):
            raise _out_of_time(url, limits, for_case) from None
        if isinstance(exc, urllib.error.HTTPError):
            raise MediaError(f"download failed: HTTP {exc.code} {exc.reason}", reference=url,
                             suggestion=fix) from None
        if isinstance(exc, ValueError):  # a malformed URL urllib refuses
            raise MediaError(f"not a usable URL: {exc}", reference=url, suggestion="write a full http(s) URL") from None
        reason = getattr(exc, "reason", None) or exc
        raise MediaError(f"download failed: {reason}", reference=url, suggestion=fix) from None
    finally:
        watchdog.close()


class _Watchdog:
    """Shuts every connection of one download down at its deadline, from a timer thread.

    A socket timeout bounds one read, not a download: a server that sends a byte every second keeps each
    read short and the download going for ever (in the headers as in the body, where the buffered reader
    waits for a full chunk). Shutting the socket down makes any read blocked on it return at once.
    """

    def __init__(self, deadline: float):
        self.expired = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(max(0.0, deadline - time.monotonic()), self._expire)
        self._timer.daemon = True
        self._timer.start()

    def connect(self, address: tuple[str, int], timeout: Any = socket._GLOBAL_DEFAULT_TIMEOUT,  # type: ignore[attr-defined]
                source_address: Any = None) -> socket.socket:
        """``socket.create_connection``, the connection watched (http.client's ``_create_connection``)."""
        sock = socket.create_connection(address, timeout, source_address)
        with self._lock:
            if self.expired:
                sock.close()
                raise TimeoutError("timed out")
            # A descriptor of our own for the same connection (taken before TLS wraps the socket): shutting
            # it down ends reads on urllib's, and it can never be another file's after urllib closes its own.
            self._sockets.append(sock.dup())
        return sock

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            for sock in self._sockets:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:  # already closed by the server
                    pass

    def close(self) -> None:
        self._timer.cancel()
        with self._lock:
            for sock in self._sockets:
                sock.close()
            self._sockets.clear()


def _opener(watchdog: _Watchdog) -> Any:
    """A urllib opener (proxies, redirects as usual) whose HTTP and HTTPS connections ``watchdog`` watches."""
    import http.client
    import urllib.request

    def watched(base: type[http.client.HTTPConnection]) -> Any:
        def connection(host: str, **kwargs: Any) -> http.client.HTTPConnection:
            made = base(host, **kwargs)
            made._create_connection = watchdog.connect  # type: ignore[attr-defined]
            return made
        return connection

    class _HTTP(urllib.request.HTTPHandler):
        def http_open(self, req: Any) -> Any:
            return self.do_open(watched(http.client.HTTPConnection), req)

    if not hasattr(urllib.request, "HTTPSHandler"):  # a Python built without ssl
        return urllib.request.build_opener(_HTTP())

    class _HTTPS(urllib.request.HTTPSHandler):
        def https_open(self, req: Any) -> Any:
            return self.do_open(watched(http.client.HTTPSConnection), req, context=self._context)  # type: ignore[attr-defined]

    return urllib.request.build_opener(_HTTP(), _HTTPS())


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
