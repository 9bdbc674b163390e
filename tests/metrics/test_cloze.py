"""A claim's values blanked and filled by the judge from the context (``_cloze``), and how the fill
moves a context-faithfulness claim's support (scripted judge)."""

import asyncio

import pytest

from agentunit import check
from agentunit.judges.base import JudgeReply
from agentunit.metrics._cloze import (
    MAX_BLANKS,
    Value,
    abbreviates,
    blanked,
    claim_values,
    cloze_check,
    compare_fill,
    glued,
    list_items,
    numbers_of,
    reference_values,
)
from agentunit.metrics.rag import CLOZE_DIFFERS_CAP, CLOZE_LIFT, cloze_support
from tests.judge_helpers import pass_with, scripted_judge

CONTEXT = ["Halvorsen Ferries was founded in 1952 by Ingrid Halvorsen in the harbour town of Skarvik.",
           "In 1978 it switched to three steel car ferries. Five captains sailed for it before the war."]


def _values(claim: str) -> list[tuple[str, str]]:
    return [(v.text, v.kind) for v in claim_values(claim)]


# -- which values a claim holds ------------------------------------------------------------------------


def test_a_claims_values_are_its_numbers_and_names_in_order():
    assert _values("In 1978 Ingrid Halvorsen switched to five steel ferries.") == [
        ("1978", "number"), ("Ingrid Halvorsen", "name"), ("five", "number")]


def test_one_and_a_capitalised_opening_word_are_not_values():
    assert _values("Drivers must pay one fee.") == []
    assert _values("Ron Burgess won it.") == [("Ron Burgess", "name")]
    assert _values("The fee is 1,200 kroner.") == [("1,200", "number")]


def test_blanked_replaces_exactly_the_value():
    claim = "It switched to five steel car ferries in 1978."
    five, year = sorted(claim_values(claim), key=lambda v: v.start)
    assert blanked(claim, five) == "It switched to ___ steel car ferries in 1978."
    assert blanked(claim, year) == "It switched to five steel car ferries in ___."


def test_numbers_are_read_from_digits_and_words():
    assert numbers_of("1,200 and five") == {1200.0, 5.0}
    assert numbers_of("at 10:00, version 1.2.3") == {"10:00", "1.2.3"}
    assert numbers_of("one of them") == set()
    assert numbers_of("300.000 km") == {300.0, 300000.0}   # dots that group thousands, as Italian writes them
    assert numbers_of("0.065 mm") == {0.065}


# -- the fill against the claimed value ----------------------------------------------------------------


@pytest.mark.parametrize(("value", "fill", "verdict"), [
    (Value("3", 0, 1, "number"), "three", "agrees"),
    (Value("1,200", 0, 5, "number"), "1200", "agrees"),
    (Value("five", 0, 4, "number"), "three", "differs"),        # the fill is in the context
    (Value("five", 0, 4, "number"), "nine", "unknown"),          # not in the context: not copied from it
    (Value("five", 0, 4, "number"), "steel car ferries", "unknown"),   # no number in the fill
    (Value("Maren Dahl", 0, 10, "name"), "Ingrid Halvorsen", "differs"),
    (Value("Maren Dahl", 0, 10, "name"), "Dahl", "agrees"),
    (Value("Halvorsen", 0, 9, "name"), "The Halvorsen family", "agrees"),
    (Value("Maren Dahl", 0, 10, "name"), "the harbour town", "unknown"),   # not a name
    (Value("Maren Dahl", 0, 10, "name"), "Oslo", "unknown"),              # a name the context lacks
    (Value("Maren Dahl", 0, 10, "name"), "", "unknown"),
    (Value("United States", 0, 13, "name"), "USA", "agrees"),   # its initials: not another name
    (Value("300,000", 0, 7, "number"), "300.000", "agrees"),      # dots grouping thousands
    (Value("Skarvik Harbour", 0, 15, "name"), "SKARVIKHARBOUR", "agrees"),   # spaces dropped, as OCR reads signs
    (Value("Skarvik Harbour", 0, 15, "name"), "SKARVIKHARBOUR 1952", "agrees"),
    (Value("Maren Dahl", 0, 10, "name"), "INGRIDHALVORSEN", "differs"),   # glued, and another name
])
def test_a_fill_agrees_differs_or_says_nothing(value, fill, verdict):
    context = " ".join(CONTEXT) + " [text read from an image] SKARVIKHARBOUR INGRIDHALVORSEN"
    assert compare_fill(value, fill, context) == verdict


