"""``transform:`` of a target's (or a case's) output: a Python expression over ``output``, or
``file://path.py:function``.

A transform is the suite author's code, like promptfoo's: it is written in the suite file (a cases
file is data, and cannot carry one) and checked when the suite loads. The model's output reaches it
only as the value of ``output`` — it is never compiled, evaluated or used as a format string.

An expression is compiled once in ``eval`` mode and runs with a small set of builtins (``len``,
``str``, ``int``, ``float``, ``min``, ``max``, ``sorted``, …) and ``json`` (``loads``, ``dumps``) and
``re`` (``search``, ``sub``, …) as plain functions — no ``__import__``, ``open``, ``eval``, ``getattr``.
Names and attributes starting with ``_`` (``output.__class__``) and ``format``/``format_map`` (which
read attributes through a format string) are refused when the suite loads. This keeps a typo from
reaching the file system; it is not a wall against the author, who can name a python target anyway.
"""

from __future__ import annotations

import ast
import builtins
import json
import re
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from agentunit.errors import AgentUnitError

DEFAULT_FUNCTION = "get_transform"  # promptfoo's name for a python file transform
SAFE_BUILTINS: dict[str, Any] = {name: getattr(builtins, name) for name in (
    "abs", "all", "any", "bool", "dict", "enumerate", "filter", "float", "int", "isinstance", "len", "list",
    "map", "max", "min", "reversed", "round", "set", "sorted", "str", "sum", "tuple", "zip")}
SAFE_BUILTINS.update({"True": True, "False": False, "None": None})
_JSON = SimpleNamespace(loads=json.loads, dumps=lambda value, **kw: json.dumps(value, ensure_ascii=False, **kw))
_RE = SimpleNamespace(search=re.search, match=re.match, fullmatch=re.fullmatch, sub=re.sub, findall=re.findall,
                      split=re.split, escape=re.escape, IGNORECASE=re.IGNORECASE, I=re.I, MULTILINE=re.MULTILINE,
                      M=re.M, DOTALL=re.DOTALL, S=re.S)
_REFUSED_ATTRIBUTES = frozenset({"format", "format_map"})


class TransformError(AgentUnitError):
    """A transform that cannot be loaded (a suite problem) or that failed on an output (a case error)."""

    def __init__(self, message: str, suggestion: str | None = None):
        super().__init__(message)
        self.suggestion = suggestion


@dataclass(frozen=True)
class Transform:
    """A compiled transform and the suite field it was written in (``targets[1].transform``)."""

    source: str
    field: str
    function: Any

    def apply(self, output: Any, context: dict[str, Any]) -> str:
        """The transformed output as text (objects and lists as JSON); raises TransformError naming the field."""
        try:
            value = self.function(output, context)
        except Exception as exc:  # the author's expression or function failed on this output
            raise TransformError(f"{self.field} failed: {type(exc).__name__}: {exc}") from None
        if value is None:
            raise TransformError(f"{self.field} returned None; return the new output as text")
        if isinstance(value, str):
            return value
        if isinstance(value, (dict, list, tuple)):
            try:
                return json.dumps(value, ensure_ascii=False)
            except (TypeError, ValueError) as exc:
                raise TransformError(f"{self.field} returned a value that is not JSON: {exc}") from None
        return str(value)


def load_transform(source: Any, field: str, base_dir: Path | None) -> Transform:
    """Compile an expression, or import ``file://path.py[:function]`` (relative to ``base_dir``).

    Raises TransformError with a one-line message (the caller locates it at ``field``).
    """
    if not isinstance(source, str) or not source.strip():
        raise TransformError(f"must be a Python expression over `output` or file://path.py:function, got "
                             f"{type(source).__name__ if not isinstance(source, str) else 'empty text'}")
    text = source.strip()
    if text.startswith("file://"):
        return Transform(text, field, _file_function(text[len("file://"):], base_dir))
    return Transform(text, field, _expression(text))


def _expression(text: str) -> Any:
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise TransformError(f"is not one Python expression: {exc.msg}",
                             "put longer code in a function: file://transform.py:function") from None
    for node in ast.walk(tree):
        name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
        if name is not None and name.startswith("_"):
            raise TransformError(f"may not use {name!r}: names starting with '_' are refused",
                                 "work on the text: output.strip(), json.loads(output)['answer'], …")
        if isinstance(node, ast.Attribute) and node.attr in _REFUSED_ATTRIBUTES:
            raise TransformError(f"may not call .{node.attr}() (it reads attributes through its format string)",
                                 "use an f-string or + instead")
    code = compile(tree, "<transform>", "eval")
    namespace = {"__builtins__": SAFE_BUILTINS, "json": _JSON, "re": _RE}

    def run(output: Any, context: dict[str, Any]) -> Any:
        return eval(code, namespace, {"output": output, "context": context})  # the author's code; output is a value

    return run


def _file_function(reference: str, base_dir: Path | None) -> Any:
    path_text, _, name = reference.partition(":")
    name = name or DEFAULT_FUNCTION
    path = Path(path_text)
    if not path.is_absolute() and base_dir is not None:
        path = base_dir / path
    if path.suffix != ".py":
        raise TransformError(f"file {path_text!r} is not a .py file")
    if not path.is_file():
        raise TransformError(f"file {path_text!r} not found (looked in {path.parent})")
    import importlib.util  # only for a transform read from a file

    spec = importlib.util.spec_from_file_location(f"agentunit_transform_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise TransformError(f"cannot load {path_text!r}")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as exc:  # the author's module may raise anything while it loads
        raise TransformError(f"cannot load {path_text!r}: {type(exc).__name__}: {exc}") from None
    function = getattr(module, name, None)
    if not callable(function):
        raise TransformError(f"{path_text!r} has no function {name!r}")
    return function


def transform_context(case: Any) -> dict[str, Any]:
    """What a transform sees besides ``output``: the case's ``vars``, ``prompt``, ``id`` and ``metadata``."""
    return {"vars": case.vars, "prompt": case.query, "id": case.id, "metadata": case.metadata}
