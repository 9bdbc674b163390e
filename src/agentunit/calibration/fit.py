"""The calibration file: fitted thresholds per judge metric, for the judge they were fitted with.

Format (JSON)::

    {"version": 1,
     "judge": {"provider": "local", "model": "qwen2.5-coder-1.5b-instruct-q4_k_m"},
     "metrics": {"llm-rubric": {"threshold": 0.62, "n": 40, "positives": 20, "negatives": 20,
                                "balanced_accuracy": 0.9, "cross_validated_balanced_accuracy": 0.85,
                                "ece": 0.12, "fitted_at": "2026-12-01T10:00:00+00:00"}}}

``threshold`` is what the metric entry's ``threshold:`` would be. A file applies to a run only when
its judge is the run's judge: same provider and same model.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agentunit.errors import AgentUnitError

if TYPE_CHECKING:
    from agentunit.calibration.agreement import MetricAgreement

VERSION = 1
_MAX_BYTES = 16 * 1024 * 1024


class CalibrationFileError(AgentUnitError):
    """A calibration file that cannot be used; ``line`` is 1-based when known, ``key_path`` the field."""

    def __init__(self, message: str, *, line: int | None = None, key_path: tuple[str, ...] = ()):
        super().__init__(message)
        self.line = line
        self.key_path = key_path


@dataclass(frozen=True, slots=True)
class FittedThreshold:
    """One metric's fitted pass mark and the figures it was fitted with (None when not recorded)."""

    threshold: float
    n: int | None = None
    balanced_accuracy: float | None = None
    ece: float | None = None
    fitted_at: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"threshold": self.threshold, "n": self.n, "balanced_accuracy": self.balanced_accuracy,
                "ece": self.ece, "fitted_at": self.fitted_at, **self.extra}


@dataclass(frozen=True, slots=True)
class Calibration:
    """A read calibration file: the judge it was fitted with and the thresholds by metric key."""

    judge: dict[str, Any]
    metrics: dict[str, FittedThreshold]

    def to_dict(self) -> dict[str, Any]:
        return {"version": VERSION, "judge": self.judge,
                "metrics": {name: fitted.to_dict() for name, fitted in sorted(self.metrics.items())}}


def same_judge(fitted_with: dict[str, Any], running: dict[str, Any]) -> bool:
    """Whether a calibration fitted with one judge applies to another: same provider, same model."""
    return fitted_with.get("provider") == running.get("provider") and fitted_with.get("model") == running.get("model")


def describe_judge(judge: dict[str, Any]) -> str:
    """``local qwen2.5-…`` for messages."""
    return " ".join(str(judge[k]) for k in ("provider", "model") if judge.get(k)) or "unknown judge"


def read_calibration(path: str | Path) -> Calibration:
    """Read and check a calibration file; raises CalibrationFileError naming the field and line."""
    path = Path(path)
    try:
        if path.stat().st_size > _MAX_BYTES:
            raise CalibrationFileError(f"calibration file is over {_MAX_BYTES // (1024 * 1024)} MiB", line=1)
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CalibrationFileError("calibration file not found", line=1) from None
    except UnicodeDecodeError as exc:
        raise CalibrationFileError(f"calibration file is not UTF-8 text: {exc.reason}", line=1) from None
    except OSError as exc:
        raise CalibrationFileError(f"cannot read the calibration file: {exc.strerror or exc}", line=1) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CalibrationFileError(f"calibration file is not valid JSON: {exc.msg}", line=exc.lineno) from None
    except (ValueError, RecursionError) as exc:
        raise CalibrationFileError(f"calibration file is not valid JSON: {exc}", line=1) from None
    return calibration_from_dict(data, text)


def calibration_from_dict(data: Any, text: str | None = None) -> Calibration:
    """Check decoded calibration data (``text``, when given, locates problems by line)."""

    def fail(message: str, key_path: tuple[str, ...], key: str | None = None) -> CalibrationFileError:
        return CalibrationFileError(message, key_path=key_path, line=_line_of(text, key) if text else None)

    if not isinstance(data, dict):
        raise fail("a calibration file must be a JSON object with version, judge and metrics", ())
    if data.get("version") != VERSION:
        raise fail(f"calibration file version must be {VERSION}, got {data.get('version')!r}", ("version",),
                   "version")
    judge = data.get("judge")
    if not isinstance(judge, dict) or not isinstance(judge.get("provider"), str):
        raise fail("judge must be an object with the provider (and model) it was fitted with", ("judge",), "judge")
    metrics = data.get("metrics")
    if not isinstance(metrics, dict):
        raise fail("metrics must be an object: {metric name: {threshold, ...}}", ("metrics",), "metrics")
    fitted: dict[str, FittedThreshold] = {}
    for name, entry in metrics.items():
        if not isinstance(entry, dict):
            raise fail(f"metric {name!r} must be an object with a threshold", ("metrics", name), name)
        threshold = entry.get("threshold")
        if not _finite(threshold) or not 0 <= threshold <= 1:
            raise fail(f"threshold of {name!r} must be a number from 0 to 1, got {threshold!r}",
                       ("metrics", name, "threshold"), name)
        n = entry.get("n")
        known = {"threshold", "n", "balanced_accuracy", "ece", "fitted_at"}
        fitted[name] = FittedThreshold(
            float(threshold), n if isinstance(n, int) and not isinstance(n, bool) else None,
            _number_or_none(entry.get("balanced_accuracy")), _number_or_none(entry.get("ece")),
            entry.get("fitted_at") if isinstance(entry.get("fitted_at"), str) else None,
            {k: v for k, v in entry.items() if k not in known})
    return Calibration(dict(judge), fitted)


def write_calibration(path: str | Path, calibration: Calibration) -> None:
    """Write ``calibration`` as JSON (sorted metric names, a trailing newline)."""
    Path(path).write_text(json.dumps(calibration.to_dict(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def fitted_thresholds(agreements: Iterable[MetricAgreement], fitted_at: str | None = None
                      ) -> dict[str, FittedThreshold]:
    """The fitted threshold of each metric that has one (both classes measured, one kind of metric):
    the best threshold on the labels (agreement.py), with the figures it was fitted with."""
    fitted_at = fitted_at or now_iso()
    out = {}
    for item in agreements:
        if not item.fittable or item.best is None:
            continue
        extra: dict[str, Any] = {"positives": item.positives, "negatives": item.negatives}
        if item.cross_validated is not None:
            extra["cross_validated_balanced_accuracy"] = item.cross_validated[0]
        out[item.metric] = FittedThreshold(item.best_metric_threshold, item.n, item.best.balanced_accuracy,
                                           item.ece, fitted_at, extra)
    return out


def merged(existing: Calibration | None, judge: dict[str, Any], fitted: dict[str, FittedThreshold]
           ) -> tuple[Calibration, list[str]]:
    """The calibration to write: ``fitted`` over an existing file's metrics when that file was fitted
    with the same judge (returns the names kept from it), else ``fitted`` alone."""
    if existing is None or not same_judge(existing.judge, judge):
        return Calibration(dict(judge), dict(fitted)), []
    kept = sorted(set(existing.metrics) - set(fitted))
    return Calibration(dict(judge), {**existing.metrics, **fitted}), kept


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _finite(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _number_or_none(value: Any) -> float | None:
    return float(value) if _finite(value) else None


def _line_of(text: str, key: str | None) -> int:
    """The line of the first ``"key"`` in the text (1 when absent): good enough to point at a field."""
    if key is None:
        return 1
    index = text.find(json.dumps(key, ensure_ascii=False))
    return text.count("\n", 0, index) + 1 if index >= 0 else 1
