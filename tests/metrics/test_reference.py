"""answer_correctness: statements, similarity, and the reference's values looked for in the answer
(scripted judge, the embedded embedding model)."""

import pytest

from agentunit import check
from agentunit.judges.base import JudgeReply
from tests.judge_helpers import pass_with, scripted_judge

REFERENCE = "Jane Austen; it was published in 1813."


def _judge(fill: str = ""):
    def respond(request):
        return pass_with(0.9) if request.options else JudgeReply(fill)
    return respond


def _correctness(answer: str, **config):
    with scripted_judge(_judge()):
        return check(answer, {"metric": "answer_correctness", "value": REFERENCE, "config": config})


def test_an_answer_that_leaves_a_value_out_is_scaled_by_the_share_it_gives():
    partial, unchecked = _correctness("Jane Austen."), _correctness("Jane Austen.", check_values=False)
    assert partial.value == pytest.approx(unchecked.value * 0.5)
    assert partial.reason.endswith("; × 0.50: the answer does not give 1813")
    assert [(v["value"], v["found"]) for v in partial.detail["values"]] == [("Jane Austen", True), ("1813", False)]
    assert unchecked.detail["values"] == []
    # one decision per sentence of either text (1 + 1), and one fill for the value not written
    assert (partial.detail["judge_calls"], unchecked.detail["judge_calls"]) == (3, 2)


def test_an_answer_that_gives_every_value_is_not_scaled():
    whole = _correctness("Jane Austen wrote it; it came out in 1813.")
    assert whole.value == pytest.approx(_correctness("Jane Austen wrote it; it came out in 1813.",
                                                     check_values=False).value)
    assert "does not give" not in whole.reason and all(v["found"] for v in whole.detail["values"])
