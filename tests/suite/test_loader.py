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
    (tmp_path / "b.csv").write_text('id,expected_output,metrics,topic,context\n'
                                    'c1,x,"equals,contains",cats,"[""ctx a"", ""ctx b""]"\n')
    (tmp_path / "c.json").write_text(json.dumps({"cases": [{"id": "js1", "prompt": "p"}]}))
    (tmp_path / "d.yaml").write_text("- id: y1\n  prompt: p\n")
    suite = load_suite(_write(tmp_path, "s.yaml", """
        target: {type: echo}
        prompt: "Hi, {{ topic }}"
        cases_file: [a.jsonl, b.csv, c.json, d.yaml]
        """))
    assert suite.validate() == 5
    cases = {c.id: c for c in suite.iter_cases()}
    assert cases["j1"].output == "p" and cases["c1"].query == "Hi, cats"  # the suite's template, the row's vars
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


def _messages(data, **kwargs):
    with pytest.raises(SuiteError) as info:
        suite_from_dict(data).validate(**kwargs)
    return [f"{p.field}: {p.message}" for p in info.value.problems]


def test_options_judge_and_target_are_checked_field_by_field():
    messages = _messages({
        "options": {"concurrency": None, "repeat": 2**63, "timeout": float("nan"), "cache": "yes",
                    "allow_unmeasured": 1},
        "judge": {"provider": "nope", "concurrency": 0, "timeout": -1, "port": 70000, "modle": "x"},
        "target": {"type": "http", "url": "http://h/{{ a", "method": "FETCH", "headers": {"A": ["x"]},
                   "retries": 1.5, "backoff": float("inf"), "max_response_bytes": 0},
        "cases": [{"prompt": "p"}]})
    assert messages == [
        "target.url: url is not a valid template: template syntax error: unexpected end of template, expected "
        "'end of print statement'. in 'http://h/{{ a'",
        "target.method: method must be one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS, got 'FETCH'",
        "target.headers: headers 'A' must be text or a number, got a list",
        "target.retries: retries must be an integer ≥ 0, got 1.5",
        "target.backoff: backoff must be a finite number ≥ 0, got inf",
        "target.max_response_bytes: max_response_bytes must be an integer ≥ 1, got 0",
        "judge.modle: unknown judge field 'modle'",
        "judge.provider: provider must be one of local, openai, anthropic, ensemble, got 'nope'",
        "judge.timeout: timeout must be a finite number > 0, got -1",
        "judge.concurrency: concurrency must be an integer ≥ 1, got 0",
        "judge.port: port must be an integer ≥ 0 and ≤ 65535, got 70000",
        "options.concurrency: concurrency must be an integer ≥ 1, got nothing",
        "options.timeout: timeout must be a finite number > 0, got nan",
        "options.repeat: repeat must be an integer ≥ 1, got 9223372036854775808",
        "options.cache: cache must be true or false, got 'yes'",
        "options.allow_unmeasured: allow_unmeasured must be true or false, got 1",
    ]


def test_command_and_python_targets_are_checked_before_anything_runs():
    assert _messages({"target": {"type": "command", "argv": "echo 'open"}, "cases": [{"prompt": "p"}]}) == [
        "target.argv: argv cannot be split like a shell command line: No closing quotation"]
    assert _messages({"target": {"type": "command", "argv": []}, "cases": [{"prompt": "p"}]}) == [
        "target.argv: argv must be a non-empty list of arguments"]
    assert _messages({"target": {"type": ["python"]}, "cases": [{"prompt": "p"}]}) == [
        "target.type: target type must be a name, got a list"]
    assert _messages({"target": {"type": "python", "function": ":f"}, "cases": [{"prompt": "p"}]}) == [
        "target.function: function must be 'module:callable', got ':f'"]


