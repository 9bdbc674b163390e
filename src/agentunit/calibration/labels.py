"""Human verdicts for calibration: from the suite (``expected_pass``) and from a labels file.

A labels file is JSONL (one object a line) or CSV (a header row) with the fields ``id`` (a case id),
``expected_pass`` (true/false) and optionally ``metric`` (a metric's label or name; without it the
verdict applies to every judge-backed metric of the case) and ``note`` (free text, ignored).

Which verdict a judge-backed metric of a case gets, most specific first: a labels-file row naming
the metric, the metric entry's own ``expected_pass``, a labels-file row for the whole case, the
case's ``expected_pass``.
"""

from __future__ import annotations

import csv
import difflib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentunit.calibration.keys import is_judge_backed, metric_key, names_metric
from agentunit.errors import Problem, SuiteError

LABEL_FIELDS = ("id", "metric", "expected_pass", "note")
_BOOLEANS = {"true": True, "false": False}
MAX_PROBLEMS = 50


@dataclass(frozen=True, slots=True)
class LabelRow:
    """One row of a labels file: a case's verdict, for one metric or (``metric`` None) all of them."""

    case_id: str
    metric: str | None
    expected_pass: bool
    file: str
    line: int


def read_labels(path: str | Path) -> list[LabelRow]:
    """Read a ``.jsonl`` or ``.csv`` labels file; raises SuiteError listing every problem (file:line:field)."""
    path = Path(path)
    file = str(path)
    problems: list[Problem] = []
    rows: list[LabelRow] = []
    suffix = path.suffix.lower()
    if suffix not in (".jsonl", ".csv"):
        raise SuiteError([Problem(f"unsupported labels file type {suffix or '(none)'!r}", file=file, line=1,
                                  suggestion="use a .jsonl or .csv file with id, metric, expected_pass")])
    first_line: dict[tuple[str, str | None], int] = {}
    try:
        records = _jsonl(path, problems) if suffix == ".jsonl" else _csv(path, problems)
        for line, record in records:
            row = _row(record, file, line, problems)
            if row is None:
                continue
            key = (row.case_id, row.metric)
            if key in first_line:
                what = f"case {row.case_id[:80]!r}" + (f", metric {row.metric[:80]!r}" if row.metric else "")
                problems.append(Problem(f"a second label for {what} (the first is on line {first_line[key]})",
                                        file=file, line=line, suggestion="keep one verdict per case and metric"))
                continue
            first_line[key] = line
            rows.append(row)
    except FileNotFoundError:
        raise SuiteError([Problem("labels file not found", file=file, line=1)]) from None
    except OSError as exc:
        raise SuiteError([Problem(f"cannot read labels file: {exc.strerror or exc}", file=file, line=1)]) from None
    if not rows and not problems:
        problems.append(Problem("the labels file has no rows", file=file, line=1,
                                suggestion="one row per case: id, expected_pass (and metric)"))
    if problems:
        raise SuiteError(problems[:MAX_PROBLEMS])
    return rows


def _jsonl(path: Path, problems: list[Problem]) -> Iterator[tuple[int, Any]]:
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, 1):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                problems.append(Problem(f"not UTF-8 text: {exc.reason}", file=str(path), line=number))
                continue
            if not text.strip():
                continue
            try:
                yield number, json.loads(text)
            except (ValueError, RecursionError) as exc:
                problems.append(Problem(f"invalid JSON: {getattr(exc, 'msg', exc)}", file=str(path), line=number,
                                        suggestion="each line must be one object like "
                                                   '{"id": "refund-1", "expected_pass": true}'))


def _csv(path: Path, problems: list[Problem]) -> Iterator[tuple[int, Any]]:
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        try:
            for row in reader:
                extra = row.pop(None, None)
                if extra:
                    problems.append(Problem(f"{len(extra)} more cell(s) than the header has columns",
                                            file=str(path), line=reader.line_num))
                    continue
                yield reader.line_num, {k.strip(): v for k, v in row.items() if k is not None and v not in (None, "")}
        except csv.Error as exc:
            problems.append(Problem(f"invalid CSV: {exc}", file=str(path), line=max(reader.line_num, 1)))
        except UnicodeDecodeError as exc:
            problems.append(Problem(f"not UTF-8 text: {exc.reason}", file=str(path), line=reader.line_num + 1))


