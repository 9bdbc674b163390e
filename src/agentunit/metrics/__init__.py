"""The metric catalog: registry, base types and the functions that build metrics from specs."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from agentunit.metrics.base import CompositeMetric, Metric, MetricProtocol, MetricResult, score
from agentunit.metrics.registry import (
    MetricInfo,
    UnknownMetricError,
    all_metrics,
    lookup,
    register,
    register_metric,
)

# Metrics used when a scenario names none (AgentUnit's defaults that need no model).
DEFAULT_METRICS: tuple[str, ...] = ("tool_success", "latency", "cost", "token_usage")


def create_metric(
    name: str,
    *,
    value: Any = None,
    threshold: float | None = None,
    config: dict[str, Any] | None = None,
    weight: float = 1.0,
    label: str | None = None,
) -> Any:
    """Build a metric instance from its name (any alias, ``not-`` prefix allowed) and its spec.

    Raises UnknownMetricError for an unknown name and MetricConfigError for an unusable value.
    """
    info, negate = lookup(name)
    cls = info.cls
    if isinstance(cls, type) and issubclass(cls, Metric):
        return cls(value, threshold=threshold, config=config, weight=weight, negate=negate, label=label)
    metric = cls()  # a user class following only the protocol
    for attr, val in (("value", value), ("threshold", threshold), ("config", dict(config or {})),
                      ("weight", weight), ("negate", negate), ("label", label),
                      ("display_name", f"not-{info.name}" if negate else info.name)):
        try:
            setattr(metric, attr, val)
        except AttributeError:
            pass
    return metric


def metric_from_spec(spec: Any) -> Any:
    """Build a metric from a name, a dict ``{metric, value, threshold, weight, config}``, or pass an instance."""
    if isinstance(spec, str):
        return create_metric(spec)
    if isinstance(spec, dict):
        name, label = metric_name_and_label(spec)
        if not isinstance(name, str):
            raise ValueError(f"metric spec needs a 'metric' name: {spec!r}")
        value = spec.get("value", spec.get("expected_output", spec.get("expcted_output")))
        children = spec.get("assert", spec.get("metrics"))
        if children is not None:
            value = [metric_from_spec(c) for c in children]
        return create_metric(name, value=value, threshold=spec.get("threshold"),
                             config=spec.get("config"), weight=spec.get("weight", 1.0), label=label)
    if callable(getattr(spec, "evaluate", None)):
        return spec
    raise TypeError(f"cannot build a metric from {spec!r}")


def metric_name_and_label(spec: dict[str, Any]) -> tuple[Any, Any]:
    """``{metric: contains}`` → (contains, label); promptfoo's ``{type: contains, metric: Accuracy}``
    → (contains, Accuracy): with ``type`` present, ``metric`` is the group label."""
    if "type" in spec:
        return spec["type"], spec.get("label", spec.get("metric"))
    return spec.get("metric"), spec.get("label")


def resolve_metrics(specs: Iterable[Any] | None = None) -> list[Any]:
    """Build metrics from names/specs/instances; ``None`` gives ``DEFAULT_METRICS`` (AgentUnit API)."""
    return [metric_from_spec(s) for s in (DEFAULT_METRICS if specs is None else specs)]


__all__ = [
    "DEFAULT_METRICS", "CompositeMetric", "Metric", "MetricInfo", "MetricProtocol", "MetricResult",
    "UnknownMetricError", "all_metrics", "create_metric", "lookup", "metric_from_spec", "register",
    "register_metric", "resolve_metrics", "score",
]
