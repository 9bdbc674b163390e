"""Claims that stand on their own: a short answer is checked with its question, a sentence that opens
with a pronoun with the sentence before it (scripted judge that only passes what it can check)."""

import pytest

from agentunit import check
from agentunit.judges.base import JudgeReply
from agentunit.metrics._sentences import split_sentences
from agentunit.metrics.overlap import answer_f1
from tests.judge_helpers import pass_with, scripted_judge

CONTEXT = ["Halvorsen Ferries was founded in 1952 by Ingrid Halvorsen in the harbour town of Skarvik.",
           "Today the company operates five routes."]
QUESTION = "Who founded Halvorsen Ferries?"


def _needs(*markers: str, own_answer: str = "founded by Ingrid Halvorsen in Skarvik"):
    """PASS only when the claim-check prompt shows every marker after the context, else FAIL. Asked for
    its own answer to a question (a generation, no options), the judge replies ``own_answer`` — by
    default one that shares some words with "Ingrid Halvorsen" (F1 0.5), so the support stays as judged."""

    def respond(request):
        if not request.options:
            return JudgeReply(own_answer)
        shown = request.messages[-1][1].split("\n\n", 1)[-1]
        return pass_with(0.9 if all(m in shown for m in markers) else 0.1)

    return respond


def test_a_short_answer_is_checked_with_its_question():
    with scripted_judge(_needs(f"Question: {QUESTION}", "Answer: Ingrid Halvorsen.")) as judge:
        result = check("Ingrid Halvorsen.", "context-faithfulness", query=QUESTION, context=CONTEXT)
    assert result.value == pytest.approx(0.9) and result.passed
    assert result.detail["claims"][0]["question"] == QUESTION
    assert len(judge.requests) == 2  # the claim check and the judge's own answer


# -- a short answer against the judge's own answer to its question --------------------------------------


@pytest.mark.parametrize(("own", "value", "f1"), [
    ("Ingrid Halvorsen", 0.95, 1.0),             # agree (F1 ≥ 0.7): half-way to 1
    ("by Ingrid Halvorsen", 0.95, 0.8),
    ("founded by Ingrid Halvorsen in Skarvik", 0.9, 0.5),   # in between: kept
    ("Daniel Okafor", 0.675, 0.0),              # no shared word: × 0.75
])
def test_a_short_answer_is_compared_with_the_judges_own_answer(own, value, f1):
    with scripted_judge(_needs("Answer: Ingrid Halvorsen", own_answer=own)) as judge:
        result = check("Ingrid Halvorsen.", "context-faithfulness", query=QUESTION, context=CONTEXT)
    claim = result.detail["claims"][0]
    assert result.value == pytest.approx(value)
    assert (claim["judge_probability"], claim["judge_answer"], claim["answer_f1"]) == (0.9, own, f1)
    (asked,) = [r for r in judge.requests if not r.options]
    assert asked.max_tokens == 24 and asked.json_schema is None
    assert asked.messages[0] == ("system", "You answer questions from a context. Reply with a short phrase only.")
    assert asked.messages[1][1] == (f"Context:\n{CONTEXT[0]}\n{CONTEXT[1]}\n\nQuestion: {QUESTION}\n\nAnswer the "
                                    "question with the shortest phrase from the context that answers it.")


def test_agreement_never_lifts_a_capped_answer_and_disagreement_lowers_it():
    # "Okafor" is not in the context: capped at 0.3 whatever the judge's own answer says.
    with scripted_judge(_needs("Answer: Daniel Okafor", own_answer="Daniel Okafor")):
        assert check("Daniel Okafor.", "context-faithfulness", query=QUESTION, context=CONTEXT).value == \
            pytest.approx(0.3)
    with scripted_judge(_needs("Answer: Daniel Okafor", own_answer="Ingrid Halvorsen")):
        assert check("Daniel Okafor.", "context-faithfulness", query=QUESTION, context=CONTEXT).value == \
            pytest.approx(0.225)


@pytest.mark.parametrize(("answer", "own", "value"), [
    ("No, it was founded by her brother.", "Yes", 0.1),    # the opposite polarity: contradicted
    ("No, it was founded by her brother.", "yes.", 0.1),
    ("Yes, she founded it in 1952.", "No", 0.1),
    ("Yes, she founded it in 1952.", "Yes", 0.9),         # the same polarity: as judged, never lifted
    ("Yes, she founded it in 1952.", "Ingrid Halvorsen", 0.9),  # no polarity to compare: as judged
])
def test_an_answer_opening_with_yes_or_no_must_match_the_judges_own(answer, own, value):
    question = "Did Ingrid Halvorsen found Halvorsen Ferries?"
    with scripted_judge(_needs("Answer: ", own_answer=own)):
        assert check(answer, "context-faithfulness", query=question, context=CONTEXT).value == pytest.approx(value)


def test_answer_f1_is_squads_token_f1():
    assert answer_f1("The Eiffel Tower!", "eiffel tower") == 1.0
    assert answer_f1("an apple", "apple pie") == pytest.approx(2 / 3)
    assert answer_f1("Paris", "Lyon") == 0.0 and answer_f1("", "Lyon") == 0.0 and answer_f1("the", "a") == 0.0
    assert answer_f1("x b b", "b b c") == pytest.approx(2 / 3)  # shared words counted with multiplicity


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
