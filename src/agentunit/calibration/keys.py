"""Which metrics calibration concerns, the name each is calibrated under, and P(pass) from a value.

A judge-backed metric is one whose registry info has ``model == "judge"``. Its calibration key is
its ``label`` when the entry has one (so two llm-rubric entries can be calibrated apart), else the
name its results carry (the canonical name, ``not-`` included when negated).
"""

from __future__ import annotations

from typing import Any

from agentunit.metrics.registry import UnknownMetricError, lookup, normalize


def is_judge_backed(metric: Any) -> bool:
    """True when the metric's registry info says it needs the judge."""
    info = getattr(metric, "info", None)
    return getattr(info, "model", None) == "judge"


def metric_key(metric: Any) -> str:
    """The name a metric is calibrated and reported under: its label, else its result name."""
    label = getattr(metric, "label", None)
    if isinstance(label, str) and label:
        return label
    return str(getattr(metric, "display_name", None) or getattr(metric, "name", type(metric).__name__))


def names_metric(name: str, metric: Any) -> bool:
    """Whether ``name`` (from a labels file or ``--metric``) designates ``metric``: its key, or for an
    entry without a label any name or alias of the same metric (``llm_rubric`` = ``llm-rubric``)."""
    if name == metric_key(metric) or normalize(name) == normalize(metric_key(metric)):
        return True
    if getattr(metric, "label", None):
        return False
    try:
        info, negated = lookup(name)
    except UnknownMetricError:
        return False
    return info is getattr(metric, "info", None) and negated == bool(getattr(metric, "negate", False))


def pass_is_low(metric: Any) -> bool:
    """True when a lower stored value means pass (``hallucination``); negation does not change this,
    because a negated score metric stores 1 − value."""
    info = getattr(metric, "info", None)
    return getattr(info, "direction", "higher") == "lower"


def pass_score(value: float, metric: Any) -> float:
    """The stored value read as P(pass), clamped to 0..1: the value, or 1 − value when lower passes."""
    score = 1.0 - value if pass_is_low(metric) else value
    return min(max(score, 0.0), 1.0)


def metric_threshold(score_threshold: float, metric: Any) -> float:
    """The ``threshold`` to give the metric so that it passes exactly when P(pass) ≥ ``score_threshold``.

    Higher-is-better: the same number. Lower-is-better (value ≤ t passes): 1 − t. Negated metrics
    invert the verdict of the raw score, so the mapping flips once more.
    """
    flip = pass_is_low(metric) != bool(getattr(metric, "negate", False))
    return 1.0 - score_threshold if flip else score_threshold
