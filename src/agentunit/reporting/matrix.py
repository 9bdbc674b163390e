"""The prompts × targets table of a matrix run: case pass rates (and per metric) side by side.

``matrix_summary`` counts, from the store, each case's status and each metric's verdicts per
(prompt label, target label) — the labels the engine records in a case's envelope as ``matrix`` —
for ``summary.matrix`` (docs/results.md). ``matrix_tables`` turns that into rows of text the
console, Markdown and HTML reports lay out; values are left raw for each writer to make inert.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

_LABEL = "CASE WHEN json_valid(c.envelope) THEN json_extract(c.envelope, '$.matrix.{0}') END"


def matrix_summary(store: Any, run_id: str) -> dict[str, Any] | None:
    """``{prompts, targets, cells}`` in suite order; each cell ``{prompt, target, cases, passed, failed,
    errored, unmeasured, metrics: {name: {status: count}}}``. None when no case carries labels.

    A SQLite store is counted in SQL; any other store (PostgreSQL) by reading its cases once."""
    if not isinstance(getattr(store, "conn", None), sqlite3.Connection):
        return _summary_from_cases(store, run_id)
    prompt, target = _LABEL.format("prompt"), _LABEL.format("target")
    rows = store.conn.execute(
        f"SELECT {prompt} AS p, {target} AS t, c.status, COUNT(*), MIN(c.seq) FROM case_results c "
        "WHERE c.run_id = ? AND c.envelope IS NOT NULL GROUP BY p, t, c.status", (run_id,)).fetchall()
    cells: dict[tuple[Any, Any], dict[str, Any]] = {}
    first: dict[tuple[Any, Any], int] = {}
    for p, t, status, count, seq in rows:
        if p is None and t is None:
            continue
        cell = cells.setdefault((p, t), _new_cell(p, t))
        cell["cases"] += count
        if status in cell:
            cell[status] += count
        first[(p, t)] = min(first.get((p, t), seq), seq)
    if not cells:
        return None
    metric_rows = store.conn.execute(
        f"SELECT {prompt} AS p, {target} AS t, m.metric, m.status, COUNT(*) FROM case_results c "
        "JOIN metric_results m ON m.run_id = c.run_id AND m.case_id = c.case_id AND m.repeat = c.repeat "
        "WHERE c.run_id = ? AND c.envelope IS NOT NULL GROUP BY p, t, m.metric, m.status ORDER BY m.metric",
        (run_id,)).fetchall()
    for p, t, metric, status, count in metric_rows:
        cell = cells.get((p, t))
        if cell is not None:
            cell["metrics"].setdefault(metric, {})[status] = count
    return _ordered(cells, first)


def _new_cell(prompt: Any, target: Any) -> dict[str, Any]:
    return {"prompt": prompt, "target": target, "cases": 0, "passed": 0, "failed": 0, "errored": 0,
            "unmeasured": 0, "metrics": {}}


def _summary_from_cases(store: Any, run_id: str) -> dict[str, Any] | None:
    cells: dict[tuple[Any, Any], dict[str, Any]] = {}
    first: dict[tuple[Any, Any], int] = {}
    for seq, case in enumerate(store.iter_cases(run_id)):
        labels = case_labels(case)
        if not labels:
            continue
        key = (labels["prompt_label"], labels["target_label"])
        cell = cells.setdefault(key, _new_cell(*key))
        first.setdefault(key, seq)
        cell["cases"] += 1
        if case["status"] in cell:
            cell[case["status"]] += 1
        for metric in case["metrics"]:
            counts = cell["metrics"].setdefault(metric["metric"], {})
            counts[metric["status"]] = counts.get(metric["status"], 0) + 1
    if not cells:
        return None
    for cell in cells.values():
        cell["metrics"] = dict(sorted(cell["metrics"].items()))
    return _ordered(cells, first)


def _ordered(cells: dict[tuple[Any, Any], dict[str, Any]], first: dict[tuple[Any, Any], int]) -> dict[str, Any]:
    ordered = sorted(cells, key=lambda key: first[key])
    prompts = list(dict.fromkeys(p for p, _ in ordered))
    targets = list(dict.fromkeys(t for _, t in ordered))
    return {"prompts": prompts, "targets": targets, "cells": [cells[key] for key in ordered]}


@dataclass
class MatrixTable:
    """One table: a title, the target labels (columns), and per prompt label a row of cell texts."""

    title: str
    columns: list[str]
    rows: list[tuple[str, list[str]]]


def _label(value: Any, dimension: str) -> str:
    return f"({dimension})" if value is None else str(value)


def _rate(passed: int, judged: int) -> str:
    return f"{passed}/{judged} ({passed / judged:.0%})" if judged else "—"


def matrix_tables(summary: dict[str, Any], *, per_metric: bool = True) -> list[MatrixTable]:
    """The case pass-rate table (passed / cases), then one per metric (passed / passed + failed) when
    ``per_metric``; empty when the run has no matrix or a single cell."""
    matrix = summary.get("matrix")
    if not isinstance(matrix, dict) or len(matrix.get("cells") or []) < 2:
        return []
    prompts, targets = matrix["prompts"], matrix["targets"]
    cells = {(c["prompt"], c["target"]): c for c in matrix["cells"]}
    columns = [_label(t, "target") for t in targets]

    def table(title: str, text: Any) -> MatrixTable:
        rows = [(_label(p, "prompt"), [text(cells[(p, t)]) if (p, t) in cells else "" for t in targets])
                for p in prompts]
        return MatrixTable(title, columns, rows)

    tables = [table("cases passed", lambda c: _rate(c["passed"], c["cases"]))]
    if per_metric:
        names = list(dict.fromkeys(name for c in matrix["cells"] for name in c["metrics"]))
        for name in names:
            def text(cell: dict[str, Any], name: str = name) -> str:
                counts = cell["metrics"].get(name, {})
                return _rate(counts.get("passed", 0), counts.get("passed", 0) + counts.get("failed", 0))

            tables.append(table(name, text))
    return tables


def case_labels(case: dict[str, Any]) -> dict[str, Any]:
    """``{prompt_label, target_label}`` of a stored case in a matrix run (``{}`` otherwise)."""
    envelope = case.get("envelope")
    labels = envelope.get("matrix") if isinstance(envelope, dict) else None
    if not isinstance(labels, dict):
        return {}
    return {"prompt_label": labels.get("prompt"), "target_label": labels.get("target")}
