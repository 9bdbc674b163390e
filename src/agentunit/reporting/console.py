"""Console summary: totals, pass rate per metric, failing cases with reasons."""

from __future__ import annotations

import sys
from typing import Any, TextIO

MAX_FAILURES_SHOWN = 10
STATUSES = ("passed", "failed", "not_measured", "error", "info")


def metric_rows(metric_counts: dict[str, dict[str, int]]) -> list[dict[str, Any]]:
    """Per metric: counts by status and the pass rate over measured verdicts ("—" when none)."""
    rows = []
    for name, counts in metric_counts.items():
        row: dict[str, Any] = {"metric": name, **{s: counts.get(s, 0) for s in STATUSES}}
        judged = row["passed"] + row["failed"]
        row["rate"] = f"{row['passed'] / judged:.1%}" if judged else "—"
        rows.append(row)
    return rows


def summary_rows(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows per metric, then per metric group label (shown in brackets)."""
    labels = [{**r, "metric": f"[{r['metric']}]"} for r in metric_rows(summary.get("labels", {}))]
    return metric_rows(summary["metrics"]) + labels


class _Style:
    def __init__(self, enabled: bool):
        self.enabled = enabled

    def __call__(self, text: str, code: str) -> str:
        return f"\033[{code}m{text}\033[0m" if self.enabled else text


def print_summary(result: Any, db_path: str | None = None, out: TextIO | None = None) -> None:
    out = out or sys.stdout
    style = _Style(out.isatty())
    s = result.summary
    write = out.write
    write("\n")
    rows = summary_rows(s)
    if rows:
        width = max(len(r["metric"]) for r in rows)
        write(f"{'metric'.ljust(width)}  pass rate  passed  failed  not measured  errors  info\n")
        for r in rows:
            write(f"{r['metric'].ljust(width)}  {r['rate']:>9}  {r['passed']:>6}  {r['failed']:>6}  "
                  f"{r['not_measured']:>12}  {r['error']:>6}  {r['info']:>4}\n")
        write("\n")
    shown = 0
    for case in result.store.iter_cases(result.run_id, only_unpassed=True, limit=MAX_FAILURES_SHOWN):
        shown += 1
        label = style("ERROR", "31;1") if case["status"] == "errored" else style("FAIL", "31")
        rep = f" #{case['repeat']}" if case["repeat"] else ""
        write(f"{label} {case['id']}{rep}\n")
        if case["error"]:
            write(f"    {case['error'][:300]}\n")
        for m in case["metrics"]:
            if m["passed"] is False:
                write(f"    {m['metric']}: {(m['reason'] or '')[:300]}\n")
    unpassed = s["failed"] + s["errored"]
    if unpassed > shown:
        write(f"… and {unpassed - shown} more (see the reports or the results DB)\n")
    if "judge" in s:
        j = s["judge"]
        write(f"judge {j.get('provider')}: {j['calls']} calls, {j['cache_hits']} cached, "
              f"{j['prompt_tokens']} prompt + {j['completion_tokens']} completion tokens\n")
    if "repeat" in s:
        r = s["repeat"]
        write(f"repeats k={r['k']}: pass rate {r['pass_rate']:.3f}  pass@{r['k']} {r['pass_at_k']:.3f}  "
              f"pass^{r['k']} {r['pass_hat_k']:.3f}\n")
    verdict = style("PASSED", "32;1") if s["failed"] == 0 and s["errored"] == 0 else style("FAILED", "31;1")
    write(f"{verdict}  {s['passed']}/{s['cases']} passed, {s['failed']} failed, {s['errored']} errored"
          f"  · run {result.run_id}" + (f" in {db_path}" if db_path else "") + "\n")
    if result.status == "interrupted":
        write(f"run interrupted; continue it with: agentunit run SUITE --resume {result.run_id}\n")
