"""The problems of a suite's ``options:``, ``defaults:`` and ``cases_file:`` sections, of ``target``/``targets``
and ``prompt``/``prompts`` given together, and a target's ``transform`` kept apart from its config (mutation
testing found these unpinned)."""

import pytest

from agentunit.errors import SuiteError
from agentunit.suite import suite_from_dict
from tests.suite.test_loader import _problems as _file_problems
from tests.suite.test_loader import _write

_CASES = [{"prompt": "p"}]
_CASE_KEYS = ("assert, audio, context, conversation, description, expected_output, expected_pass, "
              "expected_tools, image, images, input, metadata, metrics, output, plan, prompt, query, role, rules, "
              "threshold, tools, transform, value, vars, video")


def _problems(data):
    with pytest.raises(SuiteError) as raised:
        suite_from_dict(data).validate()
    return [str(p) for p in raised.value.problems]


@pytest.mark.parametrize(("section", "problems"), [
    ({"options": [1]}, ["<suite>: options: options must be an object, got a list"]),
    ({"options": None}, ["<suite>: options: options must be an object, got nothing"]),
    ({"options": {"repeat": 1, "bogusopt": 1}},
     ["<suite>: options.bogusopt: unknown options field 'bogusopt' — allowed: allow_paths, allow_unmeasured, cache, "
      "concurrency, media_max_bytes, media_timeout, repeat, timeout"]),
    ({"defaults": [1]}, ["<suite>: defaults: defaults must be an object, got a list"]),
    ({"defaults": {"id": "x", "bogusdef": 1, "expected_pass": True}},
     ["<suite>: defaults.expected_pass: expected_pass is a human verdict on one case: it cannot be a default — put "
      "`expected_pass:` on each case, or use --labels FILE",
      f"<suite>: defaults.id: unknown defaults field 'id' — allowed: {_CASE_KEYS}",
      f"<suite>: defaults.bogusdef: unknown defaults field 'bogusdef' — allowed: {_CASE_KEYS}"]),
    ({"targets": [{"type": "echo"}]},
     ["<suite>: targets: a suite takes `target:` or `targets:`, not both — move the `target:` into the `targets:` "
      "list"]),
    ({"prompt": "x", "prompts": ["a"]},
     ["<suite>: prompts: a suite takes `prompt:` or `prompts:`, not both — move the `prompt:` into the `prompts:` "
      "list"]),
])
def test_each_section_mistake_has_its_problem(section, problems):
    assert _problems({"target": "echo", **section, "cases": _CASES}) == problems


def test_a_bad_default_keeps_only_the_default_metrics_and_is_located_in_the_suite_file(tmp_path):
    path = _write(tmp_path, "s.yaml", """
        target: echo
        defaults: {threshold: x, metrics: [{metric: contains, value: uniq-default-1}]}
        cases: [{prompt: p}]
        """)
    assert _file_problems(path) == [f"{path}:2: defaults.threshold: threshold must be a finite number ≥ 0 and ≤ 1, "
                                    "got 'x'"]
    suite = suite_from_dict({"target": "echo", "defaults": {"threshold": "x", "metrics": ["contains"]},
                             "cases": _CASES})
    assert suite.defaults == {"metrics": ["contains"]}


def test_cases_file_entries_that_cannot_be_used_are_each_reported(tmp_path):
    path = _write(tmp_path, "s.yaml", "target: echo\ncases_file: [5, '  ', missing.yaml]\n")
    assert _file_problems(path) == [
        f"{path}:2: cases_file[0]: cases_file must be a path or a list of paths, got 5",
        f"{path}:2: cases_file[1]: cases_file must be a path or a list of paths, got '  '",
        f"{path}:2: cases_file[2]: cases file 'missing.yaml' not found (looked in {tmp_path})",
        f"{path}:1: the suite has no cases — add `cases:` or `cases_file:`"]
    single = _write(tmp_path, "t.yaml", "target: echo\ncases_file: ''\n")
    assert _file_problems(single) == [f"{single}:2: cases_file: cases_file must be a path or a list of paths, got ''",
                                      f"{single}:1: the suite has no cases — add `cases:` or `cases_file:`"]


def test_a_targets_transform_is_kept_apart_from_its_config():
    suite = suite_from_dict({"target": {"type": "echo", "transform": "output.upper()"}, "cases": _CASES})
    assert suite.validate() == 1 and suite.target == {"type": "echo"} and suite.target_transform is not None


def test_only_a_suite_with_a_traces_target_may_have_no_cases(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a suite given as data reads its files from the working directory
    assert _problems({"target": "echo"}) == ["<suite>: the suite has no cases — add `cases:` or `cases_file:`"]
    assert _problems({"target": {"type": "traces", "path": "x.json"}}) == [
        f"<suite>: target.path: traces path 'x.json' matches no file (looked in {tmp_path})"]


def test_metric_entries_that_take_no_children_or_no_value():
    def case_with(entry):
        return {"target": "echo", "cases": [{"prompt": "p", "metrics": [entry]}]}

    assert _problems(case_with({"metric": "contains", "value": "uniq-as-1", "metrics": ["equals"]})) == [
        "<suite>: cases[0].metrics[0].metrics: only assert-set takes `metrics:`"]
    assert _problems(case_with({"metric": "latency", "value": 2500})) == [
        "<suite>: cases[0].metrics[0].value: metric 'latency' takes no value — did you mean threshold: 2500?"]


def test_every_cases_file_that_is_missing_is_reported_with_its_name_cut_at_80_characters(tmp_path):
    (tmp_path / "adir").mkdir()
    long = "l" * 90 + ".yaml"
    path = _write(tmp_path, "s.yaml", f"target: echo\ncases_file: [missing.yaml, adir, {long}, "
                                      f"{tmp_path / 'abs-missing.yaml'}]\n")
    assert _file_problems(path) == [
        f"{path}:2: cases_file[0]: cases file 'missing.yaml' not found (looked in {tmp_path})",
        f"{path}:2: cases_file[1]: cases file 'adir' cannot be used: {tmp_path / 'adir'} is not a regular file "
        "(a folder) — name a regular file",
        f"{path}:2: cases_file[2]: cases file {'l' * 80!r} not found (looked in {tmp_path})",
        f"{path}:2: cases_file[3]: cases file {str(tmp_path / 'abs-missing.yaml')!r} not found (looked in {tmp_path})",
        f"{path}:1: the suite has no cases — add `cases:` or `cases_file:`"]
