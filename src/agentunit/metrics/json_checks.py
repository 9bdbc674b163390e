"""JSON format metrics: is-json, contains-json, json-equals, array-length."""

from __future__ import annotations

import json
from typing import Any

from agentunit.errors import MetricConfigError
from agentunit.metrics._values import as_range, describe_range, in_range, iter_json_values, parse_json_value
from agentunit.metrics.base import Metric, MetricResult
from agentunit.metrics.registry import register

MAX_SCHEMA_ERRORS = 10


def compile_schema(schema: Any, what: str) -> Any:
    """A jsonschema validator for the schema's declared draft (2020-12 when it declares none)."""
    import jsonschema

    schema = parse_json_value(schema, what)
    if not isinstance(schema, (dict, bool)):
        raise MetricConfigError(f"{what} must be a JSON Schema object, got {type(schema).__name__}")
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    try:
        cls.check_schema(schema)
    except jsonschema.SchemaError as exc:
        raise MetricConfigError(f"{what} is not a valid JSON Schema: {exc.message}") from None
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def schema_errors(validator: Any, instance: Any) -> list[str]:
    """Every validation error as ``path: message``, sorted by path, at most MAX_SCHEMA_ERRORS."""
    errors = sorted(validator.iter_errors(instance), key=lambda e: [str(p) for p in e.absolute_path])
    out = []
    for error in errors[:MAX_SCHEMA_ERRORS]:
        path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path) or "$"
        out.append(f"{path.lstrip('.') if path != '$' else '$'}: {error.message}")
    if len(errors) > MAX_SCHEMA_ERRORS:
        out.append(f"… and {len(errors) - MAX_SCHEMA_ERRORS} more")
    return out


@register("is-json", family="format", value="optional", kind="binary",
          example="{metric: is-json, value: {type: object, required: [name]}}")
class IsJson(Metric):
    """Pass when the whole output parses as JSON (strict, no trimming of prose) and, when the value is
    a JSON Schema (object, or JSON/YAML text), validates against it; every schema error is listed."""

    def setup(self) -> None:
        self._validator = compile_schema(self.value, "is-json schema") if self.value is not None else None

    def evaluate(self, case, trace, outcome) -> MetricResult:
        try:
            parsed = json.loads(outcome.output)
        except ValueError as exc:
            return self.result(0.0, passed=False, reason=f"not valid JSON: {exc}")
        if self._validator is None:
            return self.result(1.0, passed=True, reason="valid JSON")
        errors = schema_errors(self._validator, parsed)
        if errors:
            return self.result(0.0, passed=False, reason="schema errors: " + "; ".join(errors),
                               detail={"errors": errors})
        return self.result(1.0, passed=True, reason="valid JSON matching the schema")


@register("contains-json", family="format", value="optional", kind="binary",
          example="{metric: contains-json, value: {type: object, required: [answer]}}")
class ContainsJson(Metric):
    """Pass when the output contains a JSON object or array (inline or in a fenced block) — with a
    schema value, when at least one embedded JSON value validates against it. The detail counts the
    blocks found; schema errors of the last block tried are listed."""

    def setup(self) -> None:
        self._validator = compile_schema(self.value, "contains-json schema") if self.value is not None else None

    def evaluate(self, case, trace, outcome) -> MetricResult:
        blocks = 0
        errors: list[str] = []
        for value in iter_json_values(outcome.output):
            blocks += 1
            if self._validator is None:
                return self.result(1.0, passed=True, reason="found embedded JSON", detail={"blocks": blocks})
            errors = schema_errors(self._validator, value)
            if not errors:
                return self.result(1.0, passed=True, reason=f"JSON block {blocks} matches the schema",
                                   detail={"blocks": blocks})
        if blocks == 0:
            return self.result(0.0, passed=False, reason="no JSON object or array in output", detail={"blocks": 0})
        return self.result(0.0, passed=False, detail={"blocks": blocks, "errors": errors},
                           reason=f"none of {blocks} JSON blocks matches the schema: " + "; ".join(errors))


@register("json-equals", family="format", value="required", kind="binary",
          example='{metric: json-equals, value: {status: ok, items: [1, 2]}}')
class JsonEquals(Metric):
    """Pass when the output parsed as JSON deep-equals the value (key order irrelevant; a string value
    is decoded as JSON first). ``1`` and ``1.0`` are equal; ``true`` and ``1`` are not."""

    def setup(self) -> None:
        self._expected = _decode_expected(self.value) if self.value is not None else None

    def evaluate(self, case, trace, outcome) -> MetricResult:
        expected = self._expected if self.value is not None else _decode_expected(case.expected_output)
        try:
            parsed = json.loads(outcome.output)
        except ValueError as exc:
            return self.result(0.0, passed=False, reason=f"output is not JSON: {exc}")
        diff = _first_difference(parsed, expected, "$")
        if diff is None:
            return self.result(1.0, passed=True, reason="JSON equal")
        return self.result(0.0, passed=False, reason=f"differs at {diff}", detail={"difference": diff})


@register("array-length", family="format", value="required", kind="binary",
          example="{metric: array-length, value: {min: 1, max: 5}}")
class ArrayLength(Metric):
    """Pass when the output's JSON array (the whole output, else the first array embedded in it) has
    exactly ``value`` items, or a count within ``{min, max}``."""

    def setup(self) -> None:
        self._bounds = as_range(self.value, "array-length value") if self.value is not None else None

    def evaluate(self, case, trace, outcome) -> MetricResult:
        bounds = self._bounds or as_range(case.expected_output, "array-length expected_output")
        array = _first_array(outcome.output)
        if array is None:
            return self.result(0.0, passed=False, reason="no JSON array in output")
        ok = in_range(len(array), bounds)
        return self.result(float(ok), passed=ok, detail={"length": len(array)},
                           reason=f"array of {len(array)} items (expected {describe_range(bounds)})")


def _decode_expected(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            raise MetricConfigError(f"json-equals value is not JSON: {value[:80]!r}") from None
    return value


def _first_array(text: str) -> list[Any] | None:
    try:
        whole = json.loads(text)
    except ValueError:
        whole = None
    if isinstance(whole, list):
        return whole
    return next((v for v in iter_json_values(text) if isinstance(v, list)), None)


def _first_difference(actual: Any, expected: Any, path: str) -> str | None:
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(set(expected) | set(actual)):
            if key not in actual:
                return f"{path}.{key} (missing)"
            if key not in expected:
                return f"{path}.{key} (unexpected)"
            diff = _first_difference(actual[key], expected[key], f"{path}.{key}")
            if diff:
                return diff
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        if len(actual) != len(expected):
            return f"{path} (length {len(actual)} ≠ {len(expected)})"
        for index, (a, e) in enumerate(zip(actual, expected, strict=True)):
            diff = _first_difference(a, e, f"{path}[{index}]")
            if diff:
                return diff
        return None
    if isinstance(actual, bool) != isinstance(expected, bool) or actual != expected:
        return f"{path} ({json.dumps(actual)[:40]} ≠ {json.dumps(expected)[:40]})"
    return None
