"""The judge cache key names the judge that answered: switching judges never reuses the old judge's verdicts.

JudgeService.key hashes the provider's ``describe()`` with the request, and the verdicts are kept in
the results database across runs. A key without the judge (or a ``describe()`` that leaves out the
model, the server or an ensemble's members) serves one judge's verdicts as another's.
"""

import asyncio

import pytest

from agentunit.judges import JudgeRequest
from agentunit.judges.base import JudgeReply
from agentunit.judges.service import JudgeService
from agentunit.store.sqlite import Store
from tests.judge_helpers import ScriptedProvider

_QUESTION = JudgeRequest((("system", "Grade the answer."), ("user", "Is 2 + 2 = 4?")), options=("PASS", "FAIL"))


def _service(provider, store):
    service = JudgeService({"provider": "local"})
    service.provider, service.store = provider, store
    return service


def _always(option):
    return lambda request: JudgeReply(option, usage={"prompt_tokens": 3, "completion_tokens": 1})


def test_a_switched_judge_is_asked_again_not_served_the_previous_judges_verdict(tmp_path):
    store = Store(tmp_path / "r.db")
    lenient = ScriptedProvider(_always("PASS"), label="lenient-model")
    strict = ScriptedProvider(_always("FAIL"), label="strict-model")

    first = asyncio.run(_service(lenient, store).decide(_QUESTION))
    switched = asyncio.run(_service(strict, store).decide(_QUESTION))
    assert first.option == "PASS" and not first.cached
    assert switched.option == "FAIL" and not switched.cached and len(strict.requests) == 1

    # the database does serve a judge its own verdicts (so the check above is not passing for want of a cache)
    again = asyncio.run(_service(ScriptedProvider(_always("FAIL"), label="lenient-model"), store).decide(_QUESTION))
    assert again.option == "PASS" and again.cached


def test_the_key_follows_the_judge_and_the_request():
    store = None
    a = _service(ScriptedProvider(_always("PASS"), label="a"), store)
    b = _service(ScriptedProvider(_always("PASS"), label="b"), store)
    assert a.key(_QUESTION) != b.key(_QUESTION)
    assert a.key(_QUESTION) == _service(ScriptedProvider(_always("FAIL"), label="a"), store).key(_QUESTION)
    other_options = JudgeRequest(_QUESTION.messages, options=("yes", "no"))
    shorter = JudgeRequest(_QUESTION.messages, options=_QUESTION.options, max_tokens=1)
    other_question = JudgeRequest((("user", "Is 2 + 2 = 5?"),), options=_QUESTION.options)
    schema = JudgeRequest(_QUESTION.messages, max_tokens=8, json_schema={"type": "object"})
    keys = {a.key(r) for r in (_QUESTION, other_options, shorter, other_question, schema)}
    assert len(keys) == 5


@pytest.mark.parametrize(("config", "change"), [
    ({"provider": "openai", "base_url": "http://127.0.0.1:9/v1", "model": "m1"}, {"model": "m2"}),
    ({"provider": "openai", "base_url": "http://127.0.0.1:9/v1", "model": "m1"}, {"base_url": "http://127.0.0.2:9/v1"}),
    ({"provider": "anthropic", "model": "claude-a"}, {"model": "claude-b"}),
    ({"provider": "anthropic", "model": "claude-a"}, {"base_url": "http://127.0.0.1:9"}),
], ids=["openai-model", "openai-server", "anthropic-model", "anthropic-server"])
def test_a_provider_with_another_model_or_server_has_other_keys(config, change):
    assert JudgeService(config).key(_QUESTION) != JudgeService({**config, **change}).key(_QUESTION)


def test_two_local_model_files_never_share_keys(tmp_path, monkeypatch):
    monkeypatch.setenv("AGENTUNIT_HOME", str(tmp_path / "home"))  # the fingerprint memo goes here
    first, second = tmp_path / "judge-a.gguf", tmp_path / "judge-b.gguf"
    first.write_bytes(b"GGUF" + b"\0" * 32)
    second.write_bytes(b"GGUF" + b"\1" * 32)
    keys = {JudgeService({"provider": "local", "model_path": str(path)}).key(_QUESTION) for path in (first, second)}
    assert len(keys) == 2
    assert JudgeService({"provider": "local"}).key(_QUESTION) not in keys  # nor the embedded judge's


def test_an_ensemble_is_keyed_by_its_members_and_how_it_combines():
    def ensemble(model, combine="mean", server="http://127.0.0.1:9/v1"):
        return JudgeService({"provider": "ensemble", "combine": combine, "judges": [
            {"provider": "openai", "base_url": "http://127.0.0.1:9/v1", "model": "m1"},
            {"provider": "openai", "base_url": server, "model": model}]})

    assert ensemble("m2").key(_QUESTION) != ensemble("m3").key(_QUESTION)
    assert ensemble("m2").key(_QUESTION) != ensemble("m2", "agreement").key(_QUESTION)
    # the same model name served elsewhere is another judge (the ensemble's label names models only)
    assert ensemble("m2").key(_QUESTION) != ensemble("m2", server="http://127.0.0.2:9/v1").key(_QUESTION)
