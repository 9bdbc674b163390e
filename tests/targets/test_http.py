import asyncio
import email.utils
import json
import time

import pytest

from agentunit.datasets.base import DatasetCase
from agentunit.errors import TargetError
from agentunit.targets import make_target
from agentunit.targets._http import backoff_delay, extract_path, parse_retry_after
from agentunit.targets.base import Reply


def test_parse_retry_after_seconds_dates_and_garbage():
    assert parse_retry_after("3") == 3.0
    assert parse_retry_after("1.5") == 1.5
    assert parse_retry_after("100000") == 120.0  # capped
    date = email.utils.formatdate(time.time() + 10, usegmt=True)
    assert 8.0 <= parse_retry_after(date) <= 10.5
    assert parse_retry_after(email.utils.formatdate(time.time() - 100, usegmt=True)) == 0.0
    assert parse_retry_after("soon") is None and parse_retry_after(None) is None


@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-inf", "Infinity", "-1", "1e3", "1_0", "0x10", " ", "3 s"])
def test_parse_retry_after_rejects_non_numbers_and_negatives(value):
    assert parse_retry_after(value) is None  # the caller's own backoff applies


def test_parse_retry_after_clamps_huge_values_and_dates():
    assert parse_retry_after("9" * 30) == parse_retry_after("9" * 400) == 120.0
    assert parse_retry_after("Fri, 31 Dec 9999 23:59:59 GMT") == 120.0
    assert parse_retry_after("Mon, 01 Jan 0001 00:00:00 GMT") in (0.0, None)


def test_reply_latency_round_trips_through_the_cache_form():
    reply = Reply(body="x", latency_ms=12.5)
    assert Reply.from_json(reply.to_json()).latency_ms == 12.5
    assert Reply.from_json('{"body": "old cache row"}').latency_ms is None


def test_backoff_is_exponential_with_jitter_unless_retry_after():
    assert backoff_delay(3, 1.0, 2.5) == 2.5
    for attempt in range(4):
        assert 0.75 * 2 ** attempt <= backoff_delay(attempt, 1.0, None) <= 1.25 * 2 ** attempt


def test_extract_path_variants_and_errors():
    data = {"choices": [{"message": {"content": "hi"}}], "a": {"b": [1, 2]}}
    assert extract_path(data, "choices.0.message.content") == "hi"
    assert extract_path(data, "$.choices[0].message.content") == "hi"
    assert extract_path(data, "a.b[1]") == 2
    with pytest.raises(KeyError, match="no 'x'"):
        extract_path(data, "a.x")
    with pytest.raises(KeyError, match="no index '5'"):
        extract_path(data, "a.b.5")


def _case(prompt, **vars_):
    return DatasetCase(id="c1", query=prompt, vars=vars_)


async def _call(target, case):
    try:
        return await target.send(case, target.request(case))
    finally:
        await target.aclose()


def test_request_renders_templates_and_keeps_secrets_as_placeholders(monkeypatch):
    monkeypatch.setenv("AU_SECRET", "hunter2")
    target = make_target({"type": "http", "url": "http://h/{{ id }}", "method": "post",
                          "headers": {"Authorization": "Bearer ${AU_SECRET}", "X-Lang": "{{ lang }}"},
                          "body": {"input": "{{ prompt }}", "n": 1}})
    request = target.request(_case("hello", lang="fr"))
    assert request == {"method": "POST", "url": "http://h/c1",
                       "headers": {"Authorization": "Bearer ${AU_SECRET}", "X-Lang": "fr"},
                       "body": {"input": "hello", "n": 1}}
    assert target.describe()["headers"]["Authorization"] == "***"
    # the cache key does not depend on the secret's value
    key = target.cache_key(request, 0)
    monkeypatch.setenv("AU_SECRET", "other")
    assert target.cache_key(target.request(_case("hello", lang="fr")), 0) == key
    assert target.cache_key(request, 1) != key


