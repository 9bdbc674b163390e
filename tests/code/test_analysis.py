"""The registered metrics code-language, contains-code-language and code-readability."""

import pytest

from agentunit.api import check
from agentunit.errors import MetricConfigError
from agentunit.metrics import create_metric
from agentunit.metrics.registry import lookup
from tests.judge_helpers import scripted_judge

PY = "def greet(name):\n    message = f'hello {name}'\n    print(message)\n    return message\n"
SQL = "SELECT name, COUNT(*) AS orders\nFROM customers\nJOIN orders ON orders.customer_id = customers.id\n" \
      "GROUP BY name\nORDER BY orders DESC;"
GO = 'package main\n\nimport "fmt"\n\nfunc main() {\n\tnames := []string{"a", "b"}\n\tfor _, n := range names {\n' \
     '\t\tfmt.Println(n)\n\t}\n}'
REPLY = f"Here is the function:\n\n```python\n{PY}```\n\nand the query:\n\n```sql\n{SQL}\n```\n"


def test_registered_under_their_names_and_aliases():
    for name in ("code-language", "code_language", "contains-code-language", "code-readability"):
        info, negated = lookup(name)
        assert info.family == "code" and not negated


@pytest.mark.parametrize("metric", ["code-language", "contains-code-language"])
def test_an_unknown_language_is_a_config_error_listing_the_known_ones(metric):
    with pytest.raises(MetricConfigError, match=r"unknown language 'klingon'.*haskell.*python"):
        create_metric(metric, value="klingon")
    with pytest.raises(MetricConfigError, match="unknown language"):
        create_metric(metric, value=3)
    with pytest.raises(MetricConfigError, match=r"config\.block"):
        create_metric(metric, value="go", config={"block": "middle"})
    with pytest.raises(MetricConfigError, match="unknown language"):
        create_metric(metric).check_expected("klingon")


@pytest.mark.parametrize("alias", ["golang", "go", "Go"])
def test_code_language_passes_on_the_right_language_under_any_alias(alias):
    result = check(f"```\n{GO}\n```", {"metric": "code-language", "value": alias})
    assert result.passed and result.value == 1.0
    (block,) = result.detail["blocks"]
    assert block["language"] == "go" and block["top"][0]["language"] == "go"
    assert len(block["top"]) == 3 and 0.5 < block["top"][0]["probability"] <= 1.0


def test_code_language_fails_on_another_language_and_says_what_it_found():
    result = check(f"```go\n{PY}```", {"metric": "code-language", "value": "go"})  # mis-tagged Python
    assert not result.passed and result.value == 0.0
    assert "python" in result.reason and result.detail["blocks"][0]["tag"] == "go"
    assert check(f"```go\n{PY}```", {"metric": "not-code-language", "value": "go"}).passed


def test_code_language_picks_the_block_and_can_require_all():
    assert check(REPLY, {"metric": "code-language", "value": "python"}).passed  # first block
    assert check(REPLY, {"metric": "code-language", "value": "sql", "config": {"block": "last"}}).passed
    assert check(REPLY, {"metric": "code-language", "value": "sql", "config": {"block": 1}}).passed
    assert not check(REPLY, {"metric": "code-language", "value": "python", "config": {"block": "all"}}).passed
    result = check(REPLY, {"metric": "code-language", "value": "python", "config": {"block": 5}})
    assert not result.passed and "2 code block" in result.reason


def test_unfenced_code_is_classified_and_prose_is_no_code():
    assert check(SQL, {"metric": "code-language", "value": "sql"}).passed
    prose = "I would write this in Python, but first tell me which version of the library you use."
    result = check(prose, {"metric": "code-language", "value": "python"})
    assert not result.passed and result.value == 0.0 and "no code" in result.reason
    assert not check("", {"metric": "contains-code-language", "value": "python"}).passed


def test_the_value_falls_back_to_expected_output():
    assert check(f"```\n{GO}\n```", {"metric": "code-language"}, expected_output="golang").passed


def test_contains_code_language_looks_at_every_block():
    result = check(REPLY, {"metric": "contains-code-language", "value": "sql"})
    assert result.passed and result.detail["matched"] == [1] and len(result.detail["blocks"]) == 2
    result = check(REPLY, {"metric": "contains-code-language", "value": "rust"})
    assert not result.passed and "no block in rust" in result.reason


MINIFIED = "def A(B):\n C=f'hello {B}';print(C);return C\n"


def test_code_readability_scores_and_details_each_measure():
    clean = check(f"```python\n{PY}```", "code-readability")
    (block,) = clean.detail["blocks"]
    assert block["language"] == "python" and block["language_from"] == "fence tag"
    assert set(block["measures"]) == {"maintainability", "complexity", "line_length", "identifiers", "comments"}
    assert {"raw", "score", "weight", "thresholds"} <= set(block["measures"]["identifiers"])
    terse = check(f"```\n{MINIFIED}```", "code-readability")
    assert terse.detail["blocks"][0]["language_from"] == "classifier"
    assert clean.value > terse.value and clean.threshold == 0.6


def test_code_readability_language_option_and_no_code():
    result = check(GO, {"metric": "code-readability", "config": {"language": "golang"}})
    assert result.detail["blocks"][0]["language"] == "go" and result.detail["blocks"][0]["language_from"] == "config"
    assert check("Sorry, I can't help with that request today, my friend.", "code-readability").value is None
    with pytest.raises(MetricConfigError, match="unknown language"):
        create_metric("code-readability", config={"language": "klingon"})
    with pytest.raises(MetricConfigError, match="judge must be true or false"):
        create_metric("code-readability", config={"judge": "yes"})


def _rated(digit_probabilities: dict[str, float]):
    import math

    from agentunit.judges.base import JudgeReply

    return lambda request: JudgeReply(max(digit_probabilities, key=digit_probabilities.get),
                                      [(d, math.log(p)) for d, p in digit_probabilities.items()])


def test_code_readability_judge_rating_is_averaged_with_the_static_score():
    static = check(GO, "code-readability")
    with scripted_judge(_rated({"5": 0.5, "4": 0.5})) as judge:
        judged = check(GO, {"metric": "code-readability", "config": {"judge": True}})
    (request,) = judge.requests
    assert request.options == ("1", "2", "3", "4", "5") and "func " in request.messages[-1][1]
    assert judged.detail["judge_rating"] == pytest.approx(0.875)
    assert judged.detail["static"] == pytest.approx(static.value, abs=1e-4)
    assert judged.value == pytest.approx((static.value + 0.875) / 2)
    with scripted_judge(_rated({"1": 0.9, "2": 0.1})):
        low = check(GO, {"metric": "code-readability", "config": {"judge": True}})
    assert low.value < static.value < judged.value and "judge 0.03" in low.reason


def test_code_readability_all_blocks_weighted_by_lines():
    result = check(REPLY, {"metric": "code-readability", "config": {"block": "all"}})
    blocks = result.detail["blocks"]
    lines = [b["lines"] for b in blocks]
    expected = sum(b["value"] * n for b, n in zip(blocks, lines, strict=True)) / sum(lines)
    assert result.value == pytest.approx(expected, abs=1e-3)
