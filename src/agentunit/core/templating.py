"""Jinja2 ``{{ name }}`` templates for prompts, bodies, headers and argv; ``${ENV}`` interpolation."""

from __future__ import annotations

import os
import re
from functools import lru_cache
from typing import Any

from agentunit.errors import AgentUnitError

_ENV_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


class TemplateError(AgentUnitError):
    """A template could not be compiled or rendered (syntax error, undefined variable)."""


def is_template(text: str) -> bool:
    return "{{" in text or "{%" in text


@lru_cache(maxsize=1)
def _environment() -> Any:
    import jinja2  # imported on first use: most suites render no templates

    return jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=True)


@lru_cache(maxsize=1024)
def _compile(text: str) -> Any:
    import jinja2

    try:
        return _environment().from_string(text)
    except jinja2.TemplateSyntaxError as exc:
        raise TemplateError(f"template syntax error: {exc.message} in {text[:80]!r}") from exc


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


def render(text: str, variables: dict[str, Any]) -> str:
    """Render a Jinja2 template string; text without ``{{``/``{%`` is returned unchanged.

    Templates holding only plain ``{{ name }}`` placeholders (the common case, rendered per case on
    the hot path) are substituted directly, with Jinja2's output for them; anything else goes to Jinja2.
    """
    if not is_template(text):
        return text
    parts = _simple_parts(text)
    if parts is not None:
        out = []
        for index, part in enumerate(parts):
            if index % 2 == 0:
                out.append(part)
            elif part in variables:
                out.append(str(variables[part]))
            else:
                raise TemplateError(f"'{part}' is undefined (available: {', '.join(sorted(variables)) or 'none'})")
        return "".join(out)
    import jinja2

    try:
        return _compile(text).render(**variables)
    except jinja2.UndefinedError as exc:
        raise TemplateError(f"{exc.message} (available: {', '.join(sorted(variables)) or 'none'})") from exc


def render_value(value: Any, variables: dict[str, Any]) -> Any:
    """Render every string inside a JSON-like value (dicts, lists), keeping its structure.

    A string that is exactly one placeholder (``"{{ history }}"``) takes the variable's own value, so
    lists and objects stay JSON instead of becoming text.
    """
    if isinstance(value, str):
        whole = _PLACEHOLDER.fullmatch(value.strip())
        if whole and whole.group(1) in variables:
            return variables[whole.group(1)]
        return render(value, variables)
    if isinstance(value, dict):
        return {k: render_value(v, variables) for k, v in value.items()}
    if isinstance(value, list):
        return [render_value(v, variables) for v in value]
    return value


def interpolate_env(text: str, secrets: set[str] | None = None) -> str:
    """Replace ``${NAME}`` with the environment variable; record substituted values in ``secrets``."""

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in os.environ:
            raise AgentUnitError(f"environment variable {name} is not set (used as ${{{name}}})")
        value = os.environ[name]
        if secrets is not None and value:
            secrets.add(value)
        return value

    return _ENV_VAR.sub(replace, text)
