"""Self-contained HTML report: one file, no network. Every value from the system under test is made
encodable and escaped, its bidi controls and invisible characters shown as escapes (``\\u202e``:
``agentunit.reporting.text.visible_on_page``) so a value can neither reorder nor hide what the page shows.

Per-metric pass rates are drawn as inline SVG with their Wilson 95 % intervals; a case filter (status,
failing metric, search) runs in the page. The Content-Security-Policy allows exactly that one inline
script and that one style sheet, by their sha256 hashes, and images only from ``data:`` URIs (our own
thumbnails): a script or style that escaping let through would still not run.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import html
import json
import re
from pathlib import Path
from typing import Any

from agentunit.reporting.charts import pass_counts, rate_chart
from agentunit.reporting.console import (
    agreement_lines,
    attempt_text,
    duration_text,
    interval_text,
    judge_line,
    outcome_text,
    repeat_lines,
    run_statistics,
    score_text,
    summary_rows,
    unmeasured_allowed,
)
from agentunit.reporting.json_report import media_of_case
from agentunit.reporting.text import visible_on_page
from agentunit.store.text import encodable

_THUMBNAIL = re.compile(r"data:image/jpeg;base64,([A-Za-z0-9+/]+={0,2})")
_THUMBNAIL_MAX_CHARS = 16_384
_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#222}
h1{font-size:1.3rem}table{border-collapse:collapse;width:100%;margin:1rem 0}
td,th{border:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f4f4f4}.passed{color:#15803d}.failed{color:#b91c1c}.errored{color:#7c2d12;font-weight:bold}
.not_measured,.info,.muted{color:#6b7280}pre{white-space:pre-wrap;margin:0;max-height:12rem;overflow:auto}
.unmeasured{color:#a16207;font-weight:bold}.media{color:#374151;font-size:.85em}
.media img{display:block;max-width:96px;max-height:96px;margin:.2rem 0;border:1px solid #ddd}
details summary{cursor:pointer}td,pre,.text{unicode-bidi:isolate}
form.filters{display:flex;gap:.8rem;flex-wrap:wrap;align-items:end;margin:1rem 0}
form.filters label{display:flex;flex-direction:column;font-size:.8rem;color:#4b5563}
input,select{font:inherit}.failing{font-size:.75rem;background:#fee2e2;padding:0 .3rem;margin-right:.2rem}
"""
# The filter: status, failing metric and a search over each row's text; rows are hidden, never removed.
_SCRIPT = """(function () {
  var form = document.getElementById('filters');
  if (!form) { return; }
  var status = form.elements.status, metric = form.elements.metric, search = form.elements.q;
  var shown = document.getElementById('shown');
  var rows = Array.prototype.slice.call(document.querySelectorAll('tr.case'));
  var texts = null;
  function apply() {
    var s = status.value, m = metric.value, needle = search.value.toLowerCase(), count = 0;
    if (needle && texts === null) {
      texts = rows.map(function (row) { return row.textContent.toLowerCase(); });
    }
    rows.forEach(function (row, index) {
      var ok = !s || (s === 'unpassed' ? row.dataset.status !== 'passed' : row.dataset.status === s);
      if (ok && m) { ok = JSON.parse(row.dataset.failing || '[]').indexOf(m) >= 0; }
      if (ok && needle) { ok = texts[index].indexOf(needle) >= 0; }
      row.hidden = !ok;
      if (ok) { count += 1; }
    });
    shown.textContent = String(count);
  }
  form.addEventListener('input', apply);
  form.addEventListener('change', apply);
  form.addEventListener('submit', function (event) { event.preventDefault(); apply(); });
})();"""


def _sha256(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


# Only our own script and style sheet, by hash; images only from data: URIs (our own thumbnails).
CSP = (f"default-src 'none'; script-src '{_sha256(_SCRIPT)}'; style-src '{_sha256(_CSS)}'; img-src data:; "
       "base-uri 'none'; form-action 'none'")
_CASE_STATUSES = ("passed", "failed", "errored", "unmeasured")


def _e(value: Any) -> str:
    """``value`` as HTML text or attribute content: None → "", non-strings as JSON; invisible and reordering
    characters shown as escapes, then made encodable and HTML-escaped."""
    if value is None:
        return ""
    if not isinstance(value, str):
        value = json.dumps(value, ensure_ascii=False, default=str)
    return html.escape(encodable(visible_on_page(value)), quote=True)


def _number(value: Any) -> str:
    """A metric value without exponent notation: ``0.9375``, ``42``, ``11,190``."""
    if value is None:
        return "—"
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return _e(str(value))
        return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.4g}"
    return _e(value)


