"""Helpers shared by metrics: reading list values, ranges and JSON embedded in text."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from agentunit.errors import MetricConfigError

MAX_JSON_SCAN_STARTS = 20_000  # bounds the work on pathological outputs such as "[[[[…"
JSON_WINDOW = 65_536
MAX_FULL_RETRIES = 20


def switch(config: dict[str, Any], key: str, default: bool, metric: str | None = None) -> bool:
    """``config[key]`` as a true/false switch, ``default`` when absent. Anything but a real boolean is
    an error: YAML's ``"false"`` is a string, and a string is true."""
    value = config.get(key, default)
    if not isinstance(value, bool):
        raise MetricConfigError(f"{metric + ' ' if metric else ''}config.{key} must be true or false, got {value!r}")
    return value


def as_text(value: Any) -> str:
    """A value as the text to compare with: strings as is, JSON for objects/arrays, ``str`` otherwise."""
    if isinstance(value, str):
        return value
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def as_list(value: Any, what: str = "value") -> list[str]:
    """A list value, or a string split CSV-style (``a, "b, c", d``); malformed quoting is an error."""
    if isinstance(value, list):
        items = [as_text(v) for v in value]
    elif isinstance(value, str):
        import csv  # only for a list written as text

        try:
            rows = list(csv.reader([value], skipinitialspace=True, strict=True))
        except csv.Error as exc:
            raise MetricConfigError(f"{what} {value!r} is not a valid comma-separated list: {exc}") from None
        items = rows[0] if rows else []
    elif value is None:
        items = []
    else:
        items = [as_text(value)]
    if not items:
        raise MetricConfigError(f"{what} needs at least one item")
    return items


def as_range(value: Any, what: str) -> tuple[float | None, float | None]:
    """An exact number ``n`` → (n, n); ``{min, max}`` (either optional) → (min, max)."""
    if isinstance(value, bool):
        raise MetricConfigError(f"{what} must be a number or {{min, max}}, got {value!r}")
    if isinstance(value, (int, float)):
        return float(value), float(value)
    if isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            raise MetricConfigError(f"{what} must be a number or {{min, max}}, got {value!r}") from None
        return number, number
    if isinstance(value, dict) and set(value) <= {"min", "max"} and value:
        low, high = value.get("min"), value.get("max")
        for bound in (low, high):
            if bound is not None and (isinstance(bound, bool) or not isinstance(bound, (int, float))):
                raise MetricConfigError(f"{what} bounds must be numbers, got {value!r}")
        if low is not None and high is not None and low > high:
            raise MetricConfigError(f"{what}: min {low} is greater than max {high}")
        return (None if low is None else float(low)), (None if high is None else float(high))
    raise MetricConfigError(f"{what} must be a number or {{min, max}}, got {value!r}")


def in_range(number: float, bounds: tuple[float | None, float | None]) -> bool:
    low, high = bounds
    return (low is None or number >= low) and (high is None or number <= high)


def describe_range(bounds: tuple[float | None, float | None]) -> str:
    low, high = bounds
    if low is not None and low == high:
        return f"{low:g}"
    if low is not None and high is not None:
        return f"{low:g}–{high:g}"
    return f"≥ {low:g}" if low is not None else f"≤ {high:g}"


_JSON_START = re.compile(r"[\[{]")
_STRUCTURE = re.compile(r'[\[\]{}"\\]')


def iter_json_values(text: str) -> Iterator[Any]:
    """Yield every JSON object or array embedded in text, in order, without overlaps.

    Algorithm: at each ``{`` or ``[`` (outside an already decoded value) try to decode a value; a
    success yields it and skips past it. Fenced blocks (```json …```) are found the same way. Work
    stays near-linear on hostile output: at most ``MAX_JSON_SCAN_STARTS`` starts are tried, each
    first within a 64 KB window (a failed decode costs the window, not the whole text — json's error
    object counts lines up to the failure), values larger than the window are retried on the full
    rest at most ``MAX_FULL_RETRIES`` times, and a run of openers too deep for the parser
    (``[[[[…``) is skipped as a whole.
    """
    decoder = json.JSONDecoder()
    position = 0
    full_retries = MAX_FULL_RETRIES
    for _ in range(MAX_JSON_SCAN_STARTS):
        match = _JSON_START.search(text, position)
        if match is None:
            return
        start = match.start()
        window = text[start:start + JSON_WINDOW]
        try:
            value, end = decoder.raw_decode(window)
        except RecursionError:
            position = _end_of_nesting(text, start)
            continue
        except ValueError:
            if len(window) < JSON_WINDOW or full_retries <= 0:
                position = start + 1
                continue
            full_retries -= 1
            try:
                value, end = decoder.raw_decode(text[start:])
            except (ValueError, RecursionError):
                position = start + 1
                continue
        yield value
        position = start + end


def _end_of_nesting(text: str, start: int) -> int:
    """Index just past the bracket group opened at ``start`` (string-aware), or the text's end."""
    depth = 0
    in_string = escaped = False
    for match in _STRUCTURE.finditer(text, start):
        char = match.group()
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            continue
        if char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
            if depth <= 0:
                return match.end()
    return len(text)


def parse_json_value(value: Any, what: str) -> Any:
    """A JSON-ish metric value: objects/arrays as given; strings decoded as JSON, else YAML."""
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except ValueError:
        pass
    import yaml

    try:
        return yaml.safe_load(value)
    except yaml.YAMLError as exc:
        raise MetricConfigError(f"{what} is neither JSON nor YAML: {exc}") from None
