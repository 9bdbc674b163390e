"""Audio metrics of voice-agent calls: response time, talk-to-listen ratio, interruption handling,
drop-outs (from voice activity per channel or transcript segments), and transcription quality (WER).

The timing metrics read the call's turns (agentunit.audio.call): a stereo recording with one speaker
per channel (``config.channels``, default agent = left) or ``trusys.transcript`` segments
``{speaker, start, end, text}``. A mono recording without speaker labels leaves them not measured
(no diarization model ships), except the dead-air and truncation checks of ``audio-drop-out-rates``.
See docs/audio.md.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from agentunit.audio.call import Call, CallOptions, call_of
from agentunit.audio.timing import barge_ins, drop_outs, response_gaps, summary_ms, talk_time
from agentunit.audio.transcription import error_rates, normalise, transcript_text
from agentunit.audio.turns import AGENT, CUSTOMER
from agentunit.audio.vad import FRAME_MS, VadSettings
from agentunit.errors import MetricConfigError
from agentunit.metrics.base import Metric, MetricResult, keyword_config
from agentunit.metrics.registry import register

__all__ = ["AgentResponseTimeMetric", "AudioTranscriptionMetric", "DropOutRatesMetric",
           "InterruptionHandlingMetric", "TalkToListenRatioMetric"]

DEFAULT_BAND = (0.5, 2.0)
_DROP_CHECKS = ("dead_air", "no_agent_reply", "truncated")


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

    The transcript is ``trusys.transcript`` (segments joined in start order, or its text), else the output;
    ``config.source: output|transcript`` forces one. Both texts are normalised (case-folded, punctuation
    removed) and compared with jiwer: WER = (substitutions + deletions + insertions) / reference words,
    CER likewise over characters. The detail also has AgentUnit's character-set precision and recall.
    ``use_wer=False`` scores 1 − CER instead. Default threshold 0.8. No transcript: not measured — speech
    recognition of the recording is not built yet.
    """

    def __init__(self, value: Any = None, *, use_wer: bool = True, **base: Any):
        super().__init__(value, config=keyword_config({"use_wer": use_wer}, base), **base)

    def setup(self) -> None:
        self.source = self.config.get("source", "auto")
        if self.source not in ("auto", "output", "transcript"):
            raise MetricConfigError(f"config.source must be auto, output or transcript, got {self.source!r}")
        self.use_wer = bool(self.config.get("use_wer", True))

    def evaluate(self, case, trace, outcome) -> MetricResult:
        reference = self.expected(case)
        if not isinstance(reference, str):
            return self.not_measured(f"the reference transcript must be text, got {type(reference).__name__}")
        text, where = transcript_text(outcome, self.source)
        if text is None:
            return self.not_measured(f"no transcript ({where} is empty); speech recognition of the recording is "
                                     "not built yet — return the transcript in the output or trusys.transcript")
        rates = error_rates(reference, text)
        ref_chars, hyp_chars = set(normalise(reference)), set(normalise(text))
        common = len(ref_chars & hyp_chars)
        accuracy = max(0.0, 1.0 - rates["wer"])
        value = accuracy if self.use_wer else max(0.0, 1.0 - rates["cer"])
        detail = {"wer": round(rates["wer"], 4), "cer": round(rates["cer"], 4), "accuracy": round(accuracy, 4),
                  "char_precision": round(common / len(hyp_chars), 4) if hyp_chars else 0.0,
                  "char_recall": round(common / len(ref_chars), 4) if ref_chars else 0.0,
                  **{k: rates[k] for k in ("substitutions", "deletions", "insertions", "reference_words")},
                  "transcript_source": where, "scored_by": "1 - WER" if self.use_wer else "1 - CER"}
        return self.result(round(value, 4), detail=detail,
                           reason=f"WER {rates['wer']:.3f}, CER {rates['cer']:.3f} ({where} vs the reference)")
