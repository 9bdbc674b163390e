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
import os
import re
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
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
# A base64 run shorter than this is not redacted: a given 4-character run turns up about once per 16 MB
# of random base64 (an image in a reply) and a secret has a dozen runs, so short ones would corrupt
# data without protecting anything; at 8 characters it is once per 280 TB.
MIN_ENCODED_LENGTH = 8

# Characters no common encoder escapes (percent-encoding, JSON, HTML): in every form they are written
# as themselves, which is what lets a plain substring test rule a secret out (``_Redactor.anchors``).
_NEVER_ESCAPED = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._")
# How JSON writes a character with a short escape (``\/`` only by some encoders), and how HTML does.
_JSON_SHORT = {'"': '\\"', "\\": "\\\\", "/": "\\/", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_HTML_NAMED = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;"}
_URLSAFE = str.maketrans("+/", "-_")


def redact_text(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every written form of each secret replaced by ``***``: as written, percent-encoded,
    JSON- or HTML-escaped (``_secret_patterns``), and base64-encoded alone or inside longer base64 data
    (``_base64_forms``). Secrets under ``MIN_SECRET_LENGTH`` characters are kept.

    The forms are compiled once per set of secrets into one regex (``_redactor``); a text holding none
    of their literal anchors is returned after a few substring tests, otherwise one pass replaces."""
    if not text or not secrets:
        return text
    redactor = _redactor(secrets if isinstance(secrets, frozenset) else frozenset(secrets))
    if redactor is None or (redactor.anchors and not any(anchor in text for anchor in redactor.anchors)):
        return text
    return redactor.pattern.sub(REDACTED, text)


@dataclass(frozen=True, slots=True)
class _Redactor:
    """``pattern`` matches every form of every secret; every match contains one of ``anchors`` (empty
    when some secret has no character that is never escaped: then the pattern always runs)."""

    pattern: re.Pattern[str]
    anchors: tuple[str, ...]


@functools.lru_cache(maxsize=64)
def _redactor(secrets: frozenset[str]) -> _Redactor | None:
    """The redactor of ``secrets``, or None when none is long enough to redact.

    The alternatives go longest first (by the shortest text each can match): at a given position the
    regex takes the first that matches, so a secret containing another is removed whole. Each starts
    with a literal character, so the engine skips the positions no form starts at. The anchors are a
    secret's longest run of never-escaped characters and its base64 forms (``_shortest_anchors``)."""
    alternatives: dict[str, int] = {}
    anchors: set[str] = set()
    always = False
    for secret in secrets:
        if len(secret) < MIN_SECRET_LENGTH:
            continue
        alternatives.update(dict.fromkeys(_secret_patterns(secret), len(secret)))
        run = _literal_run(secret)
        always = always or not run
        anchors.add(run)
        for form in _base64_forms(secret):
            alternatives.setdefault(re.escape(form), len(form))
            anchors.add(form)
    if not alternatives:
        return None
    pattern = re.compile("|".join(sorted(alternatives, key=lambda p: (-alternatives[p], p))))
    return _Redactor(pattern, () if always else _shortest_anchors(anchors))


def _shortest_anchors(anchors: set[str]) -> tuple[str, ...]:
    """``anchors`` less each one that contains another: a text holding it holds that one too."""
    return tuple(sorted(a for a in anchors if not any(b != a and b in a for b in anchors)))


def _literal_run(secret: str) -> str:
    """The longest run of ``secret``'s characters that every encoder writes as themselves ('' if none)."""
    runs = "".join(char if char in _NEVER_ESCAPED else " " for char in secret).split()
    return max(runs, key=len, default="")


@functools.lru_cache(maxsize=256)
def _secret_patterns(secret: str) -> tuple[str, ...]:
    """Regex sources that together match ``secret`` with each character as written or as an encoder
    writes it (``_char_forms``), so every mix is caught: ``quote``, ``quote_plus`` and a client's own
    choice of which characters to escape, upper- or lower-case hex, ``json.dumps`` with or without
    ``ensure_ascii`` (``\\uXXXX``, surrogate pairs, ``\\/``), and ``html.escape``. One source per form
    of the first character, each followed by the rest as groups of alternatives."""
    rest = "".join(_group(_char_forms(char)) for char in secret[1:])
    return tuple(form + rest for form in _char_forms(secret[0]))


def _group(forms: tuple[str, ...]) -> str:
    """One regex group of alternatives (a lone form as it is)."""
    return forms[0] if len(forms) == 1 else "(?:" + "|".join(forms) + ")"


@functools.lru_cache(maxsize=1024)
def _char_forms(char: str) -> tuple[str, ...]:
    """Regex sources matching ``char`` itself, percent-encoded (its UTF-8 bytes as ``%XX``, or ``%25XX``
    for a URL inside a URL; ``+`` for a space), JSON-escaped (short escape or ``\\u`` of its UTF-16
    units) and, for ``& < > " '``, HTML-escaped. A character no encoder escapes (``_NEVER_ESCAPED``)
    only as itself."""
    if char in _NEVER_ESCAPED:
        return (char,)
    forms = [re.escape(char), "".join("%(?:25)?" + _hex(byte, 2) for byte in _utf8(char)),
             "".join(r"\\u" + _hex(unit, 4) for unit in _utf16_units(char))]
    if char == " ":
        forms.append(r"\+")
    if char in _JSON_SHORT:
        forms.append(re.escape(_JSON_SHORT[char]))
    if char in _HTML_NAMED:
        forms += [re.escape(_HTML_NAMED[char]), f"&#0*{ord(char)};", f"&#[xX]0*{_hex(ord(char), 1)};"]
    return tuple(forms)


def _hex(value: int, width: int) -> str:
    """A regex for ``value`` in hex, at least ``width`` digits, each letter in either case."""
    return "".join(f"[{d}{d.upper()}]" if d.isalpha() else d for d in f"{value:0{width}x}")


def _utf8(text: str) -> bytes:
    """``text`` as UTF-8; an undecodable byte of the environment (surrogateescape) as that byte."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # another lone surrogate: JSON and the store write it as is
        return text.encode("utf-8", "surrogatepass")


def _utf16_units(char: str) -> tuple[int, ...]:
    """The UTF-16 code units of ``char`` (a surrogate pair above U+FFFF), as JSON's ``\\u`` escapes them."""
    code = ord(char)
    if code < 0x10000:
        return (code,)
    code -= 0x10000
    return 0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)


@functools.lru_cache(maxsize=256)
def _base64_forms(secret: str) -> tuple[str, ...]:
    """The base64 runs that carry ``secret``, each at least ``MIN_ENCODED_LENGTH`` characters.

    Its bytes are UTF-8, and Latin-1 too where that differs (HTTP Basic auth is Latin-1 in aiohttp).
    Encoded alone, the secret is the whole encoding, padded or not. Inside longer encoded data (a JSON
    body, ``user:secret`` in a Basic header) its characters depend on where it starts: k = 0, 1 or 2
    bytes past a 3-byte group boundary. So for each k the run is the encoding of k filler bytes + the
    secret, less the first ⌈8k/6⌉ characters (they hold filler bits) and a last partial character (it
    holds bits of the byte after): what remains is the same whatever surrounds the secret. This is
    how secret scanners and CI log maskers catch base64 (GitHub Actions' ``Base64StringEscapeShift``).
    Each run in the standard and the URL-safe alphabet."""
    from base64 import b64encode  # here: only a run with secrets builds their forms (not every start-up)

    encodings = {_utf8(secret)}
    try:
        encodings.add(secret.encode("latin-1"))
    except UnicodeEncodeError:
        pass
    runs: set[str] = set()
    for data in encodings:
        whole = b64encode(data).decode()
        runs |= {whole, whole.rstrip("=")}
        for k in range(3):
            start, end = -(-8 * k // 6), 8 * (k + len(data)) // 6
            runs.add(b64encode(b"\0" * k + data).decode()[start:end])
    runs |= {run.translate(_URLSAFE) for run in runs}
    return tuple(sorted(run for run in runs if len(run.rstrip("=")) >= MIN_ENCODED_LENGTH))


def url_credentials(url: str, secrets: AbstractSet[str]) -> set[str]:
    """What an HTTP client sends for ``url``'s userinfo (``https://user:pass@host``) that must count as
    a secret: the password and ``user:password`` — the base64 of which is the ``Authorization: Basic``
    header aiohttp builds — percent-decoded as the client decodes them (yarl). The user, and ``user:``
    with no password, only when the user holds one of ``secrets`` (a token as the user name): a plain
    user name is not a secret."""
    if "@" not in url:
        return set()
    from yarl import URL  # aiohttp's own URL type: the same parse and decoding as the request

    try:
        parsed = URL(url)
    except (ValueError, TypeError):  # the request fails too; its error text is redacted as written
        return set()
    user, password = parsed.user or "", parsed.password or ""
    raw_user = parsed.raw_user or ""
    secret_user = any(s in user or s in raw_user for s in secrets if len(s) >= MIN_SECRET_LENGTH)
    if not password and not secret_user:
        return set()
    return {form for form in (password, f"{user}:{password}", user if secret_user else "") if form}


def clip(text: str, limit: int) -> str:
    """The first ``limit`` characters of ``text``, marked when cut. Redact before clipping: a secret
    cut in two would no longer match."""
    return text if len(text) <= limit else text[:limit] + "…"
