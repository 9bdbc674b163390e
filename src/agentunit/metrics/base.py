"""Metric protocol, result type, the shared base class and CompositeMetric.

A metric's ``evaluate(case, trace, outcome)`` returns a ``MetricResult``. Four states matter and are
kept apart everywhere, from the database to the reports:

- passed / failed: measured, with a verdict (``passed`` True/False);
- informational: measured, no verdict (``passed`` None, e.g. ``cost`` without a threshold);
- not measured: ``value`` None and no ``error`` — the inputs were absent (``reason`` says which);
- error: the metric could not compute (``error`` holds why).
"""

from __future__ import annotations

import contextvars
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

if TYPE_CHECKING:
    from agentunit.core.outcome import Outcome
    from agentunit.core.trace import TraceLog
    from agentunit.datasets.base import DatasetCase
    from agentunit.metrics.registry import MetricInfo


@dataclass(slots=True)
class MetricResult:
    """The result of one metric on one case.

    Args:
        name: metric name as the user wrote it (``not-contains`` stays ``not-contains``).
        value: the score (0..1) or raw measure (ms, tokens, cost); None when not measured or errored.
        detail: algorithm-specific evidence (claims, matches, counts, which method was used).
        passed: verdict; None when there is none (not measured, informational, error).
        threshold: the pass mark applied, if any.
        reason: one line a person can read.
        error: why the metric could not compute, if it could not.
        weight: weight in the case's weighted score (0 = informational).
        label: the metric group this result is counted under (promptfoo's ``metric:`` name).
    """

    name: str
    value: float | None
    detail: dict[str, Any] = field(default_factory=dict)
    passed: bool | None = None
    threshold: float | None = None
    reason: str | None = None
    error: str | None = None
    weight: float = 1.0
    label: str | None = None

    @property
    def measured(self) -> bool:
        return self.error is None and self.value is not None

    @property
    def status(self) -> str:
        """One of ``passed``, ``failed``, ``info``, ``not_measured``, ``error``."""
        if self.error is not None:
            return "error"
        if self.value is None:
            return "not_measured"
        if self.passed is None:
            return "info"
        return "passed" if self.passed else "failed"

    def to_dict(self) -> dict[str, Any]:
        return {
            "metric": self.name,
            "value": self.value,
            "passed": self.passed,
            "threshold": self.threshold,
            "reason": self.reason,
            "detail": self.detail,
            "error": self.error,
        }


@runtime_checkable
class MetricProtocol(Protocol):
    """What the runner needs from any metric, including user classes that do not subclass Metric."""

    name: str

    def evaluate(self, case: DatasetCase, trace: TraceLog, outcome: Outcome) -> MetricResult: ...


# Metric config keys that choose code, a model file, a provider or a server, or loosen a limit or the sandbox:
# the suite author's settings, refused in a cases file or a promptfoo tests file (data is data).
AUTHOR_ONLY_CONFIG = frozenset({
    "sandbox", "timeout", "cpu_seconds", "memory_mb", "total_memory_mb", "processes", "file_size_mb", "open_files",
    "disk_mb", "output_kb", "max_response_bytes", "model", "model_path", "clip_model", "asr_model", "n_gpu_layers",
    "provider", "base_url", "url", "api_key_env", "headers", "judges", "vision",
})


def author_only_keys(cls: type, config: Any) -> list[str]:
    """The keys of ``config`` that only the suite file may set for metric class ``cls``, sorted."""
    if not isinstance(config, dict):
        return []
    own = getattr(cls, "author_only_config", ())
    return sorted(k for k in config if isinstance(k, str) and (k in AUTHOR_ONLY_CONFIG or k in own))


