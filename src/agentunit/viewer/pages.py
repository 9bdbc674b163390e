"""Server-rendered pages of the viewer: runs, a run, a case, a comparison. No script; every text escaped.

Each page function takes an open read-only connection (``agentunit.viewer.queries.connect``) and the
request's query parameters, and returns ``(status, html)``. Text from the database (ids, prompts,
outputs, reasons, metric names, details) goes through ``_e`` (escaped, its bidi controls and invisible
characters shown as escapes such as ``\\u202e``); links are built from our own paths
with URL-encoded parameters, so no stored value can become a scheme, a tag or an attribute.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import agentunit.viewer.queries as queries
from agentunit.reporting.charts import escape, pass_counts, percent, rate_chart, trend_chart
from agentunit.reporting.console import outcome_text
from agentunit.reporting.html import judge_html
from agentunit.reporting.matrix import matrix_tables
from agentunit.reporting.text import invisible_as_references, visible_on_page
from agentunit.viewer.compare import case_key, compare, has_repeats, resolve_pair
from agentunit.viewer.queries import CASE_STATUSES, METRIC_STATUSES, ViewerError

PAGE_SIZE = 50
MAX_PAGE_SIZE = 500
LISTED_CASES = 200  # per list on the comparison page
SIDE_BY_SIDE = 50  # broken and fixed cases shown with both outputs
OUTPUT_CHARS = 2000  # of each output shown side by side
CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1f2937;background:#fff}
header{background:#111827;color:#f9fafb;padding:.6rem 1.5rem;display:flex;gap:1.2rem;align-items:baseline}
header a{color:#f9fafb;text-decoration:none}header .brand{font-weight:700}
main{padding:1rem 1.5rem;max-width:1400px}h1{font-size:1.25rem;margin:.4rem 0}
h2{font-size:1.05rem;margin:1.2rem 0 .4rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}td,th{border:1px solid #e5e7eb;padding:.3rem .5rem;
text-align:left;vertical-align:top}th{background:#f3f4f6}td.num{text-align:right;white-space:nowrap}
.passed{color:#15803d}.failed{color:#b91c1c}.errored,.error{color:#7c2d12;font-weight:600}
.unmeasured{color:#a16207;font-weight:600}.not_measured,.info,.muted{color:#6b7280}
pre{white-space:pre-wrap;word-break:break-word;margin:0;max-height:24rem;overflow:auto;background:#f9fafb;
padding:.4rem;border:1px solid #f3f4f6}td pre{max-height:6rem;background:none;border:0;padding:0}
.text,td,pre,li{unicode-bidi:isolate}form.filters{display:flex;gap:.6rem;flex-wrap:wrap;align-items:end;margin:.6rem 0}
form label{display:flex;flex-direction:column;font-size:.8rem;color:#4b5563}input,select,button{font:inherit}
.pager{display:flex;gap:1rem;margin:.6rem 0}.trends{display:flex;flex-wrap:wrap;gap:.8rem}
.facts{display:flex;gap:1.2rem;flex-wrap:wrap;margin:.4rem 0}.facts span b{font-weight:600}
.media img{display:block;max-width:96px;max-height:96px;margin:.2rem 0;border:1px solid #ddd}
details summary{cursor:pointer}ol.timeline li{margin:.3rem 0}.tag{font-size:.75rem;background:#eef2ff;
padding:0 .35rem;border-radius:.3rem;margin-right:.3rem}.regressed{background:#fef2f2}
.pair{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:.6rem;margin:.3rem 0 .9rem}
.pair h4{margin:0 0 .2rem;font-size:.8rem;font-weight:600}.pair .why{font-size:.85rem;margin-top:.2rem}
table.matrix{width:auto}table.matrix td{text-align:right;white-space:nowrap}.notice{background:#fffbeb;
padding:.4rem .6rem;border:1px solid #fde68a}
"""


# -- helpers ---------------------------------------------------------------------------------------

def _e(value: Any) -> str:
    """``value`` as text or attribute content (``charts.escape``: None → "", non-strings as JSON, escaped),
    each bidi control or invisible character shown as its escape (``\\u202e``: ``visible_on_page``), so a
    stored value can neither reorder nor hide what a page shows."""
    if value is not None and not isinstance(value, str):
        value = json.dumps(value, ensure_ascii=False, default=str)
    return escape(visible_on_page(value))


