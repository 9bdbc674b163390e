"""Which tools the agent called, and how well: tool-success (the calls succeeded), tool-correctness
(the expected tools were called, with the expected arguments) and execution-efficiency (no call wasted)."""

from __future__ import annotations

import json
from typing import Any

from agentunit.core.envelope import tool_call_failed, tool_call_failure, tool_calls_of
from agentunit.errors import MetricConfigError
from agentunit.metrics.agentic.calls import _step_mentions
from agentunit.metrics.base import Metric, MetricResult
from agentunit.metrics.registry import register


@register("tool_success", family="agentic", aliases=("tool-success-metric",), needs=(), threshold=1.0,
          example="{metric: tool_success, threshold: 0.9}")
class ToolSuccessMetric(Metric):
    """Share of tool calls that succeeded: successful ``tool_call`` events / all ``tool_call`` events.

    A call that reports its status failed when it has a truthy ``error``, ``success: false``, or a
    ``status`` of error/failed/failure/fail/exception/timeout (or an HTTP code ≥ 400). A call that
    reports none of them is classified from its ``output``: it failed when the output is
    error-shaped — an object with a truthy ``error``/``errors``/``exception``, ``isError: true`` or
    ``success``/``ok`` false, or text opening like an error report (a traceback, ``Error:`` or
    ``Error 409:``, ``[ERROR]``, ``ValueError:``). The detail lists the calls classified from their output. Default
    threshold 1.0 (every call succeeded). No tool calls → not measured.
    """

    def evaluate(self, case, trace, outcome) -> MetricResult:
        calls = trace.of_type("tool_call")
        if not calls:
            return self.not_measured("no tool calls in the trace")
        failed, from_output = [], []
        for index, event in enumerate(calls):
            did_fail, basis = tool_call_failure(event.payload)
            if did_fail:
                failed.append(event.payload.get("name"))
            if basis == "output":
                from_output.append({"call": index, "name": event.payload.get("name"), "failed": did_fail})
        ok = len(calls) - len(failed)
        reason = f"{ok}/{len(calls)} tool calls succeeded"
        if from_output:
            errors = sum(1 for c in from_output if c["failed"])
            reason += (f"; {len(from_output)} without a status classified from their output"
                       + (f" ({errors} error-shaped)" if errors else ""))
        return self.result(ok / len(calls), reason=reason,
                           detail={"calls": len(calls), "failed": failed, "classified_from_output": from_output})


def _expected_tools(metric: Metric, case) -> list[dict[str, Any]] | None:
    """The expected tools; None when none were given, [] when "no tool should be called" was."""
    raw = metric.value if metric.value is not None else case.expected_tools if case is not None else None
    if isinstance(raw, str):  # a comma-separated list; a blank string gives nothing, like an absent value
        raw = [t.strip() for t in raw.split(",") if t.strip()] or None
    if raw is None:
        return None
    if not isinstance(raw, list):
        raise MetricConfigError(f"expected tools must be a list of names or {{name, arguments}}, got {raw!r}")
    items = []
    for item in raw:
        if isinstance(item, str):
            items.append({"name": item})
        elif isinstance(item, dict) and isinstance(item.get("name"), str):
            items.append({"name": item["name"], **({"arguments": item["arguments"]} if "arguments" in item else {})})
        else:
            raise MetricConfigError(f"expected tool {item!r}: use a name or {{name, arguments}}")
    return items


def _called_tools(trace, outcome) -> list[dict[str, Any]]:
    calls = tool_calls_of(trace, outcome)
    return [{"name": c.get("name"), "arguments": c.get("arguments") if isinstance(c.get("arguments"), dict) else {}}
            for c in calls]


def _credit(expected: dict[str, Any], called: dict[str, Any]) -> float:
    """1 for the right tool with the expected arguments (every given key equal), 0.5 for the right
    tool with other arguments, 0 for another tool."""
    if expected["name"] != called["name"]:
        return 0.0
    wanted = expected.get("arguments")
    if wanted is None:
        return 1.0
    return 1.0 if all(called["arguments"].get(k) == v for k, v in wanted.items()) else 0.5


