"""What mutation testing found unpinned in ``agentunit.targets.http`` and ``targets.base`` (docs/testing.md,
"Mutation testing").

How an HTTP target reads a reply (JSON by content type or by its first character, ``output_path``, the
``trusys`` envelope, the error texts, quoted redacted and clipped to 120 characters), which methods get the
default body, and the exact target cache key: its form is pinned here, because a change to it silently
turns every user's cached replies into misses.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from agentunit.datasets.base import DatasetCase
from agentunit.errors import TargetError
from agentunit.targets import make_target
from agentunit.targets.base import Reply


def _http(**spec):
    return make_target({"type": "http", "url": "http://h/agent", **spec})


# -- reading a reply ---------------------------------------------------------------------------------------


def test_json_is_recognised_by_content_type_or_by_its_first_character():
    target = _http()
    assert target._answer('{"a": 1}', "text/plain") == {"a": 1}
    assert target._answer("  [1, 2]", "") == [1, 2]           # leading blanks skipped
    assert target._answer("7", "application/json") == 7       # by content type alone
    assert target._answer("7", "text/plain") == "7"           # neither: the text as is
    assert target._answer("hello ", "text/plain") == "hello "
    assert target._answer("", "") == ""


def test_the_path_into_a_reply_and_the_values_it_finds():
    assert _http(output_path="a.b")._answer('{"a": {"b": "text"}}', "") == "text"
    assert _http(output_path="a.b")._answer('{"a": {"b": {"é": [1]}}}', "") == '{"é": [1]}'  # JSON, not ASCII
    assert _http(output_path="a")._answer('{"a": ["x"], "trusys": {"plan": []}}', "") == {
        "output": ["x"], "trusys": {"plan": []}}                  # the trusys envelope is kept beside it
    assert _http(output_path="0")._answer('["x", "trusys"]', "") == "x"  # a list holding "trusys" is no envelope


def test_reply_errors_are_quoted_redacted_and_clipped():
    target = _http(output_path="a")
    target.secrets.add("sk-hidden")
    with pytest.raises(TargetError) as info:
        target._answer("sk-hidden " + "n" * 200, "text/plain")
    assert str(info.value) == "reply is not JSON, cannot read output_path 'a': " + repr("*** " + "n" * 116 + "…")
    with pytest.raises(TargetError) as info:
        target._answer('{"a": sk-hidden ' + "n" * 200, "application/json")
    message = str(info.value)
    assert message.startswith("malformed JSON reply: Expecting value: line 1 column 7 (char 6): ")
    assert message.endswith(repr('{"a": *** ' + "n" * 110 + "…"))
    with pytest.raises(TargetError) as info:
        target._answer("[" * 10_000 + "]" * 10_000, "application/json")
    assert str(info.value).startswith("reply rejected: JSON nested deeper than ")


@pytest.mark.parametrize(("method", "body"), [("GET", None), ("HEAD", None), ("get", None), ("POST", {"prompt": "hi"}),
                                              ("DELETE", {"prompt": "hi"})])
def test_only_get_and_head_go_without_the_default_body(method, body):
    request = _http(method=method).request(DatasetCase(id="c", query="hi"))
    assert request["body"] == body and request["method"] == method.upper()
    assert "media" not in request


# -- the cache key -----------------------------------------------------------------------------------------


def _hand_key(material):
    blob = json.dumps(material, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()


def test_the_cache_key_form_is_pinned():
    target = _http(headers={"Authorization": "Bearer ${TOKEN}"})
    request = {"method": "POST", "url": "http://h/agent", "headers": {"Authorization": "Bearer x"},
               "body": {"prompt": "é \udc80", "n": 1}}
    spec = {"type": "http", "url": "http://h/agent", "headers": {"Authorization": "***"}}
    redacted = {**request, "headers": {"Authorization": "***"}}
    assert target.cache_key(request, 0) == _hand_key({"kind": "http", "spec": spec, "request": redacted})
    assert target.cache_key(request, 2) == _hand_key({"kind": "http", "spec": spec, "request": redacted,
                                                       "repeat": 2})
    # the same material by hand, key order and all: no part of the form is left to chance
    blob = ('{"kind": "http", "request": {"body": {"n": 1, "prompt": "é \udc80"}, "headers": {"Authorization": '
            '"***"}, "method": "POST", "url": "http://h/agent"}, "spec": {"headers": {"Authorization": "***"}, '
            '"type": "http", "url": "http://h/agent"}}')
    assert target.cache_key(request, 0) == hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()


def test_a_request_value_json_cannot_encode_is_keyed_by_its_text():
    target = _http()
    assert target.cache_key({"prompt": {1, 2}}, 0) == _hand_key({"kind": "http", "spec": target.describe(),
                                                                 "request": {"prompt": "{1, 2}"}})


def test_the_base_request_is_the_prompt():
    from agentunit.targets.base import Target

    class Plain(Target):
        kind = "plain"

        async def send(self, case, request):
            return Reply(body=request["prompt"])

    assert Plain({"type": "plain"}).request(DatasetCase(id="c", query="q?")) == {"prompt": "q?"}


def test_a_cached_reply_keeps_non_ascii_text_as_is():
    text = Reply(body="é ✓", extra={"k": "ü"}).to_json()
    assert '"é ✓"' in text and '"ü"' in text and "\\u" not in text
    assert Reply.from_json(text).body == "é ✓"


# -- a reply over HTTP -------------------------------------------------------------------------------------


def test_a_reply_is_read_by_its_content_type_timed_and_capped():
    import asyncio

    from tests.http_helpers import RecordingServer

    server = RecordingServer((200, "12345"))
    try:
        async def send(target):
            case = DatasetCase(id="c", query="hi")
            try:
                return await target.send(case, target.request(case))
            finally:
                await target.aclose()
                assert target._client is None

        as_json = _http(url=server.url, headers={"accept": "application/json"})
        reply = asyncio.run(send(as_json))
        assert reply.body == 12345 and reply.latency_ms is not None and reply.latency_ms >= 0  # content-type: JSON
        with pytest.raises(TargetError, match="max_response_bytes"):
            asyncio.run(send(_http(url=server.url, max_response_bytes=4, retries=0)))
    finally:
        server.close()
