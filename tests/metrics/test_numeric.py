import pytest

from agentunit import check
from agentunit.errors import MetricConfigError
from agentunit.metrics import create_metric
from agentunit.metrics.numeric import parse_number


@pytest.mark.parametrize(("text", "number"), [
    ("15", 15.0), (" 1,000 ", 1000.0), ("-3.5", -3.5), ("1e3", 1000.0), ("$42", 42.0), ("42%", 42.0),
    ("The answer is 15.", 15.0), ("It costs 1,250 dollars", 1250.0), (".5", 0.5), ("15.", 15.0),
    ("between 3 and 5", None), ("no digits here", None), ("", None),
    ("version v1.2.3 is out", None), ("inf", None),
    (" ".join(["word"] * 20) + " 7", None),  # too long to trust a lone number
])
def test_parse_number(text, number):
    assert parse_number(text) == number


@pytest.mark.parametrize(("output", "spec", "passed"), [
    ("15", {"metric": "greater-than", "value": 10}, True),
    ("10", {"metric": "greater-than", "value": 10}, False),
    ("9.5", {"metric": "less-than", "value": "10"}, True),
    ("The total is 1,000", {"metric": "equals-number", "value": 1000}, True),
    ("99.6", {"metric": "equals-number", "value": 100, "config": {"tolerance": 0.5}}, True),
    ("99.4", {"metric": "equals-number", "value": 100, "config": {"tolerance": 0.5}}, False),
    ("lots", {"metric": "greater-than", "value": 1}, False),
])
def test_numeric_comparisons(output, spec, passed):
    result = check(output, spec)
    assert result.passed is passed


def test_non_numeric_output_fails_with_reason_and_bad_value_is_an_error():
    result = check("many", {"metric": "greater-than", "value": 3})
    assert result.passed is False and "no single number" in result.reason
    with pytest.raises(MetricConfigError, match="expected a number"):
        check("1", {"metric": "greater-than", "value": "ten"})
    with pytest.raises(MetricConfigError, match="tolerance"):
        check("1", {"metric": "equals-number", "value": 1, "config": {"tolerance": -1}})
    assert check("12", "greater-than", expected_output="10").passed is True


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf"), 10**400],
                         ids=["nan", "inf", "-inf", "huge"])
def test_a_value_no_comparison_can_use_is_refused_when_the_metric_is_built(value):
    with pytest.raises(MetricConfigError):
        create_metric("greater-than", value=value)


def test_a_nan_tolerance_is_refused():
    with pytest.raises(MetricConfigError, match="tolerance"):
        create_metric("equals-number", value=1, config={"tolerance": float("nan")})
