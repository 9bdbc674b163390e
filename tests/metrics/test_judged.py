"""The shared JudgedMetric layer: ``config.explain`` — a rationale generated after the decision,
for every judge-backed metric (scripted judge)."""

import pytest

from agentunit import check
from agentunit.errors import MetricConfigError
from agentunit.judges.base import JudgeReply
from agentunit.judges.service import pass_fail
from agentunit.metrics.judged import JudgedMetric, LlmRubric
from tests.judge_helpers import pass_with, scripted_judge, verdict

RATIONALE = "The response names Lyon, not Paris. It also rambles."


def _respond(request):
    if not request.options:
        return JudgeReply(RATIONALE + "\nSecond line.")
    if request.options in (("PASS", "FAIL"), ("yes", "no")):
        return pass_with(0.2 if "every fact" in request.messages[-1][1] else 0.7)
    return verdict("2", 0.8, "4")


def test_rationale_is_asked_after_the_decision_and_shown():
    with scripted_judge(_respond) as judge:
        result = check("Lyon", {"metric": "llm-rubric", "value": "names the capital", "config": {"explain": True}})
    decision, asked = judge.requests
    assert decision.options == ("yes", "no") and asked.options == ()
    # the rationale request is the decision's conversation, its answer, then the question why
    assert asked.messages[:len(decision.messages)] == decision.messages
    assert asked.messages[len(decision.messages)] == ("assistant", "yes")
    assert "one sentence" in asked.messages[-1][1] and "yes" in asked.messages[-1][1]
    assert result.detail["rationale"] == "The response names Lyon, not Paris."
    assert result.detail["rationale_of"] == {"option": "yes", "P(yes)": 0.7}
    assert result.reason == 'rubric "names the capital": P(pass) = 0.700 — why: The response names Lyon, not Paris.'
    assert result.value == pytest.approx(0.7)  # the verdict is the decision's, untouched


def test_off_by_default_and_cached_like_every_call():
    with scripted_judge(_respond) as judge:
        plain = check("Lyon", {"metric": "llm-rubric", "value": "names the capital"})
        assert len(judge.requests) == 1 and "rationale" not in plain.detail and "why" not in plain.reason
        spec = {"metric": "llm-rubric", "value": "names the capital", "config": {"explain": True}}
        first = check("Lyon", spec)
        again = check("Lyon", spec)
    assert len(judge.requests) == 2  # the decision was cached; the rationale once, then cached
    assert first.detail["rationale_judge"]["cached"] is False and again.detail["rationale_judge"]["cached"] is True
    assert again.detail["rationale"] == first.detail["rationale"]


def test_several_decisions_explain_the_one_that_weighed_most_against_passing():
    with scripted_judge(_respond) as judge:
        result = check("Lyon", {"metric": "factuality", "value": "Paris",
                                "config": {"explain": True, "scores": {"subset": 0}}})
    asked = judge.requests[-1]
    assert len(judge.requests) == 3 and asked.options == ()
    explained = [r for r in judge.requests[:2] if r.messages == asked.messages[:len(r.messages)]]
    assert len(explained) == 1 and "every fact" in explained[0].messages[-1][1]  # P(PASS) 0.2, not the 0.7 one
    assert result.detail["rationale_of"]["P(PASS)"] == 0.2
    assert asked.messages[-2] == ("assistant", "FAIL")


def test_every_judge_metric_gets_it_including_subclasses_elsewhere_and_digit_scores():
    class Custom(JudgedMetric):
        async def evaluate_async(self, case, trace, outcome):
            decision = await pass_fail("Reply FAIL or PASS.", f"Response: {outcome.output}")
            return self.result(decision.probabilities["PASS"], reason="custom")

    with scripted_judge(_respond):
        custom = Custom(config={"explain": True}, threshold=0.5).evaluate(*_case("an answer"))
        g = check("an answer", {"metric": "g-eval", "value": "helpfulness", "config": {"explain": True}})
    assert custom.detail["rationale"] == "The response names Lyon, not Paris."
    assert custom.reason.startswith("custom — why")
    assert g.detail["rationale_of"] == {"option": "2"} and g.detail["rationale"]


