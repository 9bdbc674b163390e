"""A call's speaker-labelled transcript (the app's, or speech recognition's) and required statements in it.

``call_transcript`` picks the text: the reply's ``trusys.transcript`` segments when they carry text and
speaker labels, else speech recognition of the recording (agentunit.audio.asr); ``config.transcript``
(auto, app, asr) forces one. ``sentence_windows`` cuts each segment into sentences and pairs of adjacent
sentences with their times. ``StatementMatcher`` decides whether a window says a required statement, by
meaning: MiniLM cosine similarity plus a lexical check (content-word coverage, same negation, same
numbers). ``consent_answer`` reads a customer's answer as yes, no or unclear.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from agentunit.audio.call import CallOptions
from agentunit.audio.decode import AudioInputError
from agentunit.audio.transcription import normalise
from agentunit.audio.turns import AGENT, CUSTOMER, SPEAKER_LABELS, UNKNOWN

__all__ = [
    "Match",
    "StatementMatcher",
    "Transcript",
    "asks_permission",
    "call_transcript",
    "consent_answer",
    "content_words",
    "sentence_windows",
]

_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_NEGATION = {"no", "not", "never", "none", "nothing", "without", "cannot", "can't", "don't", "doesn't", "won't",
             "isn't", "aren't", "wasn't", "weren't", "shouldn't", "wouldn't", "didn't", "haven't", "hasn't", "nor"}
_STOP = set("""a an the and or but if of to in on at by for with from as is are was were be been being am do does
did have has had this that these those it its i you your yours we our us they them their he she his her my me
will would shall should can could may might must so than then there here what which who whom when where why how
all any each some such very just also into about over under again further once only own same too s t
please okay ok well now today call calls""".split())
_NUMBER_WORDS = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
_NUMBER_WORDS.update({"thirty": "30", "forty": "40", "fifty": "50", "sixty": "60", "ninety": "90",
                      "hundred": "100"})
_TENS = {"20", "30", "40", "50", "60", "90"}
_NUMBER_WORDS.update({"seventy": "70", "eighty": "80"})
_TENS |= {"70", "80"}
_PERMISSION = re.compile(r"\b(agree|consent|accept|okay|ok|alright|all right|happy|permission|authori[sz]e|allow|"
                         r"fine|mind|may (i|we)|can (i|we)|would you like)\b")
_YES = re.compile(r"\b(yes|yeah|yep|yup|sure|ok|okay|alright|all right|agreed?|i agree|i consent|consent|"
                  r"of course|absolutely|certainly|definitely|go ahead|that'?s fine|fine by me|sounds good|"
                  r"no problem|not a problem|no worries|please do|that'?s okay|you may|you can)\b")
_REFUSAL = re.compile(r"\b(no|nope|i don'?t (agree|consent|accept|want)|do not|rather not|decline|refuse|object|"
                      r"disagree|i'?d prefer not|prefer you didn'?t)\b")
_NO = re.compile(r"\b(not|don'?t|never|stop)\b")
_YES_WITH_NO = re.compile(r"\b(no problem|not a problem|no worries|why not|i don'?t mind|don'?t mind|"
                          r"not at all)\b")


@dataclass(frozen=True, slots=True)
class Transcript:
    """Segments ``{speaker, start, end, text, words?}`` (speaker: agent, customer or unknown; times in s or
    None) in time order, where they came from, and the ASR model when recognition made them."""

    segments: list[dict[str, Any]]
    source: str
    asr_model: str | None = None
    asr_seconds: float | None = None

    def detail(self) -> dict[str, Any]:
        found: dict[str, Any] = {"transcript_source": self.source}
        if self.asr_model:
            found.update(asr_model=self.asr_model, asr_seconds=self.asr_seconds)
        return found

    @property
    def timed(self) -> bool:
        return all(s["start"] is not None and s["end"] is not None for s in self.segments)


def _role(label: Any, speakers: Mapping[str, str] | None) -> str:
    by_label = {str(v).casefold(): k for k, v in (speakers or {}).items()}
    if not by_label:
        by_label = {name: role for role, names in SPEAKER_LABELS.items() for name in names}
    return by_label.get(str(label).casefold(), UNKNOWN) if label is not None else UNKNOWN


def _number_or_none(value: Any, field: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise AudioInputError(f"{field} must be a number of seconds ≥ 0, got {value!r}")
    return float(value)


def app_transcript(outcome: Any, speakers: Mapping[str, str] | None) -> Transcript | str:
    """The reply's ``trusys.transcript`` segments as a Transcript, or why they cannot serve."""
    segments = (getattr(outcome, "metadata", None) or {}).get("transcript")
    if segments is None:
        return "the reply has no trusys.transcript"
    if not isinstance(segments, list):
        return "trusys.transcript is plain text without speakers or times"
    found = []
    for i, seg in enumerate(segments):
        if not isinstance(seg, dict) or not isinstance(seg.get("text"), str):
            raise AudioInputError(f"trusys.transcript[{i}] must be an object with a text string")
        found.append({"speaker": _role(seg.get("speaker"), speakers), "label": seg.get("speaker"),
                      "start": _number_or_none(seg.get("start"), f"trusys.transcript[{i}].start"),
                      "end": _number_or_none(seg.get("end"), f"trusys.transcript[{i}].end"),
                      "text": seg["text"], "words": seg.get("words") or []})
    order = sorted(range(len(found)), key=lambda i: (found[i]["start"] if found[i]["start"] is not None else i, i))
    return Transcript([found[i] for i in order], "trusys.transcript")


