"""One template render's budget: the limits it is held to and what it may still spend, and the measures
and checks every bounded step of a render uses.

A render opens a ``_Budget`` (agentunit.core.templating does, from its module constants, so that a
changed constant takes effect at the next render) and keeps it in a context variable while Jinja2 runs;
every check here reads its limits from that budget. Outside a render there is no budget and a check
raises LookupError: Jinja2's compile-time constant folding treats that as "not foldable", and
agentunit.core.templating compiles inside a budget of its own so that folding stays bounded too.
"""

from __future__ import annotations

import contextvars
import itertools
import time
from collections.abc import Iterable, Iterator, Mapping, Set, ValuesView
from typing import Any

# What one step quadratic in its inputs may cost, as the product of their lengths (about 0.1 to 0.3 s of
# copying or comparing characters): textwrap copies a long word's rest once per line it breaks off, and
# strip(chars) and the reverse searches compare each character against the whole argument.
_MAX_WORK = 1_000_000_000
# pprint formats each nested container once per level above it: its work is text size times depth.
_MAX_PPRINT_WORK = 50_000_000


class _OutOfTime(Exception):
    """The render spent its CPU time budget (reported on its own, not as the template's own error)."""


class _Budget:
    """The limits one render is held to and what it may still spend: loop iterations (``loops`` of
    ``max_loops``), characters of built values (``built`` of ``max_built``), and CPU time until
    ``deadline``; ``chars``, ``power_bits`` and ``product_bits`` bound each single value."""

    __slots__ = ("built", "chars", "deadline", "loops", "max_built", "max_loops", "next_look", "power_bits",
                 "product_bits", "seconds")

    def __init__(self, chars: int, loops: int, seconds: float, built: int, power_bits: int,
                 product_bits: int) -> None:
        self.chars, self.power_bits, self.product_bits = chars, power_bits, product_bits
        self.loops = self.max_loops = loops
        self.built = self.max_built = built
        self.seconds = seconds
        self.deadline = time.thread_time() + seconds
        # Reading the thread's CPU clock costs about a microsecond; it cannot run faster than the
        # (cheap) wall clock, so it is read only once the CPU time left could have passed.
        self.next_look = time.perf_counter() + seconds


_budget: contextvars.ContextVar[_Budget] = contextvars.ContextVar("agentunit_template_budget")


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


def _spend_loop_budget(iterable: Any) -> Iterator[Any]:
    """Wraps the iterable of every ``{% for %}``: counts iterations against the render's budget, spends time."""
    budget = _budget.get(None)
    for item in iterable:
        if budget is not None:
            budget.loops -= 1
            if budget.loops < 0:
                raise _limit_error(f"template loops ran more than {budget.max_loops:,} iterations")
            _spend_time()
        yield item


def _max_chars() -> int:
    """The render's MAX_RENDER_CHARS (LookupError outside a render)."""
    return _budget.get().chars


def _limit_error(what: str) -> Exception:
    """A limit reached, as Jinja2's SecurityError (reported as "template not allowed: …")."""
    from jinja2.sandbox import SecurityError

    return SecurityError(what)


def _check_size(size: int, what: str) -> None:
    """Refuse a step that would make ``size`` characters, above the render's MAX_RENDER_CHARS."""
    limit = _max_chars()
    if size > limit:
        raise _limit_error(f"{what} would make about {size:,} characters, above the template limit of {limit:,}")


def _check_work(work: int, what: str, limit: int = _MAX_WORK) -> None:
    """Refuse a step whose time grows with ``work`` (the product of its inputs' lengths) above ``limit``."""
    if work > limit:
        raise _limit_error(f"{what} would take about {work:,} steps, above the template limit of {limit:,}")


def _text_size(value: Any, limit: int | None = None) -> int:
    """About how many characters ``str(value)`` has, counted without building it; stops above ``limit``
    (default: the render's MAX_RENDER_CHARS).

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

    if limit is None:
        limit = _max_chars()
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
    budget = _budget.get()
    size = _text_size(value, budget.chars)
    if size > budget.chars:
        raise _limit_error(f"a value of more than {budget.chars:,} characters is above the template limit")
    if value is not given:
        budget.built -= size
        if budget.built < 0:
            raise _limit_error(f"the values built by one render are above the template limit of "
                               f"{budget.max_built:,} characters in all (agentunit.core.templating.MAX_BUILT_CHARS)")
    return value


def _check_arguments(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Refuse widths above MAX_RENDER_CHARS: they would allocate more text than a render may produce
    (``'x'.ljust(10**9)``, ``center(10**9)``)."""
    limit = _max_chars()
    for value in (*args, *kwargs.values()):
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > limit:
            raise _limit_error(f"number argument {_short_number(value)} is above the template limit "
                               f"of {limit:,}")


def _short_number(value: int) -> str:
    """``value`` written out up to 20 digits, else "with N digits" (estimated from its bits when huge)."""
    digits = len(str(value)) if value.bit_length() < 10_000 else value.bit_length() * 3 // 10
    return str(value) if digits <= 20 else f"with {digits} digits"
