"""The openai target: its settings, the chat completion it builds (conversation turns, a case's media as
placeholders named by content in the request, filled in as ``data:`` URIs or ``input_audio`` when sent),
the transport options it passes on (timeout, retries on timeouts, backoff, reply size limit, redaction),
and how it reads a reply (empty content, tool calls, usage, token logprobs, latency, a reply that is not a
chat completion); mutation testing found these unpinned (docs/testing.md, "Mutation testing")."""

import asyncio
import base64
import hashlib
import json

import pytest

from agentunit.datasets.base import DatasetCase
from agentunit.errors import AgentUnitError, TargetError
from agentunit.media import MediaError
from agentunit.targets import make_target
from tests.http_helpers import RecordingServer

_PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415408d763f8cf"
                     "c0000003010100c9fe92ef0000000049454e44ae426082")
_WAV = b"RIFF\x24\x00\x00\x00WAVEfmt " + bytes(28)
_AVI = b"RIFF\x24\x00\x00\x00AVI LIST" + bytes(28)
_OGG = b"OggS" + bytes(60)


def _b64(data):
    return base64.b64encode(data).decode()


def _id(data):
    return "text-sha256:" + hashlib.sha256(_b64(data).encode()).hexdigest()


def _completion(content="ok", **extra):
    return json.dumps({"choices": [{"message": {"role": "assistant", "content": content}, **extra}]})


@pytest.fixture
def no_key(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


def _exchange(spec, case, *replies):
    """(reply or raised TargetError, the request bodies the server received)."""
    server = RecordingServer(*replies)
    target = make_target({"type": "openai", "base_url": server.url + "/v1", "model": "m", **spec})

    async def go():
        try:
            return await target.send(case, target.request(case))
        except TargetError as exc:
            return exc
        finally:
            await target.aclose()

    try:
        return asyncio.run(go()), [r["body"] for r in server.requests]
    finally:
        server.close()


# -- settings -----------------------------------------------------------------------------------------

def test_the_base_url_loses_only_its_trailing_slashes():
    assert make_target({"type": "openai", "model": "m", "base_url": "http://h/vX//"}).base_url == "http://h/vX"


def test_retry_on_timeout_defaults_to_false_and_must_be_a_boolean():
    assert make_target({"type": "openai", "model": "m"}).retry_on_timeout is False
    with pytest.raises(AgentUnitError) as raised:
        make_target({"type": "openai", "model": "m", "retry_on_timeout": "yes"})
    assert str(raised.value) == "openai target: retry_on_timeout must be true or false, got 'yes'"


# -- the request --------------------------------------------------------------------------------------

def test_conversation_turns_keep_their_roles_and_a_turn_without_content_is_empty():
    case = DatasetCase(id="c", query="last", conversation=[{"role": "assistant", "content": "hi"}, {}])
    request = make_target({"type": "openai", "model": "m", "base_url": "http://h/v1"}).request(case)
    assert request == {"url": "http://h/v1/chat/completions", "body": {"model": "m", "temperature": 0, "messages": [
        {"role": "assistant", "content": "hi"}, {"role": "user", "content": ""}, {"role": "user", "content": "last"}]}}


def test_media_go_in_the_user_message_as_placeholders_named_by_content_in_the_request():
    case = DatasetCase(id="c", query="describe", image={"base64": _b64(_PNG)}, audio={"base64": _b64(_WAV)},
                       video={"base64": _b64(_AVI)})
    request = make_target({"type": "openai", "model": "m", "base_url": "http://h/v1"}).request(case)
    assert request == {"url": "http://h/v1/chat/completions", "body": {"model": "m", "temperature": 0, "messages": [
        {"role": "user", "content": [
            {"type": "text", "text": "describe"},
            {"type": "image_url", "image_url": {"url": "agentunit-media:0"}},
            {"type": "input_audio", "input_audio": {"data": "agentunit-media:1", "format": None}},
            {"type": "video_url", "video_url": {"url": "agentunit-media:2"}}]}]},
        "media": [{"field": "image", "id": _id(_PNG)}, {"field": "audio", "id": _id(_WAV)},
                  {"field": "video", "id": _id(_AVI)}]}
    silent = DatasetCase(id="c", query="", image={"base64": _b64(_PNG)})
    assert make_target({"type": "openai", "model": "m"}).request(silent)["body"]["messages"] == [
        {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "agentunit-media:0"}}]}]


