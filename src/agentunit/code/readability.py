"""Readability of a piece of code: established measures, each mapped to 0–1, and their weighted mean.

Measures (raw value → score, linear between the two thresholds, clamped):

* ``maintainability`` (Python only): radon's maintainability index (0–100, from Halstead volume,
  cyclomatic complexity, lines and comments); 10 → 0, 50 → 1. Weight 0.15.
* ``complexity``: mean cyclomatic complexity per function — radon for Python, lizard for the
  languages it reads; 15 → 0, 5 → 1; code without functions scores 1. Weight 0.15.
* ``line_length``: mean over non-blank lines of a per-line score, 160 characters → 0, 80 → 1, so a
  few long lines cost little and minified one-liners cost all. Weight 0.2.
* ``identifiers``: share of distinct identifiers (pygments ``Name`` tokens) that read as words:
  every ``snake_case``/``camelCase`` part at least 3 letters long or a conventional short name
  (``i``, ``j``, ``k``, ``n``, ``x``, ``y``, ``id``, ``db``, …); 0.5 → 0, 0.9 → 1. Weight 0.3.
* ``comments``: share of non-blank lines that hold a comment or a docstring; 0 → 0, 0.1 → 1.
  Weight 0.2.

The value is the weighted mean of the measures that apply (maintainability only for Python;
complexity where radon or lizard reads the language).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

__all__ = ["MEASURES", "Measure", "Readability", "readability"]

# name → (weight, raw value scoring 0, raw value scoring 1)
MEASURES: dict[str, tuple[float, float, float]] = {
    "maintainability": (0.15, 10.0, 50.0),
    "complexity": (0.15, 15.0, 5.0),
    "line_length": (0.2, 160.0, 80.0),
    "identifiers": (0.3, 0.5, 0.9),
    "comments": (0.2, 0.0, 0.1),
}
_SHORT_NAMES = frozenset("i j k n m x y z id db io os ok fn df ax _ e f".split())
_WORD_PART = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
# lizard picks its reader by file extension.
_LIZARD_EXTENSIONS = {"c": "c", "cpp": "cpp", "java": "java", "csharp": "cs", "javascript": "js",
                      "typescript": "ts", "go": "go", "rust": "rs", "ruby": "rb", "php": "php", "swift": "swift",
                      "kotlin": "kt", "scala": "scala", "lua": "lua", "perl": "pl", "r": "r"}


@dataclass(frozen=True)
class Measure:
    """One measure: its raw value, its 0–1 score and its weight in the mean."""

    name: str
    raw: float
    score: float
    weight: float

    def to_dict(self) -> dict[str, Any]:
        low, high = MEASURES[self.name][1:]
        return {"raw": round(self.raw, 3), "score": round(self.score, 3), "weight": self.weight,
                "thresholds": {"zero": low, "one": high}}


@dataclass(frozen=True)
class Readability:
    """The weighted mean of the measures that apply, and the measures."""

    value: float
    measures: list[Measure]

    def detail(self) -> dict[str, Any]:
        return {m.name: m.to_dict() for m in self.measures}


def _score(name: str, raw: float) -> Measure:
    weight, zero, one = MEASURES[name]
    score = (raw - zero) / (one - zero)
    return Measure(name, raw, min(1.0, max(0.0, score)), weight)


def _python_measures(code: str) -> list[Measure]:
    from radon.complexity import cc_visit
    from radon.metrics import mi_visit

    try:
        maintainability = mi_visit(code, multi=True)
        blocks = cc_visit(code)
    except SyntaxError:
        return []  # not Python after all: the language-neutral measures still apply
    functions = [b.complexity for b in blocks if not hasattr(b, "methods")]  # radon lists classes too
    complexity = sum(functions) / len(functions) if functions else 1.0
    return [_score("maintainability", maintainability), _score("complexity", complexity)]


def _lizard_measures(code: str, language: str) -> list[Measure]:
    extension = _LIZARD_EXTENSIONS.get(language)
    if extension is None:
        return []
    from lizard import analyze_file

    try:
        functions = analyze_file.analyze_source_code(f"snippet.{extension}", code).function_list
    except Exception:  # lizard has no reader for this extension, or choked on the snippet
        return []
    complexity = sum(f.cyclomatic_complexity for f in functions) / len(functions) if functions else 1.0
    return [_score("complexity", complexity)]


def _line_length(code: str) -> Measure:
    lines = [line.rstrip() for line in code.split("\n") if line.strip()]
    weight, zero, one = MEASURES["line_length"]
    scores = [min(1.0, max(0.0, (zero - len(line)) / (zero - one))) for line in lines]
    mean_length = sum(len(line) for line in lines) / len(lines)
    # The score is the mean per-line score; the raw value shown is the mean length for reading.
    return Measure("line_length", mean_length, sum(scores) / len(scores), weight)


def _lexed(code: str, language: str):
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    from agentunit.code.language import _BACKENDS

    alias = _BACKENDS.get(language, (None, "text"))[1]
    try:
        lexer = get_lexer_by_name(alias, **({"startinline": True} if language == "php" else {}))
    except ClassNotFound:
        lexer = get_lexer_by_name("text")
    return list(lexer.get_tokens(code))


def _reads_as_words(name: str) -> bool:
    bare = name.strip("$@%_")
    if not bare or bare.lower() in _SHORT_NAMES:
        return True
    parts = [p for p in _WORD_PART.findall(bare) if not p.isdigit()]
    return bool(parts) and all(len(p) >= 3 or p.lower() in _SHORT_NAMES for p in parts)


def _identifier_and_comment_measures(code: str, language: str) -> list[Measure]:
    from pygments.token import Comment, Keyword, Name, String

    names, comment_lines, line = set(), set(), 0
    for kind, value in _lexed(code, language):
        if (kind in Comment or kind in String.Doc) and value.strip():
            comment_lines.update(range(line, line + value.count("\n") + 1))
        elif kind in Name and kind not in Name.Builtin and kind not in Keyword and value.strip():
            names.add(value.strip())
        line += value.count("\n")
    measures = []
    if names:
        measures.append(_score("identifiers", sum(map(_reads_as_words, names)) / len(names)))
    nonblank = [i for i, text in enumerate(code.split("\n")) if text.strip()]
    measures.append(_score("comments", len(comment_lines & set(nonblank)) / max(1, len(nonblank))))
    return measures


def readability(code: str, language: str) -> Readability:
    """Measure ``code`` (written in ``language``, a canonical name) and combine: the weighted mean of the
    scores of the measures that apply. Empty code scores 0 with no measures."""
    if not code.strip():
        return Readability(0.0, [])
    measures = _python_measures(code) if language == "python" else _lizard_measures(code, language)
    measures += [_line_length(code), *_identifier_and_comment_measures(code, language)]
    total = sum(m.weight for m in measures)
    return Readability(sum(m.weight * m.score for m in measures) / total, measures)
