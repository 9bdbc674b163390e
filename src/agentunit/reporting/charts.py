"""Inline SVG charts shared by the HTML report and the viewer: pass rates with their intervals, trends.

Every text (metric names, run ids) is escaped; the SVG uses presentation attributes only (no
``style=``), so a page whose Content-Security-Policy allows no inline style still draws it. Texts are
measured before they are placed (``text_width``: widths of a wide sans-serif such as DejaVu Sans, erring
wide), so a label is cut with "…" rather than by the chart's edge, and the chart is as wide as its labels.
Intervals are Wilson score intervals from ``agentunit.stats`` when that module is installed, else
from the same formula here.
"""

from __future__ import annotations

import html
import json
import math
import unicodedata
from collections.abc import Sequence
from statistics import NormalDist
from typing import Any

from agentunit.store.text import encodable

_WIDTH = 760
_LABEL_WIDTH = 220
_BAR_WIDTH = 360
_ROW = 24
_LABEL_CHARS = 34
_FONT = 12  # the rate chart's labels
_MARGIN = 6  # kept free at the chart's edges
# Advance widths in em of a wide sans-serif (DejaVu Sans, what system-ui often is on Linux), rounded up.
_NARROW = frozenset(" .,:;'|!()[]{}/\\ilIjft-\"")
_WIDE = frozenset("mwMW%@…—")


def escape(value: Any) -> str:
    """``value`` as HTML text or attribute content: None → "", non-strings as JSON, always escaped."""
    if value is None:
        return ""
    if not isinstance(value, str):
        value = json.dumps(value, ensure_ascii=False, default=str)
    return html.escape(encodable(value), quote=True)


def wilson(passed: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a pass rate (``(0.0, 1.0)`` when ``n`` is 0).

    Uses ``agentunit.stats.wilson_interval`` when it exists, so every page shows the same numbers.
    """
    try:
        from agentunit.stats import wilson_interval
    except ImportError:
        return _wilson(passed, n, confidence)
    lo, hi = wilson_interval(passed, n, confidence=confidence)
    return float(lo), float(hi)


def _wilson(passed: int, n: int, confidence: float) -> tuple[float, float]:
    if n <= 0:
        return 0.0, 1.0
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = passed / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def pass_counts(counts: dict[str, int]) -> tuple[int, int]:
    """(passed, judged) from a metric's counts by status: judged = passed + failed."""
    passed = int(counts.get("passed", 0) or 0)
    return passed, passed + int(counts.get("failed", 0) or 0)


def percent(value: float | None) -> str:
    """``0.875`` → ``87.5%``; None → ``—``."""
    return "—" if value is None else f"{value:.1%}"


def _char_width(char: str) -> float:
    if char in _NARROW:
        return 0.42
    if char in _WIDE or unicodedata.east_asian_width(char) in "WF":
        return 1.0
    if char.isdigit():
        return 0.64
    if "a" <= char <= "z":
        return 0.64
    if "A" <= char <= "Z":
        return 0.78
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0.0
    return 0.85  # other letters and symbols (=, +, <, –, accented letters, …)


def text_width(text: str, size: float = _FONT) -> float:
    """The width in pixels that ``text`` takes at ``size`` px, estimated on the wide side."""
    return size * math.fsum(_char_width(c) for c in text)


def _short(text: str, limit: int = _LABEL_CHARS, *, width: float | None = None, size: float = _FONT) -> str:
    """``text`` cut to ``limit`` characters and (when given) to ``width`` pixels at ``size`` px, ending in "…"."""
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    if width is None or text_width(text, size) <= width:
        return text
    room, used, end = width - text_width("…", size), 0.0, 0
    while end < len(text) and used + _char_width(text[end]) * size <= room:
        used += _char_width(text[end]) * size
        end += 1
    return text[:end] + "…"


def rate_chart(rows: Sequence[tuple[str, int, int]], *, title: str = "pass rate by metric") -> str:
    """A horizontal bar per metric: its pass rate and Wilson 95 % interval. ``rows``: (metric, passed, judged).

    A metric with no verdicts is drawn as an empty row marked ``no verdicts``.
    """
    if not rows:
        return ""
    height = _ROW * len(rows) + 28
    x0 = _LABEL_WIDTH
    notes = [_rate_note(passed, judged) for _name, passed, judged in rows]
    width = max(_WIDTH, math.ceil(x0 + _BAR_WIDTH + 8 + max(text_width(n) for n in notes) + _MARGIN))
    parts = [f"<svg class='chart rates' role='img' width='{width}' height='{height}' "
             f"viewBox='0 0 {width} {height}' aria-label='{escape(title)}'><title>{escape(title)}</title>"]
    for tick in (0, 0.25, 0.5, 0.75, 1):
        x = x0 + tick * _BAR_WIDTH
        parts.append(f"<line x1='{x:.1f}' y1='4' x2='{x:.1f}' y2='{height - 20}' stroke='#e5e7eb'/>"
                     f"<text x='{x:.1f}' y='{height - 6}' font-size='10' text-anchor='middle' "
                     f"fill='#6b7280'>{tick:.0%}</text>")
    for index, ((name, passed, judged), note) in enumerate(zip(rows, notes, strict=True)):
        y = 4 + index * _ROW
        label = escape(_short(str(name), width=x0 - 8 - _MARGIN))
        parts.append(f"<g class='rate'><title>{escape(name)}</title>"
                     f"<text x='{x0 - 8}' y='{y + 15}' font-size='12' text-anchor='end' fill='#111827'>{label}</text>"
                     f"<rect x='{x0}' y='{y + 4}' width='{_BAR_WIDTH}' height='14' fill='#f3f4f6'/>")
        if judged:
            rate = passed / judged
            lo, hi = wilson(passed, judged)
            colour = "#16a34a" if rate >= 0.9 else "#ca8a04" if rate >= 0.6 else "#dc2626"
            xl, xh = x0 + lo * _BAR_WIDTH, x0 + hi * _BAR_WIDTH
            parts.append(
                f"<rect x='{x0}' y='{y + 4}' width='{rate * _BAR_WIDTH:.1f}' height='14' fill='{colour}' "
                f"fill-opacity='0.75'/>"
                f"<line x1='{xl:.1f}' y1='{y + 11}' x2='{xh:.1f}' y2='{y + 11}' stroke='#111827' stroke-width='1.5'/>"
                f"<line x1='{xl:.1f}' y1='{y + 6}' x2='{xl:.1f}' y2='{y + 16}' stroke='#111827' stroke-width='1.5'/>"
                f"<line x1='{xh:.1f}' y1='{y + 6}' x2='{xh:.1f}' y2='{y + 16}' stroke='#111827' stroke-width='1.5'/>"
                f"<text x='{x0 + _BAR_WIDTH + 8}' y='{y + 15}' font-size='12' fill='#111827'>{note}</text>")
        else:
            parts.append(f"<text x='{x0 + _BAR_WIDTH + 8}' y='{y + 15}' font-size='12' fill='#6b7280'>{note}</text>")
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)


