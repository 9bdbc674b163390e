"""Markdown report: summary, per-metric table (with the pass rate's Wilson interval and the mean
score's bootstrap interval; with repeats, flaky cases and Krippendorff's α), unpassed cases with reasons.

Values from the system under test or a data file (outputs, ids, reasons, errors, metric names) are
made inert text that stays on its line and in its cell: line breaks of every kind (``\\r``, ``\\n``,
``\\x0b``, ``\\x0c``, ``\\x85``, U+2028, U+2029) become spaces, other control characters visible
escapes, and every ASCII punctuation character is backslash-escaped (CommonMark lets any of them
be), so no value can open a heading, a table row or cell, a link, an image, HTML, emphasis or a code
span — nor a GFM autolink, whose ``://`` and ``www.`` no longer match.
"""

from __future__ import annotations

import re
import string
from pathlib import Path
from typing import Any

from agentunit.reporting.console import (
    agreement_lines,
    attempt_text,
    interval_text,
    judge_line,
    metric_lines,
    run_statistics,
    score_text,
    summary_rows,
    unmeasured_allowed,
)
from agentunit.reporting.text import visible

MAX_LISTED = 200
_LINE_BREAKS = re.compile("\r\n|[\r\n\x0b\x0c\x85\u2028\u2029]")
_PUNCTUATION = str.maketrans({c: "\\" + c for c in string.punctuation})


def inert(text: Any, limit: int = 160) -> str:
    """``text`` as inert Markdown inline text on one line, cut to ``limit`` characters (then "…").

    Algorithm: cut first (so an escape is never split), line breaks → spaces, other controls →
    visible escapes, then a backslash before each ASCII punctuation character.
    """
    text = "" if text is None else str(text)
    if len(text) > limit:
        text = text[:limit] + "…"
    return visible(_LINE_BREAKS.sub(" ", text)).translate(_PUNCTUATION)


def write_markdown(result: Any, path: str | Path) -> None:
    """Summary counts, the per-metric table, then up to ``MAX_LISTED`` failed, errored and
    unmeasured cases with the reasons that explain each."""
    s = result.summary
    unmeasured = s.get("unmeasured", 0)
    allowed = " (allowed)" if unmeasured and unmeasured_allowed(s) else ""
    lines = [f"# agentunit run `{result.run_id}` — {inert(result.suite)}", "",
             f"Started {result.started_at}. **{s['passed']}/{s['cases']} passed**, {s['failed']} failed, "
             f"{s['errored']} errored, {unmeasured} unmeasured{allowed}.", ""]
    statistics = run_statistics(result)
    if "repeat" in s:
        r = s["repeat"]
        lines += [f"Repeats k={r['k']}: mean pass rate {r['pass_rate']:.3f}, pass@k {r['pass_at_k']:.3f}, "
                  f"pass^k {r['pass_hat_k']:.3f}.", ""]
        lines += _repeat_lines(statistics)
    lines += ["| metric | pass rate | passed | failed | not measured | errors | info | pass rate 95% CI |"
              " mean score [95% CI] |", "|---|---|---|---|---|---|---|---|---|"]
    for row in summary_rows(s):
        ci = interval_text(row["passed"], row["failed"])
        score = score_text(statistics.get("metrics", {}).get(row["metric"]))
        lines.append(f"| {inert(row['metric'])} | {row['rate']} | {row['passed']} | {row['failed']} | "
                     f"{row['not_measured']} | {row['error']} | {row['info']} | {ci} | {score} |")
    judge = judge_line(s)
    if judge:
        lines += ["", inert(judge, 300) + "."]
    agreement = agreement_lines(s)
    if agreement:
        lines += ["", inert(agreement[0], 300), ""] + [f"- {inert(line.strip(), 400)}" for line in agreement[1:]]
    lines += _matrix_lines(s)
    lines += ["", "## Failed, errored and unmeasured cases", ""]
    listed = 0
    for case in result.store.iter_cases(result.run_id, only_unpassed=True, limit=MAX_LISTED):
        listed += 1
        rep = attempt_text(case, s)  # our own text: digits, parentheses and a slash
        output = "" if case["output"] is None else f": output “{inert(case['output'], 80)}”"
        lines.append(f"- **{inert(case['id'])}**{rep} ({inert(case['status'])}){output}")
        if case["error"]:
            lines.append(f"  - error: {inert(case['error'])}")
        for metric, why in metric_lines(case, errors=True):
            lines.append(f"  - {inert(metric)}: {inert(why)}")
    if not listed:
        lines.append("None.")
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


def _matrix_lines(summary: dict[str, Any]) -> list[str]:
    """The prompts × targets tables (cases passed, then each metric), labels made inert."""
    from agentunit.reporting.matrix import matrix_tables

    lines: list[str] = []
    for table in matrix_tables(summary):
        title = "cases passed" if table.title == "cases passed" else f"metric {inert(table.title)}"
        lines += ["", f"### Prompts × targets: {title}", "",
                  "| prompt \\ target | " + " | ".join(inert(c) for c in table.columns) + " |",
                  "|---" * (len(table.columns) + 1) + "|"]
        lines += [f"| {inert(label)} | " + " | ".join(cells) + " |" for label, cells in table.rows]
    return lines


def _repeat_lines(statistics: dict[str, Any]) -> list[str]:
    """Flaky cases (ids made inert) and Krippendorff's α per metric across the repeats."""
    rep = statistics.get("repeat")
    if not rep:
        return []
    lines = []
    if rep["cases"]:
        ids = ", ".join(inert(i) for i in rep["flaky"][:MAX_LISTED])
        lines += [f"Flaky cases (verdict differs across repeats): {len(rep['flaky'])}/{rep['cases']} "
                  f"({rep['rate']:.1%}){': ' + ids if ids else ''}.", ""]
    parts = [f"{inert(name)} {'—' if a['alpha'] is None else format(a['alpha'], '.3f')}"
             for name, a in rep["agreement"].items() if a["units"]]
    if parts:
        lines += ["Agreement across repeats (Krippendorff's α of the verdicts; — when every verdict is the same): "
                  + " · ".join(parts) + ".", ""]
    return lines
