"""Audio metrics of voice-agent calls: response time, talk-to-listen ratio, interruption handling,
drop-outs (from voice activity per channel or transcript segments), transcription quality (WER), spoken
language and language switches (Whisper's language ID), required disclaimers and consent (matched by
meaning in the speaker-labelled transcript: the app's, or speech recognition's), the call's category, and
the judge-backed conversation metrics: coherence, false intent identification and sentiment.

The timing metrics read the call's turns (agentunit.audio.call): a stereo recording with one speaker
per channel (``config.channels``, default agent = left), separate per-speaker tracks (``trusys.audio_tracks`` or
the case's ``metadata.audio_tracks``, merged by agentunit.audio.recording) or ``trusys.transcript`` segments
``{speaker, start, end, text}``. A mono recording without speaker labels leaves them not measured
(no diarization model ships), except the dead-air and truncation checks of ``audio-drop-out-rates``.
See docs/audio.md.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from agentunit.audio.asr import ASR_MODELS, asr_missing, turn_languages
from agentunit.audio.call import Call, CallOptions, call_of
from agentunit.audio.conversation import SENTIMENTS
from agentunit.audio.statements import (
    StatementMatcher,
    Transcript,
    asks_permission,
    call_transcript,
    consent_answer,
    sentence_windows,
    speaker_of,
)
from agentunit.audio.timing import barge_ins, drop_outs, response_gaps, summary_ms, talk_time
from agentunit.audio.transcription import error_rates, normalise, transcript_text
from agentunit.audio.turns import AGENT, CUSTOMER, UNKNOWN
from agentunit.audio.vad import FRAME_MS, VadSettings
from agentunit.errors import MetricConfigError
from agentunit.judges.base import JudgeRequest
from agentunit.metrics.base import Metric, MetricResult, keyword_config
from agentunit.metrics.judged import JudgedMetric
from agentunit.metrics.registry import register

__all__ = ["AgentResponseTimeMetric", "AudioTranscriptionMetric", "CallCategoryMetric", "ConsentCheckMetric",
           "ConversationCoherenceMetric", "DisclaimerCheckMetric", "DropOutRatesMetric", "FalseIntentMetric",
           "InterruptionHandlingMetric", "LanguageMetric", "LanguageSwitchMetric", "SentimentMetric",
           "TalkToListenRatioMetric"]

DEFAULT_BAND = (0.5, 2.0)
_DROP_CHECKS = ("dead_air", "no_agent_reply", "truncated")
# Calibrated on the tune split of tests/data/audio/disclaimer.jsonl and consent.jsonl (bench/audio.py).
MIN_SIMILARITY = 0.5
MIN_COVERAGE = 0.0
# Chosen on the tune split of tests/data/audio/language.jsonl and language_switch.jsonl (bench/audio.py
# --part=language): the call's averaged language needs less confidence than a single turn's switch.
MIN_LANGUAGE_CONFIDENCE = 0.3
MIN_SWITCH_CONFIDENCE = 0.5


def _number(config: Mapping[str, Any], key: str, default: float, low: float = 0.0,
            high: float = math.inf) -> float:
    value = config.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        bound = f"between {low:g} and {high:g}" if high != math.inf else f"≥ {low:g}"
        raise MetricConfigError(f"config.{key} must be a number {bound}, got {value!r}")
    return float(value)


def _speaker_map(config: Mapping[str, Any], key: str, kind: type) -> dict[str, Any] | None:
    value = config.get(key)
    if value is None:
        return None
    if not isinstance(value, Mapping) or set(value) != {AGENT, CUSTOMER}:
        raise MetricConfigError(f"config.{key} must be {{agent: …, customer: …}}, got {value!r}")
    for speaker, item in value.items():
        if kind is int and (isinstance(item, bool) or not isinstance(item, int) or item < 0):
            raise MetricConfigError(f"config.{key}.{speaker} must be a channel index ≥ 0, got {item!r}")
        if kind is str and not isinstance(item, str):
            raise MetricConfigError(f"config.{key}.{speaker} must be a speaker label, got {item!r}")
    if len(set(value.values())) != 2:
        raise MetricConfigError(f"config.{key}: agent and customer must differ, got {dict(value)!r}")
    return dict(value)


def call_options(config: Mapping[str, Any]) -> CallOptions:
    """CallOptions from a metric's config, validated; MetricConfigError names the bad key."""
    audio = config.get("audio", "auto")
    if audio not in ("auto", "reply", "input"):
        raise MetricConfigError(f"config.audio must be auto, reply or input, got {audio!r}")
    frame_ms = config.get("frame_ms", 30)
    if frame_ms not in FRAME_MS:
        raise MetricConfigError(f"config.frame_ms must be one of 10, 20, 30, got {frame_ms!r}")
    aggressiveness = config.get("aggressiveness", 2)
    if aggressiveness not in (0, 1, 2, 3) or isinstance(aggressiveness, bool):
        raise MetricConfigError(f"config.aggressiveness must be 0, 1, 2 or 3, got {aggressiveness!r}")
    vad = VadSettings(int(aggressiveness), int(frame_ms), _number(config, "hangover_ms", 300.0),
                      _number(config, "min_speech_ms", 120.0))
    return CallOptions(audio=audio, channels=_speaker_map(config, "channels", int) or {AGENT: 0, CUSTOMER: 1},
                       speakers=_speaker_map(config, "speakers", str), vad=vad,
                       join_gap_s=_number(config, "join_gap_s", 1.0))