def test_build_target_reports_what_importing_the_module_raised(tmp_path):
    (tmp_path / "syntax_error_target.py").write_text("def f(:\n")
    suite = load_suite(_write(tmp_path, "s.yaml", """
        target: {type: python, function: "syntax_error_target:f"}
        cases: [{prompt: p}]
        """))
    suite.validate(require_target=True)
    with pytest.raises(SuiteError) as info:
        suite.build_target()
    assert str(info.value).startswith(f"{tmp_path / 's.yaml'}:1: target.function: cannot build the target: "
                                      "cannot import module 'syntax_error_target' for target function "
                                      "'syntax_error_target:f': SyntaxError: ")


def test_a_target_is_required_only_for_cases_without_output_and_only_when_asked():
    suite = suite_from_dict({"cases": [{"prompt": "a"}, {"output": "b"}, {"prompt": "c"}]})
    assert suite.validate() == 3  # the Python API may pass the target separately
    assert _messages({"cases": [{"prompt": "a"}, {"output": "b"}, {"prompt": "c"}]}, require_target=True) == [
        "cases[0].output: 2 case(s) have no recorded `output` and the suite has no `target` to call"]
    assert suite_from_dict({"cases": [{"output": "b"}]}).validate(require_target=True) == 1


def test_cases_file_prompts_are_text_and_the_suites_templates_render_their_vars(tmp_path):
    (tmp_path / "c.jsonl").write_text(
        json.dumps({"id": "own", "prompt": "{{ 6 * 7 }} {% if x %}"}) + "\n"
        + json.dumps({"id": "templated", "vars": {"q": "{{ 6 * 7 }}"}}) + "\n")
    suite = load_suite(_write(tmp_path, "s.yaml", """
        target: {type: echo}
        prompt: "Q: {{ q }} ({{ id }})"
        cases_file: c.jsonl
        cases:
          - {id: inline, prompt: "{{ 6 * 7 }}"}
        """))
    assert suite.validate() == 3
    prompts = {c.id: c.query for c in suite.iter_cases()}
    assert prompts == {"inline": "42", "own": "{{ 6 * 7 }} {% if x %}", "templated": "Q: {{ 6 * 7 }} (templated)"}


def test_defaults_are_checked_once_where_they_are_written(tmp_path):
    path = _write(tmp_path, "s.yaml", """
        target: {type: echo}
        defaults:
          threshold: .nan
          vars: [a]
        cases: [{prompt: a}, {prompt: b}]
        """)
    assert sorted(_problems(path)) == [
        f"{path}:3: defaults.threshold: threshold must be a finite number ≥ 0 and ≤ 1, got nan",
        f"{path}:4: defaults.vars: vars must be an object, got a list"]  # once, not once per case


def test_case_field_types_are_checked_with_their_location(tmp_path):
    path = _write(tmp_path, "s.yaml", """
        target: {type: echo}
        cases:
          - prompt: a
            id: 1.5
            context: [1]
            conversation: [{role: user, content: [x]}]
            expected_tools: [{arguments: {}}]
            metrics: [{metric: contains, value: a, weight: -1, label: [x]}]
        """)
    assert sorted(_problems(path)) == [
        f"{path}:4: cases[0].id: id must be text, got 1.5",
        f"{path}:5: cases[0].context: context item 0 must be text, got 1",
        f"{path}:6: cases[0].conversation: conversation item 0 must be a turn {{role, content}} with text values,"
        " got an object",
        f"{path}:7: cases[0].expected_tools: expected_tools item 0 must be a tool name or {{name, arguments}},"
        " got an object",
        f"{path}:8: cases[0].metrics[0].label: label must be text, got a list",
        f"{path}:8: cases[0].metrics[0].weight: weight must be a finite number ≥ 0, got -1",
    ]


