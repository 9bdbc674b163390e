"""A small JSON HTTP server for tests that check what a client sends and how it reads replies."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class RecordingServer:
    """Answers each POST on 127.0.0.1 with the next ``(status, body text[, delay in seconds])`` of
    ``replies`` (the last one repeated) as JSON; records the path, headers and decoded body of every
    request in ``requests``. ``url`` has no trailing slash; ``close()`` stops it."""

    def __init__(self, *replies: tuple):
        self.replies, self.requests = list(replies), []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                outer.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                status, text, *delay = outer.replies[min(len(outer.requests), len(outer.replies)) - 1]
                time.sleep(delay[0] if delay else 0)
                data = text.encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
