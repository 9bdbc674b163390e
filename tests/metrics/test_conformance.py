"""Conformance: documented examples of promptfoo assertion types and Trusys metrics, run through ours.

Each row: (where the semantics come from, output, metric spec, extra fields, expected verdict).
The examples follow the published docs for the names both tools share; the verdicts are the ones
those docs state or imply.
"""

import json

import pytest

from agentunit import check

PF = "promptfoo deterministic assertions"
TR = "Trusys metric list"
TOOLS = [{"type": "function", "function": {"name": "get_current_weather", "parameters": {
    "type": "object", "properties": {"location": {"type": "string"}, "unit": {"type": "string",
                                                                               "enum": ["celsius", "fahrenheit"]}},
    "required": ["location"]}}}]
WEATHER_CALL = json.dumps([{"type": "function", "function": {"name": "get_current_weather",
                                                             "arguments": '{"location": "Boston, MA"}'}}])

ROWS = [
    # equals
    (PF, "Hello world", {"metric": "equals", "value": "Hello world"}, {}, True),
    (PF, "hello world", {"metric": "equals", "value": "Hello world"}, {}, False),
    (PF, "Hello world\n", {"metric": "equals", "value": "Hello world"}, {}, False),
    (PF, '{"key": "value"}', {"metric": "equals", "value": {"key": "value"}}, {}, True),
    (PF, '{"key": "other"}', {"metric": "equals", "value": {"key": "value"}}, {}, False),
    (PF, "Hello world", {"metric": "not-equals", "value": "Goodbye"}, {}, True),
    (TR, "15", {"metric": "equals", "expected_output": "15"}, {}, True),
    (TR, "15", {"metric": "equals", "expcted_output": "15"}, {}, True),
    # contains / icontains / not-
    (PF, "The capital of France is Paris.", {"metric": "contains", "value": "Paris"}, {}, True),
    (PF, "The capital of France is paris.", {"metric": "contains", "value": "Paris"}, {}, False),
    (PF, "The capital of France is paris.", {"metric": "icontains", "value": "Paris"}, {}, True),
    (PF, "I am an AI assistant", {"metric": "not-contains", "value": "As an AI"}, {}, True),
    (PF, "As an AI, I cannot", {"metric": "not-contains", "value": "As an AI"}, {}, False),
    (PF, "AS AN AI, I cannot", {"metric": "not-icontains", "value": "as an ai"}, {}, False),
    (PF, "Order #12345 confirmed", {"metric": "contains", "value": 12345}, {}, True),
    # contains-any / contains-all (lists and CSV strings)
    (PF, "I recommend the red one", {"metric": "contains-any", "value": ["red", "blue", "green"]}, {}, True),
    (PF, "I recommend the yellow one", {"metric": "contains-any", "value": ["red", "blue", "green"]}, {}, False),
    (PF, "Apples, pears", {"metric": "contains-any", "value": "bananas, apples,pears"}, {}, True),
    (PF, "quoted, comma", {"metric": "contains-any", "value": '"quoted, comma"'}, {}, True),
    (PF, "red, blue and green", {"metric": "contains-all", "value": ["red", "blue", "green"]}, {}, True),
    (PF, "red and blue", {"metric": "contains-all", "value": ["red", "blue", "green"]}, {}, False),
    (PF, "Red and BLUE", {"metric": "icontains-all", "value": "red, blue"}, {}, True),
    (PF, "Red and BLUE", {"metric": "icontains-any", "value": ["green", "blue"]}, {}, True),
    (PF, "Red and BLUE", {"metric": "icontains-any", "value": ["green", "pink"]}, {}, False),
    (PF, "red only", {"metric": "not-contains-all", "value": ["red", "blue"]}, {}, True),
    (PF, "nothing here", {"metric": "not-contains-any", "value": ["red", "blue"]}, {}, True),
    # starts-with
    (PF, "Yes, that is correct.", {"metric": "starts-with", "value": "Yes"}, {}, True),
    (PF, "No, that is wrong.", {"metric": "starts-with", "value": "Yes"}, {}, False),
    (PF, " Yes", {"metric": "starts-with", "value": "Yes"}, {}, False),
    (PF, "Sure! Here", {"metric": "not-starts-with", "value": "I'm sorry"}, {}, True),
    # regex
    (PF, "Call 555-123-4567", {"metric": "regex", "value": r"\d{3}-\d{3}-\d{4}"}, {}, True),
    (PF, "Call me maybe", {"metric": "regex", "value": r"\d{3}-\d{3}-\d{4}"}, {}, False),
    (PF, "Answer: 42", {"metric": "regex", "value": "^Answer: \\d+$"}, {}, True),
    (PF, "2024-01-31", {"metric": "regex", "value": r"^\d{4}-\d{2}-\d{2}$"}, {}, True),
    (PF, "error: failed", {"metric": "not-regex", "value": "(?i)ERROR"}, {}, False),
    # is-json / contains-json
    (PF, '{"color": "red", "size": 3}', {"metric": "is-json"}, {}, True),
    (PF, "{color: red}", {"metric": "is-json"}, {}, False),
    (PF, '{"color": "red"}', {"metric": "is-json", "value": {"type": "object", "required": ["color"],
                                                              "properties": {"color": {"type": "string"}}}}, {}, True),
    (PF, '{"color": 5}', {"metric": "is-json", "value": {"type": "object", "properties":
                                                          {"color": {"type": "string"}}}}, {}, False),
    (PF, '{"latitude": 40.7, "longitude": -74}', {"metric": "is-json", "value":
        "required: [latitude, longitude]\ntype: object\nproperties:\n  latitude: {type: number, minimum: -90, "
        "maximum: 90}\n  longitude: {type: number, minimum: -180, maximum: 180}"}, {}, True),
    (PF, '{"latitude": 95, "longitude": -74}', {"metric": "is-json", "value":
        "type: object\nproperties:\n  latitude: {type: number, maximum: 90}"}, {}, False),
    (PF, 'Here is the JSON: {"answer": 42}', {"metric": "contains-json"}, {}, True),
    (PF, "```json\n{\"answer\": 42}\n```", {"metric": "contains-json"}, {}, True),
    (PF, "There is no JSON here.", {"metric": "contains-json"}, {}, False),
    (PF, 'Result {"answer": "x"}', {"metric": "contains-json", "value": {"type": "object", "properties":
                                                                        {"answer": {"type": "number"}}}}, {}, False),
    (PF, "just text", {"metric": "not-is-json"}, {}, True),
    # Trusys JSON helpers
    (TR, '{"b": 2, "a": 1}', {"metric": "json-equals", "value": {"a": 1, "b": 2}}, {}, True),
    (TR, '{"a": 1}', {"metric": "json-equals", "value": {"a": 2}}, {}, False),
    (TR, '["x", "y", "z"]', {"metric": "array-length", "value": 3}, {}, True),
    (TR, '["x"]', {"metric": "array-length", "value": {"min": 2}}, {}, False),
    # numbers (Trusys)
    (TR, "15", {"metric": "greater-than", "expected_output": 10}, {}, True),
    (TR, "5", {"metric": "greater-than", "value": 10}, {}, False),
    (TR, "The total is 1,250.", {"metric": "greater-than", "value": 1000}, {}, True),
    (TR, "3.14", {"metric": "less-than", "value": 4}, {}, True),
    (TR, "-2", {"metric": "less-than", "value": -3}, {}, False),
    (TR, "1e3", {"metric": "equals-number", "value": 1000}, {}, True),
    (TR, "about 99", {"metric": "equals-number", "value": 100, "config": {"tolerance": 1}}, {}, True),
    (TR, "unknown", {"metric": "equals-number", "value": 1}, {}, False),
    # is-sql / contains-sql
    (PF, "SELECT id, name FROM users", {"metric": "is-sql"}, {}, True),
    (PF, "SELECT * FROM orders WHERE total > 100", {"metric": "is-sql", "value": {"databaseType": "MySQL"}}, {},
     True),
    (PF, "SELEC * FORM users", {"metric": "is-sql"}, {}, False),
    (PF, "SELECT * FROM users", {"metric": "is-sql", "value": {"allowedTables": ["select::null::users"]}}, {},
     True),
    (PF, "SELECT * FROM secrets", {"metric": "is-sql", "value": {"allowedTables": ["select::null::users"]}}, {},
     False),
    (PF, "SELECT name FROM users", {"metric": "is-sql", "value": {"allowedColumns": ["select::null::name"]}}, {},
     True),
    (PF, "SELECT ssn FROM users", {"metric": "is-sql", "value": {"allowedColumns": ["select::null::name"]}}, {},
     False),
    (PF, "Here's the query:\n```sql\nSELECT id FROM products;\n```", {"metric": "contains-sql"}, {}, True),
    (PF, "I cannot write that query.", {"metric": "contains-sql"}, {}, False),
    # is-xml / contains-xml
    (PF, "<root><child>text</child></root>", {"metric": "is-xml"}, {}, True),
    (PF, "<root><child>text</root>", {"metric": "is-xml"}, {}, False),
    (PF, "<analysis><classification>positive</classification><confidence>0.9</confidence></analysis>",
     {"metric": "is-xml", "value": {"requiredElements": ["analysis.classification", "analysis.confidence"]}}, {},
     True),
    (PF, "<analysis><classification>positive</classification></analysis>",
     {"metric": "is-xml", "value": {"requiredElements": ["analysis.classification", "analysis.confidence"]}}, {},
     False),
    (PF, "<analysis><classification>positive</classification></analysis>",
     {"metric": "is-xml", "value": "analysis.classification"}, {}, True),
    (PF, "The result: <data><item>1</item></data> done", {"metric": "contains-xml"}, {}, True),
    (PF, "The result: <data><item>1</item></data> done", {"metric": "contains-xml",
                                                          "value": {"requiredElements": ["data.missing"]}}, {}, False),
    (PF, "plain text", {"metric": "contains-xml"}, {}, False),
    # is-html / contains-html
    (PF, "<div><p>Hello</p></div>", {"metric": "is-html"}, {}, True),
    (PF, "<!DOCTYPE html><html><body><h1>Title</h1></body></html>", {"metric": "is-html"}, {}, True),
    (PF, "Just some text", {"metric": "is-html"}, {}, False),
    (PF, "Here is a snippet: <div class=\"x\">Hi</div>", {"metric": "contains-html"}, {}, True),
    (PF, "5 < 6 and 7 > 3", {"metric": "contains-html"}, {}, False),
    (PF, "No markup at all", {"metric": "not-contains-html"}, {}, True),
    # levenshtein / word-count
    (PF, "hello world", {"metric": "levenshtein", "value": "hello world!", "threshold": 5}, {}, True),
    (PF, "goodbye moon", {"metric": "levenshtein", "value": "hello world", "threshold": 5}, {}, False),
    (PF, "hellp", {"metric": "levenshtein", "value": "hello"}, {}, True),  # default threshold 5
    (PF, "one two three four five", {"metric": "word-count", "value": 5}, {}, True),
    (PF, "one two three", {"metric": "word-count", "value": {"min": 5, "max": 10}}, {}, False),
    (PF, "a b c d e f", {"metric": "word-count", "value": {"min": 5, "max": 10}}, {}, True),
    # bleu / gleu / rouge-n
    (PF, "The quick brown fox jumps over the lazy dog.", {"metric": "bleu",
                                                          "value": "The quick brown fox jumps over the lazy dog."},
     {}, True),
    (PF, "A slow red cat.", {"metric": "bleu", "value": "The quick brown fox jumps over the lazy dog."}, {}, False),
    (PF, "The quick brown fox jumps over the dog.", {"metric": "bleu", "value":
        ["The quick brown fox jumps over the lazy dog.", "The quick brown fox jumps over the dog."]}, {}, True),
    (PF, "The cat sat on the mat.", {"metric": "gleu", "value": "The cat sat on the mat.", "threshold": 0.8}, {},
     True),
    (PF, "The dog ran.", {"metric": "gleu", "value": "The cat sat on the mat."}, {}, False),
    (PF, "The cat sat on the mat.", {"metric": "rouge-n", "value": "The cat sat on the mat."}, {}, True),
    (PF, "Dogs are great.", {"metric": "rouge-n", "value": "The cat sat on the mat."}, {}, False),
    # recall, as js-rouge's n() that promptfoo calls: 3 of the reference's 6 unigrams
    (PF, "the cat sat", {"metric": "rouge-n", "value": "the cat sat on the mat", "threshold": 0.6}, {}, False),
    (PF, "the cat sat", {"metric": "rouge-n", "value": "the cat sat on the mat", "threshold": 0.5}, {}, True),
    # finish-reason / tool calls
    (PF, "done", {"metric": "finish-reason", "value": "stop"}, {"finish_reason": "stop"}, True),
    (PF, "cut", {"metric": "finish-reason", "value": "stop"}, {"finish_reason": "length"}, False),
    (PF, "", {"metric": "finish-reason", "value": "tool_calls"}, {"finish_reason": "tool_calls"}, True),
    (PF, WEATHER_CALL, {"metric": "is-valid-openai-tools-call", "config": {"tools": TOOLS}}, {}, True),
    (PF, json.dumps([{"type": "function", "function": {"name": "get_current_weather", "arguments": "{}"}}]),
     {"metric": "is-valid-openai-tools-call", "config": {"tools": TOOLS}}, {}, False),
    (PF, WEATHER_CALL, {"metric": "tool-call-f1", "value": ["get_current_weather"]}, {}, True),
    (PF, WEATHER_CALL, {"metric": "tool-call-f1", "value": ["get_current_weather", "get_forecast"]}, {}, False),
    (PF, WEATHER_CALL, {"metric": "tool-call-f1", "value": "get_current_weather, get_forecast", "threshold": 0.5},
     {}, True),
    # latency / cost / perplexity
    (PF, "x", {"metric": "latency", "threshold": 5000}, {"latency_ms": 1200.0}, True),
    (PF, "x", {"metric": "latency", "threshold": 1000}, {"latency_ms": 1200.0}, False),
    (PF, "x", {"metric": "cost", "threshold": 0.002}, {"cost": 0.0015}, True),
    (PF, "x", {"metric": "cost", "threshold": 0.001}, {"cost": 0.0015}, False),
    (PF, "x", {"metric": "perplexity", "threshold": 1.5}, {"logprobs": [-0.1, -0.2, -0.05]}, True),
    (PF, "x", {"metric": "perplexity-score", "threshold": 0.5}, {"logprobs": [-0.1, -0.2]}, False),
    # python
    (PF, "Paris is the capital", {"metric": "python", "value": "output.startswith('Paris')"}, {}, True),
    (PF, "short", {"metric": "python", "value": "len(output) > 10"}, {}, False),
    (PF, "hello world", {"metric": "python", "value": "return {'pass': 'world' in output, 'score': 0.9, "
                                                       "'reason': 'has world'}"}, {}, True),
    (PF, "hello", {"metric": "python", "value": "0.7", "threshold": 0.8}, {}, False),
    # assert-set
    (PF, "Paris, France", {"metric": "assert-set", "assert": [{"metric": "contains", "value": "Paris"},
                                                               {"metric": "contains", "value": "France"}]}, {}, True),
    (PF, "Paris", {"metric": "assert-set", "threshold": 0.5, "assert": [{"metric": "contains", "value": "Paris"},
                                                                         {"metric": "contains", "value": "France"}]},
     {}, True),
    (PF, "Lyon", {"metric": "assert-set", "threshold": 0.5, "assert": [{"metric": "contains", "value": "Paris"},
                                                                        {"metric": "contains", "value": "France"}]},
     {}, False),
]


def test_there_are_at_least_100_rows():
    assert len(ROWS) >= 100


@pytest.mark.parametrize(("source", "output", "spec", "fields", "passed"), ROWS,
                         ids=[f"{i}-{r[2]['metric']}" for i, r in enumerate(ROWS)])
def test_conformance(source, output, spec, fields, passed):
    result = check(output, spec, **fields)
    assert result.error is None, result.error
    assert result.passed is passed, f"{source}: {spec} on {output!r} → {result.reason}"


@pytest.mark.parametrize(("source", "output", "spec", "fields", "passed"), ROWS,
                         ids=[f"not-{i}-{r[2]['metric']}" for i, r in enumerate(ROWS)])
def test_not_prefix_inverts_every_row(source, output, spec, fields, passed):
    negated = {**spec, "metric": spec["metric"][4:] if spec["metric"].startswith("not-") else f"not-{spec['metric']}"}
    result = check(output, negated, **fields)
    assert result.error is None and result.passed is (not passed)
