"""XML format metrics: is-xml and contains-xml, with required element paths.

Parsing goes through defusedxml: entity declarations (billion laughs, quadratic blow-up) and
external entities or DTDs are refused, so untrusted output can neither expand nor load anything.
"""

from __future__ import annotations

import bisect
import re
from typing import Any

from agentunit.errors import MetricConfigError
from agentunit.metrics._values import as_list
from agentunit.metrics.base import Metric, MetricResult
from agentunit.metrics.registry import register

_STEP = re.compile(r"^([^\[\].]+)(?:\[(\d+)\])?$")
_FENCE = re.compile(r"```(?:xml|html|svg)?[ \t]*\n(.*?)```", re.DOTALL | re.IGNORECASE)
_START_TAG = re.compile(r"<([A-Za-z_][\w.:-]*)(?=[\s/>])")
_END_TAG = re.compile(r"</([A-Za-z_][\w.:-]*)\s*>")
MAX_CANDIDATES = 200
MAX_ENDS_PER_START = 20


def parse_xml(text: str) -> tuple[Any | None, str | None]:
    """Parse safely; returns (root element, None) or (None, why it is not acceptable XML)."""
    from xml.etree.ElementTree import ParseError

    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import fromstring

    try:
        return fromstring(text, forbid_dtd=False, forbid_entities=True, forbid_external=True), None
    except DefusedXmlException as exc:
        return None, f"refused: {type(exc).__name__} ({exc}) — entity and external declarations are not expanded"
    except ParseError as exc:
        return None, f"not well-formed: {exc}"


def _required_paths(value: Any) -> list[list[tuple[str, int | None]]]:
    """The required element paths, read as promptfoo's handleIsXml (src/assertions/xml.ts) reads the
    value: none for no value, an empty list or an empty mapping; a string split on commas; a list; or
    ``{requiredElements: [...]}``, whose ``requiredElements`` must be a list (promptfoo throws for a
    string or a mapping there, and so does this: a config error)."""
    if value is None:
        return []
    if isinstance(value, dict):
        if not value:
            return []
        unknown = set(value) - {"requiredElements"}
        if unknown:
            raise MetricConfigError(f"unknown XML option(s) {sorted(unknown)}; use requiredElements")
        value = value["requiredElements"]
        if not isinstance(value, list):
            raise MetricConfigError(
                f"requiredElements must be a list of element paths, got {type(value).__name__} {value!r} "
                "(promptfoo refuses it too); write requiredElements: [root.a, root.b], or the value root.a,root.b")
    if isinstance(value, str):
        value = [part.strip() for part in value.split(",")]  # promptfoo: split(','), trimmed; no quoting
    elif isinstance(value, list) and not value:
        return []
    paths = []
    for path in as_list(value, "requiredElements"):
        steps: list[tuple[str, int | None]] = []
        for part in path.strip().split("."):
            part = part.strip()
            if part.isdigit() and steps and steps[-1][1] is None:  # promptfoo's index step: root.item.1
                steps[-1] = (steps[-1][0], int(part))
                continue
            match = _STEP.match(part)
            if not match:
                raise MetricConfigError(f"bad element path {path!r}: use dot paths like root.items.item[0]")
            steps.append((match.group(1), int(match.group(2)) if match.group(2) else None))
        paths.append(steps)
    return paths


def _has_path(element: Any, steps: list[tuple[str, int | None]]) -> bool:
    """Does ``element`` (the root) match the first step and continue down the rest (0-based indices)?"""
    name, index = steps[0]
    if _local(element.tag) != name or (index not in (None, 0)):
        return False
    return _descend(element, steps[1:])


def _descend(element: Any, steps: list[tuple[str, int | None]]) -> bool:
    if not steps:
        return True
    name, index = steps[0]
    children = [c for c in element if _local(c.tag) == name]
    if index is not None:
        return index < len(children) and _descend(children[index], steps[1:])
    return any(_descend(child, steps[1:]) for child in children)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else str(tag)


def _dotted(steps: list[tuple[str, int | None]]) -> str:
    return ".".join(f"{n}[{i}]" if i is not None else n for n, i in steps)


