"""HTTP helpers at their edges: Retry-After dates against a given clock, backoff jitter bounds, charsets, JSON
paths (written for the mutation pass over targets/_http.py; docs/testing.md, "Mutation testing")."""

from datetime import datetime, timezone

from agentunit.targets import _http
from agentunit.targets._http import backoff_delay, extract_path, parse_retry_after, retry_on_timeout


def test_a_retry_after_date_is_measured_from_the_clock_given():
    now = datetime(2030, 1, 1, tzinfo=timezone.utc).timestamp()
    assert parse_retry_after("Tue, 01 Jan 2030 00:01:30 GMT", now=now) == 90.0
    assert parse_retry_after("Tue, 01 Jan 2030 00:00:00 GMT", now=now + 5) == 0.0  # already past
    assert parse_retry_after("Tue, 01 Jan 2030 01:00:00 GMT", now=now) == 120.0  # clamped


def test_timeouts_are_not_retried_unless_asked():
    assert retry_on_timeout({}, "http target") is False
    assert retry_on_timeout({"retry_on_timeout": True}, "http target") is True


def test_backoff_doubles_per_attempt_with_a_quarter_of_jitter_either_way(monkeypatch):
    monkeypatch.setattr(_http.random, "random", lambda: 0.0)
    assert backoff_delay(2, 1.0, None) == 3.0  # 1 · 2² · 0.75
    monkeypatch.setattr(_http.random, "random", lambda: 1.0)
    assert backoff_delay(2, 1.0, None) == 5.0  # 1 · 2² · 1.25
    assert backoff_delay(2, 1.0, 7.5) == 7.5  # the server's Retry-After wins


def test_a_body_is_decoded_in_its_declared_charset_else_utf8_and_never_raises():
    assert _http._decode("é".encode("latin-1"), "latin-1") == "é"
    assert _http._decode("é".encode(), "ascii") == "\ufffd\ufffd"  # the declared charset, even when wrong
    assert _http._decode(b"ok \xff", None) == "ok \ufffd"
    assert _http._decode("é \xff".encode() + b"\xff", "no-such-charset") == "é \xff\ufffd"


def test_text_that_cannot_be_utf8_is_told_apart():
    assert _http._utf8_ok("é ok") is True
    assert _http._utf8_ok("lone \ud800 surrogate") is False


def test_json_paths_keep_keys_that_end_or_start_with_any_letter():
    assert extract_path({"data": {"MAX": 5}}, "data.MAX") == 5
    assert extract_path({"X": [{"Y": 1}]}, "$.X[0].Y") == 1


def _send(url, body, retries=0):
    import asyncio

    async def go():
        session = _http.new_session()
        try:
            return await _http.send_with_retries(session, "POST", url, headers={}, body=body, timeout=5,
                                                 retries=retries, backoff=0.01)
        finally:
            await session.close()

    return asyncio.run(go())


def _header(request, name):
    return {k.lower(): v for k, v in request["headers"].items()}[name]


def test_a_json_body_is_sent_as_utf8_json_and_a_lone_surrogate_as_its_escape(agent_server):
    _send(agent_server.url, {"prompt": "é"})
    _send(agent_server.url, {"prompt": "a\ud800"})
    first, second = agent_server.requests
    assert first["body"] == {"prompt": "é"} and _header(first, "content-length") == "16"  # é in 2 bytes
    assert _header(first, "content-type") == "application/json"
    assert second["body"] == {"prompt": "a\ud800"} and _header(second, "content-length") == "21"


def test_a_text_body_is_sent_as_utf8_with_what_cannot_be_encoded_replaced(agent_server):
    _send(agent_server.url, '{"prompt": "é"}')
    _send(agent_server.url, '{"prompt": "a\ud800"}')
    first, second = agent_server.requests
    assert first["body"] == {"prompt": "é"} and _header(first, "content-length") == "16"
    assert second["body"] == {"prompt": "a?"}


def test_a_failing_server_is_tried_retries_plus_one_times(agent_server):
    import pytest

    from agentunit.errors import TargetError

    with pytest.raises(TargetError) as caught:
        _send(agent_server.url, {"prompt": "always500"}, retries=1)
    assert str(caught.value) == 'HTTP 500: {"error": "down"} (after 2 attempts)'
    assert len(agent_server.requests) == 2


def test_a_refused_connection_is_retried_then_reported():
    import socket

    import pytest

    from agentunit.errors import TargetError

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(TargetError) as caught:
        _send(f"http://127.0.0.1:{port}/", {"prompt": "x"}, retries=1)
    assert str(caught.value).endswith("(after 2 attempts)")
