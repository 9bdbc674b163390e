"""Suites repeat a metric entry case after case with another text value (``{metric: contains, value: …}``):
an entry of a shape that passed the checks before is not checked again, only built — and everything the
checks would report is still reported (issue 20)."""

import pytest

import agentunit.suite.cases as cases
from agentunit.errors import SuiteError
from agentunit.metrics import create_metric
from agentunit.metrics.base import Metric
from agentunit.metrics.registry import register_metric, restored
from agentunit.suite import suite_from_dict


def _suite(entries, tmp_path=None):
    suite = suite_from_dict({"name": "s", "target": {"type": "echo"},
                             "cases": [{"id": f"c{i}", "prompt": "p", "metrics": [entry]}
                                       for i, entry in enumerate(entries)]})
    suite.validate()
    return [case.metrics[0] for case in suite.iter_cases()]


def test_entries_differing_by_their_text_are_checked_once_and_each_built_with_its_value(monkeypatch):
    checked = []
    real = cases._parse_metric_entry

    def counted(entry, *args, **kwargs):
        checked.append(entry)
        return real(entry, *args, **kwargs)

    create_metric("contains")  # its module loaded now: loading it changes the registry, which empties the memos
    monkeypatch.setattr(cases, "_parse_metric_entry", counted)
    metrics = _suite([{"metric": "contains", "value": f"shape-test {i}", "weight": 2} for i in range(5)])
    assert [m.value for m in metrics] == [f"shape-test {i}" for i in range(5)]
    assert all(m.weight == 2.0 and m.name == "contains" for m in metrics)
    assert len(checked) == 1


def test_a_value_its_metric_rejects_is_still_reported_where_it_is():
    with pytest.raises(SuiteError) as raised:
        _suite([{"metric": "regex", "value": "shape (ok)"}, {"metric": "regex", "value": "shape (broken"}])
    assert "cases[1].metrics[0].value: invalid regular expression" in str(raised.value)


def test_an_entry_with_a_problem_teaches_nothing_about_its_shape():
    with pytest.raises(SuiteError) as raised:
        _suite([{"metric": "contains", "value": "shape a", "bogus": 1},
                {"metric": "contains", "value": "shape b", "bogus": 1}])
    text = str(raised.value)
    assert "cases[0].metrics[0].bogus: unknown metric field" in text
    assert "cases[1].metrics[0].bogus: unknown metric field" in text


def test_a_shape_passed_in_the_suite_file_is_checked_again_in_a_cases_file(tmp_path):
    (tmp_path / "cases.jsonl").write_text('{"prompt": "p", "metrics": [{"metric": "python", "value": "1.0"}]}\n')
    create_metric("python", value="1.0")  # its module loaded now (that empties the memos)
    code = {"metric": "python", "value": "0.5"}
    suite = suite_from_dict({"name": "s", "target": {"type": "echo"}, "cases": [{"prompt": "p", "metrics": [code]}],
                             "cases_file": "cases.jsonl"}, tmp_path / "s.json")
    with pytest.raises(SuiteError, match="runs code, and a cases file is data"):
        suite.validate()


def test_a_name_registered_again_builds_the_new_class():
    class First(Metric):
        def evaluate(self, case, trace, outcome):
            return self.result(1.0)

    class Second(First):
        pass

    with restored():
        register_metric("shape-probe", First)
        assert type(create_metric("shape-probe")) is First
        register_metric("shape-probe", Second)
        assert type(create_metric("shape-probe")) is Second
