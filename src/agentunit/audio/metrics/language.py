"""The spoken language of a call by Whisper's language ID per turn: audio-language (the call's language,
against an allow-list) and audio-language-switch (the number of switches between turns)."""

from __future__ import annotations

from typing import Any

from agentunit.audio.asr import asr_missing, turn_languages
from agentunit.audio.metrics.base import _CallMetric, _number, _recording
from agentunit.audio.statements import speaker_of
from agentunit.errors import MetricConfigError
from agentunit.metrics.base import MetricResult
from agentunit.metrics.registry import register

# Chosen on the tune split of tests/data/audio/language.jsonl and language_switch.jsonl (bench/audio.py
# --part=language): the call's averaged language needs less confidence than a single turn's switch.
MIN_LANGUAGE_CONFIDENCE = 0.3
MIN_SWITCH_CONFIDENCE = 0.5


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
