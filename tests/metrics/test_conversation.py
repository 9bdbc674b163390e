import math

import pytest

from agentunit import check
from agentunit.judges.base import JudgeReply
from agentunit.metrics.conversation import conversation_turns, window
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


def test_knowledge_retention_scores_each_assistant_turn(turn_judge):
    good = check("Try a mushroom risotto.", "knowledge-retention", conversation=CONVERSATION)
    bad = check("Try a steak with fries.", "knowledge-retention", conversation=CONVERSATION)
    assert good.value == pytest.approx(0.9) and bad.value == pytest.approx(0.1)  # the worst turn counts
    assert bad.detail["turns"][1]["pass"] == pytest.approx(0.1) and "weakest turn 3" in bad.reason
    last_prompt = turn_judge.requests[-1].messages[-1][1]
    assert "- Hi, my name is Ana and I'm vegetarian." in last_prompt


def test_role_relevancy_and_conversational_g_eval(turn_judge):
    assert check("Try a risotto.", "role-adherence", conversation=CONVERSATION).status == "not_measured"
    role = check("Try a risotto.", "role-adherence", conversation=CONVERSATION, role="a friendly chef")
    assert role.value == pytest.approx(0.9) and "The assistant's role: a friendly chef" in \
        turn_judge.requests[-1].messages[-1][1]
    relevancy = check("Try a risotto.", {"metric": "conversation-relevancy", "config": {"window": 1}},
                      conversation=CONVERSATION)
    assert relevancy.value == pytest.approx(0.9) and relevancy.detail["window"] == 1
    g = check("Try a risotto.", {"metric": "conversational-g-eval", "value": "Polite and helpful"},
              conversation=CONVERSATION)
    assert g.value == pytest.approx((4.5 - 1) / 4) and g.detail["steps"] == ["Read the dialogue.", "Check politeness."]
    assert "user: Suggest a dinner for me.\nassistant: Try a risotto." in turn_judge.requests[-1].messages[-1][1]


def test_no_conversation_is_not_measured(turn_judge):
    for name in ("knowledge-retention", "conversation-relevancy"):
        assert check("x", name).status == "not_measured"
    assert check("x", {"metric": "conversational-g-eval", "value": "c"}).status == "not_measured"
    assert turn_judge.requests == []
