"""Field checks at their edges: inclusive bounds, the defaults of each check, the value each message
shows, and the value types ``by_type`` dispatches on (mutation testing found these unpinned)."""

import math

from agentunit.suite.fields import (
    MAX_INTEGER,
    boolean,
    by_type,
    check_fields,
    integer,
    json_template,
    list_of,
    mapping,
    number,
    scalar,
    shown,
    template,
    template_or_number,
    text,
)
from agentunit.suite.problems import Problems


def test_shown_writes_64_bit_integers_out_and_counts_the_digits_of_longer_ones():
    assert shown(2**64 - 1) == "18446744073709551615"
    assert shown(2**64) == "a 20-digit number"
    assert shown(2**13_999) == "a 4215-digit number"  # 14,000 bits: still converted to count its digits
    assert shown(2**14_000) == "a number of about 4215 digits"  # 14,001 bits: estimated, never converted
    assert shown(-(2**64)) == "a 20-digit number"


def test_shown_cuts_text_after_40_characters_and_names_other_types():
    assert shown("x" * 40) == repr("x" * 40)
    assert shown("x" * 41) == repr("x" * 40) + "…"
    assert shown({1, 2}) == "a set" and shown(b"x") == "a bytes" and shown((1,)) == "a list"


def test_integer_bounds_are_inclusive_and_the_message_names_only_the_bounds_given():
    assert integer()(-MAX_INTEGER) is None and integer()(MAX_INTEGER) is None
    assert integer()(-MAX_INTEGER - 1) == f"must be an integer, got {-MAX_INTEGER - 1}"
    assert integer()(True) == "must be an integer, got true"
    assert integer(0, 10)(0) is None and integer(0, 10)(10) is None
    assert integer(0, 10)(11) == "must be an integer ≥ 0 and ≤ 10, got 11"


def test_number_bounds_are_inclusive_and_above_is_exclusive():
    assert number(0, 1)(0) is None and number(0, 1)(1) is None and number(0, 1)(0.5) is None
    assert number(0, 1)(-0.001) == "must be a finite number ≥ 0 and ≤ 1, got -0.001"
    assert number(above=0)(1e-9) is None
    assert number(0, above=1)(1) == "must be a finite number ≥ 0 and > 1, got 1"


def test_boolean_accepts_both_booleans_only():
    assert boolean()(True) is None and boolean()(False) is None
    assert boolean()(1) == "must be true or false, got 1"


def test_text_may_be_blank_unless_nonblank_is_asked():
    assert text()(" ") is None and text()("") is None and text()("x") is None
    assert text(nonblank=True)("x") is None and text(nonblank=True)("\t") == "must not be blank"


def test_each_check_shows_the_value_it_refused():
    assert template()(3) == "must be text, got 3"
    assert json_template()({"a": [object()]}) == "must be JSON data, got a object"
    assert json_template()({"a": [1, 2.5, True, None, "{{ x }}"]}) is None
    assert json_template()([math.inf]) == "must hold finite numbers only, got inf"
    assert template_or_number()([1]) == "must be text or a number, got a list"
    assert list_of(text(), "strings")("a") == "must be a list of strings, got 'a'"
    assert mapping()(3) == "must be an object, got 3"


def test_scalar_is_text_or_a_finite_number():
    assert scalar()("a") is None and scalar()(2) is None and scalar()(2.5) is None
    assert scalar()(math.nan) == "must be text or a number, got nan"
    assert scalar()(None) == "must be text or a number, got nothing"
    assert scalar()([1]) == "must be text or a number, got a list"


def test_lists_may_be_empty_and_mappings_need_no_value_check_by_default():
    assert list_of(text(), "strings")([]) is None
    assert mapping()({"k": 1, "j": [None]}) is None


def test_by_type_dispatches_integers_numbers_and_objects_to_their_checks():
    check = by_type("a count, a ratio or an object", integer=integer(1), number=number(0, 1), object=mapping(text()))
    assert check(2) is None and check(0) == "must be an integer ≥ 1, got 0"  # an int is checked as an integer
    assert check(0.5) is None and check(1.5) == "must be a finite number ≥ 0 and ≤ 1, got 1.5"
    assert check({"a": "b"}) is None and check({"a": 1}) == "'a' must be text, got 1"
    assert check(True) == "must be a count, a ratio or an object, got true"  # a boolean is no number
    assert check("2") == "must be a count, a ratio or an object, got '2'"


def test_check_fields_answers_true_or_false_and_records_each_bad_field():
    problems = Problems()
    schema = {"repeat": integer(1), "name": text(), "absent": boolean()}
    assert check_fields({"repeat": 2, "name": "n"}, schema, ("options",), problems) is True
    assert check_fields({"repeat": 0, "name": 3}, schema, ("options",), problems) is False
    assert [(p.message, p.key_path) for p in problems.errors] == [
        ("repeat must be an integer ≥ 1, got 0", ("options", "repeat")),
        ("name must be text, got 3", ("options", "name"))]
