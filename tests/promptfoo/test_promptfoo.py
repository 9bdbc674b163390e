"""promptfoo configs run unchanged: the matrix, CSV tests, assertions, errors, export round trip."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from agentunit.cli import app
from agentunit.core.engine import Engine, RunOptions
from agentunit.errors import SuiteError
from agentunit.promptfoo import is_promptfoo_config
from agentunit.promptfoo.assertions import assertion_from_string, split_values
from agentunit.promptfoo.config import PromptfooSuite
from agentunit.promptfoo.providers import response_path
from agentunit.store.sqlite import Store
from agentunit.suite.loader import load_suite

DATA = Path(__file__).parent.parent / "data" / "promptfoo"
# Examples from promptfoo's examples/ that use no JavaScript: they load and run unchanged.
UNCHANGED = ["getting-started", "simple-csv", "csv-metadata", "config-csv-metadata", "simple-cli",
             "eval-customer-support-rubric", "echo-equals", "json-schema", "assert-set", "http-provider"]
DETERMINISTIC = ["getting-started", "simple-csv", "simple-cli", "echo-equals", "json-schema", "assert-set"]


@pytest.fixture(autouse=True)
def _echo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTUNIT_PROMPTFOO_PROVIDERS", "echo")


def _run(suite, tmp_path: Path) -> dict[str, str]:
    suite.validate(require_target=True)
    tmp_path.mkdir(parents=True, exist_ok=True)
    store = Store(tmp_path / "r.db")
    try:
        result = asyncio.run(Engine(suite, store, RunOptions(cache=False), target=suite.build_target()).run())
        return {c["id"]: c["status"] for c in store.iter_cases(result.run_id)}
    finally:
        store.close()


@pytest.mark.parametrize("name", UNCHANGED)
def test_example_loads_unchanged(name: str) -> None:
    suite = load_suite(DATA / name / "promptfooconfig.yaml")
    assert isinstance(suite, PromptfooSuite)
    assert suite.validate(require_target=True) > 0


def test_matrix_ids_and_metadata(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AGENTUNIT_PROMPTFOO_PROVIDERS")
    suite = load_suite(DATA / "getting-started" / "promptfooconfig.yaml")
    cases = list(suite.iter_cases())
    assert len(cases) == 2 * 2 * 2
    assert cases[0].id == "test 1 [prompt 1] [openai:gpt-4.1]"
    assert cases[0].metadata == {"prompt_label": "prompt 1", "provider": "openai:gpt-4.1"}
    assert cases[0].query == "Convert this English to French: Hello world"
    assert len({c.id for c in cases}) == len(cases)


def test_csv_expected_metadata_and_config() -> None:
    suite = load_suite(DATA / "config-csv-metadata" / "promptfooconfig.yaml")
    first = next(iter(suite.iter_cases()))
    assert first.metadata["tags"] == ["ai", "data science", "algorithms"]
    assert [(m.info.name, m.threshold) for m in first.metrics] == [("contains", 0.9), ("llm-rubric", 0.8)]
    assert "__expected1" not in first.vars and first.vars == {"topic": "machine learning"}


def test_nunjucks_load_filter_and_prompt_file_split() -> None:
    cases = list(load_suite(DATA / "simple-csv" / "promptfooconfig.yaml").iter_cases())
    assert len(cases) == 8
    assert "- Tone: formal" in cases[0].query


@pytest.mark.parametrize("name", DETERMINISTIC)
def test_example_runs_against_echo(name: str, tmp_path: Path) -> None:
    statuses = _run(load_suite(DATA / name / "promptfooconfig.yaml"), tmp_path)
    assert statuses and "errored" not in statuses.values()


def test_echo_verdicts(tmp_path: Path) -> None:
    statuses = _run(load_suite(DATA / "echo-equals" / "promptfooconfig.yaml"), tmp_path)
    assert statuses == {"exact": "passed", "negated": "passed", "threshold override": "passed",
                        "fails": "failed"}


def test_javascript_is_a_located_error() -> None:
    suite = load_suite(DATA / "named-metrics" / "promptfooconfig.yaml")
    with pytest.raises(SuiteError) as info:
        suite.validate()
    problem = info.value.problems[0]
    assert problem.line == 29 and problem.field == "tests[1].assert[0].type"
    assert "JavaScript" in problem.message and "python" in (problem.suggestion or "")


def test_unknown_provider_is_a_located_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AGENTUNIT_PROMPTFOO_PROVIDERS")
    config = tmp_path / "promptfooconfig.yaml"
    config.write_text("prompts: ['{{q}}']\nproviders:\n  - anthropic:messages:claude\ntests:\n  - vars: {q: hi}\n")
    with pytest.raises(SuiteError) as info:
        load_suite(config).validate()
    assert info.value.problems[0].line == 3
    assert "OPENAI_BASE_URL" in (info.value.problems[0].suggestion or "")


def test_cli_run_exit_codes(tmp_path: Path) -> None:
    runner = CliRunner()
    ok = runner.invoke(app, ["run", str(DATA / "echo-equals" / "promptfooconfig.yaml"), "-q", "--db",
                             str(tmp_path / "a.db")])
    assert ok.exit_code == 1  # one case fails on purpose
    bad = runner.invoke(app, ["run", str(DATA / "named-metrics" / "promptfooconfig.yaml"), "-q", "--db",
                              str(tmp_path / "b.db")])
    assert bad.exit_code == 2 and "Traceback" not in bad.output


@pytest.mark.parametrize("name", ["echo-equals", "simple-csv", "assert-set"])
def test_import_round_trip_same_verdicts(name: str, tmp_path: Path) -> None:
    work = tmp_path / name
    shutil.copytree(DATA / name, work)
    out = tmp_path / "suite.yaml"
    result = CliRunner().invoke(app, ["import", "promptfoo", str(work / "promptfooconfig.yaml"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    native = load_suite(out)
    assert not isinstance(native, PromptfooSuite)
    native.target = {"type": "echo"}
    assert _run(native, tmp_path / "n") == _run(load_suite(work / "promptfooconfig.yaml"), tmp_path / "p")


def test_detection() -> None:
    assert is_promptfoo_config({"prompts": ["x"], "providers": ["echo"]})
    assert not is_promptfoo_config({"target": "echo", "tests": [{"prompt": "x"}]})
    assert not is_promptfoo_config({"prompts": ["x"], "cases": []})


@pytest.mark.parametrize(("cell", "expected"), [
    ("icontains:bonjour", {"type": "icontains", "value": "bonjour"}),
    ("contains: algorithm", {"type": "contains", "value": "algorithm"}),
    ("not-contains:x", {"type": "not-contains", "value": "x"}),
    ("similar(0.7):hello", {"type": "similar", "value": "hello", "threshold": 0.7}),
    ("grade:is polite", {"type": "llm-rubric", "value": "is polite"}),
    ("python:len(output) > 3", {"type": "python", "value": "len(output) > 3"}),
    ("is-json", {"type": "is-json"}),
    ("Paris", {"type": "equals", "value": "Paris"}),
    ("javascript:output.length > 1", {"type": "javascript", "value": "output.length > 1"}),
    # the longest known type wins, as in promptfoo's pattern (its types are tried longest first)
    ("similar:cosine(0.8): x", {"type": "similar:cosine", "value": "x", "threshold": 0.8}),
    ("not-similar:euclidean(2):far away", {"type": "not-similar:euclidean", "value": "far away", "threshold": 2.0}),
    ("similar:dot:hi", {"type": "similar:dot", "value": "hi"}),
    ("similar:hello", {"type": "similar", "value": "hello"}),
    ("similar:cosinus(0.8):x", {"type": "similar", "value": "cosinus(0.8):x"}),
    ("contains:a:b", {"type": "contains", "value": "a:b"}),
    ("contains(0.5)", {"type": "contains", "threshold": 0.5}),
    ("Time: 10:30", {"type": "equals", "value": "Time: 10:30"}),
])
def test_expected_cells(cell: str, expected: dict) -> None:
    assert assertion_from_string(cell) == expected


def test_value_splitting_like_promptfoo() -> None:  # the full table: test_conformance.py
    assert split_values('a, "b, c", d') == ["a", "b, c", "d"]
    assert split_values('"say ""hi""", x') == ['say "hi"', "x"]
    assert split_values("a,,b, ") == ["a", "b"]