def _value(value: Any) -> str:
    """A form field's value (escaped): sent back unchanged with the form, so its invisible and reordering
    characters are character references (``&#x202e;``) rather than escapes that would change it."""
    return invisible_as_references(escape(value))


def _url(path: str, **params: Any) -> str:
    """A link to one of our own pages: ``path`` plus its non-empty parameters, URL-encoded (not yet escaped)."""
    kept = {k: v for k, v in params.items() if v is not None and v != ""}
    return path + ("?" + urlencode(kept) if kept else "")


def _run_url(run_id: str, **params: Any) -> str:
    return _url(f"/run/{quote(run_id, safe='')}", **params)


def _case_url(run_id: str, case_id: str, repeat: int = 0) -> str:
    return _url(f"/run/{quote(run_id, safe='')}/case", id=case_id, repeat=repeat or None)


def _a(href: str, text: Any, cls: str = "") -> str:
    klass = f" class='{_e(cls)}'" if cls else ""
    return f"<a href='{_e(href)}'{klass}>{_e(text)}</a>"


def _num(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.4g}"
    return _e(value)


def _pre(value: Any) -> str:
    if value is None:
        return "<span class='muted'>—</span>"
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, indent=2, default=str)
    return f"<pre>{_e(text)}</pre>"


def _status(status: Any) -> str:
    return f"<span class='{_e(status)}'>{_e(status)}</span>"


def _outcome(status: Any, counts: Mapping[str, Any]) -> str:
    """A run's status, with what came of it when "completed" alone would mislead (every case errored)."""
    text = outcome_text(status, dict(counts))
    if text == str(status):
        return _status(status)
    return f"<span class='{'errored' if counts.get('errored') else 'muted'} outcome'>{_e(text)}</span>"


def _count(count: int, kind: str) -> str:
    """``3 failed`` in the colour of its kind; a zero count in grey (nothing went wrong)."""
    return f"<span class='{kind if count else 'muted'}'>{count} {kind}</span>"


def _param(params: Mapping[str, str], name: str) -> str:
    return (params.get(name) or "").strip()


