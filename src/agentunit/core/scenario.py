"""AgentUnit's Scenario: an adapter, a dataset, metrics and an execution policy."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from agentunit.datasets.base import DatasetCase, DatasetSource


@dataclass
class Scenario:
    """Couple an adapter with a dataset (AgentUnit API).

    Args:
        name: scenario name.
        adapter: a ``BaseAdapter`` (or any object with ``execute(case, trace)``).
        dataset: a ``DatasetSource``, an iterable of ``DatasetCase`` or of case dicts.
        metrics: metric names/specs/instances; ``None`` uses ``DEFAULT_METRICS``.
        retries: re-runs of a case whose outcome reports ``success=False``.
        timeout: seconds per case.
    """

    name: str
    adapter: Any
    dataset: Any = None
    metrics: list[Any] | None = None
    retries: int = 0
    max_turns: int | None = None
    timeout: float | None = None
    tags: list[str] = field(default_factory=list)
    dataset_source: Any = None

    def __post_init__(self) -> None:
        # A negative count would make the adapter target run a case no times at all: every case without output.
        if isinstance(self.retries, bool) or not isinstance(self.retries, int) or self.retries < 0:
            raise ValueError(f"scenario {self.name!r}: retries must be a whole number ≥ 0, got {self.retries!r}")

    def iter_cases(self) -> Iterator[DatasetCase]:
        source = self.dataset if self.dataset is not None else self.dataset_source
        if source is None:
            raise ValueError(f"scenario {self.name!r} has no dataset")
        if not isinstance(source, DatasetSource):
            source = DatasetSource.from_list(_as_iterable(source), name=self.name)
        return iter(source)


def _as_iterable(source: Any) -> Iterable[Any]:
    if isinstance(source, dict) and "test_cases" in source:
        return source["test_cases"]
    return source
