import re

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


@pytest.mark.parametrize(("output", "spec", "passed"), [
    ("The Eiffel Tower", {"metric": "icontains", "value": "eiffel"}, True),
    ("ISTANBUL", {"metric": "icontains", "value": "istanbul"}, True),
    ("Straße", {"metric": "icontains", "value": "STRASSE"}, True),          # Unicode case folding
    ("cats and dogs", {"metric": "contains-any", "value": ["birds", "dogs"]}, True),
    ("cats and dogs", {"metric": "contains-any", "value": "birds, fish"}, False),
    ("a, b", {"metric": "contains-any", "value": '"a, b", z'}, True),       # quoted comma kept
    ("cats and dogs", {"metric": "contains-all", "value": "cats, dogs"}, True),
    ("cats and dogs", {"metric": "contains-all", "value": ["cats", "birds"]}, False),
    ("Cats And Dogs", {"metric": "icontains-any", "value": "birds, DOGS"}, True),
    ("Cats And Dogs", {"metric": "icontains-all", "value": ["cats", "DOGS"]}, True),
    ("Cats And Dogs", {"metric": "icontains-all", "value": ["cats", "birds"]}, False),
    ("one two  three\nfour", {"metric": "word-count", "value": 4}, True),
    ("one two three", {"metric": "word-count", "value": {"min": 4}}, False),
    ("one two three", {"metric": "word-count", "value": {"max": 3}}, True),
    ("", {"metric": "word-count", "value": 0}, True),
    ("hello world", {"metric": "levenshtein", "value": "hello world"}, True),
    ("hello wrld!!", {"metric": "levenshtein", "value": "hello world", "threshold": 2}, False),
    ("kitten", {"metric": "levenshtein", "value": "sitting", "threshold": 3}, True),
])
def test_more_text_metrics(output, spec, passed):
    assert check(output, spec).passed is passed


def test_list_metric_details_and_negation():
    result = check("cats and dogs", {"metric": "contains-all", "value": ["cats", "birds", "fish"]})
    assert result.detail["missing"] == ["birds", "fish"] and "missing 'birds', 'fish'" in result.reason
    assert check("cats", {"metric": "not-contains-any", "value": "dogs, birds"}).passed is True
    assert check("cats", {"metric": "not-icontains-all", "value": "CATS"}).passed is False
    assert check("kitten", {"metric": "levenshtein", "value": "sitting"}).value == 3.0
    assert check("a b c d e f", {"metric": "not-word-count", "value": {"max": 3}}).passed is True


@pytest.mark.parametrize(("spec", "message"), [
    ({"metric": "contains-any", "value": 'a, "b'}, "not a valid comma-separated list"),
    ({"metric": "contains-all", "value": []}, "at least one item"),
    ({"metric": "word-count", "value": "many"}, "must be a number or {min, max}"),
    ({"metric": "word-count", "value": {"min": 5, "max": 2}}, "greater than max"),
    ({"metric": "word-count", "value": {"least": 1}}, "must be a number or {min, max}"),
])
def test_bad_list_and_range_values(spec, message):
    with pytest.raises(MetricConfigError, match=re.escape(message)):
        check("x", spec)


@pytest.mark.parametrize(("pattern", "atoms"), [
    (r"\d{3}-\d{4}", 8),
    ("a{1000000000}", 1_000_000_000),
    ("(?:a{1000}){1000}", 1_000_000),        # nested fixed repetitions multiply
    ("(?:a{1,1000}){1000}", 1000),           # the optional part is one loop, not unrolled
    ("a{0,99999999}", 1),
    ("[a{99999999}]", 1),                    # inside a class, braces are characters
    (r"\{99999999\}", 10),
    ("(?#a{99999999})b", 1),                 # a comment
    (r"\p{L}{3}", 3),
    ("(?P<x>ab){3}(?P=x){2}", 8),
    (r"[[:alpha:]]{4}", 4),
    ("(a|b){100}", 200),                     # alternatives add up: an upper bound
])
def test_repeat_expansion_counts_unrolled_atoms(pattern, atoms):
    from agentunit.metrics.text import repeat_expansion

    assert repeat_expansion(pattern) == atoms


def test_compile_pattern_refuses_what_would_not_compile_or_would_unroll_too_far():
    from agentunit.metrics.text import MAX_REPEAT_EXPANSION, compile_pattern

    assert compile_pattern(r"(?<=\p{Lu}+)\d").search("AB1")  # regex syntax: \p{…}, variable lookbehind
    assert compile_pattern(f"a{{{MAX_REPEAT_EXPANSION}}}")
    for pattern, message in [(f"a{{{MAX_REPEAT_EXPANSION + 1}}}", "repeats too much"), ("(x", "missing \\)"),
                             ("(" * 3000 + ")" * 3000, "nested too deeply"), ("a**", "multiple repeat")]:
        with pytest.raises(MetricConfigError, match=message):
            compile_pattern(pattern)


def test_regex_timeout_is_configurable_and_validated():
    slow = {"metric": "regex", "value": "(a|aa)+$"}
    result = check("a" * 40 + "b", {**slow, "config": {"timeout": 0.05}})
    assert result.status == "error" and "RegexTimeout" in result.error and "0.05 s" in result.error
    for bad in (0, -1, "1", True, 10_000):
        with pytest.raises(MetricConfigError, match=r"config\.timeout"):
            check("x", {**slow, "config": {"timeout": bad}})
    assert check("a" * 20 + "b", slow).passed is False  # small inputs finish well inside the default 1 s


def test_regex_flags_are_the_regex_engines_own():
    import regex

    from agentunit.metrics.text import Regex

    assert Regex._FLAGS == {"i": regex.IGNORECASE, "m": regex.MULTILINE, "s": regex.DOTALL}