@pytest.mark.parametrize(("name", "fill", "expected"), [
    ("Green Leaf Cafe", "GREENLEAFCAFE", True), ("GreenLeaf", "Green Leaf", True), ("Wi-Fi", "WIFI", True),
    ("Green Leaf Cafe", "GREENLEAF", False), ("Green Leaf Cafe", "CORNERBAKERY", False), ("Cafe", "", False),
])
def test_a_name_with_its_spaces_dropped_is_the_name(name, fill, expected):
    assert glued(name, fill) is expected


@pytest.mark.parametrize(("claim", "value", "fill"), [
    ("It was founded in 1952 and switched to steel in 1978.", "1978", "1952"),
    ("Ingrid Halvorsen founded Skarvik Harbour.", "Skarvik Harbour", "Ingrid Halvorsen"),
    ("Ingrid Halvorsen founded Skarvik Harbour.", "Skarvik Harbour", "Halvorsen"),
    ("It had three ferries in 1952 and five in 1978.", "five", "3"),   # the same number, written otherwise
])
def test_a_fill_the_blanked_sentence_already_shows_is_not_a_difference(claim, value, fill):
    # Asked for the second of two values, the small judge often repeats the first.
    (found,) = [v for v in claim_values(claim) if v.text == value]
    context = " ".join(CONTEXT) + " Skarvik Harbour had 3 berths."
    assert compare_fill(found, fill, context, blanked(claim, found)) == "unknown"
    assert compare_fill(found, fill, context) == "differs"


# -- asking the judge ----------------------------------------------------------------------------------


def _fills(fill_for: dict[str, str], probability: float = 0.9):
    """PASS/FAIL claim checks at ``probability``; a blank is filled with ``fill_for[blanked sentence]``."""

    def respond(request):
        if request.options:
            return pass_with(probability)
        prompt = request.messages[-1][1]
        for sentence, fill in fill_for.items():
            if f"Sentence: {sentence}\n" in prompt or f"Answer with a blank: {sentence}\n" in prompt:
                return JudgeReply(fill)
        return JudgeReply("")

    return respond


def test_each_value_is_blanked_and_filled_numbers_first():
    claim = "Maren Dahl switched Halvorsen Ferries to five steel car ferries in 1978."
    fills = {"Maren Dahl switched Halvorsen Ferries to ___ steel car ferries in 1978.": "three",
             "Maren Dahl switched Halvorsen Ferries to five steel car ferries in ___.": "1978",
             "___ switched Halvorsen Ferries to five steel car ferries in 1978.": "Ingrid Halvorsen"}
    with scripted_judge(_fills(fills)) as judge:
        checks = asyncio.run(cloze_check(claim, "\n".join(CONTEXT), "\n".join(CONTEXT)))
    assert checks == [
        {"value": "five", "fill": "three", "verdict": "differs"},
        {"value": "1978", "fill": "1978", "verdict": "agrees"},
        {"value": "Maren Dahl", "fill": "Ingrid Halvorsen", "verdict": "differs"},
        {"value": "Halvorsen Ferries", "fill": "", "verdict": "unknown"},
    ]
    first = judge.requests[0]
    assert first.max_tokens == 12 and not first.options
    assert first.messages[0] == ("system", "You fill in blanks from a context. Reply with the missing words only.")
    assert first.messages[1][1] == (
        f"Context:\n{CONTEXT[0]}\n{CONTEXT[1]}\n\nSentence: Maren Dahl switched Halvorsen Ferries to ___ steel "
        "car ferries in 1978.\n\nWhich words from the context fill the blank (___)? Reply with those words only.")


def test_at_most_max_blanks_values_are_asked_and_a_bare_value_is_not():
    claim = "In 1952, 1978, 1990, 2001 and 2010 the fleet grew."
    with scripted_judge(_fills({})) as judge:
        assert len(asyncio.run(cloze_check(claim, CONTEXT[0], CONTEXT[0]))) == MAX_BLANKS
    assert len(judge.requests) == MAX_BLANKS
    with scripted_judge(_fills({})) as judge:
        assert asyncio.run(cloze_check("In 1952.", CONTEXT[0], CONTEXT[0])) == []
    assert judge.requests == []


