"""What mutation testing found unpinned in ``agentunit.judges.providers`` (docs/testing.md, "Mutation testing").

How a reply's first-token alternatives and token counts are read when they are malformed; the chat
completion an OpenAI-compatible judge sends (model, token limit, JSON Schema) and its key header; which
errors are retried without logprobs; the error texts (redacted, clipped); one HTTP session per event loop,
closed by ``aclose``; and the Anthropic judge's reply forms.
"""

from __future__ import annotations

import asyncio
import json
import time

import pytest

from agentunit.errors import AgentUnitError
from agentunit.judges import JudgeRequest
from agentunit.judges.providers import (
    PROVIDERS,
    AnthropicProvider,
    OpenAIProvider,
    _first_token_logprobs,
    _token_counts,
)
from tests.http_helpers import script


@pytest.fixture
def serve(local_server):
    """``serve(*replies)`` starts a server answering that script of replies (closed after the test)."""
    return lambda *replies: local_server(script(*replies))


def _completion(content, **extra):
    return json.dumps({"choices": [{"message": {"content": content}, **extra}],
                       "usage": {"prompt_tokens": 3, "completion_tokens": 1}})


def _call(provider, request):
    async def call():
        try:
            return await provider.call(request)
        finally:
            await provider.aclose()

    return asyncio.run(call())


# -- reading a reply ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("logprobs", [
    None, {"content": None}, {"content": []}, {"content": {"top_logprobs": []}}, {"content": ["x"]},
    {"content": [{"top_logprobs": None}]}, {"content": [{"top_logprobs": [5, "x"]}]}])
def test_malformed_first_token_alternatives_read_as_none(logprobs):
    assert _first_token_logprobs({"logprobs": logprobs}) is None


def test_first_token_alternatives_skip_what_is_not_an_alternative():
    top = [5, {"token": "A", "logprob": -0.5}, {"logprob": -1}, {"token": "B"}, {"token": "C", "logprob": "x"},
           {"token": 7, "logprob": 0}]
    assert _first_token_logprobs({"logprobs": {"content": [{"top_logprobs": top}]}}) == [
        ("A", -0.5), ("", -1.0), ("B", float("-inf")), ("7", 0.0)]


def test_token_counts_that_are_missing_or_not_numbers_are_zero():
    names = {"prompt_tokens": "in", "completion_tokens": "out"}
    assert _token_counts({"in": 12, "out": 3.9}, names) == {"prompt_tokens": 12, "completion_tokens": 3}
    assert _token_counts({"out": 2}, names) == {"prompt_tokens": 0, "completion_tokens": 2}
    for bad in (True, "12", float("inf"), float("nan"), None, [1]):
        assert _token_counts({"in": bad, "out": 1}, names) == {"prompt_tokens": 0, "completion_tokens": 1}, bad
    assert _token_counts("not a dict", names) == {"prompt_tokens": 0, "completion_tokens": 0}
    assert _token_counts(None, names) == {"prompt_tokens": 0, "completion_tokens": 0}


# -- the OpenAI-compatible judge ---------------------------------------------------------------------------


def test_a_structured_request_sends_model_token_limit_and_json_schema(serve, monkeypatch):
    monkeypatch.setenv("AU_PROVIDERS_TEST_KEY", "sk-test-42")
    server = serve((200, _completion('{"score": 3}')))
    provider = OpenAIProvider({"base_url": server.url + "/v1/", "model": "judge-m",
                               "api_key_env": "AU_PROVIDERS_TEST_KEY"})
    schema = {"type": "object", "properties": {"score": {"type": "integer"}}}
    reply = _call(provider, JudgeRequest((("user", "Rate it."),), max_tokens=64, json_schema=schema))
    assert reply.text == '{"score": 3}' and reply.usage == {"prompt_tokens": 3, "completion_tokens": 1}
    (sent,) = server.requests
    assert sent["path"] == "/v1/chat/completions"
    assert sent["headers"]["Authorization"] == "Bearer sk-test-42"
    assert sent["body"] == {"model": "judge-m", "messages": [{"role": "user", "content": "Rate it."}],
                            "max_tokens": 64, "temperature": 0,
                            "response_format": {"type": "json_schema",
                                                "json_schema": {"name": "answer", "schema": schema}}}


