"""Jinja2's filters and tests within a render's budget: every filter spends time, has its widths and the
text of the value piped in checked, then its own check of what it would build (``format``, ``replace``,
``indent``, ``trim``, ``pprint``), and its result measured; ``join``, ``sum``, ``wordwrap``, ``tojson``
(and ``dump``), ``~`` and the joining of a block's text are reimplemented so that their size is known,
or counted, before the text is built."""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
from collections.abc import Callable, Iterable
from typing import Any

from agentunit.core._template_budget import (
    _MAX_PPRINT_WORK,
    _check_arguments,
    _check_size,
    _check_work,
    _checked,
    _depth,
    _limit_error,
    _max_chars,
    _spend_time,
    _text_size,
)
from agentunit.core._template_steps import _check_printf, _joined_size, _replaced_size

# Filters whose number arguments are widths of the text they return, or counts of what they make.
_WIDTH_FILTERS = frozenset({"center", "indent", "batch", "slice", "round", "truncate", "wordwrap", "tojson"})
# Filters that make text of the value piped in: printing a container can make far more than it holds.
_TEXT_FILTERS = frozenset({"string", "pprint", "e", "escape", "forceescape", "safe", "upper", "lower",
                           "capitalize", "title", "trim", "striptags", "truncate", "wordcount", "wordwrap",
                           "center", "indent", "replace", "urlize", "urlencode", "xmlattr", "format", "join"})


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
    parts, size, limit = [], 0, _max_chars()
    for index, chunk in enumerate(json.JSONEncoder(**kwargs).iterencode(value)):
        size += len(chunk)
        if size > limit:
            raise _limit_error(f"JSON text is longer than the template limit of {limit:,}")
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
    """``format``: ``value % (kwargs or args)``, as printf-style formatting."""
    _check_printf(str(value), kwargs or args)


def _check_replace_filter(s: Any, old: Any, new: Any, count: Any = None) -> None:
    """``replace``: its arguments' text, then the result's exact length (_replaced_size)."""
    _check_size(_text_size(old) + _text_size(new), "the replace filter's arguments")
    _check_size(_replaced_size(str(s), str(old), str(new), -1 if count is None else count), "replace")


def _check_indent_filter(s: Any, width: Any = 4, first: bool = False, blank: bool = False) -> None:
    """``indent``: the text plus the indentation (a width or a text) on every line."""
    indention = len(width) if isinstance(width, str) else width if isinstance(width, int) else 0
    _check_size(len(str(s)) + 1 + max(indention, 0) * (len(str(s).splitlines()) + 1), "indent")


def _check_trim_filter(value: Any, chars: Any = None) -> None:
    """``trim(chars)``: every character compared against all of ``chars``."""
    if isinstance(chars, str):
        _check_work(len(str(value)) * len(chars), "trim")


def _check_pprint_filter(value: Any) -> None:
    """``pprint``: each nested container formatted once per level above it (text size times depth)."""
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
    piped_in = f"the text of the value given to {name}"  # written once, not at every call

    @functools.wraps(function)  # keeps jinja_pass_arg
    def bounded(*args: Any, **kwargs: Any) -> Any:
        _spend_time()
        if widths:
            _check_arguments(args[skip:], kwargs)
        if len(args) >= skip:
            if makes_text:
                _check_size(_text_size(args[skip - 1]), piped_in)
            if check is not None:
                with contextlib.suppress(TypeError, ValueError):  # wrong arguments: the filter says so itself
                    check(*args[skip - 1:], **kwargs)
        return _checked(function(*args, **kwargs), args[skip - 1] if len(args) >= skip else None)

    return bounded


def _timed_test(function: Any) -> Any:
    """``function`` as a Jinja2 test that spends the render's time first."""
    @functools.wraps(function)  # keeps jinja_pass_arg
    def timed(*args: Any, **kwargs: Any) -> Any:
        _spend_time()
        return function(*args, **kwargs)

    return timed
