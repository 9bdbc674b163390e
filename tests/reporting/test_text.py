from agentunit.reporting.text import visible, xml_chars


def test_visible_escapes_every_control_and_reordering_character():
    assert visible("\x1b]0;pwned\x07\x1b[2J") == "\\x1b]0;pwned\\x07\\x1b[2J"
    assert visible("a\nb\r\tc\x00\x7f\x85\x9b") == "a\\nb\\r\\tc\\x00\\x7f\\x85\\x9b"
    assert visible("\u2028\u2029\u202e\u2066\u200f\ud83d") == "\\u2028\\u2029\\u202e\\u2066\\u200f\\ud83d"
    assert visible("ordinary text — ünïcödé 😀 \\ backslash") == "ordinary text — ünïcödé 😀 \\ backslash"
    assert visible(None) == "" and visible(12) == "12"


def test_xml_chars_keeps_what_xml_allows_and_escapes_the_rest():
    assert xml_chars("tab\tlf\ncr\r <&> é 😀 \ue000 \ufffd") == "tab\tlf\ncr\r <&> é 😀 \ue000 \ufffd"
    assert xml_chars("\x00\x08\x0b\x0c\x1b\ufffe\uffff\ud83d\udc00") == \
        "\\x00\\x08\\x0b\\x0c\\x1b\\ufffe\\uffff\\ud83d\\udc00"
    assert xml_chars("\x85\x9b") == "\x85\x9b"  # C1 controls are XML 1.0 characters
    assert xml_chars(None) == ""
