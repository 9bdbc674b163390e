"""What mutation testing found unpinned in ``agentunit.suite.cases`` (docs/testing.md, "Mutation testing").

Where each problem is reported (the cases file and its line, or the suite file), what an assert-set and a
CSV ``__expected`` cell build, how a case's transform is found, compiled once and located, and that a
metric entry with an error is reported every time it is written (it used to be memoised after the first).
"""

from __future__ import annotations

import json

import pytest

from agentunit.errors import SuiteError
from agentunit.suite import load_suite
from agentunit.suite.cases import Where, build_case, expected_cell_entry, threshold_defaulted
from agentunit.suite.loader import suite_from_dict
from agentunit.suite.problems import Problems
from tests.suite.test_loader import _problems, _write


def _dict_problems(data):
    with pytest.raises(SuiteError) as info:
        suite_from_dict(data).validate()
    return [str(p) for p in info.value.problems]


def test_the_accepted_misspelling_of_expected_output_is_never_suggested():
    # `expcted_output` is accepted (a published misspelling) but must not be taught to users
    case_problems = _dict_problems({"target": "echo", "cases": [{"prompt": "hi", "expected_outptu": "x"}]})
    assert case_problems == ["<suite>: cases[0].expected_outptu: unknown case field 'expected_outptu' — "
                             "did you mean 'expected_output'?"]
    metric_problems = _dict_problems({"target": "echo", "cases": [{"prompt": "hi", "metrics": [
        {"metric": "equals", "value": "x", "expcted_outptu": "x"}]}]})
    assert metric_problems == ["<suite>: cases[0].metrics[0].expcted_outptu: unknown metric field 'expcted_outptu' "
                               "— did you mean 'expected_output'?"]
    listed = _dict_problems({"target": "echo", "cases": [{"prompt": "hi", "zzzz": 1}]})
    assert "expected_output" in listed[0] and "expcted_output" not in listed[0]


# -- a metric entry with an error is reported wherever it is written ----------------------------------------


def test_an_entry_with_an_unknown_field_is_reported_each_time_it_is_written():
    data = {"target": "echo", "metrics": [{"metric": "contains", "value": "x", "bogus_field": 1}],
            "cases": [{"prompt": "hi"}]}
    expected = ["<suite>: metrics[0].bogus_field: unknown metric field 'bogus_field' — allowed: assert, config, "
                "expected_output, expected_pass, label, metric, metrics, threshold, type, value, weight"]
    for _ in range(3):  # the same suite loaded again in one process (the pytest plugin, watch mode, the API)
        assert _dict_problems(data) == expected
    cases = [{"prompt": "hi", "metrics": [{"metric": "contains", "value": "y", "bogus_field": 2}]} for _ in range(3)]
    problems = _dict_problems({"target": "echo", "cases": cases})
    assert [p.split(":")[1] for p in problems] == [" cases[0].metrics[0].bogus_field",
                                                   " cases[1].metrics[0].bogus_field",
                                                   " cases[2].metrics[0].bogus_field"]


# -- field shapes ------------------------------------------------------------------------------------------


def test_expected_tools_take_names_or_name_objects():
    suite = suite_from_dict({"target": "echo", "cases": [
        {"prompt": "hi", "expected_tools": ["search", {"name": "lookup", "arguments": {"q": 1}}]}]})
    (case,) = suite.iter_cases()
    assert case.expected_tools == ["search", {"name": "lookup", "arguments": {"q": 1}}]
    assert _dict_problems({"target": "echo", "cases": [{"prompt": "hi", "expected_tools": ["ok", {"name": 3}]}]}) \
        == ["<suite>: cases[0].expected_tools: expected_tools item 1 must be a tool name or {name, arguments}, "
            "got an object"]


def test_media_fields_name_themselves_in_their_problems():
    problems = _dict_problems({"target": "echo", "cases": [{"prompt": "hi", "image": 5, "images": ["a.png", 5]}]})
    assert problems == [
        "<suite>: cases[0].image: image must be a media reference (a path, URL, data: URI or {base64, mime}), got int",
        "<suite>: cases[0].images: images item 1 must be a media reference (a path, URL, data: URI or {base64, "
        "mime}), got int"]


