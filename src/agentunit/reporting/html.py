"""Self-contained HTML report. Every value from the system under test is made encodable and escaped."""

from __future__ import annotations

import base64
import binascii
import html
import json
import re
from pathlib import Path
from typing import Any

from agentunit.reporting.console import summary_rows, unmeasured_allowed
from agentunit.reporting.json_report import media_of_case
from agentunit.store.text import encodable

# No script can run, even if escaping failed; images only from data: URIs (our own thumbnails).
_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
_THUMBNAIL = re.compile(r"data:image/jpeg;base64,([A-Za-z0-9+/]+={0,2})")
_THUMBNAIL_MAX_CHARS = 16_384
_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#222}
h1{font-size:1.3rem}table{border-collapse:collapse;width:100%;margin:1rem 0}
td,th{border:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f4f4f4}.passed{color:#15803d}.failed{color:#b91c1c}.errored{color:#7c2d12;font-weight:bold}
.not_measured,.info{color:#6b7280}pre{white-space:pre-wrap;margin:0;max-height:12rem;overflow:auto}
.unmeasured{color:#a16207;font-weight:bold}.media{color:#374151;font-size:.85em}
.media img{display:block;max-width:96px;max-height:96px;margin:.2rem 0;border:1px solid #ddd}
details summary{cursor:pointer}
"""


def _e(value: Any) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        value = json.dumps(value, ensure_ascii=False, default=str)
    return html.escape(encodable(value), quote=True)


def _number(value: Any) -> str:
    if value is None:
        return "—"
    return f"{value:.4g}" if isinstance(value, float) else _e(value)


def _media(case: dict[str, Any]) -> str:
    """One line per medium of the case and its reply: field, reference, type, size, short hash."""
    lines = []
    for record in media_of_case(case):
        facts = record.get("error") or ", ".join(str(part) for part in (
            record.get("mime"), f"{record['size']:,} bytes" if isinstance(record.get("size"), int) else None,
            f"sha256 {str(record['sha256'])[:12]}…" if record.get("sha256") else None) if part)
        image = _thumbnail(record.get("thumbnail"))
        lines.append(f"<div class='media'>{image}{_e(record.get('field'))}: {_e(record.get('source'))} "
                     f"({_e(facts)})</div>")
    return "".join(lines)


def _thumbnail(value: Any) -> str:
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


def write_html(result: Any, path: str | Path) -> None:
    """One file, no scripts, no external assets."""
    s = result.summary
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("w", encoding="utf-8") as out:
        out.write("<!doctype html><html><head><meta charset='utf-8'>"
                  f"<title>agentunit — {_e(result.suite)}</title>"
                  f"<meta http-equiv='Content-Security-Policy' content=\"{_CSP}\">"
                  f"<style>{_CSS}</style></head><body>")
        out.write(f"<h1>{_e(result.suite)} — run {_e(result.run_id)}</h1>")
        unmeasured = s.get("unmeasured", 0)
        allowed = " (allowed)" if unmeasured and unmeasured_allowed(s) else ""
        out.write(f"<p>Started {_e(result.started_at)}. <b>{s['passed']}/{s['cases']} passed</b>, "
                  f"{s['failed']} failed, {s['errored']} errored, "
                  f"<span class='unmeasured'>{unmeasured} unmeasured</span>{allowed}.</p>")
        out.write("<table><tr><th>metric</th><th>pass rate</th><th>passed</th><th>failed</th>"
                  "<th>not measured</th><th>errors</th></tr>")
        for r in summary_rows(s):
            out.write(f"<tr><td>{_e(r['metric'])}</td><td>{r['rate']}</td><td>{r['passed']}</td>"
                      f"<td>{r['failed']}</td><td>{r['not_measured']}</td><td>{r['error']}</td></tr>")
        out.write("</table><table><tr><th>case</th><th>status</th><th>prompt</th><th>output</th>"
                  "<th>latency ms</th><th>metrics</th></tr>")
        for case in result.iter_cases():
            rep = f" #{case['repeat']}" if case["repeat"] else ""
            metrics = "".join(
                f"<div class='{_e(m['status'])}'>{_e(m['metric'])}: {_number(m['value'])} "
                f"({_e(m['status'])}) {_e(m['error'] or m['reason'])}</div>" for m in case["metrics"])
            error = f"<div class='errored'>{_e(case['error'])}</div>" if case["error"] else ""
            out.write(f"<tr><td>{_e(case['id'])}{rep}</td><td class='{_e(case['status'])}'>{_e(case['status'])}</td>"
                      f"<td><pre>{_e(case['prompt'])}</pre>{_media(case)}</td>"
                      f"<td><pre>{_e(case['output'])}</pre>{error}</td>"
                      f"<td>{_number(case['latency_ms'])}</td><td>{metrics}</td></tr>")
        out.write("</table></body></html>\n")
