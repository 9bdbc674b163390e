"""Metrics that compare the answer with a reference answer."""

from __future__ import annotations

import re
import unicodedata

from agentunit.errors import AgentUnitError
from agentunit.metrics.base import Metric, MetricResult
from agentunit.metrics.registry import register

_SPACE = re.compile(r"\s+")
_EDGE_PUNCT = " \t\n.!?,;:\"'`"


def normalize_answer(text: str) -> str:
    """Unicode NFKC, case-fold, collapse whitespace, strip surrounding punctuation and quotes."""
    text = unicodedata.normalize("NFKC", str(text)).casefold()
    return _SPACE.sub(" ", text).strip(_EDGE_PUNCT)


@register("answer_correctness", family="reference", aliases=("answer-correctness-metric",),
          needs=("output", "expected_output"), value="optional", threshold=0.5, model="judge",
          example="{metric: answer_correctness, value: Paris}")
class AnswerCorrectnessMetric(Metric):
    """Agreement of the answer with the expected output (AgentUnit AnswerCorrectnessMetric).

    Algorithm: an exact match after normalisation (NFKC, case-fold, whitespace, surrounding
    punctuation) scores 1. Any other answer needs statement-level agreement judged by the embedded
    judge blended with embedding similarity; until the judge layer is installed, such a case records
    an error saying so — never a guessed score.
    """

    def evaluate(self, case, trace, outcome) -> MetricResult:
        expected = str(self.expected(case))
        if normalize_answer(outcome.output) == normalize_answer(expected):
            return self.result(1.0, reason="exact match after normalisation", detail={"method": "exact"})
        raise AgentUnitError(
            "answer is not an exact match and statement-level grading needs the embedded judge, "
            "which this version does not ship yet"
        )
