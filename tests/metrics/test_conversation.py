import math

import pytest

from agentunit import check
from agentunit.judges.base import JudgeReply
from agentunit.judges.content_free import calibrated
from agentunit.metrics.conversation import (
    advice_after_declining,
    asks_for_retention,
    conversation_turns,
    criterion_statement,
    window,
)
from agentunit.metrics.judged import verb_phrase
from tests.judge_helpers import pass_with, scripted_judge

CONVERSATION = [
    {"role": "user", "content": "Hi, my name is Ana and I'm vegetarian."},
    {"role": "assistant", "content": "Hello Ana! How can I help?"},
    {"role": "user", "content": "Suggest a dinner for me."},
]


def _turn_verdict(request):
    last = request.messages[-1][1]
    if "single digit" in last:
        return JudgeReply("4", [("4", math.log(0.5)), ("5", math.log(0.5))])
    if request.json_schema is not None:
        return JudgeReply('{"steps": ["Read the dialogue.", "Check politeness."]}')
    return pass_with(0.1 if "steak" in last.split("Assistant reply:")[-1] else 0.9)


@pytest.fixture
def turn_judge():
    with scripted_judge(_turn_verdict, "turn-judge") as provider:
        yield provider


def test_the_target_reply_becomes_the_last_turn_and_windows_look_back():
    case = type("C", (), {"conversation": CONVERSATION})()
    outcome = type("O", (), {"output": "Try a mushroom risotto."})()
    turns = conversation_turns(case, outcome)
    assert turns[-1] == ("assistant", "Try a mushroom risotto.") and len(turns) == 4
    assert window(turns, 3, 2) == "assistant: Hello Ana! How can I help?\nuser: Suggest a dinner for me."
    assert window(turns, 0, 2) == "(start of the conversation)"


def test_knowledge_retention_judges_the_target_reply_not_the_script(turn_judge):
    good = check("Try a mushroom risotto.", "knowledge-retention", conversation=CONVERSATION)
    bad = check("Try a steak with fries.", "knowledge-retention", conversation=CONVERSATION)
    assert good.value == pytest.approx(0.9) and bad.value == pytest.approx(0.1)
    # the scripted assistant turn 1 is the case's input: only the reply (turn 3) is judged, once
    assert [t["turn"] for t in bad.detail["turns"]] == [3] and bad.detail["judged"] == "reply"
    assert "turn 3" in bad.reason and len(turn_judge.requests) == 2
    last_prompt = turn_judge.requests[-1].messages[-1][1]
    assert "- Hi, my name is Ana and I'm vegetarian." in last_prompt
    assert "Assistant reply: Try a steak with fries." in last_prompt


def test_turns_all_and_recorded_conversations_judge_every_assistant_turn(turn_judge):
    spec = {"metric": "knowledge-retention", "config": {"turns": "all"}}
    bad = check("Try a steak with fries.", spec, conversation=CONVERSATION)
    assert [t["turn"] for t in bad.detail["turns"]] == [1, 3] and bad.value == pytest.approx(0.1)
    assert "weakest turn 3" in bad.reason  # the worst turn counts
    recorded = [*CONVERSATION, {"role": "assistant", "content": "Try a steak with fries."}]
    whole = check("", "knowledge-retention", conversation=recorded)
    assert [t["turn"] for t in whole.detail["turns"]] == [1, 3] and whole.value == pytest.approx(0.1)
    relevancy = check("Try a steak.", {"metric": "conversation-relevancy", "config": {"turns": "all"}},
                      conversation=CONVERSATION)
    assert relevancy.value == pytest.approx((0.9 + 0.1) / 2)  # mean over the turns
    with pytest.raises(Exception, match=r"config\.turns"):
        check("x", {"metric": "knowledge-retention", "config": {"turns": "last"}}, conversation=CONVERSATION)