def _rate_note(passed: int, judged: int) -> str:
    """The text right of a bar: the rate, its interval and n (``no verdicts`` without any)."""
    if not judged:
        return "no verdicts"
    lo, hi = wilson(passed, judged)
    return f"{percent(passed / judged)} [{percent(lo)}–{percent(hi)}] n={judged}"


def trend_chart(name: str, points: Sequence[tuple[str, int, int]], *, width: int = 300, height: int = 90) -> str:
    """A small chart of one metric's pass rate over runs, oldest first, each with its Wilson interval.

    ``points``: (run id, passed, judged); a run without verdicts for the metric leaves a gap.
    """
    pad_x, pad_top, pad_bottom = 8, 18, 10
    inner_w, inner_h = width - 2 * pad_x, height - pad_top - pad_bottom
    step = inner_w / max(1, len(points) - 1)
    parts = [f"<svg class='chart trend' role='img' width='{width}' height='{height}' viewBox='0 0 {width} {height}' "
             f"aria-label='{escape(name)}'><title>{escape(name)}</title>"
             f"<text x='{pad_x}' y='12' font-size='11' fill='#111827'>"
             f"{escape(_short(str(name), 44, width=width - 2 * pad_x, size=11))}</text>"
             f"<rect x='{pad_x}' y='{pad_top}' width='{inner_w}' height='{inner_h}' fill='#f9fafb' stroke='#e5e7eb'/>"]

    def y_of(rate: float) -> float:
        return pad_top + (1 - rate) * inner_h

    line: list[str] = []
    segments: list[list[str]] = [line]
    for index, (run_id, passed, judged) in enumerate(points):
        x = pad_x + (index * step if len(points) > 1 else inner_w / 2)
        if not judged:
            line = []
            segments.append(line)
            continue
        rate = passed / judged
        lo, hi = wilson(passed, judged)
        line.append(f"{x:.1f},{y_of(rate):.1f}")
        parts.append(f"<g><title>{escape(run_id)}: {percent(rate)} [{percent(lo)}–{percent(hi)}] n={judged}</title>"
                     f"<line x1='{x:.1f}' y1='{y_of(hi):.1f}' x2='{x:.1f}' y2='{y_of(lo):.1f}' stroke='#9ca3af'/>"
                     f"<circle cx='{x:.1f}' cy='{y_of(rate):.1f}' r='3' fill='#2563eb'/></g>")
    for segment in segments:
        if len(segment) > 1:
            parts.append(f"<polyline points='{' '.join(segment)}' fill='none' stroke='#2563eb' stroke-width='1.5'/>")
    parts.append("</svg>")
    return "".join(parts)
