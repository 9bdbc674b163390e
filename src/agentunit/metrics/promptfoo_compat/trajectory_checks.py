"""promptfoo's deterministic trajectory assertions: trajectory:tool-used, trajectory:tool-sequence,
trajectory:tool-args-match (with JavaScript's strict deep equality) and trajectory:step-count."""

from __future__ import annotations

import json
from typing import Any

from agentunit.errors import MetricConfigError
from agentunit.metrics.base import MetricResult
from agentunit.metrics.promptfoo_compat.trajectory import (
    Matcher,
    TrajectoryMetric,
    _actual,
    _bound,
    glob_match,
    matcher_of,
)
from agentunit.metrics.registry import register


@register("trajectory:tool-used", family="agentic", value="required", needs=(), kind="binary",
          example="{metric: \"trajectory:tool-used\", value: [search_orders, send_email]}")
class TrajectoryToolUsed(TrajectoryMetric):
    """Were these tools called? (promptfoo's ``trajectory:tool-used``.)

    Value: a tool name, a list of names (each must be called at least once), or ``{name|pattern,
    min, max}`` (called between min — default 1 — and max times). Names are globs (``*``, ``?``,
    case ignored). ``not-`` with a list passes when none of the tools was called. Steps are the run's
    tool calls (``trusys.tool_calls``/``events``, an adapter's trace, else tool calls in the output).
    Score 1 or 0.
    """

    def parse(self, value: Any) -> tuple[str, Any]:
        if isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            names = [value] if isinstance(value, str) else value
            if not names:
                raise MetricConfigError("trajectory:tool-used needs at least one expected tool")
            return "list", [matcher_of(n, "trajectory:tool-used value", "tool") for n in names]
        if isinstance(value, dict):
            matcher = matcher_of(value, "trajectory:tool-used value", "tool", named=True)
            return "count", (matcher, _bound(value, "min", "trajectory:tool-used"),
                             _bound(value, "max", "trajectory:tool-used"))
        raise MetricConfigError("trajectory:tool-used value must be a tool name, a list of names or "
                                f"{{name, min, max}}, got {value!r}")

    def evaluate(self, case, trace, outcome) -> MetricResult:
        kind, spec = self.parse(self.value)
        steps, source = self.steps(trace, outcome)
        tools = [s for s in steps if s.type == "tool"]
        detail = {"tools": [s.name for s in tools], "source": source}
        if kind == "list":
            matched = [m.label for m in spec if any(m.matches(s) for s in tools)]
            missing = [m.label for m in spec if m.label not in matched]
            # promptfoo: not-trajectory:tool-used passes when none of the listed tools was used
            ok = bool(matched) if self.negate else not missing
            reason = (f"used {', '.join(matched) or 'none'} of {', '.join(m.label for m in spec)}" if self.negate
                      else f"missing {', '.join(missing)}" if missing else f"used {', '.join(matched)}")
            return self.result(float(ok), passed=ok, reason=f"{reason}; actual tools: {_actual(tools)}",
                               detail={**detail, "matched": matched, "missing": missing})
        matcher, low, high = spec
        low = 1 if low is None else low
        count = sum(1 for s in tools if matcher.matches(s))
        ok = count >= low and (high is None or count <= high)
        expected = f"{low}-{high}" if high is not None else f"at least {low}"
        return self.result(float(ok), passed=ok, detail={**detail, "count": count},
                           reason=f"tool {matcher.label!r} called {count} time(s) (expected {expected})")


@register("trajectory:tool-sequence", family="agentic", value="required", needs=(), kind="binary",
          example="{metric: \"trajectory:tool-sequence\", value: {mode: exact, steps: [search, fetch]}}")
