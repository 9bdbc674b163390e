"""Secrets never reach what is kept: a reply, error or metric result echoing a resolved ``${ENV}`` secret
(a target's header or env value, the judge's API key) is stored, cached and reported with ``***``.

Four places remove them: ``redact_text`` (agentunit.targets._secrets) does the replacing; a target's
``redact`` cleans its own error texts; ``JudgeService.redact`` cleans judge replies and errors; the
engine's ``scrub`` cleans the reply before it is cached and the case's output, error, envelope and
metric results before they are stored (a reply cached before a value became a secret included).
"""

import json
import sys
from pathlib import Path

import pytest

from agentunit import evaluate
from agentunit.core.engine import scrub
from agentunit.errors import AgentUnitError, TargetError
from agentunit.judges import JudgeRequest
from agentunit.judges.service import JudgeService
from agentunit.metrics.base import MetricResult
from agentunit.reporting.html import write_html
from agentunit.reporting.json_report import write_json
from agentunit.reporting.junit import write_junit
from agentunit.reporting.markdown import write_markdown
from agentunit.targets import make_target
from agentunit.targets._secrets import redact_text
from tests.http_helpers import LocalServer, Reply

TARGET_SECRET = "tok-7f3a9c2e1d5b"
JUDGE_SECRET = "sk-judge-4e8b2a6f0c1d"

# A command that answers with its token everywhere a reply can carry text: the output, the envelope's
# context and a tool call's arguments and output.
_ECHO_TOKEN = ("import json, os; t = os.environ['AGENT_TOKEN']; print(json.dumps({'output': 'the token is ' + t,"
               " 'trusys': {'context': ['ctx ' + t], 'tool_calls': [{'name': 'lookup', 'arguments': {'q': t},"
               " 'output': t}]}}))")
_FAIL_WITH_TOKEN = "import os, sys; sys.stderr.write('bad token ' + os.environ['AGENT_TOKEN']); sys.exit(2)"


class EchoingMetric:
    """A user metric whose reason, error and detail quote the secret (say, from its own API's error)."""

    name = "echoing"

    def evaluate(self, case, trace, outcome):
        return MetricResult(name=self.name, value=1.0, passed=True, reason=f"checked with {TARGET_SECRET}",
                            detail={"calls": [{"token": TARGET_SECRET}]})


class ExplodingMetric:
    """A user metric that fails with the secret in its message: the error is stored, the secret not."""

    name = "exploding"

    def evaluate(self, case, trace, outcome):
        raise RuntimeError(f"API refused token {TARGET_SECRET}")


def _database_bytes(db: Path) -> bytes:
    """Every byte SQLite wrote for ``db`` (the main file, its WAL and journal)."""
    return b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))


def _reports(result, folder: Path) -> str:
    paths = {"r.json": write_json, "r.xml": write_junit, "r.md": write_markdown, "r.html": write_html}
    for name, write in paths.items():
        write(result, folder / name)
    return "".join((folder / name).read_text() for name in paths) + json.dumps(result.to_dict())


def test_a_reply_echoing_a_target_secret_reaches_neither_the_store_the_cache_nor_the_reports(tmp_path, monkeypatch):
    monkeypatch.setenv("AU_GUARD_TOKEN", TARGET_SECRET)

    def command(script):
        return {"type": "command", "argv": [sys.executable, "-c", script], "cache": True,
                "env": {"AGENT_TOKEN": "${AU_GUARD_TOKEN}"}}

    db = tmp_path / "r.db"
    suite = {"name": "leaky", "target": command(_ECHO_TOKEN), "cases": [
        {"id": "echo", "prompt": "p", "metrics": [{"metric": "contains", "value": "the token is"},
                                                  {"metric": "equals", "value": "something else"}]}]}
    result = evaluate(suite, db=db, metrics=[EchoingMetric(), ExplodingMetric()])
    failing = evaluate({**suite, "name": "failing", "target": command(_FAIL_WITH_TOKEN)}, db=db)

    case, errored = result.cases[0], failing.cases[0]
    assert case["output"] == "the token is ***"
    assert json.dumps(case["envelope"]).count("***") == 3  # context, tool arguments, tool output
    metrics = {m["metric"]: m for m in case["metrics"]}
    assert metrics["echoing"]["reason"] == "checked with ***"
    assert metrics["echoing"]["detail"] == {"calls": [{"token": "***"}]}
    assert metrics["exploding"]["error"].endswith("API refused token ***")
    assert errored["status"] == "errored" and "bad token ***" in errored["error"]
    reports = _reports(result, tmp_path) + _reports(failing, tmp_path)
    assert TARGET_SECRET not in reports + json.dumps(result.cases + failing.cases)
    result.store.close()
    assert TARGET_SECRET.encode() not in _database_bytes(db)  # runs, case results, metric results, reply cache

    rerun = evaluate(suite, db=db, metrics=[EchoingMetric()])  # served from the cache: still redacted
    assert rerun.cases[0]["cached"] and rerun.cases[0]["output"] == "the token is ***"


def _echo_path_and_authorization(request):
    """An HTTP agent that answers with the request's path and Authorization header (a misconfigured proxy,
    a debug endpoint): what the target resolved from ``${ENV}`` comes back in the reply."""
    return Reply(200, {"output": f"{request.path} {request.headers.get('Authorization')}"})


