"""Targets: the systems under test (echo, python, http, command, openai, recorded outputs and traces)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agentunit.targets.base import Reply, Target


def make_target(spec: dict[str, Any] | None, base_dir: Path | None = None) -> Target | None:
    """Build the target for a suite's ``target`` spec (None when every case carries ``output``)."""
    if spec is None:
        return None
    kind = spec.get("type")
    if kind == "echo":
        from agentunit.targets.echo import EchoTarget

        return EchoTarget(spec)
    if kind == "python":
        from agentunit.targets.python import PythonTarget

        return PythonTarget(spec, base_dir)
    if kind == "http":
        from agentunit.targets.http import HttpTarget

        return HttpTarget(spec)
    if kind == "command":
        from agentunit.targets.command import CommandTarget

        return CommandTarget(spec)
    if kind == "openai":
        from agentunit.targets.openai import OpenAITarget

        return OpenAITarget(spec)
    if kind == "traces":
        from agentunit.targets.traces import TracesTarget

        return TracesTarget(spec, base_dir)
    raise ValueError(f"unknown target type {kind!r}")


__all__ = ["Reply", "Target", "make_target"]
