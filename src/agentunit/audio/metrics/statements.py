"""What was said in the call, matched by meaning in the speaker-labelled transcript's sentence windows
(MiniLM similarity and a lexical check): audio-disclaimer-check (required statements said, in time),
audio-consent-check (a permission asked and answered yes) and audio-call-category (the caller's reason,
classified among categories)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agentunit.audio.metrics.base import _asr_model, _CallMetric, _number
from agentunit.audio.statements import (
    StatementMatcher,
    Transcript,
    asks_permission,
    call_transcript,
    consent_answer,
    sentence_windows,
    speaker_of,
)
from agentunit.audio.turns import AGENT, CUSTOMER, UNKNOWN
from agentunit.errors import MetricConfigError
from agentunit.metrics.base import MetricResult
from agentunit.metrics.registry import register

# Calibrated on the tune split of tests/data/audio/disclaimer.jsonl and consent.jsonl (bench/audio.py).
MIN_SIMILARITY = 0.5
MIN_COVERAGE = 0.0


def _texts(value: Any, what: str) -> list[str]:
    items = value if isinstance(value, list) else [value]
    if not items or not all(isinstance(i, str) and i.strip() for i in items):
        raise MetricConfigError(f"value must be the {what} as text or a list of texts, got {value!r}")
    return items


def _seconds_or_none(config: Mapping[str, Any], key: str) -> float | None:
    return None if config.get(key) is None else _number(config, key, 0.0)


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