def test_the_blanked_sentence_is_what_a_fill_is_compared_with():
    claim = "It was founded in 1952 and switched to steel in 1978."
    with scripted_judge(_fills({"It was founded in 1952 and switched to steel in ___.": "1952"})):
        checks = asyncio.run(cloze_check(claim, CONTEXT[0], " ".join(CONTEXT)))
    assert checks[1] == {"value": "1978", "fill": "1952", "verdict": "unknown"}


def test_a_short_answer_is_blanked_under_its_question():
    question = "When did the company switch to steel ferries?"
    with scripted_judge(_fills({})) as judge:
        asyncio.run(cloze_check("It switched in 1978.", CONTEXT[1], CONTEXT[1], question))
    assert f"Question: {question}\nAnswer with a blank: It switched in ___.\n" in judge.requests[0].messages[1][1]


# -- how the fills move the support --------------------------------------------------------------------


def test_a_differing_fill_caps_and_agreeing_fills_lift_an_uncapped_support():
    agrees, differs, unknown = ({"verdict": v} for v in ("agrees", "differs", "unknown"))
    assert cloze_support(0.9, [agrees, differs], capped=False) == CLOZE_DIFFERS_CAP == 0.3
    assert cloze_support(0.2, [differs], capped=False) == 0.2
    assert cloze_support(0.6, [agrees, agrees], capped=False) == pytest.approx(0.6 + CLOZE_LIFT * 0.4) == 0.7
    assert cloze_support(0.6, [agrees], capped=True) == 0.6
    assert cloze_support(0.6, [agrees, unknown], capped=False) == 0.6
    assert cloze_support(0.6, [], capped=False) == 0.6


@pytest.mark.parametrize(("answer", "fill", "value"), [
    ("In 1978 it switched to five steel car ferries.", "three", 0.3),   # the judge passed it; the blank did not
    ("In 1978 it switched to three steel car ferries.", "three", 0.925),
    ("In 1978 it switched to three steel car ferries.", "ships", 0.9),   # nothing to compare: as judged
])
def test_faithfulness_reads_the_blanks(answer, fill, value):
    fills = {"In 1978 it switched to ___ steel car ferries.": fill,
             answer.replace("1978", "___"): "1978"}
    with scripted_judge(_fills(fills)):
        result = check(answer, "context-faithfulness", context=CONTEXT)
    assert result.value == pytest.approx(value)
    (blank,) = [b for b in result.detail["claims"][0]["blanks"] if b["fill"] == fill]
    assert blank["verdict"] == {0.3: "differs", 0.925: "agrees", 0.9: "unknown"}[value]


def test_blank_values_false_asks_no_blanks():
    with scripted_judge(_fills({"In 1978 it switched to ___ steel car ferries.": "three"})) as judge:
        result = check("In 1978 it switched to five steel car ferries.",
                       {"metric": "context-faithfulness", "config": {"blank_values": False}}, context=CONTEXT)
    assert result.value == pytest.approx(0.9) and "blanks" not in result.detail["claims"][0]
    assert all(r.options for r in judge.requests)


# -- a reference answer's values looked for in an answer -----------------------------------------------


def test_decimal_commas_and_thousands_separators():
    # read as _rubric reads numbers: a comma before one or two digits may be either separator
    assert numbers_of("4,95 €") == {4.95, 495.0} and numbers_of("1,000 bytes") == {1000.0}
    assert numbers_of("9,9") == {9.9, 99.0}


@pytest.mark.parametrize(("reference", "answer"), [
    ("Standard delivery costs €4.95.", "Der Standardversand kostet 4,95 €."),
    ("Russia first, then Canada.", "Rusia y, en segundo lugar, Canadá."),
    ("It was first grown in Peru.", "Se cultivó primero en Perú."),       # accents ignored
    ("From 1 July to 31 July.", "Vom 1. bis zum 31. Juli."),              # month names in other languages
    ("Closed on Sunday.", "Sonntags geschlossen."),
    ("Open until 6 pm.", "Geöffnet bis 18 Uhr."),                         # "6 pm" is 18 on the 24-hour clock
    ("Open from 9 a.m.", "Ouvert dès 9 h."),
    ("February has 28 days and April has 30.", "Février compte 28 jours et avril 30."),
    ("Two doses, four weeks apart.", "Zwei Dosen im Abstand von vier Wochen."),
    ("One hour, starting at 12:30.", "It starts at half past twelve and lasts an hour."),  # a time said in words
])
def test_values_written_in_the_answer_are_found_without_the_judge(reference, answer):
    with scripted_judge(_fills({})) as judge:
        found = asyncio.run(reference_values(reference, answer))
    assert found and all(v["found"] and v["by"] == "text" for v in found)
    assert judge.requests == []


