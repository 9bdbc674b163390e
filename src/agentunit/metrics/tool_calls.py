"""Tool-call metrics read from the output or the envelope: is-valid-openai-tools-call, tool-call-f1,
finish-reason."""

from __future__ import annotations

import json
from typing import Any

from agentunit.errors import MetricConfigError
from agentunit.metrics._values import as_list, iter_json_values
from agentunit.metrics.base import Metric, MetricResult
from agentunit.metrics.registry import register

_FINISH_ALIASES = {"end_turn": "stop", "stop_sequence": "stop", "eos": "stop", "max_tokens": "length",
                   "max_output_tokens": "length", "tool_use": "tool_calls", "function_call": "tool_calls",
                   "safety": "content_filter", "recitation": "content_filter"}


def collect_tool_calls(output: str, envelope_calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Tool calls as ``{name, arguments}``: the envelope's when present, else those in the output JSON.

    Output shapes: OpenAI (``{tool_calls: [{function: {name, arguments}}]}`` or the bare list),
    Responses API (``{type: function_call, name, arguments}``), Anthropic (``{type: tool_use, name,
    input}``), Google (``{functionCall: {name, args}}``) and plain ``{name, arguments}`` — the whole
    output or JSON embedded in it.
    """
    if envelope_calls:
        return [_normalise(c) for c in envelope_calls]
    try:
        values = [json.loads(output)]
    except ValueError:
        values = list(iter_json_values(output))
    calls: list[dict[str, Any]] = []
    for value in values:
        calls += _calls_in(value)
    return calls


def _calls_in(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, list):
        return [c for item in value for c in _calls_in(item)]
    if not isinstance(value, dict):
        return []
    if isinstance(value.get("tool_calls"), list):
        return [c for item in value["tool_calls"] for c in _calls_in(item)]
    if isinstance(value.get("toolCall"), dict) and isinstance(value["toolCall"].get("functionCalls"), list):
        return [_normalise({"name": f.get("name"), "arguments": f.get("args")})
                for f in value["toolCall"]["functionCalls"] if isinstance(f, dict)]
    if isinstance(value.get("functionCall"), dict):
        return [_normalise({"name": value["functionCall"].get("name"), "arguments": value["functionCall"].get("args")})]
    if isinstance(value.get("function"), dict) or isinstance(value.get("name"), str):
        return [_normalise(value)]
    return []


def _normalise(call: dict[str, Any]) -> dict[str, Any]:
    function = call.get("function") if isinstance(call.get("function"), dict) else {}
    name = function.get("name", call.get("name"))
    arguments = function.get("arguments", call.get("arguments", call.get("input", call.get("args"))))
    return {"name": name, "arguments": arguments}


@register("tool-call-f1", family="tools", value="required", threshold=1.0, needs=(),
          example="{metric: tool-call-f1, value: [get_weather, get_time], threshold: 0.5}")
class ToolCallF1(Metric):
    """F1 between the expected tool names (a list or a comma-separated string) and the names of the
    tools called (envelope ``tool_calls``, else tool calls in the output JSON); unordered sets, so
    order and repeats do not matter. Precision = |called ∩ expected| / |called|, recall =
    |called ∩ expected| / |expected|. An empty list (``value: []``) means no tool should be called:
    1 when none was, else 0. Default threshold 1.0 (exactly the expected set)."""

    def setup(self) -> None:
        self._expected = _tool_names(self.value, "tool-call-f1 value") if self.value is not None else None

    def evaluate(self, case, trace, outcome) -> MetricResult:
        expected = self._expected if self._expected is not None else _tool_names(case.expected_output,
                                                                                   "expected_output")
        called = {c["name"] for c in collect_tool_calls(outcome.output or "", outcome.tool_calls) if c["name"]}
        if not expected:
            ok = not called
            return self.result(float(ok), detail={"precision": float(ok), "recall": 1.0, "called": sorted(called),
                                                  "expected": []},
                               reason="no tool expected and none called" if ok else
                               f"no tool expected; called [{', '.join(sorted(called))}]")
        hits = len(expected & called)
        precision = hits / len(called) if called else 0.0
        recall = hits / len(expected)
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        return self.result(f1, detail={"precision": precision, "recall": recall, "called": sorted(called),
                                       "expected": sorted(expected)},
                           reason=f"F1 {f1:.3f} (precision {precision:.3f}, recall {recall:.3f}); "
                                  f"called [{', '.join(sorted(called)) or 'none'}]")


def _tool_names(value: Any, what: str) -> set[str]:
    """Expected tool names; an explicit empty list is the empty set ("no tool should be called")."""
    return set() if value == [] else set(as_list(value, what))


@register("is-valid-openai-tools-call", family="tools", value="optional", kind="binary", needs=(),
          example="{metric: is-valid-openai-tools-call, config: {tools: [{type: function, function: "
                  "{name: get_weather, parameters: {type: object, required: [city]}}}]}}")
class IsValidOpenAIToolsCall(Metric):
    """Pass when there is at least one tool call and every call names a tool of ``config.tools`` (else
    the metric value, else the case's ``tools``), in OpenAI's ``{type: function, function: {name,
    parameters}}`` form, with arguments that are JSON valid against that tool's ``parameters`` schema.
    Every problem is listed."""

    def setup(self) -> None:
        tools = self.config.get("tools", self.value)
        self._tools = _tool_schemas(tools) if tools is not None else None

    def evaluate(self, case, trace, outcome) -> MetricResult:
        from agentunit.metrics.json_checks import schema_errors

        tools = self._tools if self._tools is not None else _tool_schemas(case.tools) if case.tools else None
        if tools is None:
            raise MetricConfigError("is-valid-openai-tools-call needs tool schemas in config.tools or the case's tools")
        calls = collect_tool_calls(outcome.output or "", outcome.tool_calls)
        if not calls:
            return self.result(0.0, passed=False, reason="no tool calls found")
        problems = []
        for index, call in enumerate(calls):
            name = call["name"]
            if name not in tools:
                problems.append(f"call {index}: unknown tool {name!r}")
                continue
            arguments = call["arguments"]
            if isinstance(arguments, str):
                try:
                    arguments = json.loads(arguments) if arguments.strip() else {}
                except ValueError as exc:
                    problems.append(f"call {index} ({name}): arguments are not JSON: {exc}")
                    continue
            if arguments is None:
                arguments = {}
            problems += [f"call {index} ({name}): {e}" for e in schema_errors(tools[name], arguments)]
        if problems:
            return self.result(0.0, passed=False, reason="; ".join(problems), detail={"problems": problems})
        return self.result(1.0, passed=True, reason=f"{len(calls)} valid tool call(s)",
                           detail={"calls": [c["name"] for c in calls]})


def _tool_schemas(tools: Any) -> dict[str, Any]:
    from agentunit.metrics.json_checks import compile_schema

    if not isinstance(tools, list) or not tools:
        raise MetricConfigError("tools must be a non-empty list of {type: function, function: {name, parameters}}")
    schemas = {}
    for tool in tools:
        function = tool.get("function", tool) if isinstance(tool, dict) else None
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            raise MetricConfigError(f"tool {tool!r} has no function name")
        schemas[function["name"]] = compile_schema(function.get("parameters", {"type": "object"}),
                                                   f"parameters of tool {function['name']!r}")
    return schemas


def normalise_finish_reason(reason: str) -> str:
    key = reason.strip().lower()
    return _FINISH_ALIASES.get(key, key)


@register("finish-reason", family="tools", value="required", kind="binary", needs=(),
          example="{metric: finish-reason, value: stop}")
class FinishReason(Metric):
    """Pass when the model stopped for the expected reason (``stop``, ``length``, ``tool_calls``,
    ``content_filter``). Providers' spellings are normalised first (Anthropic ``end_turn`` → stop,
    ``max_tokens`` → length, ``tool_use`` → tool_calls; case-insensitive). Not measured when the target
    reports no finish reason."""

    def evaluate(self, case, trace, outcome) -> MetricResult:
        actual = outcome.finish_reason or trace.metadata.get("finish_reason")
        if not actual:
            return self.not_measured("the target reported no finish reason")
        expected = normalise_finish_reason(str(self.expected(case)))
        ok = normalise_finish_reason(str(actual)) == expected
        return self.result(float(ok), passed=ok, reason=f"finish reason {actual!r} (expected {expected!r})")