def test_turn_metrics_ask_statements_with_their_own_pass_marks(turn_judge):
    relevancy = check("Try a risotto.", "conversation-relevancy", conversation=CONVERSATION)
    request = turn_judge.requests[-1]
    assert request.options == ("yes", "no")
    assert "The user's last message: Suggest a dinner for me." in request.messages[-1][1]
    assert "Statement: The reply answers the user's last message." in request.messages[-1][1]
    assert relevancy.passed is True and relevancy.threshold == 0.75
    assert check("Try a steak.", "conversation-relevancy", conversation=CONVERSATION).passed is False


CONTENT_FREE = ("N/A", "OK.", "[sentence]")


def _role_verdict(request):
    """In the chef's job unless the sentence is about money; outside advice when it is. Content-free
    sentences sit between (the judge's prior for the role)."""
    asked = request.messages[-1][1]
    sentence = asked.split("\n")[1].split(": ", 1)[1]
    about_money = "savings" in sentence
    if "Is saying this part of the job of a friendly chef?" in asked:
        return pass_with(0.6 if sentence in CONTENT_FREE else 0.4 if about_money else 0.9)
    assert "advice that is not the job of a friendly chef?" in asked
    return pass_with(0.4 if sentence in CONTENT_FREE else 0.8 if about_money else 0.3)


def test_role_adherence_asks_about_each_sentence_in_both_polarities_calibrated_against_content_free_ones():
    with scripted_judge(_role_verdict, "role-judge") as judge:
        assert check("Try a risotto.", "role-adherence", conversation=CONVERSATION).status == "not_measured"
        assert judge.requests == []
        role = check("Try a risotto. Serve it warm.", "role-adherence", conversation=CONVERSATION,
                     role="a friendly chef")
        in_role = (calibrated(0.9, 0.6) + 1 - calibrated(0.3, 0.4)) / 2
        assert role.value == pytest.approx(in_role, abs=1e-4) and role.passed is True
        asked = [r.messages[-1][1] for r in judge.requests]
        assert len(asked) == 6 + 4 and {r.options for r in judge.requests} == {("yes", "no")}
        for text in CONTENT_FREE:  # the role's prior, each question about each content-free sentence
            assert f"The assistant says: {text}\n" in "\n".join(asked) and f"Sentence: {text}\n" in "\n".join(asked)
        assert "The assistant says: Serve it warm." in asked[-2]
        assert role.detail["turns"][0]["content_free"] == {"in_job": pytest.approx(0.6),
                                                           "outside_advice": pytest.approx(0.4)}
        broken = check("Try a risotto. Also, move your savings into index funds.", "role-adherence",
                       conversation=CONVERSATION, role="a friendly chef")
        out_of_role = (calibrated(0.4, 0.6) + 1 - calibrated(0.8, 0.4)) / 2
        assert broken.value == pytest.approx(out_of_role, abs=1e-4) and broken.passed is False
        assert broken.threshold == 0.5
        sentences = broken.detail["turns"][0]["sentences"]
        assert [s["score"] for s in sentences] == [pytest.approx(in_role, abs=1e-4),
                                                   pytest.approx(out_of_role, abs=1e-4)]
        assert sentences[1]["in_job"] == pytest.approx(0.4) and sentences[1]["outside_advice"] == pytest.approx(0.8)
        # a sentence that declines is in the role and not asked about
        declined = check("I can't advise on investments. Try a paella.", "role-adherence",
                         conversation=CONVERSATION, role="a friendly chef")
        assert declined.value == pytest.approx(in_role, abs=1e-4)
        assert declined.detail["turns"][0]["sentences"][0] == {"sentence": "I can't advise on investments.",
                                                               "declines": True}
        asked = len(judge.requests)
        only_declines = check("I'm sorry, I can't help with that.", "role-adherence",
                              conversation=CONVERSATION, role="a friendly chef")
        assert only_declines.value == 1.0 and len(judge.requests) == asked  # nothing judged, no prior asked
        assert "content_free" not in only_declines.detail["turns"][0]
        assert "window" not in only_declines.detail  # its sentences never see the turns before the reply


