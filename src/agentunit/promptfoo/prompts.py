"""promptfoo ``prompts``: inline strings, ``file://`` text/JSON/YAML/JSONL files and globs, labels.

Templates are Nunjucks in promptfoo and sandboxed Jinja2 here; the two agree on ``{{ var }}``,
``{% if %}``/``{% for %}`` and most filters. promptfoo's ``dump`` (JSON) and ``load`` (parse JSON)
filters are provided. Prompt functions (``.py``/``.js`` files) are problems with the line.
"""

from __future__ import annotations

import glob
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentunit.suite.fields import shown
from agentunit.suite.problems import Problems
from agentunit.suite.sources import DocumentError, parse_document
from agentunit.trust import AUTHOR_GATE, PathRefused

_SEPARATOR = re.compile(r"^---[ \t]*$", re.MULTILINE)
_TEXT_SUFFIXES = (".txt", ".md", ".j2", ".jinja", ".prompt", "")
_CODE_SUFFIXES = (".py", ".js", ".mjs", ".cjs", ".ts")


@dataclass
class PromptSpec:
    """One prompt of the matrix: its label (the column name) and its template text."""

    label: str
    template: str
    key_path: tuple[Any, ...]


def read_prompts(value: Any, base_dir: Path, problems: Problems) -> list[PromptSpec]:
    """The config's ``prompts`` as PromptSpecs, in order; problems for what cannot be read."""
    if value is None:
        problems.error("the config has no prompts", (), suggestion="add `prompts: ['{{question}}']`")
        return []
    if isinstance(value, dict):  # {file://path: label}
        items: list[tuple[Any, tuple[Any, ...]]] = [({"id": k, "label": v}, ("prompts", k)) for k, v in value.items()]
    elif isinstance(value, list):
        items = [(item, ("prompts", i)) for i, item in enumerate(value)]
    else:
        items = [(value, ("prompts",))]
    prompts: list[PromptSpec] = []
    for item, key_path in items:
        prompts += _prompt(item, key_path, base_dir, problems)
    for number, prompt in enumerate(prompts, 1):
        if not prompt.label:
            prompt.label = f"prompt {number}"
    return prompts


def _prompt(item: Any, key_path: tuple[Any, ...], base_dir: Path, problems: Problems) -> list[PromptSpec]:
    label = None
    if isinstance(item, dict):
        label = item.get("label") if isinstance(item.get("label"), str) else None
        if isinstance(item.get("raw"), str):
            return [PromptSpec(label or "", item["raw"], key_path)]
        if not isinstance(item.get("id"), str):
            problems.error("a prompt object needs `raw` text or an `id` naming a file", key_path)
            return []
        item = item["id"]
    if not isinstance(item, str):
        problems.error(f"a prompt must be text or a file://path, got {shown(item)}", key_path)
        return []
    reference = item[len("file://"):] if item.startswith("file://") else None
    if reference is None and "\n" not in item and Path(item).suffix in (".txt", ".json", ".yaml", ".yml", ".jsonl") \
            and (base_dir / item).is_file():
        reference = item  # promptfoo's older bare-path form
    if reference is None:
        return [PromptSpec(label or "", item, key_path)]
    return _prompt_files(reference, label, key_path, base_dir, problems)


def _prompt_files(reference: str, label: str | None, key_path: tuple[Any, ...], base_dir: Path,
                  problems: Problems) -> list[PromptSpec]:
    path_text = reference
    if Path(reference.rpartition(":")[0]).suffix in _CODE_SUFFIXES:
        path_text = reference.rpartition(":")[0]
    if Path(path_text).suffix in _CODE_SUFFIXES:
        problems.error(f"prompt {reference!r} is a prompt function (code) and cannot be used as a prompt",
                       key_path, suggestion="write the prompt as a template file (.txt, or .json for chat "
                                            "messages) using {{ var }} placeholders")
        return []
    pattern = path_text if Path(path_text).is_absolute() else str(base_dir / path_text)
    files = sorted(glob.glob(pattern)) if glob.has_magic(pattern) else [pattern]
    out: list[PromptSpec] = []
    for file in files:
        path = Path(file)
        try:
            text = AUTHOR_GATE.read_text(path)
        except PathRefused as exc:
            problems.error(f"prompt file {path_text!r}: {exc.reason}", key_path, suggestion=exc.suggestion)
            continue
        except (OSError, UnicodeDecodeError) as exc:
            problems.error(f"cannot read prompt file {path_text!r}: {getattr(exc, 'strerror', None) or exc}",
                           key_path, suggestion=f"paths are relative to the config's folder ({base_dir})")
            continue
        name = label or path.name
        suffix = path.suffix.lower()
        if suffix == ".json":
            out.append(PromptSpec(name, text.strip(), key_path))
        elif suffix == ".jsonl":
            lines = [line for line in text.splitlines() if line.strip()]
            out += [PromptSpec(f"{name}:{i}" if len(lines) > 1 else name, line, key_path)
                    for i, line in enumerate(lines, 1)]
        elif suffix in (".yaml", ".yml"):
            try:
                data = parse_document(text, is_json=False)
            except DocumentError as exc:
                problems.error(f"prompt file {path_text!r}: {exc}", key_path)
                continue
            out.append(PromptSpec(name, json.dumps(data, ensure_ascii=False), key_path))
        elif suffix in _TEXT_SUFFIXES:
            parts = [p.strip() for p in _SEPARATOR.split(text) if p.strip()]
            out += [PromptSpec(f"{name}:{i}" if len(parts) > 1 else name, part, key_path)
                    for i, part in enumerate(parts, 1)]
        else:
            problems.error(f"prompt file type {suffix!r} is not supported", key_path,
                           suggestion="use .txt (prompts separated by ---), .json or .yaml (chat messages), .jsonl")
    if not files:
        problems.error(f"no prompt file matches {path_text!r}", key_path)
    return out
