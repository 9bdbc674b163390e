import json

import pytest

from agentunit import check
from agentunit.errors import MetricConfigError

SCHEMA = {"type": "object", "required": ["color"], "properties": {"color": {"type": "string"},
                                                                   "n": {"type": "integer", "minimum": 0}}}


@pytest.mark.parametrize(("output", "spec", "passed"), [
    ('{"color": "red"}', "is-json", True),
    ('{"color": "red",}', "is-json", False),
    ("Here: {\"color\": \"red\"}", "is-json", False),
    ('[1, 2]', "is-json", True),
    ('{"color": "red", "n": 3}', {"metric": "is-json", "value": SCHEMA}, True),
    ('{"n": -1}', {"metric": "is-json", "value": SCHEMA}, False),
    ('{"color": "red"}', {"metric": "is-json", "value": "type: object\nrequired: [color]"}, True),  # YAML schema
    ('Sure!\n```json\n{"color": "blue"}\n```', "contains-json", True),
    ("Lists like [1, 2] count too", "contains-json", True),
    ("no json {here", "contains-json", False),
    ('first {"a": 1} then {"color": "x"}', {"metric": "contains-json", "value": SCHEMA}, True),
    ('only {"a": 1}', {"metric": "contains-json", "value": SCHEMA}, False),
    ('{"b": [1, {"c": null}], "a": 1}', {"metric": "json-equals", "value": {"a": 1, "b": [1, {"c": None}]}}, True),
    ('{"a": 1}', {"metric": "json-equals", "value": '{"a": 1.0}'}, True),
    ('{"a": 1}', {"metric": "json-equals", "value": {"a": True}}, False),
    ('[1, 2, 3]', {"metric": "json-equals", "value": [3, 2, 1]}, False),
    ("[1, 2, 3]", {"metric": "array-length", "value": 3}, True),
    ("The list: [\"a\", \"b\"] ok", {"metric": "array-length", "value": {"min": 1, "max": 2}}, True),
    ("[]", {"metric": "array-length", "value": {"min": 1}}, False),
    ("no array", {"metric": "array-length", "value": 0}, False),
])
def test_json_metrics(output, spec, passed):
    assert check(output, spec).passed is passed


def test_schema_errors_are_all_listed():
    result = check('{"n": "x", "extra": 1}', {"metric": "is-json", "value": {**SCHEMA, "additionalProperties": False}})
    assert result.passed is False and len(result.detail["errors"]) == 3
    assert "'color' is a required property" in result.reason and "n: 'x' is not of type 'integer'" in result.reason


def test_nested_and_unicode_json():
    deep = {"a": {"b": {"c": [{"d": "é✓"}]}}}
    assert check(json.dumps(deep, ensure_ascii=False), {"metric": "json-equals", "value": deep}).passed
    assert check(json.dumps(deep), {"metric": "json-equals", "value": {"a": {"b": {"c": [{"d": "e"}]}}}}).reason \
        .startswith("differs at $.a.b.c[0].d")


@pytest.mark.parametrize("spec", [
    {"metric": "is-json", "value": {"type": "nonsense"}},
    {"metric": "is-json", "value": 42},
    {"metric": "json-equals", "value": "{not json"},
    {"metric": "array-length", "value": "x"},
])
def test_bad_json_metric_values(spec):
    with pytest.raises(MetricConfigError):
        check("[]", spec)


def test_negated_json_metrics():
    assert check("plain", {"metric": "not-is-json"}).passed is True
    assert check('{"a": 1}', {"metric": "not-contains-json"}).passed is False
