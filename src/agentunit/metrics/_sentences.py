"""Sentence splitting for statement-level metrics (the shared claim splitter's first stage)."""

from __future__ import annotations

import re

_BOUNDARY = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]*[A-Z0-9])")
_ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.", "Mr.", "Mrs.", "Ms.", "Dr.", "Prof.", "St.", "No.", "U.S.")
MAX_STATEMENTS = 12


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text``: split after . ! ? followed by space and an upper-case letter or digit,
    not after common abbreviations; bullet lines count as sentences; at most MAX_STATEMENTS."""
    out: list[str] = []
    for line in text.splitlines():
        line = line.strip().lstrip("-*•").strip()
        if not line:
            continue
        start = 0
        for match in _BOUNDARY.finditer(line):
            piece = line[start:match.start()].strip()
            if piece.endswith(_ABBREVIATIONS):
                continue
            if piece:
                out.append(piece)
            start = match.end()
        tail = line[start:].strip()
        if tail:
            out.append(tail)
    return out[:MAX_STATEMENTS]
