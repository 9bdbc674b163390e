"""AgentUnit-compatible import path for the built-in metric classes."""

from agentunit.metrics.agentic import ToolSuccessMetric
from agentunit.metrics.numeric import EqualsNumber, GreaterThan, LessThan
from agentunit.metrics.performance import CostMetric, Latency, TokenUsageMetric
from agentunit.metrics.rag import FaithfulnessMetric, HallucinationRateMetric, RetrievalQualityMetric
from agentunit.metrics.reference import AnswerCorrectnessMetric
from agentunit.metrics.text import Contains, Equals, Regex, StartsWith

__all__ = [
    "AnswerCorrectnessMetric", "Contains", "CostMetric", "Equals", "EqualsNumber", "FaithfulnessMetric",
    "GreaterThan", "HallucinationRateMetric", "Latency", "LessThan", "Regex", "RetrievalQualityMetric",
    "StartsWith", "TokenUsageMetric", "ToolSuccessMetric",
]
