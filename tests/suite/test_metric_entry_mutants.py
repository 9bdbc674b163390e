"""Where a metric entry's problems are reported in a suite file: an unknown field and an entry without a
metric name, each with its file, line, key path and suggestion (mutation testing found these unpinned)."""

import pytest

from agentunit.errors import SuiteError
from agentunit.suite import load_suite, suite_from_dict
from tests.suite.test_loader import _problems, _write

_ALLOWED = ("assert, config, expected_output, expected_pass, label, metric, metrics, threshold, type, "
            "value, weight")


def test_metric_entry_problems_name_the_file_line_field_and_fix(tmp_path):
    path = _write(tmp_path, "s.yaml", """
        name: s
        target: echo
        cases:
          - prompt: hi
            metrics:
              - {metric: contains, value: hi, bogus: 1}
              - {value: hi}
        """)
    assert _problems(path) == [
        f"{path}:6: cases[0].metrics[0].bogus: unknown metric field 'bogus' — allowed: {_ALLOWED}",
        f"{path}:7: cases[0].metrics[1]: metric entry needs a 'metric' name — write {{metric: contains, value: ...}}"]


def test_in_a_cases_file_they_name_that_file(tmp_path):
    cases = _write(tmp_path, "cases.yaml", """
        - prompt: hi
          metrics:
            - {metric: contains, value: hi, bogus: 1}
            - {value: hi}
        """)
    suite = _write(tmp_path, "s.yaml", "name: s\ntarget: echo\ncases_file: cases.yaml\n")
    assert _problems(suite) == [
        f"{cases}:3: [0].metrics[0].bogus: unknown metric field 'bogus' — allowed: {_ALLOWED}",
        f"{cases}:4: [0].metrics[1]: metric entry needs a 'metric' name — write {{metric: contains, value: ...}}"]


def test_every_kind_of_bad_entry_in_a_cases_file_and_the_misspelling_warning(tmp_path):
    """Values unique to this test: entries seen before are memoised, and these must be read afresh."""
    cases = _write(tmp_path, "cases.yaml", """
        - prompt: hi
          metrics:
            - 5
            - {metric: zzqqxxww}
            - {metric: contains-a, value: uniq-entry-c}
            - {type: contains, metric: 5, value: uniq-entry-d}
            - {metric: contains, value: uniq-entry-e, weight: heavy}
            - {metric: contains, expcted_output: uniq-entry-f}
        """)
    suite = _write(tmp_path, "s.yaml", "name: s\ntarget: echo\ncases_file: cases.yaml\n")
    assert _problems(suite) == [
        f"{cases}:3: [0].metrics[0]: a metric must be a name or an object, got int",
        f"{cases}:4: [0].metrics[1].metric: unknown metric 'zzqqxxww' — run `agentunit metrics` to list every metric",
        f"{cases}:5: [0].metrics[2].metric: unknown metric 'contains-a' — did you mean 'contains-any', "
        "'contains-all', 'contains'?",
        f"{cases}:6: [0].metrics[3].metric: metric (the label, when `type:` names the metric) must be text, got 5",
        f"{cases}:7: [0].metrics[4].weight: weight must be a finite number ≥ 0, got 'heavy'"]
    loaded = load_suite(suite)
    with pytest.raises(SuiteError):
        loaded.validate()
    assert loaded.problems.warning_texts() == [
        f"warning: {cases}:8: [0].metrics[5].expcted_output: 'expcted_output' read as 'expected_output' — spell it "
        "'expected_output'"]


def test_expected_output_is_a_metrics_value_and_the_weight_defaults_to_one(tmp_path):
    _write(tmp_path, "ok.yaml", "- {prompt: hi, metrics: [{metric: contains, expected_output: uniq-entry-g}]}\n")
    suite = load_suite(_write(tmp_path, "s.yaml", "name: s\ntarget: echo\ncases_file: ok.yaml\n"))
    suite.validate()
    metric = next(suite.iter_cases()).metrics[0]
    assert (type(metric).__name__, metric.value, metric.weight, metric.threshold) == \
        ("Contains", "uniq-entry-g", 1.0, None)


def test_a_case_metric_replaces_the_suites_same_metric_whatever_name_and_not_its_negation():
    suite = suite_from_dict({"target": "echo", "metrics": [{"metric": "faithfulness", "threshold": 0.2},
                                                           {"metric": "contains", "value": "uniq-suite-1"}],
                             "cases": [{"prompt": "p", "context": "c", "metrics": [
                                 {"metric": "context-faithfulness", "weight": 0},
                                 {"metric": "not-contains", "value": "uniq-case-1"}]}]})
    suite.validate()
    metrics = next(suite.iter_cases()).metrics
    assert [(m.info.name, m.negate, getattr(m, "value", None), m.weight, m.threshold) for m in metrics] == [
        ("contains", False, "uniq-suite-1", 1.0, None), ("context-faithfulness", False, None, 0.0, 0.65),
        ("contains", True, "uniq-case-1", 1.0, None)]


def test_entries_with_list_or_object_values_are_told_apart():
    suite = suite_from_dict({"target": "echo", "cases": [
        {"prompt": "p", "metrics": [{"metric": "contains-any", "value": ["uniq-list-1"]}]},
        {"prompt": "p", "metrics": [{"metric": "contains-any", "value": ["uniq-list-2"]}]}]})
    suite.validate()
    assert [case.metrics[0].value for case in suite.iter_cases()] == [["uniq-list-1"], ["uniq-list-2"]]


def test_a_case_without_a_prompt_and_prompts_that_are_not_text():
    with pytest.raises(SuiteError) as raised:
        suite_from_dict({"target": "echo", "cases": [{"vars": {"a": 1}}]}).validate()
    assert [str(p) for p in raised.value.problems] == [
        "<suite>: cases[0]: case has no prompt — add `prompt:`, or a suite-level `prompt:` template with `vars:`"]
    suite = suite_from_dict({"target": "echo", "cases": [{"prompt": {"q": "uniq-é", "n": [1, 2]}}, {"prompt": 42},
                                                         {"prompt": ["a", "b"]}]})
    suite.validate()
    assert [case.query for case in suite.iter_cases()] == ['{"q": "uniq-é", "n": [1, 2]}', "42", '["a", "b"]']


def test_metrics_given_as_one_name_or_not_a_list():
    suite = suite_from_dict({"target": "echo", "cases": [{"prompt": "p", "expected_output": "uniq-one-name",
                                                          "metrics": "contains"}]})
    suite.validate()
    case = next(suite.iter_cases())
    assert [type(m).__name__ for m in case.metrics] == ["Contains"] and case.expected_output == "uniq-one-name"
    with pytest.raises(SuiteError) as raised:
        suite_from_dict({"target": "echo", "cases": [{"prompt": "p", "metrics": 5}]}).validate()
    assert [str(p) for p in raised.value.problems] == ["<suite>: cases[0].metrics: metrics must be a list, got 5"]
