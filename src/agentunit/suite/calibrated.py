"""Applying a calibration file to a suite's metrics: fitted thresholds for judge-backed entries.

A judge-backed metric entry that gave no ``threshold:`` gets the threshold fitted for its key (its
label, else its name) — only when the file was fitted with the run's judge (same provider and
model). The metric is copied with that threshold (the suite's other cases and runs keep the
original) and wrapped so that each of its results says where the threshold came from:
``detail.threshold_source`` is the calibration file as the suite or the command line named it.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from agentunit.calibration.fit import Calibration, describe_judge, same_judge
from agentunit.calibration.keys import is_judge_backed, metric_key
from agentunit.metrics.base import MetricResult
from agentunit.suite.cases import threshold_defaulted
from agentunit.suite.problems import Problems


class CalibratedMetric:
    """A metric with a fitted threshold; everything else is the wrapped metric's."""

    def __init__(self, metric: Any, threshold: float, source: str):
        inner = copy.copy(metric)
        inner.threshold = threshold
        self._inner = inner
        self.threshold_source = source

    def __getattr__(self, name: str) -> Any:
        if name == "_inner":  # not set yet (copying an instance): no recursion
            raise AttributeError(name)
        return getattr(self._inner, name)

    def __repr__(self) -> str:
        return f"CalibratedMetric({self._inner!r}, source={self.threshold_source!r})"

    def evaluate(self, case: Any, trace: Any, outcome: Any) -> MetricResult:
        return self._mark(self._inner.evaluate(case, trace, outcome))

    async def evaluate_async(self, case: Any, trace: Any, outcome: Any) -> MetricResult:
        evaluate_async = getattr(self._inner, "evaluate_async", None)
        if evaluate_async is None:
            return self.evaluate(case, trace, outcome)
        return self._mark(await evaluate_async(case, trace, outcome))

    def _mark(self, result: Any) -> Any:
        if isinstance(result, MetricResult):
            result.detail = {**result.detail, "threshold_source": self.threshold_source}
        return result


class Calibrator:
    """Applies one calibration to metric lists, copying each calibrated metric once."""

    def __init__(self, calibration: Calibration, source: str, judge: dict[str, Any] | None):
        self.calibration = calibration
        self.source = source
        self.applies = judge is not None and same_judge(calibration.judge, judge)
        self.judge = judge
        self._copies: dict[int, tuple[Any, Any]] = {}  # id(original) → (original, calibrated); keeps ids unique

    def not_applied_reason(self) -> str | None:
        """Why the file does not apply to this run (None when it does)."""
        if self.applies:
            return None
        running = describe_judge(self.judge) if self.judge is not None else "a judge that could not be described"
        fitted = describe_judge(self.calibration.judge)
        return (f"calibration {self.source} was not applied: it was fitted with {fitted}, this run uses {running}; "
                "the metrics keep their own thresholds")

    def apply(self, metrics: list[Any]) -> list[Any]:
        """``metrics`` with each calibrated one replaced by its copy with the fitted threshold."""
        if not self.applies:
            return metrics
        return [self._calibrated(m) for m in metrics]

    def _calibrated(self, metric: Any) -> Any:
        if not is_judge_backed(metric) or not threshold_defaulted(metric):
            return metric
        fitted = self.calibration.metrics.get(metric_key(metric))
        if fitted is None:
            return metric
        known = self._copies.get(id(metric))
        if known is None:
            known = self._copies[id(metric)] = (metric, CalibratedMetric(metric, fitted.threshold, self.source))
        return known[1]


def use_calibration_file(suite: Any, file: Path, source: str, key: tuple[str, ...] | None, problems: Problems) -> None:
    """Read a calibration file for ``suite`` (``Suite.use_calibration``); a file that cannot be used is a problem
    at the suite's ``calibration:`` (``key``), or at the file itself when the command line named it."""
    from agentunit.calibration.fit import CalibrationFileError, read_calibration

    try:
        suite.use_calibration(read_calibration(file), source)
    except CalibrationFileError as exc:
        hint = "write it with `agentunit calibrate SUITE --write FILE`"
        if key is not None:
            problems.error(f"{exc} ({source[:200]!r}, line {exc.line or 1})", key, suggestion=hint)
        else:
            problems.error(str(exc), exc.key_path, file=str(file), line=exc.line or 1, suggestion=hint)
    except (OSError, ValueError) as exc:  # a path the file system refuses (NUL byte, too long)
        problems.error(f"calibration file {source[:200]!r} cannot be used: {exc}", key or ())
