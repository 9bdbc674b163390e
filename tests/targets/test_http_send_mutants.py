"""``send_with_retries`` attempt by attempt against a scripted session: which failures are retried, how long
it waits before each retry (its backoff or the server's ``Retry-After``), the exact error texts (redacted,
then clipped to 300 characters, with the attempt count), the time an attempt took; and the session
``new_session`` makes (mutation testing found these unpinned; docs/testing.md, "Mutation testing")."""

import asyncio
import itertools
import time
import types

import aiohttp
import pytest

from agentunit.errors import TargetError
from agentunit.targets import _http


class _Body:
    def __init__(self, data):
        self.data = data

    async def read(self, n):
        chunk, self.data = self.data[:n], self.data[n:]
        return chunk


class _Reply:
    def __init__(self, status, text="", headers=None, charset=None):
        self.status, self.headers, self.charset = status, headers or {}, charset
        self.text, self.closed = text, False

    def close(self):
        self.closed = True


class _Session:
    """Answers the n-th request with the n-th of ``script`` (an exception is raised; the last one repeats)."""

    def __init__(self, *script):
        self.script, self.calls = list(script), []

    def request(self, method, url, **kwargs):
        self.calls.append((method, url, kwargs))
        outcome = self.script[min(len(self.calls), len(self.script)) - 1]
        session = self

        class Context:
            async def __aenter__(self):
                if isinstance(outcome, BaseException):
                    raise outcome
                outcome.content = _Body(outcome.text.encode())
                session.reply = outcome
                return outcome

            async def __aexit__(self, *exc):
                return False

        return Context()


@pytest.fixture
def waits(monkeypatch):
    """The delays ``send_with_retries`` sleeps, recorded instead of slept; the jitter fixed at its middle."""
    slept = []
    real_sleep = asyncio.sleep

    async def sleep(delay, *args):
        if delay:
            slept.append(delay)
        await real_sleep(0)

    monkeypatch.setattr(asyncio, "sleep", sleep)
    monkeypatch.setattr(_http.random, "random", lambda: 0.5)
    return slept


def _send(session, retries=2, **options):
    options = {"timeout": 2.5, "backoff": 1.0, **options}
    return asyncio.run(_http.send_with_retries(session, "POST", "http://x/y", headers={"h": "v"}, body=None,
                                               retries=retries, **options))


def _error(session, **options):
    with pytest.raises(TargetError) as raised:
        _send(session, **options)
    return str(raised.value)


def _hide(text):
    return text.replace("sekret", "***")


def test_a_connection_timeout_is_retried_and_reported_redacted_and_clipped(waits):
    session = _Session(aiohttp.ConnectionTimeoutError("connect to sekret " + "x" * 400))
    message = _error(session, redact=_hide)
    assert message == ("ConnectionTimeoutError: connect to *** " + "x" * 400)[:300] + "… (after 3 attempts)"
    assert len(session.calls) == 3 and waits == [1.0, 2.0]  # 1·2⁰ and 1·2¹, jitter at its middle


def test_a_transport_error_is_retried_and_reported_redacted_and_clipped(waits):
    session = _Session(aiohttp.ClientConnectionError("refused by sekret " + "y" * 400))
    assert _error(session, retries=1, redact=_hide) == \
        ("ClientConnectionError: refused by *** " + "y" * 400)[:300] + "… (after 2 attempts)"
    assert len(session.calls) == 2 and waits == [1.0]


def test_a_timed_out_attempt_is_not_retried_and_says_which_attempt_it_was(waits):
    session = _Session(aiohttp.ClientConnectionError("reset"), asyncio.TimeoutError())
    assert _error(session, retries=3) == \
        "timed out after 2.5 s (attempt 2; not retried: the server may still be working on it)"
    assert len(session.calls) == 2 and waits == [1.0]


def test_timeouts_are_retried_when_asked(waits):
    session = _Session(asyncio.TimeoutError())
    assert _error(session, retries=2, retry_timeouts=True, timeout=0.5) == "timed out after 0.5 s (after 3 attempts)"
    assert len(session.calls) == 3 and waits == [1.0, 2.0]


def test_a_status_below_400_is_the_answer_and_400_is_an_error_not_retried(waits, monkeypatch):
    clock = itertools.count(10.0, 0.25)  # time.perf_counter, 0.25 s later at each reading: an attempt's start, end
    monkeypatch.setattr(_http, "time", types.SimpleNamespace(perf_counter=lambda: next(clock), time=time.time))
    ok = _Session(_Reply(399, "fine", {"X-Up": "1"}, charset="latin-1"))
    response = _send(ok)
    assert (response.status, response.headers, response.text) == (399, {"x-up": "1"}, "fine")
    assert response.elapsed_ms == 250.0  # milliseconds of that attempt
    bad = _Session(_Reply(400, "no sekret " + "z" * 400))
    assert _error(bad, redact=_hide) == "HTTP 400: " + ("no *** " + "z" * 400)[:300] + "…"
    assert len(bad.calls) == 1 and waits == []


def test_retryable_statuses_wait_for_the_servers_retry_after_else_back_off(waits):
    session = _Session(_Reply(503, "busy", {"Retry-After": "7"}), _Reply(429, "slow down"), _Reply(200, "ok"))
    assert _send(session, retries=2, backoff=0.5).text == "ok"
    assert waits == [7, 1.0]  # the server's 7 s, then 0.5·2¹
    failing = _Session(_Reply(502, "sekret down"))
    assert _error(failing, retries=1, redact=_hide) == "HTTP 502: *** down (after 2 attempts)"


def test_a_reply_over_the_limit_closes_the_connection_and_is_not_retried(waits):
    session = _Session(_Reply(200, "x" * 100))
    assert _error(session, max_bytes=10) == "reply larger than 10 bytes (max_response_bytes)"
    assert session.reply.closed and len(session.calls) == 1


def test_the_session_has_no_connection_cap_and_decompresses():
    async def made():
        session = _http.new_session()
        try:
            return session.connector.limit, session.auto_decompress
        finally:
            await session.close()

    assert asyncio.run(made()) == (0, True)
