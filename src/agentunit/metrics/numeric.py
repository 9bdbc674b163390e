"""Numeric comparisons on a number read from the output: equals-number, greater-than, less-than."""

from __future__ import annotations

import math
import re
from typing import Any

from agentunit.errors import MetricConfigError
from agentunit.metrics.base import Metric, MetricResult
from agentunit.metrics.registry import register

_NUMBER = re.compile(r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:[eE][-+]?\d+)?")
_FIND = re.compile(r"(?<![\w.])[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w])"
                   r"|(?<![\w.])[-+]?\.\d+(?![\w])")
_MAX_WORDS_AROUND_A_NUMBER = 12


def parse_number(text: str) -> float | None:
    """Read a number from text.

    Algorithm: trim; if the whole text is a number (``1,000``, ``-3.5``, ``1e3``, ``$42``, ``42%``
    after stripping the currency sign or percent) return it. Else, in short text (≤ 12 words) holding
    exactly one number, return that number. Otherwise None — the answer is ambiguous or not numeric.
    """
    stripped = text.strip().rstrip(".").strip()
    core = stripped.lstrip("$€£").rstrip("%").strip()
    if core and _NUMBER.fullmatch(core):
        return _to_float(core)
    if len(stripped.split()) <= _MAX_WORDS_AROUND_A_NUMBER:
        found = _FIND.findall(stripped)
        if len(found) == 1:
            return _to_float(found[0])
    return None


def _to_float(token: str) -> float | None:
    try:
        value = float(token.replace(",", ""))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


class _NumericComparison(Metric):
    def setup(self) -> None:
        if self.value is not None:
            self._expected = self._number(self.value)
        tolerance = self.config.get("tolerance", 0)
        if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not tolerance >= 0 \
                or not math.isfinite(tolerance):
            raise MetricConfigError(f"config.tolerance must be a non-negative number, got {tolerance!r}")
        self._tolerance = float(tolerance)

    @staticmethod
    def _number(value: Any) -> float:
        if isinstance(value, bool):
            raise MetricConfigError(f"expected a number, got {value!r}")
        if isinstance(value, (int, float)):
            try:
                number = float(value)
            except OverflowError:  # an integer too large for a float
                raise MetricConfigError(f"expected a number a float can hold, got {str(value)[:40]}…") from None
            if not math.isfinite(number):
                raise MetricConfigError(f"expected a finite number, got {value!r}")
            return number
        parsed = parse_number(str(value))
        if parsed is None:
            raise MetricConfigError(f"expected a number, got {value!r}")
        return parsed

    def compare(self, actual: float, expected: float) -> bool:
        raise NotImplementedError

    def evaluate(self, case, trace, outcome) -> MetricResult:
        expected = self._expected if self.value is not None else self._number(case.expected_output)
        actual = parse_number(outcome.output)
        if actual is None:
            return self.result(0.0, passed=False, reason=f"no single number in output {outcome.output[:60]!r}")
        ok = self.compare(actual, expected)
        return self.result(float(ok), passed=ok, detail={"parsed": actual, "expected": expected},
                           reason=f"{actual:g} {self.symbol} {expected:g} is {str(ok).lower()}")


@register("equals-number", family="numeric", value="required", kind="binary",
          example="{metric: equals-number, value: 42, config: {tolerance: 0.5}}")
class EqualsNumber(_NumericComparison):
    """Pass when the number read from the output equals the value (± ``config.tolerance``)."""

    symbol = "=="

    def compare(self, actual: float, expected: float) -> bool:
        return abs(actual - expected) <= self._tolerance


@register("greater-than", family="numeric", value="required", kind="binary",
          example="{metric: greater-than, value: 10}")
class GreaterThan(_NumericComparison):
    """Pass when the number read from the output is strictly greater than the value."""

    symbol = ">"

    def compare(self, actual: float, expected: float) -> bool:
        return actual > expected


@register("less-than", family="numeric", value="required", kind="binary",
          example="{metric: less-than, value: 100}")
class LessThan(_NumericComparison):
    """Pass when the number read from the output is strictly less than the value."""

    symbol = "<"

    def compare(self, actual: float, expected: float) -> bool:
        return actual < expected
