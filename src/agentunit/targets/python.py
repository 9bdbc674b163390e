"""Call a Python function (sync or async) as the system under test."""

from __future__ import annotations

import asyncio
import functools
import importlib
import inspect
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agentunit.datasets.base import DatasetCase
from agentunit.errors import AgentUnitError
from agentunit.targets.base import Reply, Target

_PASSABLE = ("prompt", "vars", "case", "context", "expected_output", "id")


class PythonTarget(Target):
    """``{type: python, function: "module:callable"}`` (or a callable, from the Python API).

    The function receives the keyword arguments it names among ``prompt``, ``vars``, ``case``,
    ``context``, ``expected_output`` and ``id``; a function with one other positional parameter gets
    the prompt. It returns text, an envelope dict (``{output, trusys}``) or an Outcome. Sync functions
    run in a worker thread so they do not block the event loop.
    """

    kind = "python"

    def __init__(self, spec: dict[str, Any], base_dir: Path | None = None):
        super().__init__(spec)
        function = spec["function"]
        self.function = function if callable(function) else load_callable(function, base_dir)
        self._is_async = inspect.iscoroutinefunction(self.function)
        self._kwargs, self._positional = _call_shape(self.function)

    def request(self, case: DatasetCase) -> dict[str, Any]:
        return {"prompt": case.query, "vars": case.vars, "id": case.id}

    async def send(self, case: DatasetCase, request: dict[str, Any]) -> Reply:
        available = {"prompt": case.query, "vars": case.vars, "case": case, "context": case.context,
                     "expected_output": case.expected_output, "id": case.id}
        kwargs = {k: available[k] for k in self._kwargs}
        args = (case.query,) if self._positional else ()
        if self._is_async:
            body = await self.function(*args, **kwargs)
        else:
            body = await asyncio.to_thread(self.function, *args, **kwargs)
        return Reply(body=body)

    def describe(self) -> dict[str, Any]:
        function = self.spec["function"]
        return {**super().describe(), "function": function if isinstance(function, str) else callable_name(function)}


def callable_name(function: Callable[..., Any]) -> str:
    """``module:qualname`` of a callable given from the Python API, for the stored target and the cache key.

    A callable object is named by its class, a builtin method by its type when it has no module, and a
    ``functools.partial`` by the function it wraps with its bound arguments (two partials of one function
    with other arguments are other targets: they must not share cached replies).
    """
    if isinstance(function, functools.partial):
        bound = [repr(a) for a in function.args] + [f"{k}={v!r}" for k, v in function.keywords.items()]
        return f"{callable_name(function.func)}({', '.join(bound)})"
    module = getattr(function, "__module__", None) or type(function).__module__
    name = getattr(function, "__qualname__", None) or type(function).__qualname__
    return f"{module}:{name}"


def _import_hint(module_name: str, exc: BaseException) -> str:
    """Where to look: the line of the module's own code that raised (one line, not the traceback),
    or where a module that was not found is looked for."""
    if isinstance(exc, ModuleNotFoundError) and exc.name and (module_name + ".").startswith(exc.name + "."):
        return " — the module is looked for in the working directory and the suite's folder"
    frames = traceback.extract_tb(exc.__traceback__)
    own = [f for f in frames if "importlib" not in f.filename and "<frozen" not in f.filename]
    if own:
        return f" (raised at {own[-1].filename}:{own[-1].lineno}) — fix the module, or run it alone to see why"
    return ""


def load_callable(spec: str, base_dir: Path | None = None) -> Callable[..., Any]:
    """Import ``module:attr`` (dotted attr allowed), looking in the cwd and the suite's folder."""
    module_name, _, attr = spec.partition(":")
    for folder in (Path.cwd(), base_dir):
        if folder is not None and str(folder) not in sys.path:
            sys.path.insert(0, str(folder))
    try:
        obj: Any = importlib.import_module(module_name)
    except (Exception, SystemExit) as exc:  # the module's own code may raise anything while it is imported
        raise AgentUnitError(f"cannot import module {module_name!r} for target function {spec!r}: "
                             f"{type(exc).__name__}: {exc}{_import_hint(module_name, exc)}") from None
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise AgentUnitError(f"module {module_name!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise AgentUnitError(f"{spec!r} is not callable")
    return obj


def _call_shape(function: Callable[..., Any]) -> tuple[list[str], bool]:
    try:
        params = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return [], True
    kwargs = [name for name in params if name in _PASSABLE]
    positional = [p for name, p in params.items()
                  if name not in _PASSABLE and p.default is p.empty
                  and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if not kwargs and not positional:
        return [], any(p.kind == p.VAR_POSITIONAL for p in params.values())
    return kwargs, bool(positional) and "prompt" not in kwargs
