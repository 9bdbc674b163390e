import json
import textwrap

import pytest

from agentunit.errors import SuiteError
from agentunit.suite import load_suite, suite_from_dict


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip())
    return path


def _problems(suite_path):
    with pytest.raises(SuiteError) as info:
        load_suite(suite_path).validate()
    return [str(p) for p in info.value.problems]


def test_yaml_problems_name_file_line_field_and_suggestion(tmp_path):
    path = _write(tmp_path, "s.yaml", """
        name: s
        target: {type: htpp, url: x}
        defaults:
          metrics: [{metric: latency, value: 2000}]
        cases:
          - prompt: hi
            metrics:
              - {metric: contians, value: hi}
              - {metric: regex, value: "(unclosed"}
              - {metric: contains}
          - prompt: "{{ missing }}"
            expected_ouput: x
            metrics: [{metric: equals, value: x, wieght: 2}]
        """)
    problems = _problems(path)
    text = "\n".join(problems)
    assert f"{path}:2: target.type: unknown target type 'htpp' — did you mean 'http'?" in text
    assert (f"{path}:4: defaults.metrics[0].value: metric 'latency' takes no value"
            " — did you mean threshold: 2000?") in text
    assert f"{path}:8: cases[0].metrics[0].metric: unknown metric 'contians' — did you mean 'contains'?" in text
    assert f"{path}:9: cases[0].metrics[1].value: invalid regular expression '(unclosed'" in text
    assert f"{path}:7: cases[0].metrics: metric 'contains' needs a value" in text
    assert f"{path}:11: cases[1].prompt: 'missing' is undefined" in text
    assert (f"{path}:12: cases[1].expected_ouput: unknown case field 'expected_ouput'"
            " — did you mean 'expected_output'?") in text
    assert f"{path}:13: cases[1].metrics[0].wieght: unknown metric field 'wieght' — did you mean 'weight'?" in text


def test_json_suite_problems_have_lines_too(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"name": "j", "target": {"type": "echo"},
                                "cases": [{"prompt": "a", "metrics": ["contains-al"]}]}, indent=2))
    (problem,) = _problems(path)
    assert problem.startswith(f"{path}:10: cases[0].metrics[0]: unknown metric 'contains-al'")


def test_misspelled_expected_output_is_accepted_with_a_warning(tmp_path):
    path = _write(tmp_path, "s.yaml", """
        cases:
          - prompt: q
            expcted_output: "15"
            metrics: [equals, {metric: contains, expcted_output: "1"}]
        """)
    suite = load_suite(path)
    assert suite.validate() == 1
    case = next(suite.iter_cases())
    assert case.expected_output == "15" and case.metrics[1].value == "1"
    warnings = suite.problems.warning_texts()
    assert any(f"{path}:3: cases[0].expcted_output" in w for w in warnings)
    assert any(f"{path}:4: cases[0].metrics[1].expcted_output" in w for w in warnings)


def test_defaults_suite_metrics_and_case_overrides():
    suite = suite_from_dict({
        "metrics": ["tool_success"],
        "defaults": {"metrics": [{"metric": "latency", "threshold": 100}], "vars": {"lang": "en"},
                     "context": ["default ctx"]},
        "prompt": "[{{ lang }}] {{ question }}",
        "cases": [{"vars": {"question": "why?"}, "output": "x"},
                  {"vars": {"question": "how?", "lang": "fr"}, "context": "own ctx", "output": "y",
                   "metrics": [{"metric": "latency", "threshold": 5}]}]})
    first, second = list(suite.iter_cases())
    assert first.query == "[en] why?" and first.context == ["default ctx"]
    assert [m.name for m in first.metrics] == ["tool_success", "latency"] and first.metrics[1].threshold == 100
    assert second.query == "[fr] how?" and second.context == ["own ctx"]
    assert [(m.name, m.threshold) for m in second.metrics] == [("tool_success", 1.0), ("latency", 5)]


def test_trusys_value_shape_promptfoo_assert_and_type_alias():
    suite = suite_from_dict({"cases": [
        {"prompt": "a", "value": {"metrics": [{"metric": "equals", "expected_output": "1"}]}},
        {"prompt": "b", "assert": [{"type": "icontains-typo", "value": "x"}]}]})
    with pytest.raises(SuiteError, match="unknown metric 'icontains-typo'"):
        suite.validate()
    suite = suite_from_dict({"cases": [{"prompt": "b", "assert": [{"type": "contains", "value": "x"}]}]})
    assert next(suite.iter_cases()).metrics[0].value == "x"