def test_role_adherence_judges_what_a_declining_sentence_goes_on_to_say():
    with scripted_judge(_role_verdict, "role-judge") as judge:
        advises = check("I can't advise on investments, but move your savings into index funds.", "role-adherence",
                        conversation=CONVERSATION, role="a friendly chef")
        out_of_role = (calibrated(0.4, 0.6) + 1 - calibrated(0.8, 0.4)) / 2
        assert advises.value == pytest.approx(out_of_role, abs=1e-4) and advises.passed is False
        (sentence,) = advises.detail["turns"][0]["sentences"]
        assert sentence["declines"] is True and sentence["then"] == "move your savings into index funds."
        assert "The assistant says: move your savings into index funds." in judge.requests[-2].messages[-1][1]
        offers = check("I can't advise on investments; however, I can suggest a cheap paella.", "role-adherence",
                       conversation=CONVERSATION, role="a friendly chef")
        assert offers.passed is True and offers.detail["turns"][0]["sentences"][0]["then"].startswith("I can suggest")
        asked = len(judge.requests)
        for only_declines in ("I can't advise on that, but sorry.", "Sounds fun, but I can't help with that.",
                              "I can't help with that, but I'm not allowed to say more."):
            result = check(only_declines, "role-adherence", conversation=CONVERSATION, role="a friendly chef")
            assert result.value == 1.0 and result.detail["turns"][0]["sentences"][0] == {
                "sentence": only_declines, "declines": True}, only_declines
        assert len(judge.requests) == asked


def test_advice_after_declining_is_the_part_after_the_first_contrast():
    assert advice_after_declining("I can't give medical advice, but adults can take up to 1,200 mg a day.") == \
        "adults can take up to 1,200 mg a day."
    assert advice_after_declining("I'm not able to say; that said, most people sell at face value.") == \
        "most people sell at face value."
    assert advice_after_declining("I can't advise on that.") is None
    assert advice_after_declining("I can't advise on that, but no.") is None  # under three words
    assert advice_after_declining("I can't comment on her debut and its reviews, sorry.") is None  # whole words only


def test_role_adherence_refuses_a_window_it_would_not_use():
    with pytest.raises(Exception, match=r"config\.window does not apply to role-adherence: it judges each sentence"):
        check("Try a risotto.", {"metric": "role-adherence", "config": {"window": 2}}, conversation=CONVERSATION,
              role="a friendly chef")


def test_relevancy_and_conversational_g_eval(turn_judge):
    relevancy = check("Try a risotto.", {"metric": "conversation-relevancy", "config": {"window": 1}},
                      conversation=CONVERSATION)
    assert relevancy.value == pytest.approx(0.9) and relevancy.detail["window"] == 1
    spec = {"metric": "conversational-g-eval", "value": "Polite and helpful", "config": {"method": "g-eval"}}
    g = check("Try a risotto.", spec, conversation=CONVERSATION)
    assert g.value == pytest.approx((4.5 - 1) / 4) and g.detail["steps"] == ["Read the dialogue.", "Check politeness."]
    assert "user: Suggest a dinner for me.\nassistant: Try a risotto." in turn_judge.requests[-1].messages[-1][1]
    assert g.threshold == 0.75 and g.passed is True  # G-Eval's own pass mark, a score of 4 of 5
    given = check("Try a risotto.", {**spec, "threshold": 0.9}, conversation=CONVERSATION)
    assert given.threshold == 0.9 and given.passed is False


def _criteria_verdict(request, retention=0.9):
    if "Statement: " not in request.messages[-1][1]:  # knowledge-retention's PASS/FAIL question
        return pass_with(retention)
    statement = request.messages[-1][1].split("Statement: ")[1]
    reply = request.messages[-1][1].split("Assistant reply: ")[1]
    if "vegetarian" in statement:
        return pass_with(0.2 if "steak" in reply else 0.95)
    return pass_with(0.85)