def _row(record: Any, file: str, line: int, problems: list[Problem]) -> LabelRow | None:
    def problem(message: str, field: str | None = None, suggestion: str | None = None) -> None:
        problems.append(Problem(message, file=file, line=line, field=field, suggestion=suggestion))

    if not isinstance(record, dict):
        problem("a label must be an object with id and expected_pass")
        return None
    ok = True
    for key in record:
        if key not in LABEL_FIELDS:
            close = difflib.get_close_matches(str(key), LABEL_FIELDS, n=1)
            problem(f"unknown labels field {str(key)[:80]!r}", str(key)[:80],
                    f"did you mean {close[0]!r}?" if close else f"allowed: {', '.join(LABEL_FIELDS)}")
            ok = False
    case_id = record.get("id")
    if isinstance(case_id, bool) or not isinstance(case_id, (str, int)) or not str(case_id).strip():
        problem(f"id must be a case id, got {_shown(case_id)}", "id")
        ok = False
    metric = record.get("metric")
    if metric is not None and (not isinstance(metric, str) or not metric.strip()):
        problem(f"metric must be a metric name or label, got {_shown(metric)}", "metric")
        ok = False
    verdict = record.get("expected_pass")
    if isinstance(verdict, str):
        verdict = _BOOLEANS.get(verdict.strip().lower(), verdict)
    if not isinstance(verdict, bool):
        problem(f"expected_pass must be true or false, got {_shown(verdict)}", "expected_pass",
                "true: a careful person would pass this output; false: would fail it")
        ok = False
    if not ok:
        return None
    return LabelRow(str(case_id), metric.strip() if metric else None, verdict, file, line)


def _shown(value: Any) -> str:
    from agentunit.suite.fields import shown

    return shown(value)


@dataclass
class Labelled:
    """The suite's cases that carry human verdicts, each with the verdict of each of its metrics
    (aligned with ``case.metrics``; None for a metric without one or not judge-backed)."""

    cases: list[tuple[Any, list[bool | None]]]
    unused: list[str]  # labelled cases whose labels reach no judge-backed metric
    total: int  # every case of the suite


def resolve_verdicts(cases: Iterable[Any], suite_verdicts: dict[str, Any], rows: list[LabelRow]) -> Labelled:
    """The human verdict of each judge-backed metric of each labelled case (streamed: unlabelled cases
    are not kept). Rows naming an unknown case or a metric the case does not have raise SuiteError
    (file:line)."""
    by_case: dict[str, list[LabelRow]] = {}
    for row in rows:
        by_case.setdefault(row.case_id, []).append(row)
    problems: list[Problem] = []
    seen: set[str] = set()
    labelled = Labelled([], [], 0)
    for case in cases:
        seen.add(case.id)
        labelled.total += 1
        own = suite_verdicts.get(case.id)
        file_rows = by_case.get(case.id, [])
        if own is None and not file_rows:
            continue
        verdicts = _case_verdicts(case, own, file_rows, problems)
        if any(v is not None for v in verdicts):
            labelled.cases.append((case, verdicts))
        else:
            labelled.unused.append(case.id)
    for case_id, case_rows in by_case.items():
        if case_id not in seen:
            close = difflib.get_close_matches(case_id, list(seen), n=1)
            for row in case_rows:
                problems.append(Problem(f"no case with id {case_id[:80]!r} in the suite", file=row.file, line=row.line,
                                        field="id", suggestion=f"did you mean {close[0]!r}?" if close else None))
    if problems:
        raise SuiteError(problems[:MAX_PROBLEMS])
    return labelled


def _case_verdicts(case: Any, own: Any, rows: list[LabelRow], problems: list[Problem]) -> list[bool | None]:
    metrics = list(case.metrics)
    judged = [is_judge_backed(m) for m in metrics]
    own_metrics = list(own.metrics) if own is not None else [None] * len(metrics)
    own_metrics += [None] * (len(metrics) - len(own_metrics))
    case_wide = own.case if own is not None else None
    named: dict[int, bool] = {}
    for row in rows:
        if row.metric is None:
            case_wide = row.expected_pass
            continue
        hits = [i for i, m in enumerate(metrics) if judged[i] and names_metric(row.metric, m)]
        if not hits:
            choices = sorted({metric_key(m) for i, m in enumerate(metrics) if judged[i]})
            problems.append(Problem(f"case {case.id[:80]!r} has no judge-backed metric {row.metric[:80]!r}",
                                    file=row.file, line=row.line, field="metric",
                                    suggestion=f"its judge-backed metrics: {', '.join(choices)}" if choices else
                                    "the case has no judge-backed metric (llm-rubric, factuality, g-eval, …)"))
        for i in hits:
            named[i] = row.expected_pass
    verdicts: list[bool | None] = []
    for i in range(len(metrics)):
        if not judged[i]:
            verdicts.append(None)
        elif i in named:
            verdicts.append(named[i])
        elif own_metrics[i] is not None:
            verdicts.append(own_metrics[i])
        else:
            verdicts.append(case_wide)
    return verdicts
