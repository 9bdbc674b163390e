"""The judge service's configuration defaults and checks, prices, deadline and error texts, call counts,
concurrency bound, shared in-flight calls and its one-service-per-config registry (mutation testing
found these unpinned)."""

import asyncio
import math
from pathlib import Path

import pytest

from agentunit.errors import AgentUnitError, TargetError
from agentunit.judges import JudgeRequest
from agentunit.judges.base import JudgeReply
from agentunit.judges.service import JudgeService, _current, recording_decisions, service_for, use_judge
from tests.judge_helpers import ScriptedProvider

_YES_NO = JudgeRequest((("user", "q"),), options=("PASS", "FAIL"))
_OPENAI = {"provider": "openai", "base_url": "http://127.0.0.1:9/v1", "model": "m"}


def _service(provider, **config):
    service = JudgeService({"provider": "local", **config})
    service.provider = provider
    return service


class _Slow:
    """A provider whose every call takes ``seconds``; counts the calls in flight at once."""

    def __init__(self, seconds=0.05, error=None):
        self.seconds, self.error = seconds, error
        self.in_flight = self.most_in_flight = self.calls = 0
        self.cancelled = 0
        self.secrets = set()

    def describe(self):
        return {"provider": "slow"}

    async def call(self, request):
        self.calls += 1
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            await asyncio.sleep(self.seconds)
        except asyncio.CancelledError:
            self.cancelled += 1
            raise
        finally:
            self.in_flight -= 1
        if self.error is not None:
            raise self.error
        return JudgeReply("PASS", usage={})


# -- configuration ------------------------------------------------------------------------------------

def test_without_a_config_or_a_provider_the_judge_is_the_local_one():
    assert JudgeService(None).config == {"provider": "local"}
    assert JudgeService(None).provider.describe()["provider"] == "local"
    bare = JudgeService({"timeout": 5})  # no provider named
    assert bare.provider.describe()["provider"] == "local" and bare.timeout == 5.0
    assert bare.cost_of({"prompt_tokens": 100}) == 0.0  # the local judge costs nothing


def test_an_unknown_provider_is_refused_naming_the_known_ones():
    for provider in ("gpt", 3, None):
        with pytest.raises(AgentUnitError) as raised:
            JudgeService({"provider": provider})
        known = "local, openai, anthropic, ensemble"
        assert str(raised.value) == f"unknown judge provider {provider!r}; use one of {known}"


def test_concurrency_defaults_to_one_for_the_local_judge_and_eight_for_servers():
    assert JudgeService({"provider": "local"})._concurrency == 1
    assert JudgeService(_OPENAI)._concurrency == 8
    assert JudgeService({**_OPENAI, "concurrency": 3})._concurrency == 3
    for bad in (0, 2.5, True, "4"):
        with pytest.raises(AgentUnitError) as raised:
            JudgeService({**_OPENAI, "concurrency": bad})
        assert str(raised.value) == f"judge concurrency must be a whole number ≥ 1, got {bad!r}"


def test_timeouts_default_to_none_for_local_and_ensemble_judges_and_may_be_under_a_second():
    ensemble = JudgeService({"provider": "ensemble", "judges": [_OPENAI, {**_OPENAI, "model": "m2"}]})
    assert ensemble.timeout is None and JudgeService({"provider": "local"}).timeout is None
    assert JudgeService({**_OPENAI, "timeout": 0.5}).timeout == 0.5


# -- prices -------------------------------------------------------------------------------------------

def test_a_price_for_one_kind_of_token_prices_that_kind_and_missing_counts_are_zero():
    prompt_only = JudgeService({**_OPENAI, "cost_per_1k_prompt_tokens": 2.0})
    assert prompt_only.cost_of({"prompt_tokens": 500, "completion_tokens": 100}) == pytest.approx(1.0)
    completion_only = JudgeService({**_OPENAI, "cost_per_1k_completion_tokens": 4.0})
    assert completion_only.cost_of({"prompt_tokens": 100, "completion_tokens": 250}) == pytest.approx(1.0)
    assert completion_only.cost_of({}) == 0.0 and prompt_only.cost_of({}) == 0.0
    assert JudgeService(_OPENAI).cost_of({"prompt_tokens": 1}) is None  # a server without a price: unknown


# -- the cache key ------------------------------------------------------------------------------------

