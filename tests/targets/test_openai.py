"""The openai target against a real OpenAI-compatible HTTP server started by the test."""

import asyncio

import pytest

from agentunit import evaluate
from agentunit.datasets.base import DatasetCase
from agentunit.errors import TargetError
from agentunit.targets import make_target
from tests.http_helpers import Reply


@pytest.fixture
def chat_server(local_server):
    seen = []

    def answer(request):
        body = request.json
        seen.append({"path": request.path, "auth": request.headers.get("authorization"), "body": body,
                     "org": request.headers.get("x-org")})
        question = body["messages"][-1]["content"]
        if question == "garbage":
            return Reply(200, b'{"nope": true}')
        message = {"role": "assistant", "content": f"answer to {question}"}
        if question == "use a tool":
            message["tool_calls"] = [{"id": "t1", "type": "function",
                                      "function": {"name": "search", "arguments": '{"q": "x"}'}}]
        return Reply(200, {"choices": [{"message": message, "finish_reason": "stop",
                                        "logprobs": {"content": [{"token": "a", "logprob": -0.1},
                                                                 {"token": "b", "logprob": -0.3}]}}],
                           "usage": {"prompt_tokens": 11, "completion_tokens": 4, "total_tokens": 15}})

    return local_server(answer, path="/v1").url, seen


def _send(spec, prompt):
    target = make_target({"type": "openai", **spec})
    case = DatasetCase(id="c", query=prompt)

    async def go():
        try:
            return await target.send(case, target.request(case))
        finally:
            await target.aclose()

    return asyncio.run(go())


def test_chat_completion_records_usage_logprobs_and_auth(chat_server, monkeypatch):
    base_url, seen = chat_server
    monkeypatch.setenv("AU_OPENAI_KEY", "sk-test")
    reply = _send({"base_url": base_url, "model": "m", "api_key_env": "AU_OPENAI_KEY", "system": "Be brief.",
                   "logprobs": True, "max_tokens": 20}, "hi")
    assert reply.body == "answer to hi" and reply.usage["total_tokens"] == 15
    assert reply.logprobs == [-0.1, -0.3] and reply.finish_reason == "stop"
    request = seen[0]
    assert request["path"] == "/v1/chat/completions" and request["auth"] == "Bearer sk-test"
    assert request["body"]["messages"][0] == {"role": "system", "content": "Be brief."}
    assert request["body"]["temperature"] == 0 and request["body"]["logprobs"] is True


def test_tool_calls_become_an_envelope_and_bad_replies_error(chat_server, monkeypatch):
    base_url, _ = chat_server
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    reply = _send({"base_url": base_url, "model": "m"}, "use a tool")
    assert reply.body["trusys"]["tool_calls"][0]["function"]["name"] == "search"
    with pytest.raises(TargetError, match="not a chat completion"):
        _send({"base_url": base_url, "model": "m"}, "garbage")


def test_openai_suite_end_to_end_with_cache(chat_server, tmp_path):
    base_url, seen = chat_server
    suite = {"name": "oa", "target": {"type": "openai", "base_url": base_url, "model": "m", "logprobs": True},
             "cases": [{"prompt": "2+2?", "metrics": [{"metric": "contains", "value": "2+2"}, "token_usage"]}]}
    first = evaluate(suite, db=tmp_path / "r.db")
    second = evaluate(suite, db=tmp_path / "r.db")
    assert first.passed and second.passed and len(seen) == 1  # the second run was served from the cache
    assert first.cases[0]["metrics"][1]["value"] == 15 and second.cases[0]["envelope"]["usage"]["total_tokens"] == 15


def test_header_env_references_are_resolved_and_redacted_from_errors(chat_server, monkeypatch):
    base_url, seen = chat_server
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("AU_ORG", "org-secret-42")
    target = make_target({"type": "openai", "base_url": base_url, "model": "m", "headers": {"X-Org": "${AU_ORG}"}})
    case = DatasetCase(id="c", query="hello")

    async def go():
        try:
            return await target.send(case, target.request(case))
        finally:
            await target.aclose()

    asyncio.run(go())
    assert seen[-1]["org"] == "org-secret-42"
    assert target.describe()["headers"] == {"X-Org": "${AU_ORG}"} and "org-secret-42" in target.secrets
    assert target.redact("echo org-secret-42") == "echo ***"
