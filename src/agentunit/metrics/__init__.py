"""The metric catalog: registry, base types and the functions that build metrics from specs."""

from __future__ import annotations

import inspect
import weakref
from collections.abc import Iterable
from typing import Any

from agentunit.errors import MetricConfigError
from agentunit.metrics.base import CompositeMetric, Metric, MetricProtocol, MetricResult, score
from agentunit.metrics.registry import (
    NOT_PREFIX,
    MetricInfo,
    UnknownMetricError,
    all_metrics,
    generation,
    lookup,
    normalize,
    register,
    register_metric,
)

# Metrics used when a scenario names none: the AgentUnit catalog's defaults. faithfulness and
# answer_correctness use the judge; without context / expected_output they are not measured.
DEFAULT_METRICS: tuple[str, ...] = ("faithfulness", "answer_correctness", "tool_success", "cost", "token_usage")

_SPEC_ARGUMENTS = ("value", "threshold", "config", "weight", "negate", "label")


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

    A class whose constructor takes the spec (``Metric``'s ``value, threshold=, config=, weight=,
    negate=, label=``) gets it; any other class (a ``Metric`` subclass with its own ``__init__``,
    a protocol class) is built with the constructor arguments it declares, taken from the spec's
    ``config`` (and ``value``/``threshold`` when it names them), and the spec is then set on the
    instance. Results are named by the canonical name, or by the AgentUnit catalog name when the
    metric was asked for by it (``faithfulness``, ``hallucination_rate``).

    Raises UnknownMetricError for an unknown name and MetricConfigError for an unusable value or a
    constructor the spec cannot satisfy.
    """
    resolved = _RESOLVED.get(name) if type(name) is str else None
    if resolved is None or resolved[0] != generation():
        resolved = _resolve(name)
    _, info, negate, result_name, parameters = resolved
    spec = {"value": value, "threshold": threshold, "config": config, "weight": weight, "negate": negate,
            "label": label}
    if parameters is None:
        metric = info.cls(**spec)
    else:
        metric = _construct(info, parameters, spec)
        _apply_spec(metric, info, spec)
    _set(metric, "name", result_name)
    _set(metric, "display_name", f"{NOT_PREFIX}{result_name}" if negate else result_name)
    return metric


def _resolve(name: str) -> tuple[int, MetricInfo, bool, str, set[str] | None]:
    """What ``create_metric`` makes of a name: (registry generation, info, negated, result name, the
    constructor's parameters when it does not take the spec as ``Metric`` does, else None); kept per name
    while the registry stays as it is (suites build the same metric case after case)."""
    info, negate = lookup(name)
    result_name = info.name
    asked = normalize(name)
    asked = asked[len(NOT_PREFIX):] if negate and asked.startswith(NOT_PREFIX) else asked
    if info.catalog_name is not None and asked == normalize(info.catalog_name):
        result_name = info.catalog_name
    parameters = _constructor_parameters(info.cls)
    takes_spec = parameters is None or set(_SPEC_ARGUMENTS) <= parameters
    resolved = (generation(), info, negate, result_name, None if takes_spec else parameters)
    if type(name) is str:
        if len(_RESOLVED) >= 1024:
            _RESOLVED.clear()
        _RESOLVED[name] = resolved
    return resolved


_RESOLVED: dict[str, tuple[int, MetricInfo, bool, str, set[str] | None]] = {}


def _constructor_parameters(cls: type) -> set[str] | None:
    """Keyword names the constructor takes; None when it takes any (``**kwargs``) or cannot be read.

    Read once per class (``inspect.signature`` costs ~100 µs, paid per metric entry otherwise).
    """
    try:
        return _PARAMETERS[cls]
    except KeyError:
        names = _PARAMETERS[cls] = _read_parameters(cls)
        return names
    except TypeError:  # an unhashable class object
        return _read_parameters(cls)


_PARAMETERS: weakref.WeakKeyDictionary[type, set[str] | None] = weakref.WeakKeyDictionary()


def _read_parameters(cls: type) -> set[str] | None:
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):
        return None
    names = set()
    for parameter in signature.parameters.values():
        if parameter.kind is parameter.VAR_KEYWORD:
            return None
        if parameter.kind in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY):
            names.add(parameter.name)
    return names


def _construct(info: MetricInfo, parameters: set[str], spec: dict[str, Any]) -> Any:
    """Call a constructor that does not take the spec with the arguments it declares."""
    config = spec["config"] or {}
    arguments = {k: v for k, v in config.items() if k in parameters and k not in _SPEC_ARGUMENTS}
    arguments.update({k: spec[k] for k in _SPEC_ARGUMENTS if k in parameters and spec[k] is not None})
    try:
        return info.cls(**arguments)
    except TypeError as exc:
        accepted = ", ".join(sorted(parameters)) or "none"
        raise MetricConfigError(
            f"cannot build metric {info.name!r} ({info.cls.__name__}): {exc}; its constructor takes "
            f"{accepted} — give them under `config:`") from None


def _apply_spec(metric: Any, info: MetricInfo, spec: dict[str, Any]) -> None:
    """Set the spec on an instance its constructor did not give it to: what the spec states wins,
    what it leaves out fills only attributes the instance lacks (the constructor's own stay)."""
    given = {"value": spec["value"], "threshold": spec["threshold"], "label": spec["label"],
             "config": None if spec["config"] is None else dict(spec["config"]),
             "weight": None if spec["weight"] == 1.0 else spec["weight"]}
    fallback = {"value": None, "threshold": info.threshold, "label": None, "config": {}, "weight": 1.0}
    for attr, value in given.items():
        if value is not None:
            _set(metric, attr, value)
        elif not hasattr(metric, attr):
            _set(metric, attr, fallback[attr])
    _set(metric, "negate", spec["negate"])


def _set(metric: Any, attr: str, value: Any) -> None:
    try:
        setattr(metric, attr, value)
    except AttributeError:  # a read-only attribute (property, slots): the class keeps its own
        pass


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
