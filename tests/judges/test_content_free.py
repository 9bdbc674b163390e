import asyncio

import pytest

from agentunit.judges.content_free import CONTENT_FREE_TEXTS, calibrated, content_free_prior


def test_a_text_judged_like_a_content_free_one_scores_one_half():
    assert calibrated(0.8, 0.8) == pytest.approx(0.5)
    assert calibrated(0.3, 0.3) == pytest.approx(0.5)


def test_the_probability_is_reweighted_by_the_prior():
    assert calibrated(0.9, 0.6) == pytest.approx((0.9 / 0.6) / (0.9 / 0.6 + 0.1 / 0.4))
    assert calibrated(0.7, 0.5) == pytest.approx(0.7)  # an even prior changes nothing
    # the same answer means more from a judge that rarely says yes for this question
    assert calibrated(0.7, 0.3) > calibrated(0.7, 0.5) > calibrated(0.7, 0.9)


def test_probabilities_of_zero_or_one_stay_finite():
    assert 0 < calibrated(0.0, 0.5) < 0.01 and 0.99 < calibrated(1.0, 0.5) < 1
    assert 0 < calibrated(0.5, 1.0) < 0.01 and 0.99 < calibrated(0.5, 0.0) < 1


def test_the_prior_is_the_mean_answer_over_the_content_free_texts():
    asked = []

    async def ask(text):
        asked.append(text)
        return {"N/A": 0.2, "OK.": 0.9, "[sentence]": 0.4}[text]

    assert asyncio.run(content_free_prior(ask)) == pytest.approx(0.5)
    assert asked == list(CONTENT_FREE_TEXTS)
