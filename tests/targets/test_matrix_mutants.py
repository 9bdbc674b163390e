"""A matrix of targets: routed by ``metadata.provider`` unless told otherwise, each case's own request sent
to the target that made it, every target's secrets redacted (mutation testing found these unpinned)."""

import asyncio

import pytest

from agentunit.datasets.base import DatasetCase
from agentunit.errors import TargetError
from agentunit.targets.base import Reply, Target
from agentunit.targets.matrix import MatrixTarget


class _Recording(Target):
    kind = "recording"

    def __init__(self, name, secret):
        super().__init__({"type": "recording"})
        self.name, self.sent = name, []
        self.secrets.add(secret)

    def request(self, case):
        return {"to": self.name, "prompt": case.query}

    async def send(self, case, request):
        self.sent.append(request)
        return Reply(body=f"{self.name}: {request['prompt']}")


def test_cases_are_routed_by_provider_by_default_and_each_gets_its_own_request_sent():
    a, b = _Recording("a", "sec-a"), _Recording("b", "sec-b")
    matrix = MatrixTarget({"a": a, "b": b})
    case = DatasetCase(id="c1", query="hi", metadata={"provider": "b"})
    request = matrix.request(case)
    assert request == {"provider": "b", "request": {"to": "b", "prompt": "hi"}}
    assert asyncio.run(matrix.send(case, request)).body == "b: hi"
    assert b.sent == [{"to": "b", "prompt": "hi"}] and a.sent == []
    with pytest.raises(TargetError) as raised:
        matrix.request(DatasetCase(id="c2", query="hi", metadata={"target_label": "a"}))
    assert str(raised.value) == "case 'c2' names no known provider (None)"


def test_every_targets_secrets_are_redacted():
    matrix = MatrixTarget({"a": _Recording("a", "sec-a"), "b": _Recording("b", "sec-b")})
    assert matrix.secrets == {"sec-a", "sec-b"}
    assert matrix.redact("x sec-a y sec-b z") == "x *** y *** z"
