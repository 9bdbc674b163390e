"""Verdict parity with promptfoo: its own assertion tests and docs, run through the promptfoo reader.

Each row is (promptfoo assertion, output, expected verdict, source). The assertion goes through
``convert_assertion`` exactly as a config's would, then through agentunit's metric. Sources are
files of https://github.com/promptfoo/promptfoo (MIT): ``test/...`` its unit tests, ``src/...`` its
implementation where the docs state the rule without an example.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agentunit import check
from agentunit.errors import MetricConfigError
from agentunit.promptfoo.assertions import convert_assertion, split_values
from agentunit.suite.problems import Problems

SPLIT = "test/util/parseCommaSeparatedValues.test.ts"
XML = "test/assertions/xml.test.ts"
REFUSAL = "test/assertions/refusal.test.ts"
TRAJ = "src/assertions/trajectory.ts"
CONTAINS = "src/assertions/contains.ts"
SQL = "src/assertions/sql.ts isSql"
XML_VALUE = "src/assertions/xml.ts handleIsXml"
FUNC = "src/providers/openai/util.ts validateFunctionCall"


def run(assertion: dict[str, Any], output: Any, provider_config: dict[str, Any] | None = None, **fields: Any):
    """One promptfoo assertion, read as a config's and evaluated on ``output``."""
    problems = Problems(file="promptfooconfig.yaml")
    entry = convert_assertion(assertion, ("tests", 0, "assert", 0), problems, variables={}, base_dir=Path("."),
                              provider_config=provider_config)
    assert entry is not None, [p.message for p in problems.errors]
    spec = {"metric": entry["type"], **{k: v for k, v in entry.items() if k in ("value", "threshold", "config")}}
    return check(output, spec, **fields)


# parseCommaSeparatedValues: every row of promptfoo's table.
SPLIT_ROWS = [
    ("", []), ("   ", []), ('"hello, world",foo', ["hello, world", "foo"]), ('"say \\"hi\\"",b', ['say "hi"', "b"]),
    ('a ""quoted"" value, plain', ['a ""quoted"" value', "plain"]), ("alpha, , beta,, ", ["alpha", "beta"]),
    ("  spaced  ,  next  ", ["spaced", "next"]), ('"only one"', ["only one"]),
    ("no-quotes-at-all", ["no-quotes-at-all"]),
    ('"trailing"   ', ["trailing"]), ("a,b,c", ["a", "b", "c"]), ('""', [""]), ('" ",x', [" ", "x"]),
    ('x,"y,z"', ["x", "y,z"]), ('"a","b"', ["a", "b"]), ('"a" , "b"', ["a", "b"]), ('"\\n",x', ["\\n", "x"]),
    ('"\\\\",x', ["\\", "x"]), ("a,", ["a"]), (",a", ["a"]), (",,,", []),
    ('"comma,inside","another, one"', ["comma,inside", "another, one"]),
    ('mix,"quoted, field",bare', ["mix", "quoted, field", "bare"]), ('"a""b""c"', ['a"b"c']),
    ('"你好，世界",café', ["你好，世界", "café"]),
]


@pytest.mark.parametrize(("value", "expected"), SPLIT_ROWS)
def test_value_splitting_matches_promptfoo(value: str, expected: list[str]) -> None:
    assert split_values(value) == expected  # source: SPLIT


@pytest.mark.parametrize("value", ['"a"b,c', '"unterminated'])
def test_malformed_values_are_errors_naming_the_field(value: str) -> None:
    with pytest.raises(ValueError):
        split_values(value)  # source: SPLIT (rejects)
    problems = Problems(file="promptfooconfig.yaml")
    assert convert_assertion({"type": "contains-any", "value": value}, ("tests", 0, "assert", 0), problems,
                             variables={}, base_dir=Path(".")) is None
    assert problems.errors[0].key_path == ("tests", 0, "assert", 0, "value")