def test_conversational_g_eval_decides_each_criterion_as_a_statement_about_the_reply():
    spec = {"metric": "conversational-g-eval",
            "value": "The reply answers the last question and is consistent with what the user said. Coherence: "
                     "no vegetarian rule is broken"}
    with scripted_judge(_criteria_verdict, "criteria-judge") as judge:
        kept = check("Try a mushroom risotto.", spec, conversation=CONVERSATION)
        assert [c["statement"] for c in kept.detail["criteria"]] == [
            "The reply answers the last question.", "The reply is consistent with what the user said.",
            "Coherence: no vegetarian rule is broken."]
        assert kept.value == pytest.approx(0.85) and kept.passed is True and kept.threshold == 0.8
        prompt = judge.requests[0].messages[-1][1]
        assert "Conversation so far:\nuser: Hi, my name is Ana and I'm vegetarian." in prompt
        assert "The user's last message: Suggest a dinner for me." in prompt
        assert "Assistant reply: Try a mushroom risotto." in prompt and judge.requests[0].options == ("yes", "no")
        broken = check("Try a steak.", spec, conversation=CONVERSATION)
        assert broken.value == pytest.approx(0.2) and broken.passed is False
        assert "Coherence: no vegetarian rule is broken." in broken.reason and "lowest of 3" in broken.reason
        narrow = check("Try a tofu curry.", {**spec, "config": {"window": 1}}, conversation=CONVERSATION)
        assert "Hi, my name is Ana" not in judge.requests[-1].messages[-1][1] and narrow.detail["window"] == 1
    with pytest.raises(Exception, match=r"config\.method"):
        check("x", {**spec, "config": {"method": "digits"}}, conversation=CONVERSATION)


def test_conversational_g_eval_asks_knowledge_retention_about_a_criterion_on_what_the_user_said():
    spec = {"metric": "conversational-g-eval",
            "value": "The reply answers the last question and is consistent with what the user said."}
    with scripted_judge(lambda request: _criteria_verdict(request, retention=0.44)) as judge:
        result = check("Try a mushroom risotto.", spec, conversation=CONVERSATION)
    answers, consistent = result.detail["criteria"]
    assert "retention" not in answers and consistent["retention_pass"] == 0.44
    # 0.44 against knowledge-retention's 0.55 mark is 0.64 against this metric's 0.8: below it, so it fails
    assert consistent["decided_by"] == "knowledge-retention" and consistent["statement_probability"] == 0.85
    assert result.value == pytest.approx(0.44 * 0.8 / 0.55) and result.passed is False
    assert "knowledge-retention's P(pass) 0.440 against its 0.55 mark" in result.reason
    asked = [r for r in judge.requests if "Statement: " not in r.messages[-1][1]]
    assert len(asked) == 1 and "What the user said earlier:" in asked[0].messages[-1][1]
    with scripted_judge(lambda request: _criteria_verdict(request, retention=0.6)):
        kept = check("Try a mushroom risotto.", spec, conversation=CONVERSATION)  # 0.6 passes its mark: 0.87
    assert kept.value == pytest.approx(0.85) and "decided_by" not in kept.detail["criteria"][1]
    with scripted_judge(lambda request: _criteria_verdict(request, retention=0.44)) as judge:
        off = check("Try a mushroom risotto.", {**spec, "config": {"check_retention": False}},
                    conversation=CONVERSATION)
        other = check("Try a mushroom risotto.", {**spec, "value": "Answers the last question politely."},
                      conversation=CONVERSATION)
    assert off.value == pytest.approx(0.85) and other.value == pytest.approx(0.85)
    assert all("Statement: " in r.messages[-1][1] for r in judge.requests)


