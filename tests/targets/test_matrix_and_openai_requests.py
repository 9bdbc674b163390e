"""What a matrix of targets caches and under which key, and the chat completion an OpenAI target sends
(the request is the cache key's material: a field left out would serve one config's reply to another)."""

import pytest

from agentunit.datasets.base import DatasetCase
from agentunit.errors import AgentUnitError, TargetError
from agentunit.targets import make_target
from agentunit.targets.matrix import MatrixTarget


def _case(label, prompt="hello", **extra):
    return DatasetCase(id="c1", query=prompt, metadata={"provider": label}, **extra)


def _matrix(**targets):
    return MatrixTarget({label: make_target(spec) for label, spec in targets.items()})


def test_a_matrix_caches_only_the_replies_of_targets_that_cache():
    matrix = _matrix(http={"type": "http", "url": "http://h/a"}, code={"type": "python", "function": str.upper})
    assert matrix.cache_enabled
    assert len(matrix.cache_key(matrix.request(_case("http")), 0)) == 64
    assert matrix.cache_key(matrix.request(_case("code")), 0) == ""  # python targets do not cache by default
    assert matrix.cache_key({"provider": "unknown", "request": {}}, 0) == ""
    assert not _matrix(code={"type": "python", "function": str.upper}).cache_enabled


def test_a_matrix_key_tells_its_targets_apart_and_follows_their_config():
    first = _matrix(a={"type": "http", "url": "http://h/a"}, b={"type": "http", "url": "http://h/b"})
    changed = _matrix(a={"type": "http", "url": "http://h/a", "output_path": "x"}, b={"type": "http",
                                                                                       "url": "http://h/b"})
    key_a, key_b = (first.cache_key(first.request(_case(label)), 0) for label in ("a", "b"))
    assert key_a != key_b
    assert changed.cache_key(changed.request(_case("a")), 0) != key_a
    assert first.cache_key(first.request(_case("a")), 1) != key_a
    assert first.describe() == {"type": "matrix", "providers": {"a": {"type": "http", "url": "http://h/a"},
                                                                "b": {"type": "http", "url": "http://h/b"}}}


def test_a_case_naming_no_known_target_is_a_target_error():
    matrix = MatrixTarget({"a": make_target({"type": "echo"})}, key="target_label", what="target")
    with pytest.raises(TargetError, match=r"case 'c1' names no known target \('b'\)"):
        matrix.request(DatasetCase(id="c1", query="q", metadata={"target_label": "b"}))


def test_the_openai_request_holds_the_model_the_messages_and_the_sampling_settings():
    target = make_target({"type": "openai", "model": "m1", "base_url": "http://h/v1/",
                          "system": "Answer in {{ lang }}.", "temperature": 0.7, "max_tokens": 64, "logprobs": True,
                          "top_logprobs": 5})
    case = DatasetCase(id="c1", query="Bonjour ?", vars={"lang": "French"},
                       conversation=[{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"},
                                     {"content": "no role given"}])
    assert target.request(case) == {"url": "http://h/v1/chat/completions", "body": {
        "model": "m1", "temperature": 0.7, "max_tokens": 64, "logprobs": True, "top_logprobs": 5,
        "messages": [{"role": "system", "content": "Answer in French."}, {"role": "user", "content": "Hi"},
                     {"role": "assistant", "content": "Hello"}, {"role": "user", "content": "no role given"},
                     {"role": "user", "content": "Bonjour ?"}]}}


def test_the_openai_request_defaults_to_temperature_zero_and_sends_only_what_is_set():
    target = make_target({"type": "openai", "model": "m1"})
    assert target.request(DatasetCase(id="c1", query="q")) == {
        "url": "https://api.openai.com/v1/chat/completions",
        "body": {"model": "m1", "messages": [{"role": "user", "content": "q"}], "temperature": 0}}
    without_top = make_target({"type": "openai", "model": "m1", "logprobs": True, "max_tokens": 0})
    body = without_top.request(DatasetCase(id="c1", query=""))["body"]
    assert body["logprobs"] is True and "top_logprobs" not in body and body["max_tokens"] == 0
    assert body["messages"] == []  # an empty prompt adds no user message


def test_openai_transport_settings_default_and_follow_the_spec():
    default = make_target({"type": "openai", "model": "m"})
    assert (default.base_url, default.timeout, default.retries, default.backoff) == \
        ("https://api.openai.com/v1", 60.0, 3, 1.0)
    custom = make_target({"type": "openai", "model": "m", "base_url": "http://h/v1//", "timeout": 5, "retries": 0,
                          "backoff": 0.25})
    assert (custom.base_url, custom.timeout, custom.retries, custom.backoff) == ("http://h/v1", 5.0, 0, 0.25)


def test_openai_headers_send_the_key_as_a_bearer_token_and_remember_it_as_a_secret(monkeypatch):
    monkeypatch.setenv("AU_OPENAI_GUARD_KEY", "sk-guard-1")
    monkeypatch.setenv("AU_OPENAI_GUARD_ORG", "org-7")
    target = make_target({"type": "openai", "model": "m", "api_key_env": "AU_OPENAI_GUARD_KEY",
                          "headers": {"OpenAI-Organization": "${AU_OPENAI_GUARD_ORG}"}})
    assert target._headers() == {"OpenAI-Organization": "org-7", "Authorization": "Bearer sk-guard-1"}
    assert target.secrets == {"sk-guard-1", "org-7"}
    monkeypatch.delenv("AU_OPENAI_GUARD_KEY")
    with pytest.raises(AgentUnitError) as raised:
        target._headers()
    assert str(raised.value) == "environment variable AU_OPENAI_GUARD_KEY is not set (api_key_env of the openai target)"
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert make_target({"type": "openai", "model": "m"})._headers() == {}  # a local server may need no key
