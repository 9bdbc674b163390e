"""The Anthropic judge sends one Messages API request (system apart, temperature 0, at least one token,
the key and API version as headers) and reads the text blocks and token counts of the reply."""

import asyncio
import json

import pytest

from agentunit.errors import AgentUnitError
from agentunit.judges import JudgeRequest
from agentunit.judges.providers import AnthropicProvider
from tests.http_helpers import RecordingServer


def messages_server_answering(reply):
    """A server answering every POST with ``reply`` (JSON), recording each request."""
    server = RecordingServer((200, json.dumps(reply)))
    server.url += "/"
    return server


def _call(provider, request):
    async def call():
        try:
            return await provider.call(request)
        finally:
            await provider.aclose()

    return asyncio.run(call())


@pytest.fixture
def messages_server():
    blocks = [{"type": "text", "text": "PA"}, {"type": "tool_use", "text": "ignored"}, {"type": "text", "text": "SS"}]
    server = messages_server_answering({"content": blocks, "usage": {"input_tokens": 42, "output_tokens": 2}})
    yield server
    server.close()


def test_the_request_has_the_system_apart_temperature_zero_and_the_key_headers(messages_server, monkeypatch):
    monkeypatch.setenv("AU_ANTHROPIC_TEST_KEY", "sk-ant-123")
    provider = AnthropicProvider({"base_url": messages_server.url, "model": "claude-x",
                                  "api_key_env": "AU_ANTHROPIC_TEST_KEY"})
    request = JudgeRequest((("system", "Grade."), ("user", "Is it right?"), ("system", "Be strict.")),
                           options=("PASS", "FAIL"), max_tokens=0)
    reply = _call(provider, request)
    assert reply.text == "PASS" and reply.usage == {"prompt_tokens": 42, "completion_tokens": 2}
    (sent,) = messages_server.requests
    assert sent["path"] == "/v1/messages"
    assert sent["headers"]["x-api-key"] == "sk-ant-123" and sent["headers"]["anthropic-version"] == "2023-06-01"
    assert sent["body"] == {"model": "claude-x", "max_tokens": 1, "temperature": 0, "system": "Grade.\nBe strict.",
                            "messages": [{"role": "user", "content": "Is it right?"}]}


def test_without_a_system_message_none_is_sent(messages_server, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-default")
    _call(AnthropicProvider({"base_url": messages_server.url}), JudgeRequest((("user", "q"),), max_tokens=7))
    (sent,) = messages_server.requests
    assert sent["headers"]["x-api-key"] == "sk-ant-default"
    assert sent["body"] == {"model": "claude-3-5-haiku-latest", "max_tokens": 7, "temperature": 0,
                            "messages": [{"role": "user", "content": "q"}]}


def test_defaults_and_a_missing_key(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    provider = AnthropicProvider({})
    assert provider.describe() == {"provider": "anthropic", "base_url": "https://api.anthropic.com",
                                   "model": "claude-3-5-haiku-latest"}
    assert AnthropicProvider({"base_url": "http://h:1/", "model": "m"}).describe()["base_url"] == "http://h:1"
    with pytest.raises(AgentUnitError) as raised:
        _call(provider, JudgeRequest((("user", "q"),)))
    assert str(raised.value) == "environment variable ANTHROPIC_API_KEY is not set (anthropic judge)"


def test_a_reply_without_a_content_list_is_an_error(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-default")
    server = messages_server_answering({"content": "PASS"})
    try:
        with pytest.raises(AgentUnitError, match=r"^judge reply is not a Messages API reply: no content list$"):
            _call(AnthropicProvider({"base_url": server.url}), JudgeRequest((("user", "q"),)))
    finally:
        server.close()