@pytest.mark.parametrize(("criterion", "asks"), [
    ("is consistent with everything the user said earlier", True),
    ("The assistant remembers what the user told it", True),
    ("does not contradict or ignore earlier information from the user", True),
    ("respects the facts and preferences the user gave", True),
    ("gives a relevant answer to the last question", False),
    ("Tone: warm and calm", False),
])
def test_which_criteria_ask_to_keep_what_the_user_said(criterion, asks):
    assert asks_for_retention(criterion) is asks


def test_a_criterion_becomes_a_statement_about_the_reply():
    assert criterion_statement("Answers politely.") == "The reply answers politely."
    assert criterion_statement("Uses SQL only") == "The reply uses SQL only."
    assert verb_phrase("JSON output only") == "JSON output only"  # an acronym keeps its capitals
    assert criterion_statement("An apology comes first") == "An apology comes first."
    assert criterion_statement("Tone: warm and calm") == "Tone: warm and calm."


def test_no_conversation_is_not_measured(turn_judge):
    for name in ("knowledge-retention", "conversation-relevancy"):
        assert check("x", name).status == "not_measured"
    assert check("x", {"metric": "conversational-g-eval", "value": "c"}).status == "not_measured"
    assert turn_judge.requests == []


@pytest.mark.parametrize("name", ["conversation-relevancy", "conversational-g-eval"])
@pytest.mark.parametrize("size", [0, True, "3"])
def test_window_must_be_a_positive_integer(name, size):
    with pytest.raises(Exception, match=r"config\.window must be a positive integer"):
        check("x", {"metric": name, "value": "Polite", "config": {"window": size}}, conversation=CONVERSATION)


LONG_CONVERSATION = [
    {"role": "user", "content": "I'm taking hand luggage only, 10 kg max."},
    {"role": "assistant", "content": "Noted."},
    {"role": "user", "content": "When should I pack?"},
]


def _retention_verdict(request):
    text = request.messages[-1][1]
    if "Answer it from what the user said." in text:
        assert "- When should I pack?" not in text  # only the messages before the one the reply answers
        return JudgeReply("10 kg hand luggage" if "luggage" in text.split("Question: ")[1] else "Not said.")
    return pass_with(0.8)


def test_knowledge_retention_halves_a_reply_that_asks_again_for_what_the_user_said():
    with scripted_judge(_retention_verdict, "retention-judge") as judge:
        asks_again = check("Pack on Wednesday. How much luggage are you taking?", "knowledge-retention",
                           conversation=LONG_CONVERSATION)
        assert asks_again.value == pytest.approx(0.4) and asks_again.passed is False
        turn = asks_again.detail["turns"][0]
        assert turn["asks_again"] == [{"question": "How much luggage are you taking?",
                                       "user_said": "10 kg hand luggage"}] and turn["questions"] == 1
        assert "halved: it asks again" in asks_again.reason
        new_question = check("Pack on Wednesday. Shall I remind you?", "knowledge-retention",
                             conversation=LONG_CONVERSATION)
        assert new_question.value == pytest.approx(0.8) and "asks_again" not in new_question.detail["turns"][0]
        asked = len(judge.requests)
        no_question = check("Pack on Wednesday evening.", "knowledge-retention", conversation=LONG_CONVERSATION)
        assert no_question.value == pytest.approx(0.8) and len(judge.requests) == asked + 1  # no generation
        asked = len(judge.requests)
        first_turn = check("How much luggage are you taking?", "knowledge-retention",
                           conversation=[{"role": "user", "content": "When should I pack?"}])
        assert first_turn.value == pytest.approx(0.8) and len(judge.requests) == asked + 1  # nothing to answer from
        off = check("Pack on Tuesday. How much luggage are you taking?",
                    {"metric": "knowledge-retention", "config": {"check_questions": False}},
                    conversation=LONG_CONVERSATION)
        assert off.value == pytest.approx(0.8)
    with pytest.raises(Exception, match=r"config\.check_questions"):
        check("x", {"metric": "knowledge-retention", "config": {"check_questions": "yes"}},
              conversation=LONG_CONVERSATION)
