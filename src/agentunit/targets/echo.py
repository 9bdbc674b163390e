"""The echo target: the answer is the prompt. For trying suites and benchmarking the engine."""

from __future__ import annotations

from typing import Any

from agentunit.datasets.base import DatasetCase
from agentunit.targets.base import Reply, Target


class EchoTarget(Target):
    kind = "echo"

    async def send(self, case: DatasetCase, request: dict[str, Any]) -> Reply:
        return Reply(body=case.query)

    def sends_inline(self) -> bool:
        # A subclass that sends otherwise may await real I/O.
        return type(self).send is EchoTarget.send and type(self).aclose is Target.aclose