def test_an_unhashable_metric_is_never_threshold_defaulted():
    class Unhashable:
        __hash__ = None

    assert threshold_defaulted(Unhashable()) is False


# -- human verdicts: located in the cases file they were written in ----------------------------------------


def test_verdict_problems_in_a_cases_file_name_its_file_and_line(tmp_path):
    rows = [{"id": "b", "output": "ok", "metrics": [
                {"metric": "assert-set", "assert": [{"metric": "llm-rubric", "value": "p", "expected_pass": True}]}]},
            {"id": "a", "output": "ok", "metrics": [{"metric": "contains", "value": "ok", "expected_pass": True}]}]
    _write(tmp_path, "c.jsonl", "".join(json.dumps(r) + "\n" for r in rows))
    path = _write(tmp_path, "s.yaml", "target: echo\ncases_file: c.jsonl\n")
    cases = tmp_path / "c.jsonl"
    assert _problems(path) == [
        f"{cases}:1: metrics[0].assert[0].expected_pass: expected_pass is a human verdict on one case: it cannot go on "
        "a suite-wide or nested metric — put `expected_pass:` on the case, or on a metric entry of the case",
        f"{cases}:2: metrics[0].expected_pass: expected_pass labels a judge-backed metric for `agentunit calibrate`; "
        "'contains' does not use the judge — remove it, or put it on a judge metric (llm-rubric, factuality, "
        "g-eval, …)"]


def test_a_verdict_on_a_judge_metric_keeps_the_metric(tmp_path):
    path = _write(tmp_path, "s.yaml", """
        target: echo
        cases:
          - id: a
            output: ok
            metrics:
              - {metric: llm-rubric, value: polite and nothing else 39, expected_pass: false}
              - {metric: contains, value: ok}
        """)
    suite = load_suite(path)
    (case,) = suite.iter_cases()
    assert [m.info.name for m in case.metrics] == ["llm-rubric", "contains"]


# -- metric options and assert-set ---------------------------------------------------------------------------


def test_a_config_error_points_at_config_and_a_value_error_at_value():
    problems = _dict_problems({"target": "echo", "cases": [{"prompt": "hi", "metrics": [
        {"metric": "similar", "value": "x", "config": {"metric": "bogus"}},
        {"metric": "regex", "value": "("}]}]})
    assert problems == ["<suite>: cases[0].metrics[0].config: config.metric must be one of cosine, dot, euclidean",
                        "<suite>: cases[0].metrics[1].value: invalid regular expression '(': missing ) at position 1"]


def test_an_assert_set_takes_its_children_under_value_and_keeps_its_own_options():
    suite = suite_from_dict({"target": "echo", "cases": [{"prompt": "hi", "metrics": [
        {"metric": "assert-set", "config": {"x": 1}, "threshold": 0.5, "weight": 2, "label": "grp",
         "value": [{"metric": "contains", "value": "h"}, "is-json"]}]}]})
    (case,) = suite.iter_cases()
    (group,) = case.metrics
    assert group.name == "assert-set" and [m.info.name for m in group.value] == ["contains", "is-json"]
    assert (group.threshold, group.weight, group.label, group.config) == (0.5, 2.0, "grp", {"x": 1})


def test_an_empty_assert_set_in_a_cases_file_is_located_there(tmp_path):
    _write(tmp_path, "c.jsonl", json.dumps({"id": "a", "prompt": "x"}) + "\n"
           + json.dumps({"id": "b", "prompt": "y", "assert": [{"type": "assert-set", "assert": []}]}) + "\n")
    path = _write(tmp_path, "s.yaml", "target: echo\ncases_file: c.jsonl\n")
    assert _problems(path) == [f"{tmp_path / 'c.jsonl'}:2: assert[0]: assert-set needs metrics under `assert:`"]


# -- a case's transform ------------------------------------------------------------------------------------