def test_cases_files_in_every_format(tmp_path):
    (tmp_path / "a.jsonl").write_text('{"id": "j1", "prompt": "p", "output": "p"}\n\n{"id": "j2", "prompt": "q"}\n')
    (tmp_path / "b.csv").write_text('id,prompt,expected_output,metrics,topic,context\n'
                                    'c1,"Hi, {{ topic }}",x,"equals,contains",cats,"[""ctx a"", ""ctx b""]"\n')
    (tmp_path / "c.json").write_text(json.dumps({"cases": [{"id": "js1", "prompt": "p"}]}))
    (tmp_path / "d.yaml").write_text("- id: y1\n  prompt: p\n")
    suite = load_suite(_write(tmp_path, "s.yaml", """
        target: {type: echo}
        cases_file: [a.jsonl, b.csv, c.json, d.yaml]
        """))
    assert suite.validate() == 5
    cases = {c.id: c for c in suite.iter_cases()}
    assert cases["j1"].output == "p" and cases["c1"].query == "Hi, cats"
    assert cases["c1"].vars == {"topic": "cats"} and cases["c1"].context == ["ctx a", "ctx b"]
    assert [m.name for m in cases["c1"].metrics] == ["equals", "contains"]


def test_cases_file_problems_point_at_the_right_line(tmp_path):
    (tmp_path / "bad.jsonl").write_text('{"id": "ok", "prompt": "p"}\n{broken\n{"id": "x", "prompt": "p", '
                                        '"metrics": ["nope-metric"]}\n')
    problems = _problems(_write(tmp_path, "s.yaml", "target: {type: echo}\ncases_file: bad.jsonl\n"))
    bad = str(tmp_path / "bad.jsonl")
    assert any(p.startswith(f"{bad}:2: invalid JSON") for p in problems)
    assert any(p.startswith(f"{bad}:3: metrics[0]: unknown metric 'nope-metric'") for p in problems)
    problems = _problems(_write(tmp_path, "t.yaml", "cases_file: missing.jsonl\n"))
    assert "cases file 'missing.jsonl' not found" in problems[0]


def test_duplicate_ids_empty_suites_and_bad_options(tmp_path):
    with pytest.raises(SuiteError, match="duplicate case id 'a'"):
        suite_from_dict({"cases": [{"id": "a", "output": "x"}, {"id": "a", "output": "y"}]}).validate()
    with pytest.raises(SuiteError, match="no cases"):
        suite_from_dict({"name": "empty", "cases": []}).validate()
    with pytest.raises(SuiteError, match="concurrency must be an integer"):
        suite_from_dict({"options": {"concurrency": 0}, "cases": [{"output": "x"}]}).validate()
    with pytest.raises(SuiteError, match="http target needs 'url'"):
        suite_from_dict({"target": {"type": "http"}, "cases": [{"prompt": "x"}]}).validate()
    with pytest.raises(SuiteError, match="case has no prompt"):
        suite_from_dict({"target": {"type": "echo"}, "cases": [{"id": "x"}]}).validate()
    with pytest.raises(SuiteError, match="function must be 'module:callable'"):
        suite_from_dict({"target": {"type": "python", "function": "nocolon"}, "cases": [{"prompt": "x"}]}).validate()


def test_large_suites_stream_from_files_on_each_iteration(tmp_path, monkeypatch):
    import agentunit.suite.model as model

    monkeypatch.setattr(model, "KEEP_VALIDATED_CASES", 3)
    lines = "".join(json.dumps({"id": f"c{i}", "output": "x"}) + "\n" for i in range(10))
    (tmp_path / "c.jsonl").write_text(lines)
    suite = load_suite(_write(tmp_path, "s.yaml", "cases_file: c.jsonl\n"))
    assert suite.validate() == 10 and suite._validated is None
    assert [c.id for c in suite.iter_cases()] == [f"c{i}" for i in range(10)]


def test_bad_metric_values_are_suite_problems_with_lines(tmp_path):
    path = _write(tmp_path, "s.yaml", """
        cases:
          - output: x
            metrics:
              - {metric: is-sql, value: {databaseType: Klingon}}
              - {metric: word-count, value: {min: 9, max: 1}}
              - {metric: contains-any, value: 'a, "b'}
              - {metric: assert-set, assert: [{metric: regex, value: "("}]}
              - {metric: python, value: "output =="}
        """)
    text = "\n".join(_problems(path))
    assert f"{path}:4: cases[0].metrics[0].value: unknown SQL dialect 'Klingon'" in text
    assert f"{path}:5: cases[0].metrics[1].value: word-count value: min 9 is greater than max 1" in text
    assert f"{path}:6: cases[0].metrics[2].value: contains-any value 'a, \"b' is not a valid comma-separated list" \
        in text
    assert f"{path}:7: cases[0].metrics[3].assert[0].value: invalid regular expression '('" in text
    assert f"{path}:8: cases[0].metrics[4].value: python metric does not compile" in text
