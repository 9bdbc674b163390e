"""Embedding-based metrics (no judge calls): similar."""

from __future__ import annotations

import math
from typing import Any

from agentunit.errors import MetricConfigError
from agentunit.metrics.base import Metric, MetricResult
from agentunit.metrics.registry import register

_MEASURES = ("cosine", "dot", "euclidean")


@register("similar", family="semantic", value="required", threshold=0.8, model="embeddings",
          example="{metric: similar, value: \"The capital of France is Paris.\", threshold: 0.75}")
class Similar(Metric):
    """Semantic similarity of the output to the value (or to the best of several values) with the
    embedded all-MiniLM-L6-v2 model; passes when ≥ threshold (default 0.8).

    ``config.metric``: ``cosine`` (default), ``dot`` (the same as cosine here: the vectors are
    unit-length) or ``euclidean`` (scored as 1 / (1 + distance) so that higher stays better). No judge
    call; embeddings are batched across the cases running at once and memoised by text.
    """

    def setup(self) -> None:
        self._measure = self.config.get("metric", "cosine")
        if self._measure not in _MEASURES:
            raise MetricConfigError(f"config.metric must be one of {', '.join(_MEASURES)}")

    def _references(self, case) -> list[str]:
        refs = self.expected(case)
        refs = refs if isinstance(refs, list) else [refs]
        refs = [str(r) for r in refs if r is not None]
        if not refs:
            raise MetricConfigError("similar needs at least one reference text")
        return refs

    def evaluate(self, case, trace, outcome) -> MetricResult:
        from agentunit.models.embeddings import embed_sync

        refs = self._references(case)
        return self._verdict(refs, embed_sync([outcome.output, *refs]))

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        from agentunit.models.embeddings import embed_texts

        refs = self._references(case)
        return self._verdict(refs, await embed_texts([outcome.output, *refs]))

    def _verdict(self, refs: list[str], vectors: list[Any]) -> MetricResult:
        output, rest = vectors[0], vectors[1:]
        scores = [self._similarity(output, r) for r in rest]
        best = max(range(len(scores)), key=scores.__getitem__)
        return self.result(scores[best], reason=f"{self._measure} similarity {scores[best]:.3f}"
                           + (f" (best of {len(refs)} references)" if len(refs) > 1 else ""),
                           detail={"measure": self._measure, "scores": scores, "best_reference": best,
                                   "model": "all-MiniLM-L6-v2 int8"})

    def _similarity(self, a: Any, b: Any) -> float:
        dot = float((a * b).sum())
        if self._measure == "euclidean":
            return 1.0 / (1.0 + math.sqrt(max(0.0, float(((a - b) ** 2).sum()))))
        return dot
