"""Generate the metric reference (docs/metrics.md) from the registry, so docs cannot drift."""

from __future__ import annotations

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


def _entry(info: MetricInfo) -> str:
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
            parts.extend(_entry(i) for i in infos)
    return "\n".join(parts).rstrip() + "\n"
