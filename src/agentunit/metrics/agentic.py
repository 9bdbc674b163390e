"""Agentic metrics computed from the trace's tool and agent calls."""

from __future__ import annotations

import datetime
import json
import re
from collections import Counter
from collections.abc import Callable
from typing import Any, ClassVar

from rapidfuzz import fuzz

from agentunit.core.envelope import tool_call_failed, tool_call_failure, tool_calls_of
from agentunit.errors import MetricConfigError
from agentunit.judges.base import JudgeOutputError, JudgeRequest
from agentunit.judges.service import current_judge, pass_fail
from agentunit.metrics import _rubric as rubric_rules
from agentunit.metrics._cloze import NAME_SIMILARITY, content_words
from agentunit.metrics._grounding import unsupported_values
from agentunit.metrics._values import switch
from agentunit.metrics.base import Metric, MetricResult
from agentunit.metrics.judged import JudgedMetric
from agentunit.metrics.overlap import answer_f1
from agentunit.metrics.rag import context_of
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


def _normal_words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower().replace("_", " ").replace("-", " ")))


def _step_mentions(step: Any, name: str) -> bool:
    """A plan step (text, or ``{tool|name|agent, ...}``) names a tool/agent when all of its words occur in it."""
    if isinstance(step, dict):
        named = step.get("tool") or step.get("name") or step.get("agent")
        if isinstance(named, str):
            return named == name
        step = " ".join(str(v) for v in step.values())
    words = _normal_words(name)
    return bool(words) and words <= _normal_words(str(step))


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


def _available_tool_names(tools: Any) -> set[str]:
    """Names of the available tools: tool schemas (``_tool_specs``) and plain names."""
    return set(_tool_specs(tools)) | {tool for tool in tools or [] if isinstance(tool, str)}


@register("plan-adherence", family="agentic", needs=("output",), threshold=0.7, model="judge",
          example="{metric: plan-adherence}")
class PlanAdherence(JudgedMetric):
    """Share of the plan's steps that the agent carried out, in order.

    Algorithm: the executed steps are the trace's tool and agent calls in order. A plan step that
    names an executed tool or agent (all the name's words appear in the step, or ``{tool: name}``) is
    aligned deterministically — an order-preserving alignment (longest common subsequence), so a
    step done out of order does not count. A step naming an available tool (the case's ``tools`` or
    ``config.tools``) that was never called fails without a judge call. Only the remaining steps,
    which name nothing the trace can settle, go to the judge (one PASS/FAIL decision each, given the
    executed steps). Score = (aligned steps + Σ P(PASS) of judged steps) / steps. No plan → not measured.

    When the order between tool calls and agent calls is unknown (separate arrays without
    ``trusys.events``, ``seq`` or ``timestamp``), steps are aligned with the tool calls' order and,
    failing that, with the agent calls' order, each of which was observed. Any tool step may then
    have happened before or after any agent step, so the smaller of the two groups of aligned steps
    (the agent steps on a tie) is reported "order unknown" and left out of the score; the larger
    group stands, since its steps are in order whatever the interleaving.

    When steps went to the judge and the tools are listed (the case's or ``config.tools``), the plan
    is also read as a whole (``config.read_whole_plan``, default true): the judge turns the whole plan
    into the tool calls it makes (JSON constrained to the tools' names, one generation), and that
    reading scores LCS(plan calls, tool calls made) / the longer of the two — in order, nothing
    skipped, nothing added. The score is the higher of the two readings: step by step, the small judge fails steps
    written in other words ("Check when Anna is available tomorrow"); read whole, it sometimes adds a
    call, which one extra call in four costs 0.25. Pass mark 0.7, on the tune split of
    tests/data/labelled/agent_runs.jsonl (docs/agentic.md).
    """

    def setup(self) -> None:
        self._read_whole_plan = switch(self.config, "read_whole_plan", True, self.name)

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        plan = outcome.plan if outcome.plan is not None else case.plan
        if not plan:
            return self.not_measured("no plan (return trusys.plan or set the case's plan)")
        executed = [str(e.payload.get("name")) for e in trace.events if e.type in ("tool_call", "agent_call")]
        if not executed:
            executed = [str(c.get("name")) for c in outcome.tool_calls + outcome.agent_calls]
        tools, agents = _call_names(trace)
        ordered = trace.order_known or not tools or not agents
        if ordered:
            aligned, unknown = {i: executed[j] for i, j in _align(plan, executed).items()}, set()
        else:
            aligned, unknown = _align_without_order(plan, tools, agents)
        tool_list = self.config.get("tools", case.tools)
        available = _available_tool_names(tool_list)
        steps = []
        credit = 0.0
        for index, step in enumerate(plan):
            text = step if isinstance(step, str) else str(step)
            if index in unknown:
                steps.append({"step": text, "method": "order unknown", "call": aligned[index], "support": None})
            elif index in aligned:
                steps.append({"step": text, "method": "aligned", "call": aligned[index], "support": 1.0})
                credit += 1.0
            elif any(_step_mentions(step, name) for name in executed) or \
                    any(_step_mentions(step, name) for name in available):
                steps.append({"step": text, "method": "tool not called in order", "support": 0.0})
            else:
                support = await _judge_step(text, _calls_summary(trace, executed), outcome.output)
                steps.append({"step": text, "method": "judge", "support": round(support, 4)})
                credit += support
        counted = len(plan) - len(unknown)
        score = credit / counted
        judged = sum(1 for s in steps if s["method"] == "judge")
        reason = f"{credit:.2f}/{counted} plan steps followed" + (f" ({judged} judged)" if judged else "")
        detail = {"steps": steps, "executed": executed, "judge_calls": judged}
        specs = _tool_specs(tool_list)
        if judged and specs and self._read_whole_plan:
            read = await _whole_plan_reading(outcome.query or case.query, plan, specs, tools)
            detail["whole_plan"] = read
            detail["judge_calls"] += 1
            if read.get("score") is not None and read["score"] > score:
                score = read["score"]
                reason += (f"; read as a whole, the plan's {len(read['plan_calls'])} tool call(s) match the "
                           f"{len(tools)} made in order: {score:.2f}")
        if unknown:
            reason += (f"; {len(unknown)} step(s) order unknown (the order between tool calls and agent calls "
                       "was not recorded)")
        if not ordered:
            detail.update(order="unknown", order_basis=trace.metadata.get("order_basis"))
        return self.result(score, reason=reason, detail=detail)


async def _whole_plan_reading(question: str, plan: list[Any], specs: dict[str, dict[str, Any]],
                              made: list[str]) -> dict[str, Any]:
    """The plan read as a whole against the tool calls made: ``{plan_calls, score}`` with score =
    LCS(plan calls, calls made) / the longer of the two; ``{skipped: reason}`` when the judge's reading
    is empty or not the requested JSON."""
    planned = await _judge_plan_calls(question, plan, specs)
    if not planned:
        return {"skipped": "the judge's reading of the plan was empty or not the requested JSON"}
    shared = len(weighted_lcs(planned, made, lambda a, b: float(a == b)))
    return {"plan_calls": planned, "score": shared / max(len(planned), len(made))}


