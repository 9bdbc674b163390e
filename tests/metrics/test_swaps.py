"""answer_correctness's check for a reference's values attached to other parts (no judge)."""

import pytest

from agentunit.metrics._swaps import swapped_parts


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


def test_a_long_reference_is_read_in_linear_time():
    import time

    reference = ", ".join(f"item{i} costs {i}" for i in range(20_000))
    answer = ", ".join(f"item{i} costs {i + 1}" for i in range(20_000))
    start = time.perf_counter()
    assert swapped_parts(reference, answer) == []
    assert time.perf_counter() - start < 10  # the pairwise reading took minutes
