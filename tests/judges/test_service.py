"""The judge layer against a real OpenAI-compatible HTTP server started by the test (scripted replies):
logprob parsing, text fallback, cache hits on rerun, malformed output → retry → recorded error."""

import json
import math

import pytest

from agentunit import check, evaluate
from agentunit.judges import JudgeRequest, service_for, use_judge
from agentunit.judges.base import JudgeReply, read_decision
from tests.judges.scripted_server import ScriptedJudge, _completion  # noqa: F401  (tests/test_cli.py imports both from here)


@pytest.fixture
def judge():
    server = ScriptedJudge()
    config = {"provider": "openai", "base_url": server.url, "model": "scripted", "concurrency": 4}
    token = use_judge(config)
    yield server, config
    from agentunit.judges.service import _current

    _current.reset(token)
    server.close()


def test_decision_probabilities_come_from_logprobs(judge):
    server, _ = judge
    result = check("Paris", {"metric": "llm-rubric", "value": "names the capital"}, query="Capital of France?")
    assert result.value == pytest.approx(0.85 / 1.05) and result.passed is True
    assert result.detail["judge"]["source"] == "logprobs"
    request = server.requests[-1]
    assert request["temperature"] == 0 and request["logprobs"] is True and request["top_logprobs"] == 20
    assert "Capital of France?" in request["messages"][-1]["content"]


def test_malformed_output_is_retried_then_recorded_as_an_error(judge):
    server, _ = judge
    result = check("x", {"metric": "llm-rubric", "value": "GARBAGE rubric"})
    assert result.passed is None and result.value is None
    assert "judge answered 'maybe later'" in result.error
    stricter = [r for r in server.requests if "Reply with exactly one of: yes, no" in r["messages"][-1]["content"]]
    assert len(stricter) == 1
    fixed = check("x", {"metric": "llm-rubric", "value": "RETRYFIX rubric"})
    assert fixed.passed is True and fixed.detail["judge"]["source"] == "text"


def test_servers_without_logprobs_fall_back_to_text(judge):
    server, config = judge
    server.reject_logprobs = True
    service_for(config)._memory.clear()
    result = check("y", {"metric": "llm-rubric", "value": "another rubric"})
    assert result.value == 1.0 and result.detail["judge"]["source"] == "text"


def test_rerun_is_served_from_the_results_database_cache(judge, tmp_path):
    server, config = judge
    suite = {"name": "judged", "judge": config, "cases": [
        {"id": f"c{i}", "output": f"answer {i}", "metrics": [{"metric": "llm-rubric", "value": f"rubric {i}"}]}
        for i in range(5)]}
    first = evaluate(suite, db=tmp_path / "r.db")
    calls = len(server.requests)
    service_for(config)._memory.clear()  # a new process would start with an empty memory cache
    second = evaluate(suite, db=tmp_path / "r.db")
    assert len(server.requests) == calls == 5  # zero judge calls on the rerun
    assert [c["metrics"][0]["value"] for c in first.cases] == [c["metrics"][0]["value"] for c in second.cases]
    assert all(c["metrics"][0]["detail"]["judge"]["cached"] for c in second.cases)


def test_switching_judges_never_reuses_the_other_judges_verdicts(judge, tmp_path):
    server, config = judge
    suite = {"name": "judged", "judge": config, "cases": [
        {"id": "c", "output": "answer", "metrics": [{"metric": "llm-rubric", "value": "switch rubric"}]}]}
    evaluate(suite, db=tmp_path / "r.db")
    calls = len(server.requests)
    other = {**config, "model": "another-model"}
    second = evaluate({**suite, "judge": other}, db=tmp_path / "r.db")
    assert len(server.requests) == calls + 1  # the other judge was asked, not served the first one's verdict
    assert second.cases[0]["metrics"][0]["detail"]["judge"]["cached"] is False
    assert service_for(config).key(JudgeRequest((("user", "q"),), ("PASS", "FAIL"))) != \
        service_for(other).key(JudgeRequest((("user", "q"),), ("PASS", "FAIL")))


