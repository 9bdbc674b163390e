"""An ensemble of two real HTTP judges (scripted servers): mean and agreement, per-member caching,
members in the decision's detail, costs, configuration errors."""

import asyncio
import sqlite3

import pytest

from agentunit import check, evaluate
from agentunit.errors import AgentUnitError
from agentunit.judges import JudgeRequest, service_for
from agentunit.judges.base import Decision
from agentunit.judges.ensemble import combine_agreement, combine_mean
from agentunit.judges.service import JudgeService, _current, set_current_judge
from tests.judges.scripted_server import ScriptedJudge

OTHER = 0.85 / 1.05  # ScriptedJudge's P(PASS) also counts its "pass" alternative


@pytest.fixture
def servers():
    a, b = ScriptedJudge(), ScriptedJudge()
    yield a, b
    a.close()
    b.close()


def _member(server, model, **extra):
    return {"provider": "openai", "base_url": server.url, "model": model, **extra}


def _ensemble(servers, combine, **member_extra):
    a, b = servers
    return {"provider": "ensemble", "combine": combine,
            "judges": [_member(a, "judge-a", **member_extra), _member(b, "judge-b", **member_extra)]}


def _with(config, run):
    token = set_current_judge(service_for(config))
    try:
        return run()
    finally:
        _current.reset(token)


def test_mean_averages_the_members_probabilities_and_lists_them(servers):
    a, b = servers
    b.pass_probability = 0.2  # b: P(PASS) = 0.25 / 1.05
    config = _ensemble(servers, "mean")
    result = _with(config, lambda: check("Paris", {"metric": "llm-rubric", "value": "names the capital (mean)",
                                                   "threshold": 0.5}))
    p_b = 0.25 / 1.05
    assert result.value == pytest.approx((OTHER + p_b) / 2) and result.passed is True
    judge = result.detail["judge"]
    assert judge["ensemble"]["combine"] == "mean" and judge["ensemble"]["agreement"] is False
    members = judge["ensemble"]["members"]
    assert [m["judge"] for m in members] == ["openai judge-a", "openai judge-b"]
    assert [m["option"] for m in members] == ["yes", "no"]  # llm-rubric asks yes/no (the server's PASS/FAIL)
    assert members[1]["probabilities"]["yes"] == pytest.approx(p_b, abs=1e-4)
    assert len(a.requests) == len(b.requests) == 1
    assert judge["usage"] == {"prompt_tokens": 100, "completion_tokens": 2}  # both members' tokens


def test_agreement_passes_only_when_every_member_does(servers):
    _, b = servers
    config = _ensemble(servers, "agreement")
    both = _with(config, lambda: check("Paris", {"metric": "llm-rubric", "value": "agreed rubric"}))
    assert both.passed is True and both.detail["judge"]["ensemble"]["agreement"] is True
    b.pass_probability = 0.3
    split = _with(config, lambda: check("Paris", {"metric": "llm-rubric", "value": "disputed rubric"}))
    ensemble = split.detail["judge"]["ensemble"]
    assert split.value == pytest.approx(0.35 / 1.05) and split.passed is False  # b's P(PASS): the lowest
    assert ensemble["agreement"] is False and ensemble["deciding_member"] == 1
    assert [m["option"] for m in ensemble["members"]] == ["yes", "no"]


def test_each_member_caches_its_own_calls_and_the_ensemble_caches_in_the_run_database(servers, tmp_path):
    a, b = servers
    config = _ensemble(servers, "mean")
    suite = {"name": "ens", "cases": [{"id": "c", "output": "Paris", "metrics": [
        {"metric": "llm-rubric", "value": "cached rubric"}]}]}
    first = evaluate(suite, judge=service_for(config), db=tmp_path / "r.db")
    assert len(a.requests) == len(b.requests) == 1
    assert first.summary["judge"]["provider"] == "ensemble" and first.summary["judge"]["calls"] == 1
    with sqlite3.connect(tmp_path / "r.db") as db:
        assert db.execute("SELECT count(*) FROM judge_cache").fetchone()[0] == 3  # the ensemble's and each member's
    # member a alone, asked the same question, is served from its cache (shared with the ensemble)
    alone = _with(_member(a, "judge-a"), lambda: check("Paris", {"metric": "llm-rubric", "value": "cached rubric"}))
    assert alone.detail["judge"]["cached"] is True and len(a.requests) == 1
    # only the member whose cache is emptied is asked again
    service_for(config).provider.members[1]._memory.clear()
    service_for(config)._memory.clear()
    third = _with(config, lambda: check("Paris", {"metric": "llm-rubric", "value": "cached rubric"}))
    assert len(b.requests) == 2 and len(a.requests) == 1
    assert third.detail["judge"]["ensemble"]["members"][0]["cached"] is True
    # a new process: every memory cache is empty, the run database answers
    for service in (service_for(config), *service_for(config).provider.members):
        service._memory.clear()
    second = evaluate(suite, judge=service_for(config), db=tmp_path / "r.db")
    assert len(a.requests) == 1 and len(b.requests) == 2
    assert second.cases[0]["metrics"][0]["detail"]["judge"]["cached"] is True
    assert second.cases[0]["metrics"][0]["value"] == first.cases[0]["metrics"][0]["value"]
    assert all(m.store is None for m in service_for(config).provider.members)  # the run's only while it ran


