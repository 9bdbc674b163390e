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
  (``_MAX_WORK``, in ``_template_budget``): ``wordwrap`` breaking long words, ``strip(chars)``/``trim``,
  the reverse searches (``rfind``, ``rsplit``, ``rpartition``), ``pprint`` of deep values; ``sum`` chains
  lists in one pass.

Every failure — syntax, undefined variable, security violation, a filter's TypeError, recursion,
a limit — is raised as TemplateError with a one-line message.

This module is the public API and the sandbox's assembly; a render's budget and the measures its checks
use are in ``_template_budget``, the estimates of what an operator, method call or format would build in
``_template_steps``, the budgeted filters in ``_template_filters``. Those modules read the limits from
the budget each render opens from the constants here, so a changed constant takes effect at the next
render.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from agentunit.core._template_budget import _Budget, _budget, _OutOfTime, _text_size
from agentunit.errors import AgentUnitError

MAX_RENDER_CHARS = 1_000_000
MAX_LOOP_ITERATIONS = 1_000_000
MAX_POWER_BITS = 100_000
MAX_RENDER_SECONDS = 2.0
MAX_BUILT_CHARS = 50 * MAX_RENDER_CHARS
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


def _open_budget() -> contextvars.Token[_Budget]:
    """Start a budget from this module's limits as they are now (so a changed constant takes effect at the
    next render); the token resets it."""
    return _budget.set(_Budget(MAX_RENDER_CHARS, MAX_LOOP_ITERATIONS, MAX_RENDER_SECONDS, MAX_BUILT_CHARS,
                               MAX_POWER_BITS, _MAX_PRODUCT_BITS))


@contextlib.contextmanager
def _budget_scope() -> Iterator[None]:
    """A fresh budget (_open_budget) for the compile or evaluation inside."""
    token = _open_budget()
    try:
        yield
    finally:
        _budget.reset(token)


def is_template(text: str) -> bool:
    """Whether ``text`` holds a Jinja2 expression or statement (else it renders as itself)."""
    return "{{" in text or "{%" in text


def _bounded_output(value: Any) -> Any:
    """The environment's finalize, given every ``{{ value }}`` before ``str()`` prints it."""
    # Most values printed are texts: their length is their size, without a call.
    if (len(value) if type(value) is str else _text_size(value, MAX_RENDER_CHARS)) > MAX_RENDER_CHARS:
        raise TemplateError(_too_long())
    return value


@lru_cache(maxsize=1)
def _environment() -> Any:
    """Jinja2's immutable sandbox with every operator, call, filter, test, output and block's text
    within the render's budget (built once)."""
    import json

    import jinja2
    from jinja2.runtime import LoopContext
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    # Imported here, not at the top: a run whose templates are all plain placeholders never loads them.
    from agentunit.core._template_budget import _checked, _spend_loop_budget, _spend_time
    from agentunit.core._template_filters import (
        _bounded_concat,
        _bounded_dumps,
        _budgeted_filter,
        _concat,
        _join,
        _sum,
        _timed_test,
        _wordwrap,
    )
    from agentunit.core._template_steps import _check_binop, _check_method, _str_format

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
    route loops and ``~`` through the budget (_budgeted_tree), compile. Compiling runs in a budget of its
    own: Jinja2 folds constant expressions by running their filters, which read their limits from it."""
    import jinja2

    if len(text) > MAX_RENDER_CHARS:
        raise TemplateError(f"template is longer than {MAX_RENDER_CHARS:,} characters "
                            f"(agentunit.core.templating.MAX_RENDER_CHARS): {_excerpt(text)}")
    env = _environment()
    try:
        tree = _budgeted_tree(env.parse(text))
        tree.set_environment(env)
        with _budget_scope():
            template = env.from_string(tree)
    except jinja2.TemplateSyntaxError as exc:
        raise TemplateError(f"template syntax error: {exc.message} in {_excerpt(text)}") from None
    except (RecursionError, MemoryError):
        raise TemplateError(f"template too deeply nested to compile: {_excerpt(text)}") from None
    # Jinja2 keeps a template's globals as a ChainMap over the environment's and copies it into a dict at
    # every render (about 5 µs, more than the rest of a short prompt's render); this environment's globals
    # never change once it is built, so the template keeps them as a plain dict.
    template.globals = dict(template.globals)
    return template


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
    """Render a compiled template within a budget of its own; every failure as a TemplateError."""
    # The budget is set and reset here rather than with _budget_scope, and the errors are told apart in
    # _render_error (which imports Jinja2's error types) only on failure: this runs once per case.
    token = _open_budget()
    try:
        return _stream(template, variables)
    except TemplateError:
        raise
    except Exception as exc:
        raise _render_error(exc, text, variables) from None
    finally:
        _budget.reset(token)


def _render_error(exc: Exception, text: str, variables: dict[str, Any]) -> TemplateError:
    """The one-line TemplateError for what a render raised: the time budget, an undefined variable, the
    sandbox or a limit, recursion, memory, or any error of the template's own expressions."""
    import jinja2
    from jinja2.sandbox import SecurityError

    if isinstance(exc, _OutOfTime):
        return TemplateError(f"{exc} in {_excerpt(text)}")
    if isinstance(exc, jinja2.UndefinedError):
        return TemplateError(f"{exc.message} (available: {_names(variables)})")
    if isinstance(exc, SecurityError):
        return TemplateError(f"template not allowed: {exc} in {_excerpt(text)}")
    if isinstance(exc, RecursionError):
        return TemplateError(f"template recursion too deep in {_excerpt(text)}")
    if isinstance(exc, MemoryError):
        return TemplateError(f"template ran out of memory in {_excerpt(text)}")
    # A filter's TypeError, 1/0, …
    return TemplateError(f"template error: {type(exc).__name__}: {exc} in {_excerpt(text)}")


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
