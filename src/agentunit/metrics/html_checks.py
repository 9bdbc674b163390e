"""HTML metrics: is-html (a document or fragment that parses with balanced elements) and contains-html."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from agentunit.metrics.base import Metric, MetricResult
from agentunit.metrics.registry import register

HTML_ELEMENTS = frozenset("""
a abbr address area article aside audio b base bdi bdo blockquote body br button canvas caption cite code col
colgroup data datalist dd del details dfn dialog div dl dt em embed fieldset figcaption figure footer form h1 h2
h3 h4 h5 h6 head header hgroup hr html i iframe img input ins kbd label legend li link main map mark menu meta
meter nav noscript object ol optgroup option output p param picture pre progress q rp rt ruby s samp script
search section select slot small source span strong style sub summary sup svg table tbody td template textarea
tfoot th thead time title tr track u ul var video wbr math
""".split())
VOID_ELEMENTS = frozenset("area base br col embed hr img input link meta param source track wbr".split())
OPTIONAL_END = frozenset("p li dt dd tr td th thead tbody tfoot option optgroup colgroup caption rt rp html head "
                         "body".split())

# promptfoo's contains-html indicators (weights in _html_indicators).
_OPENING = re.compile(r"<[a-zA-Z][a-zA-Z0-9-]*(?:\s+[^>]*)?>")
_CLOSING = re.compile(r"</[a-zA-Z][a-zA-Z0-9-]*\s*>")
_SELF_CLOSING = re.compile(r"<[a-zA-Z][a-zA-Z0-9-]*(?:\s+[^>]*)?/>")
_ENTITY = re.compile(r"&(?:[a-zA-Z]+|#[0-9]+|#x[0-9a-fA-F]+);")
_DOCTYPE = re.compile(r"<!DOCTYPE\s+html", re.IGNORECASE)
_COMMENT = re.compile(r"<!--[\s\S]*?-->")
_ATTRIBUTE = re.compile(r"\s+[a-zA-Z-]+\s*=\s*[\"'][^\"']*[\"']")
_COMMON_TAG = re.compile(r"<(html|head|body|div|span|p|a|img|h[1-6]|ul|ol|li|table|tr|td|th|form|input|button|"
                         r"script|style|link|meta|br|hr)\b", re.IGNORECASE)


class _Structure(HTMLParser):
    """Tracks open elements; records the first nesting problem."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.known = 0
        self.problem: str | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.known += tag in HTML_ELEMENTS
        if tag not in VOID_ELEMENTS:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        self.known += tag in HTML_ELEMENTS

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID_ELEMENTS:
            return
        if tag not in self.stack:
            self.problem = self.problem or f"</{tag}> closes nothing"
            return
        while self.stack:
            top = self.stack.pop()
            if top == tag:
                return
            if top not in OPTIONAL_END:
                self.problem = self.problem or f"<{top}> is not closed before </{tag}>"


def _html_indicators(text: str) -> int:
    opening, closing = bool(_OPENING.search(text)), bool(_CLOSING.search(text))
    score = 2 if opening and closing else int(opening or closing)
    score += bool(_SELF_CLOSING.search(text)) + bool(_ENTITY.search(text)) + 2 * bool(_DOCTYPE.search(text))
    score += bool(_COMMENT.search(text)) + bool(_ATTRIBUTE.search(text)) + 2 * bool(_COMMON_TAG.search(text))
    return score


@register("is-html", family="format", kind="binary", example="{metric: is-html}")
class IsHtml(Metric):
    """Pass when the output (trimmed) is an HTML document or fragment: it starts with ``<`` and ends
    with ``>``, holds at least one standard HTML element, and its elements nest and close properly
    (void elements need no end tag; elements whose end tag is optional, like ``<p>`` or ``<li>``, may
    stay open)."""

    def evaluate(self, case, trace, outcome) -> MetricResult:
        text = outcome.output.strip()
        if not (text.startswith("<") and text.endswith(">")):
            return self.result(0.0, passed=False, reason="output does not start with '<' and end with '>'")
        parser = _Structure()
        parser.feed(text)
        parser.close()
        if parser.known == 0:
            return self.result(0.0, passed=False, reason="no standard HTML element")
        unclosed = [t for t in parser.stack if t not in OPTIONAL_END]
        problem = parser.problem or (f"<{unclosed[-1]}> is never closed" if unclosed else None)
        if problem:
            return self.result(0.0, passed=False, reason=f"malformed HTML: {problem}")
        return self.result(1.0, passed=True, reason=f"HTML with {parser.known} elements")


@register("contains-html", family="format", kind="binary", example="{metric: contains-html}")
class ContainsHtml(Metric):
    """Pass when the output contains HTML, by promptfoo's rule: at least 2 points from paired tags (2,
    or 1 for an opening or closing tag alone), a self-closing tag (1), an entity (1), a DOCTYPE (2), a
    comment (1), an attribute (1) and a common HTML tag (2) — so ``a < b`` or ``<example>`` alone is not
    HTML. The detail gives the points."""

    def evaluate(self, case, trace, outcome) -> MetricResult:
        points = _html_indicators(outcome.output)
        ok = points >= 2
        return self.result(float(ok), passed=ok, detail={"indicators": points},
                           reason=f"{points} HTML indicator points ({'≥' if ok else '<'} 2)")
