"""What mutation testing found unpinned in ``agentunit.core.templating`` (docs/testing.md, "Mutation testing").

Every sandbox limit at its boundary (a width, a repetition, a power, the rendered length: the limit itself
is allowed, one more is refused), how a refused number is shown, the filters whose piped value is data,
the 80-character excerpt, and the texts of the errors a suite author reads.
"""

from __future__ import annotations

import pytest

from agentunit.core.templating import MAX_RENDER_CHARS, TemplateError, render, render_value


def _error(template, variables=None):
    with pytest.raises(TemplateError) as info:
        render(template, variables or {})
    return str(info.value)


def test_widths_up_to_the_limit_are_allowed_and_one_more_is_refused():
    assert render("{{ 'x'.ljust(1000000) }}", {}) == "x".ljust(MAX_RENDER_CHARS)  # exactly the rendered-length limit
    assert render("{{ 'x'.ljust(3, 'y') }}{{ 'x'.center(True) }}", {}) == "xyyx"  # a fill text, a bool: no widths
    assert _error("{{ 'x'.ljust(1000001) }}") == ("template not allowed: number argument 1000001 is above the "
                                                  "template limit of 1,000,000 in \"{{ 'x'.ljust(1000001) }}\"")
    assert "number argument -1000001 is above" in _error("{{ 'x'.rjust(-1000001) }}")


@pytest.mark.parametrize(("number", "shown"), [
    ("10**19", "10000000000000000000"),   # 20 digits: written out
    ("10**20", "with 21 digits"),
    ("2**9999", "with 3000 digits"),       # 10,000 bits: estimated from the bit length (10000 * 3 // 10)
    ("2**9998", "with 3010 digits"),       # 9,999 bits: counted
    ("2**20000", "with 6000 digits"),
])
def test_a_refused_number_is_shown_short(number, shown):
    assert _error(f"{{{{ 'x'.ljust({number}) }}}}").startswith(f"template not allowed: number argument {shown} is")


def test_width_filters_check_their_width_not_the_value_piped_in():
    assert render("{{ 10000000 | center(3) }}", {}) == "10000000"
    for name in ("center", "indent"):
        assert _error(f"{{{{ 'x' | {name}(1000001) }}}}").startswith(
            "template not allowed: number argument 1000001 is above the template limit of 1,000,000")


def test_repetition_and_powers_at_their_limits():
    assert len(render("{{ 'x' * 1000000 }}", {})) == MAX_RENDER_CHARS
    assert _error("{{ 'x' * 1000001 }}").startswith("template not allowed: repetition would make 1,000,001 items")
    assert render("{{ 1 ** 1000000 }} {{ (-1) ** 1000001 }} {{ 5 ** 0 }}", {}) == "1 -1 1"
    assert render("{{ (2 ** 50000).bit_length() }}", {}) == "50001"  # 2 bits * 50,000 = the limit itself
    assert _error("{{ (2 ** 50000 * 2 ** 50000) ** 1 }}") == (
        "template not allowed: a power of about 100,001 bits is above the template limit of 100,000 in "
        "'{{ (2 ** 50000 * 2 ** 50000) ** 1 }}'")


def test_the_rendered_length_limit_and_its_message():
    too_long = "rendered template is longer than 1,000,000 characters (agentunit.core.templating.MAX_RENDER_CHARS)"
    assert _error("{{ 'x' * 1000000 }}{{ 'y' }}") == too_long
    assert _error("{{ a }}{{ b }}", {"a": "x" * 999_999, "b": "yz"}) == too_long
    assert render("{{ a }}{{ b }}", {"a": "x" * 999_999, "b": "y"}) == "x" * 999_999 + "y"


def test_undefined_names_list_what_is_available():
    assert _error("{{ a }}") == "'a' is undefined (available: none)"
    assert _error("{{ a }}{% if 1 %}{% endif %}", {"z": 1, "b": 2}) == "'a' is undefined (available: b, z)"


def test_the_excerpt_is_the_first_80_characters():
    eighty = "{{ 1/0 }}" + "x" * 71
    assert _error(eighty) == f"template error: ZeroDivisionError: division by zero in {eighty!r}"
    assert _error(eighty + "y") == f"template error: ZeroDivisionError: division by zero in {eighty!r}…"


def test_only_a_list_of_media_markers_stays_a_list():
    variables = {"images": ["a.png", "b.png"]}
    assert render_value("{{ images | length }}", variables) == "2"
    assert render_value("{{ images | list }}", variables) == "['a.png', 'b.png']"  # plain text, no markers
