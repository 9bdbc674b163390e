"""Media tests: a fresh media cache folder per test, and a local HTTP server serving media."""

from __future__ import annotations

from collections import Counter

import pytest

from agentunit.media import fetch
from tests.http_helpers import LocalServer, Reply


@pytest.fixture(autouse=True)
def media_home(tmp_path, monkeypatch):
    """Fetched media go under a temporary AGENTUNIT_HOME; the in-process caches start empty."""
    home = tmp_path / "agentunit-home"
    monkeypatch.setenv("AGENTUNIT_HOME", str(home))
    fetch.forget()
    yield home
    fetch.forget()


class MediaServer(LocalServer):
    """Serves ``files[path]`` (bytes); ``/slow`` sleeps 2 s first, ``/trickle`` sends no length, ``/missing``
    is a 404. Counts the requests per path."""

    def __init__(self):
        self.files: dict[str, bytes] = {}
        self.hits: Counter[str] = Counter()
        super().__init__(self._serve)

    def _serve(self, request):
        self.hits[request.path] += 1
        delay = 2 if request.path.startswith("/slow") else 0
        body = self.files.get(request.path)
        if body is None:
            return Reply(404, content_type=None, delay=delay)
        return Reply(200, body, content_type="application/octet-stream", delay=delay,
                     length=not request.path.startswith("/trickle"))


@pytest.fixture
def media_server():
    with MediaServer() as server:
        yield server
