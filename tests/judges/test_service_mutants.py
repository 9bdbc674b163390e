"""The judge service's construction (a provider given, the embedded judge built on first use, its settings
checked up front), ``aclose``, and a judge that cannot be built: ``UnavailableJudge`` and what ``use_judge``
makes current instead (mutation testing found these unpinned)."""

import asyncio

import pytest

from agentunit.errors import AgentUnitError
from agentunit.judges import JudgeRequest
from agentunit.judges.service import JudgeService, UnavailableJudge, _current, current_judge, use_judge
from tests.judge_helpers import ScriptedProvider

_OPENAI = {"provider": "openai", "base_url": "http://127.0.0.1:9/v1", "model": "m"}
_QUESTION = JudgeRequest((("user", "q"),), options=("PASS", "FAIL"))
_BAD_LAYERS = "judge n_gpu_layers must be a whole number ≥ 0 (0 = CPU only), got -1"


class _Closing(ScriptedProvider):
    def __init__(self):
        super().__init__(lambda r: None)
        self.closed = 0

    async def aclose(self):
        self.closed += 1


# -- construction -------------------------------------------------------------------------------------

def test_a_provider_given_is_the_one_used_whatever_the_config_names():
    given = ScriptedProvider(lambda r: None)
    remote = JudgeService(_OPENAI, built=given)
    assert remote.provider is given and remote.config == _OPENAI
    local = JudgeService({"provider": "local"}, built=given)
    assert local.provider is given


def test_the_embedded_judge_is_built_when_first_used_and_once(monkeypatch):
    import agentunit.judges.local as local

    built = []

    class Counted:
        def __init__(self, config):
            built.append(dict(config))

        def describe(self):
            return {"provider": "counted"}

    monkeypatch.setattr(local, "LocalProvider", Counted)
    service = JudgeService({"provider": "local"})
    assert built == []  # a run without judge metrics never builds (nor imports) it
    first = service.provider
    assert service.provider is first and built == [{"provider": "local"}]


def test_a_local_judges_settings_are_checked_when_the_service_is_made_unless_a_provider_is_given():
    with pytest.raises(AgentUnitError) as raised:
        JudgeService({"provider": "local", "n_gpu_layers": -1})
    assert str(raised.value) == _BAD_LAYERS
    given = ScriptedProvider(lambda r: None)
    assert JudgeService({"provider": "local", "n_gpu_layers": -1}, built=given).provider is given


def test_aclose_closes_the_provider_and_a_never_built_one_is_left_alone():
    closing = _Closing()
    asyncio.run(JudgeService(_OPENAI, built=closing).aclose())
    assert closing.closed == 1
    assert asyncio.run(JudgeService({"provider": "local"}).aclose()) is None  # nothing built, nothing to close


# -- a judge that cannot be built ---------------------------------------------------------------------

def test_an_unavailable_judge_says_why_in_its_description_and_every_call():
    judge = UnavailableJudge(AgentUnitError("judge model_path 'x.gguf': no such file"))
    message = ("the judge could not be started: judge model_path 'x.gguf': no such file — fix the suite's "
               "`judge:` settings")
    assert type(judge.error) is AgentUnitError and str(judge.error) == message
    assert judge.describe() == {"provider": "unavailable", "error": message}
    with pytest.raises(AgentUnitError) as raised:
        asyncio.run(judge.call(_QUESTION))
    assert raised.value is judge.error
    assert asyncio.run(judge.aclose()) is None and judge.name == "unavailable"


def _current_after(config, store=None):
    token = use_judge(config, store)
    try:
        return current_judge()
    finally:
        _current.reset(token)


def test_use_judge_keeps_the_config_asked_for_when_only_building_the_provider_failed(tmp_path):
    missing = str(tmp_path / "missing.gguf")
    config = {"provider": "local", "model_path": missing}
    service = _current_after(config)
    reason = f"judge model_path {missing!r}: no such file ({tmp_path / 'missing.gguf'})"
    message = f"the judge could not be started: {reason} — fix the suite's `judge:` settings"
    assert service.config == config  # the run records the judge it was asked for
    assert service.provider.describe() == {"provider": "unavailable", "error": message}
    with pytest.raises(AgentUnitError) as raised:
        asyncio.run(service.decide(_QUESTION))
    assert str(raised.value) == message


def test_use_judge_falls_back_to_a_local_config_when_the_configs_own_settings_are_wrong():
    service = _current_after({**_OPENAI, "concurrency": 0})
    message = ("the judge could not be started: judge concurrency must be a whole number ≥ 1, got 0 — fix the "
               "suite's `judge:` settings")
    assert service.config == {"provider": "local"}
    assert service.provider.describe() == {"provider": "unavailable", "error": message}
    with pytest.raises(AgentUnitError) as raised:
        asyncio.run(service.decide(_QUESTION))
    assert str(raised.value) == message


def test_use_judge_binds_the_store_only_when_one_is_given(tmp_path):
    class Rows:
        def judge_cache_get(self, key):
            return None

        def judge_cache_put(self, key, reply_json):
            pass

    rows = Rows()
    missing = {"provider": "local", "model_path": str(tmp_path / "gone.gguf")}
    assert _current_after(missing, rows).store is rows
    assert _current_after({**missing, "model_path": str(tmp_path / "other.gguf")}).store is None
