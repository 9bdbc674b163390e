"""promptfoo's is-valid-openai-function-call: the output is one OpenAI function call whose arguments
are valid against the function's ``parameters`` schema."""

from __future__ import annotations

import json
from typing import Any

from agentunit.errors import MetricConfigError
from agentunit.metrics.base import Metric, MetricResult
from agentunit.metrics.registry import register


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
