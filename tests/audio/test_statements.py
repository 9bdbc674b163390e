"""audio-disclaimer-check and audio-consent-check on transcripts: the labelled sets, the rules of each check,
and the lexical pieces (needs the embeddings model, installed by `make test`)."""

import json
from pathlib import Path

import pytest

from agentunit import check
from agentunit.audio.statements import asks_permission, consent_answer, content_words
from agentunit.errors import MetricConfigError
from agentunit.metrics.registry import lookup
from agentunit.models.store import ModelNotInstalled, require

DATA = Path(__file__).resolve().parent.parent / "data" / "audio"
DISCLAIMER = "This call is recorded for quality and training purposes."
REQUEST = "Do you agree to this call being recorded?"


@pytest.fixture(scope="module")
def embeddings():
    try:
        require("embeddings")
    except ModelNotInstalled as exc:
        pytest.skip(str(exc))


def _reply(*lines, timed=True):
    segments, clock = [], 0.0
    for speaker, text in lines:
        length = 0.4 * len(text.split())
        segment = {"speaker": speaker, "text": text}
        if timed:
            segment.update(start=round(clock, 2), end=round(clock + length, 2))
        segments.append(segment)
        clock += length + 0.6
    return {"output": "", "trusys": {"transcript": segments}}


def _rows(name):
    return [json.loads(line) for line in (DATA / f"{name}.jsonl").open()]


@pytest.mark.parametrize("name", ["disclaimer", "consent"])
def test_labelled_sets_have_both_classes_and_a_split_by_statement(name):
    rows = _rows(name)
    assert len(rows) >= 40 and {r["label"] for r in rows} == {True, False}
    tune = {r["statement"] for r in rows if r["split"] == "tune"}
    test = {r["statement"] for r in rows if r["split"] == "test"}
    assert tune and test and not tune & test


@pytest.mark.parametrize("name", ["disclaimer", "consent"])
def test_accuracy_on_the_test_split_with_the_calibrated_defaults(embeddings, name):
    rows = [r for r in _rows(name) if r["split"] == "test"]
    right = 0
    for row in rows:
        result = check({"output": "", "trusys": {"transcript": row["transcript"]}},
                       {"metric": f"audio-{name}-check", "value": row["statement"],
                        "config": {"within_s": row["within_s"]}})
        right += (result.passed is True) == row["label"]
    assert right / len(rows) >= 0.85  # measured: 91.7 % and 100 % (docs/audio.md)


def test_disclaimer_found_by_meaning_with_its_time_and_words(embeddings):
    reply = _reply(("agent", "Hello, thanks for calling."),
                   ("agent", "Just so you know, we record our calls to improve quality and to train our staff."))
    result = check(reply, {"metric": "audio-disclaimer-check", "value": DISCLAIMER, "config": {"within_s": 30}})
    assert result.value == 1.0 and result.passed
    found = result.detail["disclaimers"][0]["found"]
    assert found["speaker"] == "agent" and found["at"] == pytest.approx(2.2) and "record our calls" in found["words"]
    assert result.detail["transcript_source"] == "trusys.transcript"


def test_disclaimer_rules_speaker_time_negation_and_numbers(embeddings):
    spec = {"metric": "audio-disclaimer-check", "value": DISCLAIMER, "config": {"within_s": 5}}
    by_customer = check(_reply(("agent", "Hello."), ("customer", DISCLAIMER)), spec)
    assert by_customer.passed is False and "said by the customer" in by_customer.detail["disclaimers"][0]["why"]
    late = check(_reply(("agent", "Hello, one moment please while I look."), ("agent", "Still looking."),
                        ("agent", DISCLAIMER)), spec)
    assert late.passed is False and "too late" in late.detail["disclaimers"][0]["why"]
    negated = check(_reply(("agent", "This call is not recorded for quality and training purposes.")), spec)
    assert negated.passed is False and "negation" in negated.detail["disclaimers"][0]["why"]
    fee = {"metric": "audio-disclaimer-check", "value": ["There is a cancellation fee of 50 dollars.", DISCLAIMER]}
    other = check(_reply(("agent", "There is a cancellation fee of 25 dollars."), ("agent", DISCLAIMER)), fee)
    assert other.value == 0.5 and "number" in other.detail["disclaimers"][0]["why"]
    words = check(_reply(("agent", "Cancelling costs a fifty dollar fee."), ("agent", DISCLAIMER)), fee)
    assert words.value == 1.0


