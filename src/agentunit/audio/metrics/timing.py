"""The timing metrics of a call, from its speaker turns: the agent's response time, the talk-to-listen
ratio, interruption handling (barge-ins) and drop-outs (dead air, no agent reply, truncation)."""

from __future__ import annotations

from agentunit.audio.call import call_of
from agentunit.audio.metrics.base import _CallMetric, _number
from agentunit.audio.timing import barge_ins, drop_outs, response_gaps, summary_ms, talk_time
from agentunit.audio.turns import AGENT, CUSTOMER
from agentunit.errors import MetricConfigError
from agentunit.metrics.base import MetricResult
from agentunit.metrics.registry import register

DEFAULT_BAND = (0.5, 2.0)
_DROP_CHECKS = ("dead_air", "no_agent_reply", "truncated")


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
