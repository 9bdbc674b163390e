"""Sustainability: measure a target call's energy, carbon and resource use.

    from agentunit.sustainability.metrics import EnergyMetric, CarbonMetric, ResourceUtilizationMetric
"""

from agentunit.sustainability.meter import ResourceMeter, ResourceUsage, measure_call
from agentunit.sustainability.metrics import CarbonMetric, EnergyMetric, ResourceUtilizationMetric

__all__ = ["CarbonMetric", "EnergyMetric", "ResourceMeter", "ResourceUsage", "ResourceUtilizationMetric",
           "measure_call"]
