"""answer_correctness's check for a reference's values attached to other parts (no judge)."""

import pytest

from agentunit.metrics._swaps import reordered, swapped_parts
from tests.work_helpers import line_budget


@pytest.mark.parametrize(("reference", "answer", "swapped"), [
    ("Canberra is the capital; Sydney is the largest city.", "Sydney is the capital; Canberra is the largest city.",
     ["Sydney is the capital", "Canberra is the largest city"]),
    ("€15 for adults and €8 for children.", "€8 for adults and €15 for children.",
     ["€8 for adults", "€15 for children"]),
    ("About 6 minutes for soft, about 10 minutes for hard.", "About 10 minutes for soft, about 6 for hard.",
     ["About 10 minutes for soft", "about 6 for hard"]),
    ("The mitochondria make energy; the nucleus holds the DNA.",
     "The nucleus makes energy; the mitochondria hold the DNA.",   # "makes" meets "make"
     ["The nucleus makes energy", "the mitochondria hold the DNA"]),
    ("Cats eat fish; dogs eat meat.", "Cat eats meat; dog eats fish.", ["Cat eats meat", "dog eats fish"]),  # plurals
])
def test_values_attached_to_the_other_part_are_found(reference, answer, swapped):
    assert swapped_parts(reference, answer) == swapped


@pytest.mark.parametrize(("reference", "answer"), [
    ("Canberra is the capital; Sydney is the largest city.", "Canberra is the capital, and Sydney the largest city."),
    ("Canberra is the capital; Sydney is the largest city.", "The capital is Canberra rather than Sydney; yes."),
    # one reference part whole in the answer's part: a contrast, not a swap
    ("It began in 1914 and ended in 1918.", "From 1914 to 1918, then peace."),   # values only: not a swap
    ("€15 for adults and €8 for children.", "15 € pour les adultes et 8 € pour les enfants."),
    # one part: a Spanish answer is not cut at "y"
    ("Eight bits in a byte, and 1,000 bytes in a kilobyte.", "Ocho bits por byte y 1000 bytes por kilobyte."),
    ("Canberra is the capital.", "Sydney is the capital; Canberra is big."),   # a reference of one part
    ("The trial lasts 14 days; after that you are charged €9.99 a month.",
     "You get 14 days free, then €9.99 a month."),   # "you" is not a word of the second part
])
def test_right_answers_and_other_wordings_are_not_swaps(reference, answer):
    assert swapped_parts(reference, answer) == []


@pytest.mark.parametrize(("reference", "answer", "order"), [
    ("The Volga, then the Danube.", "The Danube, then the Volga.", ["the Danube", "The Volga"]),
    ("Russia first, then Canada.", "Canada first, then Russia.", ["Canada", "Russia first"]),
    ("Boil for 10 minutes, then rest for 5.", "Rest 5 minutes first, then boil for 10.",
     ["rest for 5", "Boil for 10 minutes"]),
])
def test_an_order_the_reference_states_given_otherwise_is_found(reference, answer, order):
    assert reordered(reference, answer) == order


@pytest.mark.parametrize(("reference", "answer"), [
    ("Russia first, then Canada.", "Russia is the largest, followed by Canada."),        # the same order
    ("Russia first, then Canada.", "Canada comes after Russia."),                         # "after" turns it round
    ("The Volga, then the Danube.", "The Danube is second, the Volga first."),           # "second"
    ("Crust, mantle, outer core and inner core.", "Crust, outer core, mantle and inner core."),  # no order stated
    ("Russia first, then Canada.", "Canada."),                                           # a part left out
    ("Mercury first, then Venus, then Earth.", "Earth, then Venus."),                    # the same, in any order
    ("Canberra is the capital; Sydney is the largest city.", "Sydney is the largest city; Canberra the capital."),
])
def test_answers_that_keep_the_order_or_state_none_are_not_reordered(reference, answer):
    assert reordered(reference, answer) == []


def test_a_long_reference_is_read_in_linear_time():
    """Each part's own words were found by comparing it with every other part (20,000 parts took minutes):
    the lines of agentunit run grow with the parts (about 120 each), not with their pairs (12.5 million)."""
    parts = 5_000
    reference = ", ".join(f"item{i} costs {i}" for i in range(parts))
    answer = ", ".join(f"item{i} costs {i + 1}" for i in range(parts))
    with line_budget(300 * parts):
        assert swapped_parts(reference, answer) == []
        assert reordered("First " + reference.replace(",", ", then"), answer) == []
