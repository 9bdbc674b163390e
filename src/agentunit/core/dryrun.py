"""``agentunit run --dry-run``: what a run would cost, without calling targets or judges.

The suite runs against an in-memory results store that reads the real database's target and judge
caches. A target call that the cache cannot answer is counted and answered with an empty output; a
judge call that the cache cannot answer is counted, its prompt tokens estimated (4 characters per
token), and answered with the first option, so every metric's prompts are built as in a real run.
Nothing is written to the real database.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentunit.core.engine import Engine, RunOptions
from agentunit.datasets.base import DatasetCase
from agentunit.judges.base import JudgeReply, JudgeRequest
from agentunit.judges.service import JudgeService
from agentunit.store.sqlite import Store
from agentunit.suite.model import Suite
from agentunit.targets.base import Reply, Target

CHARS_PER_TOKEN = 4


@dataclass
class DryRunReport:
    cases: int
    target_calls: int
    judge_calls: int
    judge_cache_hits: int
    estimated_prompt_tokens: int

    def text(self) -> str:
        return (f"dry run: {self.cases} case runs; {self.target_calls} target calls not in the cache; "
                f"{self.judge_calls} judge calls not in the cache ({self.judge_cache_hits} cached), "
                f"~{self.estimated_prompt_tokens:,} judge prompt tokens (estimated at {CHARS_PER_TOKEN} "
                f"characters per token)")


class _CountingTarget(Target):
    def __init__(self, real: Target):
        super().__init__(real.spec)
        self.real = real
        self.kind = real.kind
        self.cache_enabled = real.cache_enabled
        self.calls = 0

    def request(self, case: DatasetCase) -> dict[str, Any]:
        return self.real.request(case)

    def describe(self) -> dict[str, Any]:
        return self.real.describe()

    async def send(self, case: DatasetCase, request: dict[str, Any]) -> Reply:
        self.calls += 1
        return Reply(body="")


class _CountingProvider:
    def __init__(self, real: Any):
        self.real = real
        self.name = real.name
        self.calls = 0
        self.prompt_chars = 0

    def describe(self) -> dict[str, Any]:
        return self.real.describe()

    async def call(self, request: JudgeRequest) -> JudgeReply:
        self.calls += 1
        self.prompt_chars += sum(len(content) for _, content in request.messages)
        if request.options:
            return JudgeReply(text=request.options[0])
        return JudgeReply(text=json.dumps({"steps": ["(dry run)"]}))

    async def aclose(self) -> None:
        """Nothing to release."""


def dry_run(suite: Suite, db: str | Path, options: RunOptions, target: Target | None = None) -> DryRunReport:
    """Count the target and judge calls a run of ``suite`` would make with the caches in ``db``.

    ``target`` is the suite's target when the caller built it already (else it is built here).
    """
    store = Store(":memory:")
    store.read_caches_from(db)
    real_target = target if target is not None else suite.build_target()
    counting = _CountingTarget(real_target) if real_target is not None else None
    judge = JudgeService(suite.judge)
    provider = _CountingProvider(judge.provider)
    judge.provider = provider
    result = asyncio.run(Engine(suite, store, options, target=counting, judge=judge).run())
    return DryRunReport(cases=result.summary["cases"], target_calls=counting.calls if counting else 0,
                        judge_calls=provider.calls, judge_cache_hits=judge.stats.cache_hits,
                        estimated_prompt_tokens=provider.prompt_chars // CHARS_PER_TOKEN)