def _best_any_order(expected: list[dict[str, Any]], called: list[dict[str, Any]]) -> list[tuple[int, int, float]]:
    """Greedy one-to-one matching, full-credit pairs first (each call serves one expected tool)."""
    pairs = sorted(((_credit(e, c), i, j) for i, e in enumerate(expected) for j, c in enumerate(called)),
                   key=lambda p: (-p[0], p[1], p[2]))
    used_e: set[int] = set()
    used_c: set[int] = set()
    matches = []
    for credit, i, j in pairs:
        if credit > 0 and i not in used_e and j not in used_c:
            used_e.add(i)
            used_c.add(j)
            matches.append((i, j, credit))
    return matches


def weighted_lcs(left: list[Any], right: list[Any], weight: Any) -> list[tuple[int, int, float]]:
    """Order-preserving matching of ``left`` to ``right`` items with the most total ``weight(a, b)``
    (a weighted longest common subsequence; weight 0 means "cannot match"): [(i, j, weight)]."""
    n, m = len(left), len(right)
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            w = weight(left[i], right[j])
            take = w + best[i + 1][j + 1] if w > 0 else 0.0
            best[i][j] = max(take, best[i + 1][j], best[i][j + 1])
    matches, i, j = [], 0, 0
    while i < n and j < m:
        w = weight(left[i], right[j])
        if w > 0 and best[i][j] == w + best[i + 1][j + 1]:
            matches.append((i, j, w))
            i, j = i + 1, j + 1
        elif best[i][j] == best[i + 1][j]:
            i += 1
        else:
            j += 1
    return matches


def _best_in_order(expected: list[dict[str, Any]], called: list[dict[str, Any]]) -> list[tuple[int, int, float]]:
    return weighted_lcs(expected, called, _credit)


@register("tool-correctness", family="agentic", needs=("output",), value="optional", threshold=1.0,
          example="{metric: tool-correctness, value: [search, {name: book, arguments: {city: Paris}}], "
                  "config: {mode: ordered}}")
class ToolCorrectness(Metric):
    """Did the agent call the expected tools (by name, then arguments)?

    Expected tools come from the value or the case's ``expected_tools`` (names or ``{name,
    arguments}``); calls from ``trusys.tool_calls`` or the trace. Each expected tool earns 1 when
    matched by a call with the same name and every expected argument equal, 0.5 when the name matches
    but arguments differ, 0 when not called; a call serves one expected tool. ``config.mode``:
    ``any`` (default, any order; extra calls are listed, not penalised), ``ordered`` (credit of the
    best order-preserving match — a weighted longest common subsequence), ``exact`` (the calls must be
    exactly the expected list, in order, nothing extra: 1 or 0, with the partial credit in the detail).
    Score = credit / number of expected tools; default threshold 1.0. An explicit empty list
    (``expected_tools: []`` or ``value: []``) means no tool should be called: 1 when none was, else 0
    with the unexpected calls named. No expected tools given → not measured.
    """

    def setup(self) -> None:
        mode = self.config.get("mode", "any")
        if mode not in ("any", "ordered", "exact"):
            raise MetricConfigError("config.mode must be any, ordered or exact")
        self._mode = mode
        if self.value is not None:
            _expected_tools(self, None)

    def evaluate(self, case, trace, outcome) -> MetricResult:
        expected = _expected_tools(self, case)
        if expected is None:
            return self.not_measured("no expected tools (give the metric a value or the case expected_tools)")
        called = _called_tools(trace, outcome)
        if not expected:
            unexpected = [str(c["name"]) for c in called]
            reason = (f"no tool expected; unexpected calls: {', '.join(unexpected)}" if unexpected
                      else "no tool expected and none called")
            return self.result(0.0 if unexpected else 1.0, reason=reason, detail={
                "mode": self._mode, "called": unexpected, "expected": [], "extra": unexpected})
        matcher = _best_any_order if self._mode == "any" else _best_in_order
        matches = matcher(expected, called)
        credit = sum(c for _, _, c in matches)
        partial = credit / len(expected)
        score = partial
        if self._mode == "exact":
            score = float(len(called) == len(expected) and len(matches) == len(expected)
                          and all(c == 1.0 and i == j for i, j, c in matches))
        matched_calls = {j for _, j, _ in matches}
        missing = [expected[i]["name"] for i in range(len(expected)) if i not in {i for i, _, _ in matches}]
        wrong_args = [expected[i]["name"] for i, _, c in matches if c < 1.0]
        extra = [c["name"] for j, c in enumerate(called) if j not in matched_calls]
        reason = f"{credit:g}/{len(expected)} expected tools ({self._mode})"
        if missing:
            reason += f"; missing {', '.join(missing)}"
        if wrong_args:
            reason += f"; wrong arguments for {', '.join(wrong_args)}"
        if extra:
            reason += f"; extra {', '.join(str(e) for e in extra)}"
        return self.result(score, reason=reason, detail={
            "mode": self._mode, "partial_credit": partial, "called": [c["name"] for c in called],
            "expected": [e["name"] for e in expected], "missing": missing, "wrong_arguments": wrong_args,
            "extra": extra})


