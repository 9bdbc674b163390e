"""Field checks for suite data: types, finite numbers in range, templates that compile.

A check is a function of the value that returns what is wrong ("must be a whole number ≥ 1, got 0")
or None; ``check_fields`` applies a table of them to an object and records one problem per bad
field, at that field's location. Numbers are finite (no NaN or infinity, nothing that overflows a
float) and whole numbers fit SQLite's 64-bit integers, because options and thresholds are stored.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from agentunit.core.templating import TemplateError, check_template
from agentunit.suite.problems import Problems

MAX_INTEGER = 2**63 - 1
Check = Callable[[Any], "str | None"]


def shown(value: Any) -> str:
    """A short description of a value for messages: ``nothing``, ``'abc'``, ``a 400-digit number``."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        if value.bit_length() <= 64:
            return str(value)
        if value.bit_length() <= 14_000:  # under Python's 4300-digit limit on int-to-text conversion
            return f"a {len(str(abs(value)))}-digit number"
        return f"a number of about {int(value.bit_length() * math.log10(2)) + 1} digits"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return repr(value[:40]) + ("…" if len(value) > 40 else "")
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"


def is_finite_number(value: Any) -> bool:
    """An int or float (not a bool) that converts to a finite float."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False


def integer(minimum: int | None = None, maximum: int = MAX_INTEGER) -> Check:
    """An integer in [minimum, maximum]."""
    low = f" ≥ {minimum}" if minimum is not None else ""
    high = f" and ≤ {maximum}" if maximum != MAX_INTEGER else ""

    def check(value: Any) -> str | None:
        if isinstance(value, bool) or not isinstance(value, int) or (minimum is not None and value < minimum) \
                or value > maximum or value < -MAX_INTEGER:
            return f"must be an integer{low}{high}, got {shown(value)}"
        return None

    return check


def number(minimum: float | None = None, maximum: float | None = None, *, above: float | None = None) -> Check:
    """A finite number ≥ minimum (or > above) and ≤ maximum."""
    bounds = [f"≥ {minimum:g}" if minimum is not None else "", f"> {above:g}" if above is not None else "",
              f"≤ {maximum:g}" if maximum is not None else ""]
    wanted = " and ".join(b for b in bounds if b)

    def check(value: Any) -> str | None:
        if not is_finite_number(value) or (minimum is not None and value < minimum) \
                or (above is not None and value <= above) or (maximum is not None and value > maximum):
            return f"must be a finite number{' ' + wanted if wanted else ''}, got {shown(value)}"
        return None

    return check


def boolean() -> Check:
    def check(value: Any) -> str | None:
        return None if isinstance(value, bool) else f"must be true or false, got {shown(value)}"

    return check


def text(*, nonblank: bool = False) -> Check:
    def check(value: Any) -> str | None:
        if not isinstance(value, str):
            return f"must be text, got {shown(value)}"
        if nonblank and not value.strip():
            return "must not be blank"
        return None

    return check


def template() -> Check:
    """Text that compiles as a template (nothing is rendered)."""

    def check(value: Any) -> str | None:
        if not isinstance(value, str):
            return f"must be text, got {shown(value)}"
        return _template_problem(value)

    return check


def json_template() -> Check:
    """JSON-like data (objects with text keys, lists, text, finite numbers, booleans, null) whose
    strings compile as templates; walked without recursion, so any depth is safe."""

    def check(value: Any) -> str | None:
        stack = [value]
        while stack:
            item = stack.pop()
            if isinstance(item, dict):
                if not all(isinstance(k, str) for k in item):
                    return "object keys must be text"
                stack.extend(item.values())
            elif isinstance(item, list):
                stack.extend(item)
            elif isinstance(item, str):
                problem = _template_problem(item)
                if problem:
                    return problem
            elif isinstance(item, (int, float)) and not isinstance(item, bool) and not is_finite_number(item):
                return f"must hold finite numbers only, got {shown(item)}"
            elif item is not None and not isinstance(item, (bool, int, float)):
                return f"must be JSON data, got {shown(item)}"
        return None

    return check


def _template_problem(value: str) -> str | None:
    try:
        check_template(value)
    except TemplateError as exc:
        return f"is not a valid template: {exc}"
    return None


def template_or_number() -> Check:
    """A template (text) or a finite number (argv items, header values)."""
    as_template = template()

    def check(value: Any) -> str | None:
        if is_finite_number(value):
            return None
        return as_template(value) if isinstance(value, str) else f"must be text or a number, got {shown(value)}"

    return check


def choice(*options: str) -> Check:
    def check(value: Any) -> str | None:
        if isinstance(value, str) and value in options:
            return None
        return f"must be one of {', '.join(options)}, got {shown(value)}"

    return check


def scalar() -> Check:
    """Text or a finite number (argv items, header and env values)."""

    def check(value: Any) -> str | None:
        if isinstance(value, str) or is_finite_number(value):
            return None
        return f"must be text or a number, got {shown(value)}"

    return check


def list_of(item: Check, what: str, *, nonempty: bool = False) -> Check:
    def check(value: Any) -> str | None:
        if not isinstance(value, list):
            return f"must be a list of {what}, got {shown(value)}"
        if nonempty and not value:
            return f"must be a non-empty list of {what}"
        for index, element in enumerate(value):
            problem = item(element)
            if problem:
                return f"item {index} {problem}"
        return None

    return check


def mapping(values: Check | None = None) -> Check:
    """An object with text keys (and values passing ``values``)."""

    def check(value: Any) -> str | None:
        if not isinstance(value, dict):
            return f"must be an object, got {shown(value)}"
        for key, element in value.items():
            if not isinstance(key, str):
                return f"keys must be text, got {shown(key)}"
            problem = values(element) if values is not None else None
            if problem:
                return f"{key!r} {problem}"
        return None

    return check


def by_type(what: str, **checks: Check) -> Check:
    """Dispatch on the value's JSON type (``text``, ``integer``, ``number``, ``list``, ``object``): the
    check for its type decides; a value of no listed type must be ``what``."""
    types = {"text": (str,), "integer": (int,), "number": (int, float), "list": (list,), "object": (dict,)}

    def check(value: Any) -> str | None:
        for name, inner in checks.items():
            if isinstance(value, types[name]) and not isinstance(value, bool):
                return inner(value)
        return f"must be {what}, got {shown(value)}"

    return check


def check_fields(data: Mapping[str, Any], schema: Mapping[str, Check], key_path: tuple[Any, ...],
                 problems: Problems, *, file: str | None = None, line: int | None = None) -> bool:
    """Apply ``schema`` to the fields of ``data`` that are present; True when all passed."""
    if len(data) < len(schema) and all(schema[key](data[key]) is None for key in data if key in schema):
        return True  # a few fields of a long schema, all good (a problem is recorded in schema order below)
    ok = True
    for key, check in schema.items():
        if key in data:
            problem = check(data[key])
            if problem:
                problems.error(f"{key} {problem}", (*key_path, key), file=file, line=line)
                ok = False
    return ok