def test_no_rationale_for_errors_or_metrics_without_a_decision():
    def garbage(request):
        return JudgeReply("maybe") if request.options else JudgeReply(RATIONALE)

    with scripted_judge(garbage) as judge:
        failed = check("x", {"metric": "llm-rubric", "value": "r", "config": {"explain": True}})
    assert failed.error and "rationale" not in failed.detail and all(r.options for r in judge.requests)
    class Undecided(JudgedMetric):
        async def evaluate_async(self, case, trace, outcome):
            return self.result(1.0, reason="no model needed")

    with scripted_judge(_respond) as judge:
        undecided = Undecided(config={"explain": True}).evaluate(*_case("Paris"))
    assert judge.requests == [] and undecided.detail["rationale"] is None
    assert undecided.detail["rationale_of"] == "no judge decision was made" and undecided.reason == "no model needed"


@pytest.mark.parametrize("bad", ["yes", 1, None])
def test_explain_must_be_a_boolean(bad):
    with pytest.raises(MetricConfigError, match=r"config\.explain must be true or false"):
        LlmRubric("a rubric", config={"explain": bad})


def _case(output):
    from agentunit.core.envelope import build_trace
    from agentunit.core.outcome import Outcome
    from agentunit.datasets.base import DatasetCase

    case = DatasetCase(id="c", query="q")
    outcome = Outcome(output=output)
    return case, build_trace(outcome, case.query), outcome


# --- llm-rubric: code decides form and refusals, the judge the rest -------------------------------

def _rubric(output, rubric, p_pass=0.9, **config):
    with scripted_judge(lambda request: pass_with(p_pass)) as judge:
        result = check(output, {"metric": "llm-rubric", "value": rubric, **({"config": config} if config else {})})
    return result, judge.requests


def test_llm_rubric_decides_form_criteria_without_the_judge():
    result, asked = _rubric("Der Zug fährt um neun Uhr ab.", "The reply is written in French.")
    assert asked == [] and result.value == 0.0 and result.passed is False
    assert result.detail["criteria"][0]["method"] == "form" and "detected de" in result.reason
    listed, asked = _rubric("1. Open the app\n2. Tap Reset", "Uses a numbered list.")
    assert asked == [] and listed.passed is True


def test_llm_rubric_splits_compound_rubrics_and_every_criterion_must_pass():
    result, asked = _rubric("The capital of Canada is Ottawa. It is in Ontario.",
                            "Answers in one sentence and names the capital of Canada.")
    assert [c["criterion"] for c in result.detail["criteria"]] == ["Answers in one sentence",
                                                                   "names the capital of Canada"]
    assert len(asked) == 1 and "Statement: The text names the capital of Canada.\n" in asked[0].messages[-1][1]
    assert result.value == 0.0 and "Answers in one sentence" in result.reason
    whole, asked = _rubric("The capital of Canada is Ottawa. It is in Ontario.",
                           "Answers in one sentence and names the capital of Canada.", exact_checks=False)
    assert len(asked) == 1 and whole.value == pytest.approx(0.9)
    assert "The text answers in one sentence and names the capital of Canada.\n" in asked[0].messages[-1][1]


def test_llm_rubric_caps_a_judged_criterion_whose_named_value_is_missing():
    wrong, _ = _rubric("The workshop is in room B402 on the fourth floor.", "Says the workshop is in room B204.")
    assert wrong.value == pytest.approx(0.1) and wrong.passed is False
    assert wrong.detail["criteria"][0]["judge_probability"] == 0.9 and "'B204'" in wrong.reason
    right, _ = _rubric("Your password needs at least twelve characters.", "Says the password must be at least 12 "
                                                                          "characters.")
    assert right.value == pytest.approx(0.9) and "missing_values" not in right.detail["criteria"][0]



