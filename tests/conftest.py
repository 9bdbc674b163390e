"""Shared fixtures: offline environment, a fault-injecting HTTP server, helpers to run the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parent.parent


class AgentServer:
    """An HTTP agent on 127.0.0.1 (random port) whose behaviour is chosen by the prompt.

    ``ok:TEXT`` → 200 ``{output: TEXT, trusys: {...}}``; ``429once:K`` → one 429 with Retry-After: 1,
    then 200; ``500twice:K`` → two 500s, then 200; ``always500`` → 500 forever; ``slow:SECONDS`` →
    sleeps then answers; ``malformed`` → 200 with broken JSON; ``text:TEXT`` → text/plain;
    ``badenv`` → trusys that is not an object. Every request is logged with its time.
    """

    def __init__(self) -> None:
        self.hits: dict[str, list[float]] = defaultdict(list)
        self.requests: list[dict] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                prompt = str(body.get("prompt", ""))
                server.requests.append({"headers": dict(self.headers), "body": body, "path": self.path})
                server.hits[prompt].append(time.monotonic())
                count = len(server.hits[prompt])
                kind, _, arg = prompt.partition(":")
                if kind == "429once" and count == 1:
                    return self._send(429, b'{"error": "rate limited"}', retry_after="1")
                if kind == "500twice" and count <= 2:
                    return self._send(500, b'{"error": "boom"}')
                if kind == "always500":
                    return self._send(500, b'{"error": "down"}')
                if kind == "slow":
                    time.sleep(float(arg))
                if kind == "malformed":
                    return self._send(200, b'{"output": "half', content_type="application/json")
                if kind == "text":
                    return self._send(200, arg.encode(), content_type="text/plain")
                if kind == "badenv":
                    return self._send(200, json.dumps({"output": "x", "trusys": [1, 2]}).encode())
                reply = {"output": arg or prompt, "trusys": {
                    "query": prompt, "context": ["The sky is blue."],
                    "tool_calls": [{"name": "lookup", "arguments": {"q": arg}, "output": "blue"}],
                    "plan": ["look up", "answer"], "usage": {"prompt_tokens": 10, "completion_tokens": 5}}}
                return self._send(200, json.dumps(reply).encode())

            def _send(self, status: int, payload: bytes, content_type: str = "application/json",
                      retry_after: str | None = None) -> None:
                self.send_response(status)
                self.send_header("content-type", content_type)
                self.send_header("content-length", str(len(payload)))
                if retry_after:
                    self.send_header("retry-after", retry_after)
                self.end_headers()
                self.wfile.write(payload)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/agent"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self) -> AgentServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def agent_server() -> Iterator[AgentServer]:
    with AgentServer() as server:
        yield server


def run_cli(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None,
            timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run ``python -m agentunit ARGS`` as a user would; returns the completed process."""
    return subprocess.run([sys.executable, "-m", "agentunit", *args], cwd=cwd or ROOT, capture_output=True,
                          text=True, timeout=timeout, env={**os.environ, **(env or {})}, stdin=subprocess.DEVNULL)


def write_suite(path: Path, suite: dict) -> Path:
    path.write_text(json.dumps(suite))
    return path
