"""The viewer's HTTP server: the standard library's ThreadingHTTPServer, read-only, GET and HEAD only.

Bound to 127.0.0.1 unless another host is asked for. On a loopback address, requests must name it in
their ``Host`` header (a page elsewhere cannot reach the viewer through DNS rebinding). On any other
address every request needs the token printed at start: ``?token=…`` once (it becomes an HttpOnly,
SameSite=Strict cookie), the cookie, or ``Authorization: Bearer …``. Every page is sent with a
Content-Security-Policy that allows no script at all, and styles only from the viewer itself.
"""

from __future__ import annotations

import contextlib
import hmac
import ipaddress
import queue
import secrets
import sqlite3
import sys
from collections.abc import Iterator
from http.cookies import CookieError, SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit

import agentunit.viewer.pages as pages
import agentunit.viewer.queries as queries
from agentunit.store.location import is_postgres_url, redact_url

CSP = ("default-src 'none'; style-src 'self'; img-src data:; script-src 'none'; form-action 'self'; "
       "base-uri 'none'; frame-ancestors 'none'")
COOKIE = "agentunit_view_token"
_CLIENT_GONE = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError)


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or ``localhost``) only accepts connections from this machine."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class ViewerServer(ThreadingHTTPServer):
    """Serves the pages of one results database; ``token`` is None on a loopback address."""

    daemon_threads = True

    def __init__(self, db_path: str | Path, host: str = "127.0.0.1", port: int = 0, *, token: str | None = None):
        self.db_path: Path | str = db_path if is_postgres_url(db_path) else Path(db_path)
        queries.connect(self.db_path).close()  # a missing or foreign database fails here, before binding
        self.token = token
        self._pool: queue.SimpleQueue[sqlite3.Connection] = queue.SimpleQueue()
        super().__init__((host, port), _Handler)
        self.loopback = is_loopback(host)
        bound_port = self.server_address[1]
        names = ("127.0.0.1", "localhost", "[::1]", host)
        self.allowed_hosts = {f"{name}:{bound_port}" for name in names}
        if bound_port == 80:  # browsers leave the default port out of Host
            self.allowed_hosts |= set(names)

    @property
    def url(self) -> str:
        """The address to open (without the token)."""
        host = self.server_address[0]
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{self.server_address[1]}/"

    @contextlib.contextmanager
    def connection(self) -> Iterator[sqlite3.Connection]:
        """A read-only connection to the database for one request (pooled: requests run in threads)."""
        try:
            conn = self._pool.get_nowait()
        except queue.Empty:
            conn = queries.connect(self.db_path)
        try:
            yield conn
        finally:
            if not getattr(conn, "closed", False):  # a PostgreSQL connection the server dropped is not reused
                self._pool.put(conn)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away mid-reply (a closed tab, a browser that cancelled a load) is not worth a
        traceback on the console; any other error is reported as the standard library reports it."""
        if isinstance(sys.exc_info()[1], _CLIENT_GONE):
            return
        super().handle_error(request, client_address)

    def server_close(self) -> None:
        super().server_close()
        while True:
            try:
                self._pool.get_nowait().close()
            except queue.Empty:
                break


def make_server(db_path: str | Path, host: str = "127.0.0.1", port: int = 0) -> ViewerServer:
    """A viewer server for ``db_path``; a token is made when ``host`` is not a loopback address.

    Raises ViewerError when the database is missing or not a results database, OSError when the
    address cannot be bound.
    """
    token = None if is_loopback(host) else secrets.token_urlsafe(24)
    return ViewerServer(db_path, host, port, token=token)


def serve(db_path: str | Path, host: str = "127.0.0.1", port: int = 0, *, out: TextIO | None = None) -> None:
    """Serve until interrupted, printing the address (and, off loopback, the token, once)."""
    out = out or sys.stdout
    server = make_server(db_path, host, port)
    if server.token:
        out.write(f"agentunit view: serving {redact_url(server.db_path)} on {host}, reachable from other machines.\n"
                  f"Every request needs this token (shown once): {server.token}\n"
                  f"Open {server.url}?{urlencode({'token': server.token})}\n")
    else:
        out.write(f"agentunit view: serving {redact_url(server.db_path)} at {server.url} (Ctrl-C stops it)\n")
    out.flush()
    try:
        server.serve_forever()
    finally:
        server.server_close()


class _Handler(BaseHTTPRequestHandler):
    server: ViewerServer
    server_version = "agentunit-view"
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:  # quiet: a page view is not news
        pass

    def do_HEAD(self) -> None:
        self._respond(head=True)

    def do_GET(self) -> None:
        self._respond(head=False)

    def _refuse(self) -> None:
        self._send(405, pages.error_page(405, "the viewer only reads: GET and HEAD")[1], head=False,
                   extra={"Allow": "GET, HEAD"})

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _refuse

    def _respond(self, head: bool) -> None:
        parts = urlsplit(self.path)
        params = dict(parse_qsl(parts.query, keep_blank_values=True))
        if self.server.loopback and self.headers.get("Host", "") not in self.server.allowed_hosts:
            return self._send(421, pages.error_page(421, "this viewer answers only to its own address")[1], head)
        if self.server.token is not None:
            given = params.pop("token", None)
            if given is not None and hmac.compare_digest(given.encode(), self.server.token.encode()):
                cookie = f"{COOKIE}={self.server.token}; HttpOnly; SameSite=Strict; Path=/"
                location = parts.path + ("?" + urlencode(params) if params else "")
                return self._send(303, "", head, extra={"Location": location, "Set-Cookie": cookie})
            if not self._authorised():
                return self._send(401, pages.error_page(401, "this viewer needs the token printed when it "
                                                              "started: open the address it printed")[1], head)
        if parts.path == "/static/viewer.css":
            return self._send(200, pages.CSS, head, content_type="text/css; charset=utf-8")
        try:
            with self.server.connection() as conn:
                status, body = self._page(conn, parts.path, params)
        except queries.ViewerError as exc:
            status, body = pages.error_page(500, str(exc))
        except sqlite3.Error as exc:
            status, body = pages.error_page(500, f"the database could not be read: {exc}")
        except Exception as exc:  # a PostgreSQL error (psycopg is loaded only for a postgresql:// database)
            if not type(exc).__module__.startswith("psycopg"):
                raise
            status, body = pages.error_page(500, f"the database could not be read: {type(exc).__name__}: {exc}")
        self._send(status, body, head)

    def _authorised(self) -> bool:
        token = self.server.token or ""
        header = self.headers.get("Authorization", "")
        if header.startswith("Bearer ") and hmac.compare_digest(header[7:].encode(), token.encode()):
            return True
        try:
            cookie = SimpleCookie(self.headers.get("Cookie", ""))
        except CookieError:
            return False
        morsel = cookie.get(COOKIE)
        return morsel is not None and hmac.compare_digest(morsel.value.encode(), token.encode())

    def _page(self, conn: sqlite3.Connection, path: str, params: dict[str, str]) -> tuple[int, str]:
        """The page at ``path`` (still URL-encoded: a run id may hold an encoded "/")."""
        if path == "/":
            return pages.runs_page(conn, params)
        if path == "/compare":
            return pages.compare_page(conn, self.server.db_path, params)
        if path.startswith("/run/"):
            run_id, _, tail = path[len("/run/"):].partition("/")
            if tail == "":
                return pages.run_page(conn, unquote(run_id), params)
            if tail == "case":
                return pages.case_page(conn, unquote(run_id), params)
        return pages.error_page(404, f"no page at {unquote(path)}")

    def _send(self, status: int, body: str, head: bool, *, content_type: str = "text/html; charset=utf-8",
              extra: dict[str, str] | None = None) -> None:
        data = body.encode("utf-8", "replace")
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Cache-Control", "no-store")
        for key, value in (extra or {}).items():
            self.send_header(key, value)
        self.end_headers()
        if not head:
            self.wfile.write(data)
