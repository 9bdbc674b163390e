"""agentunit: test LLM applications and AI agents, offline-first.

Public API (imported lazily so the CLI starts fast)::

    from agentunit import evaluate, check, assert_passes, parametrize, Scenario, Runner, DatasetCase, MetricResult
"""

from __future__ import annotations

from agentunit._lazy import lazy_exports

__version__ = "0.1.0"

_EXPORTS = {
    "evaluate": "agentunit.api",
    "check": "agentunit.api",
    "assert_passes": "agentunit.api",
    "parametrize": "agentunit.api",
    "Scenario": "agentunit.core.scenario",
    "Runner": "agentunit.core.runner",
    "run_suite": "agentunit.core.runner",
    "TraceLog": "agentunit.core.trace",
    "TraceEvent": "agentunit.core.trace",
    "Outcome": "agentunit.core.outcome",
    "AdapterOutcome": "agentunit.core.outcome",
    "RunResult": "agentunit.core.engine",
    "DatasetCase": "agentunit.datasets.base",
    "DatasetSource": "agentunit.datasets.base",
    "BaseAdapter": "agentunit.adapters.base",
    "Metric": "agentunit.metrics.base",
    "MetricResult": "agentunit.metrics.base",
    "CompositeMetric": "agentunit.metrics.base",
    "register_metric": "agentunit.metrics.registry",
    "resolve_metrics": "agentunit.metrics",
    "Suite": "agentunit.suite.model",
    "load_suite": "agentunit.suite.loader",
    "AgentUnitError": "agentunit.errors",
    "SuiteError": "agentunit.errors",
}

__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(globals(), _EXPORTS)
