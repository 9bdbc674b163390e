"""Read raw case records from ``cases_file`` files: JSONL and CSV stream, JSON and YAML load whole.

Each record comes with where it was found (file, key path inside it, or line), so problems can be
reported at the right place, and is marked as data (its prompts are never templates). Unreadable
input — bad encoding, bad syntax, nesting deeper than the parser's stack, integers too long for
Python to read, CSV fields over ``MAX_CSV_FIELD_CHARS`` — is a problem with a line, never an exception.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from agentunit.suite.cases import CASE_KEYS, EXPECTED_CELLS
from agentunit.suite.problems import Problems
from agentunit.trust import FileGate, PathRefused

CASE_FILE_SUFFIXES = (".jsonl", ".csv", ".json", ".yaml", ".yml")
MAX_CSV_FIELD_CHARS = 16 * 1024 * 1024  # a long document in one cell is a legitimate prompt
MAX_DOCUMENT_BYTES = 1024 * 1024 * 1024  # a JSON or YAML cases file is loaded whole
MAX_STREAM_BYTES = 1 << 50  # JSONL and CSV stream: any regular file
_LONG_DIGITS = re.compile(r"\d{4000,}")
BOOLEAN_CELLS = {"true": True, "false": False}


class RawCase:
    """A case record as read, with where it was found (a plain class: start-up builds no dataclass)."""

    __slots__ = ("data", "file", "from_data", "key_path", "line")

    def __init__(self, data: Any, file: str | None, key_path: tuple[Any, ...], line: int | None,
                 from_data: bool = True) -> None:
        self.data, self.file, self.key_path, self.line, self.from_data = data, file, key_path, line, from_data


class DocumentError(ValueError):
    """A suite or cases document that cannot be decoded; ``line`` is 1-based when known."""

    def __init__(self, message: str, line: int | None):
        super().__init__(message)
        self.line = line


def parse_document(text: str, is_json: bool) -> Any:
    """Decode JSON (``is_json``) or YAML text; raises DocumentError with the line of the problem.

    YAML uses the safe loader (libyaml's when installed). Nesting past the parser's stack and
    integers longer than Python converts (4300 digits) are DocumentErrors too.
    """
    kind = "JSON" if is_json else "YAML"
    if is_json:  # a JSON suite does not import PyYAML (a few ms of every run's start-up)
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise DocumentError(f"invalid JSON: {exc.msg}", exc.lineno) from None
        except RecursionError:
            raise DocumentError(f"invalid {kind}: nested too deeply to read", 1) from None
        except ValueError as exc:  # int() refusing a number of thousands of digits
            long = _LONG_DIGITS.search(text)
            raise DocumentError(f"invalid {kind}: {exc}", text.count("\n", 0, long.start()) + 1 if long else 1) \
                from None
    import yaml

    try:
        return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise DocumentError(f"invalid YAML: {getattr(exc, 'problem', None) or exc}",
                            mark.line + 1 if mark else 1) from None
    except RecursionError:
        raise DocumentError(f"invalid {kind}: nested too deeply to read", 1) from None
    except ValueError as exc:  # int() refusing a number of thousands of digits
        long = _LONG_DIGITS.search(text)
        raise DocumentError(f"invalid {kind}: {exc}", text.count("\n", 0, long.start()) + 1 if long else 1) from None


def read_case_file(path: Path, problems: Problems) -> Iterator[RawCase]:
    """Yield the raw case records of one file; unreadable input becomes a problem, not an exception."""
    file = str(path)
    suffix = path.suffix.lower()
    try:
        if suffix == ".jsonl":
            yield from _jsonl(path, file, problems)
        elif suffix == ".csv":
            yield from _csv(path, file, problems)
        elif suffix in (".json", ".yaml", ".yml"):
            yield from _document(path, file, suffix, problems)
        else:
            problems.error(f"unsupported cases file type {suffix!r}", file=file, line=1,
                           suggestion=f"use one of {', '.join(CASE_FILE_SUFFIXES)}")
    except OSError as exc:
        problems.error(f"cannot read cases file: {exc.strerror or exc}", file=file, line=1)
    except PathRefused as exc:
        problems.error(f"cannot read cases file: {exc.reason}", file=file, line=1, suggestion=exc.suggestion)


def open_cases_file(path: Path, whole: bool = False) -> Any:
    """The cases file opened through the author's gate (agentunit.trust): a regular file, never a device,
    FIFO or /proc file, whose size is bounded when it is read ``whole`` (JSON, YAML)."""
    return FileGate(None, max_bytes=MAX_DOCUMENT_BYTES if whole else MAX_STREAM_BYTES, whose="the suite file"
                    ).open(path)


def _jsonl(path: Path, file: str, problems: Problems) -> Iterator[RawCase]:
    with open_cases_file(path) as handle:
        for number, raw in enumerate(handle, 1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                problems.error(f"not UTF-8 text: {exc.reason} at byte {exc.start + 1} of the line", file=file,
                               line=number)
                continue
            if not line.strip():
                continue
            try:
                data = parse_document(line, is_json=True)
            except DocumentError as exc:
                problems.error(str(exc), file=file, line=number,
                               suggestion="each line of a .jsonl file must be one JSON object")
                continue
            yield RawCase(data, file, (), number)


def _csv(path: Path, file: str, problems: Problems) -> Iterator[RawCase]:
    import csv  # only for a .csv cases file

    if csv.field_size_limit() < MAX_CSV_FIELD_CHARS:
        csv.field_size_limit(MAX_CSV_FIELD_CHARS)  # process-wide, and only ever raised
    import io

    with io.TextIOWrapper(open_cases_file(path), encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        try:
            _check_special_columns(reader.fieldnames or [], file, problems)
            for row in reader:
                yield RawCase(csv_row_to_case(row), file, (), reader.line_num)
        except csv.Error as exc:
            problems.error(f"invalid CSV: {exc}", file=file, line=max(reader.line_num, 1))
        except UnicodeDecodeError as exc:
            problems.error(f"not UTF-8 text: {exc.reason}", file=file, line=reader.line_num + 1)


SPECIAL_COLUMNS = ("__description", "__metric", "__threshold")
_EXPECTED_COLUMN = re.compile(r"^__expected\d*$")


def _check_special_columns(names: list[str | None], file: str, problems: Problems) -> None:
    """Columns starting with ``__`` are promptfoo's instructions, never vars: those agentunit does not
    read are problems at the header line (they would otherwise change nothing, silently)."""
    for name in names:
        column = (name or "").strip()
        if column.startswith("__") and not (_EXPECTED_COLUMN.match(column) or column in SPECIAL_COLUMNS
                                            or column.startswith("__metadata:")):
            problems.error(f"column {column!r} is not read by agentunit", (column,), file=file, line=1,
                           suggestion="use __expected, __expectedN, __description, __metric, __threshold or "
                                      "__metadata:KEY; rename the column if it is a var")


def csv_row_to_case(row: dict[str, Any]) -> dict[str, Any]:
    """Map a CSV row to a case: known case columns by name, every other column becomes a var.

    promptfoo's columns: ``__expected``, ``__expected1``, … are metric entries (kept as
    ``{column: cell}`` under ``__expected``, read by the case checks as promptfoo reads them),
    ``__description`` is the case id (and description; an ``id`` column wins), ``__metric`` the label
    of those entries, ``__threshold`` the case threshold, ``__metadata:KEY`` a metadata value.

    ``context``, ``metrics``, ``expected_tools``, ``tools``, ``plan``, ``metadata``, ``conversation``,
    ``images`` and ``vars`` cells holding
    JSON (starting with ``[`` or ``{``) are decoded; a plain ``metrics`` cell is a comma-separated
    list of names; a plain ``context`` or ``images`` cell is one passage or one reference. A
    ``threshold`` cell is a number; an ``expected_pass`` cell ``true``/``false`` (any case) is a boolean.
    """
    case: dict[str, Any] = {}
    variables: dict[str, Any] = {}
    expected: dict[str, Any] = {}
    label = description = None
    extra_metadata: dict[str, Any] = {}
    for key, cell in row.items():
        if key is None or cell is None or cell == "":
            continue
        key = key.strip()
        if key.startswith("__"):
            if _EXPECTED_COLUMN.match(key):
                if cell.strip():
                    expected[key] = cell
            elif key == "__description":
                description = cell
            elif key == "__metric":
                label = cell.strip() or None
            elif key == "__threshold":
                case["threshold"] = _number_or_text(cell)
            elif key.startswith("__metadata:"):
                extra_metadata[key[len("__metadata:"):]] = cell
            continue  # any other `__` column is a problem at the header (see _check_special_columns)
        if key in ("context", "metrics", "expected_tools", "tools", "plan", "metadata", "conversation", "vars",
                   "images"):
            text = cell.strip()
            if text[:1] in "[{":
                try:
                    case[key] = parse_document(text, is_json=True)
                    continue
                except DocumentError:
                    pass
            case[key] = [m.strip() for m in text.split(",") if m.strip()] if key == "metrics" else text
        elif key == "threshold":
            case[key] = _number_or_text(cell)
        elif key == "expected_pass":
            case[key] = BOOLEAN_CELLS.get(cell.strip().lower(), cell)
        elif key in CASE_KEYS:
            case[key] = cell
        else:
            variables[key] = cell
    if description is not None:
        case.setdefault("description", description)
        case.setdefault("id", description)
    if extra_metadata:
        given = case.get("metadata")
        if given is None or isinstance(given, dict):  # a `metadata` JSON cell wins over same-named columns
            case["metadata"] = {**extra_metadata, **(given or {})}
    if expected:
        case[EXPECTED_CELLS] = {k: {"cell": v, "label": label} if label else v
                                for k, v in sorted(expected.items(), key=lambda kv: _expected_order(kv[0]))}
    if variables:
        given = case.get("vars")
        if given is None:
            case["vars"] = variables
        elif isinstance(given, dict):  # a `vars` column holding a JSON object wins over same-named columns
            case["vars"] = {**variables, **given}
        # any other `vars` cell is left for the case checks to report
    return case


def _expected_order(column: str) -> int:
    digits = column[len("__expected"):]
    return int(digits) if digits else 0


def _number_or_text(cell: str) -> Any:
    try:
        return float(cell)
    except ValueError:
        return cell


def _document(path: Path, file: str, suffix: str, problems: Problems) -> Iterator[RawCase]:
    with open_cases_file(path, whole=True) as handle:
        raw = handle.read(MAX_DOCUMENT_BYTES + 1)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        problems.error(f"not UTF-8 text: {exc.reason}", file=file, line=raw.count(b"\n", 0, exc.start) + 1)
        return
    try:
        data = parse_document(text, is_json=suffix == ".json")
    except DocumentError as exc:
        problems.error(str(exc), file=file, line=exc.line)
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