def test_the_cache_key_is_stable_across_releases():
    """A changed key silently invalidates every database's cached verdicts: change it on purpose only."""
    service = _service(ScriptedProvider(lambda r: JudgeReply("PASS"), label="pinned"))
    request = JudgeRequest((("system", "Juge la réponse ✓"), ("user", "q")), options=("PASS", "FAIL"))
    assert service.key(request) == "ece05a5f824ae41051e9abf970663b63939f59dfda200b4d69dd202d17a239b2"
    with_image = JudgeRequest(request.messages, request.options, images=("data:image/png;base64,AAAA",))
    assert service.key(with_image) == "6c314e42d66a3d230d580e036a8d0608f29fd86b805078fbbf9086520516950e"


def test_images_are_keyed_by_content_and_a_lone_surrogate_does_not_break_the_key():
    service = _service(ScriptedProvider(lambda r: JudgeReply("PASS")))
    plain = JudgeRequest((("user", "q"),), options=("PASS", "FAIL"))
    one = JudgeRequest(plain.messages, plain.options, images=("data:image/png;base64,AAAA",))
    other = JudgeRequest(plain.messages, plain.options, images=("data:image/png;base64,BBBB",))
    assert len({service.key(plain), service.key(one), service.key(other)}) == 3
    assert len(service.key(JudgeRequest((("user", "bad \ud800 text"),)))) == 64


# -- calls: deadline, errors, counts, bounds ------------------------------------------------------------

def test_a_call_past_the_judges_timeout_is_an_error_saying_so():
    service = _service(_Slow(seconds=5), timeout=0.05)
    with pytest.raises(AgentUnitError) as raised:
        asyncio.run(service.generate(JudgeRequest((("user", "q"),), max_tokens=2)))
    assert str(raised.value) == "judge call timed out after 0.05 s (the judge's timeout, retries included; not retried)"
    no_deadline = _service(_Slow(seconds=0.05))  # the local judge: no timeout unless configured
    assert asyncio.run(no_deadline.generate(JudgeRequest((("user", "q"),), max_tokens=2)))[0] == "PASS"


def test_provider_errors_become_judge_errors_with_their_kind_kept_where_it_is_ours():
    class ProviderSetupError(AgentUnitError):
        """An error of ours a provider raises (a missing key, a bad model path)."""

    request = JudgeRequest((("user", "q"),), max_tokens=2)

    def raised_by(error):
        with pytest.raises(AgentUnitError) as raised:
            asyncio.run(_service(_Slow(seconds=0, error=error)).generate(request))
        return raised.value

    assert str(raised_by(TargetError("HTTP 503"))) == "judge call failed: HTTP 503"
    assert str(raised_by(KeyError("choices"))) == "judge error: KeyError: 'choices'"
    ours = ProviderSetupError("set OPENAI_API_KEY")
    assert raised_by(ours) is ours  # nothing to redact: raised as it was, its kind kept


def test_calls_and_tokens_are_counted_and_a_missing_count_adds_nothing():
    usages = iter([{"prompt_tokens": 5, "completion_tokens": 2}, {}, {"completion_tokens": 3}])
    service = _service(ScriptedProvider(lambda r: JudgeReply("PASS", usage=next(usages))))
    for question in ("a", "b", "c"):
        asyncio.run(service.decide(JudgeRequest((("user", question),), options=("PASS", "FAIL"))))
    assert (service.stats.calls, service.stats.prompt_tokens, service.stats.completion_tokens) == (3, 5, 5)


def test_each_retry_is_counted_once():
    answers = iter([JudgeReply("hmm"), JudgeReply("PASS"), JudgeReply("well"), JudgeReply("FAIL")])
    service = _service(ScriptedProvider(lambda r: next(answers)))
    asyncio.run(service.decide(_YES_NO))
    assert service.stats.retries == 1 and service.stats.calls == 2
    asyncio.run(service.decide(JudgeRequest((("user", "another"),), options=("PASS", "FAIL"))))
    assert service.stats.retries == 2 and service.stats.calls == 4


def test_the_concurrency_bound_holds_across_calls():
    slow = _Slow(seconds=0.05)
    service = _service(slow, concurrency=2)

    async def many():
        await asyncio.gather(*(service.generate(JudgeRequest((("user", f"q{i}"),), max_tokens=2)) for i in range(6)))

    asyncio.run(many())
    assert slow.calls == 6 and slow.most_in_flight == 2


