"""One results database (runs A and B of ``demo``, and a hostile run) and one viewer serving it, per session."""

from __future__ import annotations

import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from agentunit.viewer import ViewerServer, make_server
from tests.viewer.browser import browser, tab  # noqa: F401  (the browser tests' fixtures)
from tests.viewer.hostile import build_runs


@pytest.fixture(scope="session")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("viewer") / "results.db"
    return {**build_runs(path), "db": path}


@pytest.fixture(scope="session")
def viewer(results: dict[str, Any]) -> Iterator[ViewerServer]:
    server = make_server(results["db"], port=0)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def fetch(url: str, headers: dict[str, str] | None = None, method: str = "GET") -> tuple[int, dict[str, str], str]:
    """(status, headers, body) of a request, errors included; redirects are not followed."""

    class _NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    opener = urllib.request.build_opener(_NoRedirect)
    request = urllib.request.Request(url, headers=headers or {}, method=method)
    try:
        with opener.open(request, timeout=10) as reply:
            return reply.status, dict(reply.headers), reply.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read().decode()
