"""promptfoo's assertion vocabulary that native suites share: the type names it renames, its default
thresholds, and its reading of a CSV ``__expected`` cell (``contains: foo``, ``not-equals: bar``,
``similar(0.8): …``; plain text is ``equals``).

Native CSV cases files and the promptfoo loader (``agentunit.promptfoo``) both read ``__expected``
cells, so the grammar lives here, below both: the suite layer never imports the promptfoo package.
"""

from __future__ import annotations

import re
from typing import Any

from agentunit.metrics.registry import UnknownMetricError, lookup

# promptfoo name → agentunit name, where they differ.
RENAMED = {
    "model-graded-factuality": "factuality",
    "conversation-relevance": "conversation-relevancy",
    "context-faithfulness": "context-faithfulness",
    "is-valid-function-call": "is-valid-openai-function-call",
}
# promptfoo's default threshold where agentunit's default differs.
PROMPTFOO_THRESHOLDS = {"similar": 0.75}
# promptfoo types with no agentunit equivalent, and what to write instead.
NO_EQUIVALENT = {
    "javascript": "write the check in Python: {type: python, value: \"<expression over output>\"}",
    "webhook": "call the service from a python assertion",
    "human": "review outputs in `agentunit view`",
}
# A CSV ``__expected`` cell is ``[not-]TYPE[(threshold)][:value]``; promptfoo's pattern lists its types
# longest first, so ``similar:cosine(0.8):x`` is the type ``similar:cosine``, not ``similar`` with the
# value ``cosine(0.8):x``.
_CELL_TYPE = re.compile(r"[a-z][a-z0-9-]*(?::[a-z][a-z0-9-]*)*")
_CELL_TAIL = re.compile(r"(?:\((\d+(?:\.\d+)?)\))?(?::([\s\S]*))?")
_SIMILAR_MEASURES = ("cosine", "dot", "euclidean")


def assertion_from_string(cell: str) -> dict[str, Any]:
    """promptfoo's reading of a CSV ``__expected`` cell: ``javascript:``/``fn:``/``eval:`` code,
    ``grade:`` a rubric, ``python:`` code, ``[not-]TYPE[(threshold)][:value]`` for a known type, else
    ``equals`` the whole text."""
    for prefix, kind in (("javascript:", "javascript"), ("fn:", "javascript"), ("eval:", "javascript"),
                         ("grade:", "llm-rubric"), ("python:", "python")):
        if cell.startswith(prefix):
            return {"type": kind, "value": cell[len(prefix):].strip()}
    negate = "not-" if cell.startswith("not-") else ""
    rest = cell[len(negate):]
    ends = sorted({m.start() for m in re.finditer(r"[:(]", rest)} | {len(rest)}, reverse=True)
    for end in ends:  # the longest known type first, as promptfoo's pattern tries them
        kind, tail = rest[:end], _CELL_TAIL.fullmatch(rest[end:])
        if tail is None or not _CELL_TYPE.fullmatch(kind) or not _known_type(kind):
            continue
        threshold, value = tail.groups()
        entry: dict[str, Any] = {"type": negate + kind}
        if value is not None:
            entry["value"] = value.strip()
        if threshold is not None:
            entry["threshold"] = float(threshold)
        return entry
    return {"type": "equals", "value": cell}


def _known_type(kind: str) -> bool:
    if kind in NO_EQUIVALENT or kind in RENAMED:
        return True
    if kind.startswith("similar:"):
        return kind.split(":", 1)[1] in _SIMILAR_MEASURES
    try:
        lookup(kind)
        return True
    except UnknownMetricError:
        return False