def test_a_verdict_read_from_the_database_is_then_served_from_memory():
    class Rows:
        def __init__(self):
            self.rows, self.reads = {}, 0

        def judge_cache_get(self, key):
            self.reads += 1
            return self.rows.get(key)

        def judge_cache_put(self, key, reply_json):
            self.rows[key] = reply_json

    rows = Rows()
    first = _service(ScriptedProvider(lambda r: JudgeReply("PASS")))
    first.store = rows
    asyncio.run(first.decide(_YES_NO))
    second = _service(ScriptedProvider(lambda r: JudgeReply("FAIL")))
    second.store = rows
    assert asyncio.run(second.decide(_YES_NO)).cached
    reads = rows.reads
    assert asyncio.run(second.decide(_YES_NO)).option == "PASS" and rows.reads == reads  # memory, not the database


def test_decisions_are_recorded_for_rationales_inside_the_block_only():
    service = _service(ScriptedProvider(lambda r: JudgeReply("PASS")))
    with recording_decisions() as recorded:
        decision = asyncio.run(service.decide(_YES_NO))
    asyncio.run(service.decide(JudgeRequest((("user", "later"),), options=("PASS", "FAIL"))))
    assert recorded == [(service, _YES_NO, decision)]


# -- calls shared while in flight -------------------------------------------------------------------------

def test_an_in_flight_call_serves_its_last_waiter_after_the_others_gave_up_and_is_cleaned_up():
    slow = _Slow(seconds=0.2)
    service = _service(slow)
    problems = []

    async def scenario():
        asyncio.get_running_loop().set_exception_handler(lambda loop, context: problems.append(context))
        waiters = [asyncio.ensure_future(service.reply(_YES_NO)) for _ in range(3)]
        await asyncio.sleep(0.02)
        for gives_up in waiters[1:]:
            gives_up.cancel()
            await asyncio.sleep(0)
        reply, _ = await waiters[0]
        await asyncio.sleep(0)  # the done callback runs
        return reply, dict(service._inflight[asyncio.get_running_loop()])

    reply, inflight = asyncio.run(scenario())
    assert reply.text == "PASS" and slow.calls == 1 and slow.cancelled == 0
    assert inflight == {} and problems == []


def test_a_call_every_waiter_gave_up_is_cancelled_without_an_unretrieved_error():
    slow = _Slow(seconds=5)
    service = _service(slow)
    problems = []

    async def scenario():
        asyncio.get_running_loop().set_exception_handler(lambda loop, context: problems.append(context))
        waiters = [asyncio.ensure_future(service.reply(_YES_NO)) for _ in range(2)]
        await asyncio.sleep(0.02)
        for waiter in waiters:
            waiter.cancel()
            await asyncio.sleep(0)
        await asyncio.sleep(0.02)
        return slow.cancelled  # before asyncio.run's own clean-up cancels whatever is left

    assert asyncio.run(scenario()) == 1 and problems == []


# -- one service per configuration ------------------------------------------------------------------------

def test_one_service_per_configuration_whatever_the_key_order():
    config = {**_OPENAI, "model": "registry-test", "timeout": 7}
    assert service_for(config) is service_for(dict(reversed(list(config.items()))))
    assert service_for(None) is service_for({"provider": "local"})
    assert service_for({**config, "calibration_file": Path("/tmp/x")}) is not service_for(config)  # not JSON: str


def test_use_judge_binds_the_given_store():
    store = object()
    token = use_judge({**_OPENAI, "model": "store-binding-test"}, store=store)
    try:
        from agentunit.judges.service import current_judge

        assert current_judge().store is store
    finally:
        _current.reset(token)


def test_math_of_logprob_probabilities_is_not_touched_by_the_cache():
    top = [("PASS", math.log(0.6)), ("FAIL", math.log(0.4))]
    service = _service(ScriptedProvider(lambda r: JudgeReply("PASS", top)))
    first = asyncio.run(service.decide(_YES_NO))
    again = asyncio.run(service.decide(_YES_NO))
    assert again.cached and again.probabilities == first.probabilities == pytest.approx({"PASS": 0.6, "FAIL": 0.4})


def test_a_yes_no_request_is_the_two_messages_with_yes_and_no_as_its_options():
    request = JudgeRequest.yes_no("You check statements.", "Statement: the sky is blue.")
    assert request == JudgeRequest((("system", "You check statements."), ("user", "Statement: the sky is blue.")),
                                   options=("yes", "no"))