class _CallMetric(Metric):
    """A metric of a call's turns: parses the shared config once; ``call`` finds the turns."""

    def __init__(self, value: Any = None, **base: Any):
        super().__init__(value, config=keyword_config({}, base), **base)

    def setup(self) -> None:
        self.options = call_options(self.config)
        self.min_overlap_s = _number(self.config, "min_overlap_s", 0.25)

    def call(self, case, outcome) -> Call | str:
        return call_of(case, outcome, self.options)


@register("audio-agent-response-time", family="audio", aliases=("audio_agent_response_time",), needs=(),
          direction="lower", kind="raw", example="{metric: audio-agent-response-time, threshold: 1500}")
class AgentResponseTimeMetric(_CallMetric):
    """Mean time in ms from the end of a customer turn to the start of the agent's next turn; passes when
    ≤ ``threshold`` (ms), like ``latency`` (no threshold: no verdict).

    Each customer turn the agent answered gives one gap (agentunit.audio.timing.response_gaps): a customer
    turn followed by another customer turn, or overlapped by the agent for ≥ ``config.min_overlap_s``
    (0.25 s, a barge-in), gives none. The detail has p50, p95 and max, every gap and every skipped turn
    with the reason, and the turns. Not measured when no customer turn was answered or the call has no
    speaker-labelled turns.
    """

    def evaluate(self, case, trace, outcome) -> MetricResult:
        call = self.call(case, outcome)
        if isinstance(call, str):
            return self.not_measured(call)
        gaps, skipped = response_gaps(call.turns, self.min_overlap_s)
        if not gaps:
            return self.not_measured(f"no customer turn was answered by an agent turn ({len(skipped)} skipped)")
        stats = summary_ms([g["gap_ms"] for g in gaps])
        limit = f" (limit {self.threshold:g} ms)" if self.threshold is not None else ""
        return self.result(stats["mean_ms"], detail={**stats, "replies": len(gaps), "gaps": gaps, "skipped": skipped,
                                                     **call.detail()},
                           reason=f"mean {stats['mean_ms']:.0f} ms, p95 {stats['p95_ms']:.0f} ms, "
                                  f"max {stats['max_ms']:.0f} ms over {len(gaps)} replies{limit}")


@register("audio-talk-to-listen-ratio", family="audio", aliases=("audio_talk_to_listen_ratio",), needs=(),
          direction="lower", kind="raw", example="{metric: audio-talk-to-listen-ratio, config: {band: [0.5, 1.5]}}")
class TalkToListenRatioMetric(_CallMetric):
    """Agent speech time / customer speech time (summed turn lengths); passes inside ``config.band``
    (default [0.5, 2.0]: neither side talks more than twice as long as the other). A ``threshold``
    replaces the band's upper end. Not measured when the customer never speaks."""

    def setup(self) -> None:
        super().setup()
        band = self.config.get("band", list(DEFAULT_BAND))
        if not isinstance(band, list | tuple) or len(band) != 2 or not all(
                isinstance(b, int | float) and not isinstance(b, bool) and b >= 0 for b in band) or band[0] > band[1]:
            raise MetricConfigError(f"config.band must be [low, high] with 0 ≤ low ≤ high, got {band!r}")
        self.band = (float(band[0]), float(self.threshold) if self.threshold is not None else float(band[1]))

    def evaluate(self, case, trace, outcome) -> MetricResult:
        call = self.call(case, outcome)
        if isinstance(call, str):
            return self.not_measured(call)
        seconds = talk_time(call.turns)
        if seconds[CUSTOMER] <= 0:
            return self.not_measured("the customer never speaks (no customer speech to divide by)")
        ratio = seconds[AGENT] / seconds[CUSTOMER]
        low, high = self.band
        return self.result(round(ratio, 4), passed=low <= ratio <= high,
                           detail={"agent_s": seconds[AGENT], "customer_s": seconds[CUSTOMER], "band": [low, high],
                                   "agent_share": round(seconds[AGENT] / (seconds[AGENT] + seconds[CUSTOMER]), 4),
                                   **call.detail()},
                           reason=f"agent {seconds[AGENT]:.1f} s / customer {seconds[CUSTOMER]:.1f} s = {ratio:.2f} "
                                  f"(band {low:g}–{high:g})")


@register("audio-interruption-handling", family="audio", aliases=("audio_interruption_handling",), needs=(),
          threshold=1.0, example="{metric: audio-interruption-handling, config: {yield_within_s: 1.0}}")
