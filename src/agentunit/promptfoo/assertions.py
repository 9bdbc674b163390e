"""promptfoo assertions → agentunit metric entries.

Most promptfoo assertion types are agentunit metric names already (``equals``, ``icontains``,
``is-json``, ``similar``, ``llm-rubric``, …); the rest are renamed here (``model-graded-factuality``
→ ``factuality``) or carry a suffix (``similar:euclidean`` → ``similar`` with ``config.metric``).
``not-`` works for every type. JavaScript (``javascript`` assertions, ``transform``) is a problem
with the line and the Python alternative, never skipped. String values are Nunjucks templates over
the test's vars, as in promptfoo.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path
from typing import Any

from agentunit.core.templating import TemplateError, is_template, render
from agentunit.metrics.registry import UnknownMetricError, lookup
from agentunit.suite.fields import shown
from agentunit.suite.problems import Problems

ASSERTION_KEYS = ("type", "value", "threshold", "weight", "metric", "config", "assert", "provider",
                  "rubricPrompt", "transform", "contextTransform")
# promptfoo name → agentunit name, where they differ.
RENAMED = {
    "model-graded-factuality": "factuality",
    "conversation-relevance": "conversation-relevancy",
    "context-faithfulness": "context-faithfulness",
    "is-valid-function-call": "is-valid-openai-function-call",
}
# promptfoo's default threshold where agentunit's default differs.
PROMPTFOO_THRESHOLDS = {"similar": 0.75}
_NO_EQUIVALENT = {
    "javascript": "write the check in Python: {type: python, value: \"<expression over output>\"}",
    "webhook": "call the service from a python assertion",
    "classifier": "use a python assertion with a local classifier, or llm-rubric",
    "human": "review outputs in `agentunit view`",
}
# Types promptfoo reads from a CSV ``__expected`` cell (``type:value`` or ``type(threshold):value``).
_CELL = re.compile(r"^(not-)?([a-z][a-z0-9:-]*?)(?:\((\d+(?:\.\d+)?)\))?(?::([\s\S]*))?$")


def assertion_from_string(cell: str) -> dict[str, Any]:
    """promptfoo's reading of a CSV ``__expected`` cell: ``javascript:``/``fn:``/``eval:`` code,
    ``grade:`` a rubric, ``python:`` code, ``[not-]TYPE[(threshold)][:value]`` for a known type, else
    ``equals`` the whole text."""
    for prefix, kind in (("javascript:", "javascript"), ("fn:", "javascript"), ("eval:", "javascript"),
                         ("grade:", "llm-rubric"), ("python:", "python")):
        if cell.startswith(prefix):
            return {"type": kind, "value": cell[len(prefix):].strip()}
    match = _CELL.match(cell)
    if match and _known_type(match.group(2)):
        negate, kind, threshold, value = match.groups()
        entry: dict[str, Any] = {"type": (negate or "") + kind}
        if value is not None:
            entry["value"] = value.strip()
        if threshold is not None:
            entry["threshold"] = float(threshold)
        return entry
    return {"type": "equals", "value": cell}


def _known_type(kind: str) -> bool:
    if kind in _NO_EQUIVALENT or kind in RENAMED or kind.startswith("similar:"):
        return True
    try:
        lookup(kind)
        return True
    except UnknownMetricError:
        return False


def split_values(value: str) -> list[str]:
    """A string value split as promptfoo splits lists: CSV with quoted fields and ``""`` escapes."""
    rows = list(csv.reader([value], skipinitialspace=True))
    return [item.strip() for item in rows[0]] if rows else []


def convert_assertion(entry: Any, key_path: tuple[Any, ...], problems: Problems, *, variables: dict[str, Any],
                      base_dir: Path, file: str | None = None, line: int | None = None) -> dict[str, Any] | None:
    """One promptfoo assertion as an agentunit metric entry (None, with a problem, when it cannot run)."""
    where = {"file": file, "line": line}
    if not isinstance(entry, dict):
        problems.error(f"an assertion must be an object like {{type: contains, value: …}}, got {shown(entry)}",
                       key_path, **where)
        return None
    kind = entry.get("type")
    if not isinstance(kind, str) or not kind.strip():
        problems.error("an assertion needs a `type`", key_path, **where, suggestion="for example type: contains")
        return None
    for key in entry:
        if key not in ASSERTION_KEYS:
            problems.warn(f"assertion field {key!r} is not used by agentunit", (*key_path, key), **where)
    for key in ("transform", "contextTransform"):
        if entry.get(key) is not None:
            problems.error(f"assertion `{key}` is JavaScript and cannot run here", (*key_path, key), **where,
                           suggestion="do the transformation inside a python assertion (value: a function body "
                                      "over output)")
            return None
    for key in ("provider", "rubricPrompt"):
        if entry.get(key) is not None:
            problems.warn(f"assertion `{key}` is ignored: model-graded assertions use agentunit's judge and its "
                          "own prompts", (*key_path, key), **where,
                          suggestion="choose the judge with `agentunit import promptfoo` and a `judge:` section")
    negate = kind.startswith("not-")
    base = kind[4:] if negate else kind
    config = dict(entry.get("config") or {}) if isinstance(entry.get("config"), dict) else entry.get("config")
    threshold = entry.get("threshold")
    if base in _NO_EQUIVALENT:
        what = "JavaScript and cannot run here" if base == "javascript" else "not available in agentunit"
        problems.error(f"assertion type {kind!r} is {what}", (*key_path, "type"), **where,
                       suggestion=_NO_EQUIVALENT[base])
        return None
    name = RENAMED.get(base, base)
    if base.startswith("similar:"):
        measure = base.split(":", 1)[1]
        name = "similar"
        config = {**(config or {}), "metric": measure}
        if measure == "euclidean" and isinstance(threshold, (int, float)) and not isinstance(threshold, bool):
            threshold = 1 / (1 + threshold)  # promptfoo's threshold is the largest distance; ours a similarity
    try:
        lookup(name)
    except UnknownMetricError as exc:
        hint = f"did you mean {', '.join(repr(s) for s in exc.suggestions)}?" if exc.suggestions else \
            "write the check as a python assertion; `agentunit metrics` lists the built-in ones"
        problems.error(f"assertion type {kind!r} has no agentunit equivalent", (*key_path, "type"), **where,
                       suggestion=hint)
        return None
    out: dict[str, Any] = {"type": ("not-" if negate else "") + name}
    if name == "assert-set":
        children = entry.get("assert")
        if not isinstance(children, list) or not children:
            problems.error("assert-set needs a list of assertions under `assert:`", key_path, **where)
            return None
        converted = [convert_assertion(c, (*key_path, "assert", i), problems, variables=variables,
                                       base_dir=base_dir, file=file, line=line) for i, c in enumerate(children)]
        if any(c is None for c in converted):
            return None
        out["assert"] = converted
    elif "value" in entry:
        value = _rendered(entry["value"], variables, (*key_path, "value"), problems, where)
        out["value"] = _file_value(value, name, base_dir, (*key_path, "value"), problems, where)
    if threshold is None and name in PROMPTFOO_THRESHOLDS:
        threshold = PROMPTFOO_THRESHOLDS[name]
    if threshold is not None:
        out["threshold"] = threshold
    for key in ("weight", "metric"):
        if key in entry:
            out[key] = entry[key]
    if config:
        out["config"] = config
    return out


def _rendered(value: Any, variables: dict[str, Any], key_path: tuple[Any, ...], problems: Problems,
              where: dict[str, Any]) -> Any:
    """promptfoo renders assertion values over the test's vars."""
    if isinstance(value, str) and is_template(value):
        try:
            return render(value, variables)
        except TemplateError as exc:
            problems.error(str(exc), key_path, **where)
            return value
    if isinstance(value, list):
        return [_rendered(v, variables, key_path, problems, where) for v in value]
    return value