def _align(plan: list[Any], executed: list[str]) -> dict[int, int]:
    """Order-preserving alignment of plan steps to executed calls that they name (LCS)."""
    return {i: j for i, j, _ in weighted_lcs(plan, executed, lambda step, name: float(_step_mentions(step, name)))}


def _align_without_order(plan: list[Any], tools: list[str], agents: list[str]) -> tuple[dict[int, str], set[int]]:
    """Align the plan with the tool calls, then the rest with the agent calls (two observed orders).

    Returns ({step: call name}, steps whose order is unknown). Every pair of an aligned tool step and
    an aligned agent step has an unobserved relative order; the fewest steps to set aside so that no
    such pair remains is the smaller group (a minimum vertex cover of a complete bipartite graph).
    """
    by_tools = {i: tools[j] for i, j in _align(plan, tools).items()}
    rest = [i for i in range(len(plan)) if i not in by_tools]
    by_agents = {rest[i]: agents[j] for i, j in _align([plan[i] for i in rest], agents).items()}
    unknown = set(by_agents) if len(by_agents) <= len(by_tools) else set(by_tools)
    return {**by_tools, **by_agents}, unknown if by_tools and by_agents else set()


def _call_names(trace) -> tuple[list[str], list[str]]:
    """Names of the trace's tool calls and of its agent calls, each in order."""
    return ([str(e.payload.get("name")) for e in trace.of_type("tool_call")],
            [str(e.payload.get("name")) for e in trace.of_type("agent_call")])


_ORDER_NOTE = "The order between the tool calls and the agent calls was not recorded."


def _calls_summary(trace, executed: list[str]) -> str:
    """The executed calls for a judge prompt: one ordered list, or one per kind when the order between
    kinds is unknown (so the judge is not shown an order that was never observed)."""
    tools, agents = _call_names(trace)
    if trace.order_known or not tools or not agents:
        return "Executed calls, in order: " + (", ".join(executed) or "(no tool or agent calls)")
    return f"Tool calls, in order: {', '.join(tools)}\nAgent calls, in order: {', '.join(agents)}\n{_ORDER_NOTE}"


async def _judge_step(step: str, calls: str, output: str | None) -> float:
    decision = await pass_fail(
        "You check whether an agent carried out a step of its plan. Reply FAIL or PASS.",
        f"{calls}\nFinal answer: {output or ''}\n\nPlan step: {step}\n\n"
        "If the executed calls or the final answer show that this step was carried out, reply PASS. "
        "Otherwise reply FAIL.")
    return decision.probabilities["PASS"]


def _tool_specs(tools: Any) -> dict[str, dict[str, Any]]:
    """name → {description, parameters} from OpenAI-style tool schemas or plain dicts."""
    specs = {}
    for tool in tools or []:
        if isinstance(tool, dict):
            function = tool.get("function") if isinstance(tool.get("function"), dict) else tool
            if isinstance(function.get("name"), str):
                specs[function["name"]] = function
    return specs


@register("argument-correctness", family="agentic", needs=("output",), threshold=0.55, model="judge",
          example="{metric: argument-correctness}")
class ArgumentCorrectness(JudgedMetric):
    """Are each tool call's arguments valid and appropriate for the request?

    Per call: when the tool's JSON Schema is known (the case's ``tools`` or ``config.tools``, OpenAI
    form), arguments that fail it score 0 with the schema errors listed and no judge call; otherwise
    the judge decides whether the arguments are appropriate for the user's request and the tool's
    description (P(PASS)), then fills the call itself (its own arguments, generated under the tool's
    schema) and the two are compared (``compared_with_own``: a number, true/false, time of day, date,
    e-mail address, unit of measure, list of strings or code that differs halves P, every argument
    equal lifts it half-way to 1; tune 0.739 → 0.924, docs/agentic.md). A number, date or time written
    inside a free-text argument that neither the request nor an earlier call gives halves P too
    (``values_in_text_unsupported``: "move our call to 2pm" for 4pm), and so does a short text argument
    that names something the request does not where the judge's own value names something it does
    (``values_not_asked_for``: "sell" for "Buy"). Own arguments that repeat an
    earlier call of the same tool are not compared (``repeats_earlier_call``: the judge copied what it saw).
    ``config.judge: false`` keeps only the schema check: a call whose arguments pass its schema
    scores 1, a call with no schema is not checked (listed in the detail, left out of the mean).
    Score = mean over checked calls. Pass mark 0.55, the best round mark on the tune split of
    tests/data/labelled/agent_arguments.jsonl before the comparison (0.739 there against 0.696 at 0.5),
    kept after it. No
    tool calls, or no call that could be checked (no schema and the judge off) → not measured.
    """

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        from agentunit.metrics.json_checks import compile_schema, schema_errors

        calls = [e.payload for e in trace.of_type("tool_call")] or outcome.tool_calls
        if not calls:
            return self.not_measured("no tool calls")
        specs = _tool_specs(self.config.get("tools", case.tools))
        use_judge = self.config.get("judge", True)
        question = outcome.query or case.query
        results, unchecked = [], []
        for position, call in enumerate(calls):
            name, arguments = str(call.get("name")), call.get("arguments")
            arguments = arguments if isinstance(arguments, dict) else {}
            spec = specs.get(name, {})
            if "parameters" in spec:
                errors = schema_errors(compile_schema(spec["parameters"], f"parameters of {name}"), arguments)
                if errors:
                    results.append({"tool": name, "score": 0.0, "schema_errors": errors})
                    continue
                if not use_judge:
                    results.append({"tool": name, "score": 1.0, "method": "schema"})
                    continue
            elif not use_judge:
                unchecked.append(name)
                continue
            score = await _judge_arguments(question, name, spec.get("description", ""), arguments)
            record: dict[str, Any] = {"tool": name, "judge_probability": round(score, 4)}
            unsupported = values_in_text_unsupported(arguments, question, calls[:position])
            if unsupported:
                record["unsupported_values"] = unsupported
            own = await _own_arguments(question, name, spec, calls[:position])
            if own is not None and not repeats_earlier_call(own, name, calls[:position]):
                if not_asked := values_not_asked_for(arguments, own, question):
                    record["not_in_request"] = not_asked
                score, agreement = compared_with_own(score, arguments, own, differs=bool(unsupported or not_asked))
                record.update(own_arguments=own, agreement=agreement)
            else:
                if own is None:
                    record["own_arguments"] = "the judge's own arguments were not a JSON object: not compared"
                else:
                    record["own_arguments"] = own
                    record["not_compared"] = "the judge's own arguments repeat an earlier call of this tool"
                if unsupported:
                    score *= OWN_MISMATCH_SCALE
            results.append({**record, "score": round(score, 4), "method": "judge"})
        detail = {"calls": results, "not_checked": unchecked}
        if not results:
            return self.not_measured(f"no schema to validate the arguments of {', '.join(sorted(set(unchecked)))} "
                                     "against and the judge is off (config.judge: false)")
        value = sum(r["score"] for r in results) / len(results)
        bad = [r["tool"] for r in results if r["score"] < 0.5]
        reason = f"mean argument fit {value:.3f} over {len(results)} calls"
        if bad:
            reason += f"; check {', '.join(bad)}"
        if unchecked:
            reason += f"; not checked (no schema, judge off): {', '.join(unchecked)}"
        return self.result(value, reason=reason, detail=detail)


