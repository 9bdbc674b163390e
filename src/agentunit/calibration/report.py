"""``agentunit calibrate`` output: a console report and the JSON document (docs/calibration.md)."""

from __future__ import annotations

from typing import Any

from agentunit.calibration.agreement import SMALL_CLASS, MetricAgreement, Pair
from agentunit.calibration.fit import describe_judge
from agentunit.calibration.run import CalibrationRun
from agentunit.calibration.stats import ECE_BINS
from agentunit.suite.problems import printable

JSON_VERSION = 1
_REASON_CHARS = 160


def report_dict(run: CalibrationRun, written: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON document of a calibration run (``--json``)."""
    return {
        "version": JSON_VERSION, "suite": run.suite, "suite_path": run.suite_path, "run_id": run.run_id,
        "judge": run.judge, "judge_usage": run.judge_usage,
        "cases": {"total": run.cases, "run": run.labelled, "not_run": run.cases - run.labelled,
                  "labels_without_judge_metric": run.unused_labels},
        "ece_bins": ECE_BINS, "small_class": SMALL_CLASS,
        "metrics": [_metric_dict(item) for item in run.agreements],
        "written": written,
    }


def _metric_dict(item: MetricAgreement) -> dict[str, Any]:
    best = None
    if item.best is not None:
        best = {"threshold": item.best_metric_threshold, "p_pass_threshold": item.best.threshold,
                "p_pass_interval": [item.best.low, item.best.high], "balanced_accuracy": item.best.balanced_accuracy,
                "cross_validated_balanced_accuracy": item.cross_validated[0] if item.cross_validated else None,
                "folds": item.cross_validated[1] if item.cross_validated else None}
    return {
        "metric": item.metric, "n": item.n, "positives": item.positives, "negatives": item.negatives,
        "thresholds": item.thresholds, "confusion": item.confusion.to_dict(),
        "accuracy": _with_ci(item.accuracy, item.accuracy_ci),
        "pass_recall": _with_ci(item.pass_recall, item.pass_recall_ci),
        "fail_recall": _with_ci(item.fail_recall, item.fail_recall_ci),
        "balanced_accuracy": item.balanced_accuracy, "kappa": item.kappa, "ece": item.ece, "best_threshold": best,
        "disagreements": [p.to_dict() for p in item.disagreements],
        "not_measured": [p.to_dict() for p in item.not_measured], "errors": [p.to_dict() for p in item.errors],
        "no_verdict": [p.to_dict() for p in item.no_verdict], "warnings": item.warnings,
    }


def _with_ci(value: float | None, interval: tuple[float, float] | None) -> dict[str, Any]:
    return {"value": value, "ci95": list(interval) if interval else None}


def render_text(run: CalibrationRun, written: dict[str, Any] | None = None) -> str:
    """The console report: one block per metric, then what was written."""
    usage = run.judge_usage
    lines = [f"calibrate {run.suite_path or run.suite} · judge {describe_judge(run.judge)} · run {run.run_id}",
             f"{run.labelled} labelled case(s) run, {run.cases - run.labelled} without a verdict to check not run"
             + (f" · judge calls {usage.get('calls', 0)}, cache hits {usage.get('cache_hits', 0)}" if usage else
                " · no judge calls (all cached or none needed)")]
    if run.unused_labels:
        lines.append(f"labels that reach no judge-backed metric (ignored): {_ids(run.unused_labels)}")
    for item in run.agreements:
        lines += ["", *_metric_lines(item)]
    if written is not None and written["path"] is None:
        lines += ["", "nothing written: no metric could be fitted (a fit needs measured human passes and fails)"]
    elif written is not None:
        lines += ["", f"wrote {written['path']}: thresholds for {', '.join(written['metrics'])}"
                  + (f"; kept {', '.join(written['kept'])} from the existing file" if written["kept"] else "")
                  + (f"; not fitted: {', '.join(written['not_fitted'])}" if written["not_fitted"] else "")]
    return "\n".join(printable(line) for line in lines)


def _metric_lines(item: MetricAgreement) -> list[str]:
    c = item.confusion
    current = ", ".join(_threshold_text(t) for t in item.thresholds) or "—"
    lines = [f"{item.metric}  n={item.n} ({item.positives} pass / {item.negatives} fail by the human verdicts)"
             f"  threshold {current}"]
    if item.n:
        lines += [
            f"  accuracy           {_num(item.accuracy)}  {_ci(item.accuracy_ci)}",
            f"  balanced accuracy  {_num(item.balanced_accuracy)}  (pass recall {_num(item.pass_recall)} "
            f"{_ci(item.pass_recall_ci)}, fail recall {_num(item.fail_recall)} {_ci(item.fail_recall_ci)})",
            f"  Cohen's κ          {_num(item.kappa)}",
            f"  ECE ({ECE_BINS} bins)      {_num(item.ece)}  (the value read as P(pass))",
            f"  confusion          human pass → judge pass {c.tp}, judge fail {c.fn} · "
            f"human fail → judge pass {c.fp}, judge fail {c.tn}",
        ]
    if item.best is not None:
        cv = (f"; cross-validated ({item.cross_validated[1]} folds) {_num(item.cross_validated[0])}"
              if item.cross_validated else "")
        shown = _num(item.best_metric_threshold) if item.best_metric_threshold is not None else "not fitted"
        lines.append(f"  best threshold     {shown} → balanced accuracy {_num(item.best.balanced_accuracy)} on these "
                     f"labels{cv}")
    left_out = [("not measured", item.not_measured), ("errors", item.errors), ("no verdict", item.no_verdict)]
    if any(group for _, group in left_out):
        lines.append("  left out: " + " · ".join(f"{name} {len(group)}" for name, group in left_out))
        for name, group in left_out:
            for pair in group:
                detail = pair.error if name == "errors" else pair.reason
                lines.append(f"    {pair.case_id}: {_cut(detail or name)}")
    if item.disagreements:
        lines.append("  worst disagreements:")
        for pair in item.disagreements:
            lines.append(f"    {_disagreement(pair)}")
    lines += [f"  warning: {w}" for w in item.warnings]
    return lines


def _disagreement(pair: Pair) -> str:
    human = "pass" if pair.human else "fail"
    judge = "pass" if pair.passed else "fail"
    return (f"{pair.case_id}  value {_num(pair.value)}  human {human}, judge {judge}"
            + (f"  — {_cut(pair.reason)}" if pair.reason else ""))


def _threshold_text(entry: dict[str, Any]) -> str:
    value = "none (the metric decides)" if entry["threshold"] is None else f"{entry['threshold']:.4g}"
    source = entry["source"]
    return value + (f" from {source}" if source != "suite" else "")


def _num(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def _ci(interval: tuple[float, float] | None) -> str:
    return "" if interval is None else f"[{interval[0]:.3f}, {interval[1]:.3f}]"


def _cut(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _REASON_CHARS else text[:_REASON_CHARS - 1] + "…"


def _ids(ids: list[str], limit: int = 10) -> str:
    shown = ", ".join(ids[:limit])
    return shown + (f" and {len(ids) - limit} more" if len(ids) > limit else "")
