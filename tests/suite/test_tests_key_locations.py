"""A native suite's cases under promptfoo's `tests:` key: problems name `tests[i]` and its line, as
they do under `cases:`; `tests: file://x.csv` says how to read cases from a file."""

import pytest

from agentunit.errors import SuiteError
from agentunit.suite.loader import load_suite

BODY = """target: {type: echo}
KEY:
  - prompt: hi
    assert:
      - type: contains
        value: hi
  - prompt: bye
    assert:
      - type: contians
        value: bye
"""


def _problems(path):
    with pytest.raises(SuiteError) as caught:
        suite = load_suite(path)
        suite.validate(require_target=True)
    return [str(p) for p in caught.value.problems]


@pytest.mark.parametrize("key", ["cases", "tests"])
def test_a_problem_in_a_case_names_the_key_and_line_written(key, tmp_path):
    path = tmp_path / "suite.yaml"
    path.write_text(BODY.replace("KEY", key))
    assert _problems(path) == [
        f"{path}:9: {key}[1].assert[0].type: unknown metric 'contians' — did you mean 'contains'?"]


def test_a_case_field_problem_under_tests_points_at_its_line(tmp_path):
    path = tmp_path / "suite.yaml"
    path.write_text("target: {type: echo}\ntests:\n  - prompt: hi\n    threshold: 7\n    metrics: [is-json]\n")
    (problem,) = _problems(path)
    assert problem.startswith(f"{path}:4: tests[0].threshold:")


@pytest.mark.parametrize("key", ["cases", "tests"])
def test_cases_given_as_a_file_reference_say_how_to_read_a_file(key, tmp_path):
    path = tmp_path / "suite.yaml"
    path.write_text(f"target: {{type: echo}}\n{key}: file://more.csv\n")
    assert _problems(path) == [f"{path}:2: {key}: {key} must be a list of cases, got 'file://more.csv' — cases "
                               "from a file: `cases_file: more.csv` (.jsonl, .csv, .json, .yaml)"]


def test_a_json_suite_with_tests_is_located_too(tmp_path):
    path = tmp_path / "suite.json"
    path.write_text('{"target": {"type": "echo"},\n "tests": [\n  {"prompt": "a",\n   "metrics": ["nope-metric"]}]}\n')
    (problem,) = _problems(path)
    assert problem.startswith(f"{path}:4: tests[0].metrics[0]")
