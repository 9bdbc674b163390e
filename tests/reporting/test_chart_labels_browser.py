"""The pass-rate chart's labels fit inside the chart in a real browser (issue 58: "n=1" was cut to "n=" at the
right edge): every SVG text's bounding box lies inside the viewBox, in the wide sans-serif pages use."""

from __future__ import annotations

from agentunit.reporting.charts import rate_chart, trend_chart
from tests.viewer.browser import require_browser

require_browser()

ROWS = [("contains", 1, 1), ("equals", 20, 20), ("m" * 60, 1000, 1000), ("W" * 40, 7, 9),
        ("answer-relevancy-with-a-long-name", 0, 0), ("語彙" * 12, 3, 4), ("latency", 99_999, 100_000)]


def _outside(page):
    return page.evaluate("""() => Array.from(document.querySelectorAll('svg')).flatMap(svg => {
        const box = svg.viewBox.baseVal;
        return Array.from(svg.querySelectorAll('text')).map(t => [t.textContent, t.getBBox()])
          .filter(([_, b]) => b.x < 0 || b.y < 0 || b.x + b.width > box.width || b.y + b.height > box.height)
          .map(([text, b]) => [text, Math.round(b.x), Math.round(b.x + b.width), box.width]);
    })""")


def test_every_label_lies_inside_the_chart(tab, tmp_path):
    charts = rate_chart(ROWS) + trend_chart("W" * 60, [("r1", 1, 1), ("r2", 3, 4)])
    for font in ("system-ui,sans-serif", "serif", "monospace"):
        page = f"<!doctype html><html><body style='margin:0;font:14px/1.45 {font}'>{charts}</body></html>"
        tab.page.set_content(page)
        assert _outside(tab.page) == [], font
    texts = tab.page.evaluate("() => Array.from(document.querySelectorAll('svg.rates text')).map(t => t.textContent)")
    assert "100.0% [20.7%–100.0%] n=1" in texts and "100.0% [99.6%–100.0%] n=1000" in texts
    assert any(t.startswith("mmm") and t.endswith("…") for t in texts)  # a long name is cut with "…", not clipped
    tab.page.screenshot(path=str(tmp_path / "chart.png"))
