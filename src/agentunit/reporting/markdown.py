"""Markdown report: summary, per-metric table, unpassed cases with reasons.

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

from agentunit.reporting.console import metric_lines, summary_rows, unmeasured_allowed
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
    if "repeat" in s:
        r = s["repeat"]
        lines += [f"Repeats k={r['k']}: mean pass rate {r['pass_rate']:.3f}, pass@k {r['pass_at_k']:.3f}, "
                  f"pass^k {r['pass_hat_k']:.3f}.", ""]
    lines += ["| metric | pass rate | passed | failed | not measured | errors | info |",
              "|---|---|---|---|---|---|---|"]
    for row in summary_rows(s):
        lines.append(f"| {inert(row['metric'])} | {row['rate']} | {row['passed']} | {row['failed']} | "
                     f"{row['not_measured']} | {row['error']} | {row['info']} |")
    lines += ["", "## Failed, errored and unmeasured cases", ""]
    listed = 0
    for case in result.store.iter_cases(result.run_id, only_unpassed=True, limit=MAX_LISTED):
        listed += 1
        rep = f" \\#{case['repeat']}" if case["repeat"] else ""
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
