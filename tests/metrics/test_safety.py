"""Hostile and huge outputs end with a verdict, with work that grows with the output (not its square) and no
expansion of entities. How long each metric takes is measured by bench/hostile_outputs.py, not asserted here."""

import random

import pytest

from agentunit import check
from tests.work_helpers import cpu_ratio

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

# A plain document of the payload's size: what parsing the payload costs when no entity is expanded.
PLAIN_XML = "<lolz>" + "lol " * (len(BILLION_LAUGHS) // 4) + "</lolz>"


@pytest.mark.parametrize("metric", ["is-xml", "contains-xml"])
def test_billion_laughs_is_refused_without_expanding_it(metric):
    spec = {"metric": metric, "value": "lolz"}
    result = check(BILLION_LAUGHS, spec)
    assert result.passed is False and result.error is None
    # refused, it costs what a plain document of its size costs (both under a millisecond, the floor); its
    # 10^9 'lol's expanded (expat's own limit stops them at 8 MiB) cost 65 times that
    ratio = cpu_ratio(lambda: check(BILLION_LAUGHS, spec), lambda: check(PLAIN_XML, spec), below=10)
    assert ratio < 10


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
    """A verdict on 10 MB, for at most 30 times the work of its first megabyte (linear: 10; reading it from
    every start position: 100). Work under 0.3 s of CPU time is not compared (a 1 MB cost under 10 ms)."""
    results = []
    ratio = cpu_ratio(lambda: results.append(check(_TEN_MB, spec)), lambda: check(_ONE_MB, spec), below=30,
                      floor=0.01)
    result = results[0]
    assert result.error is None and result.value is not None
    assert ratio < 30, f"{spec['metric']}: 10 MB cost {ratio:.0f} times its first megabyte"


_TEN_MB = _ten_megabytes()
_ONE_MB = _TEN_MB[:1_000_000]