def test_g_eval_and_factuality_read_categorical_probabilities(judge):
    server, _ = judge
    g = check("fine answer", {"metric": "g-eval", "value": "helpfulness"})
    mean = 4 * 0.6 + 5 * 0.3 + 3 * 0.1
    assert g.value == pytest.approx((mean - 1) / 4) and g.detail["steps"] == ["Read it.", "Judge it."]
    assert g.detail["method"].startswith("probability-weighted")
    steps_requests = [r for r in server.requests if r.get("response_format")]
    check("another answer", {"metric": "g-eval", "value": "helpfulness"})
    assert len([r for r in server.requests if r.get("response_format")]) == len(steps_requests)  # steps frozen
    fact = check("Lyon", {"metric": "factuality", "value": "Paris"}, query="Capital of France?")
    assert fact.detail["category"] == "disagrees" and fact.value == pytest.approx(0.3) and fact.passed is False
    assert set(fact.detail["judge"]) == {"consistent"}  # one call by default
    strict = check("Lyon", {"metric": "factuality", "value": "Paris", "config": {"scores": {"subset": 0}}})
    assert set(strict.detail["judge"]) == {"consistent", "complete"}
    assert strict.value == pytest.approx(0.3 * 0.4)  # only P(consistent) · P(complete) keeps its score


def test_read_decision_rules():
    reply = JudgeReply("Yes", [(" yes", math.log(0.5)), ("No.", math.log(0.25)), ("maybe", math.log(0.25))])
    option, probabilities, source = read_decision(reply, ("yes", "no"))
    assert option == "yes" and probabilities["yes"] == pytest.approx(2 / 3) and source == "logprobs"
    assert read_decision(JudgeReply("B) superset", None), ("A", "B"))[0] == "B"
    with pytest.raises(ValueError):
        read_decision(JudgeReply("perhaps", None), ("yes", "no"))
    assert JudgeRequest((("user", "x"),)).as_messages() == [{"role": "user", "content": "x"}]


def test_dry_run_counts_uncached_calls_without_making_them(judge, tmp_path):
    server, config = judge
    suite_path = tmp_path / "s.json"
    suite_path.write_text(json.dumps({"name": "dry", "judge": config, "target": {"type": "http",
                                                                                 "url": "http://127.0.0.1:9/x"},
                                      "cases": [{"id": f"c{i}", "prompt": f"q{i}", "metrics": [
                                          {"metric": "llm-rubric", "value": f"rubric {i}"}]} for i in range(3)]
                                     + [{"id": "rec", "output": "recorded", "metrics": [
                                         {"metric": "llm-rubric", "value": "recorded rubric"}]}]}))
    from tests.conftest import run_cli

    db = tmp_path / "r.db"
    proc = run_cli("run", str(suite_path), "--db", str(db), "--dry-run")
    assert proc.returncode == 0, proc.stderr
    assert "3 target calls not in the cache; 4 judge calls not in the cache (0 cached)" in proc.stdout
    assert server.requests == []  # nothing was sent to the judge
    # after a real run of the recorded case, its judge call is cached and no longer counted
    evaluate({"name": "warm", "judge": config, "cases": [{"id": "rec", "output": "recorded", "metrics": [
        {"metric": "llm-rubric", "value": "recorded rubric"}]}]}, db=db)
    proc = run_cli("run", str(suite_path), "--db", str(db), "--dry-run")
    assert "4 judge calls not in the cache" not in proc.stdout and "3 judge calls not in the cache (1 cached)" \
        in proc.stdout


