"""Console summary: totals, pass rate per metric with its 95 % Wilson interval and mean score with
its bootstrap interval, unpassed cases with reasons; with repeats, pass@k, pass^k, flaky cases and
Krippendorff's α across the repeats (docs/statistics.md).

Every value that came from the system under test or a data file (case ids, errors, reasons, metric
names) is printed through ``visible``, so it cannot move the cursor, retitle the terminal or fake a
line; only this module's own styling emits ESC.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from agentunit.reporting.text import visible

MAX_FAILURES_SHOWN = 10
STATUSES = ("passed", "failed", "not_measured", "error", "info")
_LABELS = {"errored": ("ERROR", "31;1"), "failed": ("FAIL", "31"), "unmeasured": ("UNMEASURED", "33")}


def metric_rows(metric_counts: dict[str, dict[str, int]]) -> list[dict[str, Any]]:
    """Per metric: counts by status and the pass rate over measured verdicts ("—" when none)."""
    rows = []
    for name, counts in metric_counts.items():
        row: dict[str, Any] = {"metric": name, **{s: counts.get(s, 0) for s in STATUSES}}
        judged = row["passed"] + row["failed"]
        row["rate"] = f"{row['passed'] / judged:.1%}" if judged else "—"
        rows.append(row)
    return rows


def interval_text(passed: int, failed: int, confidence: float = 0.95) -> str:
    """The Wilson interval of passed/(passed + failed) as ``[62.7%, 90.5%]`` ("—" when nothing was judged)."""
    from agentunit.stats.intervals import wilson_interval

    n = passed + failed
    if not n:
        return "—"
    lo, hi = wilson_interval(passed, n, confidence)
    return f"[{lo:.1%}, {hi:.1%}]"


def score_text(stats: dict[str, Any] | None) -> str:
    """A metric's mean score and bootstrap interval as ``0.712 [0.61, 0.80]`` ("—" when it has none)."""
    if not stats or stats.get("mean_score") is None:
        return "—"
    lo, hi = stats["score_ci"]
    return f"{_plain(stats['mean_score'])} [{_plain(lo)}, {_plain(hi)}]"


def _plain(value: float) -> str:
    """Three significant digits without exponent notation (a latency mean of 11,190 ms, not 1.12e+04)."""
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.3g}"


def run_statistics(result: Any) -> dict[str, Any]:
    """``{"metrics": metric_summary, "repeat": repeat_statistics (with --repeat)}`` of a run read from its
    store; ``{}`` when the result has no readable store (a summary alone)."""
    from agentunit.stats.summary import metric_summary, repeat_statistics

    spool = getattr(result, "spool", None)  # counted as the run stored its cases: no database read
    statistics = spool.statistics() if spool is not None and spool.usable else None
    if statistics is not None:
        return statistics
    store, run_id = getattr(result, "store", None), getattr(result, "run_id", None)
    if store is None or run_id is None or not hasattr(store, "metric_values"):
        return {}
    out: dict[str, Any] = {"metrics": metric_summary(result)}
    repeat = result.summary.get("repeat")
    if repeat:
        out["repeat"] = repeat_statistics(result, repeat.get("cases"))
    return out


def repeat_lines(statistics: dict[str, Any]) -> list[str]:
    """Flaky cases and agreement across repeats as plain lines (values not yet made inert)."""
    rep = statistics.get("repeat")
    if not rep:
        return []
    lines = []
    if rep["cases"]:
        shown = ", ".join(str(i) for i in rep["flaky"][:MAX_FAILURES_SHOWN])
        more = f" … and {len(rep['flaky']) - MAX_FAILURES_SHOWN} more" if len(rep["flaky"]) > MAX_FAILURES_SHOWN else ""
        lines.append(f"flaky cases (verdict differs across repeats): {len(rep['flaky'])}/{rep['cases']}"
                     f" ({rep['rate']:.1%})" + (f": {shown}{more}" if shown else ""))
    parts = [f"{name} {'—' if a['alpha'] is None else format(a['alpha'], '.3f')}"
             for name, a in rep["agreement"].items() if a["units"]]
    if parts:
        lines.append("agreement across repeats (Krippendorff's α of the verdicts; — no disagreement possible): "
                     + " · ".join(parts))
    return lines


def attempt_text(case: dict[str, Any], summary: dict[str, Any]) -> str:
    """`` (attempt 2/3)`` for a case of a run with ``--repeat 3``, so its attempts are told apart; ``""``
    without repeats (a stored repeat index without the run's k still shows as `` #N``)."""
    repeat = summary.get("repeat")
    k = repeat.get("k") if isinstance(repeat, dict) else None
    index = case.get("repeat") or 0
    if isinstance(k, int) and k > 1:
        return f" (attempt {index + 1}/{k})"
    return f" #{index}" if index else ""


