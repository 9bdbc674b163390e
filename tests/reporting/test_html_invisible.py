"""Bidi controls and invisible characters from the system under test are shown as escapes in the HTML report,
never written raw: a U+202E (right-to-left override) would reorder what the page shows ("Trojan Source")."""

import re

from agentunit.api import evaluate
from agentunit.reporting.html import write_html
from agentunit.reporting.text import invisible_as_references, visible_on_page

# Bidi controls, zero-width and other invisible format characters, a tag character, a C1 control and a NUL.
HIDDEN = ("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c\u200b\u2060\ufeff\xad"
          "\U000e0041\x85\x00")
RAW = re.compile("[" + HIDDEN + "]")


def test_visible_on_page_escapes_what_a_browser_would_hide_or_reorder_and_keeps_line_breaks():
    assert visible_on_page("a\u202eb\nc\td\r") == "a\\u202eb\nc\td\r"
    assert visible_on_page("tag\U000e0041") == "tag\\U000e0041"
    assert visible_on_page("👨\u200d👩\u200d👧 می\u200cخواهم") == "👨\u200d👩\u200d👧 می\u200cخواهم"  # joiners kept
    assert visible_on_page(None) == "" and visible_on_page("plain <b>") == "plain <b>"
    assert RAW.search(visible_on_page(HIDDEN)) is None
    assert invisible_as_references("x\u202ey &amp;") == "x&#x202e;y &amp;"


def test_the_html_report_holds_no_raw_bidi_control_or_invisible_character(tmp_path):
    output = f"invoice{HIDDEN}fdp.exe\nsecond line"
    result = evaluate({"name": "suite\u202eeman", "target": {"type": "echo"},
                       "cases": [{"id": "case\u202e1", "prompt": output,
                                  "metrics": [{"metric": "contains", "value": "absent"}]}]})
    write_html(result, tmp_path / "r.html")
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert RAW.search(page) is None, sorted({f"U+{ord(c):04X}" for c in RAW.findall(page)})
    assert "invoice\\u202a\\u202b\\u202c\\u202d\\u202e" in page and "fdp.exe\nsecond line" in page
    assert "case\\u202e1" in page and "suite\\u202eeman" in page
