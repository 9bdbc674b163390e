"""The conversation metrics of a call, over its speaker-labelled transcript, by the judge or by
embeddings: audio-conversation-coherence, audio-false-intent-identification and audio-sentiment, with the
judge's questions they ask."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import numpy as np

from agentunit.audio.call import call_of
from agentunit.audio.conversation import SENTIMENTS
from agentunit.audio.metrics.base import _asr_model, _CallMetric, _number, _recording
from agentunit.audio.statements import Transcript, call_transcript
from agentunit.audio.turns import AGENT, CUSTOMER, UNKNOWN
from agentunit.errors import MetricConfigError
from agentunit.judges.base import JudgeRequest
from agentunit.metrics.base import MetricResult
from agentunit.metrics.judged import JudgedMetric
from agentunit.metrics.registry import register

# Chosen on the tune splits of tests/data/audio/coherence.jsonl, intent.jsonl and sentiment.jsonl (bench/audio.py).
INTENT_METHOD = "embedding"
MIN_INTENT_SIMILARITY = 0.65
SENTIMENT_METHOD = "embedding"
SENTIMENT_DESCRIPTIONS = {
    "positive": "The caller is happy, pleased and grateful.",
    "neutral": "The caller is calm and matter-of-fact, just asking for information.",
    "negative": "The caller is angry, frustrated and unhappy.",
}
STATEMENT_SYSTEM = "You check whether statements about a phone call are true. Answer yes or no."
COHERENCE_STATEMENT = ("The agent's side of this call is coherent: every agent reply follows from what the "
                       "customer just said, stays on the customer's topic, and does not contradict anything the "
                       "agent said earlier.")
INTENT_STATEMENT = ("The agent acted on the caller's request: what the agent did is the same action on the same "
                    "thing the caller asked for, not a different or neighbouring request.")


def _yes_no(user: str) -> JudgeRequest:
    return JudgeRequest.yes_no(STATEMENT_SYSTEM, user)


def coherence_request(dialogue_text: str) -> JudgeRequest:
    """The judge's yes/no question for audio-conversation-coherence."""
    return _yes_no(f"Call transcript:\n{dialogue_text}\n\nStatement: {COHERENCE_STATEMENT}\n\n"
                   "Is the statement true? Answer yes or no.")


def intent_request(request: str, actions: list[str], tools: list[str]) -> JudgeRequest:
    """The judge's yes/no question for audio-false-intent-identification."""
    did = "\n".join([*(f"- the agent said: {a}" for a in actions),
                     *(f"- the agent called the tool: {t}" for t in tools)])
    return _yes_no(f"The caller asked: {request}\nWhat the agent did:\n{did}\n\nStatement: {INTENT_STATEMENT}\n\n"
                   "Is the statement true? Answer yes or no.")


def sentiment_request(dialogue_text: str, speaker: str) -> JudgeRequest:
    """The judge's three-way question for audio-sentiment: the speaker's overall sentiment in the call."""
    who = "customer" if speaker == CUSTOMER else "agent"
    return JudgeRequest((("system", "You rate the sentiment of a speaker in a phone call. Answer positive, neutral "
                                    "or negative."),
                         ("user", f"Call transcript:\n{dialogue_text}\n\nWhat is the {who}'s overall sentiment in "
                                  "this call, reading sarcasm for what it means? Answer positive, neutral or "
                                  "negative.")),
                        options=SENTIMENTS)


def _judge_service():
    from agentunit.judges.service import current_judge

    return current_judge()


def _embedder():
    """MiniLM sentence embeddings, or the reason they cannot be used."""
    from agentunit.models.store import ModelNotInstalled

    try:
        from agentunit.models.embeddings import embed_sync

        embed_sync(["probe"])
    except ModelNotInstalled:
        return "needs the embeddings model: agentunit models install embeddings"
    return embed_sync


