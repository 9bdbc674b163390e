"""Results databases for the viewer and HTML report tests: two comparable runs and one hostile run.

``XSS`` is the corpus every page is checked against: script tags, attribute breakouts, javascript:
URLs, SVG onload, unicode tricks (bidi overrides, fullwidth brackets, NUL, a lone surrogate), text that
is already escaped, and very long strings. ``check_markup`` parses a page and fails on any tag,
attribute or URL our own templates never write.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from agentunit.core.engine import summarize
from agentunit.metrics.base import MetricResult
from agentunit.store.sqlite import Store

XSS = [
    "<script>alert(1)</script>",
    "\"><img src=x onerror=alert(2)>",
    "'><svg onload=alert(3)>",
    "javascript:alert(4)",
    "<a href=\"javascript:alert(5)\">click</a>",
    "<svg><script>alert(6)</script></svg>",
    "</pre></td></table></title></style><script>alert(7)</script>",
    "\u202e<script>alert(8)</script>\u202c gnp.exe",
    "＜script＞alert(9)＜/script＞",
    "<scr\x00ipt>alert(10)</scr\x00ipt>",
    "&lt;script&gt;alert(11)&lt;/script&gt;",
    "<iframe srcdoc='<script>alert(12)</script>'></iframe>",
    "<style>body{display:none}</style><link rel=stylesheet href=//evil.example/x.css>",
    "<math><mi xlink:href=\"javascript:alert(13)\">x</mi></math>{{7*7}}",
    "\ud800<b>lone surrogate</b>",
    "<img src=x onerror=alert(14)>" * 3000,
]
# Payloads that must never appear verbatim in a page (each holds markup).
RAW = [p for p in XSS if "<" in p or "\"" in p or "'" in p]
HOSTILE_RUN = "run-<script>alert(99)</script>'\"/x"
HOSTILE_SUITE = "<img src=x onerror=alert(98)>"
FORGED_THUMBNAILS = ["javascript:alert(15)", "data:image/jpeg;base64,AAAA' onerror='alert(16)",
                     "data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMTcpPjwvc3ZnPg=="]


def _metric(name: str, passed: bool | None, *, reason: str = "", detail: Any = None, error: str | None = None,
            label: str | None = None) -> MetricResult:
    value = None if passed is None and error is None else (1.0 if passed else 0.0)
    return MetricResult(name=name, value=value, detail=detail or {}, passed=passed, threshold=0.5, reason=reason,
                        error=error, label=label)


def _start(store: Store, run_id: str, suite: str, started_at: str) -> None:
    store.start_run(run_id, suite=suite, suite_path=None, suite_hash=None, started_at=started_at,
                    options={"repeat": 1}, target={"type": "python"})


def _finish(store: Store, run_id: str) -> None:
    store.flush()
    store.mark_run(run_id, "completed", finished_at="2025-01-01T00:00:00+00:00", summary=summarize(store, run_id))


def build_runs(path: Path) -> dict[str, Any]:
    """Runs A and B of suite ``demo`` (40 cases; B fixes 3, breaks 2, adds 1, removes 1) and the hostile run.

    Returns the run ids and the expected flips.
    """
    store = Store(path)
    fixed, broken = ["c03", "c07", "c11"], ["c05", "c09"]
    failing_a = {"c03", "c07", "c11", "c20", "c21"}
    for run_id, started, names in (("run-a", "2025-01-01T10:00:00+00:00", [f"c{i:02d}" for i in range(40)]),
                                   ("run-b", "2025-01-02T10:00:00+00:00", [f"c{i:02d}" for i in range(1, 41)])):
        _start(store, run_id, "demo", started)
        for seq, case_id in enumerate(names):
            fails = case_id in failing_a if run_id == "run-a" else (case_id in ({"c20", "c21"} | set(broken)))
            metrics = [_metric("equals", not fails, reason="differs" if fails else "equal"),
                       _metric("latency", None, reason="informational")]
            envelope = {"context": [f"doc for {case_id}"], "plan": ["look up", "answer"],
                        "tool_calls": [{"name": "lookup", "arguments": {"q": case_id}, "output": "blue"}]}
            store.add_case(run_id, seq, case_id, 0, status="failed" if fails else "passed", passed=not fails,
                           score=0.0 if fails else 1.0, prompt=f"prompt of {case_id}",
                           output=("needle " if case_id == "c30" else "") + f"output of {case_id}", error=None,
                           latency_ms=12.5, cached=False, envelope=envelope, metrics=metrics)
        _finish(store, run_id)
    hostile_ids = build_hostile(store)
    store.close()
    return {"a": "run-a", "b": "run-b", "fixed": fixed, "broken": broken, "added": ["c40"], "removed": ["c00"],
            "hostile": HOSTILE_RUN, "hostile_ids": hostile_ids}


def build_hostile(store: Store) -> list[str]:
    """A run whose suite, id, case ids, prompts, outputs, errors, metric names, labels, reasons, details and
    envelope are all payloads; returns the case ids as stored."""
    _start(store, HOSTILE_RUN, HOSTILE_SUITE, "2025-01-03T10:00:00+00:00")
    ids = []
    for seq, payload in enumerate(XSS):
        case_id = f"{seq}{payload[:200]}"
        ids.append(case_id)
        metrics = [_metric(payload[:300], seq % 2 == 0, reason=payload, detail={"why": payload, payload[:50]: [1]},
                           label=payload[:80]),
                   _metric("m" + payload[:40], None, error=payload)]
        envelope = {"context": [payload, {"image": payload}], "plan": [payload],
                    "events": [{"type": "message", "role": payload, "content": payload},
                               {"type": "tool_call", "name": payload, "arguments": {payload[:30]: payload},
                                "output": payload}],
                    "conversation": [{"role": payload, "content": payload}],
                    "media": [{"field": payload, "source": payload, "sha256": payload, "mime": payload,
                               "size": 12, "thumbnail": FORGED_THUMBNAILS[seq % len(FORGED_THUMBNAILS)]}],
                    payload[:20]: payload}
        store.add_case(HOSTILE_RUN, seq, case_id, 0, status="failed" if seq % 2 else "passed", passed=seq % 2 == 0,
                       score=0.5, prompt=payload, output=payload, error=payload if seq % 3 == 0 else None,
                       latency_ms=1.0, cached=False, envelope=envelope, metrics=metrics)
    _finish(store, HOSTILE_RUN)
    rows = store.conn.execute("SELECT case_id FROM case_results WHERE run_id = ? ORDER BY seq", (HOSTILE_RUN,))
    return [stored for (stored,) in rows]


def report_result(path: Path, run_id: str) -> SimpleNamespace:
    """What ``write_html`` needs of a run, read back from the database at ``path``."""
    store = Store(path)
    run = store.get_run(run_id)
    return SimpleNamespace(run_id=run_id, suite=run["suite"], started_at=run["started_at"], summary=run["summary"],
                           iter_cases=lambda: store.iter_cases(run_id), store=store)


_TAGS = {"html", "head", "meta", "title", "link", "style", "body", "header", "main", "a", "h1", "h2", "p", "div",
         "span", "b", "code", "pre", "table", "tr", "th", "td", "form", "label", "select", "option", "input",
         "button", "ol", "ul", "li", "details", "summary", "img", "svg", "g", "rect", "line", "text", "circle",
         "polyline", "script"}
_ATTRIBUTES = {"charset", "name", "content", "http-equiv", "rel", "href", "class", "id", "method", "action", "value",
               "selected", "size", "type", "src", "alt", "role", "width", "height", "viewbox", "aria-label", "x", "y",
               "x1", "y1", "x2", "y2", "fill", "fill-opacity", "stroke", "stroke-width", "font-size", "text-anchor",
               "cx", "cy", "r", "points", "data-status", "data-failing", "lang"}


class _Checker(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _TAGS:
            self.problems.append(f"tag <{tag}>")
        self._in_script = tag == "script"
        for name, value in attrs:
            if name not in _ATTRIBUTES:
                self.problems.append(f"attribute {name}= on <{tag}>")
            if name == "href" and not (value or "").startswith(("/", "?")):
                self.problems.append(f"href {value[:60]!r}")
            if name == "src" and not (value or "").startswith("data:image/jpeg;base64,/9j/"):
                self.problems.append(f"src {value[:60]!r}")

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts.append(data)

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False


def check_markup(page: str, *, scripts_allowed: int = 0) -> list[str]:
    """Problems with ``page``: a payload verbatim, a tag, attribute or URL our templates never write, or more
    scripts than ``scripts_allowed``."""
    problems = [f"payload verbatim: {p[:60]!r}" for p in RAW if p in page]
    checker = _Checker()
    checker.feed(page)
    checker.close()
    problems += checker.problems
    if page.count("<script") != scripts_allowed:
        problems.append(f"{page.count('<script')} script tags")
    return problems

