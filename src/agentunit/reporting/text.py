"""Make text from the system under test inert where reports put it: the terminal, XML and web pages.

Outputs, errors, reasons and case ids are data. On a terminal an ESC (``\\x1b[2J``,
``\\x1b]0;title\\x07``) or another control character would act; a line break would let a value fake
a line of our summary. In XML 1.0 most control characters, lone surrogates and U+FFFE/U+FFFF are
not allowed at all. On a web page (the HTML report, the viewer) a bidi control reorders what is shown
("Trojan Source": ``\\u202e`` makes ``exe.txt`` read ``txt.exe``) and invisible characters hide text.
Each is shown as a visible escape (``\\x1b``, ``\\n``, ``\\u202e``) instead.
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

# What a browser would not show as it is: C0 controls but tab, line feed and carriage return (a page keeps
# those: outputs span lines), DEL and the C1 controls, the soft hyphen; the bidi controls (U+061C, U+200E/F,
# U+202A–U+202E, U+2066–U+2069), which reorder the text around them; zero-width and other invisible format
# characters (U+180E, U+200B, U+2060–U+2064, U+206A–U+206F, U+FEFF, U+FFF9–U+FFFB); and the tag characters
# U+E0000–U+E007F (invisible ASCII: hidden instructions). The joiners U+200C/U+200D are kept: emoji sequences
# and Persian, Indic and other scripts need them to show as written. Each is one ``str.isprintable`` refuses.
_PAGE_INVISIBLE = ("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\xad\u061c\u180e\u200b\u200e\u200f\u202a-\u202e"
                   "\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000e0000-\U000e007f]")

_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


@cache
def _pattern(characters: str) -> re.Pattern[str]:
    """The compiled class (compiled when first needed: ~0.4 ms each, at start-up otherwise)."""
    return re.compile(characters)


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if char in _SHORT:
        return _SHORT[char]
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def visible(text: Any) -> str:
    """``text`` (None → "") as one terminal-safe line: each control, separator, bidi control or lone
    surrogate replaced by its escape (``\\x1b``, ``\\n``, ``\\u202e``); printable text as it is, else one
    regex pass."""
    if text is None:
        return ""
    text = str(text)
    return text if text.isprintable() else _pattern(_TERMINAL_UNSAFE).sub(_escape, text)


def visible_on_page(text: Any) -> str:
    """``text`` (None → "") for a web page: each character a browser would not show as it is (controls but
    tab and line breaks, bidi controls, invisible format and tag characters; ``_PAGE_INVISIBLE``) replaced
    by its escape (``\\u202e``, ``\\U000e0041``). Printable text as it is, else one regex pass. Not yet
    HTML-escaped (``<``, ``&`` stay)."""
    if text is None:
        return ""
    text = str(text)
    return text if text.isprintable() else _pattern(_PAGE_INVISIBLE).sub(_escape, text)


def invisible_as_references(markup: str) -> str:
    """``markup`` (already HTML-escaped) with each character ``visible_on_page`` would escape written as a
    character reference (``&#x202e;``) instead: for a form field's value, which must come back unchanged when
    the form is sent (a browser decodes the reference to the same character), yet is never raw in the page."""
    if markup.isprintable():
        return markup
    return _pattern(_PAGE_INVISIBLE).sub(lambda match: f"&#x{ord(match.group()):x};", markup)


def xml_chars(text: Any) -> str:
    """``text`` (None → "") with every character XML 1.0 forbids replaced by its visible escape;
    tab, line feed and carriage return are kept. Not yet XML-escaped (``<``, ``&`` stay)."""
    if text is None:
        return ""
    return _pattern(_XML_INVALID).sub(_escape, str(text))