def test_a_changed_target_config_is_never_served_a_stale_cached_reply(agent_server, tmp_path):
    from agentunit import evaluate

    def run(output_path):
        target = {"type": "http", "url": agent_server.url, **({"output_path": output_path} if output_path else {})}
        return evaluate({"name": "s", "target": target, "cases": [
            {"id": "c", "prompt": "ok:fine", "metrics": [{"metric": "contains", "value": "fine"}]}]},
            db=tmp_path / "r.db").cases[0]

    first, second = run(None), run("trusys.plan.0")
    assert first["output"] == "fine" and second["output"] == "look up"  # the second config was really sent
    spec = {"type": "http", "url": "http://h/"}
    request = make_target(spec).request(_case("x"))
    assert make_target(spec).cache_key(request, 0) != \
        make_target({**spec, "output_path": "a.b"}).cache_key(request, 0)


def test_send_reads_envelope_output_path_and_text(agent_server):
    reply = asyncio.run(_call(make_target({"type": "http", "url": agent_server.url}), _case("ok:fine")))
    assert reply.body["output"] == "fine" and "trusys" in reply.body
    target = make_target({"type": "http", "url": agent_server.url, "output_path": "trusys.plan.0"})
    assert asyncio.run(_call(target, _case("ok:x"))).body["output"] == "look up"  # trusys kept alongside
    plain = asyncio.run(_call(make_target({"type": "http", "url": agent_server.url}), _case("text:hi there")))
    assert plain.body == "hi there"


def test_send_errors_are_target_errors(agent_server):
    strict = make_target({"type": "http", "url": agent_server.url, "output_path": "output"})
    with pytest.raises(TargetError, match="not JSON"):
        asyncio.run(_call(strict, _case("text:plain")))
    missing = make_target({"type": "http", "url": agent_server.url, "output_path": "nope"})
    with pytest.raises(TargetError, match="output_path 'nope'"):
        asyncio.run(_call(missing, _case("ok:x")))
    down = make_target({"type": "http", "url": agent_server.url, "retries": 1, "backoff": 0.01})
    with pytest.raises(TargetError, match=r"HTTP 500.*after 2 attempts"):
        asyncio.run(_call(down, _case("always500")))
    refused = make_target({"type": "http", "url": "http://127.0.0.1:9/", "retries": 0})
    with pytest.raises(TargetError, match="after 1 attempts"):
        asyncio.run(_call(refused, _case("x")))


def test_limit_options_are_checked_when_the_target_is_built():
    from agentunit.errors import AgentUnitError

    with pytest.raises(AgentUnitError, match="http target: retry_on_timeout must be true or false, got 'false'"):
        make_target({"type": "http", "url": "http://h/", "retry_on_timeout": "false"})
    with pytest.raises(AgentUnitError, match="openai target: max_response_bytes must be a whole number"):
        make_target({"type": "openai", "model": "m", "max_response_bytes": 0})
    with pytest.raises(AgentUnitError, match="command target: max_response_bytes"):
        make_target({"type": "command", "argv": ["true"], "max_response_bytes": "1MB"})


# -- media in request templates (agentunit.media.templates; docs/media.md) ------------------------------

