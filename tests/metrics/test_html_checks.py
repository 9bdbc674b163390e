import pytest

from agentunit import check


@pytest.mark.parametrize(("output", "is_html", "contains_html"), [
    ("<!DOCTYPE html><html><head><title>t</title></head><body><p>Hi</p></body></html>", True, True),
    ("<div class=\"card\"><img src=\"a.png\"><br/></div>", True, True),
    ("<ul><li>one<li>two</ul>", True, True),                   # optional end tags
    ("<div><span>x</div>", False, True),                       # <span> never closed
    ("<p>x</p></section>", False, True),                       # stray end tag
    ("Hello <b>world</b>!", False, True),                       # prose around a tag
    ("<custom-widget>x</custom-widget>", False, True),          # no standard element
    ("1 < 2 and 3 > 2", False, False),
    ("Use &amp; to escape", False, False),                      # one indicator only
    ("plain text", False, False),
])
def test_html_metrics(output, is_html, contains_html):
    assert check(output, "is-html").passed is is_html
    assert check(output, "contains-html").passed is contains_html


def test_html_details_and_negation():
    assert check("<p>x</p>", "contains-html").detail["indicators"] >= 2
    assert check("no markup", "not-contains-html").passed is True
    assert "is never closed" in check("<div><p>x</p>", "is-html").reason
