"""The echo target: the answer is the prompt. For trying suites and benchmarking the engine."""

from __future__ import annotations

from typing import Any

from agentunit.datasets.base import DatasetCase
from agentunit.targets.base import Reply, Target


class EchoTarget(Target):
    kind = "echo"

    async def send(self, case: DatasetCase, request: dict[str, Any]) -> Reply:
        return Reply(body=case.query)