class InterruptionHandlingMetric(_CallMetric):
    """Share of barge-ins handled well: the customer's barge-ins the agent yielded to (stopped within
    ``config.yield_within_s``, default 1.0 s) over all barge-ins, where the agent's own barge-ins on the
    customer count as not handled (``config.agent_barge_ins: false`` leaves them out). A barge-in is a
    turn that starts during the other speaker's turn and overlaps it by ≥ ``config.min_overlap_s``
    (0.25 s). No barge-ins: 1.0. Default threshold 1.0 (every barge-in handled). The detail lists each:
    who interrupted whom, when, the overlap and whether the interrupted speaker yielded."""

    def setup(self) -> None:
        super().setup()
        self.yield_within_s = _number(self.config, "yield_within_s", 1.0)
        self.agent_barge_ins = bool(self.config.get("agent_barge_ins", True))

    def evaluate(self, case, trace, outcome) -> MetricResult:
        call = self.call(case, outcome)
        if isinstance(call, str):
            return self.not_measured(call)
        events = barge_ins(call.turns, self.min_overlap_s, self.yield_within_s)
        by_customer = [e for e in events if e["interrupter"] == CUSTOMER]
        by_agent = [e for e in events if e["interrupter"] == AGENT]
        yielded = sum(e["yielded"] for e in by_customer)
        counted = len(by_customer) + (len(by_agent) if self.agent_barge_ins else 0)
        value = yielded / counted if counted else 1.0
        detail = {"barge_ins": events, "customer_barge_ins": len(by_customer), "agent_yielded": yielded,
                  "agent_barge_ins": len(by_agent), "yield_within_s": self.yield_within_s, **call.detail()}
        reason = (f"agent yielded to {yielded} of {len(by_customer)} customer barge-ins within "
                  f"{self.yield_within_s:g} s; agent barged in {len(by_agent)} time(s)") if events else "no barge-ins"
        return self.result(value, detail=detail, reason=reason)


@register("audio-drop-out-rates", family="audio", aliases=("audio_drop_out_rates", "audio-drop-out-rate"), needs=(),
          threshold=1.0, kind="binary", example="{metric: audio-drop-out-rates, config: {dead_air_s: 3}}")
class DropOutRatesMetric(_CallMetric):
    """1 when the call has no drop-out, else 0; the suite's drop-out rate is the share of calls failing.

    Drop-outs (``config.checks``, default all): ``dead_air`` — everyone silent for more than
    ``config.dead_air_s`` (3 s) between the first and last speech; ``no_agent_reply`` — the call ends on
    a customer turn with no agent speech after it; ``truncated`` — a turn still running at the end of the
    recording. A mono recording without speaker labels is checked for dead air and truncation only.
    The detail lists each event, the dead air in total and per minute."""

    def setup(self) -> None:
        super().setup()
        self.dead_air_s = _number(self.config, "dead_air_s", 3.0)
        checks = self.config.get("checks", list(_DROP_CHECKS))
        if not isinstance(checks, list | tuple) or not checks or any(c not in _DROP_CHECKS for c in checks):
            raise MetricConfigError(f"config.checks must be a list of {', '.join(_DROP_CHECKS)}, got {checks!r}")
        self.checks = tuple(checks)

    def evaluate(self, case, trace, outcome) -> MetricResult:
        call = call_of(case, outcome, self.options, mono=True)
        if isinstance(call, str):
            return self.not_measured(call)
        found = drop_outs(call.turns, call.duration_s, self.dead_air_s)
        speakers_known = any(t.speaker in (AGENT, CUSTOMER) for t in call.turns)
        events = {"dead_air": len(found["dead_air"]),
                  "no_agent_reply": int(bool(found["ended_without_agent_reply"])) if speakers_known else 0,
                  "truncated": len(found["truncated_turns"])}
        counted = {k: v for k, v in events.items() if k in self.checks and v}
        if not speakers_known:
            found["ended_without_agent_reply"] = None
        minutes = (call.duration_s or 0) / 60.0
        detail = {**found, "checks": list(self.checks), "dead_air_s": self.dead_air_s, "speakers_known": speakers_known,
                  "dead_air_per_minute": round(len(found["dead_air"]) / minutes, 3) if minutes else None,
                  **call.detail()}
        reason = ("drop-out: " + ", ".join(f"{k.replace('_', ' ')} ×{v}" for k, v in counted.items())) if counted \
            else f"no drop-out ({', '.join(self.checks)} checked)"
        if not speakers_known:
            reason += "; no speaker labels, so an unanswered ending was not checked"
        return self.result(0.0 if counted else 1.0, detail=detail, reason=reason)


@register("audio_transcription_quality", family="audio", aliases=("audio-transcription-quality",),
          needs=("expected_output",), value="optional", threshold=0.8,
          example="{metric: audio_transcription_quality, value: \"I was charged twice this month.\"}")
