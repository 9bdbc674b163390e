"""Values of a claim checked by blanking them: the judge fills the blank from the context.

A claim's values are its numbers (digits, or number words such as "five") and its capitalised
names ("Maren Dahl"). For each of the first ``MAX_BLANKS`` values (numbers first), the value is replaced by ``___``
and the judge is asked which words from the context fill the blank (one short greedy generation,
cached like every call). A small judge that passes "switched to five steel car ferries" when the
context says three, because "five" appears elsewhere in the context, fills "switched to ___ steel
car ferries" with "three". The fill is compared with the claimed value:

- **agrees**: the same number (number words and thousands separators read as numbers, dots grouping
  thousands too: "300.000"), or, for a name, a shared word, its initials ("US" for "United States")
  or its letters with the spaces dropped, as OCR reads signs ("GREENLEAFCAFE");
- **differs**: the fill holds a value of the same kind (a number for a number, a name for a name)
  that is not the claimed one, and the fill is found in the context (the judge copied it from there);
- **unknown**: anything else (an empty or paraphrased fill, or one the blanked sentence already shows:
  asked for the second of two years, the small judge often repeats the first), which changes nothing.

How agreement and difference move a claim's support is decided by the RAG metrics (``rag.py``).

The other way round, ``reference_values`` looks for a reference answer's values — its numbers, names
and the items of its lists (``list_items``) — in an answer (``answer_correctness``): written there, or
as the judge fills them from it, unless the fill differs from the value as above (a wrong value the
answer gives in its place).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rapidfuzz import fuzz

from agentunit.judges.base import JudgeRequest
from agentunit.judges.service import current_judge
from agentunit.metrics._claims import STOP_WORDS
from agentunit.metrics._rubric import as_number, number_found, numbers_in, spelled_number, unaccented

MAX_BLANKS = 4  # values checked per claim, numbers first (each costs one short generation)
BLANK = "___"
_DIGITS = re.compile(r"(?<![\w.])\d+(?:[.,:]\d+)*")
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
_NAME = re.compile(r"\b[A-Z][a-zA-Z]{2,}\b")
# Capitalised words that are not names (sentence starters and the like).
NOT_NAMES = frozenset("""The This That These Those There It Its They Them We You He She His Her Our Their Yes No
However Also And But Yet Then Thus Therefore Moreover Furthermore Here When While After Before Because Although
Since For With From Into Each Every Some Many Most All Any Both Neither Either One Two Three Your Not Only
About Around Over Under Between During Without Within What Which Who Whom Whose Where Why How Sure Please Thanks
Note Overall Finally First Second Third Today Tomorrow Yesterday""".split())
_ENGLISH_NUMBER_WORDS = frozenset("""two three four five six seven eight nine ten eleven twelve thirteen fourteen
fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred""".split())


@dataclass(frozen=True)
class Value:
    """A value found in a claim: its text, where it is, and whether it is a number or a name."""

    text: str
    start: int
    end: int
    kind: str  # "number" or "name"


def names_in(claim: str) -> list[re.Match[str]]:
    """Capitalised words of the claim that may be names. The word opening the claim is capitalised
    anyway, so it counts only when the next word is capitalised too ("Ron Burgess …", not "Drivers
    must …")."""
    out = []
    for match in _NAME.finditer(claim):
        if match.group() in NOT_NAMES:
            continue
        if not claim[:match.start()].strip(" \"'(") and not claim[match.end():].lstrip(" \"')")[:1].isupper():
            continue
        out.append(match)
    return out


def claim_values(claim: str) -> list[Value]:
    """The claim's numbers and names in order of appearance; neighbouring capitalised words form one
    name ("Maren Dahl"). "one" is left out: it is as often a pronoun as a number."""
    found = [Value(m.group(), m.start(), m.end(), "number") for m in _DIGITS.finditer(claim)]
    found += [Value(m.group(), m.start(), m.end(), "number") for m in _WORD.finditer(claim)
              if m.group().lower() in _ENGLISH_NUMBER_WORDS]
    names: list[Value] = []
    for match in names_in(claim):
        gap = claim[names[-1].end:match.start()] if names else None
        if names and gap is not None and gap.strip() == "":
            last = names.pop()
            names.append(Value(claim[last.start:match.end()], last.start, match.end(), "name"))
        else:
            names.append(Value(match.group(), match.start(), match.end(), "name"))
    return sorted(found + names, key=lambda v: v.start)


_NOT_ITEMS = frozenset("i me you we us him them myself yourself ourselves yes no".split())  # "Saturn, and yes, it is …"
MAX_ITEM_WORDS = 3  # words of a list item before the last ("cherry tomatoes", "proof of address")
_CLAUSE = re.compile(r"[^;:!?]+?(?:\.(?=\s|$)|[;:!?]|$)")
_SEPARATOR = re.compile(r",\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+", re.IGNORECASE)
_ITEM_WORD = re.compile(r"[^\W\d_]+(?:[-'’][^\W\d_]+)*")
_TOKEN = re.compile(r"[^\s\"'()]+(?<![.,\"'()])")  # a word as written, closing punctuation left out


def list_items(text: str) -> list[Value]:
    """The items of each list in the text: parts of a clause joined by commas and a final "and" or "or",
    each before the last of at most MAX_ITEM_WORDS words ("Red, green and blue", "Breakfast and Wi-Fi are
    included", "A pen and a non-programmable calculator"; not "It began in 1914 and ended in 1918"). Each
    item is read as its head word: the last word of an item before the final one ("cherry tomatoes" →
    "tomatoes"), and for the final item its last word before a stop word or the end of the part ("Wi-Fi
    are included" → "Wi-Fi"). Heads that are stop words or number words are left out."""
    items: list[Value] = []
    for clause in _CLAUSE.finditer(text):
        body = clause.group()
        separators = list(_SEPARATOR.finditer(body))
        joins = [i for i, m in enumerate(separators) if re.search(r"\b(?:and|or)\b", m.group(), re.IGNORECASE)]
        if not joins:
            continue
        bounds = [0, *(e for m in separators for e in (m.start(), m.end())), len(body)]
        parts = [(bounds[i], bounds[i + 1]) for i in range(0, len(bounds), 2)]
        final = joins[-1] + 1  # the part after the last "and" / "or"; what follows it is not listed
        if any(len(body[a:b].split()) > MAX_ITEM_WORDS for a, b in parts[:final]):
            continue  # "It began in 1914 and ended in 1918": clauses, not a list of things
        for index, (start, end) in enumerate(parts[:final + 1]):
            if any(c.isdigit() for c in body[start:end]):
                continue  # "180 degrees": the number is the value, already looked for
            words = list(_TOKEN.finditer(body, start, end))
            head = words[-1] if words and index < final else _final_head(words, STOP_WORDS)
            if head is not None and _ITEM_WORD.fullmatch(head.group()) \
                    and head.group().lower() not in STOP_WORDS | _ENGLISH_NUMBER_WORDS | _NOT_ITEMS:
                at = clause.start() + head.start()
                items.append(Value(head.group(), at, at + len(head.group()), "item"))
    return items


def _final_head(words: list[re.Match[str]], stop: frozenset[str]) -> re.Match[str] | None:
    """The last word of the final item: the last content word before the first stop word after one."""
    head = None
    for word in words:
        if word.group().lower() in stop:
            if head is not None:
                break
            continue
        head = word
    return head


def blanked(claim: str, value: Value) -> str:
    """The claim with one value replaced by the blank."""
    return f"{claim[:value.start]}{BLANK}{claim[value.end:]}"


def numbers_of(text: str) -> set[float | str]:
    """The numbers a text states: digits read as ``_rubric.as_number`` reads them ("1,000" is 1000,
    "4,95" is 4.95) and number words, as floats; a time such as 10:00 or a version such as 1.2.3 is
    kept as written."""
    out: set[float | str] = set()
    for token in _DIGITS.findall(text):
        out.update(as_number(token) or [token])
    for word in _WORD.findall(text):
        value = spelled_number(word)
        if value is not None and word.lower() != "one":
            out.add(float(value))
    return out


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


def abbreviates(short: str, name: str) -> bool:
    """``short`` is the initials of ``name``'s capitalised words ("US" or "USA" for "United States",
    "UK" for "United Kingdom")."""
    initials = "".join(word[0] for word in _NAME.findall(name))
    letters = re.sub(r"[^A-Za-z]", "", short)
    return len(initials) >= 2 and letters.isupper() and letters.startswith(initials)


def glued(name: str, fill: str) -> bool:
    """The fill writes the name with its spaces dropped or added, as OCR reads signs and receipts
    ("GREENLEAFCAFE" for "Green Leaf Cafe"): the fill, or one of its words, is the name's letters and
    digits, case ignored."""
    squashed = _squashed(name)
    return bool(squashed) and (_squashed(fill) == squashed or any(_squashed(w) == squashed for w in fill.split()))


def _squashed(text: str) -> str:
    return re.sub(r"[\W_]", "", text).lower()


def compare_fill(value: Value, fill: str, context: str, sentence: str = "") -> str:
    """"agrees", "differs" or "unknown": the judge's fill against the claimed value (module docstring).
    ``sentence`` is the blanked claim: a fill it already shows is not counted as differing."""
    if value.kind == "number":
        claimed, filled = numbers_of(value.text), numbers_of(fill)
        if not filled:
            return "unknown"
        if claimed & filled:
            return "agrees"
        if filled & numbers_of(sentence):
            return "unknown"
    else:
        if _words(value.text) & _words(fill) or abbreviates(fill.strip(" .\"'"), value.text) \
                or glued(value.text, fill):
            return "agrees"
        if not _NAME.search(fill):
            return "unknown"
    copied = fill.strip(" .\"'").lower()
    if copied in sentence.lower():
        return "unknown"
    return "differs" if copied in context.lower() else "unknown"


async def fill_blank(sentence: str, shown: str, question: str | None) -> str:
    """The judge's words for the blank in ``sentence``, from the shown context (greedy, cached)."""
    asked = f"Question: {question}\nAnswer with a blank: {sentence}" if question else f"Sentence: {sentence}"
    text, _, _ = await current_judge().generate(JudgeRequest(
        (("system", "You fill in blanks from a context. Reply with the missing words only."),
         ("user", f"Context:\n{shown}\n\n{asked}\n\nWhich words from the context fill the blank ({BLANK})? "
                  "Reply with those words only.")), max_tokens=12))
    return text.strip()


async def cloze_check(claim: str, shown: str, context: str, question: str | None = None) -> list[dict[str, str]]:
    """Each of the claim's first MAX_BLANKS values blanked and filled by the judge from ``shown``:
    [{value, fill, verdict}]. A claim that is nothing but one value is left to the caller (the blank
    alone asks nothing the question does not)."""
    out = []
    values = sorted(claim_values(claim), key=lambda v: v.kind != "number")
    for value in values[:MAX_BLANKS]:
        sentence = blanked(claim, value)
        if not _words(sentence) - {"the", "a", "an", "in", "on", "at"}:
            continue
        fill = await fill_blank(sentence, shown, question)
        out.append({"value": value.text, "fill": fill, "verdict": compare_fill(value, fill, context, sentence)})
    return out


MAX_REFERENCE_VALUES = 6  # values of a reference answer looked for in an answer
NAME_SIMILARITY = 80  # rapidfuzz ratio (0–100) at which two words of four letters or more are one name


# Month and weekday names in German, French, Spanish, Italian, Portuguese and Dutch (accents dropped;
# Portuguese weekdays are ordinals, "segunda", and are left out), read as the English name: a
# reference says "July" or "Sunday", an answer in another language "Juli" or "sonntags".
_CALENDAR_WORDS = {
    "january": "januar janvier enero gennaio janeiro januari",
    "february": "februar fevrier febrero febbraio fevereiro februari",
    "march": "marz mars marzo marco maart",
    "april": "avril abril aprile",
    "may": "mai mayo maggio maio mei",
    "june": "juni juin junio giugno junho",
    "july": "juli juillet julio luglio julho",
    "august": "aout agosto augustus",
    "september": "septembre septiembre settembre setembro",
    "october": "oktober octobre octubre ottobre outubro",
    "november": "novembre noviembre novembro",
    "december": "dezember decembre diciembre dicembre dezembro",
    "monday": "montag montags lundi lunes lunedi maandag",
    "tuesday": "dienstag dienstags mardi martes martedi dinsdag",
    "wednesday": "mittwoch mittwochs mercredi miercoles mercoledi woensdag",
    "thursday": "donnerstag donnerstags jeudi jueves giovedi donderdag",
    "friday": "freitag freitags vendredi viernes venerdi vrijdag",
    "saturday": "samstag samstags samedi sabado sabato zaterdag",
    "sunday": "sonntag sonntags dimanche domingo domenica zondag",
}
_IN_ENGLISH = {word: english for english, words in _CALENDAR_WORDS.items() for word in words.split()}
MONTHS = tuple(list(_CALENDAR_WORDS)[:12])  # "january" … "december"
WEEKDAYS = tuple(list(_CALENDAR_WORDS)[12:])  # "monday" … "sunday" (datetime's weekday() order)


def plain_words(text: str) -> set[str]:
    """Lower-case words without accents ("Canadá" → "canada"); month and weekday names in six other
    languages as the English name ("Juli" → "july")."""
    return {_IN_ENGLISH.get(word, word) for word in (unaccented(w) for w in _words(text))}


def content_words(text: str) -> set[str]:
    """``plain_words`` without stop words or a possessive "'s" ("Brazil's" → "brazil")."""
    return {_POSSESSIVE.sub("", word) for word in plain_words(text) if word not in STOP_WORDS}


_POSSESSIVE = re.compile(r"['’]s$")


@dataclass(frozen=True)
class _Answer:
    """What an answer states, read once for all of a reference's values."""

    text: str
    numbers: set[float]
    words: set[str]
    joined: set[str]  # words with their hyphens dropped: "WiFi", "wifi" for "Wi-Fi"

    @classmethod
    def of(cls, text: str) -> _Answer:
        return cls(text, numbers_in(text), plain_words(text), {_joined(token) for token in text.split()})


def _joined(word: str) -> str:
    return unaccented(re.sub(r"[-‐‑]", "", word.strip(".,;:!?\"'()"))).lower()


def _stated(value: Value, answer: _Answer, reference: str) -> bool:
    """The value is written in the answer: the same number as ``_rubric.number_found`` reads it
    (decimal commas; "6 pm" in the reference also as 18; 12:30 said "half past twelve"), or a word of
    the name, accents ignored, written alike ("Canadá", "avril" for "April": ratio ≥ NAME_SIMILARITY;
    month and weekday names in six languages)."""
    if value.kind == "number":
        spelled = spelled_number(value.text)
        if spelled is not None:
            return float(spelled) in answer.numbers
        after = reference[value.end:value.end + 4]
        return number_found(value.text, after, answer.numbers, answer.text)
    named = plain_words(value.text)
    if named & answer.words or (value.kind == "item" and _joined(value.text) in answer.joined):
        return True
    return any(fuzz.ratio(a, b) >= NAME_SIMILARITY
               for a in named if len(a) >= 4 for b in answer.words if len(b) >= 4)


async def reference_values(reference: str, answer: str, translation: str | None = None, *,
                           same_language: bool = False) -> list[dict[str, str | bool]]:
    """Which of the reference answer's first MAX_REFERENCE_VALUES values (numbers, names, list items) the
    answer gives.

    A value written in the answer (the same number, a word of the name), or in its ``translation`` into
    the reference's language ("Estados Unidos" → "United States"), is found without the judge.
    Otherwise the value is blanked in the reference and the judge fills the blank from the answer
    (``fill_blank``, the answer as its context): the value counts as given when the fill occurs in the
    answer and not already in the blanked reference ("Nouvelle-Zélande" for "New Zealand", "4,95" for
    "4.95"); an answer that leaves the part out leaves the judge nothing of its own to copy. A list item
    is filled from the ``translation`` when there is one (the small judge fills an English blank from a
    German "WLAN" with the reference's "Wi-Fi", and from the translation with "WLAN"). A fill that
    ``compare_fill`` finds differing from the value — another number, or, when ``same_language`` (both
    texts read as one language), another name — is the wrong value the answer gives in its place: not
    found, and marked ``differs``.
    [{value, found, by: "text" | "translation" | "fill", fill, differs?}]."""
    out: list[dict[str, str | bool]] = []
    read = _Answer.of(answer)
    read_translation = _Answer.of(translation) if translation else None
    values = claim_values(reference)
    values += [item for item in list_items(reference)
               if not any(v.start < item.end and item.start < v.end for v in values)]
    for value in sorted(values, key=lambda v: v.start)[:MAX_REFERENCE_VALUES]:
        if _stated(value, read, reference):
            out.append({"value": value.text, "found": True, "by": "text"})
            continue
        if read_translation is not None and _stated(value, read_translation, reference):
            out.append({"value": value.text, "found": True, "by": "translation"})
            continue
        sentence = blanked(reference, value)
        # a list item is filled from the translation, when there is one: a common noun of another language
        # is translated reliably ("WLAN" kept, "potlood" → "pencil") where the judge fills the English blank
        # from the foreign text with the reference's own word ("Wi-Fi")
        shown = translation if value.kind == "item" and translation else answer
        fill = await fill_blank(sentence, shown, None)
        copied = fill.strip(" .\"'").lower()
        found = copied in shown.lower() and copied not in sentence.lower()  # "" is in both
        record: dict[str, str | bool] = {"value": value.text, "found": found, "by": "fill", "fill": fill}
        # the fill is what the answer says in the value's place: another number, or in the reference's own
        # language another name ("Lenin" for "Friedrich Engels"), is a wrong value, not the value given
        if found and (value.kind == "number" or same_language) \
                and compare_fill(value, fill, shown, sentence) == "differs":
            record.update(found=False, differs=True)
        out.append(record)
    return out
