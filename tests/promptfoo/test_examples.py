"""promptfoo's own examples (tests/data/promptfoo, MIT) run unchanged: against the echo provider
(``AGENTUNIT_PROMPTFOO_PROVIDERS=echo``, promptfoo's ``--providers echo``) with a scripted judge for
their model-graded assertions. docs/promptfoo.md lists them with what differs."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

import pytest

from agentunit.core.engine import Engine, RunOptions
from agentunit.promptfoo.config import PromptfooSuite
from agentunit.store.sqlite import Store
from agentunit.suite.loader import load_suite
from tests.judge_helpers import pass_with, scripted_judge

DATA = Path(__file__).parent.parent / "data" / "promptfoo"
# promptfoo's examples/ copied unchanged: (folder, config file, cases, their statuses against echo with a
# judge that says yes to every statement). A rubric that forbids something is asked turned round, so that
# judge fails it: "does not claim to know the current weather in new york" in the two comparisons.
EXAMPLES = [
    ("getting-started", "promptfooconfig.yaml", 4, {"failed": 4}),
    ("simple-csv", "promptfooconfig.yaml", 8, {"failed": 8}),
    ("csv-metadata", "promptfooconfig.yaml", 3, {"failed": 2, "passed": 1}),
    ("config-csv-metadata", "promptfooconfig.yaml", 3, {"failed": 2, "passed": 1}),
    ("simple-cli", "promptfooconfig.yaml", 8, {"unmeasured": 8}),
    ("eval-customer-support-rubric", "promptfooconfig.yaml", 4, {"failed": 2, "passed": 2}),
    ("python-assert", "promptfooconfig-inline.yaml", 2, {"passed": 1, "failed": 1}),
    ("gpt-4o-vs-4o-mini", "promptfooconfig.yaml", 15, {"failed": 2, "passed": 13}),  # riddles 1 and 3
    ("phi-vs-llama", "promptfooconfig.yaml", 16, {"unmeasured": 16}),  # no assertions
    ("mistral-llama-comparison", "promptfooconfig.yaml", 16, {"unmeasured": 8, "passed": 6, "failed": 2}),
    ("llama-gpt-comparison", "promptfooconfig.yaml", 8, {"unmeasured": 4, "passed": 3, "failed": 1}),
]


@pytest.fixture(autouse=True)
def _echo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTUNIT_PROMPTFOO_PROVIDERS", "echo")


def _cases(path: Path, tmp_path: Path) -> list[dict]:
    suite = load_suite(path)
    assert isinstance(suite, PromptfooSuite)
    suite.validate(require_target=True)
    store = Store(tmp_path / "r.db")
    try:
        with scripted_judge(lambda request: pass_with(0.9)) as judge:
            result = asyncio.run(Engine(suite, store, RunOptions(cache=False), target=suite.build_target(),
                                        judge=judge.service).run())
        return list(store.iter_cases(result.run_id))
    finally:
        store.close()


def test_at_least_ten_of_promptfoos_examples_are_here() -> None:
    assert len(EXAMPLES) >= 10
    for folder, config, *_ in EXAMPLES:
        assert (DATA / folder / config).is_file()


@pytest.mark.parametrize(("folder", "config", "count", "expected"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_example_runs_unchanged(folder: str, config: str, count: int, expected: dict,
                                tmp_path: Path) -> None:
    cases = _cases(DATA / folder / config, tmp_path)
    statuses = Counter(c["status"] for c in cases)
    assert len(cases) == count
    assert dict(statuses) == expected, [c["error"] for c in cases if c["status"] == "errored"]


@pytest.mark.parametrize(("folder", "count", "target"), [("gpt-4o-vs-4o-mini", 30, "openai"),
                                                         ("phi-vs-llama", 32, "openai")])
def test_examples_load_with_their_own_providers(monkeypatch: pytest.MonkeyPatch, folder: str, count: int,
                                                target: str) -> None:
    monkeypatch.delenv("AGENTUNIT_PROMPTFOO_PROVIDERS")
    suite = load_suite(DATA / folder / "promptfooconfig.yaml")
    assert suite.validate(require_target=True) == count
    assert {p.target["type"] for p in suite.matrix.providers} == {target}


def test_providers_without_a_target_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    from agentunit.errors import SuiteError

    monkeypatch.delenv("AGENTUNIT_PROMPTFOO_PROVIDERS")
    with pytest.raises(SuiteError) as info:
        load_suite(DATA / "mistral-llama-comparison" / "promptfooconfig.yaml").validate()
    assert "huggingface:text-generation" in info.value.problems[0].message