class Metric:
    """Base class for catalog metrics: holds the spec and turns measurements into results.

    Subclasses implement ``evaluate`` with the algorithm only and build results with ``result`` and
    ``not_measured``; thresholds, direction, negation and error capture are handled here and in
    ``score``. ``setup`` validates ``value``/``config`` once, when the metric is built, so a bad
    value is reported as a suite error before anything runs.

    Args:
        value: the expected value (substring, pattern, number, …); falls back to the case's
            ``expected_output`` for metrics that take one.
        threshold: pass mark; defaults to the registry's default for this metric.
        config: metric-specific options.
        weight: weight in the case score; 0 makes the metric informational.
        negate: invert the verdict (the ``not-`` prefix).
        label: group name for per-group pass rates in the run summary.
    """

    name: ClassVar[str] = "metric"
    # True for a metric whose result depends on the cases scored before it in the run (``run_state``): such a
    # run is never split across processes (agentunit.core.shards), which would give each range its own state.
    keeps_run_state: ClassVar[bool] = False
    info: ClassVar[MetricInfo | None] = None
    # Config keys only the suite file may set, beyond AUTHOR_ONLY_CONFIG (docs/security.md): a cases file is data.
    author_only_config: ClassVar[tuple[str, ...]] = ()

    def __init__(
        self,
        value: Any = None,
        *,
        threshold: float | None = None,
        config: dict[str, Any] | None = None,
        weight: float = 1.0,
        negate: bool = False,
        label: str | None = None,
    ):
        self.value = value
        self.label = label
        info = type(self).info
        self.threshold = threshold if threshold is not None else (info.threshold if info else None)
        self.config = dict(config or {})
        self.weight = float(weight)
        self.negate = negate
        # Built directly, a class of the AgentUnit catalog names its results as the catalog does
        # (FaithfulnessMetric → faithfulness); create_metric renames by the name asked for.
        if info is not None and info.catalog_name is not None:
            self.name = info.catalog_name
        self.display_name = f"not-{self.name}" if negate else self.name
        self.setup()

    def setup(self) -> None:
        """Validate and precompute from ``value``/``config``; raise MetricConfigError when unusable."""

    def check_expected(self, expected: Any) -> None:
        """Validate a case's ``expected_output`` that this metric will use as its value (the metric has
        none of its own), at suite load; raise MetricConfigError when it is unusable."""

    def evaluate(self, case: DatasetCase, trace: TraceLog, outcome: Outcome) -> MetricResult:
        raise NotImplementedError

    # -- helpers for subclasses -------------------------------------------------------------------

    def expected(self, case: DatasetCase) -> Any:
        """The metric's value, else the case's ``expected_output``."""
        return self.value if self.value is not None else case.expected_output

    def result(
        self,
        value: float | None,
        *,
        passed: bool | None = None,
        reason: str | None = None,
        detail: dict[str, Any] | None = None,
    ) -> MetricResult:
        """Build a result; when ``passed`` is not given it is decided by threshold and direction."""
        threshold = self.threshold
        if passed is None and value is not None and threshold is not None:
            lower = self.info is not None and self.info.direction == "lower"
            passed = value <= threshold if lower else value >= threshold
        return MetricResult(
            name=self.display_name, value=value, detail=detail or {}, passed=passed,
            threshold=threshold, reason=reason, weight=self.weight, label=self.label,
        )

    def not_measured(self, reason: str) -> MetricResult:
        """Inputs were absent: no value, no verdict, a reason."""
        return MetricResult(name=self.display_name, value=None, reason=f"not measured: {reason}",
                            threshold=self.threshold, weight=self.weight, label=self.label)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(value={self.value!r}, threshold={self.threshold!r})"


_RUN_STATE: contextvars.ContextVar[dict[int, dict[str, Any]]] = contextvars.ContextVar("agentunit_run_state")


def begin_run_state() -> contextvars.Token:
    """Start fresh cross-case state for a run (the engine calls this; metric instances outlive runs)."""
    return _RUN_STATE.set({})


def end_run_state(token: contextvars.Token) -> None:
    _RUN_STATE.reset(token)


def run_state(metric: Any) -> dict[str, Any]:
    """State a metric keeps across the cases of one run (e.g. a privacy budget's spent epsilon).

    Inside an engine run it is scoped to that run; outside one (calling ``evaluate`` by hand) it lives
    on the metric instance.
    """
    try:
        states = _RUN_STATE.get()
    except LookupError:
        return metric.__dict__.setdefault("_run_state", {})
    return states.setdefault(id(metric), {})


