"""Make text from the system under test inert where reports put it: the terminal and XML.

Outputs, errors, reasons and case ids are data. On a terminal an ESC (``\\x1b[2J``,
``\\x1b]0;title\\x07``) or another control character would act; a line break would let a value fake
a line of our summary. In XML 1.0 most control characters, lone surrogates and U+FFFE/U+FFFF are
not allowed at all. Both are shown as visible escapes (``\\x1b``, ``\\n``, ``\\ud83d``) instead.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

# C0 and C1 controls, DEL, the Unicode line/paragraph separators, bidirectional-text controls (they
# reorder what a terminal shows, "Trojan Source"), and lone surrogates (not encodable as UTF-8). Each is
# a character ``str.isprintable`` refuses, so printable text needs no search.
_TERMINAL_UNSAFE = "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
# Everything outside XML 1.0's Char production (#x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] |
# [#x10000-#x10FFFF]), written as the characters it leaves out: the negated class takes 40 ms to compile.
_XML_INVALID = "[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]"

_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


@cache
def _pattern(characters: str) -> re.Pattern[str]:
    """The compiled class (compiled when first needed: ~0.4 ms each, at start-up otherwise)."""
    return re.compile(characters)


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    return _SHORT.get(char) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def visible(text: Any) -> str:
    """``text`` (None → "") as one terminal-safe line: each control, separator, bidi control or lone
    surrogate replaced by its escape (``\\x1b``, ``\\n``, ``\\u202e``); printable text as it is, else one
    regex pass."""
    if text is None:
        return ""
    text = str(text)
    return text if text.isprintable() else _pattern(_TERMINAL_UNSAFE).sub(_escape, text)


def xml_chars(text: Any) -> str:
    """``text`` (None → "") with every character XML 1.0 forbids replaced by its visible escape;
    tab, line feed and carriage return are kept. Not yet XML-escaped (``<``, ``&`` stay)."""
    if text is None:
        return ""
    return _pattern(_XML_INVALID).sub(_escape, str(text))
