"""Builds tests/data/code_languages/snippets.jsonl: labelled code snippets for ``code-language``.

Source: hand-written programs in ``code_languages/programs/LANG.txt`` (5 per language, separated by
``@@@ NAME`` lines; nothing comes from the classifier). Each program gives three snippets: the whole
program (``kind`` long, or short when it has at most 12 lines) and two windows of 6–12 lines (its
head and its middle), the shape of code an assistant quotes. Window lengths follow from a hash.

Split, fixed before any tuning: within each language the programs are ordered by sha256 of their
id, and alternate test, tune, test, … (3 test, 2 tune of 5), so every language has test rows and
the windows of one program never straddle the split. Run: python tests/data/build_code_languages.py
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

HERE = Path(__file__).with_name("code_languages")
OUT = HERE / "snippets.jsonl"


def _digest(text: str) -> int:
    return int.from_bytes(hashlib.sha256(f"code_languages\x00{text}".encode()).digest()[:8], "big")


def sections(path: Path) -> list[tuple[str, str]]:
    """(name, text) of each ``@@@ NAME`` section of a file, blank lines around the text removed."""
    found, name, lines = [], None, []
    for line in [*path.read_text().split("\n"), "@@@ end"]:
        if line.startswith("@@@ "):
            if name is not None:
                found.append((name, "\n".join(lines).strip("\n")))
            name, lines = line[4:].strip(), []
        else:
            lines.append(line)
    return found


def programs() -> list[tuple[str, str, str]]:
    """(language, program id, source) of every hand-written program."""
    return [(path.stem, f"{path.stem}/{name}", source)
            for path in sorted((HERE / "programs").glob("*.txt")) for name, source in sections(path)]


def readability_programs() -> list[tuple[str, str]]:
    """(name, source) of the clean Python programs code-readability must rank above their minified
    versions."""
    return sections(HERE / "readability_python.txt")


def minified(code: str) -> str:
    """The program as python-minifier shrinks it: names renamed, docstrings dropped."""
    import python_minifier

    return python_minifier.minify(code, rename_globals=True, remove_literal_statements=True)


def _windows(program_id: str, lines: list[str]) -> list[list[str]]:
    size = 6 + _digest(program_id) % 7  # 6..12 lines
    middle = max(0, len(lines) // 2 - size // 2)
    return [lines[:size], lines[middle:middle + size]]


def build() -> list[dict]:
    rows = []
    by_language: dict[str, list[tuple[str, str]]] = {}
    for language, program_id, source in programs():
        by_language.setdefault(language, []).append((program_id, source))
    for language, items in sorted(by_language.items()):
        items.sort(key=lambda item: _digest(item[0]))
        for rank, (program_id, source) in enumerate(items):
            split = "test" if rank % 2 == 0 else "tune"
            lines = source.split("\n")
            variants = [("long" if len(lines) > 12 else "short", lines)]
            variants += [("short", window) for window in _windows(program_id, lines)]
            for n, (kind, chunk) in enumerate(variants):
                rows.append({"id": f"{program_id}#{n}", "group": program_id, "language": language, "kind": kind,
                             "split": split, "code": "\n".join(chunk).strip("\n")})
    return rows


if __name__ == "__main__":
    rows = build()
    OUT.write_text("".join(json.dumps(row) + "\n" for row in rows))
    print(f"{len(rows)} snippets, {len({r['language'] for r in rows})} languages, "
          f"{sum(r['split'] == 'test' for r in rows)} test -> {OUT}")
