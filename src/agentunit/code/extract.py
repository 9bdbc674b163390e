"""Code in a model's output: fenced blocks (with or without a language tag), or the whole output.

Shared by every code metric. ``code_blocks`` finds the blocks; ``select_code`` applies a metric's
``config.block`` (``first``, ``last``, ``all`` or a 0-based index) and says which block was used.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from agentunit.errors import MetricConfigError

# An opening fence of 3+ backticks or tildes, an optional info string, the body, the same fence.
_FENCE = re.compile(r"^(?P<indent>[ \t]{0,3})(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n`]*)\n(?P<body>.*?)"
                    r"^[ \t]{0,3}(?P=fence)[ \t]*$", re.M | re.S)
_LANGUAGE_ALIASES = {"py": "python", "python3": "python", "py3": "python", "js": "javascript", "node": "javascript",
                     "nodejs": "javascript", "ts": "typescript", "sh": "bash", "shell": "bash", "zsh": "bash",
                     "console": "bash", "c++": "cpp", "cc": "cpp", "hpp": "cpp", "cxx": "cpp", "c#": "csharp",
                     "cs": "csharp", "golang": "go", "rs": "rust", "rb": "ruby", "kt": "kotlin", "kts": "kotlin",
                     "yml": "yaml", "psql": "sql", "postgres": "sql", "postgresql": "sql", "mysql": "sql",
                     "sqlite": "sql", "objc": "objective-c", "objectivec": "objective-c", "ps1": "powershell",
                     "pwsh": "powershell", "jsx": "javascript", "tsx": "typescript", "htm": "html", "xhtml": "html"}


@dataclass(frozen=True)
class CodeBlock:
    """One piece of code: its text, the fence's language tag (normalised, None when untagged or when
    the whole output is the code), its index among the blocks, and whether it came from a fence."""

    code: str
    tag: str | None
    index: int
    fenced: bool

    def describe(self) -> dict[str, Any]:
        return {"index": self.index, "tag": self.tag, "fenced": self.fenced, "lines": self.code.count("\n") + 1}


def normalise_language(name: str) -> str:
    """A language name in lowercase with common aliases folded (``py`` → ``python``, ``c++`` → ``cpp``)."""
    name = name.strip().lower()
    return _LANGUAGE_ALIASES.get(name, name)


def code_blocks(text: str) -> list[CodeBlock]:
    """Every fenced block of ``text`` in order; when there is none, the whole text (stripped) as one
    unfenced block; an empty text has no code."""
    blocks = []
    for match in _FENCE.finditer(text):
        info = match.group("info").strip().split()
        tag = normalise_language(info[0].strip("{}.")) if info else None
        body = match.group("body")
        indent = len(match.group("indent"))
        if indent:  # an indented fence indents its body too
            body = "\n".join(line[indent:] if line[:indent].isspace() else line for line in body.split("\n"))
        blocks.append(CodeBlock(body.rstrip("\n"), tag or None, len(blocks), True))
    if blocks:
        return blocks
    stripped = text.strip("\n")
    return [CodeBlock(stripped, None, 0, False)] if stripped.strip() else []


def check_block_config(block: Any) -> None:
    """Raise MetricConfigError unless ``block`` is first, last, all or a non-negative integer."""
    if block in ("first", "last", "all"):
        return
    if isinstance(block, bool) or not isinstance(block, int) or block < 0:
        raise MetricConfigError(f"config.block must be first, last, all or a block number from 0, got {block!r}")


def select_code(text: str, block: Any = "first") -> tuple[list[CodeBlock], str | None]:
    """The blocks ``config.block`` picks from ``text`` and, when none can be picked, why (no code, or
    fewer blocks than the index asks for). ``all`` returns every block."""
    check_block_config(block)
    blocks = code_blocks(text)
    if not blocks:
        return [], "the output holds no code"
    if block == "all":
        return blocks, None
    if block == "first":
        return [blocks[0]], None
    if block == "last":
        return [blocks[-1]], None
    if block >= len(blocks):
        return [], f"config.block is {block} but the output has {len(blocks)} code block(s)"
    return [blocks[block]], None