def _metric_value(metric: dict[str, Any]) -> str:
    """A metric result's value; ``latency``'s milliseconds as a duration."""
    value = metric["value"]
    if metric["metric"] in ("latency", "not-latency") and isinstance(value, (int, float)):
        return _e(duration_text(float(value)))
    return _number(value)


def _media(case: dict[str, Any]) -> str:
    """One line per medium of the case and its reply: field, reference, type, size, short hash."""
    lines = []
    for record in media_of_case(case):
        facts = record.get("error") or ", ".join(str(part) for part in (
            record.get("mime"), f"{record['size']:,} bytes" if isinstance(record.get("size"), int) else None,
            f"sha256 {str(record['sha256'])[:12]}…" if record.get("sha256") else None) if part)
        image = thumbnail_html(record.get("thumbnail"))
        lines.append(f"<div class='media'>{image}{_e(record.get('field'))}: {_e(record.get('source'))} "
                     f"({_e(facts)})</div>")
    return "".join(lines)


def thumbnail_html(value: Any) -> str:
    """An ``<img>`` of a stored thumbnail, or nothing: only a ``data:image/jpeg;base64,`` URI of at most
    ``_THUMBNAIL_MAX_CHARS`` whose bytes decode and open like a JPEG (what agentunit.media.thumbnail
    makes) is shown — any other value, whatever it says, is left out — and it is escaped all the same."""
    if not isinstance(value, str) or len(value) > _THUMBNAIL_MAX_CHARS:
        return ""
    match = _THUMBNAIL.fullmatch(value)
    if match is None:
        return ""
    try:
        head = base64.b64decode(match.group(1)[:8], validate=True)
    except (binascii.Error, ValueError):
        return ""
    if not head.startswith(b"\xff\xd8\xff"):
        return ""
    return f"<img src='{_e(value)}' alt='thumbnail'>"


def count_html(count: Any, kind: str) -> str:
    """``3 failed`` in the colour of its kind (``failed``, ``errored``, ``unmeasured``) when there are
    some; a zero count in grey, since nothing went wrong."""
    return f"<span class='{kind if count else 'muted'}'>{_e(count)} {kind}</span>"


def judge_html(summary: dict[str, Any]) -> str:
    """The run's judge use and each judge metric's known agreement with people, escaped ("" without a judge)."""
    judge, agreement = judge_line(summary), agreement_lines(summary)
    markup = f"<p id='judge'>{_e(judge)}</p>" if judge else ""
    if agreement:
        markup += (f"<div id='agreement'><p>{_e(agreement[0])}</p><ul>"
                   + "".join(f"<li>{_e(line.strip())}</li>" for line in agreement[1:]) + "</ul></div>")
    return markup


