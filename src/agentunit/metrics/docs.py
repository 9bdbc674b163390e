"""Generate the metric reference (docs/metrics.md) from the registry, so docs cannot drift; and the
plain-text descriptions ``agentunit metrics`` prints: a docstring's first sentence (``first_sentence``)
and its paragraphs (``paragraphs``), with the reStructuredText markup (````value````, ``:func:`x```)
taken out (``plain``)."""

from __future__ import annotations

import re

from agentunit.judges.measured import HELD_OUT
from agentunit.metrics.registry import MetricInfo, all_metrics, families

HEADER = """# Metric reference

Generated from the metric registry by `agentunit metrics --markdown > docs/metrics.md`; a test fails
when this file is stale. Every name also takes the `not-` prefix (the verdict is inverted and a 0..1
score becomes 1 − score). snake_case and kebab-case spellings of a name are the same metric.

Columns: **value** — `required` (a metric `value`, else the case's `expected_output`), `optional` or
`none`; **threshold** — the default pass mark; **direction** — whether higher or lower is better;
**kind** — `binary` (1/0), `score` (0..1) or `raw` (a measure in units; no verdict without a threshold).
A metric whose **needs** are absent returns *not measured* (value null, with a reason).
"""


def entry_markdown(info: MetricInfo) -> str:
    """One metric's section of the reference."""
    threshold = "—" if info.threshold is None else f"{info.threshold:g}"
    lines = [f"### `{info.name}`", ""]
    if info.aliases:
        lines += ["Aliases: " + ", ".join(f"`{a}`" for a in info.aliases), ""]
    lines += [
        f"value: {info.value} · threshold: {threshold} · direction: {info.direction} · kind: {info.kind}"
        f" · needs: {', '.join(info.needs) or '—'}" + (f" · model: {info.model}" if info.model else ""),
        "",
        info.doc,
        "",
    ]
    if info.model == "judge":
        measured = HELD_OUT.get(info.name)
        lines += [measured.sentence() if measured else
                  "Agreement with people: no held-out balanced accuracy is published yet; `agentunit calibrate`"
                  " measures it on your own cases ([calibration](calibration.md)).", ""]
    if info.example:
        lines += ["```yaml", f"metrics: [{info.example}]", "```", ""]
    return "\n".join(lines)


def render_reference() -> str:
    """The whole reference as Markdown, grouped by family, builtin metrics only."""
    parts = [HEADER]
    for family in families():
        infos = [i for i in all_metrics(family) if i.cls.__module__.startswith("agentunit.")]
        if infos:
            parts.append(f"## {family}\n")
            parts.extend(entry_markdown(i) for i in infos)
    return "\n".join(parts).rstrip() + "\n"


_LITERAL = re.compile(r"(?<!`)``(?!`)(.+?)(?<!`)``(?!`)")  # ``value`` (a ```sql fence is left alone)
_ROLE = re.compile(r":[a-z]+:`([^`]+)`")  # :func:`name`
_ITEM = re.compile(r"(?:[-*•]|\d{1,2}[.)])\s")  # a line that starts a list item
# Words ending in "." that do not end a sentence.
_ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.", "cf.", "approx.", "no.", "fig.", "al.")


def plain(text: str) -> str:
    """``text`` without reStructuredText inline markup: ````x```` → ``x``, ``:role:`x``` → ``x``."""
    return _ROLE.sub(r"\1", _LITERAL.sub(r"\1", text))


def paragraphs(doc: str) -> list[str]:
    """A docstring's paragraphs and list items as plain one-line texts (a list item keeps its marker)."""
    out: list[str] = []
    current: list[str] = []
    for line in [*doc.splitlines(), ""]:
        text = line.strip()
        if not text or _ITEM.match(text):
            if current:
                out.append(plain(" ".join(current)))
            current = [text] if text else []
        else:
            current.append(text)
    return out


def first_sentence(doc: str) -> str:
    """The first full sentence of a docstring's first paragraph, markup taken out: up to the first ``.``,
    ``?`` or ``!`` outside parentheses and quotes that is followed by a capital letter or a digit starting
    the next sentence (a parenthesis after it belongs to it); the whole paragraph when it is one sentence."""
    parts = paragraphs(doc)
    text = parts[0] if parts else ""
    depth, quoted = 0, False
    for index, char in enumerate(text):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(0, depth - 1)
        elif char in "\"“”":
            quoted = not quoted if char == '"' else char == "“"
        elif char in ".?!" and not depth and not quoted:
            rest = text[index + 1:]
            start = rest.lstrip()[:1]
            if rest[:1] == " " and (start.isupper() or start.isdigit()) and not _abbreviation(text[: index + 1]):
                return text[: index + 1]
    return text


def _abbreviation(text: str) -> bool:
    word = text.rsplit(" ", 1)[-1].lower()
    return word in _ABBREVIATIONS or (len(word) == 2 and word[0].isalpha())  # "e.g.", "i.e.", an initial