def _call_key(call: dict[str, Any]) -> str:
    return json.dumps([call.get("name"), call.get("arguments")], sort_keys=True, default=str)


@register("execution-efficiency", family="agentic", needs=("output",), threshold=0.8,
          example="{metric: execution-efficiency, threshold: 0.9}")
class ExecutionEfficiency(Metric):
    """Share of tool calls that were not wasted, with the waste counted deterministically.

    Waste: a call identical (name and arguments) to an earlier successful call (redundant); a failed
    call that the agent then retried with the same tool (retried); and, when a plan is given
    (``trusys.plan`` or the case's ``plan``), a call whose tool no plan step names (beyond the plan).
    A call counts once even when several rules apply. Loops — the same sequence of tools repeated
    back to back, e.g. search, read, search, read — are reported in the detail. Score = 1 − wasted /
    calls; default threshold 0.8. No tool calls → not measured.
    """

    def evaluate(self, case, trace, outcome) -> MetricResult:
        calls = [e.payload for e in trace.of_type("tool_call")] or outcome.tool_calls
        if not calls:
            return self.not_measured("no tool calls")
        plan = outcome.plan if outcome.plan is not None else case.plan
        wasted: dict[int, str] = {}
        seen_ok: set[str] = set()
        for index, call in enumerate(calls):
            key = _call_key(call)
            failed = tool_call_failed(call)
            if key in seen_ok:
                wasted[index] = "redundant"
            elif failed and any(c.get("name") == call.get("name") for c in calls[index + 1:]):
                wasted[index] = "retried"
            elif plan and not any(_step_mentions(step, str(call.get("name"))) for step in plan):
                wasted[index] = "beyond plan"
            if not failed:
                seen_ok.add(key)
        loops = _loops([str(c.get("name")) for c in calls])
        score = 1 - len(wasted) / len(calls)
        counts = {kind: sum(1 for k in wasted.values() if k == kind)
                  for kind in ("redundant", "retried", "beyond plan")}
        summary = ", ".join(f"{n} {kind}" for kind, n in counts.items() if n) or "no waste"
        return self.result(score, reason=f"{len(calls) - len(wasted)}/{len(calls)} calls useful ({summary})",
                           detail={"calls": len(calls), **{k.replace(" ", "_"): v for k, v in counts.items()},
                                   "wasted": {str(i): k for i, k in sorted(wasted.items())}, "loops": loops,
                                   "plan_steps": len(plan) if plan else None})


def _loops(names: list[str]) -> list[dict[str, Any]]:
    """Back-to-back repetitions of a block of ≥ 2 tools: [{tools, repeats, start}]."""
    found = []
    i = 0
    while i < len(names):
        best = None
        for width in range(2, (len(names) - i) // 2 + 1):
            block = names[i:i + width]
            if len(set(block)) < 2:
                continue
            repeats = 1
            while names[i + repeats * width:i + (repeats + 1) * width] == block:
                repeats += 1
            if repeats > 1 and (best is None or repeats * width > best[1] * len(best[0])):
                best = (block, repeats)
        if best:
            found.append({"tools": best[0], "repeats": best[1], "start": i})
            i += best[1] * len(best[0])
        else:
            i += 1
    return found
