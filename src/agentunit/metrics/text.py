"""Deterministic text-matching metrics: equality, substrings, prefixes, regexes, word counts, edit distance.

Semantics follow promptfoo's assertion types of the same names (case-sensitive unless the name
starts with ``i``; no trimming).
"""

from __future__ import annotations

import json
import re
from typing import Any, ClassVar

from agentunit.errors import AgentUnitError, MetricConfigError
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


# The characters JavaScript's ``\s`` and ``String.prototype.trim`` treat as white space.
_JS_SPACE = ("\t\n\v\f\r \u00a0\u1680" + "".join(map(chr, range(0x2000, 0x200B)))
             + "\u2028\u2029\u202f\u205f\u3000\ufeff")


def split_values(value: str) -> list[str]:
    """A string value split as promptfoo's ``parseCommaSeparatedValues`` (src/util/
    parseCommaSeparatedValues.ts) splits it: fields separated by commas, trimmed of white space;
    empty fields and repeated commas dropped; a quoted field keeps its commas and spaces, with ``""``
    and ``\\"`` for a quote and ``\\\\`` for a backslash (quotes inside an unquoted field are kept as
    written). Raises ValueError for an unterminated quote or text after a closing quote, as promptfoo
    does. White space is JavaScript's (``\\s``, ``trim``)."""
    results: list[str] = []
    i, n = 0, len(value)
    while i < n:
        while i < n and (value[i] in _JS_SPACE or value[i] == ","):
            i += 1
        if i >= n:
            break
        if value[i] != '"':
            end = value.find(",", i)
            end = n if end == -1 else end
            results.append(value[i:end].strip(_JS_SPACE))
            i = end
            continue
        i += 1
        chars: list[str] = []
        while True:
            if i >= n:
                raise ValueError("unterminated quoted field")
            if value[i] == "\\" and i + 1 < n and value[i + 1] in ('"', "\\"):
                chars.append(value[i + 1])
                i += 2
            elif value[i] == '"' and i + 1 < n and value[i + 1] == '"':
                chars.append('"')
                i += 2
            elif value[i] == '"':
                i += 1
                break
            else:
                chars.append(value[i])
                i += 1
        results.append("".join(chars))
        while i < n and value[i] in _JS_SPACE:
            i += 1
        if i < n and value[i] != ",":
            raise ValueError("expected a comma after a quoted field")
    return results


