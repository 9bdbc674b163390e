"""Run a suite's labelled cases and pair each judge-backed metric result with its human verdict.

The labelled cases run through the same engine, results database and caches as ``agentunit run``
(a rerun makes no judge calls); unlabelled cases are not run. The run is stored like any other.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from agentunit.calibration.agreement import DEFAULT_WORST, MetricAgreement, Pair, agreement
from agentunit.calibration.keys import is_judge_backed, metric_key, names_metric, pass_is_low, pass_score
from agentunit.calibration.labels import Labelled, LabelRow, resolve_verdicts
from agentunit.errors import AgentUnitError
from agentunit.store.text import encodable


@dataclass
class CalibrationRun:
    """What ``agentunit calibrate`` reports: the run, the judge, the cases and the per-metric figures."""

    suite: str
    suite_path: str | None
    run_id: str
    judge: dict[str, Any]
    cases: int  # every case of the suite
    labelled: int  # cases run: they carry at least one verdict on a judge-backed metric
    unused_labels: list[str]  # labelled cases whose labels reach no judge-backed metric
    agreements: list[MetricAgreement]
    judge_usage: dict[str, Any] = field(default_factory=dict)  # calls, cache hits, tokens of this run


def select_labelled(suite: Any, rows: Sequence[LabelRow] = (), metrics: Sequence[str] = ()) -> Labelled:
    """The suite's labelled cases with their verdicts, restricted to the metrics named (any when none).

    Raises AgentUnitError when a name in ``metrics`` matches no labelled judge-backed metric, or when
    nothing is labelled; SuiteError for labels-file rows that match no case or metric.
    """
    labelled = resolve_verdicts(suite.iter_cases(), suite.verdicts, list(rows))
    if metrics:
        for name in metrics:
            if not any(v is not None and names_metric(name, case.metrics[i])
                       for case, verdicts in labelled.cases for i, v in enumerate(verdicts)):
                raise AgentUnitError(f"--metric {name!r}: no labelled judge-backed metric of that name or label")
        kept = []
        for case, verdicts in labelled.cases:
            only = [v if v is not None and any(names_metric(n, case.metrics[i]) for n in metrics) else None
                    for i, v in enumerate(verdicts)]
            if any(v is not None for v in only):
                kept.append((case, only))
        labelled.cases = kept
    if not labelled.cases:
        raise AgentUnitError(
            "no human verdicts on judge-backed metrics: give cases `expected_pass: true|false` (or a metric "
            "entry `expected_pass:`), or pass --labels FILE with id, metric, expected_pass")
    return labelled


def calibrate(suite: Any, store: Any, options: Any, labelled: Labelled, *, target: Any = None, judge: Any = None,
              worst: int = DEFAULT_WORST, execute: Callable[[Any], Any] | None = None) -> CalibrationRun:
    """Run the labelled cases of ``suite`` (validated) into ``store`` and compute the agreement figures.

    ``options`` are the engine's RunOptions (repeat is forced to 1); ``judge`` a JudgeService to use
    instead of the suite's; ``execute`` runs the engine and returns its RunResult (default: asyncio.run).
    """
    from agentunit.core.engine import Engine
    from agentunit.judges.service import service_for

    run_suite = dataclasses.replace(suite, prebuilt_cases=[case for case, _ in labelled.cases])
    engine = Engine(run_suite, store, dataclasses.replace(options, repeat=1, resume=None, filter=None),
                    target=target, judge=judge)
    result = execute(engine) if execute is not None else asyncio.run(engine.run())
    described = (judge or service_for(suite.judge)).provider.describe()
    pairs = pairs_from_results(result.iter_cases(), labelled)
    return CalibrationRun(suite=suite.name, suite_path=suite.file, run_id=result.run_id, judge=dict(described),
                          cases=labelled.total, labelled=len(labelled.cases), unused_labels=labelled.unused,
                          agreements=agreement(pairs, worst), judge_usage=dict(result.summary.get("judge") or {}))


def pairs_from_results(stored_cases: Any, labelled: Labelled) -> list[Pair]:
    """Pair each stored metric result with its human verdict, by case id and metric position."""
    by_id = {encodable(case.id): (case, verdicts) for case, verdicts in labelled.cases}
    pairs: list[Pair] = []
    for stored in stored_cases:
        found = by_id.get(stored["id"])
        if found is None:
            continue
        case, verdicts = found
        results = stored["metrics"]
        for position, human in enumerate(verdicts):
            if human is None or not is_judge_backed(case.metrics[position]):
                continue
            metric = case.metrics[position]
            common = {"metric": metric_key(metric), "case_id": case.id, "human": human,
                      "kind": str(getattr(metric, "display_name", metric_key(metric))),
                      "flip": pass_is_low(metric) != bool(getattr(metric, "negate", False))}
            if position >= len(results):  # the case errored before its metrics ran (target failure)
                pairs.append(Pair(**common, status="error",
                                  error=stored.get("error") or "the case produced no metric results"))
                continue
            row = results[position]
            value = row["value"]
            pairs.append(Pair(**common, status=row["status"], value=value,
                              score=pass_score(value, metric) if value is not None else None, passed=row["passed"],
                              threshold=row["threshold"], reason=row["reason"], error=row["error"],
                              threshold_source=(row["detail"] or {}).get("threshold_source")))
    return pairs
