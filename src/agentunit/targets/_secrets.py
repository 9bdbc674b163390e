"""Secrets in requests: ``${ENV}`` resolved only where the suite wrote it, and redaction of resolved values.

A target field like ``url: "https://h/{{ q }}?key=${API_KEY}"`` mixes three kinds of text: the suite's
own literal text, the suite's ``${NAME}`` references, and case data inserted by ``{{ }}``. Only the
second may read the environment — a dataset row holding ``${AWS_SECRET_ACCESS_KEY}`` is text.

The request form (``render_with_env_refs``) keeps that distinction in a plain string: the suite's
references stay ``${NAME}`` and every other ``$`` is written ``$$``. ``resolve_env_refs`` reverses it
at send time, so the form is secret-free, stable for the cache key, and unambiguous.
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Iterable
from typing import Any

from agentunit.core.templating import ENV_REF, ESCAPED_ENV_REF, interpolate_env, render
from agentunit.errors import AgentUnitError

REDACTED = "***"
# Stands in for a ``${NAME}`` while the template is rendered. Random per process, so case data cannot
# forge it; lowercase letters and digits only, so Jinja passes it through as plain text.
_MARK = "agentunitenv" + os.urandom(8).hex()
_MARKED = re.compile(_MARK + r"x(\d+)x")


def render_with_env_refs(template: str, variables: dict[str, Any]) -> str:
    """Render ``template`` over the case ``variables`` into the request form (see the module docstring).

    Algorithm: replace each ``${NAME}`` of the template by a per-process random marker (and each
    ``$${NAME}`` by the text ``${NAME}``), render, double
    every ``$`` of the result (all of it is literal text now: the suite's or the case's), then turn
    the markers back into ``${NAME}``.
    """
    names: list[str] = []

    def mark(match: re.Match[str]) -> str:
        names.append(match.group(1))
        return f"{_MARK}x{len(names) - 1}x"

    marked = ESCAPED_ENV_REF.sub(r"\1", ENV_REF.sub(mark, template))  # "$${NAME}": the text "${NAME}"
    rendered = render(marked, variables).replace("$", "$$")
    if not names:
        return rendered
    out = _MARKED.sub(lambda m: "${" + names[int(m.group(1))] + "}", rendered)
    if _MARK in out.lower():
        raise AgentUnitError(f"a ${{NAME}} reference can only be used in the text of a template, not inside "
                             f"a {{{{ }}}} expression: {template[:80]!r}")
    return out


def resolve_env_refs(text: str, secrets: set[str] | None = None) -> str:
    """Resolve a request-form string: ``$$`` → ``$``, ``${NAME}`` → the environment variable's value.

    Splitting on ``$$`` leaves pieces whose every ``$`` starts a suite reference, resolved by
    ``interpolate_env`` (which adds each value to ``secrets`` and names an unset variable).
    """
    return "$".join(interpolate_env(part, secrets) for part in text.split("$$"))


# A value this short is not a secret anyone could leak, and replacing it would garble every message
# (a token "s" would turn "is not set" into "i*** not ***et").
MIN_SECRET_LENGTH = 3


def redact_text(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every occurrence of each secret replaced by ``***``: as written, and as JSON
    writes it inside a string (``"`` and ``\\`` escaped, non-ASCII as ``\\uXXXX``, ``/`` as ``\\/``), since a
    reply is often JSON text that quotes what it was sent. Longest form first, so a secret
    containing another is removed whole; secrets under ``MIN_SECRET_LENGTH`` characters are kept."""
    forms = {form for s in secrets if s and len(s) >= MIN_SECRET_LENGTH for form in _written_forms(s)}
    for form in sorted(forms, key=len, reverse=True):
        if form in text:
            text = text.replace(form, REDACTED)
    return text


@functools.lru_cache(maxsize=256)
def _written_forms(secret: str) -> tuple[str, ...]:
    forms = {secret}
    for escaped in (json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=False)[1:-1]):
        forms |= {escaped, escaped.replace("/", "\\/")}
    return tuple(forms)


def clip(text: str, limit: int) -> str:
    """The first ``limit`` characters of ``text``, marked when cut. Redact before clipping: a secret
    cut in two would no longer match."""
    return text if len(text) <= limit else text[:limit] + "…"