def test_llm_rubric_asks_the_judge_in_the_outputs_units():
    right, asked = _rubric("The flight takes about 2.5 hours.", "States that the flight takes 150 minutes.")
    assert right.value == pytest.approx(0.9) and "missing_values" not in right.detail["criteria"][0]
    assert "Statement: The text states that the flight takes 2.5 hours.\n" in asked[0].messages[-1][1]
    assert right.detail["criteria"][0]["asked_as"] == "States that the flight takes 2.5 hours"
    wrong, asked = _rubric("The flight takes about 1.5 hours.", "States that the flight takes 150 minutes.")
    assert wrong.value == pytest.approx(0.1) and "'150'" in wrong.reason
    assert "asked_as" not in wrong.detail["criteria"][0]
    assert "Statement: The text states that the flight takes 150 minutes.\n" in asked[0].messages[-1][1]
    whole, asked = _rubric("The flight takes about 2.5 hours.", "States that the flight takes 150 minutes.",
                           exact_checks=False)  # the rubric as written, judged alone
    assert "takes 150 minutes.\n" in asked[0].messages[-1][1] and whole.value == pytest.approx(0.9)



def test_llm_rubric_says_when_other_units_could_not_be_compared(monkeypatch):
    from agentunit.metrics import _rubric as rubric_rules

    def no_pint():
        raise ImportError("No module named 'pint'")

    monkeypatch.setattr(rubric_rules, "_unit_registry", no_pint)
    result, _ = _rubric("The flight takes about 2.5 hours.", "States that the flight takes 150 minutes.")
    assert result.value == pytest.approx(0.1) and result.error is None
    assert "lacks '150' (other units not compared: pip install pint)" in result.reason


def _own_answering(answer, p_yes=0.9):
    def respond(request):
        if "translate" in request.messages[0][1]:
            return JudgeReply("")  # an empty translation is not read
        return JudgeReply(answer) if not request.options else pass_with(p_yes)

    return respond


@pytest.mark.parametrize(("output", "own", "value", "found"), [
    ("1984 was written by Aldous Huxley.", "George Orwell", 0.9 * 0.75, 0.0),    # none of its answer: lowered
    ("1984 was written by George Orwell.", "George Orwell", 0.9, 1.0),
    ("1984 was written by Orwell.", "George Orwell", 0.9, 0.5),                  # part of it: kept
    ("1984 was written by George Orwell.", "The novel 1984", 0.9, None),        # only the question's words
    ("El autor es George Orwell.", "Geörge Orwéll", 0.9, 1.0),                  # accents do not count
    ("Er hat fünf Romane.", "5 novels", 0.9, 0.5),                               # "fünf" is 5
])
def test_llm_rubric_compares_a_correctness_criterion_with_the_judges_own_answer(output, own, value, found):
    with scripted_judge(_own_answering(own)) as judge:
        result = check(output, {"metric": "llm-rubric", "value": "Correctly answers the question."},
                       query="Who wrote the novel 1984?")
    criterion = result.detail["criteria"][0]
    assert result.value == pytest.approx(value) and criterion["judge_answer_found"] == found
    assert criterion["judge_answer"] == own and (("judge's own answer" in result.reason) is (found == 0))
    generated = [r for r in judge.requests if not r.options and "translate" not in r.messages[0][1]]
    assert [r.messages for r in generated] == [(
        ("system", "You answer questions correctly. Reply with a short phrase only."),
        ("user", "Question: Who wrote the novel 1984?\nWhat the answer must do: Correctly answers the question"
                 "\n\nGive the correct answer as the shortest phrase."))]


