"""Markdown report: summary, per-metric table, failing cases with reasons."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agentunit.reporting.console import summary_rows

MAX_LISTED = 200


def _cell(text: Any, limit: int = 160) -> str:
    text = "" if text is None else str(text)
    if len(text) > limit:
        text = text[:limit] + "…"
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ").replace("<", "&lt;")


def write_markdown(result: Any, path: str | Path) -> None:
    s = result.summary
    lines = [f"# agentunit run `{result.run_id}` — {_cell(result.suite)}", "",
             f"Started {result.started_at}. **{s['passed']}/{s['cases']} passed**, {s['failed']} failed, "
             f"{s['errored']} errored.", ""]
    if "repeat" in s:
        r = s["repeat"]
        lines += [f"Repeats k={r['k']}: mean pass rate {r['pass_rate']:.3f}, pass@k {r['pass_at_k']:.3f}, "
                  f"pass^k {r['pass_hat_k']:.3f}.", ""]
    lines += ["| metric | pass rate | passed | failed | not measured | errors | info |",
              "|---|---|---|---|---|---|---|"]
    for row in summary_rows(s):
        lines.append(f"| {_cell(row['metric'])} | {row['rate']} | {row['passed']} | {row['failed']} | "
                     f"{row['not_measured']} | {row['error']} | {row['info']} |")
    lines += ["", "## Failing and errored cases", ""]
    listed = 0
    for case in result.store.iter_cases(result.run_id, only_unpassed=True, limit=MAX_LISTED):
        listed += 1
        lines.append(f"- **{_cell(case['id'])}** ({case['status']}): output `{_cell(case['output'], 80)}`")
        if case["error"]:
            lines.append(f"  - error: {_cell(case['error'])}")
        for m in case["metrics"]:
            if m["passed"] is False or m["error"]:
                lines.append(f"  - {_cell(m['metric'])}: {_cell(m['error'] or m['reason'])}")
    if not listed:
        lines.append("None.")
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
