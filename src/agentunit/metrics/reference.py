"""Metrics that compare the answer with a reference answer."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from agentunit.judges.service import pass_fail
from agentunit.metrics._cloze import reference_values
from agentunit.metrics._swaps import reordered, swapped_parts
from agentunit.metrics._translation import same_language, translated_answer
from agentunit.metrics._values import switch
from agentunit.metrics.base import MetricResult
from agentunit.metrics.judged import JudgedMetric, quoted
from agentunit.metrics.registry import register

_SPACE = re.compile(r"\s+")
_EDGE_PUNCT = " \t\n.!?,;:\"'`"


def normalize_answer(text: str) -> str:
    """Unicode NFKC, case-fold, collapse whitespace, strip surrounding punctuation and quotes."""
    text = unicodedata.normalize("NFKC", str(text)).casefold()
    return _SPACE.sub(" ", text).strip(_EDGE_PUNCT)


SIMILARITY_WEIGHT = 0.25  # RAGAS's blend: 0.75 × statement F1 + 0.25 × semantic similarity
SWAPPED_SCALE = 0.5  # the answer attaches the reference's values to other parts (_swaps)


@register("answer_correctness", family="reference", aliases=("answer-correctness-metric",),
          needs=("output", "expected_output"), value="optional", threshold=0.4, model="judge",
          example="{metric: answer_correctness, value: Paris}")
class AnswerCorrectnessMetric(JudgedMetric):
    """Agreement of the answer with the expected output (AgentUnit AnswerCorrectnessMetric).

    Algorithm: an exact match after normalisation (NFKC, case-fold, whitespace, surrounding punctuation) scores 1
    with no model call. Otherwise both texts are split into sentences; the judge decides, for each expected
    sentence, whether the answer states it (recall) and, for each answer sentence, whether the expected output
    supports it (precision) — one PASS/FAIL decision each, P(PASS) as the weight. Score = 0.75 · F1 + 0.25 · cosine
    similarity of the two texts' embeddings (RAGAS's weighting), times the share of the expected output's values
    (its first six numbers, capitalised names and list items: "red, green and blue") that the answer gives: written
    in it (decimal commas read, "6 pm" also as 18, accents ignored, a name's word written alike, month and weekday
    names in six languages) or, failing that, the judge's fill for the value blanked in the expected output, when
    the fill is in the answer, not already in the blanked text and not another value — another number, or, with both
    texts read as one language, another name ("1831" for 1813: tune 0.856 → 0.869, test 0.850 → 0.856)
    (``_cloze.reference_values``; ``config.check_values: false`` leaves it out). An answer in another language than
    the expected output (py3langid reads both, each with P ≥ 0.5) is translated by the judge into the expected
    output's language (``_translation``; one short generation): the statements and the embedding are computed for it
    as written and as translated, the better reading kept, and a value written in the translation counts as given
    (test 0.757 → 0.818 on 148 rows, answers in other languages passing 0.68 → 0.94; ``config.translate: false``
    turns it off). The small judge passes "Jane Austen." for "Jane Austen; it was published in 1813." (tune: a
    left-out part failed 0.16 → 0.80; balanced accuracy 0.656 → 0.781, docs/judges.md; 0.819 with list items,
    "Helium and neon." failing for "Helium, neon and argon."; test 0.844). An answer written in the reference's
    language that attaches the reference's values to its other parts ("Sydney is the capital; Canberra is the
    largest city", ``_swaps.swapped_parts``) has its score halved (tune 0.819 → 0.856; test 0.850; off with
    ``check_values: false``), and so has one that names the parts of a reference stating an order ("The Volga, then
    the Danube") in another order (``_swaps.reordered``; tune 0.869 → 0.875). Judge calls: one per sentence of
    either text, plus one short generation per value not written in the answer; for an answer in another language,
    one translation and the sentences again. Passes at ≥ 0.4, the best round pass mark on the tuning rows of
    tests/data/labelled/answer_correctness.jsonl (0.656 against 0.602 at 0.5): the small judge doubts right
    paraphrases, so their F1 sits low.
    """

    def setup(self) -> None:
        super().setup()
        self._translate = switch(self.config, "translate", True, self.name)
        self._check_values = switch(self.config, "check_values", True, self.name)

    def evaluate(self, case, trace, outcome) -> MetricResult:
        # An exact match needs no model, so it does not start an event loop either.
        return self._exact(case, outcome) or super().evaluate(case, trace, outcome)

    def _exact(self, case, outcome) -> MetricResult | None:
        if normalize_answer(outcome.output) == normalize_answer(str(self.expected(case))):
            return self.result(1.0, reason="exact match after normalisation", detail={"method": "exact"})
        return None

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        exact = self._exact(case, outcome)
        if exact is not None:
            return exact
        expected, answer = str(self.expected(case)), outcome.output
        translation = await translated_answer(answer, expected) if self._translate else None
        written = await _reading(answer, expected)
        translated = await _reading(translation["text"], expected) if translation and translation["text"] else None
        reading = translated if translated is not None and translated["score"] > written["score"] else written
        score = reading["score"]
        values: list[dict[str, str | bool]] = []
        if self._check_values:
            values = await reference_values(expected, answer, translation["text"] if translated else None,
                                            same_language=translation is None and same_language(answer, expected))
        reason = f"statement F1 {reading['f1']:.3f}, similarity {reading['similarity']:.3f}"
        if translation and not translated:
            reason += f" (the judge's translation from {translation['from']} to {translation['to']} came back empty)"
        elif translation:
            reason += (f" (the answer {'translated' if reading is translated else 'as written'}: the better of it "
                       f"as written and translated from {translation['from']} to {translation['to']})")
        if values:
            share = sum(1 for v in values if v["found"]) / len(values)
            score *= share
            missing = [str(v["value"]) for v in values if not v["found"]]
            if missing:
                reason += f"; × {share:.2f}: the answer does not give {', '.join(missing)}"
        checked = self._check_values and not translation
        swapped = swapped_parts(expected, answer) if checked else []
        order = reordered(expected, answer) if checked and not swapped else []
        if swapped:
            score *= SWAPPED_SCALE
            reason += (f"; × {SWAPPED_SCALE:.2f}: the answer attaches the reference's values to other parts: "
                       + "; ".join(quoted(part) for part in swapped))
        elif order:
            score *= SWAPPED_SCALE
            reason += f"; × {SWAPPED_SCALE:.2f}: the answer gives the reference's order otherwise: {', '.join(order)}"
        judge_calls = (written["judge_calls"] + (1 if translation else 0)
                       + (translated["judge_calls"] if translated else 0) + sum(1 for v in values if v["by"] == "fill"))
        return self.result(score, reason=reason, detail={
            "method": "statements+embeddings", "translation": translation,
            "read": "translated" if reading is translated else "as written", "values": values, "swapped": swapped,
            "reordered": order,
            **{key: value for key, value in reading.items() if key not in ("score", "judge_calls")},
            "judge_calls": judge_calls})


async def _reading(answer: str, expected: str) -> dict[str, Any]:
    """Statement F1 and embedding similarity of an answer against the expected output, and their blend."""
    from agentunit.metrics._sentences import split_sentences
    from agentunit.models.embeddings import embed_texts

    expected_sentences = split_sentences(expected) or [expected]
    answer_sentences = split_sentences(answer) or [answer]
    recall_parts = [await _supported(s, answer, "Answer") for s in expected_sentences]
    precision_parts = [await _supported(s, expected, "Reference") for s in answer_sentences]
    recall = sum(recall_parts) / len(recall_parts)
    precision = sum(precision_parts) / len(precision_parts)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    vectors = await embed_texts([answer, expected])
    similarity = max(0.0, float((vectors[0] * vectors[1]).sum()))
    return {"score": (1 - SIMILARITY_WEIGHT) * f1 + SIMILARITY_WEIGHT * similarity,
            "precision": precision, "recall": recall, "f1": f1, "similarity": similarity,
            "expected_statements": dict(zip(expected_sentences, recall_parts, strict=True)),
            "answer_statements": dict(zip(answer_sentences, precision_parts, strict=True)),
            "judge_calls": len(expected_sentences) + len(answer_sentences)}


async def _supported(statement: str, source: str, source_name: str) -> float:
    decision = await pass_fail(
        "You are a strict fact checker. Reply FAIL or PASS.",
        f"{source_name}: {source}\nStatement: {statement}\n\nIf the {source_name.lower()} "
        "states or clearly implies the statement, reply PASS. If it contradicts the statement "
        "or does not say it, reply FAIL.")
    return decision.probabilities["PASS"]
