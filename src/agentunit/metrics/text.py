"""Deterministic text-matching metrics: equals, contains, starts-with, regex.

Semantics follow promptfoo's assertion types of the same names (case-sensitive, no trimming).
"""

from __future__ import annotations

import json
import re
from typing import Any, ClassVar

from agentunit.errors import MetricConfigError
from agentunit.metrics.base import Metric, MetricResult
from agentunit.metrics.registry import register


def _as_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value) if isinstance(value, (dict, list)) else str(value)


def _preview(text: str, limit: int = 60) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "…")


@register("equals", family="text", value="required", kind="binary",
          example='{metric: equals, value: "15"}')
class Equals(Metric):
    """Pass when the output equals the expected value exactly.

    Strings compare character for character (no trimming, case-sensitive). An object or array value
    is compared deep-equal with the output parsed as JSON (key order does not matter). Without a
    value the case's ``expected_output`` is used.
    """

    def evaluate(self, case, trace, outcome) -> MetricResult:
        expected = self.expected(case)
        output = outcome.output
        if isinstance(expected, (dict, list)):
            try:
                parsed = json.loads(output)
            except ValueError:
                return self.result(0.0, passed=False, reason="output is not JSON; expected a JSON value")
            same = parsed == expected
            return self.result(float(same), passed=same,
                               reason="JSON equal" if same else "JSON differs from the expected value")
        expected = _as_text(expected)
        same = output == expected
        reason = "output equals the expected value" if same else \
            f"expected {_preview(expected)}, got {_preview(output)}"
        return self.result(float(same), passed=same, reason=reason)


@register("contains", family="text", value="required", kind="binary",
          example="{metric: contains, value: Paris}")
class Contains(Metric):
    """Pass when the expected value occurs in the output as a substring (case-sensitive)."""

    def evaluate(self, case, trace, outcome) -> MetricResult:
        needle = _as_text(self.expected(case))
        found = needle in outcome.output
        return self.result(float(found), passed=found,
                           reason=f"{_preview(needle)} {'found' if found else 'not found'} in output")


@register("starts-with", family="text", value="required", kind="binary",
          example='{metric: starts-with, value: "Answer:"}')
class StartsWith(Metric):
    """Pass when the output starts with the expected value (case-sensitive, no trimming)."""

    def evaluate(self, case, trace, outcome) -> MetricResult:
        prefix = _as_text(self.expected(case))
        ok = outcome.output.startswith(prefix)
        return self.result(float(ok), passed=ok,
                           reason=f"output {'starts' if ok else 'does not start'} with {_preview(prefix)}")


@register("regex", family="text", value="required", kind="binary",
          example=r'{metric: regex, value: "\\d{3}-\\d{4}"}')
class Regex(Metric):
    """Pass when the regular expression matches anywhere in the output (Python ``re.search``).

    ``config.flags`` takes letters ``i`` (ignore case), ``m`` (multiline), ``s`` (dot matches newline).
    The detail holds the matched text.
    """

    _FLAGS: ClassVar[dict[str, int]] = {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL}

    def setup(self) -> None:
        flags = 0
        for letter in str(self.config.get("flags", "")):
            if letter not in self._FLAGS:
                raise MetricConfigError(f"unknown regex flag {letter!r}; use i, m or s")
            flags |= self._FLAGS[letter]
        self._flags = flags
        self._pattern = self._compile(self.value) if self.value is not None else None

    def _compile(self, pattern: Any) -> re.Pattern[str]:
        try:
            return re.compile(str(pattern), self._flags)
        except re.error as exc:
            raise MetricConfigError(f"invalid regular expression {pattern!r}: {exc}") from exc

    def evaluate(self, case, trace, outcome) -> MetricResult:
        pattern = self._pattern or self._compile(case.expected_output)
        match = pattern.search(outcome.output)
        if match:
            return self.result(1.0, passed=True, reason=f"/{pattern.pattern}/ matched",
                               detail={"match": match.group(0)[:200], "span": list(match.span())})
        return self.result(0.0, passed=False, reason=f"/{pattern.pattern}/ did not match")