class AudioTranscriptionMetric(Metric):
    """Transcript against the reference (``value`` or ``expected_output``): accuracy = max(0, 1 − WER).

    It scores the app's transcript: ``trusys.transcript`` (segments joined in start order, or its text),
    else the output; ``config.source: output|transcript`` forces one. ``config.source: asr`` scores
    agentunit's own speech recognition of the recording instead (``config.asr_model``, default ``asr``) —
    a check of the recogniser, never chosen automatically. Both texts are normalised (case-folded,
    punctuation removed) and compared with jiwer: WER = (substitutions + deletions + insertions) /
    reference words, CER likewise over characters. The detail also has AgentUnit's character-set
    precision and recall. ``use_wer=False`` scores 1 − CER instead. Default threshold 0.8. No transcript:
    not measured.
    """

    def __init__(self, value: Any = None, *, use_wer: bool = True, **base: Any):
        super().__init__(value, config=keyword_config({"use_wer": use_wer}, base), **base)

    def setup(self) -> None:
        self.source = self.config.get("source", "auto")
        if self.source not in ("auto", "output", "transcript", "asr"):
            raise MetricConfigError(f"config.source must be auto, output, transcript or asr, got {self.source!r}")
        self.use_wer = bool(self.config.get("use_wer", True))
        self.asr_model = _asr_model(self.config)
        self.options = call_options(self.config)

    def evaluate(self, case, trace, outcome) -> MetricResult:
        reference = self.expected(case)
        if not isinstance(reference, str):
            return self.not_measured(f"the reference transcript must be text, got {type(reference).__name__}")
        asr: dict[str, Any] = {}
        if self.source == "asr":
            found = call_transcript(case, outcome, self.options, "asr", self.asr_model)
            if isinstance(found, str):
                return self.not_measured(found)
            text = " ".join(seg["text"] for seg in found.segments).strip() or None
            where, asr = found.source, {"asr_model": found.asr_model, "asr_seconds": found.asr_seconds}
        else:
            text, where = transcript_text(outcome, self.source)
        if text is None:
            return self.not_measured(f"no transcript ({where} is empty): this metric scores the app's transcript — "
                                     "return it in the output or trusys.transcript (config.source: asr scores "
                                     "agentunit's speech recognition of the recording instead)")
        rates = error_rates(reference, text)
        ref_chars, hyp_chars = set(normalise(reference)), set(normalise(text))
        common = len(ref_chars & hyp_chars)
        accuracy = max(0.0, 1.0 - rates["wer"])
        value = accuracy if self.use_wer else max(0.0, 1.0 - rates["cer"])
        detail = {"wer": round(rates["wer"], 4), "cer": round(rates["cer"], 4), "accuracy": round(accuracy, 4),
                  "char_precision": round(common / len(hyp_chars), 4) if hyp_chars else 0.0,
                  "char_recall": round(common / len(ref_chars), 4) if ref_chars else 0.0,
                  **{k: rates[k] for k in ("substitutions", "deletions", "insertions", "reference_words")},
                  "transcript_source": where, "scored_by": "1 - WER" if self.use_wer else "1 - CER", **asr}
        return self.result(round(value, 4), detail=detail,
                           reason=f"WER {rates['wer']:.3f}, CER {rates['cer']:.3f} ({where} vs the reference)")


def _asr_model(config: Mapping[str, Any]) -> str:
    model = config.get("asr_model", "asr")
    if model not in ASR_MODELS:
        raise MetricConfigError(f"config.asr_model must be one of {', '.join(ASR_MODELS)}, got {model!r}")
    return model


def _texts(value: Any, what: str) -> list[str]:
    items = value if isinstance(value, list) else [value]
    if not items or not all(isinstance(i, str) and i.strip() for i in items):
        raise MetricConfigError(f"value must be the {what} as text or a list of texts, got {value!r}")
    return items


def _seconds_or_none(config: Mapping[str, Any], key: str) -> float | None:
    return None if config.get(key) is None else _number(config, key, 0.0)


def _recording(case, outcome, options: CallOptions):
    """(field, Media) of the call's recording (separate tracks merged: agentunit.audio.recording), the reason
    it cannot be used, or None."""
    from agentunit.audio.recording import call_recording

    return call_recording(case, outcome, options)


class _LanguageMetric(_CallMetric):
    """Shared by the language metrics: Whisper's language ID per turn of the recording."""

    default_confidence = MIN_LANGUAGE_CONFIDENCE

    def setup(self) -> None:
        super().setup()
        self.min_confidence = _number(self.config, "min_confidence", self.default_confidence, 0.0, 1.0)
        self.speaker = speaker_of(self.config.get("speaker", "any"), "speaker")
        model = self.config.get("asr_model", "asr")
        if model != "asr":
            raise MetricConfigError(f"config.asr_model must be asr (the multilingual model) for language ID, "
                                    f"got {model!r}")

    def languages(self, case, outcome) -> tuple[list[dict[str, Any]], str] | str:
        found = _recording(case, outcome, self.options)
        if found is None:
            return ("spoken-language ID needs the call recording (trusys.audio, trusys.audio_tracks or the case's "
                    "audio)")
        if isinstance(found, str):
            return found
        missing = asr_missing("asr")
        if missing:
            return f"spoken-language ID needs the asr model: agentunit models install asr ({missing})"
        name, medium = found
        turns = turn_languages(medium.data, medium.mime, medium.sha256, self.options, "asr", name)
        turns = [t for t in turns if self.speaker == "any" or t["speaker"] == self.speaker]
        if not turns:
            who = "" if self.speaker == "any" else f" of the {self.speaker}"
            return f"no speech{who} in {name}"
        return turns, name


@register("audio-language", family="audio", aliases=("audio_language",), needs=(), value="optional",
          threshold=1.0, kind="binary", model="asr", example="{metric: audio-language, value: [en, de]}")
