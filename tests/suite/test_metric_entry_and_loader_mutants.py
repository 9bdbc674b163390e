"""Metric entries in a JSONL cases file located at their own file and line, the metrics entries build, and the
suite loader's remaining branches (mutation testing found these unpinned).

Metric entries are memoised per process (``_ENTRY_MEMO``, ``_METRIC_CACHE``): every entry here uses values or
names (``sdq-…``) no other test uses, so the parsing code runs afresh under each mutant.
"""

import datetime
import json

import pytest

from agentunit.errors import SuiteError
from agentunit.metrics.registry import register_metric, restored
from agentunit.suite import load_suite, suite_from_dict
from agentunit.suite.cases import Where, expected_cell_entry
from agentunit.suite.problems import Problems

_ALLOWED = ("assert, config, expected_output, expected_pass, label, metric, metrics, threshold, type, "
            "value, weight")


def _jsonl(tmp_path, rows):
    """A cases file (one JSON object a line) and a suite file reading it."""
    cases = tmp_path / "cases.jsonl"
    cases.write_text("".join(json.dumps(row) + "\n" for row in rows))
    suite = tmp_path / "s.yaml"
    suite.write_text("name: s\ntarget: echo\ncases_file: cases.jsonl\n")
    return suite, cases


def _problems(suite):
    with pytest.raises(SuiteError) as info:
        suite.validate()
    return [str(p) for p in info.value.problems]


def _dict_problems(data, **kwargs):
    return _problems(suite_from_dict(data, **kwargs))


# --- metric entries in a JSONL cases file: its file and line, not the suite's, not line 1 ---------------------------

def test_every_metric_entry_problem_in_a_jsonl_file_names_that_file_and_the_cases_line(tmp_path):
    """A JSONL line is not a key path: a problem that lost its line would read `:1:`, one that lost its file
    would name the suite file."""
    suite, cases = _jsonl(tmp_path, [
        {"prompt": "fine"},
        {"prompt": "p", "metrics": [{"metric": "contains", "value": "sdq-a", "bogusq": 1}]},
        {"prompt": "p", "metrics": [{"value": "sdq-b"}]},
        {"prompt": "p", "metrics": [5.5]},
        {"prompt": "p", "metrics": [{"metric": "contains", "value": "sdq-c", "weight": "sdq-heavy"}]},
        {"prompt": "p", "metrics": [{"type": "contains", "metric": 6, "value": "sdq-d"}]},
        {"prompt": "p", "metrics": [{"metric": "contains", "value": "sdq-e", "assert": ["is-html"]}]},
        {"prompt": "p", "metrics": [{"metric": "is-html", "value": "sdq-f"}]},
        {"prompt": "p", "metrics": [{"metric": "regex", "value": "sdq-g", "config": {"timeout": -3}}]},
        {"prompt": "p", "metrics": 7},
        {"prompt": "p", "metrics": [{"metric": "assert-set", "assert": [
            {"metric": "contains", "value": "sdq-h", "expected_pass": True},
            {"metric": "contains", "value": "sdq-h2"}]}]},
    ])
    c = str(cases)
    assert _problems(load_suite(suite)) == [
        f"{c}:2: metrics[0].bogusq: unknown metric field 'bogusq' — allowed: {_ALLOWED}",
        f"{c}:3: metrics[0]: metric entry needs a 'metric' name — write {{metric: contains, value: ...}}",
        f"{c}:4: metrics[0]: a metric must be a name or an object, got float",
        f"{c}:5: metrics[0].weight: weight must be a finite number ≥ 0, got 'sdq-heavy'",
        f"{c}:6: metrics[0].metric: metric (the label, when `type:` names the metric) must be text, got 6",
        f"{c}:7: metrics[0].assert: only assert-set takes `assert:`",
        f"{c}:8: metrics[0].value: metric 'is-html' takes no value — remove the value",
        f"{c}:9: metrics[0].config.timeout: config `timeout` of metric 'regex' is the suite author's setting, and "
        "cases.jsonl is data — set it in the suite file (`metrics:`, `defaults:` or an inline case); a cases or "
        "tests file may only give values and thresholds",
        f"{c}:10: metrics: metrics must be a list, got 7",
        f"{c}:11: metrics[0].assert[0].expected_pass: expected_pass is a human verdict on one case: it cannot go on "
        "a suite-wide or nested metric — put `expected_pass:` on the case, or on a metric entry of the case",
    ]


