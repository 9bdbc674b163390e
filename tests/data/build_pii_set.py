"""Builds tests/data/pii_dev.jsonl: texts with labelled PII spans and look-alikes that are not PII.

Each row: {"text": ..., "spans": [{"type", "start", "end"}], "kind": "pii" | "lookalike" | "mixed"}.
Values are synthetic but valid for their type (Luhn, mod-97, SSA rules, numbering plans); look-alikes
are order numbers, ISBNs, version strings, invalid card numbers and IBANs, dates, prices, hashes,
tracking codes, MAC addresses and file names. Run: python tests/data/build_pii_set.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import phonenumbers

OUT = Path(__file__).with_name("pii_dev.jsonl")
rng = random.Random(20261129)

FIRST = ["John", "Maria", "Wei", "Aisha", "Carlos", "Olga", "Kenji", "Fatima", "Liam", "Priya", "Lucas", "Emma",
         "Mohammed", "Sofia", "David", "Ana", "James", "Chen", "Elena", "Omar", "Hannah", "Diego", "Yuki", "Grace"]
LAST = ["Smith", "Garcia", "Zhang", "Khan", "Silva", "Ivanova", "Tanaka", "Hassan", "Murphy", "Patel", "Müller",
        "Johnson", "Rossi", "Nguyen", "Brown", "Kowalski", "Okafor", "Andersen", "Lopez", "Cohen", "Williams"]
STREETS = ["Baker", "Elm", "Maple", "Oak", "Main", "Sunset", "Lincoln", "Park", "Cedar", "Washington", "Lake", "Hill"]
STREET_TYPES = ["Street", "St", "Avenue", "Ave", "Road", "Rd", "Boulevard", "Lane", "Drive", "Court"]
CITIES = [("Springfield", "IL", "62704"), ("Austin", "TX", "78701"), ("Portland", "OR", "97205"),
          ("Denver", "CO", "80202"), ("Boston", "MA", "02108"), ("Seattle", "WA", "98101")]
DOMAINS = ["example.com", "mail.example.org", "company.co.uk", "uni.edu", "startup.io", "corp.example.net"]


def luhn_digit(body: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return str((10 - total % 10) % 10)


CARD_BRANDS = [("4", 16), ("4", 13), ("51", 16), ("55", 16), ("2221", 16), ("34", 15), ("37", 15), ("6011", 16),
               ("65", 16), ("3530", 16)]


def card(valid: bool = True) -> str:
    prefix, length = rng.choice(CARD_BRANDS)
    body = prefix + "".join(rng.choice("0123456789") for _ in range(length - len(prefix) - 1))
    check = luhn_digit(body)
    if not valid:
        check = str((int(check) + rng.randint(1, 9)) % 10)
    digits = body + check
    sep = rng.choice([" ", "-", ""])
    if length == 15:
        return sep.join([digits[:4], digits[4:10], digits[10:]])
    if length == 16:
        return sep.join(digits[i:i + 4] for i in range(0, 16, 4))
    return digits


IBAN_BBAN = {"GB": "AAAA" + "0" * 14, "DE": "0" * 18, "FR": "0" * 23, "ES": "0" * 20, "NL": "AAAA" + "0" * 10,
             "IT": "A" + "0" * 22, "CH": "0" * 17, "BE": "0" * 12, "PL": "0" * 24, "SE": "0" * 20}


def iban(valid: bool = True) -> str:
    country = rng.choice(sorted(IBAN_BBAN))
    bban = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") if c == "A" else rng.choice("0123456789")
                   for c in IBAN_BBAN[country])
    numeric = "".join(str(int(c, 36)) for c in bban + country + "00")
    check = 98 - int(numeric) % 97
    if not valid:
        check = (check + rng.randint(1, 50)) % 97 + 2
    compact = f"{country}{check:02d}{bban}"
    return " ".join(compact[i:i + 4] for i in range(0, len(compact), 4)) if rng.random() < 0.7 else compact


def ssn() -> str:
    while True:
        area = rng.randint(1, 899)
        if area != 666:
            break
    sep = rng.choice(["-", "-", " "])
    return f"{area:03d}{sep}{rng.randint(1, 99):02d}{sep}{rng.randint(1, 9999):04d}"


REGIONS = ["US", "GB", "DE", "FR", "IN", "JP", "AU", "BR", "CA", "ES", "IT", "MX", "NL", "SG", "ZA"]


def phone() -> str:
    region = rng.choice(REGIONS)
    kind = rng.choice([phonenumbers.PhoneNumberType.MOBILE, phonenumbers.PhoneNumberType.FIXED_LINE])
    example = phonenumbers.example_number_for_type(region, kind)
    for _ in range(50):
        national = str(example.national_number)
        mutated = national[:-3] + "".join(rng.choice("0123456789") for _ in range(3))
        number = phonenumbers.parse(f"+{example.country_code}{mutated}")
        if phonenumbers.is_valid_number(number):
            break
    else:
        number = example
    if region in ("US", "CA") and rng.random() < 0.6:
        return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.NATIONAL)
    fmt = rng.choice([phonenumbers.PhoneNumberFormat.INTERNATIONAL, phonenumbers.PhoneNumberFormat.E164])
    return phonenumbers.format_number(number, fmt)


def ip() -> str:
    if rng.random() < 0.25:
        groups = [f"{rng.randint(0, 0xffff):x}" for _ in range(8)]
        return "2001:db8:" + ":".join(groups[2:]) if rng.random() < 0.5 else f"fe80::{groups[0]}:{groups[1]}"
    first = rng.choice([10, 172, 192, 8, 34, 52, 81, 203])
    return f"{first}.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"


def email() -> str:
    first, last = rng.choice(FIRST).lower(), rng.choice(LAST).lower().replace("ü", "u")
    local = rng.choice([f"{first}.{last}", f"{first[0]}{last}", f"{first}_{last}{rng.randint(1, 99)}",
                        f"{first}+billing"])
    return f"{local}@{rng.choice(DOMAINS)}"


def name() -> str:
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}"


def address() -> str:
    city, state, zipcode = rng.choice(CITIES)
    return f"{rng.randint(1, 9999)} {rng.choice(STREETS)} {rng.choice(STREET_TYPES)}, {city}, {state} {zipcode}"


LOOKALIKES = [
    lambda: f"Your order #{rng.randint(10**9, 10**10 - 1)} has shipped.",
    lambda: f"Order number {rng.randint(10**15, 10**16 - 1)} is confirmed.",
    lambda: "The book's ISBN is 978-0-306-40615-7.",
    lambda: f"ISBN {rng.choice(['0-306-40615-2', '978-3-16-148410-0', '979-10-90636-07-1'])} is out of print.",
    lambda: f"Upgrade to version {rng.randint(1, 12)}.{rng.randint(0, 9)}.{rng.randint(0, 30)}.{rng.randint(0, 99)}.",
    lambda: f"Python {rng.randint(3, 3)}.{rng.randint(8, 13)}.{rng.randint(0, 9)} fixed the bug in release 2.4.1.",
    lambda: f"The card number {card(valid=False)} was rejected as invalid.",
    lambda: f"That IBAN, {iban(valid=False)}, fails validation.",
    lambda: f"The meeting is on 2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d} at 14:30:00.",
    lambda: f"The total is ${rng.randint(100, 9999):,}.{rng.randint(0, 99):02d} including tax.",
    lambda: "Commit 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b introduced the regression.",
    lambda: "Tracking code 1Z999AA10123456784 is in transit.",
    lambda: "The device MAC address is 00:1A:2B:3C:4D:5E.",
    lambda: "Download report@2x.png and logo@3x.svg from the assets folder.",
    lambda: f"Invoice INV-2024-{rng.randint(1, 99999):05d} is due in 30 days.",
    lambda: f"Ticket {rng.randint(100000, 999999)} was escalated to tier 2.",
    lambda: "Request id 3f2504e0-4f89-11d3-9a0c-0305e82c3301 timed out.",
    lambda: f"The population grew to {rng.randint(1, 9)},{rng.randint(100, 999)},{rng.randint(100, 999)} people.",
    lambda: "Set the timeout to 30000 ms and retry 3 times.",
    lambda: "Room 1204 on floor 12 is booked for the workshop.",
    lambda: "SSN format is XXX-XX-XXXX; 000-12-3456 and 666-45-6789 are never issued.",
    lambda: f"Flight UA {rng.randint(100, 9999)} departs from gate B{rng.randint(1, 40)}.",
    lambda: f"Coordinates 37.{rng.randint(1000, 9999)}, -122.{rng.randint(1000, 9999)} mark the office.",
    lambda: f"Build {rng.randint(2019, 2025)}.{rng.randint(1, 12)}.{rng.randint(1, 28)}.{rng.randint(1, 9)} is the latest.",
    lambda: "Contact the team on the #support channel or @helpdesk.",
    lambda: "The firmware v10.0.0.1 ships with the router.",
    lambda: f"Reference no. {rng.randint(10**8, 10**9 - 1)} applies to this claim.",
    lambda: "Our office hours are 9:00-17:00, Monday to Friday.",
    lambda: "Apple and Microsoft reported earnings on Tuesday.",
    lambda: "The Amazon River flows through Brazil and Peru.",
]

PII = {
    "email": (email, ["You can reach them at {}.", "I have updated the contact email to {}.", "Send it to {} please."]),
    "phone": (phone, ["Call the customer back on {}.", "Their phone number is {}.", "Mobile: {} (evenings only)."]),
    "ssn": (ssn, ["The applicant's SSN is {}.", "Social security number on file: {}.", "Verified identity with {}."]),
    "credit_card": (card, ["The card on file is {}.", "Charged $42.00 to card {}.", "Payment method: {} (expires 09/27)."]),
    "iban": (iban, ["Refunds go to IBAN {}.", "Please transfer to {} by Friday.", "Account: {}"]),
    "ip_address": (ip, ["The login came from {}.", "Blocked requests from IP {} after 5 failures.",
                        "Their device connected via {} last night."]),
    "name": (name, ["{} asked about the refund.", "I spoke with {} yesterday.", "The account belongs to {}."]),
    "address": (address, ["Ship it to {}.", "Their home address is {}.", "The parcel was delivered to {}."]),
}
COUNTS = {"email": 45, "phone": 50, "ssn": 35, "credit_card": 45, "iban": 35, "ip_address": 35, "name": 40,
          "address": 30}


# Hand-written rows in the shapes real outputs take (JSON, logs, letters, lower case, odd formats),
# each with the exact PII substrings it holds.
HARD = [
    ('{"customer": {"name": "Dana Whitfield", "email": "dana.whitfield@example.com", "phone": "+1 415 555 2671"}}',
     [("name", "Dana Whitfield"), ("email", "dana.whitfield@example.com"), ("phone", "+1 415 555 2671")]),
    ("2024-05-01T10:22:13Z INFO login ok user=jdoe ip=203.0.113.42 session=8f3a2b", [("ip_address", "203.0.113.42")]),
    ("GET /api/v2/orders from 2001:db8::ff00:42:8329 returned 200", [("ip_address", "2001:db8::ff00:42:8329")]),
    ("Dear Mr. O'Brien, your refund was sent to the card ending 4242.", [("name", "O'Brien")]),
    ("Reply to <support+eu@shop.example.de> with the ticket number.", [("email", "support+eu@shop.example.de")]),
    ("card_number: 5555555555554444, cvv: ***", [("credit_card", "5555555555554444")]),
    ("Wire the deposit to DE89 3704 0044 0532 0130 00 (Commerzbank).", [("iban", "DE89 3704 0044 0532 0130 00")]),
    ("Her SSN, 219-09-9999, is on the W-2.", [("ssn", "219-09-9999")]),
    ("Text me at +44 7911 123456 when you land.", [("phone", "+44 7911 123456")]),
    ("Ruf mich an: +49 30 901820, oder schreib an lena.vogel@web.de.",
     [("phone", "+49 30 901820"), ("email", "lena.vogel@web.de")]),
    ("The patient, Rosa Delgado, lives at 1600 Pennsylvania Avenue NW, Washington, DC 20500.",
     [("name", "Rosa Delgado"), ("address", "1600 Pennsylvania Avenue")]),
    ("Billing contact: Tomasz Nowak <t.nowak@firma.pl>, tel. +48 22 123 45 67.",
     [("name", "Tomasz Nowak"), ("email", "t.nowak@firma.pl"), ("phone", "+48 22 123 45 67")]),
    ("Amex 3782 822463 10005 was declined twice.", [("credit_card", "3782 822463 10005")]),
    ("Ping 8.8.8.8 and 1.1.1.1 to check DNS.", [("ip_address", "8.8.8.8"), ("ip_address", "1.1.1.1")]),
    ("Call (212) 555-0147 ext. 12 to reschedule.", [("phone", "(212) 555-0147")]),
    ("Forward the contract to priya.natarajan@legal.example.in and cc Arjun Mehta.",
     [("email", "priya.natarajan@legal.example.in"), ("name", "Arjun Mehta")]),
    ("The parcel for Kwame Mensah went to 77 Harbour Road, Accra.",
     [("name", "Kwame Mensah"), ("address", "77 Harbour Road, Accra")]),
    ("Use IBAN GB33BUKB20201555555555 for GBP payments.", [("iban", "GB33BUKB20201555555555")]),
    ("social security no. 078-05-1121 was flagged.", [("ssn", "078-05-1121")]),
    ("Windows 10.0.19045.3693 is installed on the laptop.", []),
    ("Set version 1.2.3.4 in the manifest and tag release 2.0.0.1.", []),
    ("The subnet 192.168.1 has 254 usable hosts.", []),
    ("Order 4111111111111111 was shipped in two boxes.", []),
    ("Test card 4111 1111 1111 1112 fails the checksum.", []),
    ("Call 911 in an emergency, or 112 in Europe.", []),
    ("ISBN-10 0-306-40615-2 and ISBN 9780306406157 refer to the same book.", []),
    ("The Eiffel Tower is 330 metres tall and opened in 1889.", []),
    ("Store #4521 in Springfield closes at 9 pm.", []),
    ("Use the coupon SAVE2024 before 12/31/2024.", []),
    ("The transaction id 6011000990139424 appears twice in the ledger.", []),
    ("Flight LH 400 lands at 10:55; gate Z50.", []),
    ("Your verification code is 482913.", []),
    ("The UPC 036000291452 identifies the product.", []),
    ("Part number 5105-1051-0510-5100 is back-ordered.", []),
    ("GB00 XXXX 0000 0000 0000 00 is the placeholder IBAN in the docs.", []),
    ("Contact alice@localhost for local testing only.", []),
    ("The hash is 3c:4d:5e:6f:7a:8b:9c:0d and the port 8080.", []),
    ("Population density is 123.45.67 in that outdated table.", []),
    ("Meet me at 10 Downing Street at noon, said Keir.", [("address", "10 Downing Street")]),
    ("my email is bob.smith99@gmail.com and my number is 650-253-0000",
     [("email", "bob.smith99@gmail.com"), ("phone", "650-253-0000")]),
]


def hard_rows() -> list[dict]:
    rows = []
    for text, items in HARD:
        spans, cursor = [], 0
        for kind, value in items:
            start = text.index(value, cursor if kind != "name" else 0)
            spans.append({"type": kind, "start": start, "end": start + len(value)})
            cursor = start + len(value)
        rows.append({"text": text, "spans": sorted(spans, key=lambda s: s["start"]),
                     "kind": "hand" if spans else "hand-lookalike"})
    return rows


def pii_sentence(kind: str) -> list[tuple[str, str | None]]:
    make, templates = PII[kind]
    template = rng.choice(templates)
    value = make()
    before, after = template.split("{}")
    return [(before.rstrip(), None), (value, kind), (after.lstrip(), None)] if before.strip() else \
        [(value, kind), (after.lstrip(), None)]


def _join(parts: list[tuple[str, str | None]]) -> dict:
    # adjacent pieces are joined with one space; punctuation right after a value attaches to it
    text, spans = "", []
    for piece, pii_type in parts:
        if not piece:
            continue
        if text and not (pii_type is None and piece[:1] in ".,;:)"):
            text += " "
        if pii_type:
            spans.append({"type": pii_type, "start": len(text), "end": len(text) + len(piece)})
        text += piece
    return {"text": text, "spans": spans}


def main() -> None:
    rows = []
    queue = [k for k, n in COUNTS.items() for _ in range(n)]
    rng.shuffle(queue)
    while queue:
        take = min(len(queue), rng.choice([1, 1, 2, 3]))
        parts: list[tuple[str, str | None]] = []
        for kind in queue[:take]:
            parts += pii_sentence(kind)
            if rng.random() < 0.5:
                parts.append((rng.choice(LOOKALIKES)(), None))
        queue = queue[take:]
        rows.append({**_join(parts), "kind": "mixed" if any(p[1] is None and len(p[0]) > 25 for p in parts) else "pii"})
    for make in LOOKALIKES:
        for _ in range(3):
            rows.append({**_join([(make(), None)]), "kind": "lookalike"})
    rows += hard_rows()
    rng.shuffle(rows)
    with OUT.open("w") as fh:
        for item in rows:
            fh.write(json.dumps(item, ensure_ascii=False) + "\n")
    spans = sum(len(r["spans"]) for r in rows)
    print(f"{len(rows)} rows, {spans} spans -> {OUT}")


if __name__ == "__main__":
    main()