def write_html(result: Any, path: str | Path) -> None:
    """One file: summary, per-metric pass-rate chart with intervals, the case table with its filter."""
    s = result.summary
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    rows = summary_rows(s)
    statistics = run_statistics(result)
    metric_names = list(s.get("metrics") or {})
    with target.open("w", encoding="utf-8") as out:
        out.write("<!doctype html><html lang='en'><head><meta charset='utf-8'>"
                  f"<meta http-equiv='Content-Security-Policy' content=\"{CSP}\">"
                  f"<title>agentunit — {_e(result.suite)}</title>"
                  f"<style>{_CSS}</style></head><body>")
        out.write(f"<h1>{_e(result.suite)} — run {_e(result.run_id)}</h1>")
        unmeasured = s.get("unmeasured", 0)
        allowed = " (allowed)" if unmeasured and unmeasured_allowed(s) else ""
        out.write(f"<p>Started {_e(result.started_at)}. <b>{s['passed']}/{s['cases']} passed</b>, "
                  f"{count_html(s['failed'], 'failed')}, {count_html(s['errored'], 'errored')}, "
                  f"{count_html(unmeasured, 'unmeasured')}{allowed}.</p>")
        outcome = outcome_text(getattr(result, "status", ""), s)
        if outcome != getattr(result, "status", ""):
            out.write(f"<p id='outcome' class='errored'>Run {_e(outcome)}.</p>")
        chart = rate_chart([(visible_on_page(name), *pass_counts(counts))  # the chart escapes, nothing more
                            for name, counts in (s.get("metrics") or {}).items()],
                           title="pass rate by metric, with Wilson 95 % intervals")
        if chart:
            out.write(f"<h2>Pass rate by metric (Wilson 95 % interval)</h2>{chart}")
        out.write("<table id='metrics'><tr><th>metric</th><th>pass rate</th><th>95% CI</th><th>passed</th>"
                  "<th>failed</th><th>not measured</th><th>errors</th>"
                  "<th>info</th><th>mean score</th></tr>")
        for r in rows:
            score = score_text(statistics.get("metrics", {}).get(r["metric"]))
            out.write(f"<tr><td>{_e(r['metric'])}</td><td>{r['rate']}</td>"
                      f"<td>{_e(interval_text(r['passed'], r['failed']))}</td><td>{r['passed']}</td>"
                      f"<td>{r['failed']}</td><td>{r['not_measured']}</td><td>{r['error']}</td>"
                      f"<td>{r['info']}</td><td>{_e(score)}</td></tr>")
        out.write("</table><p class='info'>not measured: the metric's inputs were absent (a reason says which); "
                  "info: measured with no pass mark — reported, never a pass or a failure.</p>")
        out.write(judge_html(s))
        _write_matrix(out, s)
        _write_repeat(out, s, statistics)
        out.write(_filter_form(metric_names, s["cases"]))
        out.write("<table id='cases'><tr><th>case</th><th>status</th><th>prompt</th><th>output</th>"
                  "<th>latency</th><th>metrics</th></tr>")
        for case in result.iter_cases():
            rep = _e(attempt_text(case, s))
            metrics = "".join(
                f"<div class='{_e(m['status'])}'>{_e(m['metric'])}: {_metric_value(m)} "
                f"({_e(m['status'])}) {_e(m['error'] or m['reason'])}</div>" for m in case["metrics"])
            # names as the filter's options show them (escaped as on the page), so the filter still matches
            failing = [visible_on_page(m["metric"]) for m in case["metrics"]
                       if m["passed"] is False or m["status"] == "error"]
            error = f"<div class='errored'>{_e(case['error'])}</div>" if case["error"] else ""
            out.write(f"<tr class='case' data-status='{_e(case['status'])}' data-failing='{_e(failing)}'>"
                      f"<td>{_e(case['id'])}{rep}</td><td class='{_e(case['status'])}'>{_e(case['status'])}</td>"
                      f"<td><pre>{_e(case['prompt'])}</pre>{_media(case)}</td>"
                      f"<td><pre>{_e(case['output'])}</pre>{error}</td>"
                      f"<td>{_e(duration_text(case['latency_ms']))}</td><td>{metrics}</td></tr>")
        out.write(f"</table><script>{_SCRIPT}</script></body></html>\n")


def _filter_form(metric_names: list[str], total: int) -> str:
    statuses = "".join(f"<option value='{s}'>{s}</option>" for s in _CASE_STATUSES)
    metrics = "".join(f"<option value='{_e(name)}'>{_e(name)}</option>" for name in metric_names)
    return ("<form class='filters' id='filters'>"
            f"<label>status<select name='status'><option value=''>any</option>{statuses}"
            "<option value='unpassed'>not passed</option></select></label>"
            f"<label>failing metric<select name='metric'><option value=''>any</option>{metrics}</select></label>"
            "<label>search<input type='search' name='q' size='32'></label>"
            f"<span><b id='shown'>{total}</b> of {total} cases shown</span></form>")


def _write_matrix(out: Any, summary: dict[str, Any]) -> None:
    """The prompts × targets tables: cases passed, then each metric (rows: prompts, columns: targets)."""
    from agentunit.reporting.matrix import matrix_tables

    for table in matrix_tables(summary):
        title = "cases passed" if table.title == "cases passed" else f"metric {_e(table.title)}"
        out.write(f"<h2>Prompts × targets: {title}</h2><table class='matrix'><tr><th>prompt \\ target</th>"
                  + "".join(f"<th>{_e(c)}</th>" for c in table.columns) + "</tr>")
        for label, cells in table.rows:
            out.write(f"<tr><th>{_e(label)}</th>" + "".join(f"<td>{_e(c)}</td>" for c in cells) + "</tr>")
        out.write("</table>")


def _write_repeat(out: Any, summary: dict[str, Any], statistics: dict[str, Any]) -> None:
    """With repeats: pass rate, pass@k and pass^k, then flaky cases and agreement across the attempts."""
    repeat = summary.get("repeat")
    if isinstance(repeat, dict) and "k" in repeat:
        k = _e(repeat["k"])
        out.write(f"<p id='repeats'>repeats k={k}: pass rate {_number(repeat.get('pass_rate'))}, "
                  f"pass@{k} {_number(repeat.get('pass_at_k'))}, pass^{k} {_number(repeat.get('pass_hat_k'))}</p>")
        for line in repeat_lines(statistics):
            out.write(f"<p class='repeat'>{_e(line)}</p>")