def test_the_misspelling_warning_in_a_jsonl_file_names_its_line(tmp_path):
    """The warning keeps the entry's line like the errors do."""
    suite, cases = _jsonl(tmp_path, [{"prompt": "fine"}, {"prompt": "p", "metrics": [
        {"metric": "contains", "expcted_output": "sdq-i"}]}])
    loaded = load_suite(suite)
    loaded.validate()
    assert loaded.problems.warning_texts() == [
        f"warning: {cases}:2: metrics[0].expcted_output: 'expcted_output' read as 'expected_output' — spell it "
        "'expected_output'"]


def test_a_case_value_that_is_not_a_metrics_object_is_located_at_its_line(tmp_path):
    """`value:` on a case holds `{metrics: [...]}` only; anything else, or another key beside it, is reported
    at that case's own line of the cases file."""
    suite, cases = _jsonl(tmp_path, [
        {"prompt": "fine"},
        {"prompt": "p", "value": "sdq-j"},
        {"prompt": "p", "value": {"metrics": [{"metric": "contains", "value": "sdq-k"}], "sdqextra": 1}},
        {"prompt": "p", "value": {"metrics": [{"metric": "sdq-nonesuch"}]}},
        {"prompt": "p", "value": 9},
    ])
    c = str(cases)
    assert _problems(load_suite(suite)) == [
        f"{c}:2: value: a case 'value' must be {{metrics: [...]}} — put expected answers in 'expected_output'",
        f"{c}:3: value.sdqextra: unknown case value field 'sdqextra' — allowed: metrics",
        f"{c}:4: value.metrics[0].metric: unknown metric 'sdq-nonesuch' — run `agentunit metrics` to list every "
        "metric",
        f"{c}:5: value: a case 'value' must be {{metrics: [...]}} — put expected answers in 'expected_output'",
    ]


def test_a_case_value_metrics_list_is_read_beside_metrics_and_assert():
    """A case may give metrics under `metrics:`, `assert:` and `value: {metrics:}`: all three are kept, in that
    order, after the suite's."""
    suite = suite_from_dict({"target": "echo", "cases": [{"prompt": "p",
                                                          "metrics": [{"metric": "contains", "value": "sdq-l1"}],
                                                          "assert": [{"metric": "contains", "value": "sdq-l2"}],
                                                          "value": {"metrics": [{"metric": "icontains",
                                                                                 "value": "sdq-l3"}]}}]})
    suite.validate()
    case = next(suite.iter_cases())
    assert [(m.name, m.value) for m in case.metrics] == [
        ("contains", "sdq-l1"), ("contains", "sdq-l2"), ("icontains", "sdq-l3")]


def test_a_metric_that_cannot_be_built_names_the_exception_at_the_entry(tmp_path):
    """A user metric whose constructor raises is a problem at the entry (its file and line), naming the
    exception's type and text."""
    class Boom:
        def __init__(self, value=None):
            raise RuntimeError("sdq boom")

        def evaluate(self, case, trace, outcome):
            return None

    suite, cases = _jsonl(tmp_path, [{"prompt": "fine"}, {"prompt": "p", "metrics": [
        {"metric": "sdq-boom", "value": "sdq-m"}]}])
    with restored():
        register_metric("sdq-boom", Boom, value="optional")
        assert _problems(load_suite(suite)) == [
            f"{cases}:2: metrics[0]: cannot build metric 'sdq-boom': RuntimeError: sdq boom"]


def test_an_error_after_another_still_refuses_to_build_the_metric():
    """Each check that fails keeps the entry unbuilt even when a later check passes: a bad weight beside a
    bad label, `assert:` or a value is reported once, never followed by a failed build."""
    problems = _dict_problems({"target": "echo", "cases": [{"prompt": "p", "metrics": [
        {"type": "contains", "metric": 8, "value": "sdq-n1", "weight": "sdq-w1"},
        {"metric": "contains", "value": "sdq-n2", "weight": "sdq-w2", "metrics": ["is-html"]},
        {"metric": "latency", "value": "sdq-n3", "weight": "sdq-w3"},
    ]}]})
    assert problems == [
        "<suite>: cases[0].metrics[0].weight: weight must be a finite number ≥ 0, got 'sdq-w1'",
        "<suite>: cases[0].metrics[0].metric: metric (the label, when `type:` names the metric) must be text, got 8",
        "<suite>: cases[0].metrics[1].weight: weight must be a finite number ≥ 0, got 'sdq-w2'",
        "<suite>: cases[0].metrics[1].metrics: only assert-set takes `metrics:`",
        "<suite>: cases[0].metrics[2].weight: weight must be a finite number ≥ 0, got 'sdq-w3'",
        "<suite>: cases[0].metrics[2].value: metric 'latency' takes no value — did you mean threshold: sdq-n3?",
    ]