def _int_param(params: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    try:
        value = int(params.get(name) or default)
    except ValueError:
        value = default
    return max(low, min(high, value))


def layout(title: str, body: str) -> str:
    """The page around ``body`` (already HTML); ``title`` is escaped."""
    return ("<!doctype html><html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{_e(title)} — agentunit</title><link rel='stylesheet' href='/static/viewer.css'></head><body>"
            "<header><a class='brand' href='/'>agentunit</a><a href='/'>runs</a>"
            "<a href='/compare'>compare</a></header>"
            f"<main>{body}</main></body></html>")


def error_page(status: int, message: str) -> tuple[int, str]:
    """A page saying what went wrong, in one escaped sentence."""
    return status, layout("error", f"<h1>{status}</h1><p class='text'>{_e(message)}</p><p>{_a('/', 'all runs')}</p>")


def _options(values: list[tuple[str, str]], selected: str) -> str:
    return "".join(f"<option value='{_value(v)}'{' selected' if v == selected else ''}>{_e(label)}</option>"
                   for v, label in values)


# -- runs ------------------------------------------------------------------------------------------

def runs_page(conn: sqlite3.Connection, params: Mapping[str, str]) -> tuple[int, str]:
    """Every run, newest first (paged), the trend of each metric's pass rate over the suite's runs, and
    a form to compare two runs."""
    names = queries.suites(conn)
    suite = _param(params, "suite")
    trend_suite = suite or (names[0] if names else "")
    page = _int_param(params, "page", 1, 1, 10**9)
    runs, more = queries.list_runs(conn, suite=suite or None, limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE)
    parts = ["<h1>Runs</h1>"]
    if not runs and page == 1:
        parts.append("<p>No runs in this database yet: <code>agentunit run SUITE</code> stores one.</p>")
        return 200, layout("runs", "".join(parts))
    parts.append("<form class='filters' method='get' action='/'><label>suite<select name='suite'>"
                 + _options([("", "all suites"), *[(n, n) for n in names]], suite)
                 + "</select></label><button type='submit'>Show</button></form>")
    if trend_suite:
        series = queries.trends(conn, trend_suite)
        if series:
            parts.append(f"<h2>Pass rate per metric over the last runs of <span class='text'>{_e(trend_suite)}"
                         "</span></h2><div class='trends'>")
            parts += [trend_chart(visible_on_page(name), points) for name, points in series.items()]
            parts.append("</div>")
    parts.append("<h2>Compare two runs</h2>" + _compare_form("latest~1", "latest", suite, names))
    parts.append("<h2>Runs</h2><table id='runs'><tr><th>run</th><th>suite</th><th>started</th><th>status</th>"
                 "<th>cases</th><th>passed</th><th>failed</th><th>errored</th><th>unmeasured</th></tr>")
    for run in runs:
        counts = queries.status_counts(conn, run)
        parts.append(f"<tr><td>{_a(_run_url(run['run_id']), run['run_id'])}</td>"
                     f"<td class='text'>{_e(run['suite'])}</td>"
                     f"<td>{_e(run['started_at'])}</td><td>{_outcome(run['status'], counts)}</td>"
                     + "".join(f"<td class='num'>{counts[k]}</td>" for k in ("cases", *CASE_STATUSES)) + "</tr>")
    parts.append("</table>")
    parts.append(_pager("/", page, more, suite=suite))
    return 200, layout("runs", "".join(parts))


def _pager(path: str, page: int, more: bool, **params: Any) -> str:
    links = []
    if page > 1:
        links.append(_a(_url(path, **params, page=page - 1 if page > 2 else None), "← previous", "prev"))
    links.append(f"<span class='muted'>page {page}</span>")
    if more:
        links.append(_a(_url(path, **params, page=page + 1), "next →", "next"))
    return f"<div class='pager'>{''.join(links)}</div>"


# -- a run -----------------------------------------------------------------------------------------

def run_page(conn: sqlite3.Connection, run_id: str, params: Mapping[str, str]) -> tuple[int, str]:
    """A run: counts, per-metric pass rates with Wilson intervals, and its case grid filtered and paged
    from the database (``status``, ``metric``, ``verdict``, ``q``, ``page``, ``size``)."""
    run = queries.get_run(conn, run_id)
    if run is None:
        return error_page(404, f"no run {run_id!r} in this database")
    counts = queries.status_counts(conn, run)
    metrics = queries.metric_counts(conn, run)
    before, after = queries.neighbour_runs(conn, run)
    status, metric = _param(params, "status"), _param(params, "metric")
    verdict, search = _param(params, "verdict"), _param(params, "q")
    size = _int_param(params, "size", PAGE_SIZE, 1, MAX_PAGE_SIZE)
    page = _int_param(params, "page", 1, 1, 10**9)
    parts = [f"<h1 class='text'>{_e(run['suite'])} — run {_e(run_id)}</h1><div class='facts'>"
             f"<span>started <b>{_e(run['started_at'])}</b></span>"
             f"<span id='status'>status {_outcome(run['status'], counts)}</span>"
             f"<span><b>{counts['passed']}/{counts['cases']}</b> passed</span>{_count(counts['failed'], 'failed')}"
             f"{_count(counts['errored'], 'errored')}{_count(counts['unmeasured'], 'unmeasured')}</div><p>"]
    links = []
    if before:
        links += [_a(_run_url(before), "← previous run"), _a(_url("/compare", a=before, b=run_id),
                                                             "compare with the previous run", "compare-previous")]
    if after:
        links.append(_a(_run_url(after), "next run →"))
    parts.append(" · ".join(links) + "</p>")
    rows = []
    for name, by_status in metrics.items():
        passed, judged = pass_counts(by_status)
        rows.append((visible_on_page(name), passed, judged))  # the chart escapes it, nothing more
    if rows:
        parts.append("<h2>Pass rate per metric (Wilson 95 % interval)</h2>" + rate_chart(rows))
    summary = run.get("summary") if isinstance(run.get("summary"), dict) else {}
    parts.append(_matrix(summary))
    parts.append(judge_html(summary))
    repeat = summary.get("repeat")
    if isinstance(repeat, dict) and "k" in repeat:
        parts.append(f"<p>repeats k={_e(repeat.get('k'))}: pass rate {_num(repeat.get('pass_rate'))}, "
                     f"pass@k {_num(repeat.get('pass_at_k'))}, pass^k {_num(repeat.get('pass_hat_k'))}</p>")
    parts.append(_filter_form(run_id, status, metric, verdict, search, list(metrics), size))
    cases, more = queries.case_page(conn, run_id, status=status or None, metric=metric or None,
                                    verdict=verdict or None, search=search or None,
                                    offset=(page - 1) * size, limit=size)
    parts.append("<table id='cases'><tr><th>case</th><th>status</th><th>score</th><th>latency ms</th>"
                 "<th>prompt</th><th>output</th><th>failing metrics / error</th></tr>")
    for case in cases:
        label = case["id"] + (f" #{case['repeat']}" if case["repeat"] else "")
        failing = "".join(f"<span class='tag'>{_e(m)}</span>" for m in case["failing"])
        error = f"<div class='errored text'>{_e(case['error'])}</div>" if case["error"] else ""
        parts.append(f"<tr class='case' data-status='{_e(case['status'])}'>"
                     f"<td class='text'>{_a(_case_url(run_id, case['id'], case['repeat']), label)}</td>"
                     f"<td>{_status(case['status'])}</td><td class='num'>{_num(case['score'])}</td>"
                     f"<td class='num'>{_num(case['latency_ms'])}</td><td><pre>{_e(case['prompt'])}</pre></td>"
                     f"<td><pre>{_e(case['output'])}</pre></td><td>{failing}{error}</td></tr>")
    parts.append("</table>")
    if not cases:
        parts.append("<p class='muted' id='no-cases'>No case matches these filters.</p>")
    parts.append(_pager(_run_url(run_id), page, more, status=status, metric=metric, verdict=verdict, q=search,
                        size=size if size != PAGE_SIZE else None))
    return 200, layout(f"run {run_id}", "".join(parts))


def _matrix(summary: dict[str, Any]) -> str:
    """A prompt × target run's grid (rows: prompts, columns: targets): cases passed per cell, then the same
    per metric (folded), as the reports show it; "" for a run that is not a matrix."""
    tables = matrix_tables(summary)
    if not tables:
        return ""
    parts = []
    for index, table in enumerate(tables):
        grid = (f"<table class='matrix' id='{'matrix' if index == 0 else f'matrix-{index}'}'><tr>"
                "<th>prompt \\ target</th>" + "".join(f"<th class='text'>{_e(c)}</th>" for c in table.columns)
                + "</tr>" + "".join(f"<tr><th class='text'>{_e(label)}</th>"
                                   + "".join(f"<td class='{_cell_class(c)}'>{_e(c)}</td>" for c in cells) + "</tr>"
                                   for label, cells in table.rows) + "</table>")
        if index == 0:
            parts.append(f"<h2>Prompts × targets: cases passed</h2>{grid}")
            if len(tables) > 1:
                parts.append(f"<details id='matrix-metrics'><summary>per metric ({len(tables) - 1})</summary>")
        else:
            parts.append(f"<h3 class='text'>metric {_e(table.title)}</h3>{grid}")
    if len(tables) > 1:
        parts.append("</details>")
    return "".join(parts)


def _cell_class(text: str) -> str:
    """A grid cell ``passed/n (rate)``: green when every one passed, red when some did not, grey when empty."""
    passed, slash, rest = text.partition("/")
    total = rest.split(" ", 1)[0]
    if not slash or not passed.isdigit() or not total.isdigit():
        return "muted"
    return "passed" if passed == total else "failed"


def _filter_form(run_id: str, status: str, metric: str, verdict: str, search: str, metric_names: list[str],
                 size: int) -> str:
    statuses = [("", "any"), *[(s, s) for s in CASE_STATUSES], ("unpassed", "not passed")]
    verdicts = [("", "any result"), *[(s, s.replace("_", " ")) for s in METRIC_STATUSES]]
    hidden = f"<input type='hidden' name='size' value='{size}'>" if size != PAGE_SIZE else ""
    return (f"<h2>Cases</h2><form class='filters' id='filters' method='get' action='{_e(_run_url(run_id))}'>"
            f"<label>status<select name='status'>{_options(statuses, status)}</select></label>"
            f"<label>metric<select name='metric'>{_options([('', 'any'), *[(n, n) for n in metric_names]], metric)}"
            f"</select></label><label>metric result<select name='verdict'>{_options(verdicts, verdict)}</select>"
            f"</label><label>search id, prompt, output, error<input type='search' name='q' value='{_value(search)}' "
            f"size='32'></label>{hidden}<button type='submit'>Filter</button>"
            f"{_a(_run_url(run_id), 'clear')}</form>")


# -- a case ----------------------------------------------------------------------------------------

def case_page(conn: sqlite3.Connection, run_id: str, params: Mapping[str, str]) -> tuple[int, str]:
    """One case in full: prompt, output, error, every metric's value, verdict, reason and detail, and the
    envelope (context, tool-call timeline, plan, conversation, media with thumbnails, the rest)."""
    case_id = params.get("id")
    if case_id is None:
        return error_page(400, "which case? the link needs ?id=CASE_ID")
    repeat = _int_param(params, "repeat", 0, 0, 2**63 - 1)
    if queries.get_run(conn, run_id) is None:
        return error_page(404, f"no run {run_id!r} in this database")
    case = queries.get_case(conn, run_id, case_id, repeat)
    if case is None:
        return error_page(404, f"no case {case_id!r} (repeat {repeat}) in run {run_id!r}")
    label = case_id + (f" #{repeat}" if repeat else "")
    parts = [f"<p>{_a(_run_url(run_id), '← run ' + run_id)}</p>",
             f"<h1 class='text'>case {_e(label)}</h1><div class='facts'><span>status {_status(case['status'])}</span>"
             f"<span>score <b>{_num(case['score'])}</b></span><span>latency <b>{_num(case['latency_ms'])}</b> ms"
             f"</span><span>{'cached reply' if case['cached'] else 'live reply'}</span></div>"]
    if len(case["repeats"]) > 1:
        parts.append("<p>repeats: " + " ".join(
            _a(_case_url(run_id, case_id, r), f"#{r} {s}", "current" if r == repeat else s)
            for r, s in case["repeats"]) + "</p>")
    if case["truncated"]:
        parts.append(f"<p class='muted'>Cut at 200,000 characters: {_e(', '.join(case['truncated']))}.</p>")
    parts.append(f"<h2>Prompt</h2>{_pre(case['prompt'])}<h2>Output</h2>{_pre(case['output'])}")
    if case["error"]:
        parts.append(f"<h2>Error</h2><pre class='errored'>{_e(case['error'])}</pre>")
    parts.append("<h2>Metrics</h2><table id='metrics'><tr><th>metric</th><th>result</th><th>value</th>"
                 "<th>threshold</th><th>weight</th><th>reason / error</th><th>detail</th></tr>")
    for m in case["metrics"]:
        label_tag = f"<span class='tag'>{_e(m['label'])}</span>" if m["label"] else ""
        why = (f"<div class='errored text'>{_e(m['error'])}</div>" if m["error"] else "") + \
            (f"<div class='text'>{_e(m['reason'])}</div>" if m["reason"] else "")
        detail = f"<details><summary>detail</summary>{_pre(m['detail'])}</details>" if m["detail"] else ""
        parts.append(f"<tr><td class='text'>{label_tag}{_e(m['metric'])}</td><td>{_status(m['status'])}</td>"
                     f"<td class='num'>{_num(m['value'])}</td><td class='num'>{_num(m['threshold'])}</td>"
                     f"<td class='num'>{_num(m['weight'])}</td><td>{why}</td><td>{detail}</td></tr>")
    parts.append("</table>")
    parts.append(_envelope(case["envelope"]))
    return 200, layout(f"case {label}", "".join(parts))


_SHOWN_KEYS = ("context", "tool_calls", "agent_calls", "events", "plan", "conversation", "media", "query")


def _envelope(envelope: Any) -> str:
    if not isinstance(envelope, dict) or not envelope:
        return "<h2>Envelope</h2><p class='muted'>The reply carried no metadata.</p>"
    parts = []
    if envelope.get("query") is not None:
        parts.append(f"<h2>Query</h2>{_pre(envelope['query'])}")
    context = envelope.get("context")
    if context:
        items = context if isinstance(context, list) else [context]
        parts.append("<h2>Context</h2><ol id='context'>" + "".join(f"<li>{_pre(item)}</li>" for item in items)
                     + "</ol>")
    events = envelope.get("events")
    if not isinstance(events, list):
        events = ([{"type": "tool_call", **c} for c in _dicts(envelope.get("tool_calls"))]
                  + [{"type": "agent_call", **c} for c in _dicts(envelope.get("agent_calls"))])
    if events:
        parts.append("<h2>Timeline</h2><ol class='timeline' id='timeline'>")
        for event in events:
            if not isinstance(event, dict):
                parts.append(f"<li>{_pre(event)}</li>")
                continue
            kind, name = event.get("type", "event"), event.get("name") or event.get("role") or ""
            rest = {k: v for k, v in event.items() if k not in ("type", "name")}
            parts.append(f"<li><span class='tag'>{_e(kind)}</span><b class='text'>{_e(name)}</b>"
                         f"{_pre(rest) if rest else ''}</li>")
        parts.append("</ol>")
    plan = envelope.get("plan")
    if plan:
        steps = plan if isinstance(plan, list) else [plan]
        parts.append("<h2>Plan</h2><ol id='plan'>" + "".join(
            f"<li class='text'>{_e(step) if isinstance(step, str) else _pre(step)}</li>" for step in steps) + "</ol>")
    conversation = envelope.get("conversation")
    if isinstance(conversation, list) and conversation:
        parts.append("<h2>Conversation</h2><ol id='conversation'>")
        for turn in conversation:
            role = turn.get("role", "") if isinstance(turn, dict) else ""
            content = turn.get("content") if isinstance(turn, dict) else turn
            parts.append(f"<li><span class='tag'>{_e(role)}</span>{_pre(content)}</li>")
        parts.append("</ol>")
    media = envelope.get("media")
    if isinstance(media, list) and media:
        from agentunit.reporting.html import thumbnail_html

        parts.append("<h2>Media</h2><table id='media'><tr><th>preview</th><th>field</th><th>source</th><th>type</th>"
                     "<th>size</th><th>sha256</th></tr>")
        for record in _dicts(media):
            size = record.get("size")
            parts.append(f"<tr class='media'><td>{thumbnail_html(record.get('thumbnail'))}</td>"
                         f"<td class='text'>{_e(record.get('field'))}</td><td class='text'>{_e(record.get('source'))}"
                         f"{'<div class=errored>' + _e(record['error']) + '</div>' if record.get('error') else ''}"
                         f"</td><td>{_e(record.get('mime'))}</td>"
                         f"<td class='num'>{f'{size:,}' if isinstance(size, int) else '—'}</td>"
                         f"<td><code>{_e(record.get('sha256'))}</code></td></tr>")
        parts.append("</table>")
    rest = {k: v for k, v in envelope.items() if k not in _SHOWN_KEYS}
    if rest:
        parts.append(f"<h2>Other metadata</h2>{_pre(rest)}")
    return "".join(parts)


def _dicts(value: Any) -> list[dict[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


# -- a comparison ----------------------------------------------------------------------------------

def compare_page(conn: sqlite3.Connection, db_path: str | Path, params: Mapping[str, str]) -> tuple[int, str]:
    """Two runs compared (``a`` before, ``b`` after; ids, ``latest`` or ``latest~N`` — counted among the
    runs of ``suite``, else of the other side's suite, else of the newest run's, as ``agentunit compare``
    counts them; with no parameter at all, the newest suite that ran twice): cases fixed, broken (each
    with both outputs side by side), still failing, added and removed, and per metric both pass rates with
    intervals, the delta and the paired test's p-value — what ``agentunit compare`` reports. Runs named by
    id of two different suites are compared, with a note saying so."""
    name_a, name_b = _param(params, "a") or "latest~1", _param(params, "b") or "latest"
    suite = _param(params, "suite")
    if not (_param(params, "a") or _param(params, "b") or suite):  # the page as linked: the newest suite run twice
        suite = queries.comparable_suite(conn) or ""
    form = _compare_form(name_a, name_b, suite, queries.suites(conn))
    try:
        run_a, run_b, common = resolve_pair(db_path, conn, name_a, name_b, suite or None)
    except ViewerError as exc:
        return 404, layout("compare", f"<h1>Compare two runs</h1>{form}<pre class='errored'>{_e(str(exc))}</pre>")
    result = compare(db_path, conn, run_a, run_b)
    repeats = bool(result["repeats"]) if "repeats" in result else has_repeats(conn, run_a, run_b)
    cases, metrics = result.get("cases") or {}, result.get("metrics") or {}
    regressed = set(result.get("regressed") or [])
    parts = [f"<h1>Compare {_a(_run_url(run_a), run_a)} → {_a(_run_url(run_b), run_b)}</h1>", form]
    if common is None:
        suite_a, suite_b = ((queries.get_run(conn, r) or {}).get("suite") for r in (run_a, run_b))
        if suite_a != suite_b:
            parts.append(f"<p class='notice text' id='suites'>A is a run of suite <b>{_e(suite_a)}</b>, B of suite "
                         f"<b>{_e(suite_b)}</b>: their cases pair up only where both suites use the same ids.</p>")
    if result.get("fallback"):
        parts.append("<p class='muted'>Significance tests come with <code>agentunit.stats</code>, which is not "
                     "installed: deltas only.</p>")
    counts = " ".join(f"<span class='{kind}'><b>{len(cases.get(kind) or [])}</b> {kind.replace('_', ' ')}</span>"
                      for kind in ("fixed", "broken", "still_failing", "added", "removed"))
    parts.append(f"<div class='facts' id='flips'>{counts}</div>")
    parts.append("<h2>Metrics</h2><table id='compare-metrics'><tr><th>metric</th><th>A pass rate</th>"
                 "<th>B pass rate</th><th>delta</th><th>p-value</th><th>test</th><th>scores: mean A → B, paired test"
                 "</th></tr>")
    overall = result.get("overall")
    rows = ([("all cases", overall, "all cases" if overall.get("regressed") else None)]
            if isinstance(overall, dict) else [])
    rows += [(name, row, name if name in regressed else None) for name, row in metrics.items()]
    for name, row, worse in rows:
        if not isinstance(row, dict):
            continue
        flag = " class='regressed'" if worse else ""
        note = " <b class='failed'>regressed</b>" if worse else ""
        parts.append(f"<tr{flag}><td class='text'>{_e(name)}{note}</td><td>{_side(row.get('a'))}</td>"
                     f"<td>{_side(row.get('b'))}</td><td class='num'>{_delta(row.get('delta'))}</td>"
                     f"<td class='num'>{_num(row.get('p_value'))}</td><td>{_e(row.get('test'))}</td>"
                     f"<td>{_scores(row)}</td></tr>")
    parts.append("</table>")
    for kind, title, run_of_link in (("broken", "Broken (passed → failed)", run_b),
                                     ("fixed", "Fixed (failed → passed)", run_b),
                                     ("still_failing", "Still failing", run_b), ("added", "Added", run_b),
                                     ("removed", "Removed", run_a)):
        items = list(cases.get(kind) or [])
        if not items:
            continue
        sides: tuple[dict[Any, Any], dict[Any, Any]] = ({}, {})
        if kind in ("broken", "fixed"):  # the two outputs side by side, for the first SIDE_BY_SIDE
            keys = [case_key(item, repeats) for item in items[:SIDE_BY_SIDE]]
            sides = (queries.case_outcomes(conn, run_a, keys, max_chars=OUTPUT_CHARS),
                     queries.case_outcomes(conn, run_b, keys, max_chars=OUTPUT_CHARS))
        parts.append(f"<h2>{title}: {len(items)}</h2><ul id='{kind}'>")
        for item in items[:LISTED_CASES]:
            case_id, repeat = case_key(item, repeats)
            label = case_id + (f" #{repeat}" if repeat else "")
            other = "" if kind in ("added", "removed") else \
                f" <span class='muted'>({_a(_case_url(run_a, case_id, repeat), 'in A')})</span>"
            pair = _pair(sides, (case_id, repeat)) if kind in ("broken", "fixed") else ""
            parts.append(f"<li class='text'>{_a(_case_url(run_of_link, case_id, repeat), label)}{other}{pair}</li>")
        parts.append("</ul>")
        if len(items) > LISTED_CASES:
            parts.append(f"<p class='muted'>… and {len(items) - LISTED_CASES:,} more.</p>")
    return 200, layout(f"compare {run_a} → {run_b}", "".join(parts))


def _compare_form(name_a: str, name_b: str, suite: str, suites: list[str]) -> str:
    """The form naming two runs (ids, ``latest``, ``latest~N``) and the suite whose runs ``latest~N`` counts."""
    choices = [("", "the runs' own (or the newest run's)"), *[(n, n) for n in suites]]
    return ("<form class='filters' method='get' action='/compare'>"
            f"<label>before (A)<input name='a' value='{_value(name_a)}' size='28'></label>"
            f"<label>after (B)<input name='b' value='{_value(name_b)}' size='28'></label>"
            f"<label>suite of latest~N<select name='suite'>{_options(choices, suite)}</select></label>"
            "<button type='submit'>Compare</button></form>")


def _pair(sides: tuple[dict[Any, Any], dict[Any, Any]], key: tuple[str, int]) -> str:
    """A case's outputs in runs A and B side by side (escaped, each cut to OUTPUT_CHARS), with B's (or A's)
    failing metrics and error under the run where they failed; "" when neither run has the case."""
    if key not in sides[0] and key not in sides[1]:
        return ""
    columns = []
    for name, side in (("A", sides[0]), ("B", sides[1])):
        case = side.get(key)
        if case is None:
            columns.append(f"<div><h4>{name}</h4><span class='muted'>not in this run</span></div>")
            continue
        cut = " <span class='muted'>(cut)</span>" if case["cut"] else ""
        why = "".join(f"<div class='why text'><span class='tag'>{_e(metric)}</span>{_e(reason)}</div>"
                      for metric, reason in case["failing"])
        error = f"<div class='why errored text'>{_e(case['error'])}</div>" if case["error"] else ""
        columns.append(f"<div><h4>{name}: {_status(case['status'])}{cut}</h4>{_pre(case['output'])}{why}{error}</div>")
    return f"<div class='pair'>{''.join(columns)}</div>"


def _side(side: Any) -> str:
    if not isinstance(side, dict) or side.get("pass_rate") is None:
        return "<span class='muted'>no verdicts</span>"
    ci = side.get("ci")
    interval = f" [{percent(ci[0])}–{percent(ci[1])}]" if isinstance(ci, (list, tuple)) and len(ci) == 2 else ""
    return f"{percent(side['pass_rate'])}{interval} <span class='muted'>n={_e(side.get('n'))}</span>"


def _scores(row: dict[str, Any]) -> str:
    """Mean scores of both runs (with their bootstrap intervals) and the paired score test, when reported."""
    sides = [row.get(k) if isinstance(row.get(k), dict) else {} for k in ("a", "b")]
    means = []
    for side in sides:
        mean, ci = side.get("mean_score"), side.get("score_ci")
        interval = f" [{_num(ci[0])}–{_num(ci[1])}]" if isinstance(ci, (list, tuple)) and len(ci) == 2 else ""
        means.append(f"{_num(mean)}{interval}" if isinstance(mean, (int, float)) else "—")
    text = " → ".join(means) if any(m != "—" for m in means) else ""
    score = row.get("score")
    if isinstance(score, dict):
        text += (f"; Δ {_num(score.get('delta'))}, p {_num(score.get('p_value'))} "
                 f"<span class='muted'>{_e(score.get('test'))}</span>")
    return text or "<span class='muted'>—</span>"


def _delta(delta: Any) -> str:
    if not isinstance(delta, (int, float)):
        return "—"
    cls = "passed" if delta > 0 else "failed" if delta < 0 else "muted"
    return f"<span class='{cls}'>{delta * 100:+.1f} pp</span>"