def _js_string(value: Any) -> str:
    """An item as JavaScript's ``String(v)`` writes the scalars YAML gives (``true``, ``null``, ``1``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    return _as_text(value)


def list_items(value: Any, what: str) -> list[str]:
    """The items of a -any/-all value: a list's items, or a string split as promptfoo splits it
    (``split_values``); a value with no items, or malformed quoting, is a config error."""
    if isinstance(value, str):
        try:
            items = split_values(value)
        except ValueError as exc:
            raise MetricConfigError(f"{what} {value!r} is not a valid comma-separated list: {exc}; quote items "
                                    'holding commas: a, "b, c", d (\\" or "" for a quote)') from None
        if not items:
            raise MetricConfigError(f"{what} needs at least one item")
        return items
    if isinstance(value, list):
        if not value:
            raise MetricConfigError(f"{what} needs at least one item")
        return [_js_string(v) for v in value]
    return as_list(value, what)


class _ListContains(Metric):
    """Shared algorithm of the -any/-all substring metrics (promptfoo's src/assertions/contains.ts)."""

    require_all: ClassVar[bool] = False
    ignore_case: ClassVar[bool] = False

    def setup(self) -> None:
        self._needles = list_items(self.value, f"{self.name} value") if self.value is not None else None

    def evaluate(self, case, trace, outcome) -> MetricResult:
        needles = self._needles if self._needles is not None else list_items(case.expected_output, "expected_output")
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

    The value is a list, or a string split as promptfoo splits it (for every -any/-all metric):
    commas separate items trimmed of white space, empty items are dropped (``,WORLD,,`` is one item),
    a quoted item keeps its commas (``a, "b, c"`` is two items; ``""`` or ``\\"`` inside for a quote);
    malformed quoting, or no item at all, is a suite error.
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


# Fixed repetitions are unrolled when the pattern is compiled: ``a{1000000000}`` would take gigabytes.
MAX_REPEAT_EXPANSION = 100_000
_QUANTIFIER = re.compile(r"\{(\d*)(?:,(\d*))?\}")
_ESCAPE_WITH_BRACES = "pPNxug"


def repeat_expansion(pattern: str) -> int:
    """How many atoms ``pattern`` unrolls to: each atom counts 1, a group the sum of its contents,
    and a quantifier ``{m,n}`` multiplies what it repeats by ``m`` (the copies the compiler makes;
    the optional ``n − m`` stay one loop). Alternatives add up, an upper bound."""
    frames = [[0, 0]]  # per open group: [total so far, weight of the last item]
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        frame = frames[-1]
        if c == "\\":
            i = _skip_escape(pattern, i)
            frame[0] += 1
            frame[1] = 1
            continue
        if c == "[":
            i = _skip_class(pattern, i)
            frame[0] += 1
            frame[1] = 1
            continue
        if c == "(" and pattern.startswith("(?#", i):
            end = pattern.find(")", i)
            i = n if end < 0 else end + 1
            continue
        if c == "(":
            frames.append([0, 0])
            i = _skip_group_prefix(pattern, i + 1)
            continue
        elif c == ")" and len(frames) > 1:
            weight = frames.pop()[0]
            frames[-1][0] += weight
            frames[-1][1] = weight
        elif c == "{" and (m := _QUANTIFIER.match(pattern, i)) and (m[1] or m[2]):
            low = int(m[1] or 0)
            frame[0] += frame[1] * (low - 1) if low else 0
            frame[1] *= max(low, 1)
            i = m.end()
            continue
        elif c not in "*+?|":
            frame[0] += 1
            frame[1] = 1
        i += 1
    return sum(f[0] for f in frames)


def _skip_group_prefix(pattern: str, i: int) -> int:
    """The index after a group's ``?…`` prefix starting at ``i`` (``?:``, ``?P<name>``, ``?<=``, ``?i:``)."""
    if not pattern.startswith("?", i):
        return i
    if pattern.startswith(("?P<", "?<"), i) and not pattern.startswith(("?<=", "?<!"), i):
        end = pattern.find(">", i)
        return len(pattern) if end < 0 else end + 1
    j = i + 1
    while j < len(pattern) and pattern[j] not in ":=!>)":
        j += 1  # inline flags such as ?i or ?-x, or the < of a lookbehind
    return j + 1 if j < len(pattern) and pattern[j] != ")" else j


def _skip_escape(pattern: str, i: int) -> int:
    r"""The index after the escape at ``i`` (``\p{L}``, ``\N{name}``, ``\x{41}``, ``\g<1>`` included)."""
    if i + 2 < len(pattern) and pattern[i + 1] in _ESCAPE_WITH_BRACES and pattern[i + 2] in "{<":
        end = pattern.find("}" if pattern[i + 2] == "{" else ">", i + 3)
        return len(pattern) if end < 0 else end + 1
    return i + 2


def _skip_class(pattern: str, i: int) -> int:
    """The index after the character class opening at ``i`` (escapes, a leading ``]``, ``[:alpha:]``)."""
    j = i + 1
    if j < len(pattern) and pattern[j] == "^":
        j += 1
    if j < len(pattern) and pattern[j] == "]":
        j += 1
    while j < len(pattern):
        if pattern[j] == "\\":
            j += 2
        elif pattern.startswith("[:", j) and (end := pattern.find(":]", j + 2)) >= 0:
            j = end + 2
        elif pattern[j] == "]":
            return j + 1
        else:
            j += 1
    return j


def compile_pattern(pattern: Any, flags: int = 0) -> Any:
    """Compile a user's regular expression with the ``regex`` engine, or raise MetricConfigError.

    Refused before compiling: patterns whose fixed repetitions unroll to more than
    ``MAX_REPEAT_EXPANSION`` atoms (``repeat_expansion``). Any compile failure — syntax, a repeat
    count too big, nesting too deep — is a MetricConfigError naming the pattern.
    """
    text = str(pattern)
    size = repeat_expansion(text)
    if size > MAX_REPEAT_EXPANSION:
        raise MetricConfigError(f"regular expression {_preview(text)} repeats too much: it unrolls to {size:,} "
                                f"atoms (limit {MAX_REPEAT_EXPANSION:,}); use a smaller count, or {{m,n}} with a "
                                f"small m")
    import regex  # here: ~10 ms of start-up that only a suite with a regular expression pays

    try:
        return regex.compile(text, flags)
    except (regex.error, OverflowError, ValueError, RecursionError, MemoryError) as exc:
        detail = "nested too deeply" if isinstance(exc, RecursionError) else str(exc) or type(exc).__name__
        raise MetricConfigError(f"invalid regular expression {_preview(text)}: {detail}") from exc


class RegexTimeout(AgentUnitError):
    """A regular expression ran past its time budget on an output (catastrophic backtracking)."""


@register("regex", family="text", value="required", kind="binary",
          example=r'{metric: regex, value: "\\d{3}-\\d{4}"}')
class Regex(Metric):
    r"""Pass when the regular expression matches anywhere in the output (a search, as ``re.search``).

    The engine is ``regex``: Python ``re`` syntax (plus ``\p{…}`` classes and variable-width
    lookbehind) with a time budget, because a backtracking pattern such as ``(a+)+$`` can take
    exponential time on a hostile output: past ``config.timeout`` seconds (default 1) the result is
    an error naming the pattern, never a hang. Patterns whose fixed repetitions unroll to more than
    100,000 atoms (``a{1000000000}``) and patterns that do not compile are suite errors.
    ``config.flags`` takes letters ``i`` (ignore case), ``m`` (multiline), ``s`` (dot matches newline).
    The detail holds the matched text.
    """

    # regex's flags, which have the values of re's
    _FLAGS: ClassVar[dict[str, int]] = {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL}

    def setup(self) -> None:
        flags = 0
        for letter in str(self.config.get("flags", "")):
            if letter not in self._FLAGS:
                raise MetricConfigError(f"unknown regex flag {letter!r}; use i, m or s")
            flags |= self._FLAGS[letter]
        self._flags = flags
        timeout = self.config.get("timeout", 1.0)
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 < timeout <= 3600:
            raise MetricConfigError(f"config.timeout must be a number of seconds in (0, 3600], got {timeout!r}")
        self._timeout = float(timeout)
        self._pattern = compile_pattern(self.value, flags) if self.value is not None else None

    def check_expected(self, expected: Any) -> None:
        compile_pattern(expected, self._flags)

    def evaluate(self, case, trace, outcome) -> MetricResult:
        pattern = self._pattern or compile_pattern(case.expected_output, self._flags)
        try:
            match = pattern.search(outcome.output, timeout=self._timeout)
        except TimeoutError:
            raise RegexTimeout(f"regex {_preview(pattern.pattern)} ran past its {self._timeout:g} s budget on a "
                               f"{len(outcome.output):,}-character output (catastrophic backtracking); make nested "
                               f"repetitions possessive (a++) or atomic ((?>…)), or raise config.timeout") from None
        if match:
            return self.result(1.0, passed=True, reason=f"/{pattern.pattern}/ matched",
                               detail={"match": match.group(0)[:200], "span": list(match.span())})
        return self.result(0.0, passed=False, reason=f"/{pattern.pattern}/ did not match")
