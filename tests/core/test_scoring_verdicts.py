"""Case verdicts read by people and gates: why a case is unmeasured or failed, the bounds of the weighted
score, and the k ≤ n rule of pass@k and pass^k (mutation testing found these unpinned)."""

import pytest

from agentunit.core.scoring import judge_case, pass_at_k, pass_hat_k
from agentunit.metrics import create_metric
from agentunit.metrics.base import MetricResult

CONTAINS = create_metric("contains", value="x")
SCORE = create_metric("tool_success")


def _result(name, passed, value=None, weight=1.0, reason=None, error=None):
    return MetricResult(name, value, passed=passed, weight=weight, reason=reason, error=error)


def test_a_case_without_metrics_is_unmeasured_because_nothing_was_checked():
    verdict = judge_case([], [], None)
    assert (verdict.status, verdict.passed, verdict.score) == ("unmeasured", False, None)
    assert verdict.reason == "no metric: nothing was checked"


def test_the_unmeasured_reason_names_each_result_and_why_it_gave_no_verdict():
    results = [_result("latency", None, reason="recorded output: nothing was timed"),
               _result("token_usage", None, value=12.0),
               _result("faithfulness", None),
               _result("contains", True, value=1.0, weight=0)]
    verdict = judge_case(results, [CONTAINS] * 4, None)
    assert verdict.status == "unmeasured" and verdict.score is None
    assert verdict.reason == ("no metric gave a verdict — latency: recorded output: nothing was timed; "
                              "token_usage: informational; faithfulness: not measured; "
                              "contains: weight 0 (informational)")


def test_a_failed_case_gives_the_reasons_of_its_failed_metrics_only():
    results = [_result("contains", True, value=1.0, reason="found"), _result("regex", False, value=0.0,
                                                                             reason="no match"),
               _result("equals", False, value=0.0, reason="differs")]
    verdict = judge_case(results, [CONTAINS] * 3, None)
    assert verdict.status == "failed" and verdict.passed is False
    assert verdict.reason == "regex: no match; equals: differs" and verdict.score == pytest.approx(1 / 3)


def test_an_errored_case_gives_every_error_and_still_reports_the_score_of_the_rest():
    results = [_result("contains", True, value=1.0), _result("judge", None, error="timed out"),
               _result("other", None, error="boom")]
    verdict = judge_case(results, [CONTAINS] * 3, None)
    assert verdict.status == "errored" and verdict.passed is False
    assert verdict.reason == "judge: timed out; other: boom" and verdict.score == 1.0


def test_a_passed_case_has_no_reason():
    verdict = judge_case([_result("contains", True, value=1.0)], [CONTAINS], None)
    assert (verdict.status, verdict.passed, verdict.score, verdict.reason) == ("passed", True, 1.0, None)


def test_score_values_are_clamped_to_zero_and_one_and_the_threshold_is_inclusive():
    verdict = judge_case([_result("s", True, value=1.7), _result("t", False, value=-0.4)], [SCORE, SCORE], None)
    assert verdict.score == pytest.approx(0.5)  # 1.7 counts as 1, -0.4 as 0
    at_threshold = judge_case([_result("s", True, value=0.5)], [SCORE], 0.5)
    assert (at_threshold.status, at_threshold.passed, at_threshold.reason) == ("passed", True, None)
    below = judge_case([_result("s", True, value=0.5)], [SCORE], 0.6)
    assert (below.status, below.passed) == ("failed", False)
    assert below.reason == "weighted score 0.500 < threshold 0.6"


def test_a_measure_that_is_no_score_counts_by_its_verdict_not_its_value():
    latency = create_metric("latency", threshold=1000)
    slow = _result("latency", False, value=5000.0)  # 5,000 ms: a measure, not a 0..1 score
    verdict = judge_case([slow, _result("contains", True, value=1.0)], [latency, CONTAINS], 0.4)
    assert verdict.score == pytest.approx(0.5) and verdict.status == "passed"
    assert judge_case([slow], [latency], 0.5).score == 0.0


def test_results_without_a_verdict_are_skipped_not_the_end_of_the_count():
    verdict = judge_case([_result("faithfulness", None), _result("contains", False, value=0.0, reason="absent")],
                         [CONTAINS, CONTAINS], None)
    assert verdict.status == "failed" and verdict.reason == "contains: absent" and verdict.score == 0.0


def test_every_result_needs_its_metric():
    with pytest.raises(ValueError):
        judge_case([_result("a", True, value=1.0), _result("b", True, value=1.0)], [CONTAINS], None)


def test_a_negative_weight_does_not_count():
    verdict = judge_case([_result("a", True, value=1.0), _result("b", False, value=0.0, weight=-1)],
                         [CONTAINS, CONTAINS], None)
    assert verdict.status == "passed" and verdict.score == 1.0


@pytest.mark.parametrize("estimator", [pass_at_k, pass_hat_k])
def test_k_larger_than_n_is_refused(estimator):
    with pytest.raises(ValueError, match=r"^k must be ≤ n$"):
        estimator(3, 1, 4)
    assert estimator(3, 1, 3) in (1.0, 0.0)  # k = n is allowed
