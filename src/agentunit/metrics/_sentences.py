"""Sentence splitting for statement-level metrics (the shared claim splitter's first stage)."""

from __future__ import annotations

import re

_BOUNDARY = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]*[A-Z0-9])")
_ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.", "Mr.", "Mrs.", "Ms.", "Dr.", "Prof.", "St.", "No.", "U.S.")
MAX_STATEMENTS = 12
# "H. P. Lovecraft", "John F. Kennedy", "Jun. K": an initial before or after the full stop is not a
# sentence boundary ("A" and "I" open sentences too often to count).
_INITIAL_BEFORE = re.compile(r"(?:^|\s)[A-Z]\.$")
_INITIAL_AFTER = re.compile(r"[\"'(\[]*(?![AI]\b)[A-Z](?:\.|\s|$)")


def split_sentences(text: str, limit: int | None = MAX_STATEMENTS) -> list[str]:
    """Sentences of ``text``: split after . ! ? followed by space and an upper-case letter or digit,
    not after common abbreviations nor next to an initial; bullet lines count as sentences; at most
    ``limit`` (None: all)."""
    out: list[str] = []
    for line in text.splitlines():
        line = line.strip().lstrip("-*•").strip()
        if not line:
            continue
        start = 0
        for match in _BOUNDARY.finditer(line):
            piece = line[start:match.start()].strip()
            if piece.endswith(_ABBREVIATIONS) or _INITIAL_BEFORE.search(piece) \
                    or _INITIAL_AFTER.match(line, match.end()):
                continue
            if piece:
                out.append(piece)
            start = match.end()
        tail = line[start:].strip()
        if tail:
            out.append(tail)
    return out[:limit]