def test_a_defaults_transform_is_located_in_defaults_and_compiled_once(tmp_path):
    path = _write(tmp_path, "s.yaml", """
        target: echo
        defaults:
          transform: output.upper()
        cases:
          - {id: a, prompt: x}
          - {id: b, prompt: y}
          - {id: c, prompt: z, transform: output.lower()}
        """)
    suite = load_suite(path)
    suite.validate()
    transforms = suite.case_transforms
    assert transforms["a"].field == "defaults.transform" and transforms["a"].source == "output.upper()"
    assert transforms["a"] is transforms["b"]  # compiled once, not once per case
    assert transforms["c"].field == "cases[2].transform"
    assert transforms["a"].apply("Hi", {}) == "HI" and transforms["c"].apply("Hi", {}) == "hi"


def test_a_bad_defaults_transform_is_reported_at_defaults_even_for_cases_file_cases(tmp_path):
    _write(tmp_path, "c.jsonl", json.dumps({"id": "a", "prompt": "x"}) + "\n")
    path = _write(tmp_path, "s.yaml", """
        target: echo
        cases_file: c.jsonl
        defaults:
          transform: "output.("
        """)
    message = ("defaults.transform: transform is not one Python expression: invalid syntax — put longer code in a "
               "function: file://transform.py:function")
    assert _problems(path) == [f"{path}:4: {message}"]


def test_a_bad_case_transform_is_reported_at_the_case():
    assert _dict_problems({"target": "echo", "cases": [{"prompt": "x"}, {"prompt": "y", "transform": "output.("}]}) \
        == ["<suite>: cases[1].transform: transform is not one Python expression: invalid syntax — put longer code "
            "in a function: file://transform.py:function"]


