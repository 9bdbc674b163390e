"""``assert-set``: a group of metrics with its own threshold, scored as one (promptfoo's assert-set)."""

from __future__ import annotations

from agentunit.errors import MetricConfigError
from agentunit.metrics.base import Metric, MetricResult, score
from agentunit.metrics.registry import register


@register("assert-set", family="group", value="required", kind="score", needs=(),
          example="{metric: assert-set, threshold: 0.5, assert: [{metric: contains, value: a}, "
                  "{metric: contains, value: b}]}")
class AssertSet(Metric):
    """Score a group of metrics (``assert:``/``metrics:``) as one: the weighted mean of the children's
    scores (0..1 score, else 1/0 for pass/fail; weights from the children) over those with a verdict.
    With a ``threshold`` the set passes when that mean ≥ threshold, else when every child passed.
    A child error errors the set; not-measured children are left out. The detail holds each child."""

    def setup(self) -> None:
        if not isinstance(self.value, list) or not self.value:
            raise MetricConfigError("assert-set needs a non-empty list of metrics under `assert:`")
        self._children = self.value

    def evaluate(self, case, trace, outcome) -> MetricResult:
        from agentunit.core.scoring import judge_case

        results = [score(m, case, trace, outcome) for m in self._children]
        verdict = judge_case(results, self._children, self.threshold)
        detail = {"children": [r.to_dict() for r in results]}
        if verdict.status == "errored":
            raise RuntimeError(f"a metric in the set failed: {verdict.reason}")
        if verdict.score is None:
            return self.not_measured("no metric in the set was measured")
        return MetricResult(name=self.display_name, value=verdict.score, detail=detail, passed=verdict.passed,
                            threshold=self.threshold, weight=self.weight,
                            reason=verdict.reason or f"set score {verdict.score:.3f}")