WEATHER = [{"type": "function", "function": {"name": "get_weather", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]
FUNCTIONS = [w["function"] for w in WEATHER]
CALLS = {"output": "done", "trusys": {"tool_calls": [
    {"name": "lookup_reservation", "arguments": {"confirmation_number": "ABC123"}},
    {"name": "update_seat", "arguments": {"confirmation_number": "ABC123", "new_seat": "14C", "request_id": "r1",
                                          "notify": True}},
    {"name": "faq_lookup", "arguments": {"topic": "baggage"}},
    {"name": "exec_command", "arguments": {"cmd": ["ls", "-la"]}}]}}

ROWS: list[tuple[dict[str, Any], Any, bool, str]] = [
    # contains-any / -all over promptfoo's splitting (quoted commas, escaped quotes, empty entries)
    ({"type": "contains-any", "value": '"hello, world",foo'}, "she said hello, world", True, CONTAINS),
    ({"type": "contains-any", "value": '"hello, world",foo'}, "hello world", False, CONTAINS),
    ({"type": "contains-all", "value": '"say \\"hi\\"",b'}, 'b: say "hi"', True, CONTAINS),
    ({"type": "contains-all", "value": 'a ""quoted"" value, plain'}, 'a ""quoted"" value, plain', True, CONTAINS),
    ({"type": "contains-all", "value": 'a ""quoted"" value, plain'}, 'a "quoted" value, plain', False, CONTAINS),
    ({"type": "contains-all", "value": "alpha, , beta,, "}, "alpha and beta", True, CONTAINS),
    ({"type": "icontains-any", "value": "x,\"Y,Z\""}, "a y,z b", True, CONTAINS),
    ({"type": "icontains-all", "value": '"a" , "b"'}, "A B", True, CONTAINS),
    ({"type": "not-contains-any", "value": "red, blue"}, "green", True, CONTAINS),
    # is-xml / contains-xml: required elements root-relative, indexed siblings
    ({"type": "is-xml"}, "<root><child>Content</child></root>", True, XML),
    ({"type": "is-xml"}, "<root><child>Content</child></root", False, XML),
    ({"type": "is-xml"}, "<a></b>", False, XML),
    ({"type": "is-xml"}, "<a><b></a></b>", False, XML),
    ({"type": "is-xml"}, "<a>text</a><b>more</b>", False, XML),
    ({"type": "is-xml"}, "<a attr=unquoted>x</a>", False, XML),
    ({"type": "is-xml"}, '<root attr="1" attr="2"/>', False, XML),
    ({"type": "is-xml"}, "<root>&undefined;</root>", False, XML),
    ({"type": "is-xml"}, "", False, XML),
    ({"type": "is-xml"}, "```xml\n<a/>\n```", False, XML),
    ({"type": "is-xml"}, '<!DOCTYPE root [<!ENTITY writer "Donald">]><root>&writer;</root>', False, XML),
    ({"type": "is-xml"}, '<root xmlns:ns="http://example.com"><ns:child>Content</ns:child></root>', True, XML),
    ({"type": "is-xml", "value": "analysis.classification,analysis.color"},
     "<analysis><classification>T-shirt</classification><color>Red</color></analysis>", True, XML),
    ({"type": "is-xml", "value": {"requiredElements": ["analysis.classification", "analysis.color"]}},
     "<analysis><classification>T-shirt</classification></analysis>", False, XML),
    ({"type": "is-xml", "value": ["root.parent.child.grandchild"]},
     "<root><parent><child><grandchild>Content</grandchild></child></parent></root>", True, XML),
    ({"type": "is-xml", "value": ["root.parent.child.grandchild"]},
     "<root><parent><child></child></parent></root>", False, XML),
    ({"type": "is-xml", "value": ["root.emptyChild", "root.nonEmptyChild"]},
     "<root><emptyChild></emptyChild><nonEmptyChild>Content</nonEmptyChild></root>", True, XML),
    ({"type": "is-xml", "value": ["root.child"]}, "<root><child>Content1</child><child>Content2</child></root>",
     True, XML),
    ({"type": "is-xml", "value": ["root.item.0.name", "root.item.1.name"]},
     "<root><item><name>First</name></item><item><name>Second</name></item></root>", True, XML),
    ({"type": "is-xml", "value": ["root.item.2.name"]},
     "<root><item><name>First</name></item><item><name>Second</name></item></root>", False, XML),
    ({"type": "is-xml", "value": ["root.child"]},
     "<root><child><![CDATA[<p>This is CDATA content</p>]]></child></root>", True, XML),
    ({"type": "is-xml", "value": ["root.child"]}, '<?xml version="1.0" encoding="UTF-8"?><root><child>Content'
                                                  "</child></root>", True, XML),
    ({"type": "contains-xml"}, "Some text <root><child>Content</child></root> more text", True, XML),
    ({"type": "contains-xml"}, "This is just plain text", False, XML),
    ({"type": "contains-xml", "value": ["root.child"]}, "Text <root><child>Content</child></root> more", True, XML),
    ({"type": "contains-xml", "value": ["root.item.1.name"]},
     "Text <root><item><name>First</name></item><item><name>Second</name></item></root> more", True, XML),
    ({"type": "contains-xml", "value": ["root.missing"]}, "Text <root><child>Content</child></root> more", False,
     XML),
    ({"type": "contains-xml", "value": ["root2.child"]},
     "<root1>Content</root1> text <root2><child>More</child></root2>", True, XML),
    ({"type": "contains-xml", "value": ["root.child"]}, "Text <unclosed><root><child>Content</child></root>", True,
     XML),
    ({"type": "contains-xml", "value": ["root.child"]}, "<root><!-- </root> --><child>Content</child></root>", True,
     XML),
    # is-refusal
    ({"type": "is-refusal"}, "I apologize, but I cannot assist with that request.", True, REFUSAL),
    ({"type": "is-refusal"}, "Here's how to accomplish that task...", False, REFUSAL),
    ({"type": "not-is-refusal"}, "Here's how to accomplish that task...", True, REFUSAL),
    ({"type": "not-is-refusal"}, "I apologize, but I cannot assist with that request.", False, REFUSAL),
    ({"type": "is-refusal"}, "", True, REFUSAL),
    ({"type": "is-refusal"}, "   \n\t  ", True, REFUSAL),
    ({"type": "not-is-refusal"}, "", False, REFUSAL),
    ({"type": "is-refusal"}, "I'm sorry to hear that.", False, REFUSAL),
    *[({"type": "is-refusal"}, text, True, REFUSAL) for text in (
        "I apologize, but I refuse to help", "Sorry, I decline that request", "I apologize, but I must say no",
        "Sorry, but I have to turn down that request", "I'm sorry, but I'm unable to do that",
        "My apologies, but we're not able to assist", "I'm sorry, but due to U.S. policy, I can't do that",
        "I'm sorry, but due to safety concerns,\nI can't do that",
        f"I'm sorry, but {'this requires careful consideration ' * 8}I can't do that",
        "I'm sorry about the inconvenience. I can't do that", "I apologize, but I cannot reveal that information",
        "Sorry, we cannot offer instructions", "I'm sorry, but I am unfortunately unable to help",
        "I'm sorry, but I can't imagine any circumstances in which I would provide those instructions",
        "I'm sorry, but I am not allowed to provide that information",
        "I apologize, but we're not permitted to disclose that", "I apologize, but I'm not authorized to reveal that",
        "Sorry, but I am not supposed to share that", "I apologize, but I'm prohibited from helping",
        "My apologies, but we're forbidden from offering instructions", "I'm sorry, but that won't be possible",
        "I apologize, but this request cannot be fulfilled", "Sorry, but it is not possible to help with that",
        "My apologies, but your request won't be accommodated",
        "I apologize, but the requested information cannot be provided", "Sorry, no.",
        "I apologize, but absolutely not", "My apologies; definitely no!", "Sorry, not possible.",
        "I am not able to help with that request", "As an AI, I cannot assist with that request",
        "That request is not ethical and I cannot assist",
        "The generated text has been blocked by our content filters", "i Am NoT able TO help with that Request",
        "I CANNOT ASSIST WITH THAT REQUEST")],
    # trajectory:* over the run's tool calls
    ({"type": "trajectory:tool-used", "value": ["lookup_reservation", "update_seat", "faq_lookup"]}, CALLS, True,
     TRAJ),
    ({"type": "trajectory:tool-used", "value": "cancel_booking"}, CALLS, False, TRAJ),
    ({"type": "trajectory:tool-used", "value": "*_LOOKUP"}, CALLS, True, TRAJ),
    ({"type": "not-trajectory:tool-used", "value": ["cancel_booking", "refund"]}, CALLS, True, TRAJ),
    ({"type": "not-trajectory:tool-used", "value": ["cancel_booking", "faq_lookup"]}, CALLS, False, TRAJ),
    ({"type": "trajectory:tool-used", "value": {"pattern": "*lookup*", "min": 2}}, CALLS, True, TRAJ),
    ({"type": "trajectory:tool-used", "value": {"name": "update_seat", "max": 0}}, CALLS, False, TRAJ),
    ({"type": "trajectory:tool-sequence", "value": ["lookup_reservation", "faq_lookup"]}, CALLS, True, TRAJ),
    ({"type": "trajectory:tool-sequence", "value": ["faq_lookup", "update_seat"]}, CALLS, False, TRAJ),
    ({"type": "trajectory:tool-sequence", "value": {"mode": "exact", "steps": [
        "lookup_reservation", "update_seat", "faq_lookup"]}}, CALLS, True, TRAJ),  # exec_command is a command
    ({"type": "trajectory:tool-sequence", "value": {"mode": "exact", "steps": ["lookup_reservation",
                                                                             "update_seat"]}}, CALLS, False, TRAJ),
    ({"type": "trajectory:tool-args-match", "value": {"name": "update_seat", "args": {
        "confirmation_number": "ABC123", "new_seat": "14C"}, "mode": "partial"}}, CALLS, True, TRAJ),
    ({"type": "trajectory:tool-args-match", "value": {"name": "update_seat", "args": {"new_seat": "15A"}}}, CALLS,
     False, TRAJ),
    ({"type": "trajectory:tool-args-match", "value": {"name": "update_seat", "args": {
        "confirmation_number": "ABC123", "new_seat": "14C"}, "mode": "exact"}}, CALLS, False, TRAJ),
    ({"type": "trajectory:tool-args-match", "value": {"name": "update_seat", "args": {
        "confirmation_number": "ABC123", "new_seat": "14C"}, "mode": "exact", "ignore": "*_id",
        "defaults": {"notify": True}}}, CALLS, True, TRAJ),
    ({"type": "trajectory:tool-args-match", "value": {"name": "update_seat", "args": {"notify": 1}}}, CALLS, False,
     TRAJ),
    ({"type": "trajectory:step-count", "value": {"type": "tool", "max": 3}}, CALLS, True, TRAJ),
    ({"type": "trajectory:step-count", "value": {"min": 5}}, CALLS, False, TRAJ),
    ({"type": "trajectory:step-count", "value": {"type": "command", "pattern": "ls", "min": 1, "max": 1}}, CALLS,
     True, TRAJ),
    # is-valid-openai-tools-call / -function-call: the provider's tools/functions
    ({"type": "is-valid-openai-tools-call"},
     json.dumps([{"type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}]),
     True, "src/assertions/openai.ts"),
    ({"type": "is-valid-openai-tools-call"},
     json.dumps([{"type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]), False,
     "src/assertions/openai.ts"),
    ({"type": "is-valid-openai-function-call"}, json.dumps({"name": "get_weather", "arguments": '{"city": "Oslo"}'}),
     True, FUNC),
    ({"type": "is-valid-openai-function-call"}, json.dumps({"name": "get_weather", "arguments": "{}"}), False, FUNC),
    ({"type": "is-valid-openai-function-call"}, json.dumps({"name": "get_time", "arguments": "{}"}), False, FUNC),
    ({"type": "is-valid-openai-function-call"}, "It is sunny in Oslo.", False, FUNC),
    # meteor (src/assertions/meteor.ts: exact, stem and synonym matching; threshold 0.5)
    ({"type": "meteor", "value": "The cat sat on the mat."}, "The cat sat on the mat.", True,
     "src/assertions/meteor.ts"),
    ({"type": "meteor", "value": ["Completely unrelated words here", "The cat sat on the mat"]},
     "The cat sat on the mat", True, "src/assertions/meteor.ts"),
    ({"type": "meteor", "value": "The cat sat on the mat."}, "Dogs bark loudly at night", False,
     "src/assertions/meteor.ts"),
    ({"type": "meteor", "value": "The cat sat on the mat.", "threshold": 0.99}, "The cat was sitting on the mat",
     False, "src/assertions/meteor.ts"),
]


@pytest.mark.parametrize(("assertion", "output", "passed", "source"), ROWS,
                         ids=[f"{i}-{r[0]['type']}" for i, r in enumerate(ROWS)])
def test_verdict_parity(assertion: dict[str, Any], output: Any, passed: bool, source: str) -> None:
    result = run(assertion, output, provider_config={"tools": WEATHER, "functions": FUNCTIONS})
    assert result.error is None, result.error
    assert result.passed is passed, (source, result.reason)


# promptfoo's is-sql and contains-sql tests (test/assertions/sql.test.ts): MySQL unless databaseType says
# otherwise, the missing-comma rule, and the whitelists with regular-expression operations.
def _sql(value: dict[str, Any] | None = None, kind: str = "is-sql") -> dict[str, Any]:
    return {"type": kind, **({"value": value} if value is not None else {})}


_PG, _MYSQL = {"databaseType": "PostgreSQL"}, {"databaseType": "MySQL"}
_ANY_OP_DEPARTMENTS = {**_MYSQL, "allowedTables": ["(select|update|insert|delete)::null::departments"]}
_LIKE = "SELECT first_name, last_name FROM employees WHERE first_name ILIKE 'john%'"
SQL_ROWS = [
    (_sql(), "SELECT id, name FROM users", True),
    (_sql(), "SELECT DISTINCT name FROM users", True),
    (_sql(), "select distinct id from users", True),
    (_sql(), "SELECT SQL_NO_CACHE name FROM users", True),
    (_sql(), "SELECT DISTINCT SQL_NO_CACHE name FROM users", True),
    (_sql(_PG), 'SELECT DISTINCT "display name" FROM users', True),
    (_sql(), "SELECT 'select distinct first_name last_name from employees' AS sample", True),
    (_sql(), "SELECT 1 /* select distinct first_name last_name from employees */", True),
    (_sql(), "SELECT 1 -- select distinct first_name last_name from employees\n", True),
    (_sql(_PG), 'SELECT "select distinct first_name last_name from employees" AS sample', True),
    (_sql(_PG), "SELECT $$select distinct first_name last_name from employees$$ AS sample", True),
    (_sql(), "SELECT a b FROM t", False),
    (_sql(), "SELECT DISTINCT first_name last_name FROM employees", False),
    (_sql(), "SELECT SQL_NO_CACHE first_name last_name FROM employees", False),
    (_sql(), "SELECT DISTINCTIVE name FROM users", False),
    (_sql(), "", False),
    (_sql(), "   ", False),
    (_sql(), "SELECT * FROM orders ORDERY BY order_date", False),
    (_sql(), "SELECT * FROM select WHERE id = 1", False),
    (_sql(), "DELETE employees WHERE id = 1", False),
    (_sql(), "SELECT first_name last_name FROM employees", False),
    (_sql(), "SELECT * FROM `employees", False),
    (_sql(), "SELECT * FROM `employees` WHERE `id` = 1", True),
    (_sql(), "SELECT `id, `name FROM `users", False),
    (_sql(), "SELECT col1 col2 col3 FROM table1", False),
    (_sql(_PG), "SELECT * FROM employees WHERE id = 1 LOCK IN SHARE MODE", False),
    (_sql(_MYSQL), _LIKE, False),
    (_sql(_PG), _LIKE, True),
    (_sql(_MYSQL), "SELECT generate_series(1, 10);", False),
    (_sql(_MYSQL), "SELECT * FROM table_name WHERE id IN (SELECT generate_series(1, 5));", False),
    (_sql(_ANY_OP_DEPARTMENTS), "SELECT * FROM employees", False),
    (_sql(_ANY_OP_DEPARTMENTS), "SELECT * FROM departments", True),
    (_sql({**_MYSQL, "allowedColumns": ["select::null::name", "update::null::id"]}), "SELECT id FROM t", False),
    (_sql({**_MYSQL, "allowedColumns": ["insert::department::dept_name", "insert::department::location"]}),
     "INSERT INTO department (dept_name, location) VALUES ('Sales', 'New York')", True),
    (_sql({**_MYSQL, "allowedColumns": ["update::a::id"]}), "UPDATE a SET id = 1", True),
    (_sql(kind="contains-sql"), "Result:\n```sql\nSELECT DISTINCT name FROM users\n```", True),
]


@pytest.mark.parametrize(("assertion", "output", "passed"), SQL_ROWS,
                         ids=[f"{i}-{r[0]['type']}" for i, r in enumerate(SQL_ROWS)])
def test_sql_verdict_parity(assertion: dict[str, Any], output: str, passed: bool) -> None:
    result = run(assertion, output)
    assert result.error is None, result.error
    assert result.passed is passed, result.reason


def test_contains_xml_paths_are_relative_to_the_outermost_fragment() -> None:
    result = run({"type": "contains-xml", "value": ["root.child"]},
                 "Text <wrapper><root><child>Content</child></root></wrapper>")  # source: XML
    assert result.passed is False


def test_the_table_covers_every_new_type() -> None:
    kinds = {r[0]["type"].removeprefix("not-") for r in ROWS}
    assert {"is-refusal", "trajectory:tool-used", "trajectory:tool-sequence", "trajectory:tool-args-match",
            "trajectory:step-count", "is-valid-openai-function-call", "is-valid-openai-tools-call", "meteor",
            "is-xml", "contains-xml", "contains-any", "contains-all"} <= kinds
    assert len(ROWS) >= 100


# -- the same assertions written in an agentunit suite (issue 52) ------------------------------------------
# promptfoo's assertion types are agentunit metric names; written natively ({metric: contains-any, value:
# "…"}, or a CSV ``__expected`` cell) they must give promptfoo's verdict too, not only through the reader.
NATIVE_TYPES = {"contains-any", "contains-all", "icontains-any", "icontains-all", "is-xml", "contains-xml",
                "is-sql", "contains-sql"}
REFUSED = "refused"  # promptfoo's handler throws: an error result there, a config error here


def run_native(assertion: dict[str, Any], output: Any):
    spec = {"metric": assertion["type"], **({"value": assertion["value"]} if "value" in assertion else {})}
    return check(output, spec)


def run_reader(assertion: dict[str, Any], output: Any):
    """``run``, with a value the reader refuses (a problem, no entry) raised as a config error."""
    problems = Problems(file="promptfooconfig.yaml")
    entry = convert_assertion(assertion, ("tests", 0, "assert", 0), problems, variables={}, base_dir=Path("."))
    if entry is None:
        raise MetricConfigError("; ".join(p.message for p in problems.errors))
    return check(output, {"metric": entry["type"], **{k: v for k, v in entry.items() if k in ("value", "config")}})


def _verdict(runner, assertion: dict[str, Any], output: Any) -> bool | str:
    try:
        result = runner(assertion, output)
    except MetricConfigError:
        return REFUSED
    assert result.error is None, result.error
    return result.passed


# Verdicts derived from promptfoo's code: contains-any/-all split a string with parseCommaSeparatedValues
# (src/util/parseCommaSeparatedValues.ts: JavaScript white space skipped around commas and trimmed from
# unquoted fields, empty fields dropped, \" and "" inside quotes); is-sql parses with node-sql-parser under
# `value.databaseType || 'MySQL'` (src/assertions/sql.ts); is-xml/contains-xml take a string (split on
# commas), an array, or an object whose requiredElements is an array, require nothing for [] or {}, and
# throw for any other object (src/assertions/xml.ts handleIsXml).
ISSUE_52_ROWS: list[tuple[dict[str, Any], Any, bool | str, str]] = [
    ({"type": "icontains-any", "value": ",WORLD,,"}, "", False, CONTAINS),          # one item, WORLD
    ({"type": "contains-any", "value": "red,,blue"}, "green", False, CONTAINS),     # no empty item to find
    ({"type": "contains-any", "value": 'foo,\t"hello, world"'}, "say hello, world", True, CONTAINS),
    ({"type": "contains-all", "value": '"say \\"hi\\"",b'}, 'b: say "hi"', True, CONTAINS),
    ({"type": "contains-all", "value": "alpha,\tbeta"}, "alpha beta", True, CONTAINS),
    ({"type": "contains-all", "value": "alpha ,beta"}, "alpha,beta", True, CONTAINS),  # trimmed both sides
    ({"type": "icontains-all", "value": "alpha,\u00a0BETA"}, "Alpha beta", True, CONTAINS),  # JS trim: NBSP
    ({"type": "contains-any", "value": '"a" ,b'}, "b", True, CONTAINS),              # space after the quote
    ({"type": "is-sql"}, "SELECT * FROM `employees` WHERE `id` = 1", True, SQL),
    ({"type": "is-sql"}, "SELECT * FROM `employees", False, SQL),
    ({"type": "is-sql"}, "SELECT first_name last_name FROM employees", False, SQL),
    ({"type": "is-sql"}, "SELECT id FROM users WHERE name ILIKE 'x%'", False, SQL),
    ({"type": "is-sql", "value": {"allowedTables": ["select::null::orders"]}}, "SELECT * FROM `orders`", True, SQL),
    ({"type": "contains-sql"}, "Query:\n```sql\nSELECT a b FROM t\n```", False, SQL),
    ({"type": "is-xml", "value": {}}, "<root><child>x</child></root>", True, XML_VALUE),
    ({"type": "is-xml", "value": []}, "<root><child>x</child></root>", True, XML_VALUE),
    ({"type": "is-xml", "value": {"requiredElements": []}}, "<root><child>x</child></root>", True, XML_VALUE),
    ({"type": "is-xml", "value": {"requiredElements": "root.child"}}, "<root><child>x</child></root>", REFUSED,
     XML_VALUE),
    ({"type": "is-xml", "value": {"requiredElements": {"root": "child"}}}, "<root><child>x</child></root>", REFUSED,
     XML_VALUE),
    ({"type": "contains-xml", "value": {"requiredElements": {"root.child": True}}}, "<root><child>x</child></root>",
     REFUSED, XML_VALUE),
]


@pytest.mark.parametrize(("assertion", "output", "expected", "source"), ISSUE_52_ROWS,
                         ids=[f"{i}-{r[0]['type']}" for i, r in enumerate(ISSUE_52_ROWS)])
@pytest.mark.parametrize("runner", [run_reader, run_native], ids=["reader", "native"])
def test_issue_52_rows_through_the_reader_and_natively(runner, assertion, output, expected, source) -> None:
    assert _verdict(runner, assertion, output) == expected, source


@pytest.mark.parametrize(("assertion", "output", "passed"),
                         [(r[0], r[1], r[2]) for r in ROWS if r[0]["type"].removeprefix("not-") in NATIVE_TYPES]
                         + SQL_ROWS)
def test_promptfoos_rows_written_natively_give_its_verdict(assertion, output, passed) -> None:
    result = run_native(assertion, output)
    assert result.error is None, result.error
    assert result.passed is passed, result.reason
