"""Media tests: a fresh media cache folder per test, and a local HTTP server serving media."""

from __future__ import annotations

import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from agentunit.media import fetch


@pytest.fixture(autouse=True)
def media_home(tmp_path, monkeypatch):
    """Fetched media go under a temporary AGENTUNIT_HOME; the in-process caches start empty."""
    home = tmp_path / "agentunit-home"
    monkeypatch.setenv("AGENTUNIT_HOME", str(home))
    fetch.forget()
    yield home
    fetch.forget()


class MediaServer:
    """Serves ``files[path]`` (bytes); ``/slow`` sleeps 2 s first, ``/trickle`` sends no length, ``/missing``
    is a 404. Counts the requests per path."""

    def __init__(self):
        self.files: dict[str, bytes] = {}
        self.hits: Counter[str] = Counter()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                outer.hits[self.path] += 1
                if self.path.startswith("/slow"):
                    time.sleep(2)
                body = outer.files.get(self.path)
                if body is None:
                    self.send_response(404)
                    self.send_header("content-length", "0")
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("content-type", "application/octet-stream")
                if not self.path.startswith("/trickle"):
                    self.send_header("content-length", str(len(body)))
                self.end_headers()
                try:
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def media_server():
    server = MediaServer()
    yield server
    server.close()
