"""promptfoo's assertions over the outputs of one test across its prompts and providers: select-best
(the judge's choice) and max-score (the highest aggregate of the other assertions)."""

from __future__ import annotations

from typing import Any

from agentunit.errors import MetricConfigError
from agentunit.metrics.base import Metric, MetricResult
from agentunit.metrics.judged import JudgedMetric, _require_text
from agentunit.metrics.registry import register


def _compared(metric: Metric, verdict: tuple[float, bool, str, dict[str, Any]]) -> MetricResult:
    value, passed, reason, detail = verdict
    return metric.result(value, passed=passed, reason=reason, detail=detail)


@register("select-best", family="judge", value="required", kind="binary", model="judge",
          example='{metric: select-best, value: "choose the most concise answer"}')
class SelectBest(JudgedMetric):
    """Is this output the best of its test's outputs? (promptfoo's ``select-best``.)

    Runs in promptfoo configs, over the outputs of one test across its prompts and providers (those
    whose call failed left out); the chosen output passes with 1, the others fail with 0. As in
    promptfoo, a test needs at least two outputs.

    ``config.method: rubric`` (default): each output is scored alone against the criteria (the value)
    as ``llm-rubric`` scores it, and the highest score is chosen (a tie: the first output).
    ``config.method: compare``: promptfoo's question — the judge is shown every output, numbered from
    0, and chooses among the indices; asked in two orders (given and reversed; ``config.orders: 1``
    asks once, as promptfoo does), each output's share the mean of its two probabilities: the small
    judge's pick otherwise follows the position. Shown side by side, the embedded judge picks by
    position more than by content; scored alone it picks better (docs/promptfoo.md).
    """

    def setup(self) -> None:
        _require_text(self, "the criteria")
        method = (self.config or {}).get("method", "rubric")
        if method not in ("rubric", "compare"):
            raise MetricConfigError(f"{self.name} config.method must be 'rubric' (each output scored alone, the "
                                    f"default) or 'compare' (promptfoo's question over all outputs), got {method!r}")
        orders = (self.config or {}).get("orders", 2)
        if isinstance(orders, bool) or orders not in (1, 2):
            raise MetricConfigError(f"{self.name} config.orders must be 1 (promptfoo's one question) or 2 (the "
                                    f"outputs also shown reversed, the default), got {orders!r}")

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        from agentunit.promptfoo.compare import select_best

        return _compared(self, await select_best(self, case))


@register("max-score", family="reference", value="optional", kind="binary",
          example="{metric: max-score, value: {method: average, weights: {contains: 2}}}")
class MaxScore(Metric):
    """Is this output the highest scoring of its test's outputs? (promptfoo's ``max-score``.)

    Runs in promptfoo configs, over the outputs of one test across its prompts and providers. Each
    output's aggregate is the ``method`` (``average``, default, or ``sum``) of its other assertions'
    scores, each weighted by ``weights[type]`` (default 1): a score metric's 0..1 value, else 1 for a
    pass and 0 for a failure (0 without a verdict). The first output with the highest aggregate
    passes with 1 when it reaches ``threshold`` (none by default); the others fail with 0. The value:
    ``{method, weights, threshold}``. As in promptfoo, a test needs two outputs and another assertion.
    """

    def setup(self) -> None:
        from agentunit.promptfoo.compare import MaxScoreOptions

        try:
            MaxScoreOptions.of(self.value)
        except ValueError as exc:
            raise MetricConfigError(str(exc)) from None

    def evaluate(self, case, trace, outcome) -> MetricResult:
        from agentunit.core.sync import run_blocking

        return run_blocking(self.evaluate_async(case, trace, outcome))

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        from agentunit.promptfoo.compare import max_score

        return _compared(self, await max_score(self, case))