@pytest.mark.parametrize(("reference", "answer"), [
    ("Open until 6 pm.", "Geöffnet bis 20 Uhr."),
    ("Open from 6 am.", "Geöffnet ab 18 Uhr."),     # 6 am is not 18
    ("Closed on Monday.", "Fermé le mardi."),       # Tuesday
])
def test_other_hours_and_days_are_not_found(reference, answer):
    with scripted_judge(_fills({})):
        values = asyncio.run(reference_values(reference, answer))
    assert [v["found"] for v in values] == [False]


def test_am_or_pm_applies_to_the_hour_it_follows():
    with scripted_judge(_fills({})):
        values = asyncio.run(reference_values("Open from 9 until 5 pm.", "Geöffnet von 21 bis 17 Uhr."))
    assert [(v["value"], v["found"]) for v in values] == [("9", False), ("5", True)]


def test_a_value_not_written_is_blanked_and_filled_from_the_answer():
    reference, answer = "It borders Canada and the United States.", "Limita con Canadá y Estados Unidos."
    with scripted_judge(_fills({"It borders Canada and the ___.": "Estados Unidos"})) as judge:
        canada, states = asyncio.run(reference_values(reference, answer))
    assert canada == {"value": "Canada", "found": True, "by": "text"}   # accents ignored
    assert states == {"value": "United States", "found": True, "by": "fill", "fill": "Estados Unidos"}
    assert judge.requests[0].messages[1][1].startswith(f"Context:\n{answer}\n\nSentence: It borders Canada and")


@pytest.mark.parametrize(("fill", "why"), [
    ("1813", "the judge knows the year, but the answer does not give it"),
    ("Jane Austen", "a value the blanked reference already shows"),
    ("", "no fill"),
])
def test_a_part_the_answer_leaves_out_is_not_found(fill, why):
    with scripted_judge(_fills({"Jane Austen; it was published in ___.": fill})):
        values = asyncio.run(reference_values("Jane Austen; it was published in 1813.", "Jane Austen."))
    assert [(v["value"], v["found"]) for v in values] == [("Jane Austen", True), ("1813", False)], why


@pytest.mark.parametrize(("reference", "answer", "blanked_reference", "fill", "translation"), [
    ("Jane Austen; it was published in 1813.", "Jane Austen; it was published in 1831.",
     "Jane Austen; it was published in ___.", "1831", None),
    ("Karl Marx and Friedrich Engels.", "Karl Marx and Vladimir Lenin.", "Karl Marx and ___.", "Lenin", None),
    # a number is a number in any language
    ("About 300,000 km per second.", "Circa 30.000 chilometri al secondo.", "About ___ km per second.", "30.000",
     "About 30,000 kilometres per second."),
])
def test_a_fill_that_differs_from_the_value_is_a_wrong_value_not_the_value(reference, answer, blanked_reference,
                                                                            fill, translation):
    # the judge copies what the answer says in the value's place: another year or name is not the value
    with scripted_judge(_fills({blanked_reference: fill})):
        values = asyncio.run(reference_values(reference, answer, translation, same_language=translation is None))
    wrong = values[-1]
    assert (wrong["found"], wrong.get("differs"), wrong["fill"]) == (False, True, fill)


def test_a_name_is_compared_letter_by_letter_only_within_one_language():
    # "Estados Unidos" is "United States": without both texts read as one language, another name counts
    reference, answer = "Karl Marx and Friedrich Engels.", "Karl Marx and Vladimir Lenin."
    with scripted_judge(_fills({"Karl Marx and ___.": "Lenin"})):
        assert asyncio.run(reference_values(reference, answer))[-1]["found"] is True


