"""Make any text storable: what a target, a judge or a data file produced may not be valid Unicode.

A model cut off mid-emoji leaves a lone UTF-16 surrogate (``"\\ud83d"``) in a Python string; UTF-8
(SQLite, report files, the terminal) cannot encode it. Such text is repaired before it is stored.
"""

from __future__ import annotations

import json
from typing import Any


def encodable(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD, so it encodes as UTF-8.

    Algorithm: ASCII text is returned as is (one C-level scan); other text is encoded to UTF-8
    once, and only when that fails (a surrogate is present) is it round-tripped through UTF-16 with
    ``surrogatepass``, which joins valid high+low pairs into their character and decodes each lone
    surrogate as U+FFFD.
    """
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return text


def encodable_or_none(value: str | None) -> str | None:
    """``encodable`` for optional text; values that are not strings pass through (the store checks them)."""
    return encodable(value) if isinstance(value, str) else value


def encodable_json(value: Any) -> str:
    """JSON text of ``value`` (non-JSON values as ``str``), made encodable; non-ASCII kept as is."""
    return encodable(to_json(value))


# json.dumps with options builds a new encoder on every call (a few µs, paid per stored value).
_ENCODER = json.JSONEncoder(ensure_ascii=False, default=str)


def to_json(value: Any) -> str:
    """``json.dumps(value, ensure_ascii=False, default=str)``, with one encoder made once."""
    return _ENCODER.encode(value)
