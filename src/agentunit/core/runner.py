"""AgentUnit's Runner: run scenarios through the engine and return per-scenario results."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from agentunit.core.scenario import Scenario


@dataclass
class ScenarioRun:
    scenario_name: str
    case_id: str
    success: bool
    metrics: dict[str, float | None]
    duration_ms: float | None
    error: str | None = None
    results: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class ScenarioResult:
    name: str
    runs: list[ScenarioRun] = field(default_factory=list)
    run_id: str | None = None

    @property
    def success_rate(self) -> float:
        return sum(r.success for r in self.runs) / len(self.runs) if self.runs else 0.0

    def metric_mean(self, name: str) -> float | None:
        """Mean of a metric over the runs where it was measured (None if never)."""
        values = [r.metrics[name] for r in self.runs if r.metrics.get(name) is not None]
        return sum(values) / len(values) if values else None


@dataclass
class SuiteResult:
    scenarios: list[ScenarioResult]
    started_at: datetime
    finished_at: datetime

    @property
    def passed(self) -> bool:
        return all(r.success for s in self.scenarios for r in s.runs)


class Runner:
    """``Runner().run(scenario)`` or ``Runner([s1, s2]).run()``.

    Args:
        scenarios: scenarios to run when ``run`` gets none.
        config: optional dict with ``concurrency`` and ``db`` (results database, default in memory).
    """

    def __init__(self, scenarios: Iterable[Scenario] | None = None, config: Any = None):
        self._scenarios = list(scenarios or [])
        self._config = config if isinstance(config, dict) else {}

    def run(self, scenario: Scenario | Iterable[Scenario] | None = None) -> SuiteResult:
        from agentunit.api import evaluate
        from agentunit.targets.adapter import AdapterTarget

        if scenario is None:
            scenarios = self._scenarios
        elif isinstance(scenario, Scenario):
            scenarios = [scenario]
        else:
            scenarios = list(scenario)
        started = datetime.now(timezone.utc)
        results = []
        for sc in scenarios:
            from agentunit.metrics import DEFAULT_METRICS

            result = evaluate(cases=list(sc.iter_cases()), target=AdapterTarget(sc.adapter, retries=sc.retries),
                              metrics=sc.metrics if sc.metrics is not None else list(DEFAULT_METRICS),
                              concurrency=int(self._config.get("concurrency", 1)), timeout=sc.timeout,
                              db=self._config.get("db", ":memory:"), name=sc.name)
            scenario_result = ScenarioResult(name=sc.name, run_id=result.run_id)
            for case in result.iter_cases():
                scenario_result.runs.append(ScenarioRun(
                    scenario_name=sc.name, case_id=case["id"], success=case["passed"],
                    metrics={m["metric"]: m["value"] for m in case["metrics"]}, duration_ms=case["latency_ms"],
                    error=case["error"], results=case["metrics"]))
            results.append(scenario_result)
        return SuiteResult(scenarios=results, started_at=started, finished_at=datetime.now(timezone.utc))


def run_suite(suite: Iterable[Scenario], **config: Any) -> SuiteResult:
    """Run scenarios and return their results (AgentUnit API)."""
    return Runner(suite, config).run()