def test_an_http_target_redacts_the_url_and_header_secrets_it_resolved(tmp_path, monkeypatch):
    monkeypatch.setenv("AU_GUARD_TOKEN", TARGET_SECRET)
    monkeypatch.setenv("AU_GUARD_QUERY_KEY", "qk-5d1e9a7c3b")
    server = LocalServer(_echo_path_and_authorization, path="/agent")
    try:
        result = evaluate({"name": "echoing", "target": {
            "type": "http", "url": server.url + "?key=${AU_GUARD_QUERY_KEY}",
            "headers": {"Authorization": "Bearer ${AU_GUARD_TOKEN}"}}, "cases": [
            {"id": "c", "prompt": "p", "metrics": [{"metric": "contains", "value": "Bearer"}]}]}, db=tmp_path / "r.db")
    finally:
        server.close()
    assert result.cases[0]["output"] == "/agent?key=*** Bearer ***"
    result.store.close()
    database = _database_bytes(tmp_path / "r.db")
    assert TARGET_SECRET.encode() not in database and b"qk-5d1e9a7c3b" not in database


def test_the_judges_key_is_removed_from_what_the_target_says_even_from_a_reply_cached_before(tmp_path, monkeypatch):
    monkeypatch.setenv("AU_GUARD_JUDGE_KEY", JUDGE_SECRET)

    def agent(prompt):
        if prompt == "raise":
            raise RuntimeError(f"upstream refused key {JUDGE_SECRET}")
        return {"output": f"my key is {JUDGE_SECRET}", "trusys": {"context": [JUDGE_SECRET]}}

    db = tmp_path / "r.db"
    suite = {"name": "judged", "target": {"type": "python", "function": agent, "cache": True}, "cases": [
        {"id": "echo", "prompt": "p", "metrics": [{"metric": "contains", "value": "my key"}]},
        {"id": "raise", "prompt": "raise", "metrics": [{"metric": "contains", "value": "x"}]}]}
    # First without a judge: the value is not a secret yet, so the reply is cached as it came.
    before = evaluate(suite, db=db)
    assert before.cases[0]["output"] == f"my key is {JUDGE_SECRET}"
    judge = {"provider": "openai", "base_url": "http://127.0.0.1:9/v1", "model": "m",
             "api_key_env": "AU_GUARD_JUDGE_KEY"}
    after = evaluate({**suite, "judge": judge}, db=db)
    cases = {c["id"]: c for c in after.cases}
    assert cases["echo"]["cached"] and cases["echo"]["output"] == "my key is ***"
    assert cases["echo"]["envelope"]["context"] == ["***"]
    assert "upstream refused key ***" in cases["raise"]["error"]
    assert JUDGE_SECRET not in json.dumps(after.to_dict())


def test_redact_text_replaces_every_occurrence_longest_secret_first():
    text = "a=abc b=abcdef c=abc"
    assert redact_text(text, {"abc", "abcdef"}) == "a=*** b=*** c=***"
    assert redact_text(text, ["abcdef"]) == "a=abc b=*** c=abc"
    assert redact_text(text, {""}) == text  # an empty secret would otherwise match between every character
    # by length, not by text: "xyz" sorts after "abxyz" but must not cut it into "ab***"
    assert redact_text("key abxyz", {"xyz", "abxyz"}) == "key ***"


def test_engine_scrub_reaches_into_nested_dicts_and_lists_and_leaves_other_values():
    value = {"a": ["x s3cr3t y", {"b": "s3cr3t"}], "n": 3, "none": None, "flag": True}
    assert scrub(value, {"s3cr3t"}) == {"a": ["x *** y", {"b": "***"}], "n": 3, "none": None, "flag": True}
    assert scrub("plain", {"s3cr3t"}) == "plain"


def test_a_target_redacts_the_secrets_it_resolved_from_its_errors(monkeypatch):
    import asyncio

    from agentunit.datasets.base import DatasetCase

    monkeypatch.setenv("AU_GUARD_TOKEN", TARGET_SECRET)
    target = make_target({"type": "command", "argv": [sys.executable, "-c", _FAIL_WITH_TOKEN],
                          "env": {"AGENT_TOKEN": "${AU_GUARD_TOKEN}"}})
    case = DatasetCase(id="c", query="p")
    with pytest.raises(TargetError) as raised:
        asyncio.run(target.send(case, target.request(case)))
    assert str(raised.value).endswith("bad token ***") and target.secrets == {TARGET_SECRET}
    assert target.redact(f"x {TARGET_SECRET} y") == "x *** y"


def test_the_judge_service_redacts_its_key_from_provider_errors(monkeypatch):
    import asyncio

    monkeypatch.setenv("AU_GUARD_JUDGE_KEY", JUDGE_SECRET)
    service = JudgeService({"provider": "openai", "base_url": "http://127.0.0.1:9/v1", "model": "m",
                            "api_key_env": "AU_GUARD_JUDGE_KEY"})
    assert service.redact(f"Bearer {JUDGE_SECRET}") == "Bearer ***"

    class Failing:
        def __init__(self, error):
            self.error = error
            self.secrets = {JUDGE_SECRET}

        def describe(self):
            return {"provider": "failing", "error": type(self.error).__name__}

        async def call(self, request):
            raise self.error

    for error in (RuntimeError(f"boom {JUDGE_SECRET}"), TargetError(f"HTTP 401 for key {JUDGE_SECRET}"),
                  AgentUnitError(f"refused {JUDGE_SECRET}")):
        service.provider = Failing(error)
        with pytest.raises(AgentUnitError) as raised:
            asyncio.run(service.generate(JudgeRequest((("user", "q"),), max_tokens=4)))
        assert JUDGE_SECRET not in str(raised.value) and "***" in str(raised.value)