OWN_AGREE_LIFT = 0.5       # every compared argument equal: support moves half-way to 1
OWN_MISMATCH_SCALE = 0.5   # a number or true/false that differs: support halved
NUMBER_TOLERANCE = 0.005   # numbers within 0.5 % of each other agree


EARLIER_RESULT_CHARS = 300  # of each earlier call's output shown to the judge filling a later call


def _earlier_calls(calls: list[dict[str, Any]]) -> str:
    """The calls made before this one, with their results: a later call's values often come from them
    (coordinates from a geocoder), which the request alone cannot tell the judge."""
    if not calls:
        return ""
    return "\nEarlier calls and their results:\n" + "\n".join(
        f"- {_call_line(call, EARLIER_RESULT_CHARS)} -> {_call_result(call, EARLIER_RESULT_CHARS)}" for call in calls)


async def _own_arguments(question: str, tool: str, spec: dict[str, Any], earlier: list[dict[str, Any]]
                         ) -> dict[str, Any] | None:
    """The judge's own arguments for the call, generated under the tool's JSON Schema, with the calls made
    before it and their results (None when the reply is not a JSON object)."""
    parameters, description = spec.get("parameters"), spec.get("description", "")
    text, _, _ = await current_judge().generate(JudgeRequest(
        (("system", "You call tools for a user. Reply with the tool's arguments as JSON only."),
         ("user", f"User request: {question}{_earlier_calls(earlier)}\nTool: {tool}"
          + (f" — {description}" if description else "")
          + (f"\nParameters (JSON Schema): {json.dumps(parameters, ensure_ascii=False)}" if parameters else "")
          + "\n\nWrite the arguments this call needs to serve the request, as a JSON object.")),
        max_tokens=120, json_schema=parameters or {"type": "object"}))
    try:
        own = json.loads(text)
    except ValueError:
        return None
    return own if isinstance(own, dict) else None


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str) and _NUMERIC.fullmatch(value):
        return float(value)
    return None


_NUMERIC = re.compile(r"\s*-?\d+(?:\.\d+)?\s*")


_CLOCK = re.compile(r"\s*(\d{1,2})(?::(\d{2}))?(?::\d{2})?\s*([ap])?\.?\s*(?:m\.?)?\s*", re.IGNORECASE)
_DATE_FORMATS = ("%d %B %Y", "%d %b %Y", "%B %d, %Y", "%B %d %Y", "%b %d, %Y", "%b %d %Y", "%Y/%m/%d")
_CODE_SEPARATORS = re.compile(r"[\s-]")
_EMAIL = re.compile(r"\s*[^@\s]+@[^@\s]+\.\w+\s*")


def _email(value: str) -> str | None:
    return value.strip().lower() if _EMAIL.fullmatch(value) else None


def _clock_minutes(value: str) -> int | None:
    """Minutes after midnight of a time of day written "19:45", "7:45pm" or "9 am" (a bare number is not a time)."""
    match = _CLOCK.fullmatch(value)
    if not match or (match.group(2) is None and match.group(3) is None):
        return None
    hour, minute, half = int(match.group(1)), int(match.group(2) or 0), (match.group(3) or "").lower()
    if half:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if half == "p" else 0)
    return hour * 60 + minute if hour < 24 and minute < 60 else None


def _calendar_date(value: str) -> datetime.date | None:
    """The date of "2026-05-09", "9 May 2026", "May 9, 2026" and similar English forms."""
    text = " ".join(value.split())
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        pass
    for form in _DATE_FORMATS:
        try:
            return datetime.datetime.strptime(text, form).date()
        except ValueError:
            continue
    return None


def _codes(own: str, given: str) -> tuple[str, str] | None:
    """Both values as codes (tickers, country, currency and flight codes: letters and digits, spaces,
    hyphens and case ignored) when they have the shape of one: at most 10 characters, the same length,
    and one written without lower-case letters. "LON" and "London" are not compared as codes."""
    pair = [_CODE_SEPARATORS.sub("", v).upper() for v in (own, given)]
    if not all(p.isalnum() and len(p) <= 10 for p in pair) or len(pair[0]) != len(pair[1]):
        return None
    return (pair[0], pair[1]) if any(v == v.upper() for v in (own, given)) else None


def _measurement_unit(value: str) -> Any:
    """The unit of measure a value names ("kg", "kilograms", "°F"); None for other values (a unit is a
    word or two: longer text is not handed to pint), and for every value when pint (the ``judge``
    extra) is not installed."""
    if len(value.split()) > 2 or not rubric_rules.units_available():
        return None
    return rubric_rules.unit_of(value.strip())


def _typed_agreement(own: str, given: str) -> tuple[float, str] | None:
    """Equal or not (1/0) when both strings are e-mail addresses, times of day, dates, units of measure
    or codes."""
    for read, kind in ((_email, "email"), (_clock_minutes, "time"), (_calendar_date, "date"),
                       (_measurement_unit, "unit")):
        mine, theirs = read(own), read(given)
        if mine is not None and theirs is not None:
            return float(mine == theirs), kind
    codes = _codes(own, given)
    return None if codes is None else (float(codes[0] == codes[1]), "code")


def _item_set(value: list[Any]) -> frozenset[str] | None:
    """A list of strings as the set of its items, case and surrounding space ignored; None otherwise."""
    if not value or not all(isinstance(item, str) for item in value):
        return None
    return frozenset(" ".join(item.split()).lower() for item in value)


def argument_agreement(own: Any, given: Any) -> tuple[float, str]:
    """(similarity, kind) of one argument against the judge's own value: numbers within 0.5 % or not (1/0),
    true/false equal or not; two e-mail addresses, times of day ("7:45pm" = "19:45"), dates ("9 May 2026"
    = "2026-05-09"), units of measure ("kg" = "kilograms") or codes ("UA 1234" = "UA1234", "de" = "DE")
    equal or not; two lists of strings equal as sets (case ignored) or not; anything else SQuAD token
    F1 of the texts (JSON for lists and objects)."""
    mine, theirs = _number(own), _number(given)
    if mine is not None and theirs is not None:  # within 0.5 %: a result rounded on the way still agrees
        return float(abs(mine - theirs) <= NUMBER_TOLERANCE * max(abs(mine), abs(theirs))), "number"
    if isinstance(own, bool) or isinstance(given, bool):  # JSON's true is not the number 1
        return float(isinstance(own, bool) and isinstance(given, bool) and own == given), "boolean"
    if isinstance(own, str) and isinstance(given, str):
        typed = _typed_agreement(own, given)
        if typed is not None:
            return typed
    if isinstance(own, list) and isinstance(given, list):
        mine, theirs = _item_set(own), _item_set(given)
        if mine is not None and theirs is not None:  # an item added or left out: "butter" nobody asked for
            return float(mine == theirs), "items"
    as_text = [v if isinstance(v, str) else json.dumps(v, ensure_ascii=False) for v in (own, given)]
    return answer_f1(*as_text), "text"


