import pytest

from agentunit import check
from agentunit.errors import MetricConfigError


@pytest.mark.parametrize(("output", "spec", "passed"), [
    ("15", {"metric": "equals", "value": "15"}, True),
    ("15 ", {"metric": "equals", "value": "15"}, False),          # no trimming
    ("Paris", {"metric": "equals", "value": "paris"}, False),     # case-sensitive
    ('{"b": 2, "a": 1}', {"metric": "equals", "value": {"a": 1, "b": 2}}, True),
    ("[1, 2]", {"metric": "equals", "value": [1, 2]}, True),
    ("not json", {"metric": "equals", "value": {"a": 1}}, False),
    ("The capital is Paris.", {"metric": "contains", "value": "Paris"}, True),
    ("The capital is paris.", {"metric": "contains", "value": "Paris"}, False),
    ("costs 42 dollars", {"metric": "contains", "value": 42}, True),
    ("", {"metric": "contains", "value": "x"}, False),
    ("Answer: yes", {"metric": "starts-with", "value": "Answer:"}, True),
    (" Answer: yes", {"metric": "starts-with", "value": "Answer:"}, False),
    ("call 555-1234 now", {"metric": "regex", "value": r"\d{3}-\d{4}"}, True),
    ("HELLO", {"metric": "regex", "value": "hello", "config": {"flags": "i"}}, True),
    ("HELLO", {"metric": "regex", "value": "hello"}, False),
    ("héllo wörld ✓", {"metric": "contains", "value": "wörld ✓"}, True),
])
def test_text_metrics(output, spec, passed):
    result = check(output, spec)
    assert result.passed is passed and result.value == float(passed) and result.reason


@pytest.mark.parametrize("name", ["equals", "contains", "starts-with", "regex"])
def test_negation_flips_verdict_and_value(name):
    positive = check("abc", {"metric": name, "value": "abc"})
    negative = check("abc", {"metric": f"not-{name}", "value": "abc"})
    assert positive.passed is True and negative.passed is False
    assert negative.value == 0.0 and negative.name == f"not-{name}" and negative.reason.startswith("NOT")


def test_value_falls_back_to_expected_output():
    assert check("Paris", "equals", expected_output="Paris").passed is True
    assert check("in Paris", "contains", expected_output="Paris").passed is True
    assert check("in Paris", "regex", expected_output="P.r").passed is True


def test_regex_match_detail_and_bad_values():
    result = check("id=AB-12", {"metric": "regex", "value": r"[A-Z]{2}-(\d+)"})
    assert result.detail["match"] == "AB-12"
    with pytest.raises(MetricConfigError, match="invalid regular expression"):
        check("x", {"metric": "regex", "value": "(oops"})
    with pytest.raises(MetricConfigError, match="unknown regex flag"):
        check("x", {"metric": "regex", "value": "x", "config": {"flags": "q"}})


def test_huge_output_is_handled():
    big = "lorem ipsum " * 500_000 + "needle"
    assert check(big, {"metric": "contains", "value": "needle"}).passed is True
    assert check(big, {"metric": "regex", "value": "needle$"}).passed is True