@pytest.mark.parametrize(("transform", "path"), [("json.choices[0].message.content", "$.choices[0].message.content"),
                                                 ("json.output", "$.output"), ("json", "$"),
                                                 ("(json) => json.output", None), ("file://t.js", None)])
def test_transform_response_paths(transform: str, path: str | None) -> None:
    assert response_path(transform) == path


def test_the_python_api_runs_a_config_with_several_providers(tmp_path, monkeypatch):
    import agentunit

    monkeypatch.delenv("AGENTUNIT_PROMPTFOO_PROVIDERS")  # keep both providers: the matrix target

    config = tmp_path / "promptfooconfig.yaml"
    config.write_text("prompts: ['{{q}}', 'Q: {{q}}']\nproviders: [echo, {id: echo, label: second}]\n"
                      "tests:\n  - description: hi\n    vars: {q: hello}\n"
                      "    assert: [{type: icontains, value: hello}]\n")
    result = agentunit.evaluate(str(config), db=str(tmp_path / "r.db"))
    assert result.summary["cases"] == 4 and result.passed


def test_python_assert_example_runs_with_promptfoos_verdicts(tmp_path: Path) -> None:
    suite = load_suite(DATA / "python-assert" / "promptfooconfig-inline.yaml")
    assert isinstance(suite, PromptfooSuite)
    assert _run(suite, tmp_path) == {"test 1": "passed", "test 2": "failed"}


