"""Issue 11, targets and judges under hostile servers and data, replayed against real local aiohttp servers:
secrets from case data, secrets echoed back, gzip bombs, pathological JSON, hostile Retry-After,
timeouts that must not be retried, latency without retry waits, hanging judges."""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
import os
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from aiohttp import web

from agentunit.datasets.base import DatasetCase
from agentunit.errors import AgentUnitError, TargetError
from agentunit.judges.base import JudgeRequest
from agentunit.judges.service import JudgeService
from agentunit.targets import _http, make_target
from tests.code.sandboxing import host_processes_with

SECRET = "s3cr3t-VALUE-0123456789abcdefXYZ"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@contextlib.asynccontextmanager
async def serve(handler: Handler) -> AsyncIterator[str]:
    """An aiohttp server on 127.0.0.1 (free port) answering every path with ``handler``; yields its URL."""
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", handler)
    runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=0.1)  # do not wait for hanging handlers
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


async def _send(spec: dict, case: DatasetCase):
    target = make_target(spec)
    try:
        return await target.send(case, target.request(case))
    finally:
        await target.aclose()


def _run(coro, limit: float = 30.0):
    """Run ``coro`` with a hard limit, so a regression that hangs fails instead of stalling the suite."""
    return asyncio.run(asyncio.wait_for(coro, limit))


# -- 1. ${ENV} in case data is text ----------------------------------------------------------------------


def test_env_references_in_case_data_are_never_resolved(monkeypatch):
    monkeypatch.setenv("AU_HOSTILE_SECRET", SECRET)
    monkeypatch.setenv("AU_SUITE_TOKEN", "suite-token-1")
    seen: list[dict] = []

    async def record(request: web.Request) -> web.Response:
        seen.append({"url": str(request.rel_url), "headers": dict(request.headers), "body": await request.text()})
        return web.json_response({"output": "ok"})

    async def go():
        async with serve(record) as url:
            spec = {"type": "http", "url": url + "/q/{{ topic }}?p={{ prompt }}&k=${AU_SUITE_TOKEN}",
                    "headers": {"Authorization": "Bearer ${AU_SUITE_TOKEN}", "X-Topic": "{{ topic }}",
                                "X-Prompt": "{{ prompt }}"},
                    "body": {"prompt": "{{ prompt }}", "topic": "{{ topic }}"}}
            case = DatasetCase(id="${AU_HOSTILE_SECRET}", query="${AU_HOSTILE_SECRET}",
                               vars={"topic": "${AU_HOSTILE_SECRET}"})
            await _send(spec, case)

    _run(go())
    received = json.dumps(seen)
    assert SECRET not in received
    assert seen[0]["headers"]["X-Topic"] == "${AU_HOSTILE_SECRET}"  # case text arrives as written
    assert seen[0]["headers"]["X-Prompt"] == "${AU_HOSTILE_SECRET}"
    assert seen[0]["headers"]["Authorization"] == "Bearer suite-token-1"  # the suite's own reference works
    assert "k=suite-token-1" in seen[0]["url"]


# -- 2. secrets echoed back -------------------------------------------------------------------------------


def test_a_secret_across_the_error_cut_is_still_redacted(monkeypatch):
    monkeypatch.setenv("AU_HOSTILE_SECRET", SECRET)

    async def echo(request: web.Request) -> web.Response:
        # The server puts the token so that the 300-character cut falls inside it.
        return web.Response(status=400, text="x" * 290 + request.headers["Authorization"].removeprefix("Bearer "))

    async def go():
        async with serve(echo) as url:
            spec = {"type": "http", "url": url, "headers": {"Authorization": "Bearer ${AU_HOSTILE_SECRET}"}}
            await _send(spec, DatasetCase(id="c", query="hi"))

    with pytest.raises(TargetError) as caught:
        _run(go())
    message = str(caught.value)
    assert "HTTP 400" in message
    assert SECRET[:8] not in message and SECRET[-8:] not in message


def _judge(url: str, **config) -> JudgeService:
    return JudgeService({"provider": "openai", "base_url": url, "model": "m", "api_key_env": "AU_JUDGE_KEY",
                         **config})


