"""A media download has one deadline in all, and ends with its case (issue 50).

The server here sends its headers (or its status line) and then one byte every 0.2 s for up to a
minute: every single read is quick, so only a deadline over the whole download stops it. What is checked
is how each trickle ended — the client hung up, or the trickle ran its whole minute — not how long a
download took: a busy machine makes the client slower to hang up, never a minute slower.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
import time

import pytest

from agentunit import evaluate
from agentunit.media import media_of
from agentunit.media.limits import MediaLimits, reset_case_deadline, use_case_deadline
from agentunit.media.model import MediaError
from agentunit.media.references import load_media
from agentunit.metrics.base import MetricResult
from tests.http_helpers import LocalServer, RecordingServer
from tests.process_helpers import eventually

from .probe import MediaProbe

TRICKLE_S = 60.0  # how long the server keeps sending, at most


class TrickleServer(LocalServer):
    """``/body``: a PNG's headers (Content-Length 1 MB), then a byte every 0.2 s; ``/headers``: the status
    line itself one byte every 0.2 s. Each connection stops after ``TRICKLE_S`` or at ``close()``;
    ``open_connections`` counts those still sending, ``ended`` says how each one that stopped did: "hung up"
    (the client closed it), "trickled to the end" (``TRICKLE_S`` passed) or "closed" (the server)."""

    def __init__(self):
        self.open_connections = 0
        self.ended: list[str] = []
        super().__init__(self._answer)

    def hung_up(self) -> bool:
        """Whether every connection that stopped was hung up by the client, once none is open (within a minute:
        the client's hang-up is seen at the next byte sent, 0.2 s later on an idle machine). A download whose
        deadline came before it connected (a busy machine) leaves no connection at all."""
        assert eventually(lambda: self.open_connections == 0), "a connection is still open"
        return all(how == "hung up" for how in self.ended)

    def _answer(self, request):  # writes its reply itself, through request.raw
        self.open_connections += 1
        try:
            if request.path.startswith("/headers"):
                self._trickle(request.raw, b"HTTP/1.1 200 OK\r\nX-Slow: " + b"x" * 100_000)
            else:
                request.raw.send_response(200)
                request.raw.send_header("content-type", "image/png")
                request.raw.send_header("content-length", "1000000")
                request.raw.end_headers()
                request.raw.wfile.flush()
                self._trickle(request.raw, b"\x89PNG\r\n\x1a\n" + b"\0" * 999_992)
        finally:
            self.open_connections -= 1

    def _trickle(self, raw, data: bytes) -> None:
        end = time.monotonic() + TRICKLE_S
        for byte in data:
            if self.stopping.is_set():
                self.ended.append("closed")
                return
            if time.monotonic() > end:
                self.ended.append("trickled to the end")
                return
            try:
                raw.wfile.write(bytes([byte]))
                raw.wfile.flush()
            except OSError:
                self.ended.append("hung up")
                return
            self.stopping.wait(0.2)
        self.ended.append("trickled to the end")


@pytest.fixture
def trickle():
    with TrickleServer() as server:
        yield server


def _suite(folder, text):
    path = folder / "suite.yaml"
    path.write_text(textwrap.dedent(text).lstrip())
    return path


class ThreadedProbe(MediaProbe):
    """MediaProbe reading its media in a worker thread, as the model-backed metrics do: the engine's
    case timeout cancels the await, not the thread."""

    name = display_name = "threaded-probe"

    async def evaluate_async(self, case, trace, outcome):
        media = await asyncio.to_thread(media_of, case, outcome, self.kind, self.where)
        return MetricResult(name=self.name, value=float(len(media)), passed=True)


@pytest.mark.parametrize("path", ["/body", "/headers"])
def test_media_timeout_is_one_deadline_for_the_whole_download(trickle, path):
    # Before the fix, each read had the timeout, so the download lasted as long as the trickle (60 s).
    with pytest.raises(MediaError, match=r"timed out after 1 s \(media_timeout"):
        load_media(trickle.url + path, kind="image", limits=MediaLimits(timeout_s=1))
    assert trickle.hung_up()  # the client gave up while the trickle went on


def test_a_download_stops_at_the_case_deadline_in_any_thread(trickle):
    token = use_case_deadline(time.monotonic() + 1)
    try:
        with pytest.raises(MediaError, match="download stopped: the case's time limit ran out"):
            asyncio.run(asyncio.to_thread(load_media, trickle.url + "/body", kind="image",
                                          limits=MediaLimits(timeout_s=600)))
        assert trickle.hung_up()
    finally:
        reset_case_deadline(token)
    # Stopped for the case's sake, the URL is not marked as failed: a case with more time may fetch it.
    with pytest.raises(MediaError, match=r"timed out after 0\.5 s"):
        load_media(trickle.url + "/body", kind="image", limits=MediaLimits(timeout_s=0.5))


def test_a_suite_media_timeout_errors_the_case_with_the_reason(trickle, tmp_path):
    path = _suite(tmp_path, f"""
        target: echo
        options: {{media_timeout: 1}}
        cases:
          - id: slow
            prompt: look
            image: {trickle.url}/body
        """)
    (case,) = evaluate(path, metrics=[MediaProbe()]).cases
    assert "trickled to the end" not in trickle.ended  # the run ended before the trickle did
    assert case["status"] == "errored" and "download timed out after 1 s (media_timeout" in case["error"]
    assert trickle.hung_up()


@pytest.mark.parametrize("probe", [MediaProbe, ThreadedProbe])
def test_the_case_timeout_ends_the_download_and_the_run(trickle, tmp_path, probe):
    # Before the fix a sync metric held the case for the whole trickle, and a threaded one held the end of
    # the run (asyncio.run waits for its worker threads) just as long.
    path = _suite(tmp_path, f"""
        target: echo
        options: {{timeout: 1, media_timeout: 600}}
        cases:
          - id: slow
            prompt: look
            image: {trickle.url}/body
        """)
    (case,) = evaluate(path, metrics=[probe()]).cases
    assert "trickled to the end" not in trickle.ended  # the run ended before the trickle did
    assert case["status"] == "errored"
    assert "the case's time limit ran out" in case["error"] or "timed out: the case's 1 s limit" in case["error"]
    assert trickle.hung_up()  # the client hung up: the server stops


def test_the_cli_with_timeout_exits_while_a_target_request_waits_for_media(trickle, tmp_path):
    # The http target reads the case's image (for its body) in a worker thread; the case's timeout
    # cancels the call, and before the fix the process then waited at exit for that thread.
    target = RecordingServer((200, '{"output": "ok"}'))
    try:
        path = _suite(tmp_path, f"""
            target:
              type: http
              url: {target.url}/chat
              body: {{image: "{{{{ image | base64 }}}}"}}
            options: {{media_timeout: 600}}
            cases:
              - id: slow
                prompt: look
                image: {trickle.url}/body
            """)
        env = {**os.environ, "AGENTUNIT_HOME": str(tmp_path / "home")}
        done = subprocess.run([sys.executable, "-m", "agentunit", "run", str(path), "--timeout", "1", "-q",
                               "--db", str(tmp_path / "runs.db"), "-o", str(tmp_path / "report.json")],
                              capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env)
        assert "trickled to the end" not in trickle.ended, done.stderr  # the process exited before the trickle ended
        assert done.returncode == 1, done.stderr
        assert "target timed out after 1 s" in (tmp_path / "report.json").read_text()
        assert target.requests == []
        assert trickle.hung_up()
    finally:
        target.close()
