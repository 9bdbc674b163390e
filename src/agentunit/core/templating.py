"""Jinja2 ``{{ name }}`` templates for prompts, bodies, headers and argv; ``${ENV}`` interpolation.

Only the suite's own fields are templates (the suite's ``prompt:``, inline cases, target fields);
text from case files is never compiled (see agentunit.suite.cases). Every template renders in
Jinja2's immutable sandbox (no attribute starting with ``_``, no mutation of lists and dicts, no
unsafe callables) with limits, each a module constant:

- ``MAX_RENDER_CHARS``: the rendered text (streamed, so a runaway loop stops at the limit);
- ``MAX_LOOP_ITERATIONS``: the iterations of every ``{% for %}`` of one render together;
- ``MAX_RENDER_CHARS`` also bounds the widths given to the padding methods and filters
  (``'x'.ljust(n)``, ``zfill``, ``center(n)``, ``indent(n)``) and the size of ``*`` repetitions;
  ``**`` results are bounded to ``MAX_POWER_BITS`` bits; ``range`` to the sandbox's 100,000 items;
  recursion by Python's stack; a MemoryError (a width inside a format string) is a TemplateError.

Every failure — syntax, undefined variable, security violation, a filter's TypeError, recursion,
a limit — is raised as TemplateError with a one-line message.
"""

from __future__ import annotations

import contextvars
import functools
import json
import os
import re
from functools import lru_cache
from typing import Any

from agentunit.errors import AgentUnitError

MAX_RENDER_CHARS = 1_000_000
MAX_LOOP_ITERATIONS = 1_000_000
MAX_POWER_BITS = 100_000

# A suite's ${NAME}: the environment variable NAME. $${NAME} is the text ${NAME} (as in Docker Compose).
ENV_REF = re.compile(r"(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
ESCAPED_ENV_REF = re.compile(r"\$(\$\{[A-Za-z_][A-Za-z0-9_]*\})")
_ENV_REF_OR_ESCAPED = re.compile(r"\$(\$)?\{([A-Za-z_][A-Za-z0-9_]*)\}")
_LOOP_FILTER = "agentunit_loop_budget"  # inserted around every loop's iterable when compiling
_loop_budget: contextvars.ContextVar[list[int]] = contextvars.ContextVar("agentunit_loop_budget")


class TemplateError(AgentUnitError):
    """A template could not be compiled or rendered (syntax error, undefined variable, sandbox, limits)."""


def is_template(text: str) -> bool:
    return "{{" in text or "{%" in text


def _limit_error(what: str) -> Exception:
    from jinja2.sandbox import SecurityError

    return SecurityError(what)


# Methods and filters whose number arguments are widths of the text they return.
_WIDTH_METHODS = frozenset({"ljust", "rjust", "center", "zfill", "expandtabs"})
_WIDTH_FILTERS = ("center", "indent")


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


def _bounded_filter(function: Any) -> Any:
    # The value piped in is data, not a size: skip it, and the context/environment a pass_* filter gets first.
    skip = 2 if getattr(function, "jinja_pass_arg", None) is not None else 1

    @functools.wraps(function)  # keeps jinja_pass_arg
    def bounded(*args: Any, **kwargs: Any) -> Any:
        _check_arguments(args[skip:], kwargs)
        return function(*args, **kwargs)

    return bounded


def _spend_loop_budget(iterable: Any) -> Any:
    """Wraps the iterable of every ``{% for %}``: counts iterations against the render's budget."""
    budget = _loop_budget.get(None)
    for item in iterable:
        if budget is not None:
            budget[0] -= 1
            if budget[0] < 0:
                raise _limit_error(f"template loops ran more than {MAX_LOOP_ITERATIONS:,} iterations")
        yield item


@lru_cache(maxsize=1)
def _environment() -> Any:
    import jinja2
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    class _Sandbox(ImmutableSandboxedEnvironment):
        intercepted_binops = frozenset({"*", "**"})

        def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
            if operator == "*":
                _check_repetition(left, right)
            elif operator == "**":
                _check_power(left, right)
            return super().call_binop(context, operator, left, right)

        def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
            if getattr(__obj, "__name__", None) in _WIDTH_METHODS:
                _check_arguments(args, kwargs)
            return super().call(__context, __obj, *args, **kwargs)

    env = _Sandbox(undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=True)
    env.globals.pop("lipsum", None)  # generates unbounded text; prompts have no use for it
    env.filters.update({name: _bounded_filter(env.filters[name]) for name in _WIDTH_FILTERS})
    env.filters[_LOOP_FILTER] = _spend_loop_budget
    from agentunit.media.templates import MEDIA_FILTERS  # data_uri, base64, path, mime: see docs/media.md

    env.filters.update(MEDIA_FILTERS)
    # Nunjucks' `dump` and promptfoo's `load`, so promptfoo prompts render unchanged (docs/promptfoo.md).
    env.filters["dump"] = lambda value, *_: json.dumps(value, ensure_ascii=False)
    env.filters["load"] = lambda value: json.loads(value) if isinstance(value, str) else value
    return env


def _check_repetition(left: Any, right: Any) -> None:
    for sequence, count in ((left, right), (right, left)):
        if isinstance(sequence, (str, bytes, list, tuple)) and isinstance(count, int) \
                and len(sequence) * count > MAX_RENDER_CHARS:
            raise _limit_error(f"repetition would make {len(sequence) * count:,} items, above the template "
                               f"limit of {MAX_RENDER_CHARS:,}")


def _check_power(base: Any, exponent: Any) -> None:
    if isinstance(base, int) and isinstance(exponent, int) and abs(base) > 1 and exponent > 0 \
            and base.bit_length() * exponent > MAX_POWER_BITS:
        raise _limit_error(f"a power of about {base.bit_length() * exponent:,} bits is above the template limit "
                           f"of {MAX_POWER_BITS:,}")


@lru_cache(maxsize=1024)
def _compile(text: str) -> Any:
    """Parse, route every loop's iterable through the loop budget filter, compile."""
    import jinja2
    from jinja2 import nodes

    env = _environment()
    try:
        tree = env.parse(text)
        for loop in tree.find_all(nodes.For):
            loop.iter = nodes.Filter(loop.iter, _LOOP_FILTER, [], [], None, None, lineno=loop.lineno)
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

    token = _loop_budget.set([MAX_LOOP_ITERATIONS])
    try:
        out: list[str] = []
        size = 0
        for chunk in template.generate(variables):
            size += len(chunk)
            if size > MAX_RENDER_CHARS:
                raise TemplateError(_too_long())
            out.append(chunk)
        return "".join(out)
    except TemplateError:
        raise
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
    finally:
        _loop_budget.reset(token)


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