def test_a_missing_key_variable_is_an_error_and_no_variable_sends_no_header(serve, monkeypatch):
    monkeypatch.delenv("AU_PROVIDERS_UNSET", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    server = serve((200, _completion("PASS")))
    provider = OpenAIProvider({"base_url": server.url, "api_key_env": "AU_PROVIDERS_UNSET"})
    with pytest.raises(AgentUnitError) as info:
        _call(provider, JudgeRequest((("user", "q"),)))
    assert str(info.value) == "environment variable AU_PROVIDERS_UNSET is not set (judge api_key_env)"
    assert server.requests == []
    reply = _call(OpenAIProvider({"base_url": server.url}), JudgeRequest((("user", "q"),)))
    assert reply.text == "PASS" and "Authorization" not in server.requests[0]["headers"]
    assert server.requests[0]["body"]["model"] == "gpt-4o-mini"


def test_only_a_refused_logprobs_request_is_retried_without_them(serve):
    server = serve((400, '{"error": "bad request"}'))
    provider = OpenAIProvider({"base_url": server.url})
    with pytest.raises(AgentUnitError, match="HTTP 400"):
        _call(provider, JudgeRequest((("user", "q"),), json_schema={"type": "object"}))
    assert len(server.requests) == 1 and provider._no_logprobs is False  # not a logprobs request: no retry
    server = serve((400, '{"error": "no logprobs"}'), (200, _completion("PASS")))
    provider = OpenAIProvider({"base_url": server.url})
    reply = _call(provider, JudgeRequest((("user", "q"),), options=("PASS", "FAIL")))
    assert reply.text == "PASS" and provider._no_logprobs is True
    assert [r["body"].get("logprobs") for r in server.requests] == [True, None]


def test_empty_and_malformed_completions(serve):
    server = serve((200, _completion(None)), (200, _completion(7)))
    provider = OpenAIProvider({"base_url": server.url})
    assert _call(provider, JudgeRequest((("user", "q"),))).text == ""
    with pytest.raises(AgentUnitError) as info:
        _call(provider, JudgeRequest((("user", "q"),)))
    assert str(info.value) == "judge reply is not a chat completion: TypeError('content is int, not text')"


def test_a_reply_that_is_not_json_is_quoted_redacted_and_clipped(serve, monkeypatch):
    monkeypatch.setenv("AU_PROVIDERS_TEST_KEY", "sk-secret-99")
    server = serve((200, "oops sk-secret-99 " + "z" * 400))
    provider = OpenAIProvider({"base_url": server.url, "api_key_env": "AU_PROVIDERS_TEST_KEY"})
    with pytest.raises(AgentUnitError) as info:
        _call(provider, JudgeRequest((("user", "q"),)))
    message = str(info.value)
    assert message.startswith("judge reply is not JSON (Expecting value: line 1 column 1 (char 0)): 'oops ")
    assert "sk-secret-99" not in message
    body = "oops *** " + "z" * 400
    assert message.split("): ", 1)[1] == repr(body[:200] + "…")


def test_an_http_error_that_echoes_the_key_is_redacted(serve, monkeypatch):
    monkeypatch.setenv("AU_PROVIDERS_TEST_KEY", "sk-secret-77")
    server = serve((401, '{"error": "bad key sk-secret-77"}'))
    provider = OpenAIProvider({"base_url": server.url, "api_key_env": "AU_PROVIDERS_TEST_KEY"})
    with pytest.raises(AgentUnitError) as info:
        _call(provider, JudgeRequest((("user", "q"),)))
    assert "HTTP 401" in str(info.value) and "sk-secret-77" not in str(info.value)


def test_a_reply_over_the_size_limit_is_an_error(serve):
    server = serve((200, _completion("x" * 5000)))
    provider = OpenAIProvider({"base_url": server.url, "max_response_bytes": 1000})
    with pytest.raises(AgentUnitError, match="1000"):
        _call(provider, JudgeRequest((("user", "q"),)))


def test_one_session_per_event_loop_closed_by_aclose(serve):
    server = serve((200, _completion("PASS")))
    provider = OpenAIProvider({"base_url": server.url})

    async def twice():
        await provider.call(JudgeRequest((("user", "a"),)))
        first = provider._session
        await provider.call(JudgeRequest((("user", "b"),)))
        assert provider._session is first and not first.closed
        await provider.aclose()
        assert first.closed and provider._session is None
        return first

    first = asyncio.run(twice())
    second = asyncio.run(twice())
    assert second is not first and len(server.requests) == 4


def test_aclose_leaves_a_session_of_another_loop_alone(serve):
    server = serve((200, _completion("PASS")))
    provider = OpenAIProvider({"base_url": server.url})
    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(provider.call(JudgeRequest((("user", "a"),))))
        session = provider._session
        other = asyncio.new_event_loop()
        try:
            other.run_until_complete(provider.call(JudgeRequest((("user", "b"),))))  # a session of its own
            assert provider._session is not session and not session.closed
            other.run_until_complete(provider.aclose())
        finally:
            other.close()
        provider._session, provider._session_loop = session, loop
        asyncio.run(provider.aclose())  # another loop: the session is not closed from there, only forgotten
        assert not session.closed and provider._session is None
        loop.run_until_complete(session.close())
    finally:
        loop.close()


# -- the Anthropic judge -----------------------------------------------------------------------------------


def test_anthropic_errors_name_the_key_variable_and_the_reply(serve, monkeypatch):
    monkeypatch.delenv("AU_ANTHROPIC_UNSET", raising=False)
    with pytest.raises(AgentUnitError) as info:
        _call(AnthropicProvider({"api_key_env": "AU_ANTHROPIC_UNSET"}), JudgeRequest((("user", "q"),)))
    assert str(info.value) == "environment variable AU_ANTHROPIC_UNSET is not set (anthropic judge)"
    monkeypatch.setenv("AU_ANTHROPIC_TEST_KEY", "k")
    server = serve((200, "[1, 2]"))
    with pytest.raises(AgentUnitError) as info:
        _call(AnthropicProvider({"base_url": server.url, "api_key_env": "AU_ANTHROPIC_TEST_KEY"}),
              JudgeRequest((("user", "q"),)))
    assert str(info.value) == "judge reply is not a Messages API reply: no content list"


def test_anthropic_text_blocks_without_text_add_nothing(serve, monkeypatch):
    monkeypatch.setenv("AU_ANTHROPIC_TEST_KEY", "k")
    server = serve((200, json.dumps({"content": [{"type": "text"}, {"type": "text", "text": "PASS"}, "junk"]})))
    reply = _call(AnthropicProvider({"base_url": server.url, "api_key_env": "AU_ANTHROPIC_TEST_KEY"}),
                  JudgeRequest((("user", "q"),)))
    assert reply.text == "PASS" and reply.usage == {"prompt_tokens": 0, "completion_tokens": 0}


def test_the_judge_timeout_is_the_configured_one(serve):
    server = serve((200, _completion("PASS"), 1.0))
    provider = OpenAIProvider({"base_url": server.url, "timeout": 0.2})
    started = time.monotonic()
    with pytest.raises(AgentUnitError, match="timed out"):
        _call(provider, JudgeRequest((("user", "q"),)))
    assert time.monotonic() - started < 0.9 and len(server.requests) == 1  # a timed-out call is not retried


def test_defaults_and_a_bad_size_limit_name_the_judge():
    assert OpenAIProvider({}).describe() == {"provider": "openai", "base_url": "https://api.openai.com/v1",
                                             "model": "gpt-4o-mini"}
    assert OpenAIProvider({"base_url": "http://h/v1/"}).base_url == "http://h/v1"
    assert AnthropicProvider({"base_url": "http://h/"}).base_url == "http://h"
    with pytest.raises(AgentUnitError) as info:
        OpenAIProvider({"max_response_bytes": 0})
    assert str(info.value) == "judge: max_response_bytes must be a whole number of bytes ≥ 1, got 0"


def test_provider_names_answer_membership_without_importing_and_unhashable_names_are_none():
    """``name in PROVIDERS`` is answered from the table of names (a lookup would import the provider's
    module); a value that cannot be a key (a list, a dict from a malformed suite) is no provider's name."""
    assert "openai" in PROVIDERS and "local" in PROVIDERS
    assert "no-such-provider" not in PROVIDERS
    assert ["openai"] not in PROVIDERS and {"provider": "openai"} not in PROVIDERS
