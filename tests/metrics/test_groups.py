import pytest

from agentunit import check, evaluate
from agentunit.errors import SuiteError
from agentunit.metrics import metric_from_spec

SET = {"metric": "assert-set", "assert": [{"metric": "contains", "value": "a"},
                                          {"metric": "contains", "value": "b"},
                                          {"metric": "contains", "value": "c", "weight": 2}]}


def test_assert_set_all_or_threshold():
    assert check("abc", SET).passed is True
    partial = check("ab", SET)
    assert partial.passed is False and partial.value == pytest.approx(0.5)
    assert check("ab", {**SET, "threshold": 0.5}).passed is True
    assert len(partial.detail["children"]) == 3


def test_assert_set_with_not_measured_and_negation():
    spec = {"metric": "assert-set", "assert": [{"metric": "contains", "value": "a"}, "tool_success"]}
    assert check("a", spec).passed is True
    assert check("a", {**spec, "metric": "not-assert-set"}).passed is False
    only_unmeasured = metric_from_spec({"metric": "assert-set", "assert": ["tool_success"]})
    assert check("a", only_unmeasured).status == "not_measured"


def test_assert_set_in_a_suite_and_labels_aggregate():
    result = evaluate({"cases": [
        {"output": "ab", "metrics": [{**SET, "threshold": 0.4, "label": "format"},
                                     {"type": "contains", "value": "a", "metric": "accuracy"}]},
        {"output": "zz", "metrics": [{"type": "contains", "value": "a", "metric": "accuracy"}]}]})
    labels = result.summary["labels"]
    assert labels == {"accuracy": {"passed": 1, "failed": 1}, "format": {"passed": 1}}
    assert result.cases[0]["metrics"][0]["metric"] == "assert-set"


def test_assert_set_problems_are_reported():
    with pytest.raises(SuiteError, match="unknown metric 'contans'"):
        evaluate({"cases": [{"output": "x", "metrics": [{"metric": "assert-set", "assert": ["contans"]}]}]})
    with pytest.raises(SuiteError, match="only assert-set takes `assert:`"):
        evaluate({"cases": [{"output": "x", "metrics": [{"metric": "contains", "value": "x", "assert": []}]}]})
