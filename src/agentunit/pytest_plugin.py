"""The pytest plugin (entry point ``pytest11``): suite files as tests, and fixtures for tests in Python.

Suite files whose name matches the ini option ``agentunit_files`` (default ``agentunit_*.yaml``,
``agentunit_*.yml``) are collected: one test item per case (and per repeat, with ``options.repeat``),
each run through the engine with the suite's target, judge and metrics. A failing item's message lists
the metrics that did not pass, with their values, thresholds and reasons. A case where no metric gave a
verdict (unmeasured) fails unless the suite sets ``options.allow_unmeasured``, the ini option
``agentunit_allow_unmeasured`` is true, or ``--agentunit-allow-unmeasured`` is given.

Fixtures: ``agentunit_judge`` (the judge service of the session: ini ``agentunit_judge``, a provider
name, default ``local``) and ``agentunit_store`` (a results store in the test's tmp folder).
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from agentunit.errors import AgentUnitError, SuiteError

if TYPE_CHECKING:  # the engine is imported when a suite item runs, not when pytest starts
    from agentunit.core.engine import Engine
    from agentunit.datasets.base import DatasetCase
    from agentunit.store.sqlite import Store
    from agentunit.suite.model import Suite

DEFAULT_PATTERNS = ("agentunit_*.yaml", "agentunit_*.yml")
_STORE_KEY = pytest.StashKey["Store"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("agentunit")
    group.addoption("--agentunit-allow-unmeasured", action="store_true", default=False,
                    help="agentunit suite cases where no metric gave a verdict do not fail")
    group.addoption("--agentunit-db", default=None, metavar="PATH",
                    help="keep the results of agentunit suite items in this database (default: in memory); "
                         "under pytest-xdist each worker writes PATH with its worker id added")
    parser.addini("agentunit_files", type="args", default=list(DEFAULT_PATTERNS),
                  help="glob patterns of agentunit suite files collected as tests (default: agentunit_*.yaml "
                       "agentunit_*.yml)")
    parser.addini("agentunit_allow_unmeasured", type="bool", default=False,
                  help="agentunit suite cases where no metric gave a verdict do not fail")
    parser.addini("agentunit_judge", default="local",
                  help="the judge provider of the agentunit_judge fixture (default: local)")


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    patterns = parent.config.getini("agentunit_files") or list(DEFAULT_PATTERNS)
    if any(fnmatch.fnmatch(file_path.name, pattern) for pattern in patterns):
        return SuiteFile.from_parent(parent, path=file_path)
    return None


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "agentunit: a case of an agentunit suite file")


def pytest_unconfigure(config: pytest.Config) -> None:
    store = config.stash.get(_STORE_KEY, None)
    if store is not None:
        store.close()


def session_store(config: pytest.Config) -> Store:
    """The store the suite items of this pytest process write to (``--agentunit-db``, else in memory)."""
    store = config.stash.get(_STORE_KEY, None)
    if store is None:
        path = config.getoption("agentunit_db")
        worker = getattr(config, "workerinput", {}).get("workerid")
        if path and worker:
            stem = Path(path)
            path = str(stem.with_name(f"{stem.stem}-{worker}{stem.suffix}"))
        from agentunit.store.sqlite import Store

        store = Store(path or ":memory:")
        config.stash[_STORE_KEY] = store
    return store


class CaseFailed(Exception):
    """An agentunit case did not pass; the message is what pytest shows."""


class SuiteFile(pytest.File):
    """An agentunit suite file: one item per case and repeat."""

    def collect(self) -> Iterator[pytest.Item]:
        from agentunit.suite.loader import load_suite

        suite = load_suite(self.path)
        suite.validate(require_target=True)
        repeat = int(suite.options.get("repeat", 1) or 1)
        for case in suite.iter_cases():
            for attempt in range(repeat):
                name = str(case.id) if repeat == 1 else f"{case.id}[repeat {attempt + 1}]"
                item = SuiteCase.from_parent(self, name=name, suite=suite, case=case, repeat=attempt)
                item.add_marker("agentunit")
                yield item

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, SuiteError):
            return f"agentunit suite {self.path.name} cannot be used:\n{excinfo.value}"
        return super().repr_failure(excinfo, style)


class SuiteCase(pytest.Item):
    """One case (one repeat) of a suite file, run through the engine."""

    def __init__(self, *, suite: Suite, case: DatasetCase, repeat: int, **kwargs: Any):
        super().__init__(**kwargs)
        self.suite, self.case, self.repeat = suite, case, repeat
        self.result: dict[str, Any] | None = None

    def runtest(self) -> None:
        from agentunit.core.engine import RunOptions

        config = self.config
        allow = bool(config.getoption("agentunit_allow_unmeasured") or config.getini("agentunit_allow_unmeasured")
                     or self.suite.options.get("allow_unmeasured", False))
        engine = _one_case_engine(self.suite, session_store(config), RunOptions(
            concurrency=1, timeout=self.suite.options.get("timeout"), cache=bool(self.suite.options.get("cache", True)),
            allow_unmeasured=allow), self.case, self.repeat)
        run = engine.execute()  # in a helper thread when a loop already runs here (an async test)
        self.result = next(run.iter_cases(), None)
        if self.result is None:
            raise CaseFailed(f"case {self.case.id!r} produced no result")
        status = self.result["status"]
        if status == "passed" or (status == "unmeasured" and allow):
            return
        raise CaseFailed(failure_message(self.result))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, (CaseFailed, AgentUnitError)):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"agentunit case {self.name}"


def _one_case_engine(suite: Suite, store: Store, options: Any, case: DatasetCase, repeat: int) -> Engine:
    """The engine, running one case at one repeat index (so a repeat gets its own cache entry)."""
    from agentunit.core.engine import Engine

    class OneCase(Engine):
        def _jobs(self, skip: set[tuple[str, int]], first: int = 0) -> Iterator[tuple[int, DatasetCase, int]]:
            yield 0, case, repeat

    return OneCase(suite, store, options, target=suite.build_target())


def failure_message(result: dict[str, Any]) -> str:
    """What pytest shows for a case that did not pass: its status, error, and each metric that did not pass."""
    status = result["status"]
    lines = [f"agentunit case {result['id']!r} {status}"]
    if result.get("error"):
        lines[0] += f": {result['error']}"
    for metric in result.get("metrics") or []:
        state = metric.get("status")
        if state in ("passed", "info"):
            continue
        parts = [f"{metric['metric']}: {str(state).replace('_', ' ')}"]
        if metric.get("value") is not None:
            parts.append(f"value {metric['value']:.4g}" if isinstance(metric["value"], (int, float))
                         else f"value {metric['value']!r}")
        if metric.get("threshold") is not None:
            parts.append(f"threshold {metric['threshold']:g}")
        why = metric.get("error") or metric.get("reason")
        lines.append("  - " + ", ".join(parts) + (f" — {why}" if why else ""))
    if status == "unmeasured":
        lines.append("  (no metric gave a verdict; allow it with the suite option allow_unmeasured or "
                     "--agentunit-allow-unmeasured)")
    output = result.get("output")
    if output:
        shown = output if len(output) <= 500 else output[:500] + "…"
        lines.append(f"output: {shown}")
    return "\n".join(lines)


@pytest.fixture(scope="session")
def agentunit_judge(pytestconfig: pytest.Config) -> Any:
    """The judge service of the session (ini ``agentunit_judge``: the provider, default ``local``); made
    current, so ``agentunit.check`` and ``assert_passes`` use it."""
    from agentunit.judges.service import service_for, set_current_judge

    provider = pytestconfig.getini("agentunit_judge") or "local"
    service = service_for({"provider": provider})
    set_current_judge(service)
    return service


@pytest.fixture
def agentunit_store(tmp_path: Path) -> Iterator[Store]:
    """A results store in the test's tmp folder (``agentunit.db``); closed after the test."""
    from agentunit.store.sqlite import Store

    store = Store(tmp_path / "agentunit.db")
    yield store
    store.close()