class TrajectoryToolSequence(TrajectoryMetric):
    """Were the tools called in this order? (promptfoo's ``trajectory:tool-sequence``.)

    Value: a list of steps (names/globs or ``{name|pattern}``), or ``{mode, steps}``. ``in_order``
    (default): the steps appear in the tool calls in that order, other calls allowed between them
    (greedy subsequence match); ``exact``: the tool calls are exactly these steps. Score 1 or 0.
    """

    def parse(self, value: Any) -> tuple[str, list[Matcher]]:
        if isinstance(value, list):
            mode, raw = "in_order", value
        elif isinstance(value, dict):
            mode, raw = value.get("mode") or "in_order", value.get("steps") or []
        else:
            raise MetricConfigError(f"trajectory:tool-sequence value must be a list or {{mode, steps}}, got {value!r}")
        if mode not in ("in_order", "exact"):
            raise MetricConfigError(f"trajectory:tool-sequence mode must be in_order or exact, got {mode!r}")
        if not isinstance(raw, list) or not raw:
            raise MetricConfigError("trajectory:tool-sequence needs at least one expected step")
        return mode, [matcher_of(s, f"trajectory:tool-sequence step {i + 1}", "tool", named=True)
                      for i, s in enumerate(raw)]

    def evaluate(self, case, trace, outcome) -> MetricResult:
        mode, matchers = self.parse(self.value)
        steps, source = self.steps(trace, outcome)
        tools = [s for s in steps if s.type == "tool"]
        expected = ", ".join(m.label for m in matchers)
        if mode == "exact":
            ok = len(tools) == len(matchers) and all(m.matches(s) for m, s in zip(matchers, tools, strict=False))
            reason = f"expected exactly {expected}; actual tools: {_actual(tools)}"
        else:
            index = 0
            for step in tools:
                if index < len(matchers) and matchers[index].matches(step):
                    index += 1
            ok = index == len(matchers)
            reason = (f"{expected} in order; actual tools: {_actual(tools)}" if ok else
                      f"{matchers[index].label!r} not called in order after {index} step(s); "
                      f"actual tools: {_actual(tools)}")
        return self.result(float(ok), passed=ok, reason=reason,
                           detail={"mode": mode, "tools": [s.name for s in tools], "source": source})


def strict_equal(left: Any, right: Any) -> bool:
    """Deep equality as JavaScript's isDeepStrictEqual: a boolean never equals a number."""
    if isinstance(left, bool) or isinstance(right, bool):
        return type(left) is type(right) and left == right
    if isinstance(left, dict) and isinstance(right, dict):
        return left.keys() == right.keys() and all(strict_equal(left[k], right[k]) for k in left)
    if isinstance(left, list) and isinstance(right, list):
        return len(left) == len(right) and all(strict_equal(a, b) for a, b in zip(left, right, strict=True))
    if isinstance(left, (dict, list)) or isinstance(right, (dict, list)):
        return False
    return left == right


def partial_match(actual: Any, expected: Any) -> bool:
    """promptfoo's partial argument match: every expected key present with a matching value
    (recursively); lists match item by item and must have the same length; scalars strictly equal."""
    if isinstance(expected, list):
        return isinstance(actual, list) and len(actual) == len(expected) and \
            all(partial_match(a, e) for a, e in zip(actual, expected, strict=True))
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and partial_match(actual[k], v)
                                                for k, v in expected.items())
    return strict_equal(actual, expected)


@register("trajectory:tool-args-match", family="agentic", value="required", needs=(), kind="binary",
          example="{metric: \"trajectory:tool-args-match\", value: {name: update_seat, args: {seat: 14C}}}")