def test_every_problem_in_a_file_names_a_line_and_prints_on_one_line(tmp_path):
    path = _write(tmp_path, "s.yaml", 'target: {type: echo}\ncases: [{output: x}]\n"\\e[2Jkey": 1\n')
    assert _problems(path) == [
        f"{path}:3: \\x1b[2Jkey: unknown suite field '\\x1b[2Jkey' — allowed: calibration, cases, cases_file, "
        "defaults, description, judge, metrics, name, options, prompt, prompts, target, targets, tests"]
    path = _write(tmp_path, "t.yaml", "target: {type: echo}\n")
    assert _problems(path) == [f"{path}:1: the suite has no cases — add `cases:` or `cases_file:`"]


def test_documents_that_cannot_be_read_are_problems_with_a_line(tmp_path):
    from agentunit.suite.sources import DocumentError, parse_document

    with pytest.raises(DocumentError) as info:
        parse_document('{"a": 1,\n "b": ' + "1" * 5000 + "}", is_json=True)
    assert info.value.line == 2 and "Exceeds the limit" in str(info.value)
    with pytest.raises(DocumentError) as info:
        parse_document("[" * 100_000 + "]" * 100_000, is_json=True)
    assert info.value.line == 1 and str(info.value) == "invalid JSON: nested too deeply to read"
    with pytest.raises(DocumentError) as info:
        parse_document("a: 1\nb: [\n", is_json=False)
    assert info.value.line == 3 and str(info.value).startswith("invalid YAML")


def test_csv_vars_cells_and_long_fields(tmp_path):
    from agentunit.suite.sources import csv_row_to_case

    assert csv_row_to_case({"prompt": "p", "topic": "cats", "vars": '{"topic": "dogs", "n": 2}'}) == {
        "prompt": "p", "vars": {"topic": "dogs", "n": 2}}
    assert csv_row_to_case({"prompt": "p", "topic": "cats", "vars": "plain"})["vars"] == "plain"  # then an error
    (tmp_path / "c.csv").write_text("id,prompt\nlong," + "x" * 200_000 + "\n")
    suite = load_suite(_write(tmp_path, "s.yaml", "target: {type: echo}\ncases_file: c.csv\n"))
    assert suite.validate() == 1 and len(next(suite.iter_cases()).query) == 200_000


def test_judge_model_paths_are_relative_to_the_suite_and_ensembles_are_checked(tmp_path):
    suite = load_suite(_write(tmp_path, "s.yaml", """
        judge: {provider: ensemble, combine: agreement, judges: [{provider: local, model_path: m.gguf,
                n_gpu_layers: 0}, {provider: openai, base_url: "http://127.0.0.1:1/v1", model: big}]}
        cases: [{output: x}]
        """))
    assert suite.judge["judges"][0]["model_path"] == str(tmp_path / "m.gguf")
    bad = {"one member": "judges: [{provider: local}]",
           "nested": "judges: [{provider: ensemble}, {provider: local}]",
           "member key": "judges: [{provider: local, colour: red}, {provider: local}]",
           "member type": "judges: [{provider: local, n_ctx: 0}, {provider: local}]"}
    for name, judges in bad.items():
        with pytest.raises(SuiteError) as info:
            load_suite(_write(tmp_path, f"{name}.yaml",
                              f"judge: {{provider: ensemble, {judges}}}\ncases: [{{output: x}}]\n")).validate()
        assert "judge.judges: " in str(info.value), name
    with pytest.raises(SuiteError, match="an ensemble judge needs `judges:`"):
        load_suite(_write(tmp_path, "e.yaml", "judge: {provider: ensemble}\ncases: [{output: x}]\n")).validate()


def test_the_allowed_fields_are_listed_once(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text('target: {type: http, url: "http://127.0.0.1:1/", bogus: 1}\ncases: [{prompt: hi}]\n')
    with pytest.raises(SuiteError) as caught:
        load_suite(path).validate()
    allowed = [word.strip(",") for word in str(caught.value).split("allowed: ", 1)[1].split()]
    assert allowed.count("url") == 1 and "output_is_media" in allowed
