"""``agentunit metrics``: every metric on two lines (its facts, then the first sentence of its description,
wrapped to the terminal), or one metric in full (``agentunit metrics NAME``): name, aliases, family,
inputs, value, default threshold, direction, kind, model, agreement with people for a judge metric, the
whole description (the algorithm) and an example entry."""

from __future__ import annotations

import json
import re
import shutil
import sys
import textwrap
from typing import Any

from agentunit.cli.usage import fail_usage
from agentunit.errors import AgentUnitError

_VALUE = {"required": "required (else the case's expected_output)", "optional": "optional",
          "none": "none (the metric takes no value)"}
_ITEM = re.compile(r"(?:[-*•]|\d{1,2}[.)])\s")  # a list item of a description
_KIND = {"binary": "binary (1 or 0)", "score": "score (0..1)",
         "raw": "raw (a measure in units; no verdict without a threshold)"}


def width() -> int:
    """The terminal's width (80 when it is not a terminal; COLUMNS is honoured), at least 40."""
    return max(40, shutil.get_terminal_size((80, 24)).columns)


def _wrap(text: str, indent: str, columns: int) -> str:
    hanging = indent + " " * (text.index(" ") + 1 if _ITEM.match(text) else 0)  # a list item's lines align
    return textwrap.fill(text, columns, initial_indent=indent, subsequent_indent=hanging,
                         break_long_words=False, break_on_hyphens=False)


def _agreement(info: Any) -> str:
    from agentunit.judges.measured import HELD_OUT

    measured = HELD_OUT.get(info.name)
    if measured is not None:
        return (f"{measured.balanced_accuracy:.3f} balanced accuracy on {measured.n} held-out {measured.unit} "
                f"({'meets' if measured.meets_bar else 'below'} its {measured.bar:.2f} bar)")
    return "not published yet: `agentunit calibrate` measures it on your own cases" if info.model == "judge" else ""


def list_text(infos: list[Any], columns: int) -> str:
    """Two lines a metric: name, family, value, threshold, direction, needs, model, agreement; then the
    first sentence of its description, markup taken out, wrapped to ``columns``."""
    from agentunit.judges.measured import HELD_OUT
    from agentunit.metrics.docs import first_sentence

    name_width = max(len(i.name) for i in infos)
    lines = []
    for i in infos:
        threshold = "—" if i.threshold is None else f"{i.threshold:g}"
        measured = HELD_OUT.get(i.name)
        agreement = (f"  agreement={measured.balanced_accuracy:.3f} (held-out, bar {measured.bar:.2f})" if measured
                     else "  agreement=not published" if i.model == "judge" else "")
        lines.append(f"{i.name.ljust(name_width)}  {i.family:<11} value={i.value:<8} threshold={threshold:<5} "
                     f"{i.direction:<6} needs={','.join(i.needs) or '—'}"
                     f"{'  model=' + i.model if i.model else ''}{agreement}")
        lines.append(_wrap(first_sentence(i.doc) or i.summary, "    ", columns))
    return "\n".join(lines) + "\n"


def metric_text(info: Any, negated: bool, asked: str, columns: int) -> str:
    """One metric in full, as ``agentunit metrics NAME`` prints it."""
    from agentunit.metrics.docs import first_sentence, paragraphs

    threshold = ("—  (no default: " + ("no verdict without one)" if info.kind == "raw" else "the metric decides)")
                 if info.threshold is None else f"{info.threshold:g}")
    facts = [("aliases", ", ".join(info.aliases) or "—"), ("family", info.family),
             ("inputs", ", ".join(info.needs) or "— (none required)"), ("value", _VALUE.get(info.value, info.value)),
             ("threshold", threshold), ("direction", f"{info.direction} is better"),
             ("kind", _KIND.get(info.kind, info.kind)), ("model", info.model or "—")]
    agreement = _agreement(info)
    if agreement:
        facts.append(("agreement", agreement))
    head = info.name if not negated else f"{asked}: {info.name}, inverted"
    out = [head, _wrap(first_sentence(info.doc) or info.summary, "  ", columns), ""]
    out += [_wrap(f"{label:<10} {text}", "  ", columns) for label, text in facts]
    if negated:
        out += ["", _wrap(f"{asked} inverts {info.name}: the verdict flips and a 0..1 score becomes 1 − score.",
                          "  ", columns)]
    parts = paragraphs(info.doc)
    if parts and parts != [first_sentence(info.doc)]:  # a one-sentence description is said once, above
        out += ["", "How it works"]
        for index, paragraph in enumerate(parts):
            if index and not _ITEM.match(paragraph):
                out.append("")
            out.append(_wrap(paragraph, "  ", columns))
    example = info.example or f"{{metric: {info.name}}}"
    out += ["", "Example", f"  metrics: [{example}]", "",
            _wrap(f"Every metric also takes the not- prefix (not-{info.name}); docs/metrics.md lists them all.",
                  "", columns)]
    return "\n".join(out) + "\n"


def metric_dict(info: Any) -> dict[str, Any]:
    """The ``--json`` row of a metric (the list's fields; ``doc`` and ``example`` too for one metric)."""
    from agentunit.judges.measured import HELD_OUT

    return {"name": info.name, "family": info.family, "aliases": list(info.aliases), "needs": list(info.needs),
            "value": info.value, "threshold": info.threshold, "direction": info.direction, "kind": info.kind,
            "model": info.model, "summary": info.summary,
            **({"agreement": HELD_OUT[info.name].to_dict() if info.name in HELD_OUT else None}
               if info.model == "judge" else {})}


def show(name: str | None, family: str | None, as_json: bool, as_markdown: bool) -> None:
    """``agentunit metrics [NAME] [--family F] [--json | --markdown]``; exit 2 on an unknown name or family."""
    from agentunit.metrics.registry import all_metrics, families, lookup

    if name is not None:
        if family is not None:
            raise fail_usage("give a metric NAME or --family, not both")
        try:
            info, negated = lookup(name)
        except AgentUnitError as exc:  # an unknown name: the message suggests the nearest ones
            raise fail_usage(f"{exc} (`agentunit metrics` lists them all)") from None
        if as_markdown:
            from agentunit.metrics.docs import entry_markdown

            sys.stdout.write(entry_markdown(info) + "\n")
        elif as_json:
            sys.stdout.write(json.dumps({**metric_dict(info), "doc": info.doc, "example": info.example},
                                        indent=2, ensure_ascii=False) + "\n")
        else:
            sys.stdout.write(metric_text(info, negated, name, width()))
        return
    if as_markdown:
        from agentunit.metrics.docs import render_reference

        sys.stdout.write(render_reference())
        return
    infos = all_metrics(family)
    if family and not infos:
        raise fail_usage(f"no family {family!r}; families: {', '.join(families())}")
    if as_json:
        sys.stdout.write(json.dumps([metric_dict(i) for i in infos], indent=2) + "\n")
        return
    sys.stdout.write(list_text(infos, width()))