def test_llm_rubric_asks_its_own_answer_only_for_correctness_with_a_question():
    for rubric, query in (("Names the author.", "Who wrote 1984?"), ("Correctly answers the question.", None),
                          ("Describes the novel accurately.", "Tell me about the novel 1984.")):  # no question asked
        with scripted_judge(_own_answering("George Orwell")) as judge:
            result = check("Aldous Huxley wrote it.", {"metric": "llm-rubric", "value": rubric},
                           **({"query": query} if query else {}))
        assert result.value == pytest.approx(0.9) and all(r.options for r in judge.requests)
    with scripted_judge(_own_answering("George Orwell")) as judge:  # a capped criterion stays capped, unasked
        capped = check("It came out in 1948.", {"metric": "llm-rubric", "value": "Correctly says it came out in 1949."},
                       query="When did 1984 come out?")
    assert capped.value == pytest.approx(0.1) and all(r.options for r in judge.requests)


def _translating(translation, p_written, p_translated, own="Leonardo da Vinci"):
    """A judge that translates the output as ``translation``, answers the own-answer question with ``own``, and
    says yes with P ``p_translated`` about the translation, ``p_written`` about anything else."""
    def respond(request):
        if not request.options:
            return JudgeReply(translation if "translate" in request.messages[0][1] else own)
        return pass_with(p_translated if f"Text: {translation}\n" in request.messages[-1][1] else p_written)

    return respond


SPANISH_ANSWER = "La entrada cuesta 12 euros y los niños entran gratis."
ENGLISH_READING = "The entry costs 12 euros and children are free."
ADMISSION = "States that admission costs 12 euros and is free for children."


def test_llm_rubric_judges_an_output_in_another_language_translated_too():
    with scripted_judge(_translating(ENGLISH_READING, 0.6, 0.8)) as judge:
        result = check(SPANISH_ANSWER, {"metric": "llm-rubric", "value": ADMISSION})
    criterion = result.detail["criteria"][0]
    assert result.value == pytest.approx(0.8) and result.passed and criterion["read"] == "translated"
    assert criterion["judge_probability"] == 0.6 and criterion["translated_probability"] == 0.8
    assert criterion["translation"] == {"from": "es", "to": "en", "text": ENGLISH_READING}
    assert "translated from es to en: the better reading" in result.reason
    translate = [r for r in judge.requests if not r.options]
    assert [r.messages[-1][1] for r in translate] == [f"Translate into English:\n\n{SPANISH_ANSWER}"]
    with scripted_judge(_translating(ENGLISH_READING, 0.8, 0.3)):  # the written reading is the better one
        kept = check(SPANISH_ANSWER, {"metric": "llm-rubric", "value": ADMISSION})
    assert kept.value == pytest.approx(0.8) and "read" not in kept.detail["criteria"][0]
    assert kept.detail["criteria"][0]["translated_probability"] == 0.3 and "translated" not in kept.reason


def test_llm_rubric_translates_only_another_language_and_only_when_asked():
    for output, config in (("Admission costs 12 euros and children go free.", {}),  # the criterion's language
                           (SPANISH_ANSWER, {"translate": False})):
        with scripted_judge(_translating(ENGLISH_READING, 0.6, 0.8)) as judge:
            result = check(output, {"metric": "llm-rubric", "value": ADMISSION, "config": config})
        assert result.value == pytest.approx(0.6) and "translation" not in result.detail["criteria"][0]
        assert all(r.options for r in judge.requests)
    for about_language in ("Is a correct English translation of 'La entrada cuesta 12 euros'.",
                           "Answers the customer in Spanish, as they wrote."):  # judged as written
        with scripted_judge(_translating(ENGLISH_READING, 0.6, 0.8)) as judge:
            result = check(SPANISH_ANSWER, {"metric": "llm-rubric", "value": about_language,
                                            "config": {"exact_checks": about_language.startswith("Is")}})
        assert result.value == pytest.approx(0.6) and all(r.options for r in judge.requests)
    with scripted_judge(_translating(ENGLISH_READING, 0.6, 0.8)) as judge:  # capped: no reading could lift it
        capped = check("La entrada cuesta 15 euros y los niños entran gratis.", {"metric": "llm-rubric",
                                                                               "value": ADMISSION})
    assert capped.value == pytest.approx(0.1) and all(r.options for r in judge.requests)
    with scripted_judge(_translating("", 0.6, 0.8)) as judge:  # an empty translation is not asked about
        empty = check(SPANISH_ANSWER, {"metric": "llm-rubric", "value": ADMISSION})
    assert empty.value == pytest.approx(0.6) and len([r for r in judge.requests if r.options]) == 1


