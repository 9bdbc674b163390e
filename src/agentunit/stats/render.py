"""The human-readable text of ``agentunit compare`` (the JSON is ``compare_runs``'s dict as is).

Case ids and metric names come from the system under test and data files: they are printed through
``visible``, so none can act on the terminal or fake a line.
"""

from __future__ import annotations

from typing import Any

from agentunit.reporting.text import visible

MAX_IDS = 20  # ids listed per change; the JSON lists them all
_TESTS = {"mcnemar_exact": "McNemar", "wilcoxon_signed_rank": "Wilcoxon", "paired_bootstrap": "bootstrap"}


def percent(rate: float | None) -> str:
    """0.8123 → ``81.2%``; None → ``—``."""
    return "—" if rate is None else f"{rate:.1%}"


def interval(ci: list[float] | None, *, as_percent: bool = True) -> str:
    """[lo, hi] → ``[62.7%, 90.5%]`` (or ``[0.612, 0.804]``); None → empty."""
    if ci is None:
        return ""
    lo, hi = ci
    return f"[{lo:.1%}, {hi:.1%}]" if as_percent else f"[{lo:.3g}, {hi:.3g}]"


def p_text(p: float | None) -> str:
    """A p-value in 3 significant digits (``<0.0001`` below that); None → ``—``."""
    if p is None:
        return "—"
    return "<0.0001" if p < 1e-4 else f"{p:.3g}"


def render_comparison(result: dict[str, Any]) -> str:
    """``compare_runs``'s result as text: the two runs, case changes, a per-metric table, the verdict."""
    runs = result.get("runs", {})
    lines = []
    for side in ("a", "b"):
        info = runs.get(side, {})
        lines.append(f"{side.upper()}: {visible(result[side])}  {visible(info.get('suite') or '')}"
                     f"  {visible(info.get('started_at') or '')}")
    cases = result["cases"]
    lines.append("")
    lines.append("cases: " + ", ".join(f"{len(cases[k])} {k.replace('_', ' ')}" for k in
                                       ("fixed", "broken", "still_failing", "added", "removed")))
    for key in ("broken", "fixed", "added", "removed"):
        ids = cases[key]
        if ids:
            more = f" … and {len(ids) - MAX_IDS} more" if len(ids) > MAX_IDS else ""
            lines.append(f"  {key:<8} {', '.join(visible(i) for i in ids[:MAX_IDS])}{more}")
    rows = [("cases (overall)", result["overall"]), *result["metrics"].items()]
    table = [("metric", "A pass rate", "B pass rate", "Δ", "p", "test", "")]
    for name, m in rows:
        table.append(_row(visible(name), m, m["a"], m["b"]))
        score = m.get("score")
        if score is not None and m.get("test") == "mcnemar_exact":
            a, b = m["a"], m["b"]
            table.append(("  score", _mean(a), _mean(b), f"{score['delta']:+.3g}", p_text(score["p_value"]),
                          _TESTS.get(score["test"], score["test"]), "WORSE" if score["regressed"] else ""))
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
    lines.append("")
    for r in table:
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip())
    lines.append("")
    level = result["level"]
    regressed = result["regressed"] + (["cases (overall)"] if result["overall"]["regressed"] else [])
    if regressed:
        lines.append(f"REGRESSED at level {level:g}: {', '.join(visible(n) for n in regressed)}")
    else:
        lines.append(f"no significant regression at level {level:g}")
    return "\n".join(lines) + "\n"


def _row(name: str, m: dict[str, Any], a: dict[str, Any], b: dict[str, Any]) -> tuple[str, ...]:
    if m.get("test") in ("wilcoxon_signed_rank", "paired_bootstrap"):  # no verdicts: the score test
        delta = "" if m["delta"] is None else f"{m['delta']:+.3g}"
        return (name, _mean(a), _mean(b), delta, p_text(m["p_value"]), _TESTS[m["test"]],
                "WORSE" if m["regressed"] else "")
    delta = "" if m["delta"] is None else f"{m['delta'] * 100:+.1f} pp"
    return (name, _rate(a), _rate(b), delta, p_text(m["p_value"]), _TESTS.get(m["test"] or "", "—"),
            "WORSE" if m["regressed"] and m["p_value"] is not None and m["broken"] > m["fixed"] else "")


def _rate(side: dict[str, Any]) -> str:
    if not side["n"]:
        return "—"
    return f"{percent(side['pass_rate'])} {interval(side['ci'])} n={side['n']}"


def _mean(side: dict[str, Any]) -> str:
    if side.get("mean_score") is None:
        return "—"
    return f"mean {side['mean_score']:.3g} {interval(side['score_ci'], as_percent=False)} n={side['score_n']}"
