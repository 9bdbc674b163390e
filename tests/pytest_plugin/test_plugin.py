"""The pytest plugin, run inside pytest with ``pytester``: suite files as items, failure messages,
unmeasured cases, repeats, the ini pattern, suite errors, fixtures, assert_passes/parametrize, xdist."""

from __future__ import annotations

import importlib.util

import pytest
import yaml  # noqa: F401  (imported once here: pytester's in-process runs must not re-import its C loader)

import agentunit.suite.loader  # noqa: F401

pytest_plugins = ["pytester"]

SUITE = """
name: greetings
target: echo
cases:
  - id: says-hello
    prompt: hello world
    metrics: [{metric: contains, value: hello}]
  - id: says-bye
    prompt: hello world
    metrics: [{metric: contains, value: bye}, {metric: equals, value: hello world}]
  - id: nothing-measured
    prompt: hello
    metrics: [tool-correctness]
"""


def test_each_case_is_an_item_and_failures_name_the_metric(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", agentunit_greetings=SUITE)
    result = pytester.runpytest("-v")
    result.assert_outcomes(passed=1, failed=2)
    result.stdout.fnmatch_lines([
        "*agentunit_greetings.yaml::says-hello PASSED*",
        "*agentunit_greetings.yaml::says-bye FAILED*",
        "*agentunit_greetings.yaml::nothing-measured FAILED*",
    ])
    out = result.stdout.str()
    assert "agentunit case 'says-bye' failed" in out
    assert "contains: failed, value 0 — 'bye' not found in output" in out
    assert "equals" not in out.split("says-bye' failed")[1].split("output:")[0]  # a passed metric is not listed
    assert "agentunit case 'nothing-measured' unmeasured" in out
    assert "tool-correctness: not measured" in out
    assert "Traceback" not in out and "engine.py" not in out


def test_unmeasured_is_allowed_by_the_option_or_the_suite(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", agentunit_greetings=SUITE)
    pytester.runpytest("--agentunit-allow-unmeasured").assert_outcomes(passed=2, failed=1)
    pytester.makeini("[pytest]\nagentunit_allow_unmeasured = true\n")
    pytester.runpytest().assert_outcomes(passed=2, failed=1)


def test_repeats_are_items(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", agentunit_rep="""
target: echo
options: {repeat: 3}
cases:
  - {id: a, prompt: hi, metrics: [{metric: contains, value: hi}]}
""")
    result = pytester.runpytest("-v")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["*::a?repeat 1? PASSED*", "*::a?repeat 3? PASSED*"])


def test_the_file_pattern_is_an_ini_option(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", evals_greetings=SUITE, agentunit_other=SUITE)
    pytester.makepyprojecttoml('[tool.pytest.ini_options]\nagentunit_files = ["evals_*.yaml"]\n')
    result = pytester.runpytest("-v")
    result.assert_outcomes(passed=1, failed=2)
    assert "evals_greetings.yaml::says-hello" in result.stdout.str()
    assert "agentunit_other" not in result.stdout.str()


def test_a_broken_suite_is_a_collection_error_naming_file_and_line(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", agentunit_broken="""
target: echo
cases:
  - id: x
    prompt: hi
    metrics: [{metric: containz, value: hi}]
""")
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    out = result.stdout.str()
    assert "agentunit suite agentunit_broken.yaml cannot be used" in out
    assert "agentunit_broken.yaml:5: cases[0].metrics[0].metric: unknown metric 'containz'" in out
    assert "Traceback" not in out


def test_a_target_that_raises_errors_the_case(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(agent_app="def answer(prompt):\n    raise RuntimeError('backend down')\n")
    pytester.makefile(".yaml", agentunit_app="""
target: {type: python, function: "agent_app:answer"}
cases:
  - {id: q1, prompt: hi, metrics: [{metric: contains, value: hi}]}
""")
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    assert "agentunit case 'q1' errored: RuntimeError: backend down" in result.stdout.str()


def test_python_tests_with_parametrize_assert_passes_and_fixtures(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", cases=SUITE)  # not agentunit_*: only the Python test reads it
    pytester.makepyfile(test_app="""
import agentunit
from agentunit.store.sqlite import Store

@agentunit.parametrize("cases.yaml")
def test_case(case):
    agentunit.assert_passes(case.query, case=case)

def test_direct():
    agentunit.assert_passes("Paris is the capital", ["contains"], expected_output="Paris")

def test_fixtures(agentunit_judge, agentunit_store):
    assert isinstance(agentunit_store, Store)
    assert agentunit_judge.provider.describe()["provider"] == "local"
""")
    result = pytester.runpytest("-v")
    result.assert_outcomes(passed=3, failed=2)
    result.stdout.fnmatch_lines(["*test_case?says-hello? PASSED*", "*test_case?says-bye? FAILED*",
                                 "*test_case?nothing-measured? FAILED*"])
    out = result.stdout.str()
    assert "AssertionError: 1 of 2 metric(s) did not pass" in out
    assert "contains: failed, value 0 — 'bye' not found in output" in out
    assert "tool-correctness: not measured" in out


@pytest.mark.skipif(importlib.util.find_spec("xdist") is None, reason="pytest-xdist is not installed")
def test_xdist_runs_the_items_on_workers(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", agentunit_greetings=SUITE, agentunit_more="""
target: echo
cases:
""" + "".join(f"  - {{id: c{i}, prompt: hi {i}, metrics: [{{metric: contains, value: 'hi {i}'}}]}}\n"
              for i in range(6)))
    db = pytester.path / "results.db"
    result = pytester.runpytest_subprocess("-n", "2", "-p", "xdist", f"--agentunit-db={db}")
    result.assert_outcomes(passed=7, failed=2)
    assert sorted(p.name for p in pytester.path.glob("results-gw*.db")) == ["results-gw0.db", "results-gw1.db"]


def test_a_suite_of_recorded_traces_runs_as_tests(pytester: pytest.Pytester) -> None:
    import functools

    from tests.traces.recorders import genai_travel_agent, record, write_otlp

    (pytester.path / "traces").mkdir()
    runs = (("in-order", ("search_flights", "book_flight")), ("reversed", ("book_flight", "search_flights")))
    for case, tools in runs:
        write_otlp(record(functools.partial(genai_travel_agent, case=case, tools=tools)),
                   pytester.path / "traces" / f"{case}.json")
    pytester.makefile(".yaml", agentunit_recorded="""
target: {type: traces, path: "traces/*.json", case_id_attribute: app.case_id}
defaults: {expected_tools: [search_flights, book_flight]}
metrics: [{metric: tool-correctness, config: {mode: exact}}]
""")
    result = pytester.runpytest("-v")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*::in-order PASSED*", "*::reversed FAILED*", "*tool-correctness: failed, value 0*"])
