"""Multi-agent coordination: data types, analyzers, the calculator and the three metrics.

    from agentunit.multiagent import MultiAgentMetricsCalculator, CoordinationEfficiencyMetric
"""

from agentunit.multiagent.analysis import EmergentBehaviorDetector, InteractionAnalyzer, NetworkAnalyzer
from agentunit.multiagent.calculator import (
    CoordinationMetrics,
    EmergentBehaviorMetrics,
    MultiAgentMetricsCalculator,
    NetworkMetrics,
)
from agentunit.multiagent.metrics import (
    CoordinationEfficiencyMetric,
    NetworkFaultToleranceMetric,
    SwarmIntelligenceMetric,
    calculator_for,
)
from agentunit.multiagent.types import (
    AgentID,
    AgentInteraction,
    AgentRole,
    ConflictEvent,
    HandoffEvent,
    InteractionType,
)

__all__ = [
    "AgentID", "AgentInteraction", "AgentRole", "ConflictEvent", "CoordinationEfficiencyMetric",
    "CoordinationMetrics", "EmergentBehaviorDetector", "EmergentBehaviorMetrics", "HandoffEvent",
    "InteractionAnalyzer", "InteractionType", "MultiAgentMetricsCalculator", "NetworkAnalyzer",
    "NetworkFaultToleranceMetric", "NetworkMetrics", "SwarmIntelligenceMetric", "calculator_for",
]
