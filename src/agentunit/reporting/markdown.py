"""Markdown report: summary, per-metric table (with the pass rate's Wilson interval and the mean
score's bootstrap interval; with repeats, flaky cases and Krippendorff's α), unpassed cases with reasons.

Values from the system under test or a data file (outputs, ids, reasons, errors, metric names) are
made inert text that stays on its line and in its cell: line breaks of every kind (``\\r``, ``\\n``,
``\\x0b``, ``\\x0c``, ``\\x85``, U+2028, U+2029) become spaces, other control characters visible
escapes, and a backslash goes before each character that would be Markdown there — and only those, so
a reply reads as written (commas, colons, dots and hyphens stay bare): ``\\``, ``|`` (a table cell),
`` ` `` (a code span), ``[`` and ``]`` (a link, an image, a footnote), ``<`` (HTML, an autolink), ``*``
and ``~`` (emphasis, strikethrough) unless spaces surround them, ``_`` unless it joins two letters or
digits, ``@`` (an e-mail autolink, a mention), the ``:`` of ``://`` and the ``.`` of ``www.`` (GFM
autolinks), and a block marker that begins the value (``#``, ``>``, ``-``, ``+``, ``=``, ``1.``) or
a ``#`` that ends it. No value can open a heading, a table row or cell, a link, an image, HTML,
emphasis or a code span.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from agentunit.reporting.console import (
    agreement_lines,
    attempt_text,
    interval_text,
    judge_line,
    metric_lines,
    outcome_text,
    run_statistics,
    score_text,
    summary_rows,
    unmeasured_allowed,
)
from agentunit.reporting.text import visible

MAX_LISTED = 200
_LINE_BREAKS = re.compile("\r\n|[\r\n\x0b\x0c\x85\u2028\u2029]")
_ALWAYS = frozenset("\\`[]<|@")  # Markdown wherever they stand
_UNLESS_SPACED = frozenset("*~")  # emphasis and strikethrough, unless whitespace surrounds them
_BLOCK_START = re.compile(r"[#>+=-]|\d{1,9}[.)]")  # a heading, a quote, a list, a setext line
_AUTOLINK = re.compile(r"(?=://)|(?i:(?<=\bwww)(?=\.))")  # GFM autolinks: the ``:`` of scheme://, www's ``.``


def inert(text: Any, limit: int = 160) -> str:
    """``text`` as inert Markdown inline text on one line, cut to ``limit`` characters (then "…").

    Algorithm: cut first (so an escape is never split), line breaks → spaces, other controls →
    visible escapes, spaces at either end dropped, then a backslash before each character that is
    Markdown where it stands (the module's docstring lists them); every other character is left as it is.
    """
    text = "" if text is None else str(text)
    if len(text) > limit:
        text = text[:limit] + "…"
    text = visible(_LINE_BREAKS.sub(" ", text)).strip()  # edge spaces would undo the bold around a value
    marks = {m.start() for m in _AUTOLINK.finditer(text)}  # a backslash before the ``:`` / ``.`` there
    block = _BLOCK_START.match(text)
    if block:
        marks.add(block.end() - 1)  # the marker's last character: ``\#``, ``1\.``
    if text.endswith("#"):
        marks.add(len(text) - 1)
    out = []
    for index, char in enumerate(text):
        before = text[index - 1] if index else ""  # the value's edges count as neither space nor letter
        after = text[index + 1] if index + 1 < len(text) else ""
        if (index in marks or char in _ALWAYS
                or (char in _UNLESS_SPACED and not (before.isspace() and after.isspace()))
                or (char == "_" and not (before.isalnum() and after.isalnum()))):
            out.append("\\")
        out.append(char)
    return "".join(out)


def write_markdown(result: Any, path: str | Path) -> None:
    """Summary counts, the per-metric table, then up to ``MAX_LISTED`` failed, errored and
    unmeasured cases with the reasons that explain each."""
    s = result.summary
    unmeasured = s.get("unmeasured", 0)
    allowed = " (allowed)" if unmeasured and unmeasured_allowed(s) else ""
    lines = [f"# agentunit run `{result.run_id}` — {inert(result.suite)}", "",
             f"Started {result.started_at}. **{s['passed']}/{s['cases']} passed**, {s['failed']} failed, "
             f"{s['errored']} errored, {unmeasured} unmeasured{allowed}.", ""]
    outcome = outcome_text(getattr(result, "status", ""), s)
    if outcome != getattr(result, "status", ""):
        lines += [f"Run {outcome}.", ""]
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