def call_transcript(case: Any, outcome: Any, options: CallOptions, prefer: str = "auto",
                    model: str = "asr") -> Transcript | str:
    """The call's transcript (see the module doc), or the reason there is none naming the fix."""
    from agentunit.audio.asr import asr_missing, transcribe_call
    from agentunit.audio.recording import call_recording

    reasons = []
    if prefer in ("auto", "app"):
        app = app_transcript(outcome, options.speakers)
        if isinstance(app, Transcript) or prefer == "app":
            return app
        reasons.append(app)
    recording = call_recording(case, outcome, options)
    if recording is None:
        return "; ".join([*reasons, "no call recording (trusys.audio, trusys.audio_tracks or the case's audio) "
                                    "to transcribe"])
    if isinstance(recording, str):
        return "; ".join([*reasons, recording])
    missing = asr_missing(model)
    if missing:
        return "; ".join([*reasons, missing])
    name, medium = recording
    found = transcribe_call(medium.data, medium.mime, medium.sha256, options, model, name)
    return Transcript(found.segments, f"asr of {name}", found.describe(), found.seconds)


def _sentences(segment: dict[str, Any]) -> list[tuple[str, float | None, float | None]]:
    """(sentence, start, end): times from word timestamps when the segment has them, else spread over the
    segment's span by character position; None when the segment has no times."""
    text = segment["text"].strip()
    parts = [p for p in _SENTENCE.split(text) if p.strip()]
    start, end = segment["start"], segment["end"]
    words = segment.get("words") or []
    found = []
    if words and all(isinstance(w, dict) and "start" in w for w in words):
        index = 0
        for part in parts:
            count = max(1, len(part.split()))
            chunk = words[index:index + count] or words[-1:]
            found.append((part, float(chunk[0]["start"]), float(chunk[-1]["end"])))
            index += count
        return found
    total, position = max(1, len(text)), 0
    for part in parts:
        offset = text.find(part, position)
        position = offset + len(part)
        if start is None or end is None:
            found.append((part, None, None))
        else:
            found.append((part, start + (end - start) * offset / total, start + (end - start) * position / total))
    return found


def sentence_windows(transcript: Transcript) -> list[dict[str, Any]]:
    """Every sentence and every pair of adjacent sentences of one segment: ``{speaker, start, end, text,
    segment}`` — a statement said across two sentences is still found, one said in a long turn is
    compared with its own sentences rather than the whole turn."""
    windows = []
    for index, segment in enumerate(transcript.segments):
        parts = _sentences(segment)
        for size in (1, 2):
            for i in range(len(parts) - size + 1):
                chunk = parts[i:i + size]
                windows.append({"speaker": segment["speaker"], "start": chunk[0][1], "end": chunk[-1][2],
                                "text": " ".join(p[0] for p in chunk), "segment": index})
    return windows


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s", "ly"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def _tokens(text: str) -> list[str]:
    """Normalised words with number words as digits; a tens word and a unit word make one number
    (forty nine → 49)."""
    out: list[str] = []
    for word in normalise(text).replace("-", " ").split():
        word = _NUMBER_WORDS.get(word, word)
        if word.isdigit() and len(word) == 1 and out and out[-1] in _TENS:
            out[-1] = str(int(out[-1]) + int(word))
        else:
            out.append(word)
    return out