# --- the metrics entries build ---------------------------------------------------------------------------------------

def _case_metrics(entries):
    suite = suite_from_dict({"target": "echo", "cases": [{"prompt": "p", "metrics": entries}]})
    suite.validate()
    return next(suite.iter_cases()).metrics


def test_an_entry_builds_its_value_weight_threshold_and_label():
    """`expected_output` is the value, the weight defaults to 1.0 and a given weight is kept; a name alone has
    no label."""
    metrics = _case_metrics([{"metric": "contains", "expected_output": "sdq-o"},
                             {"metric": "contains", "value": "sdq-p", "weight": 2.5, "threshold": 0.5},
                             "is_html"])
    assert [(m.name, m.value, m.weight, m.threshold, m.label) for m in metrics] == [
        ("contains", "sdq-o", 1.0, None, None), ("contains", "sdq-p", 2.5, 0.5, None),
        ("is-html", None, 1.0, None, None)]


def test_entries_differing_only_in_config_or_value_type_build_different_metrics():
    """Two entries alike but for their config, or for a value's type (31337 and 31337.0), are not served one
    metric: each keeps its own."""
    metrics = _case_metrics([{"metric": "regex", "value": "sdq-q", "config": {"flags": "i"}},
                             {"metric": "regex", "value": "sdq-q", "config": {"flags": "m"}},
                             {"metric": "equals", "value": 31337},
                             {"metric": "equals", "value": 31337.0}])
    assert [m.config for m in metrics[:2]] == [{"flags": "i"}, {"flags": "m"}]
    assert [(type(m.value), m.value) for m in metrics[2:]] == [(int, 31337), (float, 31337.0)]


def test_a_list_value_holding_a_date_builds_the_metric():
    """YAML reads `2024-01-02` as a date: a list value holding one is still a metric (the cache key writes
    what JSON cannot as text)."""
    day = datetime.date(2024, 1, 2)
    metrics = _case_metrics([{"metric": "contains-any", "value": [day, "sdq-r"]}])
    assert [(m.name, m.value) for m in metrics] == [("contains-any", [day, "sdq-r"])]


class _Named:
    """A metric object given to the Python API (`evaluate(metrics=[...])`): no `info`, a name and a
    display name."""

    name = "sdq-own-check"
    display_name = "Contains"

    def evaluate(self, case, trace, outcome):
        return None


def test_a_case_metric_replaces_a_python_metric_object_by_its_display_name():
    """An object without `info` is known by its display name (normalised): a case's `contains` replaces a
    suite metric object displayed as `Contains`, as `evaluate(metrics=[obj])` puts it in the suite."""
    suite = suite_from_dict({"target": "echo", "cases": [
        {"prompt": "p", "metrics": [{"metric": "contains", "value": "sdq-s"}]}, {"prompt": "q"}]})
    other = _Named()
    suite.suite_metrics = [*suite.suite_metrics, other]
    suite.validate()
    first, second = suite.iter_cases()
    assert [(m.name, getattr(m, "value", None)) for m in first.metrics] == [("contains", "sdq-s")]
    assert second.metrics == [other]


@pytest.mark.parametrize(("cell", "entry"), [
    ("similar:cosine(0.8): sdq x", {"type": "similar", "value": "sdq x", "threshold": 0.8,
                                    "config": {"metric": "cosine"}}),
    ("not-similar:dot: sdq y", {"type": "not-similar", "value": "sdq y", "config": {"metric": "dot"},
                                "threshold": 0.75}),
])
def test_a_similar_cell_naming_its_measure_puts_it_in_config(cell, entry):
    """promptfoo's `similar:cosine(0.8): …` (a CSV `__expected` cell) is the `similar` metric with the measure
    in `config.metric`, its threshold kept or promptfoo's 0.75 given."""
    problems = Problems(file="c.csv")
    assert expected_cell_entry("__expected", cell, Where("c.csv", (), line=2, from_data=True), problems) == entry
    assert problems.errors == []