def test_ensemble_cost_is_the_members_cost(servers):
    config = _ensemble(servers, "mean", cost_per_1k_prompt_tokens=1.0, cost_per_1k_completion_tokens=2.0)
    result = _with(config, lambda: check("Paris", {"metric": "llm-rubric", "value": "priced ensemble rubric"}))
    each = (50 * 1.0 + 1 * 2.0) / 1000
    assert [m["cost"] for m in result.detail["judge"]["ensemble"]["members"]] == [pytest.approx(each)] * 2
    assert result.detail["judge"]["cost"] == pytest.approx(2 * each)
    assert service_for(config).cost_of({"prompt_tokens": 100, "completion_tokens": 2}) == pytest.approx(2 * each)
    a, b = servers
    mixed = {"provider": "ensemble", "judges": [_member(a, "judge-a", cost_per_1k_prompt_tokens=1.0),
                                                _member(b, "judge-b")]}
    assert service_for(mixed).cost_of({"prompt_tokens": 100}) is None  # priced differently: unknown, not 0


def test_generation_comes_from_the_first_member(servers):
    a, b = servers
    service = service_for(_ensemble(servers, "mean"))

    async def generate():
        try:
            return await service.generate(JudgeRequest((("user", "Write steps"),), max_tokens=50,
                                                       json_schema={"type": "object"}))
        finally:
            await service.aclose()

    text, _, cached = asyncio.run(generate())
    assert text == '{"steps": ["Read it.", "Judge it."]}' and not cached
    assert len(a.requests) == 1 and b.requests == []


def _decision(probabilities):
    return Decision(max(probabilities, key=probabilities.get), probabilities, "logprobs", "", {})


def test_combine_rules():
    pass_fail = [_decision({"PASS": 0.9, "FAIL": 0.1}), _decision({"PASS": 0.4, "FAIL": 0.6})]
    assert combine_mean(pass_fail, ("PASS", "FAIL")) == pytest.approx({"PASS": 0.65, "FAIL": 0.35})
    assert combine_agreement(pass_fail, ("PASS", "FAIL")) == ({"PASS": 0.4, "FAIL": 0.6}, 1)
    yes_no = [_decision({"no": 0.2, "yes": 0.8}), _decision({"no": 0.3, "yes": 0.7})]
    assert combine_agreement(yes_no, ("no", "yes"))[1] == 1
    digits = [_decision({"1": 0.1, "5": 0.9}), _decision({"1": 0.6, "5": 0.4})]
    assert combine_agreement(digits, ("1", "5"))[1] == 1  # the lower expected score
    with pytest.raises(AgentUnitError, match="use combine: mean"):
        combine_agreement([_decision({"A": 0.5, "B": 0.5})] * 2, ("A", "B"))


@pytest.mark.parametrize(("config", "message"), [
    ({"provider": "ensemble"}, "judge.judges must list two or more judge configs"),
    ({"provider": "ensemble", "judges": [{"provider": "local"}]}, "two or more"),
    ({"provider": "ensemble", "judges": [{"provider": "local"}, "openai"]},
     r"judge.judges\[1\] must be a judge config"),
    ({"provider": "ensemble", "judges": [{"provider": "local"}, {"provider": "ensemble"}]},
     "an ensemble cannot contain an ensemble"),
    ({"provider": "ensemble", "combine": "vote", "judges": [{"provider": "local"}, {"provider": "local"}]},
     "judge.combine must be one of mean, agreement"),
    ({"provider": "ensemble", "judges": [{"provider": "local"}, {"provider": "openai", "timeout": -1}]},
     r"judge.judges\[1\]: judge timeout must be"),
])
def test_ensemble_config_errors(config, message):
    with pytest.raises(AgentUnitError, match=message):
        JudgeService(config)