class LanguageMetric(_LanguageMetric):
    """The call's spoken language (ISO 639-1 code) by Whisper's language ID; passes when it is identified
    with confidence ≥ ``config.min_confidence`` (0.3, chosen on the tune split of the labelled calls) and is in
    the allow-list ``value`` (a code or list; none: any identified language passes).

    Every turn of ``config.speaker`` (any, agent, customer; default any) is run through Whisper base's
    language detection on its own audio (five most likely languages kept); the call's distribution is
    the turns' probabilities averaged with each turn's length as its weight, the language is its most
    likely one and the confidence that average probability. Below the floor the language is ``unknown``
    and the metric fails (value 0) — an unidentified language is not a pass. Needs the recording and the
    ``asr`` model. The detail has every turn's language and the averaged top five. A call mixing two languages
    passes when its longer language is allowed; audio-language-switch is the check for mixing.
    """

    def setup(self) -> None:
        super().setup()
        self.allowed = None
        if self.value is not None:
            codes = self.value if isinstance(self.value, list) else [self.value]
            if not codes or not all(isinstance(c, str) and c.strip() for c in codes):
                raise MetricConfigError(f"value must be a language code (ISO 639-1, e.g. en) or a list of them, "
                                        f"got {self.value!r}")
            self.allowed = [c.strip().casefold() for c in codes]

    def evaluate(self, case, trace, outcome) -> MetricResult:
        found = self.languages(case, outcome)
        if isinstance(found, str):
            return self.not_measured(found)
        turns, name = found
        weights = [max(t["end"] - t["start"], 0.01) for t in turns]
        totals: dict[str, float] = {}
        for turn, weight in zip(turns, weights, strict=True):
            for code, p in turn["probs"].items():
                totals[code] = totals.get(code, 0.0) + weight * p
        ranked = sorted(((code, p / sum(weights)) for code, p in totals.items()), key=lambda x: -x[1])
        language, confidence = ranked[0]
        identified = confidence >= self.min_confidence
        allowed = self.allowed is None or language in self.allowed
        passed = identified and allowed
        detail = {"language": language if identified else "unknown", "confidence": round(confidence, 4),
                  "top": {c: round(p, 4) for c, p in ranked[:5]}, "min_confidence": self.min_confidence,
                  "allowed": self.allowed, "speaker": self.speaker, "turns": turns, "recording": name,
                  "asr_model": "asr (Whisper base (multilingual), faster-whisper)"}
        if not identified:
            reason = (f"language unknown: the most likely, {language}, has confidence {confidence:.2f} "
                      f"< {self.min_confidence:g}")
        else:
            reason = f"{language} (confidence {confidence:.2f})" + (
                "" if self.allowed is None else f", {'in' if allowed else 'not in'} {', '.join(self.allowed)}")
        return self.result(1.0 if passed else 0.0, passed=passed, detail=detail, reason=reason)


@register("audio-language-switch", family="audio", aliases=("audio_language_switch",), needs=(), threshold=0,
          direction="lower", kind="raw", model="asr", example="{metric: audio-language-switch, threshold: 0}")
class LanguageSwitchMetric(_LanguageMetric):
    """The number of language switches in the call; passes when ≤ ``threshold`` (default 0: one language).

    Each turn of ``config.speaker`` (default any: the whole conversation in time order) gets Whisper
    base's language ID on its own audio; a turn whose top language has probability < ``config.min_confidence``
    (0.5, chosen on the tune split of the labelled calls) is ``unknown`` and neither makes nor breaks a
    switch. A switch is a turn whose identified language differs from the previous identified turn's; the
    detail lists each (``at`` s, ``speaker``, ``from``, ``to``) and every turn's language. Needs the recording
    and the ``asr`` model; not measured when no turn's language is identified.
    """

    default_confidence = MIN_SWITCH_CONFIDENCE

    def evaluate(self, case, trace, outcome) -> MetricResult:
        found = self.languages(case, outcome)
        if isinstance(found, str):
            return self.not_measured(found)
        turns, name = found
        switches, previous, identified = [], None, 0
        for turn in turns:
            if turn["probability"] < self.min_confidence:
                continue
            identified += 1
            if previous is not None and turn["language"] != previous["language"]:
                switches.append({"at": turn["start"], "speaker": turn["speaker"], "from": previous["language"],
                                 "to": turn["language"]})
            previous = turn
        if not identified:
            return self.not_measured(f"no turn's language was identified with confidence ≥ {self.min_confidence:g}")
        languages = sorted({t["language"] for t in turns if t["probability"] >= self.min_confidence})
        detail = {"switches": switches, "languages": languages, "identified_turns": identified,
                  "unknown_turns": len(turns) - identified, "min_confidence": self.min_confidence,
                  "speaker": self.speaker, "turns": turns, "recording": name}
        reason = (f"{len(switches)} switch(es): " + ", ".join(f"{s['from']}→{s['to']} at {s['at']:.1f} s"
                                                              for s in switches)) if switches \
            else f"no switch ({', '.join(languages)} throughout)"
        return self.result(float(len(switches)), detail=detail, reason=reason)


