"""Several targets in one run: each case goes to the target its metadata names.

Used by native suites with ``targets:`` (routed by ``metadata.target_label``) and by promptfoo
configs with several providers (routed by ``metadata.provider``).
"""

from __future__ import annotations

from typing import Any

from agentunit.datasets.base import DatasetCase
from agentunit.errors import TargetError
from agentunit.targets.base import Reply, Target


class MatrixTarget(Target):
    """Several targets by label: each case goes to the target named by ``case.metadata[key]``.

    A case's reply is cached only when the target that answers it caches; the secrets of every
    target are the matrix's secrets (so the engine redacts them all).
    """

    kind = "matrix"

    def __init__(self, targets: dict[str, Target], key: str = "provider", what: str = "provider"):
        super().__init__({"type": "matrix"})
        self.targets = targets
        self.key = key
        self.what = what
        self.cache_enabled = any(t.cache_enabled for t in targets.values())

    @property
    def secrets(self) -> set[str]:  # type: ignore[override]
        found: set[str] = set()
        for target in self.targets.values():
            found |= target.secrets
        return found

    @secrets.setter
    def secrets(self, value: set[str]) -> None:
        """The matrix holds no secrets of its own (Target.__init__ assigns an empty set)."""

    def _for(self, case: DatasetCase) -> tuple[str, Target]:
        label = case.metadata.get(self.key)
        if label not in self.targets:
            raise TargetError(f"case {case.id!r} names no known {self.what} ({label!r})")
        return label, self.targets[label]

    def request(self, case: DatasetCase) -> dict[str, Any]:
        label, target = self._for(case)
        return {"provider": label, "request": target.request(case)}

    def cache_key(self, request: dict[str, Any], repeat: int) -> str:
        """The answering target's cache policy decides: "" (no caching) when it does not cache."""
        target = self.targets.get(request.get("provider"))
        if target is None or not target.cache_enabled:
            return ""
        return super().cache_key(request, repeat)

    async def send(self, case: DatasetCase, request: dict[str, Any]) -> Reply:
        _, target = self._for(case)
        return await target.send(case, request["request"])

    def describe(self) -> dict[str, Any]:
        return {"type": "matrix", "providers": {k: t.describe() for k, t in self.targets.items()}}

    def redact(self, text: str) -> str:
        for target in self.targets.values():
            text = target.redact(text)
        return text

    async def aclose(self) -> None:
        for target in self.targets.values():
            await target.aclose()