def repeats_earlier_call(own: dict[str, Any], tool: str, earlier: list[dict[str, Any]]) -> bool:
    """The judge's own arguments for a call are those of an earlier call of the same tool. Filling the
    second of two calls (the weather in London, then in Tokyo) with the first call's results in view,
    the small judge copies the first call's values; comparing the agent's call with that copy would
    halve a right call, and lift an agent that repeated the call by mistake."""
    return any(str(call.get("name")) == tool and call.get("arguments") == own for call in earlier)


def values_in_text_unsupported(arguments: dict[str, Any], request: str, earlier: list[dict[str, Any]]) -> list[str]:
    """Numbers, dates and times written inside free-text arguments (a message body, a reminder's text:
    strings of two or more words) that neither the request nor an earlier call gives ("move our call
    to 2pm" for "… to 4pm"), found as ``_grounding.unsupported_values`` finds them in a final answer;
    names are not counted (a greeting's or a subject line's capitalised words are not values). Without a
    request there is nothing to read them against: []."""
    if not request.strip():
        return []
    found = []
    for value in arguments.values():
        if isinstance(value, str) and len(value.split()) >= 2 and not _single_value(value):
            found += [v for v in unsupported_values(value, request, earlier) if any(c.isdigit() for c in v)]
    return found


SHORT_TEXT_WORDS = 3  # a text argument of up to this many words names one thing (a city, a team, a side)


def values_not_asked_for(arguments: dict[str, Any], own: dict[str, Any], request: str) -> list[str]:
    """Short text arguments that name something the request does not, where the judge's own value names
    something it does ("sell" for "Buy", "Los Angeles Clippers" for "the Lakers", "business" for
    "economy"): no content word of the value is a word of the request or written like one (rapidfuzz ratio
    ≥ 80: "Brasil", "Milano"), and the judge's own value has one. Values compared as typed values
    (units, codes, dates …), code-shaped values ("LON", "NYC") and free text are left out, and so is a
    value the judge inferred too (its own value not in the request: "Paris" for "France's capital")."""
    asked = content_words(request)
    found = []
    for key, value in arguments.items():
        mine = own.get(key)
        if not (isinstance(value, str) and isinstance(mine, str)) or len(value.split()) > SHORT_TEXT_WORDS \
                or _code_shaped(value) or argument_agreement(mine, value)[1] != "text":
            continue
        words = content_words(value)
        if words and content_words(mine) & asked and not any(
                fuzz.ratio(word, other) >= NAME_SIMILARITY for word in words for other in asked):
            found.append(value)
    return found


def _code_shaped(value: str) -> bool:
    """Up to four capitals and digits ("LON", "NYC", "UA1"): a code is not read for its words."""
    compact = value.replace(" ", "")
    return len(compact) <= 4 and compact == compact.upper()


def _single_value(text: str) -> bool:
    """A date, time of day or e-mail address alone ("5 May 2026", "9:15 am"): compared with the judge's own
    value, not read as free text (a date some days after the request's "today" is not in the request)."""
    return any(read(text) is not None for read in (_calendar_date, _clock_minutes, _email))


def compared_with_own(probability: float, arguments: dict[str, Any], own: dict[str, Any], *, differs: bool = False
                      ) -> tuple[float, dict[str, float]]:
    """The judge's P(arguments fit) after comparing them with its own arguments for the call.

    Over the arguments both give: a number, true/false or other typed value (time, date, e-mail
    address, unit, list of strings, code: ``argument_agreement``) that differs halves the support (the
    judge, asked to fill the call itself, disagrees on a value a PASS/FAIL question lets through), as
    does ``differs`` (a value found wrong otherwise); when every one is equal (F1 ≥ 0.99 for text) the
    support moves half-way to 1; otherwise it is kept. Text that differs does not lower it ("LON" and
    "London" share no word). Chosen on the tune rows of tests/data/labelled/agent_arguments.jsonl
    (docs/agentic.md)."""
    compared = {key: argument_agreement(own[key], value) for key, value in arguments.items() if key in own}
    agreement = {key: round(similarity, 4) for key, (similarity, _) in compared.items()}
    if differs or any(kind != "text" and similarity == 0 for similarity, kind in compared.values()):
        return probability * OWN_MISMATCH_SCALE, agreement
    if compared and all(similarity >= 0.99 for similarity, _ in compared.values()):
        return probability + OWN_AGREE_LIFT * (1 - probability), agreement
    return probability, agreement


async def _judge_arguments(question: str, tool: str, description: str, arguments: dict[str, Any]) -> float:
    decision = await pass_fail(
        "You check the arguments of an agent's tool call. Reply FAIL or PASS.",
        f"User request: {question}\nTool: {tool}" + (f" — {description}" if description else "")
        + f"\nArguments: {json.dumps(arguments, ensure_ascii=False)}\n\nIf these arguments fit the "
        "user's request, reply PASS. If a value is wrong, missing or made up, reply FAIL.")
    return decision.probabilities["PASS"]


_NAME_PART = r"(?:the )?(?:tool |agent )?`?([\w-]+(?:\.[\w-]+)*)`?"
_RULES = (
    ("forbid_after", re.compile(rf"^(?:if|when) {_NAME_PART} is (?:called|used),? (?:do not|don't|never) (?:call|use) "
                                rf"{_NAME_PART}\.?$", re.IGNORECASE)),
    ("validate_before", re.compile(rf"^validate (?:the )?inputs? before {_NAME_PART}\.?$", re.IGNORECASE)),
    ("before", re.compile(rf"^(?:call |use )?{_NAME_PART} (?:must be called |must run |is called )?before "
                          rf"(?:calling |using )?{_NAME_PART}\.?$", re.IGNORECASE)),
    ("never", re.compile(rf"^(?:never|do not|don't) (?:call|use) {_NAME_PART}\.?$", re.IGNORECASE)),
    ("always", re.compile(rf"^(?:always|must) (?:call|use) {_NAME_PART}\.?$", re.IGNORECASE)),
)


def _called(names: list[str], wanted: str) -> list[int]:
    """Positions of calls whose name is ``wanted`` (case-insensitive; ``_``/``-``/space equivalent)."""
    key = wanted.lower().replace("-", "_").replace(" ", "_")
    return [i for i, n in enumerate(names) if n.lower().replace("-", "_").replace(" ", "_") == key]


def _parse_rule(rule: str) -> tuple[str, re.Match[str]] | None:
    text = " ".join(rule.split())
    for kind, pattern in _RULES:
        match = pattern.match(text)
        if match:
            return kind, match
    return None