def test_run_summary_counts_judge_calls_and_tokens(judge, tmp_path):
    _, config = judge
    suite = {"name": "usage", "judge": config, "cases": [
        {"id": "a", "output": "x", "metrics": [{"metric": "llm-rubric", "value": "usage rubric a"}]},
        {"id": "b", "output": "y", "metrics": [{"metric": "llm-rubric", "value": "usage rubric b"}]}]}
    first = evaluate(suite, db=tmp_path / "r.db").summary["judge"]
    assert first["provider"] == "openai" and first["calls"] == 2 and first["prompt_tokens"] == 100
    second = evaluate(suite, db=tmp_path / "r.db").summary["judge"]
    assert second["calls"] == 0 and second["cache_hits"] == 2


def test_anthropic_provider_reads_text_verdicts(judge, monkeypatch):
    server, _ = judge
    monkeypatch.setenv("AU_ANTHROPIC_KEY", "sk-ant-test")
    config = {"provider": "anthropic", "base_url": server.url.removesuffix("/v1"), "model": "claude-test",
              "api_key_env": "AU_ANTHROPIC_KEY"}
    result = evaluate({"name": "anthropic", "judge": config, "cases": [
        {"output": "Paris", "metrics": [{"metric": "llm-rubric", "value": "names the capital"}]}]})
    metric = result.cases[0]["metrics"][0]
    assert metric["passed"] is True and metric["detail"]["judge"]["source"] == "text"
    assert server.anthropic_headers[-1]["x-api-key"] == "sk-ant-test"
    body = server.requests[-1]
    assert body["model"] == "claude-test" and body["temperature"] == 0 and "system" in body
    assert result.summary["judge"]["prompt_tokens"] == 40


def test_judge_cost_from_configured_prices(judge, tmp_path):
    _, config = judge
    priced = {**config, "cost_per_1k_prompt_tokens": 0.5, "cost_per_1k_completion_tokens": 2.0}
    result = evaluate({"name": "priced", "judge": priced, "cases": [
        {"output": "z", "metrics": [{"metric": "llm-rubric", "value": "priced rubric"}]}]}, db=tmp_path / "r.db")
    assert result.summary["judge"]["cost"] == pytest.approx((50 * 0.5 + 1 * 2.0) / 1000)
    assert result.cases[0]["metrics"][0]["detail"]["judge"]["cost"] == pytest.approx(0.027)
    unpriced = evaluate({"name": "unpriced", "judge": config, "cases": [
        {"output": "w", "metrics": [{"metric": "llm-rubric", "value": "unpriced rubric"}]}]})
    assert unpriced.summary["judge"]["cost"] is None


class _DictStore:
    """The judge-cache half of the results store, in memory."""

    def __init__(self, rows=None):
        self.rows = dict(rows or {})

    def judge_cache_get(self, key):
        return self.rows.get(key)

    def judge_cache_put(self, key, reply_json):
        self.rows[key] = reply_json


def test_the_key_never_reaches_the_cache_and_old_cache_rows_are_redacted(monkeypatch):
    import asyncio

    from agentunit.judges.service import JudgeService, _reply_to_json

    monkeypatch.setenv("AU_SVC_KEY", "sk-live-0123456789")
    service = JudgeService({"provider": "openai", "base_url": "http://127.0.0.1:9/v1", "api_key_env": "AU_SVC_KEY"})
    assert service.secrets == {"sk-live-0123456789"}
    request = JudgeRequest((("user", "q"),), options=("PASS", "FAIL"))
    service.store = _DictStore({service.key(request): _reply_to_json(JudgeReply("PASS sk-live-0123456789"))})
    decision = asyncio.run(service.decide(request))
    assert decision.text == "PASS ***" and decision.cached

    class Echo:
        def __init__(self):
            self.secrets = {"sk-live-0123456789"}

        def describe(self):
            return {"provider": "echo"}

        async def call(self, request):
            return JudgeReply("key sk-live-0123456789", usage={})

    service.provider, service.store = Echo(), _DictStore()  # a provider that echoes its key back
    text, _, _ = asyncio.run(service.generate(JudgeRequest((("user", "other"),), max_tokens=5)))
    assert text == "key ***" and "sk-live" not in json.dumps(service.store.rows)


