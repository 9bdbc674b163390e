"""The ``python`` metric: the suite author's own check, an expression or function body over ``output``."""

from __future__ import annotations

import importlib.util
import json
import math
import re
import textwrap
from pathlib import Path
from typing import Any

from agentunit.errors import MetricConfigError
from agentunit.metrics.base import Metric, MetricResult
from agentunit.metrics.registry import register

_GLOBALS = {"json": json, "re": re, "math": math}


def _compile(source: str) -> Any:
    """An expression → ``lambda output, context: (expr)``; a body with ``return`` → a function."""
    if source.startswith("file://"):
        return _load_file_function(source[len("file://"):])
    is_body = "\n" in source.strip() or re.search(r"(^|\s)return\b", source) is not None
    code = ("def __check(output, context):\n" + textwrap.indent(textwrap.dedent(source), "    ")
            if is_body else f"def __check(output, context):\n    return ({source.strip()})")
    namespace: dict[str, Any] = dict(_GLOBALS)
    try:
        exec(compile(code, "<python metric>", "exec"), namespace)  # the suite author's own code
    except SyntaxError as exc:
        raise MetricConfigError(f"python metric does not compile: {exc.msg} (line {exc.lineno})") from None
    return namespace["__check"]


def _load_file_function(reference: str) -> Any:
    path, _, name = reference.partition(":")
    file = Path(path)
    if not file.is_file():
        raise MetricConfigError(f"python metric file {path!r} not found")
    spec = importlib.util.spec_from_file_location(f"agentunit_check_{file.stem}", file)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        raise MetricConfigError(f"cannot load {path!r}: {type(exc).__name__}: {exc}") from None
    name = name or "get_assert"
    function = getattr(module, name, None)
    if not callable(function):
        raise MetricConfigError(f"{path!r} has no function {name!r}")
    return function


@register("python", family="script", value="required", kind="score",
          example="{metric: python, value: \"len(output.split()) <= 50\"}")
class PythonCheck(Metric):
    """Run the suite author's Python check, in-process (trusted code from the suite, not model output).

    The value is an expression (``'Paris' in output``), a function body with ``return``, or
    ``file://path.py:function`` (default function ``get_assert``). It sees ``output`` and ``context``
    (``prompt``, ``vars``, ``expected_output``, ``context``, ``tool_calls``, ``metadata``) plus
    ``json``, ``re`` and ``math``. It returns a bool (pass/fail), a number (the score; passes when > 0,
    or ≥ ``threshold`` if set), a dict ``{pass, score, reason}``, or ``"true"``/``"false"``/JSON text —
    promptfoo's rules.
    """

    def setup(self) -> None:
        if not isinstance(self.value, str) or not self.value.strip():
            raise MetricConfigError("python metric value must be an expression, a function body or file://…")
        self._function = _compile(self.value)

    def evaluate(self, case, trace, outcome) -> MetricResult:
        context = {"prompt": case.query, "vars": case.vars, "expected_output": case.expected_output,
                   "context": outcome.context or case.context, "tool_calls": outcome.tool_calls,
                   "metadata": case.metadata, "id": case.id}
        return self._normalise(self._function(outcome.output, context))

    def _normalise(self, result: Any) -> MetricResult:
        if isinstance(result, str):
            text = result.strip()
            if text.lower() in ("true", "false"):
                result = text.lower() == "true"
            elif text.startswith("{"):
                result = json.loads(text)
            else:
                try:
                    result = float(text)
                except ValueError:
                    raise TypeError(f"python check returned text {text[:60]!r}") from None
        if isinstance(result, bool):
            return self.result(float(result), passed=result, reason=f"python check returned {result}")
        if isinstance(result, (int, float)):
            score = float(result)
            passed = score > 0 if self.threshold is None else score >= self.threshold
            return self.result(score, passed=passed, reason=f"python check scored {score:g}")
        if isinstance(result, dict) and ("pass" in result or "pass_" in result or "score" in result):
            passed = result.get("pass", result.get("pass_"))
            score = result.get("score")
            score = float(score) if isinstance(score, (int, float)) and not isinstance(score, bool) else \
                (1.0 if passed else 0.0)
            if passed is None:
                passed = score > 0 if self.threshold is None else score >= self.threshold
            elif self.threshold is not None and score < self.threshold:
                passed = False
            return self.result(score, passed=bool(passed), reason=str(result.get("reason") or
                                                                        f"python check scored {score:g}"),
                               detail={k: v for k, v in result.items() if k not in ("pass", "pass_", "score",
                                                                                      "reason")})
        raise TypeError(f"python check must return a bool, a number or {{pass, score, reason}}, "
                        f"got {type(result).__name__}")
