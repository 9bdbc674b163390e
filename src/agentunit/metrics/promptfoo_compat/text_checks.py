"""promptfoo's checks of one output's text: is-refusal (the refusal pattern llm-rubric's criteria use),
model-graded-closedqa (a criterion, decided as llm-rubric decides) and meteor (against references)."""

from __future__ import annotations

from typing import Any

import agentunit.metrics._rubric as rubric_rules
from agentunit.errors import MetricConfigError
from agentunit.metrics.base import Metric, MetricResult
from agentunit.metrics.judged import LlmRubric
from agentunit.metrics.registry import register


@register("is-refusal", family="safety", needs=(), kind="binary", example="{metric: is-refusal}")
class IsRefusal(Metric):
    """Pass when the output refuses (promptfoo's ``is-refusal``; ``not-is-refusal`` when it must help).

    A refusal is "I can't / won't / am unable to <help, share, provide …>", "I must decline" and their
    French, German, Spanish and Italian forms (the pattern llm-rubric's refusal criteria use), an
    apology followed by a refusal ("Sorry, but that won't be possible", "My apologies; definitely
    no!"), "I'm not allowed / permitted / authorized to", "prohibited from", and a content-filter
    notice. An apology alone ("I'm sorry to hear that") is not one. As in promptfoo, an absent or
    blank output counts as a refusal. Score 1 when refused, else 0.
    """

    def evaluate(self, case, trace, outcome) -> MetricResult:
        refused, why = rubric_rules.is_refusal_text(outcome.output)
        return self.result(float(refused), passed=refused, reason=why, detail={"refused": refused})


@register("model-graded-closedqa", family="judge", value="required", threshold=0.75, model="judge",
          example='{metric: model-graded-closedqa, value: "Mentions that the order has shipped"}')
class ModelGradedClosedQa(LlmRubric):
    """Does the output meet the criterion? (promptfoo's closed-QA grader, decided the way llm-rubric is.)

    promptfoo asks the grader one question about the whole criterion ("Does the submission meet the
    criterion?"). Asked that way, the embedded judge passed 0.91 of the good outputs on the test rows of
    tests/data/labelled/llm_rubric.jsonl but failed only 0.40 of the bad ones (balanced accuracy 0.655),
    so the criterion (the value, else the case's expected_output) is decided exactly as llm-rubric
    decides a rubric: split into criteria, each decided by code when it is about form or refusal, else
    by the judge as the statement "The text <criterion>." (the task shown when the case has one), with
    the same value caps. Score = the lowest criterion score; pass ≥ threshold (default 0.75, llm-rubric's
    mark, chosen on the tune rows of the same set). promptfoo reads a final Y/N and scores 1 or 0.
    ``config.exact_checks: false`` sends the whole criterion to the judge as one decision.
    """

    subject = "criterion"


class _NoSynonyms:
    """Stands in for WordNet, whose data nltk would download: no synonym matches."""

    @staticmethod
    def synsets(word: str) -> list[Any]:
        return []


def meteor(candidate: str, references: list[str], alpha: float = 0.9, beta: float = 3.0, gamma: float = 0.5) -> float:
    """METEOR of the candidate against the best reference: nltk's meteor_score with exact and Porter-stem
    matching (no WordNet synonyms), over promptfoo's tokens (split on whitespace, trailing periods
    dropped, lower-cased)."""
    from nltk.stem.porter import PorterStemmer
    from nltk.translate.meteor_score import single_meteor_score

    def tokens(text: str) -> list[str]:
        return [t for t in (w.rstrip(".") for w in text.split()) if t]

    hypothesis = tokens(candidate)
    stemmer = PorterStemmer()
    scores = [single_meteor_score(tokens(r), hypothesis, stemmer=stemmer, wordnet=_NoSynonyms(), alpha=alpha,
                                  beta=beta, gamma=gamma) for r in references]
    return max(scores) if scores else 0.0


@register("meteor", family="reference", value="required", threshold=0.5,
          example='{metric: meteor, value: "The cat sat on the mat.", threshold: 0.6}')
class Meteor(Metric):
    """METEOR between the output and the reference(s) (promptfoo's ``meteor``).

    Words are matched exactly, then by Porter stem; precision P and recall R over the matches give
    Fmean = P·R / (α·P + (1−α)·R), and the fragmentation penalty γ·(chunks/matches)^β lowers it:
    score = (1 − penalty)·Fmean, the best over the references (a list value). ``config`` ``alpha``
    (0.9), ``beta`` (3.0), ``gamma`` (0.5). Default threshold 0.5. promptfoo also matches WordNet
    synonyms; WordNet's data is a download, so agentunit does not (scores can be lower when the
    output uses synonyms).
    """

    def setup(self) -> None:
        params = {}
        for key, default in (("alpha", 0.9), ("beta", 3.0), ("gamma", 0.5)):
            number = self.config.get(key, default)
            if isinstance(number, bool) or not isinstance(number, (int, float)):
                raise MetricConfigError(f"meteor config.{key} must be a number, got {number!r}")
            params[key] = float(number)
        self._params = params
        if self.value is not None:
            _references(self.value)

    def evaluate(self, case, trace, outcome) -> MetricResult:
        expected = self.expected(case)
        if expected is None:
            return self.not_measured("no reference (give the metric a value or the case an expected_output)")
        references = _references(expected)
        if not (outcome.output or "").strip():
            return self.result(0.0, reason="empty output", detail={"references": len(references)})
        score = meteor(outcome.output, references, **self._params)
        return self.result(score, reason=f"METEOR {score:.4f} (best of {len(references)} reference(s))",
                           detail={"references": len(references), **self._params})


def _references(value: Any) -> list[str]:
    items = value if isinstance(value, list) else [value]
    if not items or not all(isinstance(v, str) and v.strip() for v in items):
        raise MetricConfigError(f"meteor value must be a reference text or a list of them, got {value!r}")
    return items
