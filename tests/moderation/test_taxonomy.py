"""The moderation taxonomy: names, aliases, the categories a metric checks, implied scores."""

from __future__ import annotations

import pytest

from agentunit.errors import MetricConfigError
from agentunit.moderation.taxonomy import CATEGORIES, IMPLIES, canonical_category, categories_of, close_scores


def test_the_taxonomy_is_openais_thirteen_categories():
    assert len(CATEGORIES) == 13
    assert {"hate/threatening", "self-harm/instructions", "illicit/violent", "sexual/minors"} <= set(CATEGORIES)
    for child, parents in IMPLIES.items():
        assert child in CATEGORIES and all(p in CATEGORIES for p in parents)


@pytest.mark.parametrize(("name", "expected"), [
    ("hate", "hate"), ("HATE", "hate"), (" Self-Harm/Intent ", "self-harm/intent"),
    ("self_harm_intent", "self-harm/intent"), ("self_harm", "self-harm"), ("harassment_threatening",
                                                                           "harassment/threatening"),
    ("violence-graphic", "violence/graphic"), ("toxicity", None), (3, None), (None, None),
])
def test_canonical_names_and_openai_spellings(name, expected):
    assert canonical_category(name) == expected


def test_categories_of_a_value():
    assert categories_of(None) == CATEGORIES
    assert categories_of("hate") == ("hate",)
    assert categories_of(["hate", "HATE", "self_harm"]) == ("hate", "self-harm")
    for bad in (["hate", "spam"], [], {"hate": 1}, 5):
        with pytest.raises(MetricConfigError, match="known: harassment"):
            categories_of(bad)


def test_a_parent_scores_at_least_its_subcategories():
    closed = close_scores({"hate/threatening": 0.8, "hate": 0.1, "self-harm/intent": 0.6, "violence": 0.2})
    assert closed["hate"] == 0.8 and closed["violence"] == 0.2 and closed["self-harm"] == 0.6
    assert closed["self-harm/intent"] == 0.6 and closed["sexual"] == 0.0 and set(closed) == set(CATEGORIES)
