"""Performance metrics read from the outcome and the trace: latency, cost, token usage, perplexity."""

from __future__ import annotations

import math
from typing import Any

from agentunit.metrics.base import Metric, MetricResult
from agentunit.metrics.registry import register


@register("latency", family="performance", needs=("output", "latency"), direction="lower", kind="raw",
          example="{metric: latency, threshold: 2000}")
class Latency(Metric):
    """Target response time in milliseconds; passes when ≤ ``threshold`` (ms).

    Measured around the target call only (not metric time). A response served from the cache keeps
    the latency of the original call. Recorded outputs have no latency: not measured.
    """

    def evaluate(self, case, trace, outcome) -> MetricResult:
        ms = float(outcome.latency_ms)
        limit = f" (limit {self.threshold:g} ms)" if self.threshold is not None else ""
        return self.result(ms, reason=f"{ms:.0f} ms{limit}", detail={"cached": outcome.cached})


@register("cost", family="performance", aliases=("cost-metric",), direction="lower", kind="raw",
          example="{metric: cost, threshold: 0.01}")
class CostMetric(Metric):
    """Cost of the case in the target's currency unit (raw; passes when ≤ ``threshold`` if one is set).

    Algorithm: the call's reported cost (outcome ``cost``, else trace metadata ``cost``) plus the
    ``cost`` of every ``tool_call`` event. Not measured when nothing reports a cost.
    """

    def evaluate(self, case, trace, outcome) -> MetricResult:
        base = outcome.cost if outcome.cost is not None else _number(trace.metadata.get("cost"))
        tool_costs = [c for c in (_number(e.payload.get("cost")) for e in trace.of_type("tool_call"))
                      if c is not None]
        if base is None and not tool_costs:
            return self.not_measured("no cost reported by the target, trace or tool calls")
        total = (base or 0.0) + sum(tool_costs)
        return self.result(total, reason=f"cost {total:g}",
                           detail={"call_cost": base, "tool_cost": sum(tool_costs), "tool_calls": len(tool_costs)})


@register("token_usage", family="performance", aliases=("token-usage-metric", "tokens"),
          direction="lower", kind="raw", example="{metric: token_usage, threshold: 2000}")
class TokenUsageMetric(Metric):
    """Total tokens used by the case (raw; passes when ≤ ``threshold`` if one is set).

    Algorithm: from the usage record (outcome, else trace metadata ``usage``): ``total_tokens`` when
    given, else prompt + completion tokens (OpenAI ``prompt_tokens``/``completion_tokens`` or
    Anthropic ``input_tokens``/``output_tokens``). Not measured when no usage is reported.
    """

    def evaluate(self, case, trace, outcome) -> MetricResult:
        usage = outcome.usage or trace.metadata.get("usage")
        if not isinstance(usage, dict):
            return self.not_measured("no token usage reported")
        prompt = _number(usage.get("prompt_tokens", usage.get("input_tokens")))
        completion = _number(usage.get("completion_tokens", usage.get("output_tokens")))
        total = _number(usage.get("total_tokens"))
        if total is None:
            if prompt is None and completion is None:
                return self.not_measured("usage has no token counts")
            total = (prompt or 0) + (completion or 0)
        return self.result(total, reason=f"{total:g} tokens",
                           detail={"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": total})


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


class _PerplexityBase(Metric):
    """exp(−mean token log-probability): the target's logprobs when it returns them, else the embedded LM."""

    def _measure(self, outcome: Any) -> tuple[float, int, str] | None:
        if outcome.logprobs:
            return math.exp(-sum(outcome.logprobs) / len(outcome.logprobs)), len(outcome.logprobs), "target logprobs"
        return None

    def _embedded(self, text: str) -> tuple[float, int, str]:
        from agentunit.models.perplexity import scorer

        ppl, tokens = scorer().perplexity(text)
        return ppl, tokens, "embedded SmolLM2-135M (the target gave no logprobs)"

    def _result(self, measured: tuple[float, int, str]) -> MetricResult:
        raise NotImplementedError

    def evaluate(self, case, trace, outcome) -> MetricResult:
        measured = self._measure(outcome)
        if measured is None:
            if len(outcome.output.split()) < 2 and len(outcome.output) < 8:
                return self.not_measured("the output is too short to score")
            measured = self._embedded(outcome.output)
        return self._result(measured)

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        import asyncio

        if outcome.logprobs:
            return self.evaluate(case, trace, outcome)
        return await asyncio.to_thread(self.evaluate, case, trace, outcome)  # the embedded LM blocks


@register("perplexity", family="performance", direction="lower", kind="raw", model="perplexity",
          example="{metric: perplexity, threshold: 20}")
class Perplexity(_PerplexityBase):
    """Perplexity of the output: exp(−mean token log-probability) (raw, lower is better; passes when
    ≤ ``threshold`` if one is set). From the target's token logprobs when it returns them (the openai
    target with ``logprobs: true``, or ``trusys.logprobs``); otherwise the output is scored by the
    embedded SmolLM2-135M, one forced token at a time (agentunit.models.perplexity). The detail says
    which source was used."""

    def _result(self, measured: tuple[float, int, str]) -> MetricResult:
        ppl, tokens, source = measured
        return self.result(ppl, reason=f"perplexity {ppl:.3f} over {tokens} tokens",
                           detail={"tokens": tokens, "source": source})


@register("perplexity-score", family="performance", model="perplexity",
          example="{metric: perplexity-score, threshold: 0.2}")
class PerplexityScore(_PerplexityBase):
    """1 / (1 + perplexity) (0..1, higher is better), with the perplexity as for ``perplexity``
    (target logprobs, else the embedded SmolLM2-135M)."""

    def _result(self, measured: tuple[float, int, str]) -> MetricResult:
        ppl, tokens, source = measured
        return self.result(1.0 / (1.0 + ppl), reason=f"1/(1+{ppl:.3f})",
                           detail={"perplexity": ppl, "tokens": tokens, "source": source})
