"""The Suite: validated settings plus a re-iterable stream of validated cases."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentunit.datasets.base import DatasetCase
from agentunit.suite.cases import Where, build_case
from agentunit.suite.problems import Problems
from agentunit.suite.sources import RawCase, read_case_file

KEEP_VALIDATED_CASES = 20_000


@dataclass
class Suite:
    """A test suite: name, target, judge, options, and where its cases come from.

    Cases stream from their sources on every ``iter_cases()`` (so a 100,000-line JSONL file is never
    held in memory); ``validate()`` reads them once and raises SuiteError listing every problem.
    """

    name: str
    path: Path | None = None
    description: str | None = None
    target: dict[str, Any] | None = None
    judge: dict[str, Any] = field(default_factory=lambda: {"provider": "local"})
    options: dict[str, Any] = field(default_factory=dict)
    defaults: dict[str, Any] = field(default_factory=dict)
    prompt: str | None = None
    inline_cases: list[Any] = field(default_factory=list)
    case_files: list[Path] = field(default_factory=list)
    prebuilt_cases: list[DatasetCase] | None = None
    suite_metrics: list[Any] = field(default_factory=list)
    default_metrics: list[Any] = field(default_factory=list)
    problems: Problems = field(default_factory=Problems)
    case_count: int | None = None
    _validated: list[DatasetCase] | None = field(default=None, repr=False)

    @property
    def file(self) -> str | None:
        return str(self.path) if self.path else None

    def _raw_cases(self) -> Iterator[RawCase]:
        for index, item in enumerate(self.inline_cases):
            yield RawCase(item, self.file, ("cases", index), None)
        for path in self.case_files:
            yield from read_case_file(path, self.problems)

    def iter_cases(self) -> Iterator[DatasetCase]:
        """Yield every valid case in order; problems are collected in ``self.problems``."""
        if self.prebuilt_cases is not None:
            yield from self.prebuilt_cases
            return
        if self._validated is not None:
            yield from self._validated
            return
        inherited = self.suite_metrics + self.default_metrics
        for index, raw in enumerate(self._raw_cases(), 1):
            case = build_case(raw.data, index=index, where=Where(raw.file, raw.key_path, raw.line),
                              defaults=self.defaults, inherited_metrics=inherited,
                              prompt_template=self.prompt, problems=self.problems)
            if case is not None:
                yield case

    def validate(self) -> int:
        """Read every case once; raise SuiteError with all problems, else return the case count."""
        seen: set[str] = set()
        count = 0
        kept: list[DatasetCase] | None = []
        for case in self.iter_cases():
            count += 1
            if kept is not None:
                kept.append(case)
                if len(kept) > KEEP_VALIDATED_CASES:
                    kept = None  # large suites stream from their files again on the run
            if case.id in seen:
                self.problems.error(f"duplicate case id {case.id!r}", suggestion="give each case a unique id")
            seen.add(case.id)
        if count == 0 and not self.problems.errors:
            self.problems.error("the suite has no cases", ("cases",),
                                suggestion="add `cases:` or `cases_file:`")
        self.problems.raise_if_any()
        self.case_count = count
        self._validated = kept
        return count