def keyword_config(named: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
    """A metric's config from the catalog's keyword arguments (``PIILeakageMetric(check_input=True)``)
    merged with a suite's ``config`` mapping, which wins; pops ``config`` from ``base``."""
    return {**named, **(base.pop("config", None) or {})}


def score(metric: Any, case: DatasetCase, trace: TraceLog, outcome: Outcome) -> MetricResult:
    """Run one metric safely: check inputs, evaluate, apply negation, never raise.

    A missing required input gives "not measured"; an exception gives a result with ``error``.
    """
    early = _before(metric, case, outcome)
    if early is not None:
        return early
    try:
        result = metric.evaluate(case, trace, outcome)
    except Exception as exc:  # a metric failure is recorded on the case; the run goes on
        return _failed(metric, exc)
    return _after(metric, result)


async def score_async(metric: Any, case: DatasetCase, trace: TraceLog, outcome: Outcome) -> MetricResult:
    """``score`` for metrics with ``evaluate_async`` (model-backed ones batch their calls across cases)."""
    evaluate_async = getattr(metric, "evaluate_async", None)
    if evaluate_async is None:
        return score(metric, case, trace, outcome)
    early = _before(metric, case, outcome)
    if early is not None:
        return early
    try:
        result = await evaluate_async(case, trace, outcome)
    except Exception as exc:
        return _failed(metric, exc)
    return _after(metric, result)


def _name(metric: Any) -> str:
    return getattr(metric, "display_name", None) or getattr(metric, "name", type(metric).__name__)


def _before(metric: Any, case: DatasetCase, outcome: Outcome) -> MetricResult | None:
    info = getattr(metric, "info", None)
    if info is None:
        return None
    missing = _missing_input(info.needs, metric, case, outcome)
    if not missing:
        return None
    return MetricResult(name=_name(metric), value=None, reason=f"not measured: no {missing}",
                        threshold=getattr(metric, "threshold", None), weight=getattr(metric, "weight", 1.0),
                        label=getattr(metric, "label", None))


def _failed(metric: Any, exc: Exception) -> MetricResult:
    return MetricResult(name=_name(metric), value=None, error=f"{type(exc).__name__}: {exc}",
                        weight=getattr(metric, "weight", 1.0), label=getattr(metric, "label", None))


def _after(metric: Any, result: Any) -> MetricResult:
    if not isinstance(result, MetricResult):
        return _failed(metric, TypeError(f"evaluate() returned {type(result).__name__}, expected MetricResult"))
    info = getattr(metric, "info", None)
    if result.label is None:
        result.label = getattr(metric, "label", None)
    if result.value is not None and isinstance(result.value, float) and math.isnan(result.value):
        result.value, result.error = None, "metric produced NaN"
        result.passed = None
    if getattr(metric, "negate", False) and result.passed is not None:
        result.passed = not result.passed
        if info is not None and info.kind in ("score", "binary") and result.value is not None:
            result.value = 1.0 - result.value
        result.reason = f"NOT ({result.reason})" if result.reason else "negated"
    return result


def _missing_input(needs: tuple[str, ...], metric: Any, case: DatasetCase, outcome: Outcome) -> str | None:
    for need in needs:
        if need == "output" and outcome.output is None:
            return "output"
        if need == "expected_output" and getattr(metric, "value", None) is None and case.expected_output is None:
            return "expected_output (give the metric a value or the case an expected_output)"
        if need == "context" and not (outcome.context or case.context):
            return "context (set it on the case or return it in trusys.context)"
        if need == "query" and not (outcome.query or case.query):
            return "query"
        if need == "latency" and outcome.latency_ms is None:
            return "latency (recorded outputs carry no latency)"
        if need == "logprobs" and not outcome.logprobs:
            return "logprobs"
    return None


class CompositeMetric:
    """Combine metrics into one: the mean of the measured 0..1 scores, with each metric's result in detail.

    Only scores enter the mean: parts whose metric declares kind ``score`` or ``binary`` in the
    registry (or a ``kind`` attribute). Raw measures (latency in ms, token counts, cost) are on other
    scales, so they stay in the detail and the reason names them as left out, as does a part whose
    kind is not declared. Not-measured and errored parts are left out too, not counted as 0.

    Args:
        metrics: the metrics to combine.
        name: the composite's name.
        threshold: pass mark for the mean (no verdict when None).
    """

    kind = "score"  # a mean of 0..1 scores, so a composite can be part of another

    def __init__(self, metrics: list[Any], name: str = "composite", threshold: float | None = None):
        self.metrics = list(metrics)
        self.name = name
        self.display_name = name
        self.threshold = threshold
        self.weight = 1.0

    def evaluate(self, case: DatasetCase, trace: TraceLog, outcome: Outcome) -> MetricResult:
        parts = [(m, score(m, case, trace, outcome)) for m in self.metrics]
        values, raw, undeclared = [], [], []
        for metric, part in parts:
            if not part.measured:
                continue
            kind = metric_kind(metric)
            if kind in ("score", "binary"):
                values.append(part.value)
            elif kind is None:
                undeclared.append(part.name)
            else:
                raw.append(part.name)
        detail: dict[str, Any] = {"metrics": {p.name: p.to_dict() for _, p in parts}}
        left_out = []
        if raw:
            left_out.append(f"raw measures {', '.join(raw)}")
            detail["left_out_raw"] = raw
        if undeclared:
            left_out.append(f"{', '.join(undeclared)} (kind not declared; register it with kind=score)")
            detail["left_out_undeclared"] = undeclared
        note = f"; left out {'; '.join(left_out)}" if left_out else ""
        if not values:
            return MetricResult(self.name, None, detail, reason=f"not measured: no 0..1 score was measured{note}",
                                threshold=self.threshold)
        mean = sum(values) / len(values)
        passed = None if self.threshold is None else mean >= self.threshold
        return MetricResult(self.name, mean, detail, passed=passed, threshold=self.threshold,
                            reason=f"mean of {len(values)} of {len(parts)} metrics{note}")


def metric_kind(metric: Any) -> str | None:
    """``score``, ``binary`` or ``raw`` as the metric declares it (registry info, else a ``kind``
    attribute); None when it declares nothing."""
    info = getattr(metric, "info", None)
    kind = getattr(info, "kind", None) or getattr(metric, "kind", None)
    return kind if kind in ("score", "binary", "raw") else None
