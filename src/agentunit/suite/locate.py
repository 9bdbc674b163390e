"""Find the line of a field in a YAML or JSON file, for error messages.

Parsing for a run uses the fast loaders; lines are looked up only when a problem is reported, by
composing the file's node tree (PyYAML keeps marks on nodes; JSON is read as YAML for this).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any


@lru_cache(maxsize=16)
def _compose(path: str) -> Any:
    import yaml  # only when a problem is located: a valid suite never pays for it

    try:
        text = Path(path).read_text(encoding="utf-8")
        return yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (OSError, yaml.YAMLError, UnicodeDecodeError, RecursionError):
        return None


def line_of(path: str | Path, key_path: tuple[Any, ...]) -> int | None:
    """1-based line of the node at ``key_path`` (keys and list indices); the deepest found if absent."""
    node = _compose(str(path))
    if node is None:
        return None
    import yaml

    line = node.start_mark.line + 1
    for key in key_path:
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                if key_node.value == key:
                    line = key_node.start_mark.line + 1
                    node = value_node
                    break
            else:
                return line
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
            node = node.value[key]
            line = node.start_mark.line + 1
        else:
            return line
    return line


def as_written(path: str | Path | None, key_path: tuple[Any, ...]) -> tuple[Any, ...]:
    """``key_path`` with the name the file gives its cases: a suite may list them under promptfoo's
    ``tests:`` instead of ``cases:``, and a problem in them should name (and find) the key written."""
    if not key_path or key_path[0] != "cases" or path is None:
        return key_path
    node = _compose(str(path))
    if node is None:
        return key_path
    import yaml

    if not isinstance(node, yaml.MappingNode):
        return key_path
    keys = {k.value for k, _ in node.value if isinstance(k, yaml.ScalarNode)}
    return ("tests", *key_path[1:]) if "tests" in keys and "cases" not in keys else key_path


def format_path(key_path: tuple[Any, ...]) -> str:
    """``("cases", 0, "metrics", 1)`` → ``cases[0].metrics[1]``."""
    text = ""
    for key in key_path:
        text += f"[{key}]" if isinstance(key, int) else (f".{key}" if text else str(key))
    return text