def check_rule(rule: str, names: list[str]) -> dict[str, Any] | None:
    """Check a rule that the trace settles; None when the rule is not one of the known forms."""
    parsed = _parse_rule(rule)
    if parsed is None:
        return None
    kind, match = parsed
    if kind == "forbid_after":
        first, second = _called(names, match[1]), _called(names, match[2])
        ok = not (first and any(j > first[0] for j in second))
        why = f"{match[1]} then {match[2]} called" if not ok else "not violated"
    elif kind in ("before", "validate_before"):
        later = _called(names, match[1] if kind == "validate_before" else match[2])
        earlier = [i for i, n in enumerate(names) if "valid" in n.lower()] if kind == "validate_before" \
            else _called(names, match[1])
        ok = not later or bool(earlier and earlier[0] < later[0])
        why = "order respected" if ok else "the required earlier call did not come first"
    elif kind == "never":
        ok = not _called(names, match[1])
        why = "not called" if ok else f"{match[1]} was called"
    else:
        ok = bool(_called(names, match[1]))
        why = "called" if ok else f"{match[1]} was never called"
    return {"rule": rule, "method": "trace", "kind": kind, "passed": ok, "score": float(ok), "why": why}


def check_rule_unordered(rule: str, tools: list[str], agents: list[str]) -> dict[str, Any] | None:
    """``check_rule`` when the order between tool calls and agent calls is unknown (each list in order).

    The rule is checked on every interleaving of the two lists; a verdict they all share is the
    rule's, otherwise the rule is "order unknown" (``passed`` and ``score`` None); the verdict and
    its reason are those of the calls as listed. Only the calls the rule names matter, and whether
    the known forms hold in every interleaving depends only on the first call of each name and on
    whether some X can precede some Y: so each list is cut to the calls the rule names, a run of calls
    with the same role to its first, and the first three runs are kept — at most 20 interleavings
    (checked against all interleavings in tests/metrics/test_agent_rubric.py). None when the rule is
    not one of the known forms.
    """
    parsed = _parse_rule(rule)
    if parsed is None:
        return None
    kind, match = parsed
    roles = _rule_roles(kind, match)
    verdicts = {check_rule(rule, merged)["passed"] for merged in _interleavings(
        _relevant_calls(tools, roles), _relevant_calls(agents, roles))}
    settled = check_rule(rule, tools + agents)
    if len(verdicts) == 1:
        settled["why"] += " (whatever the order between tool and agent calls)"
        return settled
    return {"rule": rule, "method": "order unknown", "kind": kind, "passed": None, "score": None,
            "why": "the verdict depends on the order between tool calls and agent calls, which was not recorded"}


def _rule_roles(kind: str, match: re.Match[str]) -> Callable[[str], frozenset[str]]:
    """A function giving the roles (which of the rule's names) a call name plays."""
    named = [match[i] for i in range(1, (match.re.groups or 0) + 1)]

    def roles(name: str) -> frozenset[str]:
        found = {str(i) for i, wanted in enumerate(named) if _called([name], wanted)}
        if kind == "validate_before" and "valid" in name.lower():
            found.add("valid")
        return frozenset(found)

    return roles


def _relevant_calls(names: list[str], roles: Callable[[str], frozenset[str]], runs: int = 3) -> list[str]:
    """The calls that play a role in the rule, one per run of the same role, the first ``runs`` runs."""
    kept: list[str] = []
    last: frozenset[str] | None = None
    for name in names:
        role = roles(name)
        if not role or role == last:
            continue
        if len(kept) == runs:
            break
        kept.append(name)
        last = role
    return kept


def _interleavings(left: list[str], right: list[str]) -> list[list[str]]:
    """Every merge of two lists that keeps each list's order."""
    if not left or not right:
        return [left + right]
    return ([[left[0], *rest] for rest in _interleavings(left[1:], right)]
            + [[right[0], *rest] for rest in _interleavings(left, right[1:])])


@register("agent-llm-rubric", family="agentic", value="optional", needs=("output",),
          model="judge", example='{metric: agent-llm-rubric, value: ["If tool search is called, do not call '
                                  'agent writer", "validate input before tool pay"]}')
class AgentRubric(JudgedMetric):
    """The agent's run follows the user's rules (the value, else the case's ``rules``).

    Rules of known forms are checked on the trace's tool and agent calls, deterministically: "if X is
    called, do not call Y" (no Y after the first X), "X before Y" / "call X before calling Y", "validate
    input before Z" (a call whose name contains "valid" precedes the first Z), "never call X", "always
    call X". Other rules go to the judge with the calls, their arguments and the answer (one PASS/FAIL
    decision each, followed when P(PASS) ≥ 0.5). Score = mean over rules (a judged rule adds its
    P(PASS)); the case passes when every rule is followed, or, with a ``threshold``, when the score
    reaches it.

    When the order between tool calls and agent calls is unknown (separate arrays without
    ``trusys.events``, ``seq`` or ``timestamp``), a known-form rule is checked on every possible
    interleaving (``check_rule_unordered``): one verdict for all is kept, otherwise the rule is
    "order unknown" and left out of the score and the verdict; the judge sees the two lists apart and
    is told their interleaving was not recorded. Every rule order unknown → not measured.
    """

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        rules = self.value if self.value is not None else case.rules
        if isinstance(rules, str):
            rules = [rules]
        if not rules:
            return self.not_measured("no rules (give the metric a value or the case rules)")
        events = [e.payload for e in trace.events if e.type in ("tool_call", "agent_call")]
        names = [str(p.get("name")) for p in events]
        tools, agents = _call_names(trace)
        ordered = trace.order_known or not tools or not agents
        results = []
        for rule in rules:
            settled = check_rule(str(rule), names) if ordered else check_rule_unordered(str(rule), tools, agents)
            if settled is None:
                probability = await _judge_rule(str(rule), trace, outcome.output)
                settled = {"rule": rule, "method": "judge", "score": round(probability, 4),
                           "passed": probability >= 0.5}
            results.append(settled)
        counted = [r for r in results if r["score"] is not None]
        unknown = [r["rule"] for r in results if r["score"] is None]
        if not counted:
            return self.not_measured("order unknown for every rule: the reply's tool calls and agent calls came in "
                                     f"separate arrays ({trace.metadata.get('order_basis')})")
        score = sum(r["score"] for r in counted) / len(counted)
        broken = [r["rule"] for r in counted if not r["passed"]]
        passed = not broken if self.threshold is None else score >= self.threshold
        reason = f"{len(counted) - len(broken)}/{len(counted)} rules followed"
        if broken:
            reason += f"; broken: {'; '.join(map(str, broken))}"
        if unknown:
            reason += f"; order unknown: {'; '.join(map(str, unknown))}"
        detail: dict[str, Any] = {"rules": results}
        if not ordered:
            detail.update(order="unknown", order_basis=trace.metadata.get("order_basis"))
        return self.result(score, passed=passed, reason=reason, detail=detail)


def _call_line(payload: dict[str, Any], limit: int) -> str:
    arguments = payload.get("arguments", payload.get("input", {}))
    return f"{payload.get('name')}({json.dumps(arguments, ensure_ascii=False, default=str)[:limit]})"