class _TranscriptMetric(_CallMetric):
    """A metric of the call's speaker-labelled transcript: the app's ``trusys.transcript``, else speech
    recognition of the recording (``config.transcript``: auto, app, asr; ``config.asr_model``)."""

    def setup(self) -> None:
        super().setup()
        self.prefer = self.config.get("transcript", "auto")
        if self.prefer not in ("auto", "app", "asr"):
            raise MetricConfigError(f"config.transcript must be auto, app or asr, got {self.prefer!r}")
        self.asr_model = _asr_model(self.config)

    def transcript(self, case, outcome) -> Transcript | str:
        transcript = call_transcript(case, outcome, self.options, self.prefer, self.asr_model)
        if isinstance(transcript, str):
            return transcript
        if not any(s["text"].strip() for s in transcript.segments):
            return f"{transcript.source} has no words"
        if all(s["speaker"] == UNKNOWN for s in transcript.segments):
            return (f"no segment of {transcript.source} is labelled agent or customer (mono recording or unknown "
                    "labels) — give one speaker per channel or label segments (config.speakers)")
        return transcript


COHERENCE_METHOD = "turns"
COHERENCE_THRESHOLD = 0.75  # best on the tune split for the default method (bench/audio.py)


def reply_request(customer: str, agent: str) -> JudgeRequest:
    """Per agent reply: does it respond to what the customer just said?"""
    return _yes_no(f"The customer said: {customer}\nThe agent replied: {agent}\n\nStatement: The agent's reply "
                   "responds to what the customer said.\n\nIs the statement true? Answer yes or no.")


@register("audio-conversation-coherence", family="audio", aliases=("audio_conversation_coherence",), needs=(),
          threshold=COHERENCE_THRESHOLD, model="judge", example="{metric: audio-conversation-coherence}")
class ConversationCoherenceMetric(JudgedMetric, _TranscriptMetric):
    """Is the agent's side of the call coherent — does each reply respond to what the customer said?
    Judged over the speaker-labelled transcript (the app's ``trusys.transcript``, else speech recognition
    of the recording); default threshold chosen on the tune split (docs/audio.md).

    ``config.method``: ``turns`` (default) — for every agent turn that follows a customer turn, one yes/no
    judge decision, "the agent's reply responds to what the customer said"; score = the lowest P(yes) over
    the replies, and the detail names the weakest; ``whole`` — one yes/no decision over the whole dialogue
    (follows from the customer, stays on topic, no contradiction), score = P(yes). A topic change the
    customer asks for is coherent. The detail names the transcript source and holds the probabilities."""

    def setup(self) -> None:
        super().setup()
        self.method = _method(self.config, COHERENCE_METHOD, ("turns", "whole"))

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        from agentunit.audio.conversation import dialogue

        transcript = await asyncio.to_thread(self.transcript, case, outcome)
        if isinstance(transcript, str):
            return self.not_measured(transcript)
        text = dialogue(transcript)
        if self.method == "whole":
            decision = await _judge_service().decide(coherence_request(text))
            score = decision.probabilities["yes"]
            return self.result(score, reason=f"P(coherent) = {score:.3f} ({transcript.source})",
                               detail={"judge": decision.to_detail(), "dialogue": text, "method": self.method,
                                       "turns": len(text.splitlines()), **transcript.detail()})
        turns = [line.split(": ", 1) for line in text.splitlines() if ": " in line]
        checked = []
        for i, (name, said) in enumerate(turns):
            if name == "Agent" and i > 0 and turns[i - 1][0] == "Customer":
                responds = await _judge_service().decide(reply_request(turns[i - 1][1], said))
                checked.append({"turn": i, "agent": said, "customer": turns[i - 1][1],
                                "score": round(responds.probabilities["yes"], 4)})
        if not checked:
            return self.not_measured(f"no agent turn answers a customer turn in {transcript.source}")
        weakest = min(checked, key=lambda c: c["score"])
        return self.result(weakest["score"], detail={"method": self.method, "replies": checked, "weakest": weakest,
                                                     "dialogue": text, **transcript.detail()},
                           reason=f"lowest P(the reply responds to the customer) {weakest['score']:.3f} over "
                                  f"{len(checked)} agent replies ({weakest['agent'][:80]!r}; {transcript.source})")


def _method(config: Mapping[str, Any], default: str, allowed: tuple[str, ...]) -> str:
    method = config.get("method", default)
    if method not in allowed:
        raise MetricConfigError(f"config.method must be one of {', '.join(allowed)}, got {method!r}")
    return method


@register("audio-false-intent-identification", family="audio", aliases=("audio_false_intent_identification",),
          needs=(), value="optional", threshold=0.5, model="embeddings",
          example="{metric: audio-false-intent-identification, value: \"cancel my order\"}")