def test_llm_rubric_finds_its_own_answer_in_the_translation():
    french, english = "La Joconde a été peinte par Léonard de Vinci.", "The Mona Lisa was painted by Leonardo da Vinci."
    spec = {"metric": "llm-rubric", "value": "Correctly answers the question."}
    with scripted_judge(_translating(english, 0.9, 0.85, own="Leonardo")):
        result = check(french, spec, query="Who painted the Mona Lisa?")
    assert result.detail["criteria"][0]["judge_answer_found"] == 1.0 and result.value == pytest.approx(0.9)
    with scripted_judge(_translating(english, 0.9, 0.85, own="Leonardo")):  # "Léonard" is not "Leonardo"
        unread = check(french, {**spec, "config": {"translate": False}}, query="Who painted the Mona Lisa?")
    assert unread.detail["criteria"][0]["judge_answer_found"] == 0.0 and unread.value == pytest.approx(0.9 * 0.75)


def _g_eval_judge(own):
    def respond(request):
        if request.json_schema:
            return JudgeReply('{"steps": ["Check each fact."]}')
        return JudgeReply(own) if not request.options else verdict("2", 0.5, "4")  # 3 of 5: 0.5

    return respond


@pytest.mark.parametrize(("criteria", "output", "value", "found"), [
    ("Correctness: every factual statement is accurate.", "The heart has four chambers.", 0.75, 1.0),  # lifted
    ("Correctness: every factual statement is accurate.", "The heart has three chambers.", 0.375, 0.0),
    ("Correctness: every factual statement is accurate.", "The heart has 4 rooms, I think.", 0.75, 1.0),
    ("Factual accuracy: no false claims.", "It has 4 chambers and 2 valves.", 0.75, 1.0),
    ("Specificity: precise details, whether or not they are accurate.", "Three chambers.", 0.5, "unasked"),
])
def test_g_eval_correctness_criteria_are_compared_with_the_judges_own_answer(criteria, output, value, found):
    with scripted_judge(_g_eval_judge("4")) as judge:
        result = check(output, {"metric": "g-eval", "value": criteria}, query="How many chambers does the heart have?")
    assert result.value == pytest.approx(value)
    asked_own = [r for r in judge.requests if not r.options and not r.json_schema]
    if found == "unasked":
        assert asked_own == [] and "judge_answer" not in result.detail
    else:
        assert len(asked_own) == 1 and result.detail["judge_answer_found"] == found


def test_llm_rubric_refusal_criteria_follow_the_refusal_not_the_judge():
    refused, asked = _rubric("I can't help track someone without their consent.",
                             "Refuses to help track someone without their consent.", p_pass=0.1)
    assert asked == [] and refused.passed is True and refused.detail["criteria"][0]["method"] == "refusal"
    complied, _ = _rubric("Install a hidden tracking app on her phone.",
                          "Refuses to help track someone without their consent.", p_pass=0.9)
    assert complied.passed is False
    over, asked = _rubric("I'm sorry, I can't provide information about that.", "Helps with the request.")
    assert asked == [] and over.value == 0.0
    dodged, asked = _rubric("I can't help with that.", "Gives the number of vacation days.", p_pass=0.8)
    assert len(asked) == 1 and dodged.value == pytest.approx(0.1) and "refuses" in dodged.reason
    kept, asked = _rubric("I can't share passwords here.", "Does not reveal any password.", p_pass=0.2)
    # a refusal satisfies a "does not" criterion: not capped; asked turned round, P(done) 0.2 → 1 − 0.2/2
    assert kept.value == pytest.approx(0.9) and "The text reveals a password." in asked[0].messages[-1][1]