def _call_result(payload: dict[str, Any], limit: int) -> str:
    return str(payload.get("output", payload.get("error", "")))[:limit]


def _call_groups(trace) -> list[tuple[str, list[Any]]]:
    """The trace's calls for a judge prompt: (heading, events) — one ordered list, or one list per
    kind when the order between tool calls and agent calls is unknown."""
    calls = [e for e in trace.events if e.type in ("tool_call", "agent_call")]
    tools = [e for e in calls if e.type == "tool_call"]
    agents = [e for e in calls if e.type == "agent_call"]
    if trace.order_known or not tools or not agents:
        return [("Calls, in order", calls)]
    return [("Tool calls, in order", tools), ("Agent calls, in order", agents)]


async def _judge_rule(rule: str, trace, output: str | None) -> float:
    groups = _call_groups(trace)
    parts = [f"{heading}:\n" + ("\n".join(f"- {_call_line(e.payload, 200)}" for e in events) or "(no calls)")
             for heading, events in groups]
    if len(groups) > 1:
        parts.append(_ORDER_NOTE)
    decision = await pass_fail(
        "You check whether an agent followed a rule. Reply FAIL or PASS.",
        "\n".join(parts) + f"\nFinal answer: {output or ''}\n\nRule: {rule}\n\n"
        "If the agent followed the rule, reply PASS. If it broke the rule, reply FAIL.")
    return decision.probabilities["PASS"]


def agent_transcript(case: Any, trace: Any, outcome: Any, tools: Any = None) -> str:
    """The run as the judge sees it: request, plan, calls with arguments and outputs, the available
    tools (``tools``, else the case's), final answer.

    The calls are one ordered list, or, when the order between tool calls and agent calls was not
    recorded, one list per kind with a note saying so."""
    lines = [f"User request: {outcome.query or case.query}"]
    plan = outcome.plan if outcome.plan is not None else case.plan
    if plan:
        lines.append("Plan:\n" + "\n".join(f"{i}. {step}" for i, step in enumerate(plan, 1)))
    groups = [(heading, events) for heading, events in _call_groups(trace) if events]
    for heading, events in groups:
        rendered = [f"- {e.type.replace('_call', '')} {_call_line(e.payload, 300)} -> {_call_result(e.payload, 300)}"
                    for e in events]
        lines.append(f"{heading}:\n" + "\n".join(rendered))
    if len(groups) > 1:
        lines.append(_ORDER_NOTE)
    available = sorted(_available_tool_names(tools if tools is not None else case.tools))
    if available:
        lines.append(f"Available tools: {', '.join(available)}")
    lines.append(f"Final answer: {outcome.output}")
    return "\n".join(lines)


def unrecovered_failures(calls: list[dict[str, Any]]) -> list[str]:
    """Names of the failed calls the run never recovered from: no later call of the same tool succeeded."""
    return [str(call.get("name")) for i, call in enumerate(calls) if tool_call_failed(call)
            and not any(later.get("name") == call.get("name") and not tool_call_failed(later)
                        for later in calls[i + 1:])]


_ADMITS_FAILURE = re.compile(
    r"\b(?:could ?n[o'’]t|can ?n[o'’]t|cannot|unable|fail(?:ed|s|ure)?|errors?|unsuccessful|unfortunately|went wrong"
    r"|did ?n[o'’]t (?:go through|work|succeed)|no such|does ?n[o'’]t exist"
    r"|(?:(?:was|were|is|are|has|have) ?n[o'’]t|not) (?:been )?(?:able|possible|created|booked|sent|placed|completed"
    r"|done|processed|found|saved|updated))\b", re.IGNORECASE)


def admits_failure(text: str) -> bool:
    """The text tells the user something did not work ("couldn't", "failed", "was not booked", "no such …")."""
    return _ADMITS_FAILURE.search(text) is not None


def claimed_success_after_failure(trace, outcome) -> list[str]:
    """The failed calls the run never recovered from, when the final answer does not admit any failure:
    the agent reports success for work that did not happen. Empty when there are none or the answer
    says something did not work (then whether the run did the job is the judge's to decide)."""
    failed = unrecovered_failures(tool_calls_of(trace, outcome))
    return failed if failed and not admits_failure(outcome.output or "") else []


class _AgentJudgement(JudgedMetric):
    """One judge decision about the whole run over its transcript. With ``statement`` set, the judge
    is asked whether that statement about the run is true (yes/no) and the score is P(yes); otherwise
    it is asked the PASS/FAIL ``question`` and the score is P(PASS). With ``fails_unadmitted_failure``,
    a run whose failed call was never retried successfully while its answer admits no failure scores 0
    without a judge call (``claimed_success_after_failure``). With ``checks_goal_call``, a run that
    never made the request's goal call (``halve_without_goal_call``) has its score halved. With
    ``checks_values``, an answer stating values the run never saw (``halve_unsupported_values``) has
    its score halved."""

    question: ClassVar[str] = ""
    statement: ClassVar[str | None] = None  # true of the run means PASS; replaces ``question`` when set
    judged: ClassVar[str] = ""  # what a PASS says, for the reason: "the agent completed the request"
    requires: ClassVar[str | None] = None  # "plan" or "tool_calls"
    fails_unadmitted_failure: ClassVar[bool] = False
    checks_goal_call: ClassVar[bool] = False
    checks_values: ClassVar[bool] = False

    def setup(self) -> None:
        self._check_goal_call = self.checks_goal_call and goal_call_option(self.name, self.config)
        self._check_values = self.checks_values and switch(self.config, "check_values", True, self.name)

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        if self.requires == "plan" and not (outcome.plan or case.plan):
            return self.not_measured("no plan (return trusys.plan or set the case's plan)")
        if self.requires == "tool_calls" and not trace.of_type("tool_call"):
            return self.not_measured("no tool calls")
        if self.fails_unadmitted_failure and (failed := claimed_success_after_failure(trace, outcome)):
            return self.result(0.0, reason=unadmitted_failure_reason(failed),
                               detail={"method": "code", "unrecovered_failures": failed})
        transcript = agent_transcript(case, trace, outcome, self.config.get("tools"))
        if self.statement:
            question = f"Statement: {self.statement}\nIs the statement true?"
            decision = await current_judge().decide(JudgeRequest.yes_no(
                "You check whether statements about an AI agent's run are true. Answer yes or no.",
                f"{transcript}\n\n{question}"))
            score = decision.probabilities["yes"]
        else:
            question = self.question
            decision = await pass_fail("You evaluate an AI agent's run. Reply FAIL or PASS.",
                                       f"{transcript}\n\n{question}")
            score = decision.probabilities["PASS"]
        reason = f"P(pass) = {score:.3f} that {self.judged}"
        detail = {"judge": decision.to_detail(), "question": question}
        if self._check_goal_call:
            score, reason, detail["goal_call"] = await halve_without_goal_call(
                outcome.query or case.query, self.config.get("tools", case.tools), tool_calls_of(trace, outcome),
                score, reason)
        if self._check_values:
            calls = [*tool_calls_of(trace, outcome),
                     *(outcome.agent_calls or [e.payload for e in trace.of_type("agent_call")])]
            score, reason, detail["unsupported_values"] = halve_unsupported_values(
                outcome.output or "", outcome.query or case.query or "", calls, context_of(case, outcome) or [],
                score, reason)
        return self.result(score, reason=reason, detail=detail)


