"""answer_correctness: statements, similarity, and the reference's values looked for in the answer
(scripted judge, the embedded embedding model)."""

import pytest

from agentunit import check
from agentunit.judges.base import JudgeReply
from agentunit.metrics._translation import LANGUAGE_NAMES, MIN_LANGUAGE_PROBABILITY, read_language, same_language
from tests.judge_helpers import pass_with, scripted_judge

REFERENCE = "Jane Austen; it was published in 1813."


def _judge(fill: str = ""):
    def respond(request):
        return pass_with(0.9) if request.options else JudgeReply(fill)
    return respond


def _correctness(answer: str, **config):
    with scripted_judge(_judge()):
        return check(answer, {"metric": "answer_correctness", "value": REFERENCE, "config": config})


def test_an_answer_that_leaves_a_value_out_is_scaled_by_the_share_it_gives():
    partial, unchecked = _correctness("Jane Austen."), _correctness("Jane Austen.", check_values=False)
    assert partial.value == pytest.approx(unchecked.value * 0.5)
    assert partial.reason.endswith("; × 0.50: the answer does not give 1813")
    assert [(v["value"], v["found"]) for v in partial.detail["values"]] == [("Jane Austen", True), ("1813", False)]
    assert unchecked.detail["values"] == []
    # one decision per sentence of either text (1 + 1), and one fill for the value not written
    assert (partial.detail["judge_calls"], unchecked.detail["judge_calls"]) == (3, 2)


def test_an_answer_that_gives_every_value_is_not_scaled():
    whole = _correctness("Jane Austen wrote it; it came out in 1813.")
    assert whole.value == pytest.approx(_correctness("Jane Austen wrote it; it came out in 1813.",
                                                     check_values=False).value)
    assert "does not give" not in whole.reason and all(v["found"] for v in whole.detail["values"])


@pytest.mark.parametrize(("reference", "answer", "fill"), [
    ("Russia first, then Canada.", "Russia first, then China.", "China"),   # both read as English
    (REFERENCE, "Jane Austen; it was published in 1831.", "1831"),
])
def test_a_value_the_answer_gives_wrongly_is_not_given(reference, answer, fill):
    # the judge fills the blank with what the answer says there: another name or number is a wrong value
    with scripted_judge(_judge(fill)):
        result = check(answer, {"metric": "answer_correctness", "value": reference})
    wrong = result.detail["values"][-1]
    assert (wrong["found"], wrong.get("differs"), wrong["fill"]) == (False, True, fill)
    assert result.reason.endswith(f"does not give {reference.split()[-1].rstrip('.')}")


def test_a_name_in_an_answer_whose_language_is_not_read_is_not_called_wrong():
    # "Alemania." reads as Polish with P 0.15: nothing says the answer is in the reference's language,
    # so the judge's fill is not compared with "Germany" letter by letter
    with scripted_judge(_judge("Alemania")):
        result = check("Alemania.", {"metric": "answer_correctness", "value": "It borders Germany."})
    assert [(v["found"], v["by"]) for v in result.detail["values"]] == [(True, "fill")]


@pytest.mark.parametrize(("answer", "same"), [
    ("It is Germany.", True),                    # English, P 0.81 and 0.70
    ("Es ist Deutschland, sagte er.", False),   # German
    ("Then the Rhine.", False),                  # English, but P 0.42
])
def test_two_texts_read_confidently_as_one_language_are_the_same_language(answer, same):
    assert same_language(answer, "It borders Germany.") is same


def _translating_judge(translation: str, asked: list):
    def respond(request):
        if request.options:
            asked.append(request.messages[-1][1])
            asked_about = request.messages[-1][1]
            return pass_with(0.05 if "boxes" in asked_about else 0.3 if "Rojo" in asked_about else 0.9)
        if "Translate into" in request.messages[-1][1]:
            asked.append(request.messages[-1][1])
            return JudgeReply(translation)
        return JudgeReply("")
    return respond


def _colours(answer: str, translation: str = "Red, green and blue.", **config):
    """The reading of a translated answer, its list items not looked for (``check_values`` off) unless asked."""
    asked: list = []
    with scripted_judge(_translating_judge(translation, asked)):
        result = check(answer, {"metric": "answer_correctness", "value": "Red, green and blue.",
                                "config": {"check_values": False, **config}})
    return result, asked


def test_an_answer_in_another_language_is_read_as_written_and_translated_and_the_better_reading_kept():
    translated, asked = _colours("Rojo, verde y azul.")
    assert asked[0] == "Translate into English:\n\nRojo, verde y azul."
    assert translated.detail["translation"] == {"from": "es", "to": "en", "text": "Red, green and blue."}
    assert "(the answer translated: the better of it as written and translated from es to en)" in translated.reason
    assert translated.detail["read"] == "translated" and "Rojo" not in str(translated.detail["answer_statements"])
    assert len(asked) == 1 + 2 + 2  # the translation, then a decision per sentence of either text, each reading
    assert translated.detail["judge_calls"] == 5
    assert translated.detail["similarity"] == pytest.approx(1.0, abs=1e-3)
    untranslated, asked = _colours("Rojo, verde y azul.", translate=False)
    assert untranslated.detail["translation"] is None and not any("Translate" in q for q in asked)
    assert untranslated.detail["read"] == "as written" and untranslated.detail["similarity"] < 0.9
    assert translated.value > untranslated.value + 0.3  # the statements and the embeddings read English
    # a translation that reads worse than the answer as written is not used
    garbled, _ = _colours("Rojo, verde y azul.", translation="Red boxes.")
    assert garbled.detail["read"] == "as written" and "(the answer as written: the better of it" in garbled.reason
    assert garbled.value == pytest.approx(untranslated.value)


