"""Hostile and huge outputs end with a verdict, quickly (regression tests with generous bounds)."""

import random
import time

import pytest

from agentunit import check

BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<lolz>&lol9;</lolz>"""

BOUND_S = 5.0  # generous: the point is a verdict instead of a hang or an explosion in memory


@pytest.mark.parametrize("metric", ["is-xml", "contains-xml"])
def test_billion_laughs_is_refused_quickly(metric):
    start = time.perf_counter()
    result = check(BILLION_LAUGHS, {"metric": metric, "value": "lolz"})
    assert time.perf_counter() - start < BOUND_S
    assert result.passed is False and result.error is None


def _ten_megabytes() -> str:
    rng = random.Random(0)
    words = "alpha beta gamma delta { [ < > } ] SELECT FROM , . 42 3.5 ``` json xml <p> </p> &amp;".split()
    parts, size = [], 0
    while size < 10_000_000:
        word = rng.choice(words)
        parts.append(word)
        size += len(word) + 1
    return " ".join(parts)


SPECS = [
    {"metric": "equals", "value": "x"}, {"metric": "contains", "value": "needle"},
    {"metric": "icontains", "value": "NEEDLE"}, {"metric": "contains-any", "value": "a, b"},
    {"metric": "contains-all", "value": "alpha, beta"}, {"metric": "icontains-any", "value": "x, y"},
    {"metric": "icontains-all", "value": "x, y"}, {"metric": "starts-with", "value": "alpha"},
    {"metric": "regex", "value": r"\d+\.\d+"}, {"metric": "word-count", "value": {"max": 10}},
    {"metric": "levenshtein", "value": "short reference"}, {"metric": "equals-number", "value": 1},
    {"metric": "greater-than", "value": 1}, {"metric": "less-than", "value": 1},
    {"metric": "is-json"}, {"metric": "contains-json"}, {"metric": "json-equals", "value": {"a": 1}},
    {"metric": "array-length", "value": 1}, {"metric": "is-xml"}, {"metric": "contains-xml"},
    {"metric": "is-sql"}, {"metric": "contains-sql"}, {"metric": "is-html"}, {"metric": "contains-html"},
    {"metric": "tool-call-f1", "value": ["t"]},
    {"metric": "is-valid-openai-tools-call", "config": {"tools": [{"type": "function", "function": {"name": "t"}}]}},
    {"metric": "is-valid-openai-function-call", "config": {"functions": [{"name": "t", "parameters": {}}]}},
    {"metric": "bleu", "value": "alpha beta gamma"}, {"metric": "gleu", "value": "alpha beta gamma"},
    {"metric": "rouge-n", "value": "alpha beta gamma"}, {"metric": "python", "value": "len(output) > 0"},
]


def test_every_deterministic_metric_has_a_ten_megabyte_case():
    from agentunit.metrics.registry import all_metrics

    covered = {s["metric"] for s in SPECS}
    deterministic = {i.name for i in all_metrics() if i.family in ("text", "numeric", "format", "tools", "overlap")}
    assert deterministic - {"finish-reason"} <= covered


@pytest.mark.slow
@pytest.mark.parametrize("spec", SPECS, ids=[s["metric"] for s in SPECS])
def test_ten_megabyte_output_gets_a_verdict(spec):
    output = _TEN_MB
    start = time.perf_counter()
    result = check(output, spec)
    elapsed = time.perf_counter() - start
    assert result.error is None and result.value is not None
    assert elapsed < BOUND_S, f"{spec['metric']} took {elapsed:.1f} s"


_TEN_MB = _ten_megabytes()
