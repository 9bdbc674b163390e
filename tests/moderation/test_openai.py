"""provider: openai — a real HTTP /v1/moderations server started by the test."""

from __future__ import annotations

import json

import pytest

from agentunit.api import check
from tests.http_helpers import LocalServer, Reply


def _moderation_server(scores: dict[str, float] | None = None, status: int = 200, body: object = None) -> LocalServer:
    """Answers /v1/moderations with the OpenAI reply shape (any other path: 404); records requests and their
    headers."""
    scores = scores or {}

    def answer(request):
        reply = body if body is not None else {"id": "modr-1", "model": request.json["model"], "results": [
            {"flagged": any(v >= 0.5 for v in scores.values()),
             "categories": {k: v >= 0.5 for k, v in scores.items()},
             "category_scores": scores}]}
        return Reply(status if request.path == "/v1/moderations" else 404, reply)

    return LocalServer(answer, path="/v1")


@pytest.fixture
def server():
    with _moderation_server({"harassment": 0.02, "harassment/threatening": 0.01, "hate": 0.91,
                             "hate/threatening": 0.3, "self-harm": 0.0, "self_harm_intent": 0.0,
                             "sexual": 0.0, "violence": 0.4, "illicit": 0.0}) as started:
        yield started


def _spec(server, **config):
    return {"metric": "moderation", "config": {"provider": "openai", "base_url": server.url, **config}}


def test_scores_come_from_the_endpoint_and_a_checked_category_over_the_threshold_fails(server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-moderation-secret")
    result = check("those people are vermin", _spec(server))
    assert result.passed is False and result.value == pytest.approx(1 - 0.91)
    assert result.detail["flagged"] == {"hate": 0.91} and result.detail["scores"]["violence"] == 0.4
    assert result.detail["output"]["flagged"] is True
    assert "self-harm/instructions" in result.detail["not_scored"]  # the reply has no such key
    request, headers = server.requests[0]["body"], server.requests[0]["headers"]
    assert request == {"model": "omni-moderation-latest", "input": "those people are vermin"}
    assert headers["Authorization"] == "Bearer sk-moderation-secret"
    assert "sk-moderation-secret" not in json.dumps(result.to_dict())


def test_only_the_checked_categories_decide(server):
    result = check("text", {**_spec(server, model="text-moderation-stable"), "value": ["violence", "sexual"]})
    assert result.passed is True and result.value == pytest.approx(0.6)
    assert set(result.detail["scores"]) == {"violence", "sexual"}
    assert server.bodies[0]["model"] == "text-moderation-stable"


def test_per_category_thresholds(server):
    result = check("text", {**_spec(server, thresholds={"violence": 0.35}), "value": ["violence"]})
    assert result.passed is False and result.detail["flagged"] == {"violence": 0.4}


def test_check_input_moderates_the_prompt_too(server):
    check("fine", _spec(server, check_input=True), query="a prompt")
    assert sorted(r["input"] for r in server.bodies) == ["a prompt", "fine"]


@pytest.mark.parametrize(("status", "body", "message"), [
    (500, {"error": "down"}, "HTTP 500"),
    (200, {"results": []}, "no results[0]"),
    (200, {"results": [{"category_scores": {"hate": "high"}}]}, "not a probability"),
    (200, {"results": [{"category_scores": {"hate": 1.5}}]}, "not a probability"),
])
def test_a_bad_reply_is_an_error_never_a_pass(status, body, message):
    bad = _moderation_server(status=status, body=body)
    try:
        result = check("text", _spec(bad))
    finally:
        bad.close()
    assert result.status == "error" and message in result.error and result.passed is None


def test_a_reply_that_scores_none_of_the_checked_categories_is_not_measured():
    partial = _moderation_server({"hate": 0.1})
    try:
        result = check("text", {**_spec(partial), "value": ["illicit"]})
    finally:
        partial.close()
    assert result.status == "not_measured" and "scored none of illicit" in result.reason