class FalseIntentMetric(JudgedMetric, _TranscriptMetric):
    """Did the agent act on the caller's intent, not a neighbouring one? The caller's intent is ``value``
    when given, else the customer's first request in the transcript (the first customer sentence that asks
    for something: I want / I'd like / I need / can you / please …). What the agent acted on is its own
    restatement — its sentences saying what it does or will do (I'll, I'm, I've, let me …; questions left
    out) — and the run's tool calls (``trusys.tool_calls``, as words: ``cancel_order`` → "cancel order").

    ``config.method`` (default chosen on the tune split, docs/audio.md): ``judge`` — one yes/no judge
    decision, "the agent acted on the caller's request, not a different or neighbouring one", score =
    P(yes), passes at ``threshold`` (0.5); ``embedding`` — the highest MiniLM cosine similarity of the
    request to an action, passes at ``config.min_similarity``; ``both`` — the judge's P(yes), failed when
    the similarity is below ``min_similarity`` too. Not measured when the agent neither said what it did
    nor called a tool. The detail has the request (and whether it was given or found), the actions, the
    tool calls, the similarities and the judge's probabilities."""

    def setup(self) -> None:
        super().setup()
        if self.value is not None and not (isinstance(self.value, str) and self.value.strip()):
            raise MetricConfigError(f"value must be the caller's intent as text, got {self.value!r}")
        self.method = _method(self.config, INTENT_METHOD, ("judge", "embedding", "both"))
        self.min_similarity = _number(self.config, "min_similarity", MIN_INTENT_SIMILARITY, -1.0, 1.0)

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        from agentunit.audio.conversation import agent_actions, caller_request, tool_text
        from agentunit.core.envelope import tool_calls_of

        transcript = await asyncio.to_thread(self.transcript, case, outcome)
        if isinstance(transcript, str):
            return self.not_measured(transcript)
        found = caller_request(transcript)
        if self.value is not None:
            request, origin, after = self.value.strip(), "value", found["segment"] if found else -1
        elif found is not None:
            request, origin, after = found["text"], "the customer's first request", found["segment"]
        else:
            return self.not_measured("the customer never says what they want (no request in the transcript; "
                                     "give the caller's intent as value)")
        actions = [a["text"] for a in agent_actions(transcript, after)]
        tools = [tool_text(c) for c in tool_calls_of(trace, outcome)]
        if not actions and not tools:
            return self.not_measured("the agent never says what it does (no \"I'll…\" / \"I'm…\" sentence after the "
                                     "request) and made no tool call")
        detail: dict[str, Any] = {"caller_intent": request, "intent_from": origin, "agent_actions": actions,
                                  "tool_calls": tools, "method": self.method, **transcript.detail()}
        similarity = None
        if self.method in ("embedding", "both"):
            embed = await asyncio.to_thread(_embedder)
            if isinstance(embed, str):
                return self.not_measured(f"config.method {self.method} {embed}")
            acted = [*actions, *tools]
            vectors = np.asarray(await asyncio.to_thread(embed, [request, *acted]), dtype=np.float32)
            sims = vectors[1:] @ vectors[0]
            best = int(np.argmax(sims))
            similarity = round(float(sims[best]), 4)
            detail.update(similarity=similarity, closest_action=acted[best], min_similarity=self.min_similarity,
                          similarities={a: round(float(x), 4) for a, x in zip(acted, sims, strict=True)})
        if self.method == "embedding":
            passed = similarity >= self.min_similarity
            return self.result(similarity, passed=passed, detail=detail,
                               reason=f"closest action {detail['closest_action']!r}: similarity {similarity:.2f} "
                                      f"{'≥' if passed else '<'} {self.min_similarity:g} to {request!r}")
        decision = await _judge_service().decide(intent_request(request, actions, tools))
        score = decision.probabilities["yes"]
        detail["judge"] = decision.to_detail()
        passed = None
        if self.method == "both" and similarity < self.min_similarity:
            passed = False
        reason = f"P(acted on the caller's intent) = {score:.3f}; intent {request!r} ({origin})" + (
            f"; similarity {similarity:.2f} < {self.min_similarity:g}" if passed is False else "")
        return self.result(score, passed=passed, detail=detail, reason=reason)


@register("audio-sentiment", family="audio", aliases=("audio_sentiment",), needs=(), value="required",
          threshold=1.0, kind="binary", model="embeddings",
          example="{metric: audio-sentiment, value: positive, config: {speaker: customer}}")
