"""Claims that stand on their own: a short answer is checked with its question, a sentence that opens
with a pronoun with the sentence before it (scripted judge that only passes what it can check)."""

import pytest

from agentunit import check
from agentunit.metrics._sentences import split_sentences
from tests.judge_helpers import pass_with, scripted_judge

CONTEXT = ["Halvorsen Ferries was founded in 1952 by Ingrid Halvorsen in the harbour town of Skarvik.",
           "Today the company operates five routes."]
QUESTION = "Who founded Halvorsen Ferries?"


def _needs(*markers: str):
    """PASS only when the claim-check prompt shows every marker after the context, else FAIL."""

    def respond(request):
        shown = request.messages[-1][1].split("\n\n", 1)[-1]
        return pass_with(0.9 if all(m in shown for m in markers) else 0.1)

    return respond


def test_a_short_answer_is_checked_with_its_question():
    with scripted_judge(_needs(f"Question: {QUESTION}", "Answer: Ingrid Halvorsen.")) as judge:
        result = check("Ingrid Halvorsen.", "context-faithfulness", query=QUESTION, context=CONTEXT)
    assert result.value == pytest.approx(0.9) and result.passed
    assert result.detail["claims"][0]["question"] == QUESTION
    assert len(judge.requests) == 1


def test_a_bare_yes_or_no_is_scored_by_asking_the_judge_the_question():
    question = "Was Halvorsen Ferries founded by Ingrid Halvorsen?"

    def respond(request):  # the judge's own answer: yes, with P = 0.8
        prompt = request.messages[-1][1]
        assert f"Question: {question}" in prompt and "Answer:" not in prompt
        return pass_with(0.8)

    with scripted_judge(respond) as judge:
        assert check("Yes.", "context-faithfulness", query=question, context=CONTEXT).value == pytest.approx(0.8)
        assert check("no", "context-faithfulness", query=question, context=CONTEXT).value == pytest.approx(0.2)
        assert check("no", "hallucination", query=question, context=CONTEXT).value == pytest.approx(0.8)
    assert len(judge.requests) == 1  # one prompt for both answers: the second is served from the cache


def test_hallucination_and_recall_carry_the_question():
    with scripted_judge(_needs(f"Question: {QUESTION}", "Answer: Ingrid Halvorsen")):
        assert check("Ingrid Halvorsen", "hallucination", query=QUESTION, context=CONTEXT).value == \
            pytest.approx(0.1)
        recall = check("x", "context-recall", query=QUESTION, context=CONTEXT, expected_output="Ingrid Halvorsen")
    assert recall.value == pytest.approx(0.9)


def test_a_long_answer_is_checked_as_claims_without_the_question():
    answer = ("Halvorsen Ferries was founded in 1952 by Ingrid Halvorsen, who started it in the harbour town of "
              "Skarvik.")
    with scripted_judge(_needs(f"Claim: {answer}")) as judge:
        result = check(answer, "context-faithfulness", query=QUESTION, context=CONTEXT)
    assert result.passed and "question" not in result.detail["claims"][0]
    assert QUESTION not in judge.requests[0].messages[-1][1]


def test_no_question_no_folding():
    with scripted_judge(_needs("Claim: Ingrid Halvorsen.")):
        result = check("Ingrid Halvorsen.", "context-faithfulness", context=CONTEXT)
    assert result.passed and "question" not in result.detail["claims"][0]


def test_a_pronoun_led_sentence_is_shown_with_the_sentence_before_it():
    first = "Halvorsen Ferries operates five routes today."
    answer = f"{first} It was founded in 1952 by Ingrid Halvorsen. Skarvik is its home port."
    pronoun_needs_subject = _needs(first, "Claim: It was founded in 1952")

    def respond(request):
        shown = request.messages[-1][1].split("\n\n", 1)[-1]
        return pass_with(0.9) if "Claim: It" not in shown else pronoun_needs_subject(request)

    with scripted_judge(respond) as judge:
        result = check(answer, "context-faithfulness", context=CONTEXT)
    claims = result.detail["claims"]
    assert claims[1]["previous"] == first and "previous" not in claims[0] and "previous" not in claims[2]
    assert result.value == pytest.approx(0.9)
    assert first not in judge.requests[0].messages[-1][1].split("\n\n", 1)[-1].split("Claim:")[0]


def test_the_question_does_not_feed_the_evidence_caps():
    # "Okafor" is in the question but not in the context: only the answer's own names are evidence.
    question = "Did Daniel Okafor found Halvorsen Ferries?"
    with scripted_judge(_needs(f"Question: {question}", "Answer: No.")):
        claim = check("No.", "context-faithfulness", query=question, context=CONTEXT).detail["claims"][0]
    assert claim["missing_names"] == [] and claim["support"] == pytest.approx(0.9)


def test_initials_do_not_end_a_sentence():
    # "Jun. K" cut in two left the claim "John Tardy and Jun." (no claim at all) for the judge.
    assert split_sentences("John Tardy and Jun. K have different styles.") == [
        "John Tardy and Jun. K have different styles."]
    assert split_sentences("H. P. Lovecraft was American. A cat sat.") == ["H. P. Lovecraft was American.",
                                                                            "A cat sat."]
