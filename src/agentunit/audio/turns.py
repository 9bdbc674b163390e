"""Speaker turns: speech segments of each speaker joined into turns, from voice activity or a transcript."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from agentunit.audio.decode import AudioInputError

__all__ = ["AGENT", "CUSTOMER", "SPEAKER_LABELS", "UNKNOWN", "Turn", "join_turns", "speech_union",
           "turns_from_transcript"]

AGENT, CUSTOMER, UNKNOWN = "agent", "customer", "unknown"
SPEAKER_LABELS = {AGENT: ("agent", "assistant", "bot", "ai", "operator", "representative", "rep"),
                  CUSTOMER: ("customer", "user", "caller", "client", "human")}


@dataclass(frozen=True, slots=True)
class Turn:
    """One speaker's stretch of speech, ``start`` to ``end`` seconds from the start of the recording."""

    speaker: str
    start: float
    end: float

    @property
    def length(self) -> float:
        return self.end - self.start

    def to_dict(self) -> dict[str, Any]:
        return {"speaker": self.speaker, "start": round(self.start, 3), "end": round(self.end, 3)}


def join_turns(segments: Mapping[str, Iterable[tuple[float, float]]], join_gap_s: float) -> list[Turn]:
    """Each speaker's segments joined into turns: two consecutive segments of one speaker are one turn
    when the pause between them is shorter than ``join_gap_s`` and the other speaker says nothing in it.
    Returns the turns of all speakers sorted by start."""
    spans = {speaker: sorted(segs) for speaker, segs in segments.items()}
    turns: list[Turn] = []
    for speaker, own in spans.items():
        others = [seg for other, segs in spans.items() if other != speaker for seg in segs]
        current: list[float] | None = None
        for start, end in own:
            if current is not None and start - current[1] < join_gap_s \
                    and not any(s < start and e > current[1] for s, e in others):
                current[1] = max(current[1], end)
                continue
            if current is not None:
                turns.append(Turn(speaker, current[0], current[1]))
            current = [start, end]
        if current is not None:
            turns.append(Turn(speaker, current[0], current[1]))
    return sorted(turns, key=lambda t: (t.start, t.end))


def speech_union(turns: Iterable[Turn]) -> list[tuple[float, float]]:
    """The stretches where anyone speaks: the union of all turns, sorted."""
    merged: list[list[float]] = []
    for turn in sorted(turns, key=lambda t: t.start):
        if merged and turn.start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], turn.end)
        else:
            merged.append([turn.start, turn.end])
    return [(a, b) for a, b in merged]


def turns_from_transcript(segments: Any, speakers: Mapping[str, str] | None = None,
                          join_gap_s: float = 0.0, field: str = "trusys.transcript") -> list[Turn] | str:
    """Turns from ``{speaker, start, end, text}`` segments (seconds). A segment's speaker label is the
    agent or the customer by ``speakers`` (``{agent: LABEL, customer: LABEL}``), else by the usual names
    (agent/assistant/bot…, customer/user/caller…). Returns the reason as a string when the segments carry
    no usable speaker labels or times; raises AudioInputError naming the field for malformed segments."""
    if not isinstance(segments, list):
        raise AudioInputError(f"{field} must be a list of {{speaker, start, end, text}} segments, "
                              f"got {type(segments).__name__}")
    by_label = {str(label).casefold(): role for role, label in (speakers or {}).items()}
    if not by_label:
        by_label = {label: role for role, labels in SPEAKER_LABELS.items() for label in labels}
    spans: dict[str, list[tuple[float, float]]] = {AGENT: [], CUSTOMER: []}
    unknown: set[str] = set()
    for i, seg in enumerate(segments):
        if not isinstance(seg, dict):
            raise AudioInputError(f"{field}[{i}] must be an object {{speaker, start, end, text}}, "
                                  f"got {type(seg).__name__}")
        if seg.get("start") is None or seg.get("end") is None:
            return f"{field}[{i}] has no start/end times"
        start, end = _seconds(seg["start"], f"{field}[{i}].start"), _seconds(seg["end"], f"{field}[{i}].end")
        if end < start:
            raise AudioInputError(f"{field}[{i}]: end {end:g} is before start {start:g}")
        label = seg.get("speaker")
        if label is None or str(label).strip() == "":
            return f"{field}[{i}] has no speaker label (no diarization model ships to find speakers)"
        role = by_label.get(str(label).casefold())
        if role is None:
            unknown.add(str(label))
            continue
        spans[role].append((start, end))
    if unknown:
        return (f"{field} speaker label(s) {', '.join(sorted(unknown))} are neither agent nor customer — "
                "name them in config.speakers: {agent: LABEL, customer: LABEL}")
    return join_turns(spans, join_gap_s)


def _seconds(value: Any, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
        raise AudioInputError(f"{field} must be a number of seconds ≥ 0, got {value!r}")
    return float(value)