def test_media_are_sent_as_data_uris_and_wav_audio(no_key):
    case = DatasetCase(id="c", query="describe", image={"base64": _b64(_PNG)}, audio={"base64": _b64(_WAV)},
                       video={"base64": _b64(_AVI)})
    reply, (body,) = _exchange({"system": "sys"}, case, (200, _completion("seen")))
    assert reply.body == "seen"
    assert body["messages"] == [{"role": "system", "content": "sys"}, {"role": "user", "content": [
        {"type": "text", "text": "describe"},
        {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{_b64(_PNG)}"}},
        {"type": "input_audio", "input_audio": {"data": _b64(_WAV), "format": "wav"}},
        {"type": "video_url", "video_url": {"url": f"data:video/x-msvideo;base64,{_b64(_AVI)}"}}]}]


def _media_error(case):
    target = make_target({"type": "openai", "model": "m", "base_url": "http://127.0.0.1:9/v1"})
    with pytest.raises(MediaError) as raised:
        asyncio.run(target.send(case, target.request(case)))
    return str(raised.value)


def test_audio_the_api_cannot_take_is_refused_naming_the_field_and_case(no_key):
    assert _media_error(DatasetCase(id="c9", query="listen", audio={"base64": _b64(_OGG)})) == (
        "audio (case 'c9'): {base64: … (64 bytes)}: holds audio/ogg audio; the openai target sends WAV or MP3 "
        "(input_audio) — convert it, e.g. `ffmpeg -i IN OUT.wav`")
    assert _media_error(DatasetCase(id="c8", query="listen", audio={"base64": _b64(_PNG)})) == (
        "audio (case 'c8'): {base64: … (69 bytes)}: holds PNG image (image/png), not audio — give audio (WAV, MP3, "
        "AAC, FLAC, OGG or M4A), or put this file in the `image` field")


def test_a_media_file_is_found_in_the_cases_folder_not_the_working_directory(tmp_path, monkeypatch, no_key):
    (tmp_path / "suite").mkdir()
    (tmp_path / "suite" / "pic.png").write_bytes(_PNG)
    monkeypatch.chdir(tmp_path)
    case = DatasetCase(id="c", query="look", image="pic.png", media_dir=str(tmp_path / "suite"))
    reply, (body,) = _exchange({}, case, (200, _completion("seen")))
    assert reply.body == "seen" and body["messages"][0]["content"][1] == {"type": "image_url",
                                                  "image_url": {"url": f"data:image/png;base64,{_b64(_PNG)}"}}
    request = make_target({"type": "openai", "model": "m"}).request(case)
    assert request["media"] == [{"field": "image", "id": "sha256:" + hashlib.sha256(_PNG).hexdigest()}]


def test_content_parts_a_conversation_gives_itself_are_sent_as_written(no_key):
    own = ["plain text part", {"no": "type"}, {"type": "image_url", "image_url": {"url": "https://x/y.png"}}]
    with_media = DatasetCase(id="c", query="q", conversation=[{"role": "user", "content": own}],
                             image={"base64": _b64(_PNG)})
    _, (body,) = _exchange({}, with_media, (200, _completion()))
    assert body["messages"][0] == {"role": "user", "content": own}
    spelled = [{"type": "image_url", "image_url": {"url": "agentunit-media:0"}}]
    without_media = DatasetCase(id="c", query="q", conversation=[{"role": "user", "content": spelled}])
    _, (body,) = _exchange({}, without_media, (200, _completion()))
    assert body["messages"][0] == {"role": "user", "content": spelled}  # no media: nothing is filled in


# -- sending ------------------------------------------------------------------------------------------

def test_a_reply_slower_than_the_timeout_is_not_retried_unless_asked(no_key):
    case = DatasetCase(id="c", query="q")
    error, bodies = _exchange({"timeout": 0.2, "retries": 2, "backoff": 0.01}, case, (200, _completion(), 0.6))
    assert str(error) == "timed out after 0.2 s (attempt 1; not retried: the server may still be working on it)"
    assert len(bodies) == 1
    error, bodies = _exchange({"timeout": 0.2, "retries": 1, "backoff": 0.01, "retry_on_timeout": True}, case,
                              (200, _completion(), 0.6))
    assert str(error) == "timed out after 0.2 s (after 2 attempts)" and len(bodies) == 2


def test_a_refused_request_is_reported_with_the_key_redacted(monkeypatch):
    monkeypatch.setenv("AU_MUT_KEY", "sk-mut-123")
    error, _ = _exchange({"api_key_env": "AU_MUT_KEY"}, DatasetCase(id="c", query="q"),
                         (400, json.dumps({"error": "bad key sk-mut-123"})))
    assert str(error) == 'HTTP 400: {"error": "bad key ***"}'


def test_a_reply_over_the_size_limit_is_an_error(no_key):
    error, _ = _exchange({"max_response_bytes": 10}, DatasetCase(id="c", query="q"), (200, _completion()))
    assert str(error) == "reply larger than 10 bytes (max_response_bytes)"


# -- reading the reply --------------------------------------------------------------------------------

def test_a_null_content_is_the_empty_answer_and_tool_calls_make_an_envelope(no_key):
    calls = [{"id": "t1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]
    reply, _ = _exchange({}, DatasetCase(id="c", query="q"),
                         (200, json.dumps({"choices": [{"message": {"content": None, "tool_calls": calls}}]})))
    assert reply.body == {"output": "", "trusys": {"tool_calls": calls}}
    assert reply.usage is None and reply.logprobs is None and reply.finish_reason is None
    assert isinstance(reply.latency_ms, float) and reply.latency_ms > 0


def test_usage_that_is_not_an_object_and_logprobs_in_other_shapes_are_dropped(no_key):
    reply, _ = _exchange({}, DatasetCase(id="c", query="q"),
                         (200, json.dumps({"choices": [{"message": {"content": "a"}, "logprobs": [-1.0]}],
                                           "usage": [1, 2]})))
    assert (reply.body, reply.usage, reply.logprobs) == ("a", None, None)
    mixed = '{"choices": [{"message": {"content": "a"}, "logprobs": {"content": [{"logprob": "x"}, ' \
            '{"logprob": NaN}, {"logprob": -0.5}, {"logprob": 2}, "junk"]}}]}'
    reply, _ = _exchange({}, DatasetCase(id="c", query="q"), (200, mixed))
    assert reply.logprobs == [-0.5, 2.0]


def test_a_reply_that_is_not_a_chat_completion_is_quoted_up_to_200_characters(no_key):
    text = json.dumps({"nope": "x" * 300})
    error, _ = _exchange({}, DatasetCase(id="c", query="q"), (200, text))
    assert str(error) == f"not a chat completion reply (KeyError('choices')): {text[:200] + '…'!r}"


def test_the_target_can_send_again_after_aclose(no_key):
    server = RecordingServer((200, _completion("again")))
    target = make_target({"type": "openai", "base_url": server.url + "/v1", "model": "m"})
    case = DatasetCase(id="c", query="q")

    async def once():
        try:
            return (await target.send(case, target.request(case))).body
        finally:
            await target.aclose()

    try:
        assert [asyncio.run(once()), asyncio.run(once())] == ["again", "again"]
    finally:
        server.close()
