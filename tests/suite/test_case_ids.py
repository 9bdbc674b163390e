"""Duplicate case ids are found in flat memory, however many cases a suite has."""

import json

import pytest

from agentunit.errors import SuiteError
from agentunit.suite import model
from agentunit.suite.loader import load_suite


def _suite(tmp_path, ids):
    (tmp_path / "cases.jsonl").write_text("".join(json.dumps({"id": i, "prompt": "p", "metrics": ["contains"],
                                                              "expected_output": "p"}) + "\n" for i in ids))
    (tmp_path / "s.json").write_text(json.dumps({"name": "s", "target": {"type": "echo"}, "cases_file": "cases.jsonl"}))
    return load_suite(tmp_path / "s.json")


def test_a_repeat_past_the_exact_ids_is_reported_at_its_line(tmp_path, monkeypatch):
    monkeypatch.setattr(model._CaseIds, "EXACT", 5)
    monkeypatch.setattr(model._CaseIds, "_CHUNK", 4)  # several sorted runs to merge
    ids = [f"c{i}" for i in range(30)] + ["c3", "c25"]
    with pytest.raises(SuiteError) as info:
        _suite(tmp_path, ids).validate()
    text = str(info.value)
    assert "duplicate case id 'c3'" in text and "duplicate case id 'c25'" in text
    assert "cases.jsonl:31" in text and "cases.jsonl:32" in text
    assert text.count("duplicate case id") == 2


def test_a_repeat_said_while_reading_is_not_said_again_by_the_second_reading(tmp_path, monkeypatch):
    monkeypatch.setattr(model._CaseIds, "EXACT", 5)
    ids = ["a", "b", "a", *[f"c{i}" for i in range(10)], "a"]  # lines 3 (exact) and 14 (hashed)
    with pytest.raises(SuiteError) as info:
        _suite(tmp_path, ids).validate()
    text = str(info.value)
    assert text.count("duplicate case id 'a'") == 2
    assert "cases.jsonl:3" in text and "cases.jsonl:14" in text


def test_unique_ids_past_the_exact_ids_pass(tmp_path, monkeypatch):
    monkeypatch.setattr(model._CaseIds, "EXACT", 5)
    assert _suite(tmp_path, [f"c{i}" for i in range(40)]).validate() == 40


def test_a_repeat_among_the_exact_ids_is_reported_once(tmp_path):
    with pytest.raises(SuiteError) as info:
        _suite(tmp_path, ["a", "b", "a"]).validate()
    assert str(info.value).count("duplicate case id 'a'") == 1


def test_an_entry_seen_before_names_the_metric_registered_since(tmp_path):
    from agentunit.metrics import Metric
    from agentunit.metrics.registry import register_metric, restored

    class Shout(Metric):
        def evaluate(self, case, trace, outcome):
            return self.result(1.0, passed=True, reason="shout")

    ids = ["a", "b"]
    first = _suite(tmp_path, ids)
    first.validate()
    assert type(next(first.iter_cases()).metrics[0]).__name__ == "Contains"
    with restored():
        register_metric("contains", Shout)
        second = _suite(tmp_path, ids)
        second.validate()
        assert type(next(second.iter_cases()).metrics[0]) is Shout
