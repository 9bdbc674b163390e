"""audio-conversation-coherence, audio-false-intent-identification and audio-sentiment: what each asks the
judge (a scripted judge: fast and deterministic), how the caller's request and the agent's actions are
found, the rules around the decision, prosody, and the labelled sets."""

import base64
import json
import math
from pathlib import Path

import numpy as np
import pytest

from agentunit import check
from agentunit.audio.conversation import agent_actions, caller_request, dialogue, pitch_track, prosody, tool_text
from agentunit.audio.statements import Transcript, app_transcript
from agentunit.errors import MetricConfigError
from agentunit.judges.base import JudgeReply
from agentunit.metrics import create_metric
from agentunit.models.store import ModelNotInstalled, require
from tests.audio.scenes import SCENARIOS
from tests.judge_helpers import pass_with, scripted_judge

DATA = Path(__file__).resolve().parent.parent / "data" / "audio"


def _rows(name):
    return [json.loads(line) for line in (DATA / f"{name}.jsonl").open()]


def _reply(*lines, tool_calls=None):
    segments, clock = [], 0.0
    for speaker, text in lines:
        length = 0.4 * len(text.split())
        segments.append({"speaker": speaker, "start": round(clock, 2), "end": round(clock + length, 2), "text": text})
        clock += length + 0.6
    trusys = {"transcript": segments, **({"tool_calls": tool_calls} if tool_calls else {})}
    return {"output": "", "trusys": trusys}


def _transcript(reply) -> Transcript:
    return app_transcript(type("Outcome", (), {"metadata": {"transcript": reply["trusys"]["transcript"]}})(), None)


def _user(provider, index=-1) -> str:
    return provider.requests[index].messages[-1][1]


CALL = _reply(("agent", "Thank you for calling, how can I help?"),
              ("customer", "Hi there. I want to cancel my order from last week."),
              ("customer", "It was the blue jacket."),
              ("agent", "Sure, I'll cancel that order for you now. Shall I refund the card?"),
              ("customer", "Yes please."), ("agent", "Done, have a good day."))


# ---- the labelled sets ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, key", [("coherence", "label"), ("intent", "label"), ("sentiment", "sentiment")])
def test_labelled_sets_have_40_rows_every_class_and_a_split_by_scenario(name, key):
    rows = _rows(name)
    assert len(rows) >= 40
    for split in ("tune", "test"):
        chosen = [r for r in rows if r["split"] == split]
        assert len(chosen) >= 20 and len({str(r[key]) for r in chosen}) == len({str(r[key]) for r in rows}) >= 2
    if name != "sentiment":  # a scenario (its id's first part) is in one split only
        scenario = {r["id"].split("-")[0]: r["split"] for r in rows}
        assert all(scenario[r["id"].split("-")[0]] == r["split"] for r in rows)
    texts = {s: {seg["text"] for r in rows if r["split"] == s for seg in r["transcript"]
                 if seg["speaker"] == "customer"} for s in ("tune", "test")}
    shared = texts["tune"] & texts["test"]
    assert all(len(t.split()) <= 4 for t in shared), shared  # only stock replies ("Okay, thank you.") are shared


def test_the_callers_request_is_found_after_greetings_in_every_intent_row():
    for row in _rows("intent"):
        transcript = _transcript({"trusys": {"transcript": row["transcript"]}})
        found = caller_request(transcript)
        assert found["text"] == row["request"], row["id"]
        actions = [a["text"] for a in agent_actions(transcript, found["segment"])]
        assert len(actions) == 1, (row["id"], actions)  # the restatement; "anything else?" is a question


# ---- the pieces ----------------------------------------------------------------------------------------------------

def test_dialogue_names_speakers_joins_their_segments_and_cuts_the_middle_of_long_calls():
    text = dialogue(_transcript(CALL))
    assert text.splitlines()[:2] == ["Agent: Thank you for calling, how can I help?",
                                     "Customer: Hi there. I want to cancel my order from last week. "
                                     "It was the blue jacket."]
    long = _transcript(_reply(*[("agent" if i % 2 else "customer", f"Line number {i} " + "word " * 30)
                                for i in range(60)]))
    cut = dialogue(long, max_chars=2000)
    assert len(cut) <= 2000 and "turns left out" in cut
    assert cut.startswith("Customer: Line number 0 ") and cut.rstrip().endswith("word")
    assert "Line number 59" in cut