def test_judge_timeout_config():
    from agentunit.errors import AgentUnitError
    from agentunit.judges.service import JudgeService

    assert JudgeService({"provider": "local"}).timeout is None  # the embedded judge: no deadline unless set
    assert JudgeService({"provider": "openai"}).timeout == 120.0
    assert JudgeService({"provider": "anthropic", "timeout": 5}).timeout == 5.0
    for bad in (0, -1, float("nan"), float("inf"), "10", True):
        with pytest.raises(AgentUnitError, match="judge timeout must be a number of seconds > 0"):
            JudgeService({"provider": "openai", "timeout": bad})


def test_identical_requests_in_flight_make_one_call(judge):
    server, config = judge
    server.delay = 0.3  # every request is still in flight when the other cases ask the same question
    suite = {"name": "dedup", "judge": config, "cases": [
        {"id": f"c{i}", "output": "the same answer", "metrics": [{"metric": "llm-rubric", "value": "same rubric"}]}
        for i in range(4)]}
    result = evaluate(suite, concurrency=4)
    assert len(server.requests) == 1
    values = [c["metrics"][0]["value"] for c in result.cases]
    assert values == [pytest.approx(0.85 / 1.05)] * 4
    assert sorted(c["metrics"][0]["detail"]["judge"]["cached"] for c in result.cases) == [False, True, True, True]
    assert result.summary["judge"]["calls"] == 1 and result.summary["judge"]["cache_hits"] == 3


def test_an_in_flight_call_is_shared_by_its_waiters_even_when_one_is_cancelled():
    import asyncio

    from agentunit.errors import AgentUnitError
    from agentunit.judges.service import JudgeService

    class Slow:
        def __init__(self, fail):
            self.calls, self.fail, self.cancelled = 0, fail, 0

        def describe(self):
            return {"provider": "slow"}

        async def call(self, request):
            self.calls += 1
            try:
                await asyncio.sleep(0.05)
            except asyncio.CancelledError:
                self.cancelled += 1
                raise
            if self.fail:
                raise AgentUnitError("judge call failed: boom")
            return JudgeReply("PASS", [("PASS", math.log(0.9)), ("FAIL", math.log(0.1))])

    async def ask(service, n, cancel_first=False):
        request = JudgeRequest((("user", "q"),), ("PASS", "FAIL"))
        tasks = [asyncio.ensure_future(service.decide(request)) for _ in range(n)]
        await asyncio.sleep(0.01)
        if cancel_first:
            tasks[0].cancel()  # the caller that started the call gives up (a case timing out)
        results = await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.sleep(0.1)  # long enough for a call nobody cancelled to finish
        return results

    service = JudgeService({"provider": "local"})
    service.provider = Slow(fail=False)
    results = asyncio.run(ask(service, 3, cancel_first=True))
    assert isinstance(results[0], asyncio.CancelledError) and service.provider.calls == 1
    assert [r.probabilities["PASS"] for r in results[1:]] == [pytest.approx(0.9)] * 2
    assert service.provider.cancelled == 0
    alone = JudgeService({"provider": "local"})
    alone.provider = Slow(fail=False)
    assert isinstance(asyncio.run(ask(alone, 1, cancel_first=True))[0], asyncio.CancelledError)
    assert alone.provider.cancelled == 1  # nobody waits for it any more: the call is cancelled too
    failing = JudgeService({"provider": "local"})
    failing.provider = Slow(fail=True)
    errors = asyncio.run(ask(failing, 3))
    assert failing.provider.calls == 1 and all("boom" in str(e) for e in errors)
    again = asyncio.run(ask(failing, 1))  # a failed call is not cached: asking again calls again
    assert failing.provider.calls == 2 and "boom" in str(again[0])
