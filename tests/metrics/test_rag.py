"""RAG metrics: aggregation, evidence, not-measured paths and judge errors, with a scripted judge."""

import contextlib

import pytest

from agentunit import check, evaluate
from agentunit.errors import MetricConfigError
from agentunit.judges.base import JudgeReply
from agentunit.metrics import create_metric
from agentunit.metrics.rag import cap_support, evidence
from tests.judge_helpers import pass_with, scripted_judge


def _marker_judge(passing=("Paris",), garbage=False):
    """PASS for claims (passages, responses) holding a marker, FAIL otherwise; or unreadable text. Asked for
    its own answer to a question (a generation), the first marker."""

    def respond(request):
        if garbage:
            return JudgeReply("no idea")
        if not request.options:
            return JudgeReply(passing[0])
        text = request.messages[-1][1].split("Claim:")[-1].split("Passage:")[-1].split("Response:")[-1]
        return pass_with(0.9 if any(p in text.split("\n\n")[0] for p in passing) else 0.1)

    return respond


@pytest.fixture
def scripted():
    with contextlib.ExitStack() as stack:
        def factory(**kwargs):
            return stack.enter_context(scripted_judge(_marker_judge(**kwargs))).service

        yield factory


CONTEXT = ["Paris is the capital of France. It has about 2.1 million inhabitants."]


def test_faithfulness_averages_claim_support_and_lists_claims(scripted):
    scripted(passing=("Paris", "capital"))
    result = check("Paris is the capital. I like Berlin.", "context-faithfulness", context=CONTEXT)
    claims = result.detail["claims"]
    assert [c["claim"] for c in claims] == ["Paris is the capital.", "I like Berlin."]
    assert claims[0]["support"] == pytest.approx(0.9)
    assert claims[1]["missing_names"] == ["Berlin"] and claims[1]["support"] == pytest.approx(0.1)
    assert result.value == pytest.approx(0.5) and result.passed is False
    rate = check("Paris is the capital. I like Berlin.", "hallucination", context=CONTEXT)
    assert rate.value == pytest.approx(0.5) and rate.passed is False
    assert check("Paris is the capital.", "faithfulness", context=CONTEXT).passed is True


def test_numbers_missing_from_the_context_cap_support(scripted):
    scripted(passing=("Paris",))
    result = check("Paris has 3.5 million inhabitants.", "context-faithfulness", context=CONTEXT)
    claim = result.detail["claims"][0]
    assert claim["judge_probability"] == pytest.approx(0.9) and claim["missing_numbers"] == ["3.5"]
    assert claim["support"] == pytest.approx(0.1)
    assert evidence("It has 2,100 rooms.", "It has 2100 rooms.")["missing_numbers"] == []
    assert cap_support(0.8, {"missing_numbers": [], "missing_names": ["Zed"]}) == 0.3


def test_the_opening_word_is_a_name_only_next_to_another_capitalised_word():
    assert evidence("Drivers must check in early.", "Cars check in early.")["missing_names"] == []
    assert evidence("Ron Burgess was a miner.", "He was a miner.")["missing_names"] == ["Ron", "Burgess"]
    assert evidence("He met Ron.", "He met someone.")["missing_names"] == ["Ron"]


def test_not_measured_without_context_and_errors_on_garbage(scripted):
    scripted()
    for name in ("context-faithfulness", "hallucination", "context-relevance", "retrieval_quality"):
        result = check("Paris.", name, query="Capital?")
        assert result.status == "not_measured" and "context" in result.reason
    assert check("Paris.", "context-recall", context=CONTEXT).status == "not_measured"  # no expected output
    scripted(garbage=True)
    broken = check("Paris is nice.", "context-faithfulness", context=CONTEXT)
    assert broken.error and "judge answered 'no idea'" in broken.error


def test_recall_relevance_retrieval_quality_and_answer_relevance(scripted):
    scripted(passing=("Paris",))
    recall = check("x", "context-recall", context=CONTEXT, expected_output="Paris is the capital. Lyon is big.")
    assert recall.value == pytest.approx((0.9 + 0.1) / 2)
    relevance = check("x", "context-relevance", query="Capital of France?",
                      context=["Paris is the capital.", "Cheese is tasty."])
    assert relevance.value == pytest.approx(0.5)
    ranked = check("x", "retrieval_quality", query="Capital?", context=["Paris is it.", "Cheese.", "Wine."])
    late = check("x", "retrieval_quality", query="Capital?", context=["Cheese.", "Wine.", "Paris is it."])
    assert ranked.value > late.value
    assert check("Paris", "answer-relevance", query="Capital of France?").value == pytest.approx(0.9)
    assert check("", "answer-relevance", query="Capital of France?").value == 0.0


def test_context_from_the_envelope_in_a_run(scripted):
    service = scripted(passing=("Paris",))

    def rag_app(prompt):
        return {"output": "Paris is the capital.", "trusys": {"context": CONTEXT}}

    result = evaluate(cases=[{"prompt": "Capital of France?", "metrics": ["context-faithfulness"]}], target=rag_app,
                      judge=service)
    assert result.passed and result.cases[0]["metrics"][0]["detail"]["claims"][0]["support"] == pytest.approx(0.9)


def _graded_judge(probabilities: dict[str, float]):
    """P(useful) by the marker word the passage holds (the question's text holds none)."""
    def respond(request):
        passage = request.messages[-1][1].split("Passage:", 1)[1]
        return pass_with(next((p for word, p in probabilities.items() if word in passage), 0.05))
    return respond


def test_retrieval_quality_counts_items_as_useful_only_near_the_best_one():
    """The small judge rates passages about other facts of the subject 0.6–0.8 beside ~0.9 for the one that
    answers: soft relevances scored a buried answer almost as high as one ranked first. An item counts when
    P ≥ 0.5 and within ``margin`` of the best item's P; average precision over those."""
    with scripted_judge(_graded_judge({"ANSWER": 0.93, "ALSO": 0.88, "TOPIC": 0.78, "NOISE": 0.2})):
        buried = check("x", "retrieval_quality", query="Who?", context=["TOPIC a", "TOPIC b", "ANSWER"])
        assert buried.value == pytest.approx(1 / 3) and buried.passed is False
        assert buried.detail["useful"] == [False, False, True]
        assert buried.reason == "average precision 0.333 over 3 items (useful at rank 3)"
        first = check("x", "retrieval_quality", query="Who?", context=["ANSWER", "TOPIC a", "ALSO"])
        assert first.value == pytest.approx((1 + 2 / 3) / 2) and first.passed is True  # 0.833 ≥ 0.8
        assert first.detail["relevance"] == pytest.approx([0.93, 0.78, 0.88], abs=1e-3)
        wide = check("x", {"metric": "retrieval_quality", "config": {"margin": 0.2}}, query="Who?",
                     context=["TOPIC a", "ANSWER"])
        assert wide.value == pytest.approx(1.0) and wide.detail["margin"] == 0.2
        nothing = check("x", "retrieval_quality", query="Who?", context=["NOISE", "NOISE again"])
        assert nothing.value == 0.0 and nothing.reason == "no retrieved item is useful"
    for bad in (-0.1, 1.5, "0.1", True):
        with pytest.raises(MetricConfigError, match=r"config\.margin must be a number from 0 to 1"):
            create_metric("retrieval_quality", config={"margin": bad})