class SentimentMetric(JudgedMetric, _TranscriptMetric):
    """1 when the sentiment of ``config.speaker`` (default customer; or agent) over the call is ``value``
    (positive, neutral or negative), else 0.

    The sentiment is read from the transcript (the app's or speech recognition's). ``config.method``
    (default chosen on the tune split, docs/audio.md): ``judge`` — one three-way judge decision over the
    whole speaker-labelled call ("the customer's overall sentiment, reading sarcasm for what it means"),
    the call's sentiment being the most probable option; ``embedding`` — each of the speaker's sentences
    compared with a description of each sentiment (MiniLM), averaged. Prosody — the speaker's energy and
    pitch variation on their channel of a stereo recording (autocorrelation pitch) — is in the detail only:
    no labelled emotional speech ships to calibrate it on (docs/audio.md). The detail has every sentiment's
    probability (judge) or similarity (embedding) and the prosody."""

    def setup(self) -> None:
        super().setup()
        self.speaker = self.config.get("speaker", CUSTOMER)
        if self.speaker not in (AGENT, CUSTOMER):
            raise MetricConfigError(f"config.speaker must be agent or customer, got {self.speaker!r}")
        self.method = _method(self.config, SENTIMENT_METHOD, ("judge", "embedding"))
        if self.value is not None:
            self.check_expected(self.value)

    def check_expected(self, expected: Any) -> None:
        if expected not in SENTIMENTS:
            raise MetricConfigError(f"value must be one of {', '.join(SENTIMENTS)} (the expected sentiment), "
                                    f"got {expected!r}")

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        from agentunit.audio.conversation import dialogue, sentences_of

        expected = self.value if self.value is not None else case.expected_output
        transcript = await asyncio.to_thread(self.transcript, case, outcome)
        if isinstance(transcript, str):
            return self.not_measured(transcript)
        said = [p for s in transcript.segments if s["speaker"] == self.speaker for p in sentences_of(s["text"])]
        if not said:
            return self.not_measured(f"the {self.speaker} says nothing in {transcript.source}")
        detail: dict[str, Any] = {"speaker": self.speaker, "expected": expected, "method": self.method,
                                  **transcript.detail()}
        if self.method == "judge":
            decision = await _judge_service().decide(sentiment_request(dialogue(transcript), self.speaker))
            scores = {k: round(v, 4) for k, v in decision.probabilities.items()}
            detail["judge"] = decision.to_detail()
        else:
            embed = await asyncio.to_thread(_embedder)
            if isinstance(embed, str):
                return self.not_measured(f"config.method embedding {embed}")
            labels = list(SENTIMENT_DESCRIPTIONS.values())
            vectors = np.asarray(await asyncio.to_thread(embed, [*labels, *said]), dtype=np.float32)
            sims = vectors[len(labels):] @ vectors[:len(labels)].T
            scores = {k: round(float(v), 4) for k, v in zip(SENTIMENT_DESCRIPTIONS, sims.mean(axis=0), strict=True)}
        found = max(scores, key=scores.__getitem__)
        detail.update(sentiment=found, scores=scores, prosody=await asyncio.to_thread(self._prosody, case, outcome))
        passed = found == expected
        return self.result(1.0 if passed else 0.0, passed=passed, detail=detail,
                           reason=f"the {self.speaker}'s sentiment reads {found} ({scores[found]:.2f}), "
                                  f"expected {expected}")

    def _prosody(self, case, outcome) -> dict[str, Any] | str:
        """The speaker's energy and pitch variation over their turns, from their channel of a stereo
        recording; a reason instead when there is none."""
        from agentunit.audio.conversation import prosody
        from agentunit.audio.decode import decode_audio

        found = _recording(case, outcome, self.options)
        if found is None or isinstance(found, str):
            return found or "no recording"
        call = call_of(case, outcome, self.options)
        if isinstance(call, str) or call.duration_s is None:
            return "no speaker channels in the recording"
        name, medium = found
        pcm = decode_audio(medium.data, medium.mime, name)
        spans = [(t.start, t.end) for t in call.turns if t.speaker == self.speaker]
        measured = prosody(pcm.channel(self.options.channels[self.speaker]), pcm.rate, spans)
        return measured if measured is not None else f"no voiced audio of the {self.speaker}"
