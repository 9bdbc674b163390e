"""Reading a judge's verdict from its text: which words count and what the error quotes (written for the
mutation pass over judges/base.py; docs/testing.md, "Mutation testing")."""

import pytest

from agentunit.judges.base import JudgeOutputError, JudgeReply, read_decision


def test_the_verdict_is_one_of_the_first_three_words_lines_included():
    assert read_decision(JudgeReply("PASS\nthe answer is right"), ("PASS", "FAIL"))[0] == "PASS"
    assert read_decision(JudgeReply("I say\nFAIL."), ("PASS", "FAIL"))[:2] == ("FAIL", {"PASS": 0.0,
                                                                                               "FAIL": 1.0})
    with pytest.raises(JudgeOutputError):
        read_decision(JudgeReply("I think that PASS"), ("PASS", "FAIL"))  # the fourth word is not read


def test_options_are_matched_whatever_their_case_and_punctuation():
    assert read_decision(JudgeReply("X"), ("x", "y"))[0] == "x"
    assert read_decision(JudgeReply("(y)."), ("x", "y"))[0] == "y"


def test_an_unreadable_verdict_quotes_the_first_80_characters():
    text = "".join(chr(ord("a") + i % 26) for i in range(100))
    with pytest.raises(JudgeOutputError) as caught:
        read_decision(JudgeReply(text), ("PASS", "FAIL"))
    assert str(caught.value) == f"judge answered {text[:80]!r}, expected one of PASS, FAIL"
