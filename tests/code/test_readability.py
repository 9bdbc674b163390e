"""Readability measures: thresholds, the languages they read, and clean vs minified programs."""

import pytest

from agentunit.code.readability import MEASURES, readability
from tests.data.build_code_languages import minified, readability_programs


def test_clean_programs_rank_above_their_minified_versions():
    programs = readability_programs()
    assert len(programs) >= 20
    wins = sum(readability(code, "python").value > readability(minified(code), "python").value
               for _, code in programs)
    assert wins / len(programs) >= 0.95


def _measures(code: str, language: str) -> dict:
    return {m.name: m for m in readability(code, language).measures}


CLEAN = '''def average(values: list[float]) -> float:
    """Arithmetic mean of the values."""
    # An empty list has no mean; say so instead of dividing by zero.
    if not values:
        raise ValueError("no values")
    return sum(values) / len(values)
'''


def test_each_measure_is_mapped_by_its_thresholds():
    measures = _measures(CLEAN, "python")
    assert set(measures) == set(MEASURES)
    # 2 of 6 lines hold the docstring and the comment
    assert measures["comments"].raw == pytest.approx(2 / 6) and measures["comments"].score == 1.0
    assert measures["identifiers"].score == 1.0 and measures["line_length"].score == 1.0
    assert measures["complexity"].raw == 2 and measures["complexity"].score == 1.0
    scored = readability(CLEAN, "python")
    total = sum(m.weight for m in scored.measures)
    assert scored.value == pytest.approx(sum(m.weight * m.score for m in scored.measures) / total)
    assert scored.detail()["comments"]["thresholds"] == {"zero": 0.0, "one": 0.1}


def test_long_lines_short_names_and_no_comments_score_low():
    line = "a=1;b=2;c=3;" * 20
    measures = _measures(line, "python")
    assert measures["line_length"].score == 0.0
    assert measures["comments"].score == 0.0
    short_names = "def f(a, b):\n    q = a + b\n    w = q * a\n    return w - b\n"
    assert _measures(short_names, "python")["identifiers"].score < 0.5
    words = "def total_price(unit_price, quantity):\n    subtotal = unit_price * quantity\n    return subtotal\n"
    assert _measures(words, "python")["identifiers"].score == 1.0


BRANCHY_JS = "function grade(s) {\n" + "".join(
    f"  if (s > {n}) {{ return {n}; }} else if (s < -{n}) {{ return -{n}; }}\n" for n in range(10)) + "  return 0;\n}\n"


def test_other_languages_use_lizard_for_complexity():
    simple = _measures("function add(a, b) {\n  return a + b;\n}\n", "javascript")
    assert "maintainability" not in simple and simple["complexity"].raw == 1
    branchy = _measures(BRANCHY_JS, "javascript")
    assert branchy["complexity"].raw == 21 and branchy["complexity"].score == 0.0
    assert _measures("SELECT id FROM users WHERE active;", "sql").keys() == {"line_length", "identifiers",
                                                                             "comments"}


def test_code_that_is_not_python_after_all_keeps_the_neutral_measures():
    measures = _measures("fn main() { println!(\"hi\"); }", "python")
    assert "maintainability" not in measures and "line_length" in measures
    assert readability("   \n", "python").value == 0.0
