import math

from agentunit.suite.fields import (
    MAX_INTEGER,
    boolean,
    by_type,
    check_fields,
    choice,
    integer,
    is_finite_number,
    json_template,
    list_of,
    mapping,
    number,
    shown,
    template,
    template_or_number,
    text,
)
from agentunit.suite.problems import Problems


def test_shown_describes_values_briefly_without_converting_huge_numbers():
    assert shown(None) == "nothing" and shown(True) == "true" and shown(3) == "3" and shown(math.nan) == "nan"
    assert shown(10**399) == "a 400-digit number"
    assert shown(10**20000) == "a number of about 20001 digits"  # past Python's int-to-text limit
    assert shown("x" * 100) == repr("x" * 40) + "…" and shown([1]) == "a list" and shown({}) == "an object"


def test_numbers_must_be_finite_and_in_range():
    assert not is_finite_number(10**400) and not is_finite_number(True) and is_finite_number(2**70)
    check = number(above=0)
    assert check(0.5) is None
    assert check(0) == "must be a finite number > 0, got 0"
    assert check(math.inf) == "must be a finite number > 0, got inf"
    assert check(10**400) == "must be a finite number > 0, got a 401-digit number"
    assert number(0, 1)(1.5) == "must be a finite number ≥ 0 and ≤ 1, got 1.5"
    assert number()("1") == "must be a finite number, got '1'"


def test_integers_are_whole_bounded_and_not_booleans():
    check = integer(1)
    assert check(1) is None and check(MAX_INTEGER) is None
    assert check(MAX_INTEGER + 1) == "must be an integer ≥ 1, got 9223372036854775808"
    assert check(True) == "must be an integer ≥ 1, got true" and check(2.0) == "must be an integer ≥ 1, got 2.0"
    assert check(None) == "must be an integer ≥ 1, got nothing"
    assert integer(0, 65535)(70000) == "must be an integer ≥ 0 and ≤ 65535, got 70000"


def test_text_boolean_choice_list_and_mapping():
    assert text()(1) == "must be text, got 1" and text(nonblank=True)(" ") == "must not be blank"
    assert boolean()("no") == "must be true or false, got 'no'"
    assert choice("a", "b")("c") == "must be one of a, b, got 'c'"
    assert list_of(text(), "strings", nonempty=True)([]) == "must be a non-empty list of strings"
    assert list_of(text(), "strings")(["a", 2]) == "item 1 must be text, got 2"
    assert mapping(text())({"k": 1}) == "'k' must be text, got 1"
    assert mapping()({1: "a"}) == "keys must be text, got 1"


def test_by_type_lets_the_check_of_the_values_type_decide():
    check = by_type("text or a list", text=template(), list=list_of(template_or_number(), "arguments"))
    assert check("echo {{ prompt }}") is None and check(["echo", 3]) is None
    assert check(["echo", "{{ x "]).startswith("item 1 is not a valid template: template syntax error")
    assert check({"a": 1}) == "must be text or a list, got an object"


def test_templates_are_compiled_not_rendered():
    assert template()("{{ undefined_here }}") is None  # rendering, not compiling, needs the variables
    assert template()("{% for %}").startswith("is not a valid template: template syntax error")
    assert template_or_number()(2) is None and template_or_number()(None) == "must be text or a number, got nothing"


def test_json_templates_walk_any_depth_without_recursion():
    deep: list = []
    node = deep
    for _ in range(50_000):
        node.append([])
        node = node[0]
    node.append("{{ bad ")
    assert json_template()(deep).startswith("is not a valid template")
    assert json_template()({"a": [1, None, True, "{{ prompt }}"]}) is None
    assert json_template()({"a": math.nan}) == "must hold finite numbers only, got nan"
    assert json_template()({1: "a"}) == "object keys must be text"


def test_check_fields_reports_each_present_field_at_its_path():
    problems = Problems(file=None)
    ok = check_fields({"a": 0, "b": "x", "c": 5}, {"a": integer(1), "b": text(), "d": text()}, ("options",),
                      problems)
    assert not ok
    assert [(p.message, p.key_path) for p in problems.errors] == [("a must be an integer ≥ 1, got 0",
                                                                  ("options", "a"))]
