"""Shared fixtures: offline environment, a fault-injecting HTTP agent, local HTTP servers, helpers to run the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.http_helpers import LocalServer, Reply, Request

os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parent.parent


class AgentServer(LocalServer):
    """An HTTP agent on 127.0.0.1 (random port) whose behaviour is chosen by the prompt.

    ``ok:TEXT`` → 200 ``{output: TEXT, trusys: {...}}``; ``429once:K`` → one 429 with Retry-After: 1,
    then 200; ``500twice:K`` → two 500s, then 200; ``always500`` → 500 forever; ``slow:SECONDS`` →
    sleeps then answers; ``malformed`` → 200 with broken JSON; ``text:TEXT`` → text/plain;
    ``badenv`` → trusys that is not an object. Every request is logged with its time.
    """

    def __init__(self) -> None:
        self.hits: dict[str, list[float]] = defaultdict(list)
        super().__init__(self._answer, path="/agent", protocol="HTTP/1.1")

    def _answer(self, request: Request) -> Reply:
        prompt = str((request.json or {}).get("prompt", ""))
        self.hits[prompt].append(time.monotonic())
        count = len(self.hits[prompt])
        kind, _, arg = prompt.partition(":")
        if kind == "429once" and count == 1:
            return Reply(429, b'{"error": "rate limited"}', headers={"retry-after": "1"})
        if kind == "500twice" and count <= 2:
            return Reply(500, b'{"error": "boom"}')
        if kind == "always500":
            return Reply(500, b'{"error": "down"}')
        if kind == "slow":
            time.sleep(float(arg))
        if kind == "malformed":
            return Reply(200, b'{"output": "half')
        if kind == "text":
            return Reply(200, arg.encode(), content_type="text/plain")
        if kind == "badenv":
            return Reply(200, {"output": "x", "trusys": [1, 2]})
        return Reply(200, {"output": arg or prompt, "trusys": {
            "query": prompt, "context": ["The sky is blue."],
            "tool_calls": [{"name": "lookup", "arguments": {"q": arg}, "output": "blue"}],
            "plan": ["look up", "answer"], "usage": {"prompt_tokens": 10, "completion_tokens": 5}}})


@pytest.fixture
def agent_server() -> Iterator[AgentServer]:
    with AgentServer() as server:
        yield server


@pytest.fixture
def local_server() -> Iterator[Callable[..., LocalServer]]:
    """``local_server(handler, **options)`` starts a ``LocalServer`` (tests/http_helpers.py) and returns it;
    every server started is closed after the test."""
    servers: list[LocalServer] = []

    def start(*args: Any, **kwargs: Any) -> LocalServer:
        servers.append(LocalServer(*args, **kwargs))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


# How long a CLI run whose cases call the embedded judge (or another embedded model) may take in a test: the
# 1.5B judge answers in about 2 s on an idle 2-core machine and in 20 s or more on a busy one, so such a test
# gives its run this much, and the run's cases the same limit (`--timeout`): a slow machine makes the test
# slower, never a case error. Well within CI's 90 minutes for the whole suite.
JUDGED_RUN_S = 2400


def run_cli(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None,
            timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run ``python -m agentunit ARGS`` as a user would; returns the completed process."""
    return subprocess.run([sys.executable, "-m", "agentunit", *args], cwd=cwd or ROOT, capture_output=True,
                          text=True, timeout=timeout, env={**os.environ, **(env or {})}, stdin=subprocess.DEVNULL)


def write_suite(path: Path, suite: dict) -> Path:
    path.write_text(json.dumps(suite))
    return path
