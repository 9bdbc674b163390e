"""Agentic metrics computed from the trace's tool and agent calls."""

from __future__ import annotations

from agentunit.core.envelope import tool_call_failed
from agentunit.metrics.base import Metric, MetricResult
from agentunit.metrics.registry import register


@register("tool_success", family="agentic", aliases=("tool-success-metric",), needs=(), threshold=1.0,
          example="{metric: tool_success, threshold: 0.9}")
class ToolSuccessMetric(Metric):
    """Share of tool calls that succeeded: successful ``tool_call`` events / all ``tool_call`` events.

    A call failed when its payload has a truthy ``error``, ``success: false``, or a ``status`` of
    error/failed/failure/exception/timeout. Default threshold 1.0 (every call succeeded). No tool
    calls → not measured.
    """

    def evaluate(self, case, trace, outcome) -> MetricResult:
        calls = trace.of_type("tool_call")
        if not calls:
            return self.not_measured("no tool calls in the trace")
        failed = [e.payload.get("name") for e in calls if tool_call_failed(e.payload)]
        ok = len(calls) - len(failed)
        return self.result(ok / len(calls), reason=f"{ok}/{len(calls)} tool calls succeeded",
                           detail={"calls": len(calls), "failed": failed})
