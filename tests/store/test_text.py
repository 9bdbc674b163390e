import json

from agentunit.store.text import encodable, encodable_json, encodable_or_none


def test_valid_text_is_returned_unchanged_and_not_copied():
    for text in ("plain ascii", "Prüfprotokolle — 99,9 %", "emoji 😀 and 中文"):
        assert encodable(text) is text


def test_lone_surrogates_become_replacement_characters_and_pairs_are_joined():
    assert encodable("cut mid-emoji \ud83d") == "cut mid-emoji \ufffd"
    assert encodable("\udc00 low first, then high \ud83d.") == "\ufffd low first, then high \ufffd."
    assert encodable("a pair \ud83d\ude00 is one character") == "a pair 😀 is one character"
    assert encodable("\ude00\ud83d") == "\ufffd\ufffd"  # low then high is not a pair
    encodable("é \ud800 ü").encode("utf-8")


def test_optional_and_json_forms():
    assert encodable_or_none(None) is None and encodable_or_none(3) == 3 and encodable_or_none("\ud83d") == "\ufffd"
    text = encodable_json({"context": ["ok", "cut \ud83d"], "n": 1, "when": object})
    assert json.loads(text)["context"] == ["ok", "cut \ufffd"] and "\\u" not in text
    text.encode("utf-8")
