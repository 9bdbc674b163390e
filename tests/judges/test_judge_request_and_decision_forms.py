"""The forms a judge call travels in: chat messages with images after the last user text, a decision's
detail as stored with a metric, which option of a pair is the good one, reading a verdict from logprobs
or text, and the grammar that restricts a local judge to the options."""

import math

import pytest

from agentunit.judges.base import (
    Decision,
    JudgeOutputError,
    JudgeReply,
    JudgeRequest,
    options_grammar,
    positive_option,
    read_decision,
)


def test_images_go_after_the_text_of_the_last_user_message():
    request = JudgeRequest((("system", "Grade."), ("user", "first"), ("assistant", "ok"), ("user", "Is it a cat?")),
                           images=("data:image/png;base64,AAAA", "data:image/png;base64,BBBB"))
    assert request.as_messages() == [
        {"role": "system", "content": "Grade."}, {"role": "user", "content": "first"},
        {"role": "assistant", "content": "ok"},
        {"role": "user", "content": [{"type": "text", "text": "Is it a cat?"},
                                     {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}},
                                     {"type": "image_url", "image_url": {"url": "data:image/png;base64,BBBB"}}]}]
    assert JudgeRequest((("user", "q"),)).as_messages() == [{"role": "user", "content": "q"}]


def test_a_decisions_detail_rounds_probabilities_and_adds_cost_and_provider_detail_when_known():
    decision = Decision("PASS", {"PASS": 0.123456, "FAIL": 0.876544}, "logprobs", "PASS", {"prompt_tokens": 9})
    assert decision.to_detail() == {"option": "PASS", "probabilities": {"PASS": 0.1235, "FAIL": 0.8765},
                                    "source": "logprobs", "cached": False, "usage": {"prompt_tokens": 9}}
    priced = Decision("PASS", {"PASS": 1.0}, "text", "PASS", {}, cached=True, cost=0.0,
                      detail={"ensemble": {"combine": "mean"}})
    assert priced.to_detail() == {"option": "PASS", "probabilities": {"PASS": 1.0}, "source": "text",
                                  "cached": True, "usage": {}, "cost": 0.0, "ensemble": {"combine": "mean"}}


@pytest.mark.parametrize(("options", "good"), [(("PASS", "FAIL"), "PASS"), (("no", "Yes"), "Yes"),
                                               (("True", "false"), "True"), (("A", "B"), None),
                                               (("yes", "no", "maybe"), None), (("fail", "fail"), None)])
def test_the_good_option_of_a_pair(options, good):
    assert positive_option(options) == good


def test_a_verdict_is_read_from_logprobs_first_then_from_the_first_three_words():
    reply = JudgeReply("FAIL", [(" Yes", math.log(0.3)), ("yes.", math.log(0.3)), ("No", math.log(0.2)),
                                ("maybe", math.log(0.2)), ("no", -math.inf)])
    option, probabilities, source = read_decision(reply, ("yes", "no"))
    assert (option, source) == ("yes", "logprobs") and probabilities == pytest.approx({"yes": 0.75, "no": 0.25})
    assert read_decision(JudgeReply("Well: NO, sorry.", [("maybe", 0.0)]), ("yes", "no")) == \
        ("no", {"yes": 0.0, "no": 1.0}, "text")
    with pytest.raises(JudgeOutputError) as raised:
        read_decision(JudgeReply("I would say that yes"), ("yes", "no"))  # the fifth word: too late
    assert str(raised.value) == "judge answered 'I would say that yes', expected one of yes, no"


def test_the_grammar_allows_exactly_the_options():
    assert options_grammar(("PASS", "FAIL")) == 'root ::= "PASS" | "FAIL"'
    assert options_grammar(('say "hi"',)) == 'root ::= "say \\"hi\\""'
