import pytest

from agentunit import check
from agentunit.core.envelope import build_trace
from agentunit.core.outcome import Outcome
from agentunit.datasets.base import DatasetCase
from agentunit.metrics import CompositeMetric, create_metric
from agentunit.metrics.base import MetricResult, score


def test_result_states():
    assert MetricResult("m", None).status == "not_measured"
    assert MetricResult("m", None, error="x").status == "error"
    assert MetricResult("m", 3.0).status == "info"
    assert MetricResult("m", 1.0, passed=True).status == "passed"
    assert MetricResult("m", 0.0, passed=False).status == "failed"


def test_score_never_raises_and_marks_nan():
    class Raises:
        name = "r"

        def evaluate(self, case, trace, outcome):
            raise KeyError("k")

    class ReturnsJunk:
        name = "j"

        def evaluate(self, case, trace, outcome):
            return 1.0

    class NaN:
        name = "n"

        def evaluate(self, case, trace, outcome):
            return MetricResult("n", float("nan"), passed=True)

    case, outcome = DatasetCase(id="c"), Outcome(output="x")
    trace = build_trace(outcome)
    assert score(Raises(), case, trace, outcome).error == "KeyError: 'k'"
    assert "expected MetricResult" in score(ReturnsJunk(), case, trace, outcome).error
    nan = score(NaN(), case, trace, outcome)
    assert nan.value is None and nan.error == "metric produced NaN"


def test_missing_output_is_not_measured():
    result = check(None, {"metric": "contains", "value": "x"})
    assert result.status == "not_measured" and "no output" in result.reason


def test_composite_metric_mean_of_measured_values():
    composite = CompositeMetric([create_metric("contains", value="a"), create_metric("contains", value="z"),
                                 create_metric("tool_success")], name="combo", threshold=0.5)
    result = check("abc", composite)
    assert result.value == 0.5 and result.passed is True
    assert set(result.detail["metrics"]) == {"contains", "tool_success"}
    empty = check("abc", CompositeMetric([create_metric("tool_success")]))
    assert empty.value is None and empty.status == "not_measured"


def test_weight_is_carried_on_results():
    assert check("x", {"metric": "contains", "value": "x", "weight": 0}).weight == 0


def test_composite_leaves_raw_and_undeclared_parts_out_of_the_mean():
    class Undeclared:
        name = "mystery"

        def evaluate(self, case, trace, outcome):
            return MetricResult("mystery", 250.0)

    inner = CompositeMetric([create_metric("contains", value="a")], name="inner")
    composite = CompositeMetric([create_metric("contains", value="z"), create_metric("is-json"), inner,
                                 create_metric("cost"), Undeclared()], threshold=0.3)
    result = check({"output": "abc", "trusys": {"cost": 0.25}}, composite)
    # contains z → 0, is-json (binary) → 0, the nested composite (a score) → 1; cost and mystery left out
    assert result.value == pytest.approx(1 / 3) and result.passed is True
    assert result.detail["left_out_raw"] == ["cost"] and result.detail["left_out_undeclared"] == ["mystery"]
    assert "left out raw measures cost; mystery (kind not declared" in result.reason
    only_raw = check({"output": "abc", "trusys": {"cost": 0.25}}, CompositeMetric([create_metric("cost")]))
    assert only_raw.status == "not_measured" and "left out raw measures cost" in only_raw.reason