@pytest.mark.parametrize(("reference", "answer", "blanked_reference", "fill", "same"), [
    ("The United States and Canada.", "The US and Canada.", "The ___ and Canada.", "US", True),
    ("The United States and Canada.", "The USA and Canada.", "The ___ and Canada.", "USA", True),
    # another language's name for it cannot be compared letter by letter
    ("It borders Germany.", "Limita con Alemania.", "It borders ___.", "Alemania", False),
])
def test_a_fill_written_otherwise_still_gives_the_value(reference, answer, blanked_reference, fill, same):
    with scripted_judge(_fills({blanked_reference: fill})):
        values = asyncio.run(reference_values(reference, answer, same_language=same))
    assert values[0]["found"] and values[0]["by"] == "fill" and "differs" not in values[0]


def test_a_number_with_dots_grouping_thousands_is_written_in_the_answer():
    with scripted_judge(_fills({})) as judge:
        values = asyncio.run(reference_values("About 300,000 km per second.", "Circa 300.000 chilometri al secondo."))
    assert values == [{"value": "300,000", "found": True, "by": "text"}] and judge.requests == []


@pytest.mark.parametrize(("short", "name", "expected"), [
    ("US", "United States", True), ("USA", "United States", True), ("UK", "United Kingdom", True),
    ("US", "Canada", False), ("Usa", "United States", False), ("U", "United", False),
])
def test_initials_abbreviate_a_name(short, name, expected):
    assert abbreviates(short, name) is expected


def test_a_claim_already_capped_by_the_evidence_asks_no_blanks():
    # "Maren Dahl" is not in the context: capped at 0.3, which no fill could move.
    with scripted_judge(_fills({"In 1978 Maren Dahl switched to ___ steel car ferries.": "three"})) as judge:
        result = check("In 1978 Maren Dahl switched to three steel car ferries.", "context-faithfulness",
                       context=CONTEXT)
    assert result.value == pytest.approx(0.3) and "blanks" not in result.detail["claims"][0]
    assert all(r.options for r in judge.requests)


@pytest.mark.parametrize(("text", "items"), [
    ("Red, green and blue.", ["Red", "green", "blue"]),
    ("Lettuce, cherry tomatoes, cucumber and feta, with a lemon dressing.", ["Lettuce", "tomatoes", "cucumber",
                                                                           "feta"]),
    ("Breakfast and Wi-Fi are included; parking costs €12 per night.", ["Breakfast", "Wi-Fi"]),
    ("A pen and a non-programmable calculator.", ["pen", "calculator"]),
    ("Bring water, a map and sturdy boots or trainers.", ["water", "map", "boots", "trainers"]),
    ("It began in 1914 and ended in 1918.", []),          # clauses, not a list of things
    ("The primary colours of light are red, green and blue.", []),  # a long first part: not read
    ("180 degrees, and at most one right angle.", ["angle"]),       # "180 degrees": the number is the value
    ("Saturn, and yes, it is a gas giant.", ["Saturn"]),
    ("Email help@example.com or call us.", []),
    ("One hour, starting at 12:30.", []),                  # no "and" / "or": not a list
])
def test_list_items_are_read_as_their_head_words(text, items):
    found = list_items(text)
    assert [v.text for v in found] == items and all(text[v.start:v.end] == v.text for v in found)


def test_a_list_item_the_answer_leaves_out_is_not_found_and_one_written_otherwise_is():
    # the judge fills the blank from what it knows; the answer does not give it
    with scripted_judge(_fills({"Helium, neon and ___.": "argon"})):
        values = asyncio.run(reference_values("Helium, neon and argon.", "Helium, neon and nitrogen."))
    assert [(v["value"], v["found"]) for v in values] == [("Helium", True), ("neon", True), ("argon", False)]
    with scripted_judge(_fills({})) as judge:
        wifi = asyncio.run(reference_values("Breakfast and Wi-Fi are included.", "Breakfast and WiFi, both free."))
    assert [v["found"] for v in wifi] == [True, True] and judge.requests == []


def test_a_list_item_is_filled_from_the_translation_when_there_is_one():
    reference, answer = "Breakfast and Wi-Fi are included.", "Frühstück und WLAN sind inklusive."
    translation = "Breakfast and WLAN are included."
    with scripted_judge(_fills({"Breakfast and ___ are included.": "WLAN"})) as judge:
        breakfast, wifi = asyncio.run(reference_values(reference, answer, translation))
    assert breakfast["by"] == "translation" and wifi == {"value": "Wi-Fi", "found": True, "by": "fill", "fill": "WLAN"}
    assert judge.requests[0].messages[1][1].startswith(f"Context:\n{translation}\n")
