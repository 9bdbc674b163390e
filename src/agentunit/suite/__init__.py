"""Suites: files (YAML/JSON + cases files) and objects, validated with file:line problems."""

from agentunit.suite.loader import load_suite, suite_from_dict
from agentunit.suite.model import Suite

__all__ = ["Suite", "load_suite", "suite_from_dict"]
