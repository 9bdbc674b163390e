"""The one local HTTP server for tests: ``LocalServer`` answers on 127.0.0.1 (a free port) from a handler
function, records every request, and stops cleanly.

    def answer(request: Request) -> Reply:
        return Reply(200, {"output": request.json["prompt"]})

    with LocalServer(answer, path="/agent") as server:  # or the ``local_server`` fixture (tests/conftest.py)
        ...  # server.url, server.requests, server.bodies

``script(*replies)`` is a handler answering a fixed script of replies; ``RecordingServer(*replies)`` is a
``LocalServer`` answering one.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """What a handler answers. ``body``: bytes, text (sent as UTF-8), or a dict or list (sent as JSON).
    ``content_type`` None sends no Content-Type. ``headers`` are sent after Content-Type and Content-Length.
    ``length=False`` sends no Content-Length: the body runs until the connection closes (HTTP/1.0).
    ``delay``: seconds to wait before answering."""

    status: int = 200
    body: bytes | str | dict | list = b""
    content_type: str | None = "application/json"
    headers: dict[str, str] = field(default_factory=dict)
    length: bool = True
    delay: float = 0.0

    def payload(self) -> bytes:
        if isinstance(self.body, bytes):
            return self.body
        return (self.body if isinstance(self.body, str) else json.dumps(self.body)).encode()


@dataclass
class Request:
    """One request, as a handler sees it: ``headers`` read case-insensitively; ``body`` the raw bytes.
    ``raw`` is the ``BaseHTTPRequestHandler`` serving it, for a reply a ``Reply`` cannot express (a status
    line sent byte by byte): the handler writes to ``raw`` itself and returns None."""

    method: str
    path: str
    headers: Message
    body: bytes
    raw: BaseHTTPRequestHandler

    @property
    def json(self) -> Any:
        """The body decoded as JSON (an error if it is not JSON); None for an empty body."""
        return json.loads(self.body) if self.body else None


Handler = Callable[[Request], "Reply | None"]


class LocalServer:
    """An HTTP server on 127.0.0.1 (a free port), serving in a daemon thread from construction on.

    Every request (GET, POST, PUT, PATCH, DELETE) is first recorded in ``requests`` as
    ``{"method", "path", "headers", "body"}`` (``headers`` a dict as sent; ``body`` decoded as JSON, else
    as text, None when empty), then answered with what ``handler(request)`` returns: a ``Reply``, or None
    when the handler wrote its reply itself through ``request.raw``. A client that hangs up while the
    reply is written is no error.

    ``url`` is ``http://127.0.0.1:PORT`` followed by ``path``; ``port`` is the port. ``protocol``
    ``"HTTP/1.1"`` keeps connections alive, as most real servers do. ``close()``, or the end of a ``with``
    block, sets ``stopping`` (a handler that waits should wait on it), stops serving and frees the port;
    it does not wait for handlers still running. A subclass that keeps state sets it before calling
    ``LocalServer.__init__``: requests may arrive from then on.
    """

    def __init__(self, handler: Handler, *, path: str = "", protocol: str = "HTTP/1.0"):
        self.handler = handler
        self.requests: list[dict[str, Any]] = []
        self.stopping = threading.Event()
        outer = self

        class _Handler(BaseHTTPRequestHandler):
            protocol_version = protocol

            def log_message(self, *args: object) -> None:
                pass

            def _serve(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                request = Request(self.command, self.path, self.headers, body, self)
                outer.requests.append({"method": request.method, "path": request.path,
                                       "headers": dict(request.headers), "body": _decoded(body)})
                reply = outer.handler(request)
                if reply is not None:
                    _send(self, reply)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _serve

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}{path}"
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    @property
    def bodies(self) -> list[Any]:
        """The decoded bodies of the requests so far, in order."""
        return [request["body"] for request in self.requests]

    def close(self) -> None:
        if self.stopping.is_set():
            return
        self.stopping.set()
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self) -> LocalServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def script(*replies: Reply | tuple) -> Handler:
    """A handler answering the n-th request with the n-th of ``replies``, the last one repeated; each a
    ``Reply`` or a ``(status, JSON text[, delay in seconds])`` tuple."""
    steps = [step if isinstance(step, Reply) else Reply(step[0], step[1], delay=step[2] if len(step) > 2 else 0)
             for step in replies]
    counter, lock = itertools.count(), threading.Lock()

    def answer(request: Request) -> Reply:
        with lock:
            n = next(counter)
        return steps[min(n, len(steps) - 1)]

    return answer


class RecordingServer(LocalServer):
    """A ``LocalServer`` answering ``script(*replies)``; ``url`` has no path."""

    def __init__(self, *replies: Reply | tuple):
        super().__init__(script(*replies))


def _decoded(body: bytes) -> Any:
    if not body:
        return None
    try:
        return json.loads(body)
    except ValueError:
        return body.decode("utf-8", "replace")


def _send(raw: BaseHTTPRequestHandler, reply: Reply) -> None:
    time.sleep(reply.delay)
    data = reply.payload()
    try:
        raw.send_response(reply.status)
        if reply.content_type is not None:
            raw.send_header("content-type", reply.content_type)
        if reply.length:
            raw.send_header("content-length", str(len(data)))
        for name, value in reply.headers.items():
            raw.send_header(name, value)
        raw.end_headers()
        raw.wfile.write(data)
    except (BrokenPipeError, ConnectionResetError):  # the client hung up
        pass