def duration_text(ms: float | None) -> str:
    """Milliseconds as a person reads them: ``0.42 ms``, ``37 ms``, ``1.12 s``, ``11.2 s``, ``2.5 min``."""
    if ms is None:
        return "—"
    if ms < 10:
        return f"{ms:.2g} ms" if ms < 1 else f"{ms:.1f} ms"
    if ms < 1000:
        return f"{ms:.0f} ms"
    if ms < 60_000:
        return f"{ms / 1000:.3g} s"
    return f"{ms / 60_000:.1f} min"


def judge_line(summary: dict[str, Any]) -> str | None:
    """The run's judge use in one line (provider, calls, cache hits, tokens), or None without judge calls."""
    j = summary.get("judge")
    if not isinstance(j, dict):
        return None
    return (f"judge {j.get('provider')}: {j.get('calls', 0)} calls, {j.get('cache_hits', 0)} cached, "
            f"{j.get('prompt_tokens', 0)} prompt + {j.get('completion_tokens', 0)} completion tokens")


def agreement_lines(summary: dict[str, Any]) -> list[str]:
    """How far each judge metric's verdicts are known to agree with people (``summary.judge.agreement``,
    docs/judges.md), a line each after a heading; ``[]`` when the run has none. A summary read back from a
    database is not trusted to have the shape this writes: an entry that is not one reads "not known"."""
    judge = summary.get("judge")
    agreement = judge.get("agreement") if isinstance(judge, dict) else None
    if not isinstance(agreement, dict) or not agreement:
        return []
    lines = ["judge agreement with people (balanced accuracy of its verdicts against human verdicts):"]
    for name, a in agreement.items():
        a = a if isinstance(a, dict) else {}
        value, bar = a.get("balanced_accuracy"), a.get("bar")
        if not isinstance(value, (int, float)):
            lines.append(f"  {name}: not known — {a.get('reason', 'no figure recorded')}")
        elif str(a.get("source", "")).startswith("calibration"):
            how = "cross-validated" if a.get("cross_validated") else "in-sample"
            lines.append(f"  {name}: {value:.3f} {how} on {a.get('n')} of your verdicts ({a.get('source')})")
        else:
            standing = "" if not isinstance(bar, (int, float)) else (
                f", meets its {bar:.2f} bar" if a.get("meets_bar")
                else f", below its {bar:.2f} bar: read its failures before gating on them")
            lines.append(f"  {name}: {value:.3f} on {a.get('n')} held-out {a.get('unit', 'rows')}{standing}"
                         f" ({a.get('source')})")
    return lines


def summary_rows(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows per metric, then per metric group label (shown in brackets)."""
    labels = [{**r, "metric": f"[{r['metric']}]"} for r in metric_rows(summary.get("labels", {}))]
    return metric_rows(summary["metrics"]) + labels


def outcome_text(status: Any, counts: dict[str, Any]) -> str:
    """A run's status with what came of it when "completed" alone would mislead: ``completed — every case
    errored`` (no case could be judged: a target that never answered, a missing key) or ``completed — no
    cases``. ``counts``: the run's summary or case counts (``cases``, ``errored``)."""
    text = str(status)
    cases, errored = counts.get("cases"), counts.get("errored")
    if text != "completed" or not isinstance(cases, int):
        return text
    if cases == 0:
        return "completed — no cases"
    if errored == cases:
        return "completed — every case errored"
    return text


def unmeasured_allowed(summary: dict[str, Any]) -> bool:
    """Whether unmeasured cases leave the run passing (summaries of older runs lack the key: no)."""
    return bool(summary.get("allow_unmeasured", False))


def metric_lines(case: dict[str, Any], *, errors: bool = False) -> list[tuple[str, str]]:
    """(metric, why) for each metric that explains a case's status: failed verdicts (and metric
    errors when ``errors``); for an unmeasured case, each metric's not-measured reason."""
    lines = []
    for m in case["metrics"]:
        if m["passed"] is False or (errors and m["error"]):
            lines.append((m["metric"], m["error"] or m["reason"] or ""))
        elif case["status"] == "unmeasured" and m["status"] == "not_measured":
            lines.append((m["metric"], m["reason"] or "not measured"))
    return lines


def matrix_lines(summary: dict[str, Any]) -> list[str]:
    """The prompts × targets table of case pass rates (rows: prompts, columns: targets), values made
    inert; no lines when the run is not a matrix."""
    if not summary.get("matrix"):
        return []
    from agentunit.reporting.matrix import matrix_tables

    tables = matrix_tables(summary, per_metric=False)
    if not tables:
        return []
    table = tables[0]
    head = [visible("prompt \\ target"), *(visible(c) for c in table.columns)]
    body = [[visible(label), *cells] for label, cells in table.rows]
    widths = [max(len(row[i]) for row in (head, *body)) for i in range(len(head))]
    lines = [f"prompts × targets: {table.title}"]
    lines += ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
              for row in (head, *body)]
    return [*lines, ""]


