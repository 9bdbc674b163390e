"""Values of an agent's final answer checked, by code, against what the run saw.

A final answer that tells the user a time, a date, a number or a name that no call returned or was
given and that the request did not state ("I posted it to #general" when the call posted to
#investing, "departing 09:30" when the flight leaves at 08:30, "with Anna, Ben and Carla") reports
something the run never learned. ``unsupported_values`` lists such values; the small judge passes most
of these answers (it sees the right value in the calls and reads past the wrong one).

What the answer states, and when the evidence (the request, every call's arguments and outputs)
supports it:

- **times of day** ("15:00", "3 pm", "7:30pm", the time of "2026-05-06T10:00"), compared in minutes;
  "9:30", without a leading zero or am/pm, is also read as 21:30;
- **dates** ("2026-05-06", "6 May", "May 6, 2026"), compared by month and day; a date some days
  after an evidence date counts ("15-18 June" for three days from 15 June);
- **numbers** (digits, "1,204", number words except "one"): an evidence number ("both" is 2), the sum or the
  difference of two of them ("3.50 EUR cheaper" from 24.90 and 21.40), the days between two evidence
  dates ("12 days ago"), the hours or minutes between two evidence times, or the length of a list a
  call returned or was given;
- **names** (capitalised words, ``_cloze.claim_values`` per sentence): a word of the name in the
  evidence, accents ignored; weekday and month names also when an evidence date falls on them;
- **channels, handles and e-mail addresses** ("#general", "@sam", "sam@example.com"): written in
  the evidence, with or without the sign.

The evidence is every key and value of every call (arguments however they are spelled, outputs,
errors, agent replies), JSON text read as JSON. List markers ("1.", "## ") and labels ("Start Time:")
are not values.

A value present in the evidence but attached to the wrong thing ("UPS 2 days" when DHL took 2 days)
is not caught: that is left to the judge.
"""

from __future__ import annotations

import datetime
import itertools
import json
import re
from collections.abc import Iterable
from typing import Any

from agentunit.metrics._cloze import MONTHS, WEEKDAYS, claim_values, numbers_of, plain_words
from agentunit.metrics._sentences import split_sentences

# Evidence numbers, dates and times whose pairwise sums and differences count: the smallest numbers,
# the earliest dates and times (a big JSON output has thousands).
MAX_DERIVED_VALUES = 100

_MONTH_NUMBERS = {month[:3]: number for number, month in enumerate(MONTHS, 1)}
# A month name as written in English text: capitalised, in full or cut to three letters ("Sept" too);
# "may" in lower case is the verb.
_MONTH = "|".join(f"{m[:3].title()}(?:{m[3:]}|{'t' if m == 'september' else ''}\\.?)?" for m in MONTHS)
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})")
_DAY_MONTH = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)? (?:of )?({_MONTH})\b(?:,? (\d{{4}}))?")
_MONTH_DAY = re.compile(rf"\b({_MONTH}) (\d{{1,2}})(?:st|nd|rd|th)?\b(?:,? (\d{{4}}))?")
_CLOCK = re.compile(r"(?<![\d.:])(\d{1,2})(?::(\d{2}))?\s*([ap])\.?m\b"
                    r"|(?<![\d.:])(\d{1,2}):(\d{2})(?!\d)", re.IGNORECASE)
_LIST_MARKER = re.compile(r"\s*(?:#+\s+|\d{1,2}[.)](?:\s+|$))")
_BOTH = re.compile(r"\bboth\b", re.IGNORECASE)
_TAG = re.compile(r"(?<![\w@])(?:[#@]\w(?:[\w.-]*\w)?|[\w.+-]+@[\w-]+(?:\.[\w-]+)+)")


