"""Atomic claims: the judge splits only joined sentences, and only faithful splits are kept."""

import asyncio
import json

from agentunit.core.outcome import Outcome
from agentunit.core.trace import TraceLog
from agentunit.datasets.base import DatasetCase
from agentunit.judges.base import JudgeReply
from agentunit.metrics import create_metric
from agentunit.metrics._claims import atomic_claims, faithful_split, joins_claims
from agentunit.metrics.base import score_async
from tests.judge_helpers import pass_with, scripted_judge

JOINED = "The capital of France is Paris, and this is disputed by most experts."


def test_which_sentences_are_split_candidates():
    assert joins_claims(JOINED)
    assert joins_claims("Tokyo is the capital of Japan and it hosted the Summer Olympics twice.")
    assert not joins_claims("The capital of France is Paris.")
    assert not joins_claims("Salt and pepper, please.")  # too short to hold two claims


def test_a_split_may_neither_add_nor_drop_content():
    good = ["The capital of France is Paris.", "The capital of France is disputed by most experts."]
    assert faithful_split(JOINED, good) is None
    assert "adds words" in faithful_split(JOINED, ["The capital of France is Paris.", "Paris has ten million people."])
    assert "drop" in faithful_split(JOINED, ["The capital of France is Paris.", "France is Paris."])
    assert "single" in faithful_split(JOINED, [JOINED])


def _judge(split_reply: str):
    def respond(request):
        if not request.options:  # the split request
            return JudgeReply(split_reply)
        claim = request.messages[-1][1].split("Claim: ")[1].split("\n")[0]
        return pass_with(0.05 if "disputed" in claim else 0.95)
    return respond


def _faithfulness(output: str, split_reply: str, **config):
    config.setdefault("blank_values", False)  # blanked values are tested in test_cloze.py
    case = DatasetCase(id="c", query="capital?", context=["The capital of France is Paris."])
    outcome = Outcome(output=output)
    with scripted_judge(_judge(split_reply)) as provider:
        result = asyncio.run(score_async(create_metric("context-faithfulness", config=config), case, TraceLog(),
                                         outcome))
    return result, provider.requests


def test_split_claims_are_checked_one_by_one():
    reply = json.dumps({"claims": ["The capital of France is Paris.",
                                   "The capital of France is disputed by most experts."]})
    result, requests = _faithfulness(JOINED, reply, split_claims=True)
    assert [c["support"] for c in result.detail["claims"]] == [0.95, 0.05]
    assert result.detail["claims"][0]["split"] == "split by the judge"
    assert result.value == 0.5 and result.passed is False
    assert len(requests) == 3  # one split, two decisions


def test_unfaithful_or_malformed_splits_keep_the_sentence():
    invented = json.dumps({"claims": ["Paris is lovely.", "Experts love France."]})
    result, _ = _faithfulness(JOINED, invented, split_claims=True)
    assert [c["claim"] for c in result.detail["claims"]] == [JOINED]
    assert result.detail["claims"][0]["split"].startswith("kept whole: claim adds words")
    result, _ = _faithfulness(JOINED, "not json at all", split_claims=True)
    assert "requested JSON" in result.detail["claims"][0]["split"]


def test_single_claim_sentences_cost_no_split_call_and_splitting_is_opt_in():
    _, requests = _faithfulness("The capital of France is Paris.", "unused", split_claims=True)
    assert len(requests) == 1
    _, requests = _faithfulness(JOINED, "unused")
    assert len(requests) == 1


def test_atomic_claims_without_a_judge():
    claims = asyncio.run(atomic_claims(f"{JOINED} It rains.", use_judge=False))
    assert [c["claim"] for c in claims] == [JOINED, "It rains."]
