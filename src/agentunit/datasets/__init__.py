"""Datasets: the cases a suite runs."""

from agentunit.datasets.base import DatasetCase, DatasetSource

__all__ = ["DatasetCase", "DatasetSource"]