def _file_value(value: Any, name: str, base_dir: Path, key_path: tuple[Any, ...], problems: Problems,
                where: dict[str, Any]) -> Any:
    """``file://`` values: a python check file made absolute, a text file's content read."""
    if not isinstance(value, str) or not value.startswith("file://"):
        return value
    reference = value[len("file://"):]
    path_text, function = reference, ""
    head, _, tail = reference.rpartition(":")
    if head and tail.isidentifier():
        path_text, function = head, tail
    path = Path(path_text) if Path(path_text).is_absolute() else base_dir / path_text
    if name == "python":
        return f"file://{path}" + (f":{function}" if function else "")
    if path.suffix in (".js", ".mjs", ".cjs", ".ts"):
        problems.error(f"assertion value {value!r} is JavaScript and cannot run here", key_path, **where,
                       suggestion="use a python assertion with value: file://check.py")
        return value
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        problems.error(f"cannot read assertion value file {path_text!r}: {exc}", key_path, **where)
        return value
    if path.suffix in (".json", ".yaml", ".yml"):
        from agentunit.suite.sources import DocumentError, parse_document

        try:
            return parse_document(text, is_json=path.suffix == ".json")
        except DocumentError as exc:
            problems.error(f"{path_text}: {exc}", key_path, **where)
            return value
    return text.strip()