def _completion(text: str) -> dict:
    return {"choices": [{"message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 5, "completion_tokens": 1}}


async def _judge_once(handler: Handler, **config) -> None:
    """One PASS/FAIL decision by an openai judge served by ``handler``; waits 0.2 s after it, so a
    retry the judge should not make would have arrived."""
    async with serve(handler) as url:
        service = _judge(url + "/v1", **config)
        try:
            await service.decide(JudgeRequest((("user", "grade"),), options=("PASS", "FAIL")))
        finally:
            await service.aclose()
            await asyncio.sleep(0.2)


def test_judge_key_echoed_in_errors_and_replies_is_redacted(monkeypatch):
    monkeypatch.setenv("AU_JUDGE_KEY", SECRET)
    async def echo(request: web.Request) -> web.Response:
        body = await request.json()
        auth = request.headers["Authorization"]
        if "ERROR" in body["messages"][-1]["content"]:
            return web.json_response({"error": f"invalid header {auth}"}, status=401)
        return web.json_response(_completion(f"PASS, and by the way your key is {auth}"))

    async def go():
        async with serve(echo) as url:
            service = _judge(url + "/v1")
            assert SECRET in service.secrets  # exposed, so the engine can scrub stored outputs
            text, _, _ = await service.generate(JudgeRequest((("user", "say hi"),), max_tokens=20))
            decision = await service.decide(JudgeRequest((("user", "grade it"),), options=("PASS", "FAIL")))
            with pytest.raises(AgentUnitError) as caught:
                await service.generate(JudgeRequest((("user", "ERROR please"),), max_tokens=5))
            await service.aclose()
            return service, text, decision, str(caught.value)

    service, text, decision, error = _run(go())
    assert "***" in text and SECRET not in text
    assert decision.option == "PASS" and SECRET not in decision.text
    assert "HTTP 401" in error and SECRET not in error
    assert all(SECRET not in reply.text for reply in service._memory.values())  # nor in what is cached
    assert service.redact(f"x{SECRET}y") == "x***y"


# -- 3. bounded replies -----------------------------------------------------------------------------------


def _gzip_bomb(decoded_bytes: int) -> bytes:
    return gzip.compress(b"\0" * decoded_bytes, compresslevel=1)


def test_a_gzip_bomb_is_refused_at_the_decoded_size_limit():
    bomb = _gzip_bomb(64 * 1024 * 1024)  # ~64 KB on the wire, 64 MiB decoded

    async def explode(request: web.Request) -> web.Response:
        return web.Response(body=bomb, headers={"Content-Encoding": "gzip", "Content-Type": "text/plain"})

    async def go(spec_extra: dict):
        async with serve(explode) as url:
            await _send({"type": "http", "url": url, **spec_extra}, DatasetCase(id="c", query="hi"))

    with pytest.raises(TargetError, match=r"reply larger than 10485760 bytes \(max_response_bytes\)"):
        _run(go({}))
    with pytest.raises(TargetError, match=r"reply larger than 1000 bytes"):
        _run(go({"max_response_bytes": 1000}))


def test_the_judge_reply_size_is_bounded_too(monkeypatch):
    monkeypatch.setenv("AU_JUDGE_KEY", SECRET)

    async def big(request: web.Request) -> web.Response:
        return web.json_response(_completion("PASS " * 1000))

    with pytest.raises(AgentUnitError, match="reply larger than 2000 bytes"):
        _run(_judge_once(big, max_response_bytes=2000))


@pytest.mark.parametrize("payload, message", [
    ("[" * 100_000 + "]" * 100_000, "nested deeper than 128 levels"),
    ('{"output": "x", "trusys": {"cost": 1' + "0" * 399 + "}}", "400-digit number"),
    ('{"output": 1e400}', "out of a float's range"),
])
def test_pathological_json_replies_are_target_errors(payload, message):
    async def reply(request: web.Request) -> web.Response:
        return web.Response(text=payload, content_type="application/json")

    async def go(kind: str):
        async with serve(reply) as url:
            spec = {"type": "http", "url": url} if kind == "http" else {"type": "openai", "base_url": url,
                                                                       "model": "m"}
            await _send(spec, DatasetCase(id="c", query="hi"))

    with pytest.raises(TargetError, match=message):
        _run(go("http"))
    with pytest.raises(TargetError, match=message):
        _run(go("openai"))


def test_command_output_is_capped_and_the_command_killed():
    token = f"flood-{os.getpid()}-{time.time_ns()}"  # names the command on the host
    flood = f"import sys\n'{token}'\nwhile True: sys.stdout.write('y' * 65536)"
    with pytest.raises(TargetError, match=r"command output larger than 100000 bytes \(max_response_bytes\)"):
        _run(_send({"type": "command", "argv": [sys.executable, "-c", flood], "max_response_bytes": 100_000,
                    "timeout": 600}, DatasetCase(id="c", query="hi")), limit=300)
    assert host_processes_with(token) == []  # killed at the limit, not left to write until its timeout


def test_a_flood_on_stderr_keeps_only_its_end():
    noisy = "import sys\nsys.stderr.write('e' * 30_000_000 + 'THE END')\nsys.exit(2)"
    with pytest.raises(TargetError) as caught:
        _run(_send({"type": "command", "argv": [sys.executable, "-c", noisy]}, DatasetCase(id="c", query="hi")))
    message = str(caught.value)
    assert message.startswith("command exited with status 2") and message.endswith("THE END")
    assert len(message) < 600


# -- 4, 5, 6. retries, timeouts, latency ------------------------------------------------------------------


@pytest.fixture
def waits(monkeypatch):
    """The waits the http target chose before each retry (its backoff or the server's Retry-After)."""
    chosen: list[float] = []
    real = _http.backoff_delay

    def backoff_delay(*args):
        chosen.append(real(*args))
        return chosen[-1]

    monkeypatch.setattr(_http, "backoff_delay", backoff_delay)
    return chosen


@pytest.mark.parametrize("header", ["nan", "inf", "-1", "1e999", "soon", "NaN"])
def test_hostile_retry_after_does_not_stall_the_retry(header, waits):
    hits: list[float] = []

    async def limited(request: web.Request) -> web.Response:
        hits.append(time.monotonic())
        if len(hits) == 1:
            return web.json_response({"error": "busy"}, status=503, headers={"Retry-After": header})
        return web.json_response({"output": "ok"})

    async def go():
        async with serve(limited) as url:
            return await _send({"type": "http", "url": url, "retries": 1, "backoff": 0.01},
                               DatasetCase(id="c", query="hi"))

    reply = _run(go(), limit=20)
    assert reply.body["output"] == "ok" and len(hits) == 2
    assert len(waits) == 1 and waits[0] < 0.02  # not a number of seconds: ignored, the own backoff (10 ms) applies


def test_a_timed_out_attempt_is_not_sent_again_unless_asked():
    received: list[float] = []

    async def slow(request: web.Request) -> web.Response:
        received.append(time.monotonic())
        await asyncio.sleep(1.0)
        return web.json_response({"output": "late"})

    async def go(extra: dict):
        async with serve(slow) as url:
            try:
                await _send({"type": "http", "url": url, "timeout": 0.2, "retries": 3, "backoff": 0.01, **extra},
                            DatasetCase(id="c", query="hi"))
            finally:
                await asyncio.sleep(0.2)  # a retry would have arrived by now

    with pytest.raises(TargetError, match=r"timed out after 0\.2 s \(attempt 1; not retried"):
        _run(go({}))
    assert len(received) == 1
    received.clear()
    with pytest.raises(TargetError, match="after 4 attempts"):
        _run(go({"retry_on_timeout": True}))
    assert len(received) == 4


def test_connection_errors_and_5xx_still_retry():
    hits: list[float] = []

    async def flaky(request: web.Request) -> web.Response:
        hits.append(time.monotonic())
        return web.json_response({"output": "ok"}) if len(hits) > 2 else web.Response(status=502)

    async def go():
        async with serve(flaky) as url:
            return await _send({"type": "http", "url": url, "retries": 3, "backoff": 0.01},
                               DatasetCase(id="c", query="hi"))

    assert _run(go()).body["output"] == "ok" and len(hits) == 3
    with pytest.raises(TargetError, match="after 3 attempts"):
        _run(_send({"type": "http", "url": "http://127.0.0.1:9/", "retries": 2, "backoff": 0.01},
                   DatasetCase(id="c", query="hi")))


@pytest.mark.parametrize("kind", ["http", "openai"])
def test_latency_is_the_answering_attempt_without_retry_waits(kind):
    hits: list[float] = []

    async def once_busy(request: web.Request) -> web.Response:
        hits.append(time.monotonic())
        if len(hits) == 1:
            return web.json_response({"error": "busy"}, status=429, headers={"Retry-After": "1"})
        return web.json_response(_completion("fast") if kind == "openai" else {"output": "fast"})

    async def go():
        async with serve(once_busy) as url:
            spec = {"type": "http", "url": url} if kind == "http" else {"type": "openai", "base_url": url,
                                                                       "model": "m"}
            started = time.perf_counter()
            reply = await _send(spec, DatasetCase(id="c", query="hi"))
            return reply, (time.perf_counter() - started) * 1000.0

    reply, total_ms = _run(go())
    assert total_ms >= 950 and len(hits) == 2
    # the answering attempt only: the whole call less the 1 s wait before it (whatever the machine's speed)
    assert reply.latency_ms is not None and 0 < reply.latency_ms <= total_ms - 950


# -- 7. judge time ----------------------------------------------------------------------------------------


def test_a_hanging_judge_costs_one_timeout_and_one_request(monkeypatch):
    monkeypatch.setenv("AU_JUDGE_KEY", SECRET)
    received: list[float] = []

    async def hang(request: web.Request) -> web.Response:
        received.append(time.monotonic())
        await asyncio.sleep(30)
        return web.json_response(_completion("PASS"))

    with pytest.raises(AgentUnitError, match=r"judge call failed: timed out after 0\.5 s \(attempt 1; not retried"):
        _run(_judge_once(hang, timeout=0.5))
    assert len(received) == 1  # one timeout, not four


def test_the_judge_timeout_bounds_its_retries(monkeypatch):
    monkeypatch.setenv("AU_JUDGE_KEY", SECRET)
    received: list[float] = []

    async def busy(request: web.Request) -> web.Response:
        received.append(time.monotonic())
        return web.json_response({"error": "busy"}, status=503, headers={"Retry-After": "2"})

    with pytest.raises(AgentUnitError, match="judge call timed out after 1 s"):
        _run(_judge_once(busy, timeout=1.0))
    assert len(received) == 1  # one deadline over the call: its 2 s wait for the Retry-After was cut short


@pytest.mark.parametrize("value", [0, -1, 1.5, "4", True, None])
def test_judge_concurrency_must_be_a_positive_integer(value):
    with pytest.raises(AgentUnitError, match="judge concurrency must be a whole number"):
        JudgeService({"provider": "openai", "base_url": "http://127.0.0.1:9/v1", "concurrency": value})


def test_an_invalid_judge_provider_is_a_clear_error():
    with pytest.raises(AgentUnitError, match="unknown judge provider"):
        JudgeService({"provider": ["openai"]})


# -- a prompt cut mid-emoji is still sent ---------------------------------------------------------------


def test_a_lone_surrogate_in_the_prompt_is_sent_not_a_crash():
    received: list[str] = []

    async def record(request: web.Request) -> web.Response:
        received.append(json.loads(await request.text())["prompt"])
        return web.json_response({"output": "ok"})

    async def go():
        async with serve(record) as url:
            return await _send({"type": "http", "url": url}, DatasetCase(id="c", query="cut \ud83d"))

    reply = _run(go())
    assert reply.body == {"output": "ok"} and received == ["cut \ud83d"]
    target = make_target({"type": "http", "url": "http://127.0.0.1:9/"})
    case = DatasetCase(id="c", query="cut \ud83d")
    assert len(target.cache_key(target.request(case), 0)) == 64