def test_caller_request_and_agent_actions():
    transcript = _transcript(CALL)
    request = caller_request(transcript)
    assert request["text"] == "I want to cancel my order from last week."
    assert [a["text"] for a in agent_actions(transcript, request["segment"])] == [
        "Sure, I'll cancel that order for you now."]  # "Shall I refund…?" offers, it does not act
    assert caller_request(_transcript(_reply(("agent", "Hello?"), ("customer", "Hi, good morning.")))) is None
    # no request cue: the first customer sentence with some content
    found = caller_request(_transcript(_reply(("customer", "Hello."), ("customer", "Broadband outage on my street."))))
    assert found["text"] == "Broadband outage on my street."
    assert tool_text({"name": "cancelOrder", "arguments": {"order_id": 42}}) == "cancel order (order id: 42)"
    assert tool_text({"name": "block_card"}) == "block card"


def test_pitch_track_finds_the_pitch_of_periodic_signals_and_none_in_noise():
    rate = 8000
    t = np.arange(rate) / rate
    for hz in (80, 150, 220, 390):
        wave = 0.15 * np.sign(np.sin(2 * np.pi * hz * t)) + 0.2 * np.sin(2 * np.pi * hz * t)
        pitch, energy = pitch_track(wave.astype(np.float32), rate)
        assert np.median(pitch) == pytest.approx(hz, rel=0.02) and len(pitch) == len(energy)
    noise = np.random.default_rng(0).normal(0, 0.1, rate)
    assert len(pitch_track(noise, rate)[0]) == 0


def test_prosody_measures_pitch_variation():
    rate = 16000
    t = np.arange(rate) / rate
    steady = 0.3 * np.sin(2 * np.pi * 150 * t)
    glide = 0.3 * np.sin(2 * np.pi * np.cumsum(np.linspace(120, 240, rate)) / rate)  # an octave up
    flat, moving = prosody(steady, rate, [(0, 1)]), prosody(glide, rate, [(0, 1)])
    assert flat["pitch_hz_median"] == pytest.approx(150, rel=0.02) and flat["pitch_st_std"] < 0.2
    assert moving["pitch_st_std"] > 2.5  # 12 semitones spread evenly: std ≈ 3.5
    assert prosody(np.zeros(rate), rate, [(0.2, 0.1)]) is None


# ---- audio-conversation-coherence ----------------------------------------------------------------------------------

def test_coherence_whole_asks_one_yes_no_question_over_the_labelled_transcript():
    whole = {"metric": "audio-conversation-coherence", "config": {"method": "whole"}}
    with scripted_judge(lambda r: pass_with(0.8)) as provider:
        result = check(CALL, whole)
    assert result.value == pytest.approx(0.8) and result.passed is True
    assert len(provider.requests) == 1 and provider.requests[0].options == ("yes", "no")
    user = _user(provider)
    assert "Agent: Thank you for calling" in user and "Customer: Hi there. I want to cancel" in user
    assert "does not contradict" in user and user.endswith("Is the statement true? Answer yes or no.")
    assert result.detail["transcript_source"] == "trusys.transcript" and result.detail["turns"] == 5
    with scripted_judge(lambda r: pass_with(0.2)):
        assert check(CALL, whole).passed is False


def _turn_judge(request):
    """A stand-in judge: a reply about the winter collection does not respond to the customer."""
    user = request.messages[-1][1]
    assert user.startswith("The customer said:") and "\nThe agent replied: " in user
    return pass_with(0.1 if "winter collection" in user else 0.9)


def test_coherence_by_turns_asks_whether_each_reply_responds_to_the_customer():
    rows = {r["kind"]: r for r in _rows("coherence") if r["id"].startswith("h0-")}
    results = {}
    with scripted_judge(_turn_judge) as provider:
        for kind, row in rows.items():
            results[kind] = check({"output": "", "trusys": {"transcript": row["transcript"]}},
                                  "audio-conversation-coherence")
    # every agent turn that follows a customer turn (not the greeting): three replies per call
    assert all(len(r.detail["replies"]) == 3 for r in results.values())
    coherent = results["coherent"]
    assert coherent.passed is True and results["customer_switch"].passed is True and coherent.value == 0.9
    drift = results["drift"]
    assert drift.passed is False and drift.value == pytest.approx(0.1)
    assert drift.detail["weakest"]["agent"].startswith("By the way, our winter collection")
    assert drift.detail["weakest"]["customer"] == "How long until I see it on my statement?"
    first = provider.requests[0].messages[-1][1]
    assert first.startswith("The customer said: I returned the blue jacket")