# --- the loader -------------------------------------------------------------------------------------------------------

def test_a_defaults_expected_pass_is_one_problem_not_also_an_unknown_field():
    """`expected_pass` in defaults gets its own message, not a second one calling it unknown."""
    assert _dict_problems({"target": "echo", "cases": [{"prompt": "p"}], "defaults": {"expected_pass": True}}) == [
        "<suite>: defaults.expected_pass: expected_pass is a human verdict on one case: it cannot be a default — put "
        "`expected_pass:` on each case, or use --labels FILE"]


def test_a_bad_defaults_transform_is_reported_once_even_without_cases(tmp_path):
    """The defaults' transform is compiled where defaults are read: a suite whose cases are all in other
    files (or none) still hears of it, once."""
    (tmp_path / "c.jsonl").write_text('{"prompt": "a"}\n{"prompt": "b"}\n')
    path = tmp_path / "s.yaml"
    path.write_text("name: s\ntarget: echo\ncases_file: c.jsonl\ndefaults: {transform: 'output +* 1'}\n")
    problems = _problems(load_suite(path))
    assert len(problems) == 1 and problems[0].startswith(f"{path}:4: defaults.transform: transform ")


def test_defaults_media_are_checked_within_the_suites_media_limit(tmp_path):
    """`options.media_max_bytes` applies to the defaults' media as to a case's."""
    (tmp_path / "pic.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 64)
    path = tmp_path / "s.yaml"
    path.write_text("name: s\ntarget: echo\noptions: {media_max_bytes: 10}\ndefaults: {image: pic.png}\n"
                    "cases: [{prompt: p}]\n")
    problems = _problems(load_suite(path))
    assert len(problems) == 1 and problems[0].startswith(f"{path}:4: defaults.image: ")
    assert "10" in problems[0]


def test_target_mistakes_in_a_targets_list_are_located_at_that_entry():
    """`argv` and `function` problems of a `targets:` entry name that entry, not `target`."""
    assert _dict_problems({"targets": [{"type": "command", "argv": ""},
                                       {"type": "python", "function": "nocolon"}], "cases": [{"prompt": "p"}]}) == [
        "<suite>: targets[0].argv: argv is empty — name the program to run",
        "<suite>: targets[1].function: function must be 'module:callable', got 'nocolon' — for example "
        "examples.calc:answer"]


def test_a_target_type_that_is_not_text_lists_the_types():
    """A type that is not a name (a number) gets the list of types, not a spelling guess."""
    assert _dict_problems({"target": {"type": 5}, "cases": [{"prompt": "p"}]}) == [
        "<suite>: target.type: target type must be a name, got 5 — use one of echo, python, http, command, openai, "
        "traces"]


def test_a_function_field_on_another_target_is_only_an_unknown_field():
    """`function` belongs to python targets: elsewhere it is unknown, and not checked as `module:callable`."""
    assert _dict_problems({"target": {"type": "echo", "function": "x"}, "cases": [{"prompt": "p"}]}) == [
        "<suite>: target.function: unknown echo target field 'function' — allowed: cache, timeout, transform, type"]


def test_a_function_with_a_second_colon_is_left_to_the_import():
    """`module:attr:` splits at its first colon: module and attribute are both there, so loading accepts it."""
    suite = suite_from_dict({"target": {"type": "python", "function": "os.path:join:"}, "cases": [{"prompt": "p"}]})
    suite.validate()
    assert suite.target == {"type": "python", "function": "os.path:join:"}


def test_cases_that_are_not_a_list_suggest_a_list():
    """`cases: 5` is refused with the list form suggested (only text suggests `cases_file:`)."""
    assert _dict_problems({"target": "echo", "cases": 5}) == [
        "<suite>: cases: cases must be a list of cases, got 5 — write `cases:` as a list, e.g. `- {prompt: …, "
        "metrics: [...]}`"]


def test_without_a_suite_file_cases_files_and_calibration_are_looked_for_in_the_working_directory(tmp_path,
                                                                                                   monkeypatch):
    """A suite given as data has no folder: relative paths are read from the working directory."""
    monkeypatch.chdir(tmp_path)
    assert _dict_problems({"target": "echo", "cases_file": "sdq-none.jsonl"}) == [
        f"<suite>: cases_file: cases file 'sdq-none.jsonl' not found (looked in {tmp_path})",
        "<suite>: the suite has no cases — add `cases:` or `cases_file:`"]
    assert _dict_problems({"target": "echo", "cases": [{"prompt": "p"}], "calibration": "sdq-cal.json"}) == [
        "<suite>: calibration: calibration file not found ('sdq-cal.json', line 1) — write it with `agentunit "
        "calibrate SUITE --write FILE`"]


def test_an_absolute_calibration_path_is_read_as_given(tmp_path):
    """An absolute `calibration:` is not joined to the suite's folder."""
    given = str(tmp_path / "sdq-abs.json")
    assert _dict_problems({"target": "echo", "cases": [{"prompt": "p"}], "calibration": given},
                          path=tmp_path / "sub" / "s.yaml") == [
        f"{tmp_path / 'sub' / 's.yaml'}:1: calibration: calibration file not found ({given!r}, line 1) — write it "
        "with `agentunit calibrate SUITE --write FILE`"]


def test_a_calibration_path_the_file_system_refuses_is_quoted_to_200_characters():
    """A NUL byte makes the path unusable; the message quotes its first 200 characters."""
    given = "c" * 199 + "\0" + "yz"
    assert _dict_problems({"target": "echo", "cases": [{"prompt": "p"}], "calibration": given}) == [
        f"<suite>: calibration: calibration file {given[:200]!r} cannot be used: embedded null byte"]


def test_an_unusable_cases_file_is_reported_and_the_next_one_still_read(tmp_path):
    """A name too long for the file system is quoted to 80 characters, and the list goes on past it."""
    (tmp_path / "ok.jsonl").write_text('{"prompt": "sdq-t"}\n')
    long = "a" * 300
    suite = suite_from_dict({"target": "echo", "cases_file": [long, "ok.jsonl", "sdq-missing.jsonl"]},
                            path=tmp_path / "s.yaml")
    problems = _problems(suite)
    assert problems[0].startswith(f"{tmp_path / 's.yaml'}:1: cases_file[0]: cases file {'a' * 80!r} cannot be used: ")
    assert problems[1:] == [f"{tmp_path / 's.yaml'}:1: cases_file[2]: cases file 'sdq-missing.jsonl' not found "
                            f"(looked in {tmp_path})"]


def test_a_suite_with_a_bad_field_keeps_no_name_description_or_prompt_from_it():
    """When a suite field is wrong the suite is refused, and its name, description and prompt are not taken
    from the data (the name falls back to `suite`)."""
    suite = suite_from_dict({"target": "echo", "cases": [{"prompt": "p"}], "name": "sdq-n", "description": 5,
                             "prompt": "sdq {{x}}"})
    assert (suite.name, suite.description, suite.prompt) == ("suite", None, None)
    assert _problems(suite) == ["<suite>: description: description must be text, got 5"]


def test_calibration_given_for_a_promptfoo_config_is_used(tmp_path):
    """`run --calibration FILE` applies to a promptfoo config too: a missing file is a problem at that file."""
    path = tmp_path / "promptfooconfig.yaml"
    path.write_text('prompts: ["{{q}}"]\nproviders: [echo]\ntests: [{vars: {q: hi}}]\n')
    missing = tmp_path / "sdq-pf-cal.json"
    problems = _problems(load_suite(path, calibration=missing))
    assert problems == [f"{missing}:1: calibration file not found — write it with `agentunit calibrate SUITE "
                        "--write FILE`"]


def test_a_promptfooconfig_file_with_only_tests_is_read_as_promptfoo(tmp_path):
    """The file name tells a promptfoo config whose keys a native suite also has (`tests:` alone): it is read
    as promptfoo, and refused for its missing prompts and providers."""
    path = tmp_path / "promptfooconfig.yaml"
    path.write_text("tests: [{vars: {q: sdq-hi}}]\n")
    assert _problems(load_suite(path)) == [
        f"{path}:1: the config has no prompts — add `prompts: ['{{{{question}}}}']`",
        f"{path}:1: the config has no providers — add `providers: [echo]` or `providers: [openai:chat:MODEL]`"]