def _dates(text: str) -> list[tuple[re.Match[str], tuple[int, int]]]:
    """(match, (month, day)) of each date the text writes."""
    out = []
    for match in _ISO_DATE.finditer(text):
        month, day = int(match.group(2)), int(match.group(3))
        if 1 <= month <= 12 and 1 <= day <= 31:
            out.append((match, (month, day)))
    for match in _DAY_MONTH.finditer(text):
        out.append((match, (_month_number(match.group(2)), int(match.group(1)))))
    for match in _MONTH_DAY.finditer(text):
        out.append((match, (_month_number(match.group(1)), int(match.group(2)))))
    return [(m, md) for m, md in out if 1 <= md[1] <= 31]


def _month_number(name: str) -> int:
    return _MONTH_NUMBERS[name[:3].lower()]


def _minutes(match: re.Match[str]) -> set[int]:
    """Minutes after midnight of a ``_CLOCK`` match: one reading, or two for a time written without a
    leading zero or am/pm before 12:00 ("9:30" may be 21:30; "09:30" is not); none for an impossible time."""
    hour, minute, half, hour24, minute24 = match.groups()
    if hour24 is not None:
        hours, minutes = int(hour24), int(minute24)
        evening = hour24[0] != "0" and 1 <= hours <= 11
    else:
        if not 1 <= int(hour) <= 12:
            return set()
        hours, minutes = int(hour) % 12 + (12 if half.lower() == "p" else 0), int(minute or 0)
        evening = False
    if hours >= 24 or minutes >= 60:
        return set()
    return {hours * 60 + minutes, (hours + 12) * 60 + minutes} if evening else {hours * 60 + minutes}


def _full_dates(found: list[tuple[re.Match[str], tuple[int, int]]], text: str) -> set[datetime.date]:
    """The dates ``found`` in ``text`` (``_dates``) that can be placed in a year: ISO dates, and
    day-month dates with the year of the text's first full date ("Today is 4 May 2026"), else its first
    year-like number."""
    dated = [int(m.group(1) if m.re is _ISO_DATE else m.group(3)) for m, _ in found
             if m.re is _ISO_DATE or m.group(3)]
    years = dated or [int(y) for y in re.findall(r"\b(20\d\d|19\d\d)\b", text)]
    out = set()
    for match, (month, day) in found:
        year = int(match.group(1)) if match.re is _ISO_DATE else (
            int(match.group(3)) if match.group(3) else (years[0] if years else None))
        if year is None:
            continue
        try:
            out.add(datetime.date(year, month, day))
        except ValueError:
            continue
    return out


MAX_DEPTH = 20  # nesting read in a call's JSON; deeper parts are left out


def _leaves(value: Any, lengths: set[float], depth: int = 0) -> Iterable[str]:
    """The text of every key and value in a call (JSON text read as JSON, so an escaped newline is a
    newline), recording the length of each list in ``lengths``."""
    if depth > MAX_DEPTH:
        return
    if isinstance(value, str):
        if value[:1] in "[{":
            try:
                parsed = json.loads(value)
            except (ValueError, RecursionError):
                parsed = None
            if isinstance(parsed, (list, dict)):
                yield from _leaves(parsed, lengths, depth + 1)
                return
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)  # "order": "8841" backs "Order #8841"
            yield from _leaves(item, lengths, depth + 1)
    elif isinstance(value, (list, tuple)):
        lengths.add(float(len(value)))
        for item in value:
            yield from _leaves(item, lengths, depth + 1)
    elif value is not None:
        yield str(value)


def _days_after(date: datetime.date, days: int) -> datetime.date | None:
    try:
        return date + datetime.timedelta(days=days)
    except OverflowError:  # "valid until 9999-12-31"
        return None


