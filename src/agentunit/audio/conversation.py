"""What the conversation metrics read from a call's transcript and recording: the transcript as the judge
sees it, the caller's request and what the agent said it would do (its restatement and its tool calls),
a speaker's words for sentiment, and the speaker's prosody (energy and pitch variation) from the audio.

Used by audio-conversation-coherence, audio-false-intent-identification and audio-sentiment
(agentunit.audio.metrics); see docs/audio.md.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from agentunit.audio.statements import Transcript, content_words
from agentunit.audio.transcription import normalise
from agentunit.audio.turns import AGENT, CUSTOMER

__all__ = ["SENTIMENTS", "agent_actions", "caller_request", "dialogue", "pitch_track", "prosody",
           "sentences_of", "tool_text"]

SENTIMENTS = ("positive", "neutral", "negative")
_NAMES = {AGENT: "Agent", CUSTOMER: "Customer"}
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
# A sentence that asks for something: the caller's request (not a greeting).
_REQUEST = re.compile(r"\b(i want|i wanna|i'd like|i would like|i need|i'm calling|i am calling|i'm ringing|"
                      r"can you|could you|would you|can i|could i|please|help me|how do i|i have to|i've lost|"
                      r"i lost|is it possible|i'm trying|i am trying|i can't|i cannot|my \w+ (is|isn't|has|hasn't|"
                      r"keeps|won't|doesn't))\b")
# A sentence where the agent says what it does or will do.
_ACTION = re.compile(r"\b(i'll|i will|i'm|i am|i've|i have|let me|we'll|we will|we've|we have|i can|"
                     r"going to|i'd be happy to)\b")
_PLEASANTRY = re.compile(r"^(hi|hello|hey|hiya|good (morning|afternoon|evening)|thanks?( you)?|thank you|"
                         r"okay|ok|yes|no|sure|great|bye|goodbye)\b")


def sentences_of(text: str) -> list[str]:
    return [p.strip() for p in _SENTENCE.split(text.strip()) if p.strip()]


def dialogue(transcript: Transcript, max_chars: int = 6000) -> str:
    """The transcript as ``Agent: …`` / ``Customer: …`` lines, a speaker's consecutive segments joined; past
    ``max_chars`` the middle is cut (the opening and the end of the call are kept) and the cut is said."""
    lines: list[list[str]] = []
    for segment in transcript.segments:
        name = _NAMES.get(segment["speaker"], "Speaker")
        text = " ".join(segment["text"].split())
        if not text:
            continue
        if lines and lines[-1][0] == name:
            lines[-1][1] += " " + text
        else:
            lines.append([name, text])
    rendered = [f"{name}: {text}" for name, text in lines]
    text = "\n".join(rendered)
    if len(text) <= max_chars:
        return text
    head, tail, used = [], [], 0
    for i in range(len(rendered)):
        for side, line in ((head, rendered[i]), (tail, rendered[-1 - i])):
            if used + len(line) > max_chars - 40 or len(head) + len(tail) >= len(rendered):
                skipped = len(rendered) - len(head) - len(tail)
                return "\n".join([*head, f"[… {skipped} turns left out …]", *reversed(tail)])
            side.append(line)
            used += len(line) + 1
    return text


def caller_request(transcript: Transcript) -> dict[str, Any] | None:
    """The customer's first request: ``{text, start, segment}`` of the first customer sentence that asks
    for something (I want / I'd like / I need / can you / please / my X isn't working …), else the first
    customer sentence with three or more content words that is not a pleasantry; None when the customer
    says nothing."""
    first_long = None
    for index, segment in enumerate(transcript.segments):
        if segment["speaker"] != CUSTOMER:
            continue
        for sentence in sentences_of(segment["text"]):
            said = normalise(sentence)
            if _REQUEST.search(said):
                return {"text": sentence, "start": segment["start"], "segment": index}
            if first_long is None and len(content_words(sentence)) >= 3 and not (
                    _PLEASANTRY.match(said) and len(said.split()) <= 5):
                first_long = {"text": sentence, "start": segment["start"], "segment": index}
    return first_long


def tool_text(call: dict[str, Any]) -> str:
    """A tool call as words: ``cancel_order(order_id=42)`` → "cancel order (order id: 42)"."""
    name = re.sub(r"([a-z])([A-Z])", r"\1 \2", str(call.get("name") or call.get("tool") or "tool"))
    name = re.sub(r"[_.\-/]+", " ", name).strip().lower()
    arguments = call.get("arguments") or call.get("args") or call.get("input") or {}
    if isinstance(arguments, dict) and arguments:
        shown = ", ".join(f"{re.sub(r'[_-]+', ' ', str(k))}: {v}" for k, v in list(arguments.items())[:6])
        return f"{name} ({shown})"[:300]
    return name


def agent_actions(transcript: Transcript, after_segment: int = -1) -> list[dict[str, Any]]:
    """The agent's sentences after ``after_segment`` that say what it does or will do (I'll, I'm, I've,
    let me, we will, going to …): ``{text, start, segment}``. Questions are left out ("Shall I…?" offers,
    it does not act)."""
    found = []
    for index, segment in enumerate(transcript.segments):
        if index <= after_segment or segment["speaker"] != AGENT:
            continue
        for sentence in sentences_of(segment["text"]):
            if not sentence.endswith("?") and _ACTION.search(normalise(sentence)):
                found.append({"text": sentence, "start": segment["start"], "segment": index})
    return found


# ---- prosody --------------------------------------------------------------------------------------------------------

def pitch_track(samples: np.ndarray, rate: int, frame_s: float = 0.04, hop_s: float = 0.02,
                low_hz: float = 60.0, high_hz: float = 400.0, min_clarity: float = 0.5
                ) -> tuple[np.ndarray, np.ndarray]:
    """(pitch in Hz per voiced frame, RMS energy in dBFS per frame) of a mono signal: normalised
    autocorrelation of 40 ms frames every 20 ms, the strongest lag between ``low_hz`` and ``high_hz``; a
    frame is voiced when its peak (clarity) is ≥ ``min_clarity`` and its energy within 30 dB of the loudest
    frame."""
    size, hop = int(frame_s * rate), int(hop_s * rate)
    if samples.size < size or size < 4:
        return np.zeros(0), np.zeros(0)
    count = 1 + (samples.size - size) // hop
    frames = np.lib.stride_tricks.sliding_window_view(samples.astype(np.float64), size)[::hop][:count]
    frames = frames - frames.mean(axis=1, keepdims=True)
    energy = 10 * np.log10(np.mean(frames ** 2, axis=1) + 1e-12)
    lag_low, lag_high = max(1, int(rate / (high_hz * 1.1))), min(size - 1, int(rate / low_hz) + 1)
    loud = energy >= energy.max() - 30.0
    pitches = []
    n = 1 << int(np.ceil(np.log2(2 * size)))
    spectrum = np.fft.rfft(frames[loud], n)
    # unbiased: each lag's sum over the (size - lag) products it has, relative to lag 0
    correlation = np.fft.irfft(np.abs(spectrum) ** 2, n)[:, :size] * (size / (size - np.arange(size)))
    for row in correlation:
        if row[0] <= 0:
            continue
        window = row[lag_low:lag_high + 1] / row[0]
        best = float(window.max())
        # the shortest lag nearly as strong as the best: multiples of the period score as high (octave errors)
        peaks = [i for i in range(1, window.size - 1) if window[i] >= window[i - 1] and window[i] >= window[i + 1]
                 and window[i] >= 0.9 * best]
        lag = peaks[0] if peaks else int(np.argmax(window))
        if window[lag] >= min_clarity:
            # parabolic interpolation around the peak for sub-sample lags
            if 0 < lag < window.size - 1:
                a, b, c = window[lag - 1], window[lag], window[lag + 1]
                shift = 0.5 * (a - c) / (a - 2 * b + c) if (a - 2 * b + c) != 0 else 0.0
            else:
                shift = 0.0
            pitches.append(rate / (lag + lag_low + shift))
    return np.asarray(pitches), energy[loud]


def prosody(samples: np.ndarray, rate: int, spans: list[tuple[float, float]]) -> dict[str, Any] | None:
    """A speaker's prosody over their turns (``spans`` in s) of their channel: energy mean and variation
    (dB standard deviation), pitch median (Hz) and variation (standard deviation in semitones), and the
    voiced share of the frames. None when the speaker has no voiced audio."""
    pieces = [samples[int(s * rate):int(e * rate)] for s, e in spans if e > s]
    pitches, energies = [], []
    for piece in pieces:
        pitch, energy = pitch_track(piece, rate)
        pitches.append(pitch)
        energies.append(energy)
    pitch = np.concatenate(pitches) if pitches else np.zeros(0)
    energy = np.concatenate(energies) if energies else np.zeros(0)
    if energy.size == 0:
        return None
    found: dict[str, Any] = {"energy_db_mean": round(float(energy.mean()), 2),
                             "energy_db_std": round(float(energy.std()), 2),
                             "voiced_share": round(pitch.size / energy.size, 3)}
    if pitch.size >= 5:
        semitones = 12 * np.log2(pitch / np.median(pitch))
        found.update(pitch_hz_median=round(float(np.median(pitch)), 1),
                     pitch_st_std=round(float(semitones.std()), 2))
    else:
        found.update(pitch_hz_median=None, pitch_st_std=None)
    return found
