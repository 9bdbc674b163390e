"""PII detection: validators, look-alikes, masking, and the labelled set's targets."""

import json
from pathlib import Path

import pytest

from agentunit.privacy.detectors import STRUCTURED_TYPES, card_issuer, detect_pii, iban_valid, luhn_valid, mask

DATA = Path(__file__).resolve().parents[1] / "data" / "pii_dev.jsonl"


def _types(text, **kw):
    return [(f.type, f.text) for f in detect_pii(text, **kw)]


def test_validators():
    assert luhn_valid("4111111111111111") and not luhn_valid("4111111111111112")
    assert card_issuer("378282246310005") == "amex" and card_issuer("9111111111111111") is None
    assert iban_valid("GB82WEST12345698765432") and not iban_valid("GB83WEST12345698765432")
    assert not iban_valid("GB82WEST1234569876543")  # one character short for GB


@pytest.mark.parametrize(("text", "expected"), [
    ("Card 4111 1111 1111 1111 on file.", [("credit_card", "4111 1111 1111 1111")]),
    ("Card 4111 1111 1111 1112 on file.", []),  # fails Luhn
    ("Order #4111111111111111 shipped.", []),  # introduced as an order number
    ("IBAN GB82 WEST 1234 5698 7654 32.", [("iban", "GB82 WEST 1234 5698 7654 32")]),
    ("SSN 123-45-6789", [("ssn", "123-45-6789")]),
    ("never issued: 000-12-3456, 666-12-3456, 900-12-3456", []),
    ("version 10.2.3.4 and server 10.2.3.5.", [("ip_address", "10.2.3.5")]),
    ("ISBN 978-3-16-148410-0", []),
    ("Call +44 20 7946 0958 today", [("phone", "+44 20 7946 0958")]),
    ("Order 4155552671 is late", []),  # bare digits without phone context
    ("Write to ann.lee@example.com or see icon@2x.png", [("email", "ann.lee@example.com")]),
])
def test_patterns_and_lookalikes(text, expected):
    assert _types(text, ner=False) == expected


def test_names_come_from_the_ner_model():
    found = _types("Yesterday Maria Garcia asked about Python 3.11 at Apple.")
    assert ("name", "Maria Garcia") in found
    assert all(t != "name" or v == "Maria Garcia" for t, v in found)


def test_masking_keeps_only_a_hint():
    assert mask("credit_card", "4111 1111 1111 1111") == "**** **** **** 1111"
    assert mask("email", "ann.lee@example.com") == "a***@e***.com"
    assert mask("ssn", "123-45-6789") == "***-**-6789"
    assert mask("name", "Maria Garcia") == "M**** G*****"


def test_labelled_set_meets_the_structured_targets():
    """Precision ≥ 0.95 and recall ≥ 0.9 per structured type on the 300+ span set (bench prints all)."""
    from bench.pii_detection import score_rows

    rows = [json.loads(line) for line in DATA.read_text().splitlines()]
    assert sum(len(r["spans"]) for r in rows) >= 300
    counts, _, _ = score_rows(rows)
    for kind in STRUCTURED_TYPES:
        c = counts[kind]
        assert c["tp"] / (c["tp"] + c["fp"]) >= 0.95, (kind, c)
        assert c["tp"] / (c["tp"] + c["fn"]) >= 0.9, (kind, c)


def test_long_texts_get_names_from_their_first_part_and_say_so():
    from agentunit.privacy.detectors import MAX_NER_CHARS

    notes = []
    text = "filler words here. " * (MAX_NER_CHARS // 19 + 10) + "Card 4111 1111 1111 1111 for Maria Garcia."
    found = [f.type for f in detect_pii(text, notes=notes)]
    assert found == ["credit_card"]  # patterns cover the whole text
    assert notes and "first 50,000" in notes[0]


def test_a_name_after_an_honorific_is_found_without_the_model():
    assert _types("Dear Mr. O'Brien, thanks.", ner=False) == [("name", "O'Brien")]
    assert _types("Ask Dr. Wei Zhang today.", ner=False) == [("name", "Wei Zhang")]


def test_phones_fall_back_to_a_pattern_without_libphonenumber(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "phonenumbers", None)  # import fails as when the extra is absent
    found = detect_pii("Call +44 20 7946 0958 today", types=["phone"], ner=False)
    assert [(f.text, f.method) for f in found] == [("+44 20 7946 0958", "pattern")]


def test_overlaps_resolve_as_the_pairwise_rule_does():
    """Kept: by type priority then length, every candidate that overlaps nothing kept before."""
    import random

    from agentunit.privacy.detectors import _PRIORITY, PIIFinding, _resolve_overlaps

    def pairwise(candidates):
        kept = []
        for f in sorted(candidates, key=lambda f: (_PRIORITY[f.type], -(f.end - f.start))):
            if f.confidence >= 0.5 and not any(f.start < k.end and k.start < f.end for k in kept):
                kept.append(f)
        return sorted(kept, key=lambda f: f.start)

    rng = random.Random(5)
    for _ in range(500):
        candidates = [PIIFinding(rng.choice(list(_PRIORITY)), s, s + rng.randint(1, 15), "x", rng.choice([0.4, 0.9]),
                                 "m") for s in (rng.randint(0, 100) for _ in range(rng.randint(0, 30)))]
        assert _resolve_overlaps(candidates, 0.5) == pairwise(candidates)


def test_phone_windows_never_cut_a_number(monkeypatch):
    from agentunit.privacy import detectors

    text = "".join(f"row {i}; call +44 20 7946 {i:04d} or (415) 555-{i:04d} now\n" for i in range(40))
    whole = [(f.start, f.text) for f in detect_pii(text, ["phone"], ner=False)]
    monkeypatch.setattr(detectors, "_PHONE_WINDOW", 64)
    assert [(f.start, f.text) for f in detect_pii(text, ["phone"], ner=False)] == whole
    assert len(whole) == 80


def test_spans_of_a_more_specific_type_are_kept_out_of_the_phone_search(monkeypatch):
    """libphonenumber is not asked to parse a card number, which would lose to the card anyway."""
    import phonenumbers

    seen = []
    matcher = phonenumbers.PhoneNumberMatcher

    def recording(text, *args, **kwargs):
        seen.append(text)
        return matcher(text, *args, **kwargs)

    monkeypatch.setattr(phonenumbers, "PhoneNumberMatcher", recording)
    found = _types("Card 4111 1111 1111 1111 or call +1 415 555 2671.", ner=False)
    assert found == [("credit_card", "4111 1111 1111 1111"), ("phone", "+1 415 555 2671")]
    assert seen and not any("4111" in text for text in seen)


def test_luhn_matches_the_textbook_loop():
    import random

    def textbook(digits):
        total = 0
        for i, ch in enumerate(reversed(digits)):
            d = int(ch) * (2 if i % 2 else 1)
            total += d - 9 if d > 9 else d
        return total % 10 == 0

    rng = random.Random(3)
    for _ in range(2000):
        digits = "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 19)))
        assert luhn_valid(digits) == textbook(digits)