class Evidence:
    """What the run saw, read once: its text, numbers (with what can be derived from them), times,
    dates and words."""

    def __init__(self, request: str, calls: list[dict[str, Any]]) -> None:
        lengths: set[float] = set()
        # every field of a call counts: arguments however they are spelled (input, args, function),
        # output, error, an agent's reply
        parts = [request, *(leaf for call in calls for leaf in _leaves(call, lengths))]
        self.text = "\n".join(parts)
        self.lower = self.text.lower()
        self.minutes = {m for match in _CLOCK.finditer(self.text) for m in _minutes(match)}
        found = _dates(self.text)
        self.month_days = {md for _, md in found}
        dates = _full_dates(found, self.text)
        calendar = {WEEKDAYS[d.weekday()] for d in dates} | {MONTHS[d.month - 1] for d in dates}
        self.words = plain_words(self.text) | calendar
        numbers = sorted(n for n in numbers_of(self.text) if isinstance(n, float))
        # "15:00" also says 15 and 3 (pm), as ``_rubric.numbers_in`` reads it: "between 8 and 12"
        hours = {float(h) for m in self.minutes if m % 60 == 0 for h in (m // 60, m // 60 - 12) if h > 0}
        pair = {2.0} if _BOTH.search(self.text) else set()  # "both copies are out": the answer says "two"
        self.numbers = set(numbers) | lengths | hours | pair
        some_numbers, some_dates = numbers[:MAX_DERIVED_VALUES], sorted(dates)[:MAX_DERIVED_VALUES]
        derived: set[float] = set()
        for a, b in itertools.combinations(some_numbers, 2):
            derived.update((round(a + b, 6), round(abs(a - b), 6)))
        derived.update(float(abs((a - b).days)) for a, b in itertools.combinations(some_dates, 2))
        for a, b in itertools.combinations(sorted(self.minutes)[:MAX_DERIVED_VALUES], 2):
            derived.update((abs(a - b) / 60, float(abs(a - b))))  # "13 hours apart", "free for 90 minutes"
        self.derived = derived
        spans = [int(n) for n in some_numbers if n == int(n) and 0 < n <= 366]
        self.shifted_dates = {(d.month, d.day) for d in (_days_after(d, n) for d in some_dates for n in spans) if d}

    def supports_number(self, values: set[float]) -> bool:
        """One reading of the number is an evidence number or derived from them."""
        return bool(values & self.numbers) or any(round(v, 6) in self.derived for v in values)


def unsupported_values(answer: str, request: str, calls: list[dict[str, Any]]) -> list[str]:
    """The values of ``answer`` that the request and the calls do not support (module docstring), in
    the order the answer states them."""
    evidence = Evidence(request, calls)
    missing: list[tuple[int, str]] = []
    taken = bytearray(len(answer))  # characters already read as part of a value

    def _take(start: int, end: int) -> bool:
        if any(taken[start:end]):
            return False
        taken[start:end] = b"\x01" * (end - start)
        return True

    for match in _TAG.finditer(answer):
        tag = match.group().lower()
        if _take(*match.span()) and tag not in evidence.lower and tag.lstrip("#@") not in evidence.lower:
            missing.append((match.start(), match.group()))
    for match, month_day in _dates(answer):
        if _take(*match.span()) and month_day not in evidence.month_days and month_day not in evidence.shifted_dates:
            missing.append((match.start(), match.group()))
    for match in _CLOCK.finditer(answer):
        minutes = _minutes(match)
        if minutes and _take(*match.span()) and not minutes & evidence.minutes:
            missing.append((match.start(), match.group().strip()))
    offset = 0
    for sentence in split_sentences(answer, limit=None):
        found = answer.find(sentence, offset)
        if found < 0:
            continue
        marker = _LIST_MARKER.match(sentence)  # "1. ", "2) ", "## ": not values
        start_of = found + (marker.end() if marker else 0)
        offset = found + len(sentence)
        for value in claim_values(answer[start_of:offset]):
            start = start_of + value.start
            if not _take(start, start_of + value.end):
                continue
            if value.kind == "name" and answer[start_of + value.end:start_of + value.end + 1] == ":":
                continue  # a label ("Start Time: 14:00"), not a name
            if value.kind == "number":
                numbers = {n for n in numbers_of(value.text) if isinstance(n, float)}
                supported = evidence.supports_number(numbers) if numbers else value.text in evidence.text
            else:
                supported = bool(plain_words(value.text) & evidence.words) or value.text.lower() in evidence.lower
            if not supported:
                missing.append((start, value.text))
    return [text for _, text in sorted(missing)]