class _StatementMetric(_CallMetric):
    """Shared by the disclaimer and consent checks: the transcript, its sentence windows, the matcher."""

    what = "statement"

    def setup(self) -> None:
        super().setup()
        self.statements = _texts(self.value, self.what) if self.value is not None else None
        self.prefer = self.config.get("transcript", "auto")
        if self.prefer not in ("auto", "app", "asr"):
            raise MetricConfigError(f"config.transcript must be auto, app or asr, got {self.prefer!r}")
        self.asr_model = _asr_model(self.config)
        self.within_s = _seconds_or_none(self.config, "within_s")
        self.min_similarity = _number(self.config, "min_similarity", MIN_SIMILARITY, -1.0, 1.0)
        self.min_coverage = _number(self.config, "min_coverage", MIN_COVERAGE, 0.0, 1.0)
        self.matcher: StatementMatcher | None = None

    def check_expected(self, expected: Any) -> None:
        _texts(expected, self.what)

    def prepare(self, case, outcome) -> tuple[list[str], Transcript, list[dict[str, Any]], list] | str:
        statements = self.statements or _texts(case.expected_output, self.what)
        transcript = call_transcript(case, outcome, self.options, self.prefer, self.asr_model)
        if isinstance(transcript, str):
            return transcript
        if self.within_s is not None and not transcript.timed:
            return (f"{transcript.source} segments have no start/end times, so config.within_s cannot be checked "
                    "— give {speaker, start, end, text} segments")
        if all(s["speaker"] == UNKNOWN for s in transcript.segments):
            return (f"no segment of {transcript.source} is labelled agent or customer (mono recording or unknown "
                    "labels) — give one speaker per channel or label segments (config.speakers)")
        windows = sentence_windows(transcript)
        if self.matcher is None:
            from agentunit.models.store import ModelNotInstalled

            try:
                self.matcher = StatementMatcher()
                self.matcher.embed(["probe"])
            except ModelNotInstalled:
                self.matcher = None
                return "matching by meaning needs the embeddings model: agentunit models install embeddings"
        return statements, transcript, windows, self.matcher.compare(statements, windows)

    def base_detail(self, transcript: Transcript) -> dict[str, Any]:
        return {"within_s": self.within_s, "min_similarity": self.min_similarity, "min_coverage": self.min_coverage,
                **transcript.detail(),
                "segments": [{k: s[k] for k in ("speaker", "start", "end", "text")} for s in transcript.segments]}

    def said(self, row: list, windows: list[dict[str, Any]], speaker: str,
             until: float | None) -> tuple[int | None, str]:
        """(index of the earliest window that says the statement by ``speaker`` by ``until``, or None; why)."""
        matched = [j for j, m in enumerate(row) if m.matches(self.min_similarity, self.min_coverage)]
        matched.sort(key=lambda j: (windows[j]["start"] if windows[j]["start"] is not None else j))
        right = [j for j in matched if speaker == "any" or windows[j]["speaker"] == speaker]
        in_time = [j for j in right if until is None or windows[j]["end"] <= until + 1e-6]
        if in_time:
            return in_time[0], "found"
        if right:
            return None, f"said too late, at {windows[right[0]]['start']:.1f} s (limit {until:g} s)"
        if matched:
            return None, f"said by the {windows[matched[0]]['speaker']}, not the {speaker}"
        if not row:
            return None, "the transcript has no text"
        best = max(range(len(row)), key=lambda j: row[j].similarity)
        return None, f"not said (closest: {windows[best]['text']!r}: " \
                     f"{row[best].why_not(self.min_similarity, self.min_coverage)})"


def _window(window: dict[str, Any], match) -> dict[str, Any]:
    return {"speaker": window["speaker"], "at": None if window["start"] is None else round(window["start"], 2),
            "end": None if window["end"] is None else round(window["end"], 2), "words": window["text"],
            "similarity": match.similarity, "coverage": match.coverage}


@register("audio-disclaimer-check", family="audio", aliases=("audio_disclaimer_check",), needs=(),
          value="required", threshold=1.0, model="embeddings",
          example="{metric: audio-disclaimer-check, value: \"This call is recorded for quality and training.\", "
                  "config: {within_s: 30}}")
