"""Sustainability: measure a target call's energy, carbon and resource use.

    from agentunit.sustainability.metrics import EnergyMetric, CarbonMetric, ResourceUtilizationMetric
"""

from agentunit.sustainability.meter import REMOTE_SCOPE, ResourceMeter, ResourceUsage, measure_call, measured_elsewhere
from agentunit.sustainability.metrics import CarbonMetric, EnergyMetric, ResourceUtilizationMetric

__all__ = ["REMOTE_SCOPE", "CarbonMetric", "EnergyMetric", "ResourceMeter", "ResourceUsage",
           "ResourceUtilizationMetric", "measure_call", "measured_elsewhere"]