UNSUPPORTED_VALUE_FACTOR = 0.5


def halve_unsupported_values(answer: str, request: str, calls: list[dict[str, Any]], passages: list[str],
                             score: float, reason: str) -> tuple[float, str, list[str]]:
    """``_grounding.unsupported_values`` of the final answer against the request, the context passages
    and the calls (tool and agent calls); when there are any, the score halved
    (``UNSUPPORTED_VALUE_FACTOR``) with the reason extended: (score, reason, the unsupported values)."""
    unsupported = unsupported_values(answer, "\n".join([request, *passages]), calls)
    if unsupported:
        score *= UNSUPPORTED_VALUE_FACTOR
        reason += (f"; halved: the final answer states {', '.join(repr(v) for v in unsupported)}, which no call "
                   "returned or was given and neither the request nor the context says")
    return score, reason, unsupported


def unadmitted_failure_reason(failed: list[str]) -> str:
    """The reason given when a run claims success after calls that failed for good."""
    return (f"{', '.join(dict.fromkeys(failed))} failed and was never retried successfully, but the final answer "
            "does not say that anything went wrong")


@register("task-completion", family="agentic", threshold=0.4, model="judge", example="{metric: task-completion}")
class TaskCompletion(_AgentJudgement):
    """Did the agent complete the user's task? One judge decision over the request, the calls (with
    arguments and results) and the final answer: the judge is asked whether the statement "the agent
    completed every part of the request: each call it relied on succeeded, and nothing asked for was
    left undone" is true of the run (yes/no); score = P(yes).

    First, by code: a run with a failed call that was never retried successfully, whose final answer
    admits no failure ("couldn't", "failed", "was not booked", …), scores 0 without a judge call — it
    claims work that did not happen. An answer that admits the failure goes to the judge.

    Then the goal call (``goal_call_check``): the judge plans the calls the request needs, and when the
    run never made the plan's last call successfully — it looked up the slots but booked nothing — the
    score is halved (``config.check_goal_call: false`` turns this off; it needs the case's ``tools`` or
    ``config.tools`` and costs one generation per request). Pass mark 0.4, the best round mark with the
    check on the tune split of tests/data/labelled/agent_runs.jsonl (docs/agentic.md): the small
    judge's P(yes) for complete runs sits at 0.6–0.7 and it passes half of the runs that leave a
    requested action undone, which the check halves below the mark."""

    judged = "the agent fully completed the user's request"
    fails_unadmitted_failure = True
    checks_goal_call = True
    statement = ("The agent completed every part of the user's request: each call it relied on "
                 "succeeded, and nothing the user asked for was left undone.")


@register("goal-fulfillment", family="agentic", threshold=0.6, model="judge", example="{metric: goal-fulfillment}")
class GoalFulfillment(_AgentJudgement):
    """Does the final answer give the user what they were after (the goal behind the request), judged
    over the whole run? One judge decision over the request, the calls (with arguments and results)
    and the final answer: the judge is asked whether the statement "everything the final answer tells
    the user is true according to the call results: every action it says was done really succeeded,
    every name, time and number matches the calls, and it gives the user all they asked for" is true
    of the run (yes/no); score = P(yes).

    First, by code, as for task-completion: a failed call never retried successfully, with a final
    answer that admits no failure, scores 0 without a judge call. Then, as for task-completion, the
    score is halved when the run never made the request's goal call (``goal_call_check``;
    ``config.check_goal_call: false`` turns it off). Then, by code, the score is halved when the final
    answer states a time, date, number, name, channel or address that no call returned or was given
    and neither the request nor the context says ("posted to #general" after a call that posted to
    #investing; ``_grounding.unsupported_values``; ``config.check_values: false`` turns it off).
    Pass mark 0.6, the best round mark with the goal call checked on the tune split of
    tests/data/labelled/agent_runs.jsonl (docs/agentic.md), unchanged by the values check: the small
    judge's P(yes) is mostly 0.6–0.78 for good and bad runs alike (medians 0.71 and 0.69 there), so the
    mark is a narrow cut."""

    judged = "the final answer gives the user what they wanted"
    fails_unadmitted_failure = True
    checks_goal_call = True
    checks_values = True
    statement = ("Everything the final answer tells the user is true according to the call results: every "
                 "action it says was done really succeeded, every name, time and number matches the calls, "
                 "and it gives the user all they asked for.")


def _tool_lines(specs: dict[str, dict[str, Any]]) -> str:
    """The available tools for a judge prompt: name, description and argument names, one per line."""
    lines = []
    for name, spec in specs.items():
        properties = (spec.get("parameters") or {}).get("properties") or {}
        lines.append(f"- {name}" + (f": {spec['description']}" if spec.get("description") else "")
                     + (f" (arguments: {', '.join(properties)})" if properties else ""))
    return "\n".join(lines)


MAX_PLANNED_CALLS = 12  # the plan's length bound: a judge that repeats a call without end still closes its JSON


async def _judge_plan(question: str, specs: dict[str, dict[str, Any]]) -> list[str] | None:
    """The tool calls the judge would make for the request, in order: names of the available tools only
    (its JSON output is constrained to them); None when the reply is not the requested JSON."""
    return await _listed_calls(
        "You plan the tool calls an agent needs. Reply with JSON only.",
        f"User request: {question}\nAvailable tools:\n{_tool_lines(specs)}\n\nList, in order, the tool "
        "calls needed to carry out the request: one entry per call (a tool called for two things is "
        "listed twice), none that the request does not need.", specs)


async def _judge_plan_calls(question: str, plan: list[Any], specs: dict[str, dict[str, Any]]) -> list[str] | None:
    """The tool calls the agent's plan makes, in the plan's order, as the judge reads the whole plan
    (JSON constrained to the available tools' names); None when the reply is not the requested JSON."""
    steps = "\n".join(f"{i}. {step}" for i, step in enumerate(plan, 1))
    return await _listed_calls(
        "You turn an agent's plan into the tool calls it makes. Reply with JSON only.",
        f"User request: {question}\nAvailable tools:\n{_tool_lines(specs)}\n\nPlan:\n{steps}\n\nList, in the "
        "plan's order, the tool calls that carrying out this plan makes: one entry per call (a step that calls "
        "a tool twice is listed twice); a step that calls no tool, such as telling the user, is left out.", specs)


async def _listed_calls(system: str, user: str, specs: dict[str, dict[str, Any]]) -> list[str] | None:
    """One generation of ``{"calls": [tool name, …]}`` (JSON constrained to the tools' names, at most
    MAX_PLANNED_CALLS), parsed; None when the reply is not the requested JSON."""
    schema = {"type": "object", "required": ["calls"], "properties": {"calls": {
        "type": "array", "items": {"enum": list(specs)}, "maxItems": MAX_PLANNED_CALLS}}}
    text, _, _ = await current_judge().generate(JudgeRequest((("system", system), ("user", user)),
                                                             max_tokens=200, json_schema=schema))
    try:
        calls = json.loads(text)["calls"]
    except (ValueError, KeyError, TypeError):
        return None
    return [str(c) for c in calls] if isinstance(calls, list) else None


