"""Deterministic text-matching metrics: equality, substrings, prefixes, regexes, word counts, edit distance.

Semantics follow promptfoo's assertion types of the same names (case-sensitive unless the name
starts with ``i``; no trimming).
"""

from __future__ import annotations

import json
import re
from typing import Any, ClassVar

from agentunit.errors import MetricConfigError
from agentunit.metrics._values import as_list, as_range, describe_range, in_range
from agentunit.metrics._values import as_text as _as_text
from agentunit.metrics.base import Metric, MetricResult
from agentunit.metrics.registry import register


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


@register("icontains", family="text", value="required", kind="binary",
          example="{metric: icontains, value: paris}")
class IContains(Metric):
    """Pass when the expected value occurs in the output, ignoring case (Unicode case-folding)."""

    def evaluate(self, case, trace, outcome) -> MetricResult:
        needle = _as_text(self.expected(case))
        found = needle.casefold() in outcome.output.casefold()
        return self.result(float(found), passed=found,
                           reason=f"{_preview(needle)} {'found' if found else 'not found'} (ignoring case)")


class _ListContains(Metric):
    """Shared algorithm of the -any/-all substring metrics."""

    require_all: ClassVar[bool] = False
    ignore_case: ClassVar[bool] = False

    def setup(self) -> None:
        self._needles = as_list(self.value, f"{self.name} value") if self.value is not None else None

    def evaluate(self, case, trace, outcome) -> MetricResult:
        needles = self._needles if self._needles is not None else as_list(case.expected_output, "expected_output")
        haystack = outcome.output.casefold() if self.ignore_case else outcome.output
        found = [n for n in needles if (n.casefold() if self.ignore_case else n) in haystack]
        missing = [n for n in needles if n not in found]
        ok = not missing if self.require_all else bool(found)
        if self.require_all:
            reason = "all found" if ok else f"missing {', '.join(map(_preview, missing))}"
        else:
            reason = f"found {_preview(found[0])}" if ok else f"none of {len(needles)} found"
        return self.result(float(ok), passed=ok, reason=reason, detail={"found": found, "missing": missing})


@register("contains-any", family="text", value="required", kind="binary",
          example='{metric: contains-any, value: [Paris, "the capital"]}')
class ContainsAny(_ListContains):
    """Pass when at least one of the values occurs in the output (case-sensitive).

    The value is a list, or a string split CSV-style: ``a, "b, c"`` is two items; malformed quoting
    is a suite error.
    """


@register("contains-all", family="text", value="required", kind="binary",
          example="{metric: contains-all, value: [Paris, France]}")
class ContainsAll(_ListContains):
    """Pass when every value occurs in the output (case-sensitive); the detail lists what is missing."""

    require_all = True


@register("icontains-any", family="text", value="required", kind="binary",
          example="{metric: icontains-any, value: \"paris, lyon\"}")
class IContainsAny(_ListContains):
    """Pass when at least one of the values occurs in the output, ignoring case."""

    ignore_case = True


@register("icontains-all", family="text", value="required", kind="binary",
          example="{metric: icontains-all, value: [paris, france]}")
class IContainsAll(_ListContains):
    """Pass when every value occurs in the output, ignoring case."""

    require_all = True
    ignore_case = True


@register("word-count", family="text", value="required", kind="binary",
          example="{metric: word-count, value: {min: 10, max: 50}}")
class WordCount(Metric):
    """Pass when the number of words is the value, or within ``{min, max}`` (inclusive).

    Words are the runs of non-whitespace characters (``str.split()``), as promptfoo counts them.
    """

    def setup(self) -> None:
        self._bounds = as_range(self.value, "word-count value") if self.value is not None else None

    def evaluate(self, case, trace, outcome) -> MetricResult:
        bounds = self._bounds or as_range(case.expected_output, "word-count expected_output")
        words = len(outcome.output.split())
        ok = in_range(words, bounds)
        return self.result(float(ok), passed=ok, detail={"words": words},
                           reason=f"{words} words (expected {describe_range(bounds)})")


@register("levenshtein", family="text", value="required", threshold=5, direction="lower", kind="raw",
          example="{metric: levenshtein, value: \"hello world\", threshold: 3}")
class Levenshtein(Metric):
    """Levenshtein edit distance between the output and the value; passes when ≤ threshold (default 5).

    Insertions, deletions and substitutions of single characters each cost 1 (RapidFuzz).
    """

    def evaluate(self, case, trace, outcome) -> MetricResult:
        from rapidfuzz.distance import Levenshtein as _lev

        expected = _as_text(self.expected(case))
        distance = float(_lev.distance(outcome.output, expected))
        return self.result(distance, reason=f"edit distance {distance:g} (max {self.threshold:g})")


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
