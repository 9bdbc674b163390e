"""Serve an example agent's ``answer(prompt) -> dict`` as JSON over HTTP on 127.0.0.1 (POST {"prompt": …})."""

from __future__ import annotations

import json
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def serve(answer: Callable[[str], dict[str, Any]], port: int, label: str) -> None:
    """Block serving ``answer``; prints the address (port 0 picks a free one)."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
            payload = json.dumps(answer(str(body.get("prompt", "")))).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    print(f"{label} on http://127.0.0.1:{server.server_address[1]}/", flush=True)
    server.serve_forever()