def test_provider_tools_reach_the_tool_call_check_even_under_the_echo_override(tmp_path: Path) -> None:
    config = tmp_path / "promptfooconfig.yaml"
    import json

    import yaml

    call = {"name": "get_weather", "arguments": json.dumps({"city": "Oslo"})}
    config.write_text(yaml.safe_dump({
        "prompts": ["{{q}}"],
        "providers": [{"id": "openai:chat:gpt-4.1-mini", "config": {"functions": [
            {"name": "get_weather", "parameters": {"type": "object", "required": ["city"]}}]}}],
        "tests": [{"description": "valid", "vars": {"q": json.dumps(call)},
                   "assert": [{"type": "is-valid-openai-function-call"}]},
                  {"description": "invalid", "vars": {"q": json.dumps({**call, "arguments": "{}"})},
                   "assert": [{"type": "is-valid-openai-function-call"}]}]}))
    assert _run(load_suite(config), tmp_path / "run") == {"valid": "passed", "invalid": "failed"}


@pytest.mark.parametrize(("kind", "line", "words"), [("select-best", 5, "several prompts or providers"),
                                                     ("max-score", 5, "several prompts or providers"),
                                                     ("classifier", 6, "moderation")])
def test_cross_output_and_model_types_are_explained_errors(tmp_path: Path, kind: str, line: int, words: str) -> None:
    """A comparison over a test with one output, a classifier without its model: located errors."""
    config = tmp_path / "promptfooconfig.yaml"
    config.write_text(f"prompts: ['{{{{q}}}}']\nproviders: [echo]\ntests:\n  - vars: {{q: hi}}\n"
                      f"    assert:\n      - type: {kind}\n        value: x\n")
    with pytest.raises(SuiteError) as info:
        load_suite(config).validate()
    problem = info.value.problems[0]
    assert problem.line == line and words in (problem.suggestion or "")


def test_new_types_run_from_a_config(tmp_path: Path) -> None:
    config = tmp_path / "promptfooconfig.yaml"
    config.write_text(
        "prompts: ['{{q}}']\nproviders: [echo]\ntests:\n"
        "  - description: refusal\n    vars: {q: \"I'm sorry, but I can't help with that.\"}\n"
        "    assert: [{type: is-refusal},\n"
        "             {type: meteor, value: \"I'm sorry, but I can't help with that.\", alpha: 0.8}]\n"
        "  - description: no tools\n    vars: {q: hello}\n"
        "    assert: [{type: not-trajectory:tool-used, value: [delete_account]}]\n")
    assert _run(load_suite(config), tmp_path / "run") == {"refusal": "passed", "no tools": "passed"}