def _media_png(width=3):
    import struct
    import zlib

    rows = b"".join(b"\x00" + b"\x10\x20\x30" * width for _ in range(2))
    ihdr = struct.pack(">IIBBBBB", width, 2, 8, 2, 0, 0, 0)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def test_case_media_are_sent_in_the_body_headers_and_url(agent_server, tmp_path):
    import base64

    from agentunit import evaluate

    image = _media_png()
    (tmp_path / "a.png").write_bytes(image)
    encoded = base64.b64encode(image).decode()
    target = {"type": "http", "url": agent_server.url + "?type={{ image | mime }}", "cache": False,
              "headers": {"X-Mime": "{{ image | mime }}"},
              "body": {"prompt": "ok:seen", "image": "{{ image | data_uri }}", "raw": "{{ image }}",
                       "b64": "{{ image | base64 }}", "all": "{{ images | base64 }}", "local": "{{ image | path }}",
                       "text": "first {{ image | mime }} of {{ images | length }}"}}
    result = evaluate({"name": "s", "target": target, "cases": [
        {"id": "c", "prompt": "p", "images": [str(tmp_path / "a.png"), {"base64": encoded}],
         "metrics": [{"metric": "contains", "value": "seen"}]}]})
    assert result.cases[0]["status"] == "passed", result.cases[0]["error"]
    sent = agent_server.requests[-1]
    assert sent["body"] == {"prompt": "ok:seen", "image": f"data:image/png;base64,{encoded}",
                            "raw": f"data:image/png;base64,{encoded}", "b64": encoded, "all": [encoded, encoded],
                            "local": str(tmp_path / "a.png"), "text": "first image/png of 2"}
    assert sent["headers"]["X-Mime"] == "image/png" and sent["path"].endswith("?type=image/png")


def test_the_cache_key_follows_the_media_content_not_the_path(tmp_path):
    import os

    (tmp_path / "a.png").write_bytes(_media_png(3))
    target = make_target({"type": "http", "url": "http://h/", "body": {"i": "{{ image | base64 }}"}})
    case = DatasetCase(id="c", query="p", image="a.png", media_dir=str(tmp_path))
    request = target.request(case)
    assert "agentunit_media" in json.dumps(request["body"]) and len(json.dumps(request)) < 500  # no bytes in it
    key = target.cache_key(request, 0)
    (tmp_path / "a.png").write_bytes(_media_png(4))
    os.utime(tmp_path / "a.png", ns=(1, 1))
    assert target.cache_key(target.request(case), 0) != key
    # a template that does not use the media reads nothing and keys as before
    plain = make_target({"type": "http", "url": "http://h/"})
    gone = DatasetCase(id="c", query="p", image="missing.png", media_dir=str(tmp_path))
    assert plain.request(gone) == plain.request(DatasetCase(id="c", query="p"))


def test_a_medium_that_cannot_be_sent_errors_the_case_naming_the_field(agent_server, tmp_path):
    from agentunit import evaluate

    target = {"type": "http", "url": agent_server.url, "body": {"prompt": "ok:x", "i": "{{ image | base64 }}"}}
    cases = [{"id": "gone", "prompt": "p", "image": "http://127.0.0.1:9/none.png"},
             {"id": "none", "prompt": "p"}]  # a wrong type is a suite problem at load time
    result = {c["id"]: c for c in evaluate(cases=cases, target=target, metrics=["latency"]).cases}
    assert result["gone"]["status"] == "errored"
    assert result["gone"]["error"].startswith("image (case 'gone'): http://127.0.0.1:9/none.png: ")
    assert "Traceback" not in result["gone"]["error"]
    assert result["none"]["status"] == "errored" and "'image' is undefined" in result["none"]["error"]
    assert not agent_server.requests  # nothing was sent for any of them


def test_output_is_media_is_checked():
    from agentunit.errors import AgentUnitError

    with pytest.raises(AgentUnitError, match="http target: output_is_media must be true or false"):
        make_target({"type": "http", "url": "http://h/", "output_is_media": "yes"})


def test_output_is_media_takes_a_text_answer_as_a_reference(agent_server, tmp_path):
    from agentunit import evaluate

    image = _media_png()
    (tmp_path / "out.png").write_bytes(image)
    for opt_in in (True, False):
        target = {"type": "http", "url": agent_server.url, "output_is_media": opt_in, "cache": False}
        (case,) = evaluate(cases=[{"id": "g", "prompt": f"text:{tmp_path / 'out.png'}"}], target=target,
                           metrics=["latency"], allow_paths=[tmp_path]).cases
        assert case["output"] == str(tmp_path / "out.png")
        records = (case["envelope"] or {}).get("media", [])
        assert [(r["field"], r["size"]) for r in records] == ([("trusys.output_media", len(image))] if opt_in else [])
