"""What one step of a template would build, estimated from its inputs and refused before it runs:
``%`` and ``str.format`` (read from the format as CPython reads it, field by field, in Jinja2's
sandboxed formatters), the ``str``/``bytes`` methods that grow or compare text (``join``, ``replace``,
``translate``, ``expandtabs``, the widths, the reverse searches), and the operators ``*`` and ``**``.
The sandbox of agentunit.core.templating calls these for every method call and operator."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import Any

from agentunit.core._template_budget import (
    _budget,
    _check_arguments,
    _check_size,
    _check_work,
    _limit_error,
    _max_chars,
    _spend_time,
    _text_size,
)

# Methods whose number arguments are widths of the text they return.
_WIDTH_METHODS = frozenset({"ljust", "rjust", "center", "zfill", "expandtabs", "to_bytes"})
# str methods whose time is the product of the text's and the argument's lengths.
_QUADRATIC_METHODS = frozenset({"strip", "lstrip", "rstrip", "rfind", "rindex", "rsplit", "rpartition"})


def _spec_number(digits: str | None) -> int:
    """A width or precision written in a format; more than 18 digits counts as above every limit."""
    if not digits:
        return 0
    return int(digits) if len(digits) <= 18 else 10**18


# After ``%`` (and a mapping key): flags, width (``*`` or digits), ``.`` precision, length modifier, conversion.
_PRINTF_REST = re.compile(r"[-+ #0]*(\*|\d*)(?:\.(\*|\d*))?[hlL]?(.?)", re.DOTALL)


def _printf_size(text: str, values: Any) -> int:
    """About how long ``text % values`` is, read from the format as CPython's ``%`` reads it.

    Each ``%`` conversion: an optional ``(key)`` (its parentheses nest), flags, a width and a precision
    (``*`` takes the next positional value), then its value — the next positional one, or ``values[key]``.
    A field is at least its width; a text field holds its value's text, cut to the precision; a number
    its digits plus the precision; ``%%`` one character. The fields and the text between them bound the
    result (exactly, for text fields).
    """
    positional = list(values) if isinstance(values, tuple) else [values]
    taken = 0

    def take() -> Any:
        nonlocal taken
        taken += 1
        return positional[taken - 1] if taken <= len(positional) else None

    limit = _max_chars()
    size, previous, start = 0, 0, text.find("%")
    while start != -1:
        size += start - previous  # the text before the conversion
        position, key = start + 1, None
        if text.startswith("(", position):
            depth, end = 1, position + 1
            while end < len(text) and depth:
                depth += {"(": 1, ")": -1}.get(text[end], 0)
                end += 1
            key, position = text[position + 1:end - 1], end
        spec = _PRINTF_REST.match(text, position)
        assert spec is not None  # every part of the pattern is optional
        width_text, precision_text, conversion = spec.groups()
        width = take() if width_text == "*" else _spec_number(width_text)
        precision = take() if precision_text == "*" else (
            None if precision_text is None else _spec_number(precision_text))
        width = abs(width) if isinstance(width, int) else 0
        precision = precision if isinstance(precision, int) and precision >= 0 else None
        if conversion != "%":
            value = values.get(key) if key is not None and isinstance(values, Mapping) else take()
            shown = _text_size(value)
            field = min(shown, precision) if conversion in "sra" and precision is not None else shown + (precision or 0)
            size += max(width, field)
            if size > limit:
                return size
        else:
            size += 1
        previous = spec.end()
        start = text.find("%", previous)
    return size + len(text) - previous


def _check_printf(text: Any, values: Any) -> None:
    """Refuse ``text % values`` (text or bytes, read as Latin-1) above MAX_RENDER_CHARS (_printf_size)."""
    if isinstance(text, (bytes, bytearray)):
        text = text.decode("latin-1")
    if isinstance(text, str):
        _check_size(_printf_size(text, values), "printf-style formatting")


# A standard format spec: [[fill]align][sign][z][#][0][width][grouping][.precision][type].
_FORMAT_SPEC = re.compile(r"(?:.?[<>=^])?[-+ ]?z?#?0?(\d*)[,_]?(?:\.(\d*))?.?", re.DOTALL)


def _format_field_size(value: Any, spec: str) -> int:
    """About how long ``format(value, spec)`` is: at least the width; a text cut to the precision, a
    number's digits plus the precision. A spec of another form counts its largest number as both."""
    match = _FORMAT_SPEC.fullmatch(spec)
    if match is not None:
        width, precision = _spec_number(match.group(1)), match.group(2)
        shown = _text_size(value)
        if precision is not None and isinstance(value, str):
            return max(width, min(shown, _spec_number(precision)))
        return max(width, shown + _spec_number(precision))
    largest = max((_spec_number(number) for number in re.findall(r"\d+", spec)), default=0)
    return _text_size(value) + 2 * largest + len(spec)


