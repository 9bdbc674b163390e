"""Jinja2 ``{{ name }}`` templates for prompts, bodies, headers and argv; ``${ENV}`` interpolation.

Only the suite's own fields are templates (the suite's ``prompt:``, inline cases, target fields);
text from case files is never compiled (see agentunit.suite.cases), except a promptfoo CSV
``__expected`` cell, which promptfoo renders over its row's vars. Every template renders in Jinja2's
immutable sandbox (no attribute starting with ``_``, no mutation of lists and dicts, no unsafe
callables) within one budget per render, enforced by the renderer, not by reading the template's
text. Each limit is a module constant:

- ``MAX_RENDER_CHARS`` bounds every text: the rendered text (streamed, so a runaway loop stops at the
  limit), the template's source, and every value the template builds. A step that could build more
  than its inputs is estimated from them and refused *before* it runs: ``*`` repetition, ``%`` and
  the ``format`` filter (each printf conversion's width, precision — ``*`` ones included — and
  value), ``str.format`` (field by field), ``join``, ``replace``, ``translate``, ``expandtabs``,
  ``indent``, ``wordwrap``, ``tojson``, ``~``, a macro's or block's text, printing a list or dict
  (``{{ [text] * 1000 }}``). Every result of a filter, call, operator and slice is measured after.
  Widths (``'x'.ljust(n)``, ``center``, ``indent``, ``zfill``) and the counts given to ``batch``,
  ``slice``, ``round``, ``truncate``, ``wordwrap`` and ``tojson`` are bounded to the same number. A
  text's size is its length; a container's, what ``str()`` would print, counted without printing it.
- ``MAX_BUILT_CHARS``: the text of all the values one render builds, together, so that many bounded
  values kept in a list (``range(10**5) | map('center', 10**6) | list``) stop early too.
- ``MAX_RENDER_SECONDS`` of CPU time (``time.thread_time``), checked at every filter, test, call,
  loop iteration, block, format field and wrapped paragraph: a template doing slow but bounded work
  many times ends with "took longer than the template budget".
- ``MAX_LOOP_ITERATIONS``: the iterations of every ``{% for %}`` (and recursive ``loop()``) of one
  render together; ``**`` results are bounded to ``MAX_POWER_BITS`` bits, products to about
  ``MAX_RENDER_CHARS`` digits; ``range`` to the sandbox's 100,000 items; recursion by Python's
  stack; a MemoryError is a TemplateError.
- One step whose time grows with the product of its inputs' lengths is bounded by that product
  (``_MAX_WORK``): ``wordwrap`` breaking long words, ``strip(chars)``/``trim``, the reverse searches
  (``rfind``, ``rsplit``, ``rpartition``), ``pprint`` of deep values; ``sum`` chains lists in one pass.

Every failure — syntax, undefined variable, security violation, a filter's TypeError, recursion,
a limit — is raised as TemplateError with a one-line message.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import itertools
import json
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Set, ValuesView
from functools import lru_cache
from typing import Any

from agentunit.errors import AgentUnitError

MAX_RENDER_CHARS = 1_000_000
MAX_LOOP_ITERATIONS = 1_000_000
MAX_POWER_BITS = 100_000
MAX_RENDER_SECONDS = 2.0
MAX_BUILT_CHARS = 50 * MAX_RENDER_CHARS
# What one step quadratic in its inputs may cost, as the product of their lengths (about 0.1 to 0.3 s of
# copying or comparing characters): textwrap copies a long word's rest once per line it breaks off, and
# strip(chars) and the reverse searches compare each character against the whole argument.
_MAX_WORK = 1_000_000_000
# pprint formats each nested container once per level above it: its work is text size times depth.
_MAX_PPRINT_WORK = 50_000_000
_MAX_PRODUCT_BITS = MAX_RENDER_CHARS * 10 // 3  # an integer of MAX_RENDER_CHARS digits

# A suite's ${NAME}: the environment variable NAME. $${NAME} is the text ${NAME} (as in Docker Compose).
ENV_REF = re.compile(r"(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
ESCAPED_ENV_REF = re.compile(r"\$(\$\{[A-Za-z_][A-Za-z0-9_]*\})")
_ENV_REF_OR_ESCAPED = re.compile(r"\$(\$)?\{([A-Za-z_][A-Za-z0-9_]*)\}")
_LOOP_FILTER = "agentunit_loop_budget"  # inserted around every loop's iterable when compiling
_CONCAT_FILTER = "agentunit_concat"  # replaces every ``~`` when compiling
_SLICE_FILTER = "agentunit_slice"  # inserted after every ``[a:b]`` when compiling (Jinja2 slices without getitem)


class TemplateError(AgentUnitError):
    """A template could not be compiled or rendered (syntax error, undefined variable, sandbox, limits)."""


class _OutOfTime(Exception):
    """The render spent its CPU time budget (reported on its own, not as the template's own error)."""


class _Budget:
    """What one render may still spend: loop iterations, characters of built values, and CPU time until
    ``deadline``."""

    __slots__ = ("built", "deadline", "loops", "next_look", "seconds")

    def __init__(self) -> None:
        self.loops = MAX_LOOP_ITERATIONS
        self.built = MAX_BUILT_CHARS
        self.seconds = MAX_RENDER_SECONDS
        self.deadline = time.thread_time() + self.seconds
        # Reading the thread's CPU clock costs about a microsecond; it cannot run faster than the
        # (cheap) wall clock, so it is read only once the CPU time left could have passed.
        self.next_look = time.perf_counter() + self.seconds


_budget: contextvars.ContextVar[_Budget] = contextvars.ContextVar("agentunit_template_budget")


@contextlib.contextmanager
def _budget_scope() -> Iterator[None]:
    token = _budget.set(_Budget())
    try:
        yield
    finally:
        _budget.reset(token)


def _spend_time() -> None:
    """Raise _OutOfTime once this render's thread has used its CPU seconds (no-op outside a render)."""
    budget = _budget.get(None)
    if budget is None:
        return
    now = time.perf_counter()
    if now < budget.next_look:
        return
    left = budget.deadline - time.thread_time()
    if left <= 0:
        raise _OutOfTime(f"template took longer than the template budget of {budget.seconds:g} s of CPU time "
                         "(agentunit.core.templating.MAX_RENDER_SECONDS)")
    budget.next_look = now + left


def is_template(text: str) -> bool:
    return "{{" in text or "{%" in text


def _limit_error(what: str) -> Exception:
    from jinja2.sandbox import SecurityError

    return SecurityError(what)


def _check_size(size: int, what: str) -> None:
    if size > MAX_RENDER_CHARS:
        raise _limit_error(f"{what} would make about {size:,} characters, above the template limit of "
                           f"{MAX_RENDER_CHARS:,}")


def _check_work(work: int, what: str, limit: int = _MAX_WORK) -> None:
    if work > limit:
        raise _limit_error(f"{what} would take about {work:,} steps, above the template limit of {limit:,}")


def _text_size(value: Any, limit: int = MAX_RENDER_CHARS) -> int:
    """About how many characters ``str(value)`` has, counted without building it; stops above ``limit``.

    A text counts its length; a number its digits; a list, tuple, set, dict (and its views) or
    namespace each item with its quotes and separator, walked with a stack. A container can hold one
    long text many times (``[text] * 1000``), so its length says nothing of what printing it makes;
    other objects print a short fixed form.
    """
    if isinstance(value, str):
        return len(value)
    if isinstance(value, int):
        return value.bit_length() * 3 // 10 + 2
    if not isinstance(value, (bytes, bytearray, Mapping, list, tuple, Set, ValuesView)) \
            and type(value).__name__ != "Namespace":
        return 24  # a float, None, an Undefined, a generator: a short fixed form
    from jinja2.utils import Namespace

    total, stack = 0, [value]
    while stack and total <= limit:
        item = stack.pop()
        if isinstance(item, (str, bytes, bytearray)):
            total += len(item) + 2
        elif isinstance(item, int):
            total += item.bit_length() * 3 // 10 + 2
        elif isinstance(item, Mapping):
            total += 2 + 4 * len(item)
            if total <= limit:
                stack.extend(item.keys())
                stack.extend(item.values())
        elif isinstance(item, (list, tuple, Set, ValuesView)):
            total += 2 + 2 * len(item)
            if total <= limit:
                stack.extend(item)
        elif isinstance(item, Namespace):
            stack.append(item._Namespace__attrs)
        else:
            total += 24  # a float, None, an Undefined, a generator: a short fixed form
    return total


def _depth(value: Any) -> int:
    """How deeply lists, tuples, sets and dicts nest in ``value`` (0 for anything else)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, Mapping):
            items: Iterable[Any] = itertools.chain(item.keys(), item.values())
        elif isinstance(item, (list, tuple, Set, ValuesView)):
            items = item
        else:
            continue
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in items)
    return deepest


def _checked(value: Any, given: Any = None) -> Any:
    """``value``, the result of a filter, call or operator, refused when its text is above MAX_RENDER_CHARS;
    unless it is the value ``given`` back, its text is spent from the render's MAX_BUILT_CHARS, which bounds
    what many results kept together hold (``range(10**5) | map('center', 10**6) | list``)."""
    size = _text_size(value)
    if size > MAX_RENDER_CHARS:
        raise _limit_error(f"a value of more than {MAX_RENDER_CHARS:,} characters is above the template limit")
    budget = _budget.get(None)
    if budget is not None and value is not given:
        budget.built -= size
        if budget.built < 0:
            raise _limit_error(f"the values built by one render are above the template limit of "
                               f"{MAX_BUILT_CHARS:,} characters in all (agentunit.core.templating.MAX_BUILT_CHARS)")
    return value


# Methods and filters whose number arguments are widths of the text they return, or counts of what
# they make.
_WIDTH_METHODS = frozenset({"ljust", "rjust", "center", "zfill", "expandtabs", "to_bytes"})
_WIDTH_FILTERS = frozenset({"center", "indent", "batch", "slice", "round", "truncate", "wordwrap", "tojson"})
# Filters that make text of the value piped in: printing a container can make far more than it holds.
_TEXT_FILTERS = frozenset({"string", "pprint", "e", "escape", "forceescape", "safe", "upper", "lower",
                           "capitalize", "title", "trim", "striptags", "truncate", "wordcount", "wordwrap",
                           "center", "indent", "replace", "urlize", "urlencode", "xmlattr", "format", "join"})
# str methods whose time is the product of the text's and the argument's lengths.
_QUADRATIC_METHODS = frozenset({"strip", "lstrip", "rstrip", "rfind", "rindex", "rsplit", "rpartition"})


def _check_arguments(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Refuse widths above MAX_RENDER_CHARS: they would allocate more text than a render may produce
    (``'x'.ljust(10**9)``, ``center(10**9)``)."""
    for value in (*args, *kwargs.values()):
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_RENDER_CHARS:
            raise _limit_error(f"number argument {_short_number(value)} is above the template limit "
                               f"of {MAX_RENDER_CHARS:,}")


def _short_number(value: int) -> str:
    digits = len(str(value)) if value.bit_length() < 10_000 else value.bit_length() * 3 // 10
    return str(value) if digits <= 20 else f"with {digits} digits"


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
            if size > MAX_RENDER_CHARS:
                return size
        else:
            size += 1
        previous = spec.end()
        start = text.find("%", previous)
    return size + len(text) - previous


def _check_printf(text: Any, values: Any) -> None:
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
    size = separator * max(len(items) - 1, 0)
    for item in items:
        if size > MAX_RENDER_CHARS:
            break
        size += _text_size(item, MAX_RENDER_CHARS - size)
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
    for sequence, count in ((left, right), (right, left)):
        if isinstance(sequence, (str, bytes, list, tuple)) and isinstance(count, int):
            if len(sequence) * count > MAX_RENDER_CHARS:
                raise _limit_error(f"repetition would make {len(sequence) * count:,} items, above the template "
                                   f"limit of {MAX_RENDER_CHARS:,}")
            if isinstance(sequence, (list, tuple)) and count > 0:
                _check_size(_text_size(sequence, MAX_RENDER_CHARS // count + 1) * count, "repetition")


def _check_power(base: Any, exponent: Any) -> None:
    if isinstance(base, int) and isinstance(exponent, int) and abs(base) > 1 and exponent > 0 \
            and base.bit_length() * exponent > MAX_POWER_BITS:
        raise _limit_error(f"a power of about {base.bit_length() * exponent:,} bits is above the template limit "
                           f"of {MAX_POWER_BITS:,}")


def _check_product(left: Any, right: Any) -> None:
    if isinstance(left, int) and isinstance(right, int) \
            and left.bit_length() + right.bit_length() > _MAX_PRODUCT_BITS:
        raise _limit_error(f"a product of about {left.bit_length() + right.bit_length():,} bits is above the "
                           f"template limit of {_MAX_PRODUCT_BITS:,}")


def _check_binop(operator: str, left: Any, right: Any) -> None:
    if operator == "*":
        _check_repetition(left, right)
        _check_product(left, right)
    elif operator == "**":
        _check_power(left, right)
    elif operator == "%":
        _check_printf(left, right)


def _spend_loop_budget(iterable: Any) -> Any:
    """Wraps the iterable of every ``{% for %}``: counts iterations against the render's budget, spends time."""
    budget = _budget.get(None)
    for item in iterable:
        if budget is not None:
            budget.loops -= 1
            if budget.loops < 0:
                raise _limit_error(f"template loops ran more than {MAX_LOOP_ITERATIONS:,} iterations")
            _spend_time()
        yield item


def _bounded_output(value: Any) -> Any:
    """The environment's finalize, given every ``{{ value }}`` before ``str()`` prints it."""
    if _text_size(value) > MAX_RENDER_CHARS:
        raise TemplateError(_too_long())
    return value


def _bounded_concat(parts: Iterable[str]) -> str:
    """The environment's concat, which joins every block's text (macros, ``{% set %}`` and
    ``{% filter %}`` blocks, ``caller()``): refused above the limit before it is joined."""
    parts = parts if isinstance(parts, list) else list(parts)
    _spend_time()
    _check_size(sum(map(len, parts)), "a block's text")
    return "".join(parts)


def _bounded_dumps(value: Any, **kwargs: Any) -> str:
    """``json.dumps`` written chunk by chunk (the encoder's pure-Python path), stopped at the limit:
    an ``indent`` repeats on every line, so the size of the output is known only as it is written."""
    parts, size = [], 0
    for index, chunk in enumerate(json.JSONEncoder(**kwargs).iterencode(value)):
        size += len(chunk)
        if size > MAX_RENDER_CHARS:
            raise _limit_error(f"JSON text is longer than the template limit of {MAX_RENDER_CHARS:,}")
        if index % 1024 == 0:
            _spend_time()
        parts.append(chunk)
    return "".join(parts)


def _concat(eval_ctx: Any, parts: list[Any]) -> str:
    """``a ~ b ~ …``: Jinja2's join of the parts' texts, refused above the limit before it is built."""
    from jinja2.runtime import markup_join, str_join

    _check_size(_joined_size(0, parts), "joining with ~")
    # As Jinja2 compiles ``~``: markup_join where autoescaping is or may be on, else str_join.
    return markup_join(parts) if eval_ctx.volatile or eval_ctx.autoescape else str_join(parts)


def _join(eval_ctx: Any, value: Any, d: Any = "", attribute: Any = None) -> str:
    """Jinja2's ``join``, its items read into a list first so the result's size is known before joining."""
    from jinja2.filters import make_attrgetter, sync_do_join

    if attribute is not None:
        value = map(make_attrgetter(eval_ctx.environment, attribute), value)
    items = list(value)
    _check_size(_text_size(d), "the join filter's separator")
    _check_size(_joined_size(len(str(d)), items), "join")
    return sync_do_join(eval_ctx, items, d)


def _sum(environment: Any, iterable: Any, attribute: Any = None, start: Any = 0) -> Any:
    """Jinja2's ``sum``; lists (or tuples) summed onto a list (tuple) are chained in one pass, where
    Python's sum copies the growing total once per item (quadratic)."""
    from jinja2.filters import make_attrgetter

    if attribute is not None:
        iterable = map(make_attrgetter(environment, attribute), iterable)
    items = list(iterable)
    if isinstance(start, (list, tuple)) and all(type(item) is type(start) for item in items):
        return type(start)(itertools.chain(start, *items))
    return sum(items, start)


def _wordwrap(environment: Any, s: str, width: int = 79, break_long_words: bool = True,
              wrapstring: str | None = None, break_on_hyphens: bool = True) -> str:
    """Jinja2's ``wordwrap`` (each line of ``s`` a paragraph, wrapped by textwrap, lines and paragraphs
    joined by ``wrapstring``), one paragraph at a time within the budget: time is spent per paragraph,
    a paragraph whose long words textwrap would break at quadratic cost is refused, and the output's
    exact size is counted before anything is joined."""
    import textwrap

    if wrapstring is None:
        wrapstring = environment.newline_sequence
    wrapped, size = [], 0
    for index, paragraph in enumerate(s.splitlines()):
        _spend_time()
        _check_size(size + len("".join(paragraph.split())), "wordwrap")  # every visible character stays
        if break_long_words and isinstance(width, int):
            _check_work(_long_word_work(paragraph, width), "wordwrap breaking long words")
        lines = textwrap.wrap(paragraph, width=width, expand_tabs=False, replace_whitespace=False,
                              break_long_words=break_long_words, break_on_hyphens=break_on_hyphens)
        size += sum(map(len, lines)) + len(wrapstring) * (max(len(lines) - 1, 0) + (index > 0))
        _check_size(size, "wordwrap")
        wrapped.append(wrapstring.join(lines))
    return wrapstring.join(wrapped)


def _long_word_work(paragraph: str, width: int) -> int:
    """What textwrap copies to break the words longer than ``width``: each line it breaks off copies
    the rest of the word, about ``length ** 2 / width`` characters a word."""
    return sum(len(word) ** 2 // max(width, 1) for word in paragraph.split() if len(word) > width)


def _check_format_filter(value: Any, *args: Any, **kwargs: Any) -> None:
    _check_printf(str(value), kwargs or args)


def _check_replace_filter(s: Any, old: Any, new: Any, count: Any = None) -> None:
    _check_size(_text_size(old) + _text_size(new), "the replace filter's arguments")
    _check_size(_replaced_size(str(s), str(old), str(new), -1 if count is None else count), "replace")


def _check_indent_filter(s: Any, width: Any = 4, first: bool = False, blank: bool = False) -> None:
    indention = len(width) if isinstance(width, str) else width if isinstance(width, int) else 0
    _check_size(len(str(s)) + 1 + max(indention, 0) * (len(str(s).splitlines()) + 1), "indent")


def _check_trim_filter(value: Any, chars: Any = None) -> None:
    if isinstance(chars, str):
        _check_work(len(str(value)) * len(chars), "trim")


def _check_pprint_filter(value: Any) -> None:
    _check_work(_text_size(value) * _depth(value), "pprint", _MAX_PPRINT_WORK)


# Filters whose result can be much longer (or slower) than what they are given: a check of the value
# piped in and the filter's arguments, run before the filter.
_FILTER_CHECKS: dict[str, Callable[..., None]] = {
    "format": _check_format_filter, "replace": _check_replace_filter, "indent": _check_indent_filter,
    "trim": _check_trim_filter, "pprint": _check_pprint_filter,
}


def _budgeted_filter(name: str, function: Any) -> Any:
    """``function`` as the filter ``name`` within the render's budget: time is spent, widths and the
    text of the value piped in are checked, then the filter's own check (_FILTER_CHECKS); its result
    is measured. The value piped in is data, not a size: skip it, and the context/environment a
    pass_* filter gets first."""
    skip = 2 if getattr(function, "jinja_pass_arg", None) is not None else 1
    widths, makes_text, check = name in _WIDTH_FILTERS, name in _TEXT_FILTERS, _FILTER_CHECKS.get(name)

    @functools.wraps(function)  # keeps jinja_pass_arg
    def bounded(*args: Any, **kwargs: Any) -> Any:
        _spend_time()
        if widths:
            _check_arguments(args[skip:], kwargs)
        if len(args) >= skip:
            if makes_text:
                _check_size(_text_size(args[skip - 1]), f"the text of the value given to {name}")
            if check is not None:
                with contextlib.suppress(TypeError, ValueError):  # wrong arguments: the filter says so itself
                    check(*args[skip - 1:], **kwargs)
        return _checked(function(*args, **kwargs), args[skip - 1] if len(args) >= skip else None)

    return bounded


def _timed_test(function: Any) -> Any:
    @functools.wraps(function)  # keeps jinja_pass_arg
    def timed(*args: Any, **kwargs: Any) -> Any:
        _spend_time()
        return function(*args, **kwargs)

    return timed


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


@lru_cache(maxsize=1)
def _environment() -> Any:
    import jinja2
    from jinja2.runtime import LoopContext
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    class _Sandbox(ImmutableSandboxedEnvironment):
        intercepted_binops = frozenset({"*", "**", "%", "+"})

        def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
            _check_binop(operator, left, right)
            return _checked(super().call_binop(context, operator, left, right))

        def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
            _spend_time()
            args = _check_method(__obj, args, kwargs)
            if isinstance(__obj, LoopContext) and args:  # a recursive loop's loop(children) iterates too
                args = (_spend_loop_budget(args[0]), *args[1:])
            return _checked(super().call(__context, __obj, *args, **kwargs), getattr(__obj, "__self__", None))

        def wrap_str_format(self, value: Any) -> Any:
            return _str_format(self, value)

    env = _Sandbox(undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=True,
                   finalize=_bounded_output)
    env.concat = _bounded_concat  # joins every block's buffer: macros, {% set %}/{% filter %} blocks, caller()
    env.policies["json.dumps_function"] = _bounded_dumps  # tojson
    env.globals.pop("lipsum", None)  # generates unbounded text; prompts have no use for it
    from agentunit.media.templates import MEDIA_FILTERS  # data_uri, base64, path, mime: see docs/media.md

    env.filters.update(MEDIA_FILTERS)
    env.filters.update({
        # Nunjucks' `dump` and promptfoo's `load`, so promptfoo prompts render unchanged (docs/promptfoo.md).
        "dump": lambda value, *_: _bounded_dumps(value, ensure_ascii=False),
        "load": lambda value: json.loads(value) if isinstance(value, str) else value,
        "join": jinja2.pass_eval_context(_join),
        "sum": jinja2.pass_environment(_sum),
        "wordwrap": jinja2.pass_environment(_wordwrap),
        _CONCAT_FILTER: jinja2.pass_eval_context(_concat),
    })
    env.filters.update({name: _budgeted_filter(name, function) for name, function in env.filters.items()})
    env.filters[_LOOP_FILTER] = _spend_loop_budget
    env.filters[_SLICE_FILTER] = _checked  # a slice is a new value: its text is spent
    env.tests.update({name: _timed_test(function) for name, function in env.tests.items()})
    return env


def _budgeted_tree(tree: Any) -> Any:
    """Route every loop's iterable through the loop budget filter, every ``~`` through the bounded
    concat filter and every slice's result through the built-text count, in the parsed template."""
    from jinja2 import nodes
    from jinja2.visitor import NodeTransformer

    class _Budgeted(NodeTransformer):
        def visit_For(self, node: Any) -> Any:
            node = self.generic_visit(node)
            node.iter = nodes.Filter(node.iter, _LOOP_FILTER, [], [], None, None, lineno=node.lineno)
            return node

        def visit_Concat(self, node: Any) -> Any:
            node = self.generic_visit(node)
            return nodes.Filter(nodes.List(node.nodes, lineno=node.lineno), _CONCAT_FILTER, [], [], None, None,
                                lineno=node.lineno)

        def visit_Getitem(self, node: Any) -> Any:
            node = self.generic_visit(node)
            if isinstance(node.arg, nodes.Slice):
                return nodes.Filter(node, _SLICE_FILTER, [], [], None, None, lineno=node.lineno)
            return node

    return _Budgeted().visit(tree)


@lru_cache(maxsize=1024)
def _compile(text: str) -> Any:
    """Parse (a source longer than MAX_RENDER_CHARS is refused: parsing takes seconds a megabyte),
    route loops and ``~`` through the budget (_budgeted_tree), compile."""
    import jinja2

    if len(text) > MAX_RENDER_CHARS:
        raise TemplateError(f"template is longer than {MAX_RENDER_CHARS:,} characters "
                            f"(agentunit.core.templating.MAX_RENDER_CHARS): {_excerpt(text)}")
    env = _environment()
    try:
        tree = _budgeted_tree(env.parse(text))
        tree.set_environment(env)
        return env.from_string(tree)
    except jinja2.TemplateSyntaxError as exc:
        raise TemplateError(f"template syntax error: {exc.message} in {_excerpt(text)}") from None
    except (RecursionError, MemoryError):
        raise TemplateError(f"template too deeply nested to compile: {_excerpt(text)}") from None


def _excerpt(text: str) -> str:
    return repr(text[:80]) + ("…" if len(text) > 80 else "")


_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")


@lru_cache(maxsize=1024)
def _simple_parts(text: str) -> tuple[str, ...] | None:
    """Split a template made only of ``{{ name }}`` placeholders into literal/name parts, else None."""
    if "{%" in text or "{#" in text:
        return None
    parts = _PLACEHOLDER.split(text)
    if any("{{" in literal or "}}" in literal for literal in parts[::2]):
        return None  # filters, expressions or attribute access: leave them to Jinja2
    return tuple(parts)


def check_template(text: str) -> None:
    """Raise TemplateError when ``text`` is a template that does not compile (nothing is rendered)."""
    if is_template(text) and _simple_parts(text) is None:
        _compile(text)


def render(text: str, variables: dict[str, Any]) -> str:
    """Render a Jinja2 template string in the sandbox; text without ``{{``/``{%`` is returned unchanged.

    Templates holding only plain ``{{ name }}`` placeholders (the common case, rendered per case on
    the hot path) are substituted directly, with Jinja2's output for them; anything else goes to the
    sandboxed Jinja2 with the module's limits. Raises TemplateError for every failure.
    """
    if not is_template(text):
        return text
    parts = _simple_parts(text)
    if parts is not None:
        out = []
        size = 0
        for index, part in enumerate(parts):
            if index % 2 == 1:
                if part not in variables:
                    raise TemplateError(f"'{part}' is undefined (available: {_names(variables)})")
                part = str(variables[part])
            size += len(part)
            out.append(part)
        if size > MAX_RENDER_CHARS:
            raise TemplateError(_too_long())
        return "".join(out)
    return _render_jinja(_compile(text), text, variables)


def _render_jinja(template: Any, text: str, variables: dict[str, Any]) -> str:
    import jinja2
    import jinja2.sandbox

    try:
        with _budget_scope():
            return _stream(template, variables)
    except TemplateError:
        raise
    except _OutOfTime as exc:
        raise TemplateError(f"{exc} in {_excerpt(text)}") from None
    except jinja2.UndefinedError as exc:
        raise TemplateError(f"{exc.message} (available: {_names(variables)})") from None
    except jinja2.sandbox.SecurityError as exc:
        raise TemplateError(f"template not allowed: {exc} in {_excerpt(text)}") from None
    except RecursionError:
        raise TemplateError(f"template recursion too deep in {_excerpt(text)}") from None
    except MemoryError:
        raise TemplateError(f"template ran out of memory in {_excerpt(text)}") from None
    except Exception as exc:  # any error of the template's own expressions (a filter's TypeError, 1/0, …)
        raise TemplateError(f"template error: {type(exc).__name__}: {exc} in {_excerpt(text)}") from None


def _stream(template: Any, variables: dict[str, Any]) -> str:
    """The rendered text, its chunks counted as they come: a runaway loop stops at the limit."""
    out: list[str] = []
    size = 0
    for chunk in template.generate(variables):
        size += len(chunk)
        if size > MAX_RENDER_CHARS:
            raise TemplateError(_too_long())
        out.append(chunk)
    return "".join(out)


def _too_long() -> str:
    return (f"rendered template is longer than {MAX_RENDER_CHARS:,} characters "
            "(agentunit.core.templating.MAX_RENDER_CHARS)")


def _names(variables: dict[str, Any]) -> str:
    return ", ".join(sorted(str(k) for k in variables)) or "none"


def render_value(value: Any, variables: dict[str, Any]) -> Any:
    """Render every string inside a JSON-like value (dicts, lists), keeping its structure.

    A string that is exactly one placeholder (``"{{ history }}"``) takes the variable's own value, so
    lists and objects stay JSON instead of becoming text; so does one expression over the case's
    ``images`` that gives a list of them (``"{{ images | base64 }}"``).
    """
    if isinstance(value, str):
        whole = _PLACEHOLDER.fullmatch(value.strip())
        if whole and whole.group(1) in variables:
            return variables[whole.group(1)]
        if "images" in variables and "images" in value:
            listed = _media_list(value.strip(), variables)
            if listed is not None:
                return listed
        return render(value, variables)
    if isinstance(value, dict):
        return {k: render_value(v, variables) for k, v in value.items()}
    if isinstance(value, list):
        return [render_value(v, variables) for v in value]
    return value


_ONE_EXPRESSION = re.compile(r"\{\{((?:(?!\}\}|\{\{|\{%|\{#).)*)\}\}", re.DOTALL)


@lru_cache(maxsize=256)
def _expression(text: str) -> Any:
    return _environment().compile_expression(text, undefined_to_none=False)


def _media_list(text: str, variables: dict[str, Any]) -> list[str] | None:
    """The value of a string that is one ``{{ expression }}`` when it is a list of media markers (see
    agentunit.media.templates), evaluated in the sandbox; None otherwise (the caller renders it as text)."""
    from agentunit.media.templates import is_marker

    whole = _ONE_EXPRESSION.fullmatch(text)
    if whole is None:
        return None
    try:
        with _budget_scope():
            value = _expression(whole.group(1))(**variables)
    except Exception:  # rendering it as text reports the error the usual way
        return None
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) and is_marker(v) for v in value):
        return list(value)
    return None


def interpolate_env(text: str, secrets: set[str] | None = None) -> str:
    """Replace ``${NAME}`` with the environment variable and ``$${NAME}`` with the text ``${NAME}``;
    record substituted values in ``secrets``."""

    def replace(match: re.Match[str]) -> str:
        escaped, name = match.groups()
        if escaped:
            return "${" + name + "}"
        if name not in os.environ:
            raise AgentUnitError(f"environment variable {name} is not set (used as ${{{name}}})")
        value = os.environ[name]
        if secrets is not None and value:
            secrets.add(value)
        return value

    return _ENV_REF_OR_ESCAPED.sub(replace, text)