class _XmlMetric(Metric):
    def setup(self) -> None:
        self._paths = _required_paths(self.value)

    def _verdict(self, root: Any, where: str) -> MetricResult:
        missing = [_dotted(p) for p in self._paths if not _has_path(root, p)]
        if missing:
            return self.result(0.0, passed=False, reason=f"{where} lacks {', '.join(missing)}",
                               detail={"missing": missing, "root": _local(root.tag)})
        suffix = f" with {len(self._paths)} required elements" if self._paths else ""
        return self.result(1.0, passed=True, reason=f"{where} is well-formed{suffix}",
                           detail={"root": _local(root.tag)})


@register("is-xml", family="format", value="optional", kind="binary",
          example="{metric: is-xml, value: {requiredElements: [order.items.item, order.total]}}")
class IsXml(_XmlMetric):
    """Pass when the whole output (surrounding whitespace trimmed) is well-formed XML and every
    ``requiredElements`` dot path exists (``root.child.item[1]``: the root tag first, then child tags;
    ``[i]``, or promptfoo's ``.i`` step, picks the i-th same-named child, 0-based). The value is
    ``a.b,a.c``, a list, or ``{requiredElements: [a.b, a.c]}`` (a string or a mapping under
    ``requiredElements`` is a config error, as promptfoo refuses it); an empty list or mapping requires
    nothing. Entity declarations and external references are refused (billion-laughs protection)."""

    def evaluate(self, case, trace, outcome) -> MetricResult:
        root, problem = parse_xml(outcome.output.strip())
        if root is None:
            return self.result(0.0, passed=False, reason=f"output is {problem}" if problem.startswith("not")
                               else f"output {problem}")
        return self._verdict(root, "output")


@register("contains-xml", family="format", value="optional", kind="binary",
          example="{metric: contains-xml, value: {requiredElements: [answer.city]}}")
class ContainsXml(_XmlMetric):
    """Pass when the output contains a well-formed XML element (in a fenced block or inline, from a
    start tag to a matching end tag) that has every ``requiredElements`` path (see is-xml); as in
    promptfoo, the elements nested in a well-formed one are not tried on their own (paths start at the
    outermost element). At most
    200 start tags and the 20 nearest end tags per start are tried, and the parsed text is capped at
twice the output's length, so large outputs stay bounded."""

    def evaluate(self, case, trace, outcome) -> MetricResult:
        last_problem = None
        found_any = False
        budget = 2 * len(outcome.output) + 1024
        well_formed: list[tuple[int, int]] = []
        for start, end, candidate in _candidates(outcome.output):
            if any(outer_start <= start and end <= outer_end for outer_start, outer_end in well_formed):
                continue  # as promptfoo: paths are read from the outermost well-formed element only
            budget -= len(candidate)
            if budget < 0:
                break
            root, problem = parse_xml(candidate)
            if root is None:
                last_problem = problem
                continue
            found_any = True
            well_formed.append((start, end))
            verdict = self._verdict(root, f"<{_local(root.tag)}>")
            if verdict.passed:
                return verdict
            last_verdict = verdict
        if found_any:
            return last_verdict
        reason = "no well-formed XML element in output"
        return self.result(0.0, passed=False, reason=reason + (f" (last try: {last_problem})" if last_problem else ""))


def _candidates(text: str):
    """(start, end, text) of each span that may be one XML element: fenced blocks, then each start tag to
    its nearest matching end tags (an enclosing element comes before the elements inside it)."""
    for match in _FENCE.finditer(text):
        yield match.start(1), match.end(1), match.group(1).strip()
    ends: dict[str, list[int]] = {}
    for match in _END_TAG.finditer(text):  # one pass: every end tag's position, by name
        ends.setdefault(match.group(1), []).append(match.end())
    for count, start in enumerate(_START_TAG.finditer(text)):
        if count >= MAX_CANDIDATES:
            return
        name = start.group(1)
        head_end = text.find(">", start.end())
        if head_end > 0 and text[head_end - 1] == "/":
            yield start.start(), head_end + 1, text[start.start():head_end + 1]
        positions = ends.get(name, [])
        first = bisect.bisect_left(positions, start.end())
        for end in positions[first:first + MAX_ENDS_PER_START]:  # nearest end first: small spans
            yield start.start(), end, text[start.start():end]
