"""The real embedded judge (installed by `make test` with `agentunit models install judge`) on clear cases."""

import pytest

from agentunit import check
from agentunit.models.store import ModelNotInstalled, require


@pytest.fixture(scope="module", autouse=True)
def installed():
    try:
        require("judge")
        require("embeddings")
    except ModelNotInstalled as exc:
        pytest.fail(f"{exc} (make test does this before the tests)")


def test_llm_rubric_on_clear_cases():
    good = check("The capital of France is Paris.", {"metric": "llm-rubric", "value": "Correctly names the capital"},
                 query="What is the capital of France?")
    bad = check("Figure it out yourself, I'm busy.", {"metric": "llm-rubric", "value": "The reply is polite."})
    assert good.passed is True and bad.passed is False
    assert good.detail["judge"]["source"] == "logprobs" and good.value > bad.value


def test_factuality_and_g_eval_on_clear_cases():
    agree = check("Paris is the capital of France.",
                  {"metric": "factuality", "value": "The capital of France is Paris."},
                  query="What is the capital of France?")
    disagree = check("Berlin is the capital of France.",
                     {"metric": "factuality", "value": "The capital of France is Paris."},
                     query="What is the capital of France?")
    assert agree.value > disagree.value and disagree.detail["category"] == "disagrees"
    polite = check("Thank you for your patience! Your refund was issued today.",
                   {"metric": "g-eval", "value": "Politeness of a customer support reply"})
    rude = check("Not my problem.", {"metric": "g-eval", "value": "Politeness of a customer support reply"})
    assert polite.value > rude.value and len(polite.detail["steps"]) >= 2


def test_answer_correctness_uses_statements_and_embeddings():
    exact = check("paris", {"metric": "answer_correctness", "value": "Paris."})
    assert exact.value == 1.0 and exact.detail["method"] == "exact"
    close = check("Paris is the capital of France.", {"metric": "answer_correctness",
                                                      "value": "The capital of France is Paris."})
    wrong = check("Rome is the capital of France.", {"metric": "answer_correctness",
                                                     "value": "The capital of France is Paris."})
    assert close.detail["method"] == "statements+embeddings" and close.value > wrong.value


def test_context_faithfulness_on_clear_cases():
    context = ["The Eiffel Tower is in Paris. It was completed in 1889 and is about 330 metres tall."]
    grounded = check("The Eiffel Tower was completed in 1889.", "context-faithfulness", context=context)
    invented = check("The Eiffel Tower was completed in 1925 by Gustave Roux.", "context-faithfulness",
                     context=context)
    assert grounded.passed is True and invented.passed is False
    assert invented.detail["claims"][0]["missing_numbers"] == ["1925"]