class _Style:
    def __init__(self, enabled: bool):
        self.enabled = enabled

    def __call__(self, text: str, code: str) -> str:
        return f"\033[{code}m{text}\033[0m" if self.enabled else text


def print_summary(result: Any, db_path: str | None = None, out: TextIO | None = None) -> None:
    """The summary a person reads after ``agentunit run``; the verdict is ``result.passed``."""
    out = out or sys.stdout
    style = _Style(out.isatty())
    s = result.summary
    unmeasured = s.get("unmeasured", 0)
    write = out.write
    write("\n")
    rows = summary_rows(s)
    statistics = run_statistics(result)
    if rows:
        names = [visible(r["metric"]) for r in rows]
        width = max(len(n) for n in names)
        cis = [interval_text(r["passed"], r["failed"]) for r in rows]
        scores = [score_text(statistics.get("metrics", {}).get(r["metric"])) for r in rows]
        ci_width, score_width = max(15, *map(len, cis)), max(10, *map(len, scores))
        write(f"{'metric'.ljust(width)}  pass rate  {'95% CI'.ljust(ci_width)}  passed  failed  not measured  errors"
              f"  info  {'mean score'.ljust(score_width)}\n")
        for name, r, ci, score in zip(names, rows, cis, scores, strict=True):
            write(f"{name.ljust(width)}  {r['rate']:>9}  {ci.ljust(ci_width)}  {r['passed']:>6}  {r['failed']:>6}  "
                  f"{r['not_measured']:>12}  {r['error']:>6}  {r['info']:>4}  {score}\n")
        write("\n")
    for line in matrix_lines(s):
        write(line + "\n")
    shown = 0
    # Every stored case passed: no row to list (a 1,000,000-case run is not scanned for none).
    unpassed_cases = () if s["passed"] == s["cases"] else \
        result.store.iter_cases(result.run_id, only_unpassed=True, limit=MAX_FAILURES_SHOWN)
    for case in unpassed_cases:
        shown += 1
        text, code = _LABELS.get(case["status"], (case["status"].upper(), "31"))
        write(f"{style(visible(text), code)} {visible(case['id'])}{attempt_text(case, s)}\n")
        if case["error"]:
            write(f"    {visible(case['error'][:300])}\n")
        for metric, why in metric_lines(case):
            write(f"    {visible(metric)}: {visible(why[:300])}\n")
    unpassed = s["failed"] + s["errored"] + unmeasured
    if unpassed > shown:
        write(f"… and {unpassed - shown} more (see the reports or the results DB)\n")
    problems = getattr(result.store, "problems", [])
    for problem in problems[:MAX_FAILURES_SHOWN]:  # values the database refused, each replaced by a note
        write(f"{style('STORE', '33')} {visible(problem[:300])}\n")
    if len(problems) > MAX_FAILURES_SHOWN:
        write(f"… and {len(problems) - MAX_FAILURES_SHOWN} more store problems\n")
    judge = judge_line(s)
    if judge:
        write(visible(judge) + "\n")
    for line in agreement_lines(s):
        write(visible(line) + "\n")
    if "repeat" in s:
        r = s["repeat"]
        write(f"repeats k={r['k']}: pass rate {r['pass_rate']:.3f}  pass@{r['k']} {r['pass_at_k']:.3f}  "
              f"pass^{r['k']} {r['pass_hat_k']:.3f}\n")
        for line in repeat_lines(statistics):
            write(visible(line) + "\n")
    verdict = style("PASSED", "32;1") if result.passed else style("FAILED", "31;1")
    allowed = " (allowed)" if unmeasured and unmeasured_allowed(s) else ""
    write(f"{verdict}  {s['passed']}/{s['cases']} passed, {s['failed']} failed, {s['errored']} errored, "
          f"{unmeasured} unmeasured{allowed}  · run {result.run_id}"
          + (f" in {visible(db_path)}" if db_path else "") + "\n")
    if result.status == "interrupted":
        write(f"run interrupted; continue it with: agentunit run SUITE --resume {result.run_id}\n")