def _joined_size(separator: int, items: list[Any]) -> int:
    """The length of ``separator``-long text joined between the texts of ``items`` (stops above the limit)."""
    limit = _max_chars()
    size = separator * max(len(items) - 1, 0)
    for item in items:
        if size > limit:
            break
        size += _text_size(item, limit - size)
    return size


def _replaced_size(text: str, old: str, new: str, count: Any) -> int:
    """The length of ``text.replace(old, new, count)``: each occurrence (between every character for
    an empty ``old``) grows it by the difference."""
    found = len(text) + 1 if not old else text.count(old)
    if isinstance(count, int) and count >= 0:
        found = min(found, count)
    return len(text) + found * (len(new) - len(old))


def _check_method(method: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
    """Refuse a method call that would make text above MAX_RENDER_CHARS, or work above _MAX_WORK, from
    its arguments' sizes; the arguments to call it with (what ``join`` is given is read into a list first)."""
    name = getattr(method, "__name__", None)
    if name in _WIDTH_METHODS:
        _check_arguments(args, kwargs)
    text = getattr(method, "__self__", None)
    if not isinstance(text, (str, bytes)):
        return args
    if name == "join" and args:
        items = args[0] if isinstance(args[0], (list, tuple)) else list(args[0])
        _check_size(_joined_size(len(text), items), "join")
        return (items, *args[1:])
    if name == "replace" and len(args) >= 2 and isinstance(args[0], type(text)) and isinstance(args[1], type(text)):
        count = args[2] if len(args) > 2 else kwargs.get("count", -1)
        _check_size(_replaced_size(text, args[0], args[1], count), "replace")
    elif name == "translate" and args and isinstance(text, str):
        table = args[0]
        values = table.values() if isinstance(table, Mapping) else table if isinstance(table, (list, tuple)) else ()
        longest = max((len(v) for v in values if isinstance(v, str)), default=1)
        _check_size(len(text) * max(longest, 1), "translate")
    elif name == "expandtabs":
        tabsize = args[0] if args else kwargs.get("tabsize", 8)
        if isinstance(tabsize, int):
            _check_size(len(text) + text.count("\t" if isinstance(text, str) else b"\t") * max(tabsize, 0),
                        "expandtabs")
    elif name in _QUADRATIC_METHODS:
        argument = args[0] if args else kwargs.get("sep")  # only rsplit names its argument
        if isinstance(argument, (str, bytes)):
            _check_work(len(text) * len(argument), name)
    return args


def _check_repetition(left: Any, right: Any) -> None:
    """Refuse ``sequence * count`` (either way round) of more than MAX_RENDER_CHARS items, or a repeated
    list or tuple whose printed text would be (its text size times the count)."""
    for sequence, count in ((left, right), (right, left)):
        if isinstance(sequence, (str, bytes, list, tuple)) and isinstance(count, int):
            limit = _max_chars()
            if len(sequence) * count > limit:
                raise _limit_error(f"repetition would make {len(sequence) * count:,} items, above the template "
                                   f"limit of {limit:,}")
            if isinstance(sequence, (list, tuple)) and count > 0:
                _check_size(_text_size(sequence, limit // count + 1) * count, "repetition")


def _check_power(base: Any, exponent: Any) -> None:
    """Refuse an integer power of more than MAX_POWER_BITS bits (base bits times exponent)."""
    if isinstance(base, int) and isinstance(exponent, int) and abs(base) > 1 and exponent > 0 \
            and base.bit_length() * exponent > (limit := _budget.get().power_bits):
        raise _limit_error(f"a power of about {base.bit_length() * exponent:,} bits is above the template limit "
                           f"of {limit:,}")


def _check_product(left: Any, right: Any) -> None:
    """Refuse an integer product of more than about MAX_RENDER_CHARS digits (the factors' bits added)."""
    if isinstance(left, int) and isinstance(right, int) \
            and left.bit_length() + right.bit_length() > (limit := _budget.get().product_bits):
        raise _limit_error(f"a product of about {left.bit_length() + right.bit_length():,} bits is above the "
                           f"template limit of {limit:,}")


def _check_binop(operator: str, left: Any, right: Any) -> None:
    """The checks of the sandbox's intercepted operators, run before the operation."""
    if operator == "*":
        _check_repetition(left, right)
        _check_product(left, right)
    elif operator == "**":
        _check_power(left, right)
    elif operator == "%":
        _check_printf(left, right)


@lru_cache(maxsize=1)
def _formatters() -> tuple[type, type]:
    """Jinja2's sandboxed formatters for ``str.format``, each field bounded before it is formatted."""
    from jinja2.sandbox import SandboxedEscapeFormatter, SandboxedFormatter

    class _BoundedFields:
        _size = 0  # the output so far: the text between fields and each field's estimate
        _nested = 0  # inside a field's own spec ('{:{}}'), whose text and fields are no output
        _format = ""

        def vformat(self, format_string: str, args: Any, kwargs: Any) -> str:
            self._size, self._nested, self._format = 0, 0, format_string
            return super().vformat(format_string, args, kwargs)  # type: ignore[misc, no-any-return]

        def parse(self, format_string: str) -> Iterator[tuple[str, str | None, str | None, str | None]]:
            nested = format_string is not self._format
            self._nested += nested
            try:
                for literal, *field in super().parse(format_string):  # type: ignore[misc]
                    self._size += 0 if nested else len(literal)
                    yield (literal, *field)  # type: ignore[misc]
            finally:
                self._nested -= nested

        def convert_field(self, value: Any, conversion: str | None) -> Any:
            if conversion is not None:  # !r, !s, !a print the value
                _check_size(self._size + _text_size(value), "str.format")
            return super().convert_field(value, conversion)  # type: ignore[misc]

        def format_field(self, value: Any, format_spec: str) -> Any:
            _spend_time()
            size = _format_field_size(value, format_spec)
            if not self._nested:
                self._size += size
            _check_size(self._size if not self._nested else size, "str.format")
            return super().format_field(value, format_spec)  # type: ignore[misc]

    class _Formatter(_BoundedFields, SandboxedFormatter):
        pass

    class _EscapeFormatter(_BoundedFields, SandboxedEscapeFormatter):
        pass

    return _Formatter, _EscapeFormatter


def _str_format(environment: Any, method: Any) -> Any:
    """Jinja2's sandboxed ``str.format``/``format_map`` (SandboxedEnvironment.wrap_str_format) with the
    bounded formatters; None when ``method`` is neither."""
    import types

    from markupsafe import Markup

    if not isinstance(method, (types.MethodType, types.BuiltinMethodType)) \
            or method.__name__ not in ("format", "format_map") or not isinstance(method.__self__, str):
        return None
    text = method.__self__
    formatter_class, escape_formatter_class = _formatters()
    formatter = escape_formatter_class(environment, escape=text.escape) if isinstance(text, Markup) \
        else formatter_class(environment)
    is_format_map = method.__name__ == "format_map"

    def wrapper(*args: Any, **kwargs: Any) -> str:
        if is_format_map:
            if kwargs:
                raise TypeError("format_map() takes no keyword arguments")
            if len(args) != 1:
                raise TypeError(f"format_map() takes exactly one argument ({len(args)} given)")
            kwargs, args = args[0], ()
        return type(text)(formatter.vformat(text, args, kwargs))

    return functools.update_wrapper(wrapper, method)
