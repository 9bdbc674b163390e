"""Read raw case records from ``cases_file`` files: JSONL and CSV stream, JSON and YAML load whole.

Each record comes with where it was found (file, key path inside it, or line), so problems can be
reported at the right place.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from agentunit.suite.cases import CASE_KEYS
from agentunit.suite.problems import Problems

CASE_FILE_SUFFIXES = (".jsonl", ".csv", ".json", ".yaml", ".yml")


@dataclass(slots=True)
class RawCase:
    data: Any
    file: str | None
    key_path: tuple[Any, ...]
    line: int | None


def read_case_file(path: Path, problems: Problems) -> Iterator[RawCase]:
    """Yield the raw case records of one file; unreadable input becomes a problem, not an exception."""
    file = str(path)
    suffix = path.suffix.lower()
    try:
        if suffix == ".jsonl":
            yield from _jsonl(path, file, problems)
        elif suffix == ".csv":
            yield from _csv(path, file)
        elif suffix in (".json", ".yaml", ".yml"):
            yield from _document(path, file, suffix, problems)
        else:
            problems.error(f"unsupported cases file type {suffix!r}", file=file, line=1,
                           suggestion=f"use one of {', '.join(CASE_FILE_SUFFIXES)}")
    except OSError as exc:
        problems.error(f"cannot read cases file: {exc.strerror or exc}", file=file)
    except UnicodeDecodeError as exc:
        problems.error(f"cases file is not UTF-8 text: {exc}", file=file)


def _jsonl(path: Path, file: str, problems: Problems) -> Iterator[RawCase]:
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except ValueError as exc:
                problems.error(f"invalid JSON: {exc}", file=file, line=number,
                               suggestion="each line of a .jsonl file must be one JSON object")
                continue
            yield RawCase(data, file, (), number)


def _csv(path: Path, file: str) -> Iterator[RawCase]:
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        for row in reader:
            yield RawCase(csv_row_to_case(row), file, (), reader.line_num)


def csv_row_to_case(row: dict[str, Any]) -> dict[str, Any]:
    """Map a CSV row to a case: known case columns by name, every other column becomes a var.

    ``context``, ``metrics``, ``expected_tools``, ``tools``, ``plan`` and ``metadata`` cells holding
    JSON (starting with ``[`` or ``{``) are decoded; a plain ``metrics`` cell is a comma-separated
    list of names; a plain ``context`` cell is one passage.
    """
    case: dict[str, Any] = {}
    variables: dict[str, Any] = {}
    for key, cell in row.items():
        if key is None or cell is None or cell == "":
            continue
        key = key.strip()
        if key in ("context", "metrics", "expected_tools", "tools", "plan", "metadata", "conversation"):
            text = cell.strip()
            if text[:1] in "[{":
                try:
                    case[key] = json.loads(text)
                    continue
                except ValueError:
                    pass
            case[key] = [m.strip() for m in text.split(",") if m.strip()] if key == "metrics" else text
        elif key == "threshold":
            case[key] = _number_or_text(cell)
        elif key in CASE_KEYS:
            case[key] = cell
        else:
            variables[key] = cell
    if variables:
        case["vars"] = {**variables, **case.get("vars", {})}
    return case


def _number_or_text(cell: str) -> Any:
    try:
        return float(cell)
    except ValueError:
        return cell


def _document(path: Path, file: str, suffix: str, problems: Problems) -> Iterator[RawCase]:
    text = path.read_text(encoding="utf-8")
    try:
        if suffix == ".json":
            data = json.loads(text)
        else:
            data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except json.JSONDecodeError as exc:
        problems.error(f"invalid JSON: {exc.msg}", file=file, line=exc.lineno)
        return
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problems.error(f"invalid YAML: {getattr(exc, 'problem', exc)}", file=file,
                       line=mark.line + 1 if mark else None)
        return
    prefix: tuple[Any, ...] = ()
    if isinstance(data, dict) and "cases" in data:
        data, prefix = data["cases"], ("cases",)
    if not isinstance(data, list):
        problems.error("a cases file must hold a list of cases (or an object with a 'cases' list)",
                       file=file, line=1)
        return
    for index, item in enumerate(data):
        yield RawCase(item, file, (*prefix, index), None)