class DisclaimerCheckMetric(_StatementMetric):
    """Share of the required disclaimers (``value``: a text or a list, all required) the agent said, by
    meaning, within ``config.within_s`` seconds of the start of the call (unset: any time); default
    threshold 1.0 (every one said).

    The transcript is the reply's ``trusys.transcript`` segments, else speech recognition of the recording
    (``config.transcript``: auto, app, asr; ``config.asr_model``). Each segment is cut into sentences and
    pairs of adjacent sentences (times from word timestamps, else spread over the segment by character
    position). A window says a disclaimer when its MiniLM cosine similarity is ≥ ``config.min_similarity``
    and the lexical check passes: ≥ ``config.min_coverage`` of the disclaimer's content words (stems, stop
    words dropped) appear in it, negation agrees (both or neither negated) and every number of the
    disclaimer appears (digits or words). It counts when said by ``config.speaker`` (default agent) and the
    window ends by ``within_s``. The defaults are calibrated on a labelled tune split (docs/audio.md). The
    detail gives, per disclaimer, the time and the words found, or why not: said too late, said by the
    other speaker, or the closest window and what it lacked.
    """

    what = "required disclaimer"

    def setup(self) -> None:
        super().setup()
        self.speaker = speaker_of(self.config.get("speaker", AGENT), "speaker")

    def evaluate(self, case, trace, outcome) -> MetricResult:
        found = self.prepare(case, outcome)
        if isinstance(found, str):
            return self.not_measured(found)
        statements, transcript, windows, table = found
        checks = []
        for statement, row in zip(statements, table, strict=True):
            index, why = self.said(row, windows, self.speaker, self.within_s)
            checks.append({"statement": statement, "said": index is not None, "why": why,
                           **({"found": _window(windows[index], row[index])} if index is not None else {})})
        said = sum(c["said"] for c in checks)
        missing = [c for c in checks if not c["said"]]
        reason = f"{said} of {len(checks)} disclaimer(s) said by the {self.speaker}" + (
            f"; missing: {missing[0]['statement']!r} ({missing[0]['why']})" if missing else "")
        return self.result(said / len(checks), detail={"disclaimers": checks, "speaker": self.speaker,
                                                       **self.base_detail(transcript)}, reason=reason)


@register("audio-consent-check", family="audio", aliases=("audio_consent_check",), needs=(),
          value="required", threshold=1.0, model="embeddings",
          example="{metric: audio-consent-check, value: \"Do you agree to this call being recorded?\", "
                  "config: {within_s: 60}}")
class ConsentCheckMetric(_StatementMetric):
    """Share of the consents (``value``: the agent's request, a text or a list, all required) the customer
    gave; default threshold 1.0.

    Consent to a request is given when (1) the agent says the request, matched by meaning as in
    ``audio-disclaimer-check`` (sentence windows, MiniLM similarity + lexical check), in a sentence that
    asks for permission (agree, consent, accept, okay, happy, permission, authorise, allow, may I/we, can
    I/we, would you like…: "did you read the terms?" asks a fact, not consent); (2) the customer's
    next segment — the first customer segment starting no earlier than 1 s before that request window ends
    and within ``config.answer_within_s`` (10 s) after it (untimed segments: the next customer segment) —
    answers yes: its first two sentences hold an agreeing phrase (yes, sure, okay, I agree, go ahead, no
    problem…) and no refusal (no, not, don't, rather not, decline…; "no problem", "not at all", "I don't
    mind" count as yes); and (3) that answer starts by ``config.within_s`` (unset: any time). The earliest
    such request and answer count; a yes without a request before it, the agent agreeing for the customer,
    or a refusal is not consent, and a later withdrawal is not looked for. Phrase requests so that yes
    means consent ("Do you agree…", not "Do you mind…"). The detail gives each request found, the answer
    and its reading.
    """

    what = "consent request"

    def setup(self) -> None:
        super().setup()
        self.answer_within_s = _number(self.config, "answer_within_s", 10.0)

    def evaluate(self, case, trace, outcome) -> MetricResult:
        found = self.prepare(case, outcome)
        if isinstance(found, str):
            return self.not_measured(found)
        statements, transcript, windows, table = found
        segments = transcript.segments
        checks = []
        for statement, row in zip(statements, table, strict=True):
            asked = [j for j, m in enumerate(row) if windows[j]["speaker"] == AGENT
                     and m.matches(self.min_similarity, self.min_coverage) and asks_permission(windows[j]["text"])]
            asked.sort(key=lambda j: (windows[j]["start"] if windows[j]["start"] is not None else j))
            check: dict[str, Any] = {"request": statement, "consented": False, "asked": bool(asked)}
            for j in asked:
                answer = self._answer(segments, windows[j])
                reading = consent_answer(answer["text"]) if answer else None
                check.update(request_found=_window(windows[j], row[j]),
                             answer=None if answer is None else {k: answer[k] for k in ("start", "end", "text")},
                             answer_reading=reading or "unclear")
                if reading != "yes":
                    continue
                late = self.within_s is not None and answer["start"] > self.within_s + 1e-6
                check["consented"] = not late
                check["why"] = f"answered yes at {answer['start']:.1f} s, after the limit {self.within_s:g} s" \
                    if late else "asked and answered yes"
                break
            if "why" not in check:
                if not asked:
                    index, why = self.said(row, windows, AGENT, None)
                    check["why"] = (f"the agent's matching sentence does not ask for permission: "
                                    f"{windows[index]['text']!r}") if index is not None \
                        else f"the agent never asked ({why})"
                elif check.get("answer") is None:
                    check["why"] = f"no customer answer within {self.answer_within_s:g} s of the request"
                else:
                    check["why"] = f"the customer's answer reads {check['answer_reading']}"
            checks.append(check)
        given = sum(c["consented"] for c in checks)
        missing = [c for c in checks if not c["consented"]]
        reason = f"consent given to {given} of {len(checks)} request(s)" + (
            f"; missing: {missing[0]['request']!r} ({missing[0]['why']})" if missing else "")
        return self.result(given / len(checks), detail={"consents": checks, "answer_within_s": self.answer_within_s,
                                                        **self.base_detail(transcript)}, reason=reason)

    def _answer(self, segments: list[dict[str, Any]], request: dict[str, Any]) -> dict[str, Any] | None:
        if request["end"] is None:
            later = [s for i, s in enumerate(segments) if i > request["segment"] and s["speaker"] == CUSTOMER]
            return later[0] if later else None
        for segment in segments:
            if segment["speaker"] == CUSTOMER and request["end"] - 1.0 <= segment["start"] \
                    <= request["end"] + self.answer_within_s:
                return segment
        return None