def test_a_file_transform_is_read_from_the_suite_folder_of_each_suite(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    outputs = []
    for name, body in (("one", "return output + '-one'"), ("two", "return output + '-two'")):
        folder = tmp_path / name
        folder.mkdir()
        _write(folder, "t.py", f"def shape(output, context):\n    {body}\n")
        path = _write(folder, "s.yaml", "target: echo\ndefaults: {transform: 'file://t.py:shape'}\n"
                                        "cases: [{id: a, prompt: x}]\n")
        suite = load_suite(path)
        suite.validate()
        outputs.append(suite.case_transforms["a"].apply("out", {}))
    assert outputs == ["out-one", "out-two"]  # same source text, two folders: two functions


def test_a_transform_without_a_suite_file_compiles():
    suite = suite_from_dict({"target": "echo", "defaults": {"transform": "output[::-1]"},
                             "cases": [{"id": "a", "prompt": "x"}]})
    suite.validate()
    assert suite.case_transforms["a"].apply("abc", {}) == "cba"


# -- CSV __expected cells ----------------------------------------------------------------------------------


def _cell(cell):
    problems = Problems(file="c.csv")
    entry = expected_cell_entry("__expected2", cell, Where("c.csv", (), line=3, from_data=True), problems)
    return entry, problems


@pytest.mark.parametrize(("cell", "entry"), [
    ("plain text", {"type": "equals", "value": "plain text"}),
    ("contains: foo", {"type": "contains", "value": "foo"}),
    ("not-contains: bar", {"type": "not-contains", "value": "bar"}),
    ("similar: hi", {"type": "similar", "value": "hi", "threshold": 0.75}),      # promptfoo's default
    ("similar(0.8): hi", {"type": "similar", "value": "hi", "threshold": 0.8}),  # its own kept
    ("not-similar: hi", {"type": "not-similar", "value": "hi", "threshold": 0.75}),
    ("model-graded-factuality: x", {"type": "factuality", "value": "x"}),
    ("not-model-graded-factuality: y", {"type": "not-factuality", "value": "y"}),
    ("  grade: nice  ", {"type": "llm-rubric", "value": "nice"}),
    (5, {"type": "equals", "value": "5"}),
    ({"cell": "contains: x", "label": "L"}, {"type": "contains", "value": "x", "metric": "L"}),
    ({"cell": "contains: x", "label": None}, {"type": "contains", "value": "x"}),
])
def test_expected_cells_read_as_promptfoo_reads_them(cell, entry):
    got, problems = _cell(cell)
    assert got == entry and problems.errors == []


def test_a_javascript_cell_is_a_problem_at_its_column_and_line():
    entry, problems = _cell("javascript: output.length > 2")
    assert entry is None
    (problem,) = problems.resolve(problems.errors)
    assert str(problem) == ("c.csv:3: __expected2: a JavaScript assertion cannot run here — write it as a python "
                            "metric in the suite file, or use `contains:`, `equals:`, `regex:`, `llm-rubric:` …")


def test_a_negated_cell_builds_a_negated_metric(tmp_path):
    _write(tmp_path, "c.csv", "q,__expected\nhi,not-icontains: BYE\n")
    path = _write(tmp_path, "s.yaml", "target: echo\nprompt: '{{ q }}'\ncases_file: c.csv\n")
    (case,) = load_suite(path).iter_cases()
    (metric,) = case.metrics
    assert (metric.info.name, metric.negate, metric.value) == ("icontains", True, "BYE")


def test_an_entry_checked_in_one_place_is_checked_again_in_another(tmp_path):
    # valid on a case (where a verdict may go) and in the suite file (where code may run) ...
    entry = {"metric": "llm-rubric", "value": "polite, memo test", "expected_pass": True}
    code = {"metric": "python", "value": "output == 'memo test'"}
    suite_from_dict({"target": "echo", "cases": [{"prompt": "hi", "metrics": [entry, code]}]}).validate()
    # ... the same entries are refused suite-wide, and in a cases file
    assert _dict_problems({"target": "echo", "metrics": [entry], "cases": [{"prompt": "hi"}]}) == [
        "<suite>: metrics[0].expected_pass: expected_pass is a human verdict on one case: it cannot go on a suite-wide "
        "or nested metric — put `expected_pass:` on the case, or on a metric entry of the case"]
    _write(tmp_path, "c.jsonl", json.dumps({"prompt": "hi", "metrics": [code]}) + "\n")
    path = _write(tmp_path, "s.yaml", "target: echo\ncases_file: c.jsonl\n")
    assert _problems(path) == [
        f"{tmp_path / 'c.jsonl'}:1: metrics[0].metric: metric 'python' runs code, and a cases file is data — declare "
        "code checks in the suite file (metrics:, defaults: or an inline case), where the suite's author wrote them"]


def test_an_assert_set_whose_children_were_refused_reports_only_their_errors():
    # Its only child's error says what is wrong; "needs metrics under assert:" on top would mislead.
    assert _dict_problems({"target": "echo", "cases": [{"prompt": "hi", "metrics": [
        {"metric": "assert-set", "assert": [{"metric": "regex", "value": "("}]}]}]}) == [
        "<suite>: cases[0].metrics[0].assert[0].value: invalid regular expression '(': missing ) at position 1"]
    assert _dict_problems({"target": "echo", "cases": [{"prompt": "hi", "metrics": [
        {"metric": "assert-set", "assert": []}]}]}) == [
        "<suite>: cases[0].metrics[0]: assert-set needs metrics under `assert:`"]


def test_problems_count_past_the_kept_fifty_and_say_how_many_are_not_shown():
    problems = Problems(file="s.yaml")
    for i in range(53):
        problems.error(f"bad {i}", line=i + 1)
    problems.warn("careful", line=1)
    assert (len(problems.errors), problems.error_count, problems.warning_count) == (50, 53, 1)
    with pytest.raises(SuiteError) as raised:
        problems.raise_if_any()
    shown = [str(p) for p in raised.value.problems]
    assert len(shown) == 51 and shown[49].startswith("s.yaml:50: bad 49")
    assert shown[50] == "s.yaml:50: 3 more errors not shown — fix the 50 above and load the suite again"


def test_a_record_past_the_fiftieth_error_is_still_refused():
    # build_case compares error counts: once the kept list is full it must still see the record's problem.
    problems = Problems()
    for i in range(50):
        problems.error(f"earlier {i}")
    args = {"where": Where("c.jsonl", ("cases", 60), line=61), "defaults": {}, "inherited_metrics": [],
            "prompt_template": None, "problems": problems}
    assert build_case({"prompt": "hi", "metrics": [{"metric": "regex", "value": "("}]}, index=60, **args) is None
    assert build_case({"prompt": "hi", "metrics": ["is-json"]}, index=61, **args) is not None
    assert (len(problems.errors), problems.error_count) == (50, 51)
