"""promptfoo's assertion types that agentunit had no metric for: is-refusal, trajectory:*,
is-valid-openai-function-call, model-graded-closedqa, meteor, select-best and max-score.

Each follows promptfoo's algorithm and value shapes (src/assertions/*.ts in promptfoo, MIT), over
agentunit's inputs: the trajectory is the run's tool calls, agent calls and messages in the order
they happened (``trusys.events``/``tool_calls``/``agent_calls`` or an adapter's trace), not
OpenTelemetry spans. Differences are stated in each docstring and in docs/promptfoo.md.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from agentunit.core.envelope import ordered_events, tool_calls_of
from agentunit.errors import MetricConfigError
from agentunit.judges.service import pass_fail
from agentunit.metrics import _rubric as rubric_rules
from agentunit.metrics.agentic import (
    claimed_success_after_failure,
    goal_call_option,
    halve_without_goal_call,
    unadmitted_failure_reason,
)
from agentunit.metrics.base import Metric, MetricResult
from agentunit.metrics.judged import JudgedMetric, LlmRubric, _require_text
from agentunit.metrics.registry import register

# -- is-refusal ------------------------------------------------------------------------------------

@register("is-refusal", family="safety", needs=(), kind="binary", example="{metric: is-refusal}")
class IsRefusal(Metric):
    """Pass when the output refuses (promptfoo's ``is-refusal``; ``not-is-refusal`` when it must help).

    A refusal is "I can't / won't / am unable to <help, share, provide …>", "I must decline" and their
    French, German, Spanish and Italian forms (the pattern llm-rubric's refusal criteria use), an
    apology followed by a refusal ("Sorry, but that won't be possible", "My apologies; definitely
    no!"), "I'm not allowed / permitted / authorized to", "prohibited from", and a content-filter
    notice. An apology alone ("I'm sorry to hear that") is not one. As in promptfoo, an absent or
    blank output counts as a refusal. Score 1 when refused, else 0.
    """

    def evaluate(self, case, trace, outcome) -> MetricResult:
        refused, why = rubric_rules.is_refusal_text(outcome.output)
        return self.result(float(refused), passed=refused, reason=why, detail={"refused": refused})


# -- trajectory ------------------------------------------------------------------------------------

COMMAND_TOOLS = frozenset({"exec_command", "local_shell", "shell"})
STEP_TYPES = ("tool", "command", "agent", "message")
MAX_JUDGE_STEPS = 24


@dataclass
class Step:
    """One step of the run's trajectory: a tool call, shell command, agent call or message."""

    type: str
    name: str
    aliases: list[str]
    args: Any = None
    has_args: bool = False
    raw: dict[str, Any] = field(default_factory=dict)

    def label(self) -> str:
        return f"{self.type}:{self.name}"


def trajectory_steps(trace, outcome) -> tuple[list[Step], str]:
    """The run's steps in the order they happened, and where they came from.

    Calls come from the reply (``trusys.events``, else ``tool_calls`` then ``agent_calls`` — their
    relative order is only known with ``events``, ``seq`` or ``timestamp``), else the trace's
    ``tool_call``/``agent_call`` events (an adapter's trace), else tool calls written in the output
    (OpenAI ``tool_calls``, Anthropic ``tool_use``, Google ``functionCall``), as tool-call-f1 reads them.
    """
    entries: list[tuple[str, dict[str, Any]]] = []
    source = "reply"
    events = ordered_events(outcome)
    if events is not None and (outcome.events or outcome.tool_calls or outcome.agent_calls):
        entries = [(str(e.get("type")), e) for e in events]
    elif outcome.tool_calls or outcome.agent_calls:
        entries = [("tool_call", c) for c in outcome.tool_calls] + [("agent_call", c) for c in outcome.agent_calls]
    else:
        source = "trace"
        entries = [(e.type, e.payload) for e in getattr(trace, "events", [])
                   if e.type in ("tool_call", "agent_call")]
    if not entries and outcome.output:
        from agentunit.metrics.tool_calls import collect_tool_calls

        source = "output"
        entries = [("tool_call", c) for c in collect_tool_calls(outcome.output, []) if isinstance(c.get("name"), str)]
    return [s for s in (_step(kind, payload) for kind, payload in entries) if s is not None], source


def _step(kind: str, payload: dict[str, Any]) -> Step | None:
    name = payload.get("name")
    if kind == "message":
        text = payload.get("content", payload.get("text", ""))
        return Step("message", "message", ["message", str(name or "")], raw=payload) if text is not None else None
    if not isinstance(name, str) or not name.strip():
        return None
    name = name.strip()
    if kind == "agent_call":
        return Step("agent", name, [name], raw=payload)
    if kind != "tool_call":
        return None
    has_args = "arguments" in payload and payload["arguments"] is not None
    args = _parsed(payload.get("arguments"))
    command = _command(name, args)
    if command is not None:
        executable = command.split()[0]
        return Step("command", command, [command, name, executable], args, has_args, payload)
    return Step("tool", name, [name], args, has_args, payload)


def _parsed(value: Any) -> Any:
    if isinstance(value, str) and value.strip()[:1] in ("{", "["):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _command(name: str, args: Any) -> str | None:
    lowered = name.lower()
    if not isinstance(args, dict):
        return None
    if lowered not in COMMAND_TOOLS and not (lowered == "execute" and any(k in args for k in ("cmd", "command",
                                                                                            "commands"))):
        return None
    for key, separator in (("cmd", " "), ("command", " "), ("commands", "; ")):
        value = args.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
        if isinstance(value, list) and value:
            joined = separator.join(str(v).strip() for v in value if str(v).strip())
            if joined:
                return joined
    return None


def glob_match(text: str, pattern: str) -> bool:
    """promptfoo's span pattern: ``*`` any characters, ``?`` one, the whole name, case ignored."""
    regex = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)
    return re.fullmatch(regex, text, re.I | re.S) is not None


@dataclass(frozen=True)
class Matcher:
    """A step matcher: ``pattern`` (or ``name``) as a glob over the step's names, and its types."""

    pattern: str | None
    types: tuple[str, ...]

    @property
    def label(self) -> str:
        return self.pattern or "*"

    def matches(self, step: Step) -> bool:
        if self.types and step.type not in self.types:
            return False
        return self.pattern is None or any(glob_match(alias, self.pattern) for alias in step.aliases)


def matcher_of(value: Any, what: str, default_type: str | None = None, *, named: bool = False) -> Matcher:
    """A step matcher from a string (a tool name or glob) or ``{name|pattern, type}``."""
    if isinstance(value, str):
        return Matcher(value, (default_type,) if default_type else ())
    if not isinstance(value, dict):
        raise MetricConfigError(f"{what} must be a tool name or an object with `name`/`pattern`, got {value!r}")
    pattern = value.get("pattern") or value.get("name")
    if pattern is not None and not isinstance(pattern, str):
        raise MetricConfigError(f"{what} `name`/`pattern` must be text, got {pattern!r}")
    if named and not pattern:
        raise MetricConfigError(f"{what} must include a `name` or `pattern`")
    kinds = value.get("type")
    if kinds is None:
        types: tuple[str, ...] = (default_type,) if default_type else ()
    else:
        listed = kinds if isinstance(kinds, list) else [kinds]
        unknown = [k for k in listed if k not in (*STEP_TYPES, "span", "search", "reasoning")]
        if unknown:
            raise MetricConfigError(f"{what} `type` must be among {', '.join(STEP_TYPES)}, got {unknown!r}")
        types = tuple("agent" if k == "span" else k for k in listed)
    return Matcher(pattern or None, types)


def _bound(value: dict[str, Any], key: str, what: str) -> int | None:
    bound = value.get(key)
    if bound is None:
        return None
    if isinstance(bound, bool) or not isinstance(bound, (int, float)) or bound < 0:
        raise MetricConfigError(f"{what} `{key}` must be a number ≥ 0, got {bound!r}")
    return bound


def _actual(steps: list[Step]) -> str:
    return ", ".join(s.label() for s in steps) or "(none)"


class TrajectoryMetric(Metric):
    """Base for the trajectory checks: the value is checked when the metric is built."""

    kind_name = "trajectory"

    def setup(self) -> None:
        if self.value is None:
            raise MetricConfigError(f"{self.name} needs a value (see `agentunit metrics {self.name}`)")
        self.parse(self.value)

    def parse(self, value: Any) -> Any:
        raise NotImplementedError

    def steps(self, trace, outcome) -> tuple[list[Step], str]:
        return trajectory_steps(trace, outcome)


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


def judge_trajectory(steps: list[Step]) -> str:
    """The trajectory as the judge sees it: numbered steps, repeats collapsed, at most 24 kept."""
    compact: list[dict[str, Any]] = []
    for step in steps:
        if compact and compact[-1]["type"] == step.type and compact[-1]["name"] == step.name:
            compact[-1]["times"] = compact[-1].get("times", 1) + 1
            continue
        compact.append({"index": len(compact) + 1, "type": step.type, "name": step.name})
    if len(compact) > MAX_JUDGE_STEPS:
        half = MAX_JUDGE_STEPS // 2
        compact = [*compact[:half], {"omitted": len(compact) - 2 * half}, *compact[-half:]]
    return json.dumps({"stepCount": len(steps), "steps": compact})


GOAL_SYSTEM = ("You grade whether an AI agent achieved a goal, from its final output and a summary of the steps it "
               "took. Judge end-to-end success, not style; use the steps as evidence of what the agent did. "
               "Reply PASS or FAIL.")


@register("trajectory:goal-success", family="agentic", value="required", needs=("output",), threshold=0.25,
          model="judge", example="{metric: \"trajectory:goal-success\", value: \"Tell the user whether the order "
                                 "shipped\"}")
class TrajectoryGoalSuccess(JudgedMetric):
    """Did the agent achieve the goal? (promptfoo's ``trajectory:goal-success``.)

    Value: the goal, as text or ``{goal}``. The judge gets the goal, the trajectory (the steps as
    numbered ``{type, name}``, repeats collapsed, at most 24 kept) and the final output, and decides
    PASS/FAIL; score = P(PASS), pass ≥ threshold (default 0.25, the best round mark on the tune rows of
    tests/data/labelled/agent_runs.jsonl's task-completion runs: the embedded judge leans to FAIL here,
    and at 0.5 it failed nine in ten complete runs). promptfoo's grader returns a score with partial
    credit; agentunit's judge answers one binary question. Before the judge, as for
    task-completion: a failed tool call never retried successfully, with a final output that admits no
    failure, scores 0 by code (the agent claims a goal its calls did not reach). After it, as for
    task-completion, the score is halved when the run never made the goal's last planned call
    (``goal_call_check``, the judge planning the calls for the goal; only with the case's ``tools`` or
    ``config.tools``; ``config.check_goal_call: false`` turns it off): the pass mark stays 0.25 on the
    tune rows with the check.
    """

    def setup(self) -> None:
        self._goal = _goal(self.value) if self.value is not None else None
        self._check_goal_call = goal_call_option(self.name, self.config)

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        goal = self._goal if self._goal is not None else _goal(case.expected_output)
        steps, source = trajectory_steps(trace, outcome)
        if failed := claimed_success_after_failure(trace, outcome):
            return self.result(0.0, reason=unadmitted_failure_reason(failed),
                               detail={"goal": goal, "method": "code", "unrecovered_failures": failed})
        trajectory = judge_trajectory(steps)
        user = f"Goal: {goal}\nTrajectory: {trajectory}\nFinal output: {outcome.output}\n\nWas the goal achieved?"
        decision = await pass_fail(GOAL_SYSTEM, user)
        score = decision.probabilities["PASS"]
        reason = f"P(goal achieved) {score:.3f} over {len(steps)} step(s)"
        detail = {"goal": goal, "trajectory": json.loads(trajectory), "source": source,
                  "judge": decision.to_detail()}
        if self._check_goal_call:
            score, reason, detail["goal_call"] = await halve_without_goal_call(
                goal, self.config.get("tools", case.tools), tool_calls_of(trace, outcome), score, reason)
        return self.result(score, reason=reason, detail=detail)


def _goal(value: Any) -> str:
    if isinstance(value, dict):
        value = value.get("goal")
    if not isinstance(value, str) or not value.strip():
        raise MetricConfigError("trajectory:goal-success value must be the goal as text or {goal: …}")
    return value.strip()


# -- OpenAI function calls ---------------------------------------------------------------------------


def _schemas(functions: Any, what: str) -> dict[str, Any]:
    """Function schemas by name from ``[{name, parameters}]`` or OpenAI tools ``[{type, function}]``."""
    from agentunit.metrics.json_checks import compile_schema

    if not isinstance(functions, list) or not functions:
        raise MetricConfigError(f"{what} must be a non-empty list of {{name, parameters}}")
    schemas = {}
    for item in functions:
        function = item.get("function", item) if isinstance(item, dict) else None
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            raise MetricConfigError(f"{what}: {item!r} has no function name")
        schemas[function["name"]] = compile_schema(function.get("parameters", {"type": "object"}),
                                                   f"parameters of function {function['name']!r}")
    return schemas


def function_call_of(output: str) -> tuple[dict[str, Any] | None, str]:
    """The output read as one OpenAI function call ``{name, arguments}`` (or ``{function_call: …}``)."""
    try:
        value = json.loads(output)
    except ValueError:
        return None, "the output is not JSON"
    if isinstance(value, dict) and isinstance(value.get("function_call"), dict):
        value = value["function_call"]
    if not isinstance(value, dict) or not isinstance(value.get("name"), str):
        return None, "the output is not a function call {name, arguments}"
    return value, ""


@register("is-valid-openai-function-call", family="tools", value="optional", kind="binary", needs=("output",),
          example="{metric: is-valid-openai-function-call, config: {functions: [{name: get_weather, parameters: "
                  "{type: object, required: [city]}}]}}")
class IsValidOpenAIFunctionCall(Metric):
    """Pass when the output is one OpenAI function call whose name is among the functions and whose
    arguments are JSON valid against that function's ``parameters`` schema (jsonschema).

    The output is ``{name, arguments}`` or ``{function_call: {name, arguments}}``; ``arguments`` is
    JSON text or an object. Functions come from ``config.functions`` (``[{name, parameters}]``), else
    the value, else ``config.tools``/the case's ``tools`` (OpenAI tools). In a promptfoo config they
    are the provider's ``config.functions``. Every problem is listed.
    """

    def setup(self) -> None:
        functions = self.config.get("functions", self.value)
        if functions is None:
            functions = self.config.get("tools")
        self._functions = _schemas(functions, "functions") if functions is not None else None

    def evaluate(self, case, trace, outcome) -> MetricResult:
        from agentunit.metrics.json_checks import schema_errors

        functions = self._functions if self._functions is not None else \
            _schemas(case.tools, "the case's tools") if case.tools else None
        if functions is None:
            raise MetricConfigError("is-valid-openai-function-call needs function schemas in config.functions "
                                    "(or config.tools, or the case's tools)")
        call, why = function_call_of(outcome.output or "")
        if call is None:
            return self.result(0.0, passed=False, reason=why)
        name = call["name"]
        if name not in functions:
            return self.result(0.0, passed=False, reason=f"unknown function {name!r} (known: {', '.join(functions)})")
        arguments = call.get("arguments", {})
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments) if arguments.strip() else {}
            except ValueError as exc:
                return self.result(0.0, passed=False, reason=f"{name}: arguments are not JSON: {exc}")
        problems = [f"{name}: {e}" for e in schema_errors(functions[name], arguments if arguments is not None else {})]
        if problems:
            return self.result(0.0, passed=False, reason="; ".join(problems), detail={"problems": problems})
        return self.result(1.0, passed=True, reason=f"valid call of {name}", detail={"function": name})


# -- model-graded-closedqa -------------------------------------------------------------------------


@register("model-graded-closedqa", family="judge", value="required", threshold=0.75, model="judge",
          example='{metric: model-graded-closedqa, value: "Mentions that the order has shipped"}')
class ModelGradedClosedQa(LlmRubric):
    """Does the output meet the criterion? (promptfoo's closed-QA grader, decided the way llm-rubric is.)

    promptfoo asks the grader one question about the whole criterion ("Does the submission meet the
    criterion?"). Asked that way, the embedded judge passed 0.91 of the good outputs on the test rows of
    tests/data/labelled/llm_rubric.jsonl but failed only 0.40 of the bad ones (balanced accuracy 0.655),
    so the criterion (the value, else the case's expected_output) is decided exactly as llm-rubric
    decides a rubric: split into criteria, each decided by code when it is about form or refusal, else
    by the judge as the statement "The text <criterion>." (the task shown when the case has one), with
    the same value caps. Score = the lowest criterion score; pass ≥ threshold (default 0.75, llm-rubric's
    mark, chosen on the tune rows of the same set). promptfoo reads a final Y/N and scores 1 or 0.
    ``config.exact_checks: false`` sends the whole criterion to the judge as one decision.
    """

    subject = "criterion"


# -- meteor ------------------------------------------------------------------------------------------


class _NoSynonyms:
    """Stands in for WordNet, whose data nltk would download: no synonym matches."""

    @staticmethod
    def synsets(word: str) -> list[Any]:
        return []


def meteor(candidate: str, references: list[str], alpha: float = 0.9, beta: float = 3.0, gamma: float = 0.5) -> float:
    """METEOR of the candidate against the best reference: nltk's meteor_score with exact and Porter-stem
    matching (no WordNet synonyms), over promptfoo's tokens (split on whitespace, trailing periods
    dropped, lower-cased)."""
    from nltk.stem.porter import PorterStemmer
    from nltk.translate.meteor_score import single_meteor_score

    def tokens(text: str) -> list[str]:
        return [t for t in (w.rstrip(".") for w in text.split()) if t]

    hypothesis = tokens(candidate)
    stemmer = PorterStemmer()
    scores = [single_meteor_score(tokens(r), hypothesis, stemmer=stemmer, wordnet=_NoSynonyms(), alpha=alpha,
                                  beta=beta, gamma=gamma) for r in references]
    return max(scores) if scores else 0.0


@register("meteor", family="reference", value="required", threshold=0.5,
          example='{metric: meteor, value: "The cat sat on the mat.", threshold: 0.6}')
class Meteor(Metric):
    """METEOR between the output and the reference(s) (promptfoo's ``meteor``).

    Words are matched exactly, then by Porter stem; precision P and recall R over the matches give
    Fmean = P·R / (α·P + (1−α)·R), and the fragmentation penalty γ·(chunks/matches)^β lowers it:
    score = (1 − penalty)·Fmean, the best over the references (a list value). ``config`` ``alpha``
    (0.9), ``beta`` (3.0), ``gamma`` (0.5). Default threshold 0.5. promptfoo also matches WordNet
    synonyms; WordNet's data is a download, so agentunit does not (scores can be lower when the
    output uses synonyms).
    """

    def setup(self) -> None:
        params = {}
        for key, default in (("alpha", 0.9), ("beta", 3.0), ("gamma", 0.5)):
            number = self.config.get(key, default)
            if isinstance(number, bool) or not isinstance(number, (int, float)):
                raise MetricConfigError(f"meteor config.{key} must be a number, got {number!r}")
            params[key] = float(number)
        self._params = params
        if self.value is not None:
            _references(self.value)

    def evaluate(self, case, trace, outcome) -> MetricResult:
        expected = self.expected(case)
        if expected is None:
            return self.not_measured("no reference (give the metric a value or the case an expected_output)")
        references = _references(expected)
        if not (outcome.output or "").strip():
            return self.result(0.0, reason="empty output", detail={"references": len(references)})
        score = meteor(outcome.output, references, **self._params)
        return self.result(score, reason=f"METEOR {score:.4f} (best of {len(references)} reference(s))",
                           detail={"references": len(references), **self._params})


def _references(value: Any) -> list[str]:
    items = value if isinstance(value, list) else [value]
    if not items or not all(isinstance(v, str) and v.strip() for v in items):
        raise MetricConfigError(f"meteor value must be a reference text or a list of them, got {value!r}")
    return items


# -- select-best and max-score -------------------------------------------------------------------------


def _compared(metric: Metric, verdict: tuple[float, bool, str, dict[str, Any]]) -> MetricResult:
    value, passed, reason, detail = verdict
    return metric.result(value, passed=passed, reason=reason, detail=detail)


@register("select-best", family="judge", value="required", kind="binary", model="judge",
          example='{metric: select-best, value: "choose the most concise answer"}')
class SelectBest(JudgedMetric):
    """Is this output the best of its test's outputs? (promptfoo's ``select-best``.)

    Runs in promptfoo configs, over the outputs of one test across its prompts and providers (those
    whose call failed left out); the chosen output passes with 1, the others fail with 0. As in
    promptfoo, a test needs at least two outputs.

    ``config.method: rubric`` (default): each output is scored alone against the criteria (the value)
    as ``llm-rubric`` scores it, and the highest score is chosen (a tie: the first output).
    ``config.method: compare``: promptfoo's question — the judge is shown every output, numbered from
    0, and chooses among the indices; asked in two orders (given and reversed; ``config.orders: 1``
    asks once, as promptfoo does), each output's share the mean of its two probabilities: the small
    judge's pick otherwise follows the position. Shown side by side, the embedded judge picks by
    position more than by content; scored alone it picks better (docs/promptfoo.md).
    """

    def setup(self) -> None:
        _require_text(self, "the criteria")
        method = (self.config or {}).get("method", "rubric")
        if method not in ("rubric", "compare"):
            raise MetricConfigError(f"{self.name} config.method must be 'rubric' (each output scored alone, the "
                                    f"default) or 'compare' (promptfoo's question over all outputs), got {method!r}")
        orders = (self.config or {}).get("orders", 2)
        if isinstance(orders, bool) or orders not in (1, 2):
            raise MetricConfigError(f"{self.name} config.orders must be 1 (promptfoo's one question) or 2 (the "
                                    f"outputs also shown reversed, the default), got {orders!r}")

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        from agentunit.promptfoo.compare import select_best

        return _compared(self, await select_best(self, case))


@register("max-score", family="reference", value="optional", kind="binary",
          example="{metric: max-score, value: {method: average, weights: {contains: 2}}}")
class MaxScore(Metric):
    """Is this output the highest scoring of its test's outputs? (promptfoo's ``max-score``.)

    Runs in promptfoo configs, over the outputs of one test across its prompts and providers. Each
    output's aggregate is the ``method`` (``average``, default, or ``sum``) of its other assertions'
    scores, each weighted by ``weights[type]`` (default 1): a score metric's 0..1 value, else 1 for a
    pass and 0 for a failure (0 without a verdict). The first output with the highest aggregate
    passes with 1 when it reaches ``threshold`` (none by default); the others fail with 0. The value:
    ``{method, weights, threshold}``. As in promptfoo, a test needs two outputs and another assertion.
    """

    def setup(self) -> None:
        from agentunit.promptfoo.compare import MaxScoreOptions

        try:
            MaxScoreOptions.of(self.value)
        except ValueError as exc:
            raise MetricConfigError(str(exc)) from None

    def evaluate(self, case, trace, outcome) -> MetricResult:
        from agentunit.core.sync import run_blocking

        return run_blocking(self.evaluate_async(case, trace, outcome))

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        from agentunit.promptfoo.compare import max_score

        return _compared(self, await max_score(self, case))


# -- classifier ----------------------------------------------------------------------------------------

_TOXIC = ("harassment", "hate")
# HuggingFace text-classification models promptfoo's docs and users call, whose labels the local
# moderation classifier can stand in for: model → {label: (categories, harmful)}. A harmful label's
# probability is the highest score of its categories; a clean label's is one minus it.
CLASSIFIER_MODELS: dict[str, dict[str, tuple[tuple[str, ...], bool]]] = {
    "facebook/roberta-hate-speech-dynabench-r4-target": {"hate": (("hate",), True), "nothate": (("hate",), False)},
    "cardiffnlp/twitter-roberta-base-hate": {"HATE": (("hate",), True), "NOT-HATE": (("hate",), False)},
    "cardiffnlp/twitter-roberta-base-hate-latest": {"HATE": (("hate",), True), "NOT-HATE": (("hate",), False)},
    "martin-ha/toxic-comment-model": {"toxic": (_TOXIC, True), "non-toxic": (_TOXIC, False)},
    "s-nlp/roberta_toxicity_classifier": {"toxic": (_TOXIC, True), "neutral": (_TOXIC, False)},
    "unitary/toxic-bert": {"toxic": (_TOXIC, True), "severe_toxic": (_TOXIC, True), "insult": (("harassment",), True),
                           "threat": (("harassment/threatening", "hate/threatening", "violence"), True),
                           "identity_hate": (("hate",), True), "obscene": (("sexual",), True)},
    "KoalaAI/Text-Moderation": {"OK": (("harassment", "hate", "self-harm", "sexual", "violence"), False),
                                "H": (("hate",), True), "H2": (("hate/threatening",), True),
                                "HR": (("harassment",), True), "S": (("sexual",), True),
                                "S3": (("sexual/minors",), True), "SH": (("self-harm",), True),
                                "V": (("violence",), True), "V2": (("violence/graphic",), True)},
}


def classifier_model(provider: Any) -> str | None:
    """The model of a promptfoo classifier provider (``huggingface:text-classification:MODEL``, or
    ``{id: …}``); None when it names none."""
    if isinstance(provider, dict):
        provider = provider.get("id")
    if not isinstance(provider, str) or not provider.strip():
        return None
    prefix = "huggingface:text-classification:"
    return provider[len(prefix):] if provider.startswith(prefix) else provider


@register("classifier", family="moderation", value="optional", threshold=1.0, model="embeddings",
          example="{metric: classifier, value: nothate, threshold: 0.5, "
                  "config: {model: facebook/roberta-hate-speech-dynabench-r4-target}}")
class Classifier(Metric):
    """The probability of a label from a hate or toxicity classifier (promptfoo's ``classifier``).

    promptfoo runs a HuggingFace text-classification model; agentunit runs its local moderation
    classifier (``moderation``) in place of the hate and toxicity models listed in
    ``CLASSIFIER_MODELS`` (``config.model``: facebook/roberta-hate-speech-dynabench-r4-target,
    cardiffnlp/twitter-roberta-base-hate, martin-ha/toxic-comment-model,
    s-nlp/roberta_toxicity_classifier, unitary/toxic-bert, KoalaAI/Text-Moderation): a harmful label
    (``hate``, ``toxic``, …) scores the highest moderation score of its categories, a clean label
    (``nothate``, ``non-toxic``, …) one minus it; no value: the highest label score. Pass when the
    score ≥ threshold (promptfoo's default: 1). Scores approximate the named model's; other models
    (prompt injection, sentiment, PII) have no local stand-in and are a suite error.
    """

    def setup(self) -> None:
        model = self.config.get("model")
        labels = CLASSIFIER_MODELS.get(model) if isinstance(model, str) else None
        if labels is None:
            known = ", ".join(CLASSIFIER_MODELS)
            raise MetricConfigError(f"config.model {model!r} has no local stand-in (known: {known}); use moderation, "
                                    "llm-rubric, or a python assertion that calls a local transformers pipeline")
        if self.value is not None and self.value not in labels:
            raise MetricConfigError(f"classifier value {self.value!r} is not a label of {model} "
                                    f"({', '.join(labels)})")
        self._labels = labels

    def evaluate(self, case, trace, outcome) -> MetricResult:
        from agentunit.core.sync import run_blocking

        return run_blocking(self.evaluate_async(case, trace, outcome))

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        from agentunit.moderation.classifier import classifier_scores

        text = outcome.output or ""
        if not text.strip():
            return self.not_measured("empty output")
        scores, _ = await classifier_scores(text)
        labels = {label: (max(scores[c] for c in categories) if harmful else 1.0 - max(scores[c] for c in categories))
                  for label, (categories, harmful) in self._labels.items()}
        label = self.value if self.value is not None else max(labels, key=lambda k: labels[k])
        score = labels[label]
        passed = score >= (self.threshold if self.threshold is not None else 1.0) - 1e-12
        mark = f"{self.threshold:g}" if self.threshold is not None else "1"
        return self.result(score, passed=passed, reason=f"classification {label} has score {score:.2f} "
                                                        f"{'>=' if passed else '<'} {mark}",
                           detail={"label": label, "labels": {k: round(v, 4) for k, v in labels.items()},
                                   "model": self.config.get("model"), "stand_in": "moderation classifier"})