class TrajectoryToolArgsMatch(TrajectoryMetric):
    """Was a tool called with these arguments? (promptfoo's ``trajectory:tool-args-match``.)

    Value: ``{name|pattern, args (or arguments), mode, ignore, defaults}``. Passes when at least one
    call of the tool has matching arguments: ``partial`` (default) — every given key present with an
    equal value, recursively (lists item by item, same length); ``exact`` — deep equality. ``ignore``
    (names or globs) drops keys from both sides; ``defaults`` drops observed keys equal to their
    default. A boolean never equals a number. Calls that recorded no arguments are skipped.
    Score 1 or 0.
    """

    def parse(self, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise MetricConfigError(f"trajectory:tool-args-match value must be an object, got {value!r}")
        matcher = matcher_of(value, "trajectory:tool-args-match value", "tool", named=True)
        if "args" not in value and "arguments" not in value:
            raise MetricConfigError("trajectory:tool-args-match needs `args` (or `arguments`)")
        mode = value.get("mode") or "partial"
        if mode not in ("partial", "exact"):
            raise MetricConfigError(f"trajectory:tool-args-match mode must be partial or exact, got {mode!r}")
        defaults = value.get("defaults")
        if defaults is not None and not isinstance(defaults, dict):
            raise MetricConfigError("trajectory:tool-args-match defaults must map argument names to values")
        ignore = value.get("ignore", [])
        ignore = [ignore] if isinstance(ignore, str) else ignore
        if not isinstance(ignore, list) or not all(isinstance(i, str) and i.strip() for i in ignore):
            raise MetricConfigError("trajectory:tool-args-match ignore must be a name or a list of names")
        expected = value["args"] if "args" in value else value["arguments"]
        return {"matcher": matcher, "args": expected, "mode": mode, "defaults": defaults or {}, "ignore": ignore}

    def evaluate(self, case, trace, outcome) -> MetricResult:
        spec = self.parse(self.value)
        matcher: Matcher = spec["matcher"]
        steps, source = self.steps(trace, outcome)
        tools = [s for s in steps if s.type == "tool"]
        calls = [s for s in tools if matcher.matches(s)]
        with_args = [s for s in calls if s.has_args]
        expected = _without(spec["args"], spec["ignore"])
        hit = None
        for step in with_args:
            actual = _without(step.args, spec["ignore"])
            if isinstance(actual, dict):
                actual = {k: v for k, v in actual.items()
                          if not (k in spec["defaults"] and strict_equal(v, spec["defaults"][k]))}
            if strict_equal(actual, expected) if spec["mode"] == "exact" else partial_match(actual, expected):
                hit = step
                break
        detail = {"mode": spec["mode"], "observed": [s.args for s in with_args], "source": source}
        if hit is not None:
            return self.result(1.0, passed=True, detail=detail, reason=f"{matcher.label!r} called with matching "
                               f"arguments ({spec['mode']}): {json.dumps(hit.args, default=str)}")
        if not calls:
            reason = f"no call matched {matcher.label!r}; actual tools: {_actual(tools)}"
        elif not with_args:
            reason = f"{matcher.label!r} was called but no arguments were recorded"
        else:
            reason = (f"no call of {matcher.label!r} matched {json.dumps(spec['args'], default=str)} "
                      f"({spec['mode']}); observed {', '.join(json.dumps(s.args, default=str) for s in with_args)}")
        return self.result(0.0, passed=False, reason=reason, detail=detail)


def _without(value: Any, ignore: list[str]) -> Any:
    if not ignore or not isinstance(value, dict):
        return value
    return {k: v for k, v in value.items()
            if not any(k == entry or (("*" in entry or "?" in entry) and glob_match(k, entry)) for entry in ignore)}


@register("trajectory:step-count", family="agentic", value="required", needs=(), kind="binary",
          example="{metric: \"trajectory:step-count\", value: {type: tool, max: 5}}")
class TrajectoryStepCount(TrajectoryMetric):
    """Is the number of steps in range? (promptfoo's ``trajectory:step-count``.)

    Value: ``{min, max, type, name|pattern}`` (min or max required). Counts the steps — tool calls
    (``tool``; shell tools such as ``exec_command``/``shell`` are ``command``), agent calls
    (``agent``; promptfoo's ``span`` is read as it) and ``trusys.events`` messages (``message``) —
    of the given types and names, and passes when min ≤ count ≤ max. Score 1 or 0.
    """

    def parse(self, value: Any) -> tuple[Matcher, int | None, int | None]:
        if not isinstance(value, dict):
            raise MetricConfigError(f"trajectory:step-count value must be an object like {{max: 5}}, got {value!r}")
        low, high = _bound(value, "min", "trajectory:step-count"), _bound(value, "max", "trajectory:step-count")
        if low is None and high is None:
            raise MetricConfigError("trajectory:step-count needs `min` or `max`")
        return matcher_of(value, "trajectory:step-count value"), low, high

    def evaluate(self, case, trace, outcome) -> MetricResult:
        matcher, low, high = self.parse(self.value)
        steps, source = self.steps(trace, outcome)
        count = sum(1 for s in steps if matcher.matches(s))
        ok = (low is None or count >= low) and (high is None or count <= high)
        expected = f"{low}-{high}" if low is not None and high is not None else \
            f"at least {low}" if low is not None else f"at most {high}"
        what = "/".join(matcher.types) or "all"
        return self.result(float(ok), passed=ok, reason=f"{count} {what} step(s) (expected {expected})",
                           detail={"count": count, "steps": [s.label() for s in steps], "source": source})