def test_coherence_is_not_measured_without_a_labelled_transcript():
    with scripted_judge(lambda r: pass_with(0.9)) as provider:
        unlabelled = check({"output": "", "trusys": {"transcript": [{"speaker": "spk0", "text": "Hello."}]}},
                           "audio-conversation-coherence")
        nothing = check({"output": "hi"}, "audio-conversation-coherence")
    assert unlabelled.value is None and "labelled agent or customer" in unlabelled.reason
    assert nothing.value is None and "no call recording" in nothing.reason
    assert provider.requests == []
    with pytest.raises(MetricConfigError, match=r"config\.transcript"):
        create_metric("audio-conversation-coherence", config={"transcript": "maybe"})


# ---- audio-false-intent-identification -----------------------------------------------------------------------------

def _intent_judge(request):
    """yes when the agent's action names the caller's verb (a stand-in for the judge's reading)."""
    user = request.messages[-1][1]
    asked = user.split("The caller asked: ")[1].split("\n")[0].lower()
    did = user.split("What the agent did:\n")[1].split("\n\n")[0].lower()
    verb = next(v for v in ("cancel", "return", "refund", "pause") if v in asked)
    return pass_with(0.9 if verb in did else 0.1)


JUDGED = {"metric": "audio-false-intent-identification", "config": {"method": "judge"}}


def test_false_intent_gives_the_judge_the_request_the_restatement_and_the_tool_calls():
    with scripted_judge(_intent_judge) as provider:
        right = check(CALL, JUDGED)
        user = _user(provider)
        wrong = check(_reply(("customer", "I want to cancel my order."), ("agent", "I'll start a return for it.")),
                      JUDGED)
        tool = check(_reply(("customer", "Please pause my subscription."), ("agent", "Let me sort that out."),
                            tool_calls=[{"name": "cancel_subscription", "arguments": {"plan": "gold"}}]), JUDGED)
    assert "The caller asked: I want to cancel my order from last week." in user
    assert "- the agent said: Sure, I'll cancel that order for you now." in user and "Shall I" not in user
    assert right.passed is True and right.detail["intent_from"] == "the customer's first request"
    assert wrong.passed is False and wrong.value == pytest.approx(0.1)
    assert tool.passed is False and tool.detail["tool_calls"] == ["cancel subscription (plan: gold)"]
    assert "- the agent called the tool: cancel subscription (plan: gold)" in _user(provider)


def test_false_intent_value_overrides_the_found_request():
    with scripted_judge(_intent_judge) as provider:
        result = check(CALL, {**JUDGED, "value": "return the jacket"})
    assert "The caller asked: return the jacket" in _user(provider)
    assert result.passed is False and result.detail["intent_from"] == "value"


def test_false_intent_is_not_measured_when_the_agent_never_says_what_it_does():
    quiet = _reply(("customer", "I want to cancel my order."), ("agent", "Can you give me the order number?"))
    silent = _reply(("agent", "Hello, how can I help?"), ("customer", "Hello."))
    with scripted_judge(lambda r: pass_with(0.9)) as provider:
        no_action = check(quiet, JUDGED)
        no_request = check(silent, JUDGED)
    assert no_action.value is None and "never says what it does" in no_action.reason
    assert no_request.value is None and "never says what they want" in no_request.reason
    assert provider.requests == []
    with pytest.raises(MetricConfigError, match=r"config\.method"):
        create_metric("audio-false-intent-identification", config={"method": "vibes"})


@pytest.fixture(scope="module")
def embeddings():
    try:
        require("embeddings")
    except ModelNotInstalled as exc:
        pytest.skip(str(exc))


def test_false_intent_by_embedding_on_the_labelled_test_rows(embeddings):
    """The default (MiniLM similarity ≥ 0.65, chosen on tune): above chance on test, restatements pass."""
    rows = [r for r in _rows("intent") if r["split"] == "test"]
    results = {}
    for r in rows:
        trusys = {"transcript": r["transcript"], **({"tool_calls": r["tool_calls"]} if "tool_calls" in r else {})}
        results[r["id"]] = check({"output": "", "trusys": trusys}, "audio-false-intent-identification")
    assert all(res.detail["method"] == "embedding" and res.detail["similarity"] == res.value
               for res in results.values())
    right = sum(results[r["id"]].passed == r["label"] for r in rows)
    assert right / len(rows) >= 0.75, right
    mean = {kind: np.mean([results[r["id"]].value for r in rows if r["kind"] == kind])
            for kind in ("restated", "neighbour")}
    assert mean["restated"] > mean["neighbour"] + 0.1, mean
    far = _reply(("customer", "I want to cancel my order."), ("agent", "I'll book you a table for Friday."))
    with scripted_judge(lambda r: pass_with(0.9)):  # the judge says yes; "both" fails on the similarity
        both = check(far, {"metric": "audio-false-intent-identification", "config": {"method": "both"}})
    assert both.value == pytest.approx(0.9) and both.passed is False and "similarity" in both.reason


