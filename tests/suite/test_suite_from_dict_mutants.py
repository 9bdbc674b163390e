"""What ``suite_from_dict`` reads from a suite's top level: the message for a suite that is not an object, the
name (given, else the file's stem, else ``suite``), description, prompt template, whether a target is
declared, and where the defaults' media and metric problems are reported (mutation testing found these
unpinned)."""

import pytest

from agentunit.errors import SuiteError
from agentunit.suite import load_suite, suite_from_dict
from tests.suite.test_loader import _problems, _write


def test_a_suite_that_is_not_an_object_is_refused_where_it_is():
    with pytest.raises(SuiteError) as raised:
        suite_from_dict([1, 2])
    (problem,) = raised.value.problems
    assert (str(problem), problem.file, problem.line) == \
        ("<suite>: a suite must be an object with `cases`, got a list", None, None)


def test_a_suite_file_that_is_a_list_is_refused_at_its_first_line(tmp_path):
    path = _write(tmp_path, "top.yaml", "- a\n- b\n")
    with pytest.raises(SuiteError) as raised:
        load_suite(path)
    assert [str(p) for p in raised.value.problems] == [f"{path}:1: a suite must be an object with `cases`, got a list"]


def test_the_top_level_fields_a_suite_keeps():
    suite = suite_from_dict({"name": "uniq-suite-name", "description": "uniq-desc", "target": "echo",
                             "prompt": "Q: {{ q }}", "cases": [{"vars": {"q": "x"}}]})
    assert (suite.name, suite.description, suite.target_declared, suite.prompt) == \
        ("uniq-suite-name", "uniq-desc", True, "Q: {{ q }}")
    bare = suite_from_dict({"cases": [{"output": "o"}]})
    assert (bare.name, bare.description, bare.target_declared, bare.prompt) == ("suite", None, False, None)
    assert suite_from_dict({"targets": [{"type": "echo"}], "cases": [{"prompt": "p"}]}).target_declared is True


def test_a_suite_file_without_a_name_is_named_after_the_file(tmp_path):
    suite = load_suite(_write(tmp_path, "named-by-file.yaml", "target: echo\ndescription: d2\ncases: [{prompt: p}]\n"))
    assert (suite.name, suite.description) == ("named-by-file", "d2")


def test_the_defaults_media_and_metric_problems_name_the_suite_file(tmp_path):
    path = _write(tmp_path, "m.yaml", """
        target: echo
        defaults:
          image: nope-uniq.png
          metrics: [{metric: contains, value: uniq-def, bogus2: 1}]
        cases: [{prompt: p}]
        """)
    assert _problems(path) == [
        f"{path}:3: defaults.image: nope-uniq.png: file not found (looked for {tmp_path / 'nope-uniq.png'}) — check "
        "the path; a relative path is relative to the suite file's folder or the working directory",
        f"{path}:4: defaults.metrics[0].bogus2: unknown metric field 'bogus2' — allowed: assert, config, "
        "expected_output, expected_pass, label, metric, metrics, threshold, type, value, weight"]
