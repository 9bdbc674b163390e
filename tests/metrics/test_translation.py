"""Which words of a criterion an output in another language is translated for (``_translation``)."""

import pytest

from agentunit.metrics._translation import criterion_wording


@pytest.mark.parametrize(("criterion", "wording"), [
    ("States that admission costs 12 euros.", "States that admission costs 12 euros."),
    ("Greets the guest with 'Bonjour et bienvenue' and names the hotel.",
     "Greets the guest with   and names the hotel."),
    ('Says "Guten Tag" first.', "Says   first."),
    ("Mentions the store's opening hours.", "Mentions the store's opening hours."),  # an apostrophe, not a quote
    ("Is a correct English translation of 'Der Zug fährt um acht ab.'", None),       # about translation
    ("Translates the menu faithfully.", None),
    ("Is written in Spanish.", None),                                                 # about language
])
def test_a_criterion_is_read_without_its_quotes_and_not_at_all_when_it_is_about_language(criterion, wording):
    assert criterion_wording(criterion) == wording