# ---- audio-sentiment -----------------------------------------------------------------------------------------------

def _sentiment(positive, neutral, negative):
    def respond(request):
        probs = {"positive": positive, "neutral": neutral, "negative": negative}
        return JudgeReply(max(probs, key=probs.get), [(k, math.log(v)) for k, v in probs.items()])
    return respond


SENTIMENT = {"metric": "audio-sentiment", "config": {"method": "judge"}}


def test_sentiment_is_the_most_probable_of_three_and_passes_when_it_is_the_expected_one():
    with scripted_judge(_sentiment(0.1, 0.2, 0.7)) as provider:
        negative = check(CALL, {**SENTIMENT, "value": "negative"})
        positive = check(CALL, {**SENTIMENT, "value": "positive"})
        agent = check(CALL, {"metric": "audio-sentiment", "value": "neutral",
                             "config": {"speaker": "agent", "method": "judge"}})
    assert negative.value == 1.0 and negative.passed is True and negative.detail["sentiment"] == "negative"
    assert negative.detail["scores"] == {"positive": 0.1, "neutral": 0.2, "negative": 0.7}
    assert positive.value == 0.0 and positive.passed is False
    assert agent.passed is False and "the agent's overall sentiment" in _user(provider)
    assert provider.requests[0].options == ("positive", "neutral", "negative")
    assert "the customer's overall sentiment" in _user(provider, 0) and "sarcasm" in _user(provider, 0)
    assert negative.detail["prosody"] == "no recording"


def test_sentiment_config_and_not_measured():
    for bad in ({"value": "happy"}, {"value": "positive", "config": {"speaker": "any"}},
                {"value": "positive", "config": {"method": "vibes"}}):
        with pytest.raises(MetricConfigError):
            create_metric("audio-sentiment", **bad)
    with scripted_judge(_sentiment(0.6, 0.3, 0.1)) as provider:
        result = check(_reply(("agent", "Hello?"), ("agent", "Anyone there?")),
                       {"metric": "audio-sentiment", "value": "neutral"})
    assert result.value is None and "the customer says nothing" in result.reason and provider.requests == []


def test_sentiment_reports_each_speakers_prosody_from_a_stereo_call():
    scene = SCENARIOS["calm"]
    wav = scene.wav()
    reply = {"output": "", "trusys": {"audio": {"base64": base64.b64encode(wav).decode(), "mime": "audio/wav"},
                                      "transcript": scene.script.transcript()}}
    with scripted_judge(_sentiment(0.2, 0.6, 0.2)):
        customer = check(reply, {**SENTIMENT, "value": "neutral"})
        agent = check(reply, {"metric": "audio-sentiment", "value": "neutral",
                              "config": {"speaker": "agent", "method": "judge"}})
    for result in (customer, agent):
        found = result.detail["prosody"]
        # both espeak voices have a ~70-sample period at 8 kHz (checked by autocorrelation of the clips)
        assert isinstance(found, dict) and 85 < found["pitch_hz_median"] < 130, found
        assert found["energy_db_std"] > 0 and 0 < found["voiced_share"] <= 1 and found["pitch_st_std"] > 0.5
    assert customer.detail["prosody"] != agent.detail["prosody"]  # each speaker's own channel and turns
    assert customer.value == 1.0  # prosody does not enter the verdict


def test_sentiment_by_embedding_on_the_labelled_test_rows(embeddings):
    """The default (MiniLM: the customer's sentences against a description of each sentiment, chosen on
    tune): 75 % on test when written (18 of 24); sarcasm is beyond it."""
    rows = [r for r in _rows("sentiment") if r["split"] == "test"]
    results = {r["id"]: check({"output": "", "trusys": {"transcript": r["transcript"]}},
                              {"metric": "audio-sentiment", "value": r["sentiment"]}) for r in rows}
    assert all(res.detail["method"] == "embedding" and set(res.detail["scores"]) == {"positive", "neutral", "negative"}
               for res in results.values())
    right = sum(results[r["id"]].passed for r in rows)
    assert right >= 17, right
    plain = [r for r in rows if r["kind"] == "plain"]
    assert sum(results[r["id"]].passed for r in plain) >= len(plain) - 2
