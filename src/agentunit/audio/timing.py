"""Timing measures of a call from its speaker turns: response gaps, talk ratio, barge-ins, drop-outs.

Pure functions of ``Turn`` lists (seconds); the metrics in ``agentunit.audio.metrics`` turn them into
results. Each docstring is the algorithm.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from agentunit.audio.turns import AGENT, CUSTOMER, Turn, speech_union

__all__ = ["barge_ins", "drop_outs", "response_gaps", "summary_ms", "talk_time"]


def response_gaps(turns: list[Turn], min_overlap_s: float = 0.25) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Customer turn end → start of the agent's next turn, for each customer turn the agent answered.

    For customer turn c: when an agent turn is running at c's end, the gap is its (negative) start − c.end
    if it began after c did and overlaps c by less than ``min_overlap_s`` (a latched reply); otherwise
    it is a barge-in, not a response, and is skipped. Else the gap is the next agent turn's start − c.end,
    unless the customer starts another turn first (the customer went on; that turn is paired instead)
    or no agent turn follows (counted by ``drop_outs``). Returns (gaps, skipped), each with the reason.
    """
    agent = [t for t in turns if t.speaker == AGENT]
    customer = [t for t in turns if t.speaker == CUSTOMER]
    gaps, skipped = [], []
    for c in customer:
        running = next((a for a in agent if a.start < c.end < a.end), None)
        if running is not None:
            if running.start > c.start and c.end - running.start < min_overlap_s:
                gaps.append(_gap(c, running))
            else:
                skipped.append({"customer_end": round(c.end, 3), "why": "the agent was speaking as the customer ended"})
            continue
        reply = next((a for a in agent if a.start >= c.end), None)
        if reply is None:
            skipped.append({"customer_end": round(c.end, 3), "why": "no agent turn follows"})
        elif any(c.end <= o.start < reply.start for o in customer):
            skipped.append({"customer_end": round(c.end, 3), "why": "the customer spoke again before the agent"})
        else:
            gaps.append(_gap(c, reply))
    return gaps, skipped


def _gap(customer: Turn, agent: Turn) -> dict[str, Any]:
    return {"customer_end": round(customer.end, 3), "agent_start": round(agent.start, 3),
            "gap_ms": round((agent.start - customer.end) * 1000.0, 1)}


def summary_ms(values: list[float]) -> dict[str, float]:
    """Mean, p50, p95 (linear interpolation) and max of ``values`` in ms, rounded to 0.1 ms."""
    arr = np.asarray(values, dtype=float)
    return {"mean_ms": round(float(arr.mean()), 1), "p50_ms": round(float(np.percentile(arr, 50)), 1),
            "p95_ms": round(float(np.percentile(arr, 95)), 1), "max_ms": round(float(arr.max()), 1)}


def talk_time(turns: list[Turn]) -> dict[str, float]:
    """Seconds of speech per speaker: the summed length of their turns."""
    return {speaker: round(sum(t.length for t in turns if t.speaker == speaker), 3) for speaker in (AGENT, CUSTOMER)}


def barge_ins(turns: list[Turn], min_overlap_s: float = 0.25, yield_within_s: float = 1.0) -> list[dict[str, Any]]:
    """Each turn that starts while the other speaker's turn runs and overlaps it by ≥ ``min_overlap_s``.

    Overlap = min(both ends) − the interrupter's start. The interrupted speaker yielded when their turn
    ended before the interrupter's did and within ``yield_within_s`` of the interruption.
    """
    events = []
    for y in turns:
        for x in turns:
            if x.speaker == y.speaker or not x.start < y.start < x.end:
                continue
            overlap = min(x.end, y.end) - y.start
            if overlap < min_overlap_s:
                continue
            stopped_after = x.end - y.start
            events.append({"at": round(y.start, 3), "interrupter": y.speaker, "interrupted": x.speaker,
                           "overlap_s": round(overlap, 3), "stopped_after_s": round(stopped_after, 3),
                           "yielded": bool(x.end <= y.end and stopped_after <= yield_within_s)})
    return sorted(events, key=lambda e: e["at"])


def drop_outs(turns: list[Turn], duration_s: float | None, dead_air_s: float = 3.0,
              edge_s: float = 0.1) -> dict[str, Any]:
    """Dead air, an unanswered ending and truncated turns of one call.

    Dead air: a pause in everyone's speech longer than ``dead_air_s`` between the first and the last
    speech (silence before the first word is reported as ``leading_silence_s``, not counted).
    Unanswered ending: no agent speech after the last customer turn ends. Truncated: a turn still running
    within ``edge_s`` of the end of the recording (only with a recording: ``duration_s`` known).
    """
    spans = speech_union(turns)
    dead_air = [{"start": round(a_end, 3), "end": round(b_start, 3), "length_s": round(b_start - a_end, 3)}
                for (_, a_end), (b_start, _) in itertools.pairwise(spans) if b_start - a_end > dead_air_s]
    customer = [t for t in turns if t.speaker == CUSTOMER]
    last_customer_end = max((t.end for t in customer), default=None)
    unanswered = last_customer_end is not None and not any(
        t.speaker == AGENT and t.end > last_customer_end for t in turns)
    truncated = [] if duration_s is None else [t.to_dict() for t in turns if t.end >= duration_s - edge_s]
    return {"dead_air": dead_air, "dead_air_total_s": round(sum(d["length_s"] for d in dead_air), 3),
            "leading_silence_s": round(spans[0][0], 3) if spans else None,
            "ended_without_agent_reply": unanswered, "truncated_turns": truncated,
            "truncation_checked": duration_s is not None}