def test_consent_needs_the_request_then_the_customers_yes(embeddings):
    spec = {"metric": "audio-consent-check", "value": REQUEST, "config": {"within_s": 20}}
    given = check(_reply(("agent", "Is it okay with you if we record this call?"), ("customer", "Sure, go ahead.")),
                  spec)
    assert given.passed and given.detail["consents"][0]["answer_reading"] == "yes"
    assert given.detail["consents"][0]["answer"]["text"] == "Sure, go ahead."
    refused = check(_reply(("agent", REQUEST), ("customer", "No, I'd rather not.")), spec)
    assert refused.passed is False and refused.detail["consents"][0]["answer_reading"] == "no"
    unasked = check(_reply(("agent", "Shall I look at your bill?"), ("customer", "Yes, please.")), spec)
    assert unasked.passed is False and "never asked" in unasked.detail["consents"][0]["why"]
    fact = check(_reply(("agent", "Have you heard that this call is being recorded?"), ("customer", "Yes.")), spec)
    assert fact.passed is False
    late = check(_reply(*[("agent", "Let me check one more thing for you now.")] * 6, ("agent", REQUEST),
                        ("customer", "Yes.")), spec)
    assert late.passed is False and "after the limit" in late.detail["consents"][0]["why"]


def test_answers_permission_cues_and_content_words():
    assert [consent_answer(t) for t in ("Yes, that's fine.", "No problem.", "Not at all, go on.", "No thanks.",
                                        "I don't agree to that.", "Why do you need that?")] == \
        ["yes", "yes", "yes", "no", "no", None]
    assert consent_answer("Yes, not in time.") == "yes"  # a recognition error after a leading yes
    assert asks_permission("Can we go ahead and run a credit check?")
    assert not asks_permission("Did you get the marketing email we sent?")
    assert "49" in content_words("a charge of forty nine dollars") and "recorded" not in content_words("recorded")


def test_absent_inputs_and_bad_config(embeddings, monkeypatch, tmp_path):
    untimed = check(_reply(("agent", DISCLAIMER), timed=False),
                    {"metric": "audio-disclaimer-check", "value": DISCLAIMER, "config": {"within_s": 10}})
    assert untimed.value is None and "within_s" in untimed.reason
    anytime = check(_reply(("agent", DISCLAIMER), timed=False), {"metric": "audio-disclaimer-check",
                                                                  "value": DISCLAIMER})
    assert anytime.passed
    labels = check({"output": "", "trusys": {"transcript": [{"speaker": "S1", "start": 0, "end": 2,
                                                             "text": DISCLAIMER}]}},
                   {"metric": "audio-disclaimer-check", "value": DISCLAIMER})
    assert labels.value is None and "config.speakers" in labels.reason
    monkeypatch.setenv("AGENTUNIT_HOME", str(tmp_path))
    nothing = check("", {"metric": "audio-disclaimer-check", "value": DISCLAIMER})
    assert nothing.value is None and "no call recording" in nothing.reason
    cls = lookup("audio-disclaimer-check")[0].cls
    for config, field in (({"within_s": -1}, "config.within_s"), ({"speaker": "bot"}, "config.speaker"),
                          ({"transcript": "whisper"}, "config.transcript"),
                          ({"asr_model": "large"}, "config.asr_model"),
                          ({"min_similarity": 2}, "config.min_similarity")):
        with pytest.raises(MetricConfigError, match=field):
            cls(DISCLAIMER, config=config)
    with pytest.raises(MetricConfigError, match="value"):
        cls(["ok", 3])


CATEGORIES = {"billing": "a question or problem about a charge, an invoice, a payment or a refund",
              "technical": "something does not work: a fault, an error, an outage or a broken device",
              "cancellation": "the caller wants to cancel, close or end their contract or subscription"}


def test_call_category_from_the_callers_words(embeddings):
    spec = {"metric": "audio-call-category", "value": "billing", "config": {"categories": CATEGORIES}}
    reply = _reply(("agent", "Thanks for calling, how can I help?"), ("customer", "I was charged twice this month."),
                   ("agent", "Let me look into that."), ("customer", "Thank you."))
    right = check(reply, spec)
    assert right.passed and right.detail["category"] == "billing" and "charged twice" in right.detail["evidence"]
    assert right.detail["margin"] > 0
    wrong = check(reply, {**spec, "value": "technical"})
    assert wrong.passed is False and wrong.value == 0.0
    agent_only = check(reply, {**spec, "config": {"categories": CATEGORIES, "speaker": "agent"}})
    assert agent_only.detail["evidence"] != "I was charged twice this month."
    cls = lookup("audio-call-category")[0].cls
    with pytest.raises(MetricConfigError, match="categories"):
        cls("billing", config={"categories": ["billing"]})
    with pytest.raises(MetricConfigError, match="not one of"):
        cls("sales", config={"categories": CATEGORIES})


def test_call_category_accuracy_on_the_labelled_test_split(embeddings):
    lines = [json.loads(line) for line in (DATA / "call_category.jsonl").open()]
    names, rows = lines[0]["categories"], [r for r in lines[1:] if r["split"] == "test"]
    assert len(lines) - 1 >= 40 and len({r["category"] for r in rows}) == 4
    right = sum(check({"output": "", "trusys": {"transcript": r["transcript"]}},
                      {"metric": "audio-call-category", "value": r["category"], "config": {"categories": names}}
                      ).passed is True for r in rows)
    assert right / len(rows) >= 0.7  # measured 75 % (keyword baseline 58 %), docs/audio.md