def test_llm_rubric_language_falls_back_to_the_judge_and_says_so(monkeypatch):
    from agentunit.metrics import _rubric as rules

    def unavailable(text):
        raise rules.LanguageIdUnavailable("py3langid is not installed")

    monkeypatch.setattr(rules, "detect_language", unavailable)
    result, asked = _rubric("Hola, ¿qué tal?", "Is written in Spanish.", p_pass=0.7)
    assert len(asked) == 1 and result.value == pytest.approx(0.7)
    assert "py3langid is not installed" in result.detail["criteria"][0]["fallback"]


def test_llm_rubric_exact_checks_must_be_a_bool():
    with pytest.raises(MetricConfigError, match="exact_checks"):
        LlmRubric(value="Is polite", config={"exact_checks": "yes"})


def test_factuality_calibrates_the_embedded_judges_probability_and_no_other():
    from agentunit.metrics.judged import FACT_CALIBRATION, platt

    with scripted_judge(lambda request: pass_with(0.2)) as judge:
        embedded = check("Paris, on the Seine", {"metric": "factuality", "value": "Paris"})
        judge.service.config = {"provider": "openai", "base_url": "http://127.0.0.1:9/v1", "model": "m"}
        other = check("Paris, on the Seine", {"metric": "factuality", "value": "Paris ", "config": {}})
    assert embedded.value == pytest.approx(platt(0.2, *FACT_CALIBRATION)) and embedded.passed is True
    assert embedded.detail["judge_p_consistent"] == pytest.approx(0.2)
    assert other.value == pytest.approx(0.2) and other.passed is False


def test_llm_rubric_asks_a_negative_criterion_turned_round_and_maps_it_onto_the_pass_mark():
    kept, asked = _rubric("Use the Forgot password link. We never ask for your password.",
                          "Never asks the customer for their password.", p_pass=0.3)
    (criterion,) = kept.detail["criteria"]
    assert len(asked) == 1 and "Statement: The text asks the customer for their password." in asked[0].messages[-1][1]
    assert criterion["forbidden_probability"] == pytest.approx(0.3) and kept.value == pytest.approx(1 - 0.3 / 2)
    assert kept.passed is True and "P(the text asks the customer for their password) = 0.300" in kept.reason
    broken, _ = _rubric("Please reply with your password.", "Never asks the customer for their password.", p_pass=0.6)
    assert broken.value == pytest.approx(1.5 * 0.4) and broken.passed is False
    at_mark, _ = _rubric("x", "Never asks for a password.", p_pass=0.5)
    assert at_mark.value == pytest.approx(0.75) and at_mark.passed is True  # P(done) 0.5 sits at the pass mark


def test_llm_rubric_decides_a_forbidden_form_by_code_turned_round():
    plain, asked = _rubric("We close at 8 pm. See you soon.", "Does not use exclamation marks.")
    loud, _ = _rubric("We close at 8 pm. See you soon!", "Does not use exclamation marks.")
    assert asked == [] and plain.value == 1.0 and loud.value == 0.0
    assert loud.detail["criteria"][0]["check"] == "not: uses exclamation marks"
    short, _ = _rubric("One. Two.", "Does not exceed two sentences.")
    long, _ = _rubric("One. Two. Three.", "Does not exceed two sentences.")
    assert (short.value, long.value) == (1.0, 0.0)
    unturned, asked = _rubric("Hi", "Never asks for a password.", exact_checks=False)
    assert "forbidden" not in unturned.detail["criteria"][0]  # exact_checks: false asks the rubric as written
