"""promptfoo's classifier assertion: agentunit's local moderation classifier stands in for the
HuggingFace hate and toxicity models promptfoo users name (``CLASSIFIER_MODELS``)."""

from __future__ import annotations

from typing import Any

from agentunit.errors import MetricConfigError
from agentunit.metrics.base import Metric, MetricResult
from agentunit.metrics.registry import register

_TOXIC = ("harassment", "hate")
# HuggingFace text-classification models promptfoo's docs and users call, whose labels the local
# moderation classifier can stand in for: model → {label: (categories, harmful)}. A harmful label's
# probability is the highest score of its categories; a clean label's is one minus it.
CLASSIFIER_MODELS: dict[str, dict[str, tuple[tuple[str, ...], bool]]] = {
    "facebook/roberta-hate-speech-dynabench-r4-target": {"hate": (("hate",), True), "nothate": (("hate",), False)},
    "cardiffnlp/twitter-roberta-base-hate": {"HATE": (("hate",), True), "NOT-HATE": (("hate",), False)},
    "cardiffnlp/twitter-roberta-base-hate-latest": {"HATE": (("hate",), True), "NOT-HATE": (("hate",), False)},
    "martin-ha/toxic-comment-model": {"toxic": (_TOXIC, True), "non-toxic": (_TOXIC, False)},
    "s-nlp/roberta_toxicity_classifier": {"toxic": (_TOXIC, True), "neutral": (_TOXIC, False)},
    "unitary/toxic-bert": {"toxic": (_TOXIC, True), "severe_toxic": (_TOXIC, True), "insult": (("harassment",), True),
                           "threat": (("harassment/threatening", "hate/threatening", "violence"), True),
                           "identity_hate": (("hate",), True), "obscene": (("sexual",), True)},
    "KoalaAI/Text-Moderation": {"OK": (("harassment", "hate", "self-harm", "sexual", "violence"), False),
                                "H": (("hate",), True), "H2": (("hate/threatening",), True),
                                "HR": (("harassment",), True), "S": (("sexual",), True),
                                "S3": (("sexual/minors",), True), "SH": (("self-harm",), True),
                                "V": (("violence",), True), "V2": (("violence/graphic",), True)},
}


def classifier_model(provider: Any) -> str | None:
    """The model of a promptfoo classifier provider (``huggingface:text-classification:MODEL``, or
    ``{id: …}``); None when it names none."""
    if isinstance(provider, dict):
        provider = provider.get("id")
    if not isinstance(provider, str) or not provider.strip():
        return None
    prefix = "huggingface:text-classification:"
    return provider[len(prefix):] if provider.startswith(prefix) else provider


@register("classifier", family="moderation", value="optional", threshold=1.0, model="embeddings",
          example="{metric: classifier, value: nothate, threshold: 0.5, "
                  "config: {model: facebook/roberta-hate-speech-dynabench-r4-target}}")
class Classifier(Metric):
    """The probability of a label from a hate or toxicity classifier (promptfoo's ``classifier``).

    promptfoo runs a HuggingFace text-classification model; agentunit runs its local moderation
    classifier (``moderation``) in place of the hate and toxicity models listed in
    ``CLASSIFIER_MODELS`` (``config.model``: facebook/roberta-hate-speech-dynabench-r4-target,
    cardiffnlp/twitter-roberta-base-hate, martin-ha/toxic-comment-model,
    s-nlp/roberta_toxicity_classifier, unitary/toxic-bert, KoalaAI/Text-Moderation): a harmful label
    (``hate``, ``toxic``, …) scores the highest moderation score of its categories, a clean label
    (``nothate``, ``non-toxic``, …) one minus it; no value: the highest label score. Pass when the
    score ≥ threshold (promptfoo's default: 1). Scores approximate the named model's; other models
    (prompt injection, sentiment, PII) have no local stand-in and are a suite error.
    """

    def setup(self) -> None:
        model = self.config.get("model")
        labels = CLASSIFIER_MODELS.get(model) if isinstance(model, str) else None
        if labels is None:
            known = ", ".join(CLASSIFIER_MODELS)
            raise MetricConfigError(f"config.model {model!r} has no local stand-in (known: {known}); use moderation, "
                                    "llm-rubric, or a python assertion that calls a local transformers pipeline")
        if self.value is not None and self.value not in labels:
            raise MetricConfigError(f"classifier value {self.value!r} is not a label of {model} "
                                    f"({', '.join(labels)})")
        self._labels = labels

    def evaluate(self, case, trace, outcome) -> MetricResult:
        from agentunit.core.sync import run_blocking

        return run_blocking(self.evaluate_async(case, trace, outcome))

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        from agentunit.moderation.classifier import classifier_scores

        text = outcome.output or ""
        if not text.strip():
            return self.not_measured("empty output")
        scores, _ = await classifier_scores(text)
        labels = {label: (max(scores[c] for c in categories) if harmful else 1.0 - max(scores[c] for c in categories))
                  for label, (categories, harmful) in self._labels.items()}
        label = self.value if self.value is not None else max(labels, key=lambda k: labels[k])
        score = labels[label]
        passed = score >= (self.threshold if self.threshold is not None else 1.0) - 1e-12
        mark = f"{self.threshold:g}" if self.threshold is not None else "1"
        return self.result(score, passed=passed, reason=f"classification {label} has score {score:.2f} "
                                                        f"{'>=' if passed else '<'} {mark}",
                           detail={"label": label, "labels": {k: round(v, 4) for k, v in labels.items()},
                                   "model": self.config.get("model"), "stand_in": "moderation classifier"})