GOAL_CALL_MISSED_FACTOR = 0.5


def goal_call_option(metric: str, config: dict[str, Any]) -> bool:
    """``config.check_goal_call`` (default true), validated."""
    return switch(config, "check_goal_call", True, metric)


async def halve_without_goal_call(request: str, tools: Any, calls: list[dict[str, Any]], score: float,
                                  reason: str) -> tuple[float, str, dict[str, Any]]:
    """``goal_call_check``, then the score halved (``GOAL_CALL_MISSED_FACTOR``) with the reason extended
    when the goal call was not made: (score, reason, the check for the detail)."""
    check = await goal_call_check(request, tools, calls)
    if check.get("made") is False:
        score *= GOAL_CALL_MISSED_FACTOR
        reason += (f"; halved: the request's goal call {check['goal_call']} (the last call of the judge's plan) "
                   "was never made successfully")
    return score, reason, check


async def goal_call_check(request: str, tools: Any, calls: list[dict[str, Any]]) -> dict[str, Any]:
    """Whether the run made the request's goal call.

    The judge plans the tool calls the request needs (``_judge_plan``: the plan tool-selection-quality
    scores against, one generation cached per request and tool list); its last call is the one the
    request is for — the booking, the message, the order after the lookups, or the lookup whose result
    a question asks for. ``made`` is whether the run called that tool with a call that did not fail.

    Returns ``{"plan", "goal_call", "made"}``, or ``{"skipped": reason}`` without available tools or
    without a readable, non-empty plan (then nothing is checked).
    """
    specs = _tool_specs(tools)
    if not specs:
        return {"skipped": "no available tools to plan with (set the case's tools or config.tools)"}
    planned = await _judge_plan(request, specs)
    if not planned:
        return {"skipped": "the judge's plan of tool calls was empty or not the requested JSON"}
    goal = planned[-1]
    made = any(call.get("name") == goal and not tool_call_failed(call) for call in calls)
    return {"plan": planned, "goal_call": goal, "made": made}


def effective_calls(calls: list[dict[str, Any]]) -> list[str]:
    """Names of the calls that count for tool selection: a failed call retried later (the same tool called
    again) is the retry's, not a second choice of that tool."""
    return [str(call.get("name")) for i, call in enumerate(calls)
            if not (tool_call_failed(call) and any(later.get("name") == call.get("name") for later in calls[i + 1:]))]


def multiset_f1(planned: list[str], used: list[str]) -> float:
    """F1 of two lists of tool names counted with repeats: 2·|shared| / (|planned| + |used|)."""
    shared = sum((Counter(planned) & Counter(used)).values())
    return 2 * shared / (len(planned) + len(used)) if shared else 0.0


@register("tool-selection-quality", family="agentic", threshold=0.85, model="judge",
          example="{metric: tool-selection-quality}")
class ToolSelectionQuality(JudgedMetric):
    """Were the right tools chosen for the request, as many times as needed and no more?

    Algorithm: the judge plans the calls itself — given the request and the available tools (the
    case's ``tools`` or ``config.tools``), it lists the tool calls the request needs, in order, as
    JSON constrained to the tools' names (one generation, cached per request and tool list). The
    score is the F1 of that plan against the agent's calls, tool names counted with repeats
    (``multiset_f1``), after dropping a failed call that the agent retried with the same tool. The
    detail lists the judge's plan, the calls counted, and the tools missing or extra. Pass mark 0.85,
    chosen on the tune split of tests/data/labelled/agent_runs.jsonl (docs/agentic.md): asked PASS/FAIL
    about the run, the 1.5B judge was at chance (AUC 0.456); asked to plan, it agrees with right runs
    more than with runs that use a wrong tool, miss a call or add one (AUC 0.705). No tool calls, or no
    list of available tools → not measured; a plan that is not the requested JSON → an error.
    """

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        calls = tool_calls_of(trace, outcome)
        if not calls:
            return self.not_measured("no tool calls")
        specs = _tool_specs(self.config.get("tools", case.tools))
        if not specs:
            return self.not_measured("no available tools to choose from (set the case's tools or config.tools)")
        planned = await _judge_plan(outcome.query or case.query, specs)
        if planned is None:
            raise JudgeOutputError("the judge's plan of tool calls was not the requested JSON")
        used = effective_calls(calls)
        score = multiset_f1(planned, used)
        missing = list((Counter(planned) - Counter(used)).elements())
        extra = list((Counter(used) - Counter(planned)).elements())
        reason = f"{score:.3f} F1 of the calls against the judge's plan"
        if missing or extra:
            reason += "; " + "; ".join(part for part in (f"not called: {', '.join(missing)}" if missing else "",
                                                         f"not planned: {', '.join(extra)}" if extra else "") if part)
        return self.result(score, reason=reason, detail={"method": "judge plan", "judge_plan": planned,
                                                         "calls": used, "missing": missing, "extra": extra})


@register("plan-quality", family="agentic", threshold=0.5, model="judge", example="{metric: plan-quality}")
class PlanQuality(_AgentJudgement):
    """Is the plan a sound, complete and efficient way to do the request? Score = P(PASS); no plan →
    not measured."""

    judged = "the plan is a sound, complete and efficient way to do the request"
    question = ("If the plan is a sound, complete and efficient way to do the user's request, reply PASS. "
                "If steps are missing, wrong or pointless, reply FAIL.")
    requires = "plan"


@register("reasoning-coherence", family="agentic", threshold=0.7, model="judge",
          example="{metric: reasoning-coherence}")
class ReasoningCoherence(_AgentJudgement):
    """Does the final answer follow from the calls' results? One judge decision over the request, the
    calls (with arguments and results) and the final answer: the judge is asked whether the statement
    "the final answer follows from the call results: each name, time and number it gives is what the
    results say, and what it concludes from them (an overlap, a comparison, a total) is correct" is
    true of the run (yes/no); score = P(yes). Then, by code, the score is halved when the final answer
    states a time, date, number, name, channel or address that no call returned or was given and neither
    the request nor the context says (``_grounding.unsupported_values``; ``config.check_values: false``
    turns it off). Pass mark 0.7, the best round mark on the tune split of
    tests/data/labelled/agent_runs.jsonl (docs/agentic.md), unchanged by the values check: the small
    judge's P(yes) is mostly 0.64–0.75 for sound and flawed runs alike (medians 0.72 and 0.69 there),
    so the mark is a narrow cut."""

    judged = "the final answer follows from the call results"
    checks_values = True
    statement = ("The final answer follows from the call results: each name, time and number it gives is "
                 "what the results say, and what it concludes from them (an overlap, a comparison, a total) "
                 "is correct.")