def test_a_value_written_only_in_the_translation_counts_as_given():
    asked: list = []
    with scripted_judge(_translating_judge("Canada and the United States.", asked)):
        spec = {"metric": "answer_correctness", "value": "Canada and the United States."}
        result = check("Canadá y Estados Unidos.", spec)
    by = {v["value"]: v["by"] for v in result.detail["values"]}
    assert by == {"Canada": "text", "United States": "translation"} and "does not give" not in result.reason


def test_list_items_are_looked_for_in_the_answer_and_its_translation():
    whole, _ = _colours("Rojo, verde y azul.", check_values=True)
    assert [(v["value"], v["by"]) for v in whole.detail["values"]] == [("Red", "translation"), ("green", "translation"),
                                                                       ("blue", "translation")]
    partial, _ = _colours("Rojo y verde.", translation="Red and green.", check_values=True)
    assert partial.reason.endswith("× 0.67: the answer does not give blue")


def test_answers_in_the_reference_language_or_of_unreadable_language_are_not_translated():
    same, asked = _colours("Red, green, and also blue.")
    assert same.detail["translation"] is None and not any("Translate" in q for q in asked)
    short, asked = _colours("Rojo.")  # too short to read its language with confidence
    assert short.detail["translation"] is None and not any("Translate" in q for q in asked)


def test_an_empty_translation_leaves_the_answer_as_written():
    kept, asked = _colours("Rojo, verde y azul.", translation="  ")
    assert kept.detail["translation"] == {"from": "es", "to": "en", "text": ""}
    assert kept.detail["read"] == "as written" and "translation from es to en came back empty" in kept.reason
    assert kept.detail["judge_calls"] == len(asked) == 1 + 2  # the translation was asked for and is counted


@pytest.mark.parametrize("text", ["Rojo, verde y azul.", "Von Montag bis Freitag geöffnet, samstags bis 16 Uhr."])
def test_the_language_is_read_among_common_languages_with_its_probability(text):
    language, probability = read_language(text)
    assert language in LANGUAGE_NAMES and language != "en" and probability >= MIN_LANGUAGE_PROBABILITY
    assert read_language("Jane Austen.")[1] < MIN_LANGUAGE_PROBABILITY


def test_an_answer_that_swaps_the_references_parts_is_halved():
    reference = "Canberra is the capital; Sydney is the largest city."
    with scripted_judge(_judge()):
        swapped = check("Sydney is the capital; Canberra is the largest city.",
                        {"metric": "answer_correctness", "value": reference})
        unchecked = check("Sydney is the capital; Canberra is the largest city.",
                          {"metric": "answer_correctness", "value": reference, "config": {"check_values": False}})
    assert swapped.detail["swapped"] == ["Sydney is the capital", "Canberra is the largest city"]
    assert swapped.value == pytest.approx(unchecked.value * 0.5) and unchecked.detail["swapped"] == []
    assert "× 0.50: the answer attaches the reference's values to other parts: \"Sydney is the capital\"" \
        in swapped.reason


def test_an_answer_that_gives_a_stated_order_otherwise_is_halved():
    reference, answer = "The Volga, then the Danube.", "The Danube, then the Volga."
    with scripted_judge(_judge()):
        turned = check(answer, {"metric": "answer_correctness", "value": reference})
        unchecked = check(answer, {"metric": "answer_correctness", "value": reference,
                                   "config": {"check_values": False}})
        kept = check("The Volga comes first, followed by the Danube.",
                     {"metric": "answer_correctness", "value": reference})
    assert turned.detail["reordered"] == ["the Danube", "The Volga"] and turned.detail["swapped"] == []
    assert turned.value == pytest.approx(unchecked.value * 0.5) and unchecked.detail["reordered"] == []
    assert turned.reason.endswith("× 0.50: the answer gives the reference's order otherwise: the Danube, The Volga")
    assert kept.detail["reordered"] == []


def test_an_answer_read_translated_is_not_checked_for_swapped_parts():
    asked: list = []
    spanish = "Sydney es la capital; Canberra es la ciudad más grande de Australia."
    with scripted_judge(_translating_judge("Sydney is the capital; Canberra is the largest city.", asked)):
        result = check(spanish, {"metric": "answer_correctness",
                                 "value": "Canberra is the capital; Sydney is the largest city."})
    assert result.detail["translation"]["from"] == "es" and result.detail["swapped"] == []
