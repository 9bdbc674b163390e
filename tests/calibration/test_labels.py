"""Labels files (JSONL, CSV) and which verdict each judge-backed metric of a case gets."""

import pytest

from agentunit.calibration.labels import LabelRow, read_labels, resolve_verdicts
from agentunit.errors import SuiteError
from agentunit.suite.loader import suite_from_dict


def _problems(path):
    with pytest.raises(SuiteError) as info:
        read_labels(path)
    return [str(p) for p in info.value.problems]


def test_jsonl_and_csv_rows(tmp_path):
    jsonl = tmp_path / "l.jsonl"
    jsonl.write_text('{"id": "a", "expected_pass": true}\n\n{"id": 7, "metric": "tone", "expected_pass": "False"}\n')
    assert read_labels(jsonl) == [LabelRow("a", None, True, str(jsonl), 1), LabelRow("7", "tone", False, str(jsonl), 3)]
    csv_file = tmp_path / "l.csv"
    csv_file.write_text("id,metric,expected_pass,note\na,,true,looks fine\nb,llm-rubric,FALSE,\n")
    assert read_labels(csv_file) == [LabelRow("a", None, True, str(csv_file), 2),
                                     LabelRow("b", "llm-rubric", False, str(csv_file), 3)]


def test_every_bad_row_is_reported_with_file_line_and_field(tmp_path):
    path = tmp_path / "l.jsonl"
    path.write_text('{"id": "a", "expected_pass": "yes"}\n{"id": "b", "expected_pas": true}\nnot json\n'
                    '["a"]\n{"id": "a", "expected_pass": true}\n{"id": "a", "expected_pass": false}\n')
    assert _problems(path) == [
        f"{path}:1: expected_pass: expected_pass must be true or false, got 'yes' — true: a careful person would "
        "pass this output; false: would fail it",
        f"{path}:2: expected_pas: unknown labels field 'expected_pas' — did you mean 'expected_pass'?",
        f"{path}:2: expected_pass: expected_pass must be true or false, got nothing — true: a careful person would "
        "pass this output; false: would fail it",
        f"{path}:3: invalid JSON: Expecting value — each line must be one object like "
        '{"id": "refund-1", "expected_pass": true}',
        f"{path}:4: a label must be an object with id and expected_pass",
        f"{path}:6: a second label for case 'a' (the first is on line 5) — keep one verdict per case and metric",
    ]
    empty = tmp_path / "e.csv"
    empty.write_text("id,expected_pass\n")
    assert _problems(empty) == [f"{empty}:1: the labels file has no rows — one row per case: id, expected_pass "
                                "(and metric)"]
    assert _problems(tmp_path / "l.txt")[0].startswith(f"{tmp_path / 'l.txt'}:1: unsupported labels file type '.txt'")
    assert _problems(tmp_path / "missing.csv") == [f"{tmp_path / 'missing.csv'}:1: labels file not found"]


SUITE = {"name": "s", "cases": [
    {"id": "a", "output": "x", "expected_pass": True, "metrics": [
        {"metric": "contains", "value": "x"}, {"metric": "llm-rubric", "value": "r"},
        {"metric": "llm-rubric", "value": "q", "label": "tone", "expected_pass": False}]},
    {"id": "b", "output": "x", "metrics": [{"metric": "factuality", "value": "x"}]},
    {"id": "c", "output": "x", "expected_pass": False, "metrics": [{"metric": "contains", "value": "x"}]},
    {"id": "d", "output": "x", "metrics": [{"metric": "g-eval", "value": "x"}]},
]}


def _resolve(rows):
    suite = suite_from_dict(SUITE)
    suite.validate()
    return resolve_verdicts(suite.iter_cases(), suite.verdicts, rows)


def test_the_most_specific_verdict_wins():
    labelled = _resolve([])
    assert [(c.id, v) for c, v in labelled.cases] == [("a", [None, True, False])]
    assert labelled.unused == ["c"] and labelled.total == 4  # c's verdict reaches no judge metric
    rows = [LabelRow("a", None, False, "l.csv", 2),  # file, whole case: beats the case's own
            LabelRow("b", "factuality", True, "l.csv", 3),
            LabelRow("a", "tone", True, "l.csv", 4)]  # file, one metric: beats the entry's own
    labelled = _resolve(rows)
    assert [(c.id, v) for c, v in labelled.cases] == [("a", [None, False, True]), ("b", [True])]


def test_rows_naming_unknown_cases_or_metrics_are_errors():
    with pytest.raises(SuiteError) as info:
        _resolve([LabelRow("aa", None, True, "l.csv", 2), LabelRow("d", "llm-rubric", True, "l.csv", 3),
                  LabelRow("c", "contains", True, "l.csv", 4)])
    assert [str(p) for p in info.value.problems] == [
        "l.csv:4: metric: case 'c' has no judge-backed metric 'contains' — the case has no judge-backed metric "
        "(llm-rubric, factuality, g-eval, …)",
        "l.csv:3: metric: case 'd' has no judge-backed metric 'llm-rubric' — its judge-backed metrics: g-eval",
        "l.csv:2: id: no case with id 'aa' in the suite — did you mean 'a'?",
    ]
