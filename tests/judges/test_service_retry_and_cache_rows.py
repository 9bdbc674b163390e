"""The judge service's stricter retry, its cache rows in the results database, the price of a decision and
the PASS/FAIL question every judge metric asks (mutation testing found these unpinned)."""

import asyncio
import math

import pytest

from agentunit.judges import JudgeRequest
from agentunit.judges.base import JudgeReply
from agentunit.judges.service import STRICT_SUFFIX, JudgeService, pass_fail
from agentunit.store.sqlite import Store
from tests.judge_helpers import ScriptedProvider, scripted_judge

_IMAGE = "data:image/png;base64,iVBORw0KGgo="


def _service(provider, store=None):
    service = JudgeService({"provider": "local"})
    service.provider, service.store = provider, store
    return service


def test_an_answer_matching_no_option_is_asked_again_more_strictly_with_everything_else_kept():
    answers = iter([JudgeReply("perhaps"), JudgeReply("B")])
    provider = ScriptedProvider(lambda request: next(answers))
    request = JudgeRequest((("system", "Grade."), ("user", "first turn"), ("user", "Which is right?")),
                           options=("A", "B"), max_tokens=2, json_schema={"enum": ["A", "B"]}, images=(_IMAGE,))
    decision = asyncio.run(_service(provider).decide(request))
    assert decision.option == "B" and decision.source == "text"
    first, retried = provider.requests
    assert first == request
    assert retried.messages[:2] == request.messages[:2]
    assert retried.messages[2] == ("user", "Which is right?" + STRICT_SUFFIX.format(options="A, B"))
    assert (retried.options, retried.max_tokens, retried.json_schema, retried.images) == \
        (request.options, request.max_tokens, request.json_schema, request.images)


def test_usage_and_detail_survive_the_database_cache(tmp_path):
    store = Store(tmp_path / "r.db")
    top = [("PASS", math.log(0.75)), ("FAIL", math.log(0.25))]
    reply = JudgeReply("PASS", top, usage={"prompt_tokens": 40, "completion_tokens": 1},
                       detail={"ensemble": {"combine": "mean"}})
    request = JudgeRequest((("user", "q"),), options=("PASS", "FAIL"))
    fresh = asyncio.run(_service(ScriptedProvider(lambda r: reply), store).decide(request))
    # a new process: nothing in memory, the row from the database
    again = asyncio.run(_service(ScriptedProvider(lambda r: JudgeReply("FAIL")), store).decide(request))
    assert again.cached and not fresh.cached
    assert again.option == "PASS" and again.probabilities == pytest.approx({"PASS": 0.75, "FAIL": 0.25})
    assert again.usage == {"prompt_tokens": 40, "completion_tokens": 1}
    assert again.detail == {"ensemble": {"combine": "mean"}}


def test_a_cached_reply_without_usage_reads_as_no_usage(tmp_path):
    store = Store(tmp_path / "r.db")
    request = JudgeRequest((("user", "q"),), max_tokens=5)
    asyncio.run(_service(ScriptedProvider(lambda r: JudgeReply("text", usage={})), store).generate(request))
    text, usage, cached = asyncio.run(_service(ScriptedProvider(lambda r: JudgeReply("other")), store)
                                      .generate(request))
    assert (text, usage, cached) == ("text", {}, True)


def test_a_provider_that_prices_its_own_replies_sets_the_decisions_cost():
    class Priced(ScriptedProvider):
        def cost_of_reply(self, reply):
            return 0.25 if reply.text == "PASS" else None

    provider = Priced(lambda request: JudgeReply("PASS", usage={"prompt_tokens": 1000, "completion_tokens": 0}))
    service = JudgeService({"provider": "local", "cost_per_1k_prompt_tokens": 1.0})
    service.provider = provider
    request = JudgeRequest((("user", "q"),), options=("PASS", "FAIL"))
    first = asyncio.run(service.decide(request))
    assert first.cost == 0.25  # the provider's price, not the configured per-token one (1.0)
    assert asyncio.run(service.decide(request)).cost is None  # cached: nothing was paid


def test_pass_fail_asks_the_current_judge_a_system_and_user_pass_fail_question():
    with scripted_judge(lambda request: JudgeReply("PASS")) as provider:
        decision = asyncio.run(pass_fail("You grade answers.", "Is it right?"))
    assert decision.option == "PASS"
    (request,) = provider.requests
    assert request.messages == (("system", "You grade answers."), ("user", "Is it right?"))
    assert request.options == ("PASS", "FAIL")
