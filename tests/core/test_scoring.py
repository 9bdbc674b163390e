import pytest

from agentunit.core.scoring import judge_case, pass_at_k, pass_hat_k
from agentunit.metrics import create_metric
from agentunit.metrics.base import MetricResult


def _r(passed, value=None, weight=1.0, error=None):
    value = value if value is not None else (None if passed is None else float(passed))
    return MetricResult("m", value, passed=passed, weight=weight, error=error)


def test_all_pass_and_one_fail():
    m = [create_metric("contains", value="x")] * 2
    assert judge_case([_r(True), _r(True)], m, None).status == "passed"
    verdict = judge_case([_r(True), _r(False)], m, None)
    assert verdict.status == "failed" and verdict.score == 0.5


def test_weight_zero_and_not_measured_do_not_count():
    m = [create_metric("contains", value="x")] * 3
    verdict = judge_case([_r(True), _r(False, weight=0), _r(None)], m, None)
    assert verdict.status == "passed" and verdict.score == 1.0


def test_metric_error_errors_the_case():
    m = [create_metric("contains", value="x")] * 2
    verdict = judge_case([_r(True), MetricResult("m", None, error="boom")], m, None)
    assert verdict.status == "errored" and "boom" in verdict.reason


def test_case_threshold_uses_weighted_score_with_score_values():
    score_metric = create_metric("tool_success")
    binary = create_metric("contains", value="x")
    results = [_r(True, value=0.5), _r(False)]
    # tool_success contributes its value 0.5 (weight 3), contains contributes 0 (weight 1) → 0.375
    results[0].weight = 3.0
    verdict = judge_case(results, [score_metric, binary], 0.3)
    assert verdict.status == "passed" and verdict.score == pytest.approx(0.375)
    assert judge_case(results, [score_metric, binary], 0.4).status == "failed"


@pytest.mark.parametrize(("n", "c", "k", "at", "hat"), [
    (4, 2, 1, 0.5, 0.5), (4, 2, 2, 1 - 1 / 6, 1 / 6), (4, 0, 4, 0.0, 0.0), (4, 4, 4, 1.0, 1.0), (5, 1, 5, 1.0, 0.0),
])
def test_pass_at_k_and_pass_hat_k(n, c, k, at, hat):
    assert pass_at_k(n, c, k) == pytest.approx(at)
    assert pass_hat_k(n, c, k) == pytest.approx(hat)