def asks_permission(text: str) -> bool:
    """Whether a sentence asks for permission: it holds a permission cue (agree, consent, accept, okay,
    alright, happy, permission, authorise, allow, fine, mind, may I/we, can I/we, would you like) — "did you
    read the terms?" asks a fact, not consent."""
    return bool(_PERMISSION.search(normalise(text)))


def content_words(text: str) -> set[str]:
    """Stems of the words that carry meaning: stop words removed, number words as digits."""
    return {_stem(w) for w in _tokens(text) if w not in _STOP and w not in _NEGATION}


def _negated(text: str) -> bool:
    return any(w in _NEGATION or w.endswith("n't") for w in _tokens(text))


def _numbers(text: str) -> set[str]:
    return {w for w in _tokens(text) if w.isdigit()}


@dataclass(frozen=True, slots=True)
class Match:
    """How a window compares with a statement."""

    similarity: float
    coverage: float
    negation_agrees: bool
    numbers_agree: bool

    def matches(self, min_similarity: float, min_coverage: float) -> bool:
        return (self.similarity >= min_similarity and self.coverage >= min_coverage
                and self.negation_agrees and self.numbers_agree)

    def why_not(self, min_similarity: float, min_coverage: float) -> str | None:
        if not self.negation_agrees:
            return "negation differs"
        if not self.numbers_agree:
            return "a number of the statement is missing"
        if self.similarity < min_similarity:
            return f"similarity {self.similarity:.2f} < {min_similarity:g}"
        if self.coverage < min_coverage:
            return f"key-word coverage {self.coverage:.2f} < {min_coverage:g}"
        return None


class StatementMatcher:
    """Compares required statements with sentence windows: MiniLM cosine similarity (the embedded
    ``embeddings`` model) plus the lexical check — the share of the statement's content words (stems, stop
    words removed) in the window, the same negation (both or neither negated) and every number of the
    statement present (digits or number words)."""

    def __init__(self, embed: Any = None):
        if embed is None:
            from agentunit.models.embeddings import embed_sync as embed
        self.embed = embed

    def compare(self, statements: list[str], windows: list[dict[str, Any]]) -> list[list[Match]]:
        if not windows:
            return [[] for _ in statements]
        vectors = np.asarray(self.embed([*statements, *(w["text"] for w in windows)]), dtype=np.float32)
        sims = vectors[: len(statements)] @ vectors[len(statements):].T
        table = []
        for i, statement in enumerate(statements):
            words, negated, numbers = content_words(statement), _negated(statement), _numbers(statement)
            row = []
            for j, window in enumerate(windows):
                found = content_words(window["text"])
                coverage = len(words & found) / len(words) if words else 1.0
                row.append(Match(round(float(sims[i, j]), 4), round(coverage, 4),
                                 _negated(window["text"]) == negated, numbers <= _numbers(window["text"])))
            table.append(row)
        return table


def consent_answer(text: str) -> str | None:
    """``yes``, ``no`` or None (unclear) for a customer's answer, from its first two sentences, in order:
    a phrase of agreement that holds a negative word (no problem, not at all, I don't mind) is yes; a
    refusal (no, nope, I don't agree, do not, rather not, decline, refuse…) is no; an answer that starts
    with an agreeing word (yes, sure, okay…) is yes, whatever follows (recognition errors add stray words);
    any other negative word (not, don't, never) is no; an agreeing phrase anywhere (I agree, go ahead, of
    course…) is yes; else unclear."""
    first = " ".join(_SENTENCE.split(text.strip())[:2])
    words = normalise(first)
    if _YES_WITH_NO.search(words):
        return "yes"
    if _REFUSAL.search(words):
        return "no"
    if _YES.match(words):
        return "yes"
    if _NO.search(words):
        return "no"
    if _YES.search(words):
        return "yes"
    return None


def speaker_of(name: Any, field: str) -> str:
    """A ``config.speaker`` value checked: agent, customer or any."""
    from agentunit.errors import MetricConfigError

    if name not in (AGENT, CUSTOMER, "any"):
        raise MetricConfigError(f"config.{field} must be agent, customer or any, got {name!r}")
    return name