def _categories(config: Mapping[str, Any]) -> dict[str, str]:
    categories = config.get("categories")
    if isinstance(categories, list) and categories and all(isinstance(c, str) and c.strip() for c in categories):
        categories = {c: c for c in categories}
    if not isinstance(categories, Mapping) or len(categories) < 2 or not all(
            isinstance(k, str) and k.strip() and isinstance(v, str) and v.strip() for k, v in categories.items()):
        raise MetricConfigError("config.categories must list two or more categories: [name, …] or "
                                f"{{name: description, …}}, got {categories!r}")
    return dict(categories)


@register("audio-call-category", family="audio", aliases=("audio_call_category",), needs=(), value="required",
          threshold=1.0, kind="binary", model="embeddings",
          example="{metric: audio-call-category, value: billing, config: {categories: {billing: \"a charge, "
                  "invoice or refund\", technical: \"something does not work\", cancellation: \"ending the "
                  "contract\"}}}")
class CallCategoryMetric(_StatementMetric):
    """1 when the call's category is ``value``, else 0: zero-shot classification of the transcript among
    ``config.categories`` (a list of names, or ``{name: description}`` — descriptions classify better).

    The transcript is the app's ``trusys.transcript`` or speech recognition of the recording, as for
    ``audio-disclaimer-check``; its sentence windows of ``config.speaker`` (default customer: the caller
    says why they call) are embedded with MiniLM, and so is each category's description (its name when
    none is given). A category's score is its highest cosine similarity over the windows — the one
    sentence that says why the caller calls; pleasantries score low for every category — and the call's
    category is the best-scoring one. (On the tune split the maximum beat the mean of the top two or of
    all windows, and the description alone beat "name: description"; docs/audio.md.) The detail has every
    category's score, the margin to the runner-up and the sentence that decided.
    """

    what = "expected category"

    def setup(self) -> None:
        super().setup()
        self.categories = _categories(self.config)
        self.speaker = speaker_of(self.config.get("speaker", CUSTOMER), "speaker")
        if self.value is not None and self.value not in self.categories:
            raise MetricConfigError(f"value {self.value!r} is not one of config.categories "
                                    f"({', '.join(self.categories)})")

    def check_expected(self, expected: Any) -> None:
        if expected not in self.categories:
            raise MetricConfigError(f"expected_output {expected!r} is not one of config.categories")

    def evaluate(self, case, trace, outcome) -> MetricResult:
        expected = self.value if self.value is not None else case.expected_output
        labels = list(self.categories.values())
        found = self.prepare_texts(case, outcome, labels)
        if isinstance(found, str):
            return self.not_measured(found)
        transcript, windows, table = found
        scores = {}
        for name, row in zip(self.categories, table, strict=True):
            best = max(range(len(row)), key=lambda j: row[j].similarity)
            scores[name] = (row[best].similarity, best)
        ranked = sorted(scores, key=lambda n: -scores[n][0])
        chosen = ranked[0]
        passed = chosen == expected
        detail = {"category": chosen, "expected": expected,
                  "scores": {n: round(scores[n][0], 4) for n in ranked},
                  "margin": round(scores[chosen][0] - scores[ranked[1]][0], 4),
                  "evidence": windows[scores[chosen][1]]["text"], "speaker": self.speaker,
                  **self.base_detail(transcript)}
        return self.result(1.0 if passed else 0.0, passed=passed, detail=detail,
                           reason=f"category {chosen} ({scores[chosen][0]:.2f}; next {ranked[1]} "
                                  f"{scores[ranked[1]][0]:.2f}), expected {expected}")

    def prepare_texts(self, case, outcome, labels: list[str]):
        transcript = call_transcript(case, outcome, self.options, self.prefer, self.asr_model)
        if isinstance(transcript, str):
            return transcript
        windows = [w for w in sentence_windows(transcript) if self.speaker == "any" or w["speaker"] == self.speaker]
        if not windows:
            who = "anyone" if self.speaker == "any" else f"the {self.speaker}"
            return f"no text of {who} in {transcript.source} (config.speaker picks whose words classify the call)"
        if self.matcher is None:
            from agentunit.models.store import ModelNotInstalled

            try:
                self.matcher = StatementMatcher()
                self.matcher.embed(["probe"])
            except ModelNotInstalled:
                self.matcher = None
                return "classifying needs the embeddings model: agentunit models install embeddings"
        return transcript, windows, self.matcher.compare(labels, windows)


# ---- the conversation metrics: coherence, false intent, sentiment ----------------------------------------------------

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
