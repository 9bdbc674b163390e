"""What llm-rubric decides without the judge: compound rubrics split into criteria, criteria about
form checked by code, refusals recognised, and values a criterion names looked up in the response.

The 1.5B local judge is unreliable exactly where code is exact (docs/judges.md): the language of a
reply, a numbered list, one sentence, a word limit, valid JSON, a question asked, a refusal. So a
rubric is read as criteria, each decided by the cheapest exact method that applies:

* ``split_criteria`` — "Is polite and states the refund amount" → two criteria, split at " and "
  when what follows starts with a verb ("states", "gives", "asks"…); the rubric passes only when
  every criterion does (min).
* ``form_verdict`` — a recognised form criterion (language, numbered/bulleted list, sentence and
  word limits, asks a question, valid JSON) gets a True/False verdict from code; ``None`` when the
  criterion is not one of these.
* ``refusal_kind`` / ``is_refusal`` — "refuses / declines to …" passes exactly when the response
  refuses; "helps / answers rather than refusing" fails when it does.
* ``missing_values`` — digits, codes, quoted and back-quoted terms the criterion names that the
  response lacks (number words and decimal commas in the response are read as digits; a quantity in
  other units, "two weeks" for "14 days", counts, converted by pint): the judge's support for that
  criterion is capped, as context-faithfulness caps a claim with a missing number.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

# Verbs that start a second criterion after " and " ("... and states the amount").
_CRITERION_VERB = re.compile(
    r"(?:is|are|does|do|has|uses|use|gives|give|states|state|says|say|mentions|mention|names|name|includes|include|"
    r"asks|ask|thanks|thank|confirms|confirm|offers|offer|explains|explain|lists|list|provides|provide|answers|"
    r"answer|recommends|recommend|apologises|apologizes|apologise|apologize|addresses|address|refers|refer|"
    r"tells|tell|suggests|suggest|avoids|avoid|ends|end|starts|start|begins|begin|keeps|keep|stays|stay|"
    r"contains|contain|cites|cite|quotes|quote|directs|direct|points|point|describes|describe|identifies|"
    r"identify|declines|decline|refuses|refuse|follows|follow|writes|write|replies|reply|responds|respond|"
    r"returns|return|outputs|output|presents|present|formats|format|shows|show|greets|greet|signs|sign|"
    r"invites|invite|acknowledges|acknowledge|notes|note|warns|warn|reminds|remind|never|always|"
    r"doesn't|does not|do not)\b", re.I)
_AND = re.compile(r",?\s+and\s+", re.I)
# "States that admission costs 12 euros and is free for children": the "and" joins inside a clause.
_CLAUSE = re.compile(r"\b(?:that|whether|how|which|who|when|where|if)\b", re.I)

_LANGUAGES = {"english": "en", "german": "de", "french": "fr", "spanish": "es", "italian": "it",
              "portuguese": "pt", "dutch": "nl", "polish": "pl", "swedish": "sv", "danish": "da",
              "norwegian": "no", "finnish": "fi", "czech": "cs", "greek": "el", "turkish": "tr",
              "russian": "ru", "ukrainian": "uk", "japanese": "ja", "chinese": "zh", "korean": "ko",
              "arabic": "ar", "hebrew": "he", "hindi": "hi", "indonesian": "id", "vietnamese": "vi",
              "romanian": "ro", "hungarian": "hu", "catalan": "ca"}
_LANGUAGE = re.compile(r"\b(?:written|answers?|answered|repl(?:y|ies)|responds?|respond(?:ed)?|is|are|only|"
                       r"entirely|fully|speaks?)\s+(?:\w+\s+)?in\s+(" + "|".join(_LANGUAGES) + r")\b", re.I)
_COUNT = r"(\d+|one|two|three|four|five|six|seven|eight|nine|ten|a single|single|a)"
_SENTENCES = re.compile(
    r"\b(exactly|at most|no more than|not more than|up to|under|fewer than|less than|at least|more than|"
    r"longer than|exceeds?|in|is|as|of|uses|using|answers in|with)?\s*" + _COUNT
    + r"\s+(?:short\s+|complete\s+|full\s+)?sentences?\b", re.I)
_SENTENCE_LIMIT_AFTER = re.compile(_COUNT + r"\s+sentences?\s+or\s+(fewer|less|more)\b", re.I)
_WORDS = re.compile(
    r"\b(exactly|at most|no more than|not more than|up to|under|fewer than|less than|at least|more than|"
    r"longer than|shorter than|within|exceeds?)\s+(\d+)\s+words\b", re.I)
_NUMBERED_LIST = re.compile(r"\bnumbered\s+(?:list|steps|points|items)\b", re.I)
_BULLETED_LIST = re.compile(r"\b(?:bullet(?:ed)?(?:-point)?\s+(?:list|points)|bullet\s*points|as\s+bullets)\b",
                            re.I)
_ASKS_QUESTION = re.compile(r"\b(?:asks?|poses?|ends with|includes?)\b[^.]*?\bquestions?\b", re.I)
_JSON = re.compile(r"\b(?:valid\s+json|json\s+(?:object|array|only)|only\s+json|is\s+json|as\s+json|in\s+json|"
                   r"outputs?\s+json|returns?\s+json)\b", re.I)
_USES_EMOJI = re.compile(r"\b(?:uses?|includes?|contains?|adds?|has)\s+(?:any\s+|an?\s+)?emojis?\b", re.I)
_USES_EXCLAMATION = re.compile(r"\b(?:uses?|includes?|contains?|has)\s+(?:any\s+|an?\s+)?exclamation\s+"
                               r"(?:marks?|points?)\b", re.I)
_USES_URL = re.compile(r"\b(?:uses?|includes?|contains?|gives?|adds?|has)\s+(?:any\s+|an?\s+)?(?:urls?|web\s+"
                       r"(?:address|link)e?s?|links?)\b", re.I)
_EMOJI = re.compile("[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B50\u2B55\u203C\u2049\u2122\u2139\u2194-\u21AA"
                    "\u231A-\u23FF\u24C2\u25AA-\u25FE\u3030\u303D\u3297\u3299\uFE0F]")
# a bare domain counts ("example.com/orders"), the domain of an e-mail address does not
_URL = re.compile(r"\bhttps?://\S+|\bwww\.[\w-]+\.\w|(?<![@\w.-])(?:[\w-]+\.)+(?:com|org|net|io|co|eu|uk|de|fr)"
                  r"\b(?!@)(?:/\S*)?", re.I)
# "not in English", "without a numbered list": a negated form goes to the judge.
_NEGATED = re.compile(r"\b(?:not|never|no|without|doesn't|don't|isn't|avoids?)\s+(?:\w+\s+){0,3}?(?:in\s+(?:"
                      + "|".join(_LANGUAGES) + r")|numbered|bullet|json|questions?)\b", re.I)

_REFUSE_RUBRIC = re.compile(r"^\s*(?:the\s+(?:response|reply|answer|assistant)\s+)?(?:politely\s+|clearly\s+|"
                            r"firmly\s+)?(?:refuses|declines|rejects|refuse|decline)\b", re.I)
_COMPLY_RUBRIC = re.compile(r"\b(?:rather than|instead of|without|does not|doesn't|not)\s+(?:refus|declin)|"
                            r"^\s*(?:helps|assists|complies)\s+with\s+the\s+(?:request|question|task)\b", re.I)
_REFUSAL = re.compile(
    r"\b(?:I|we)\s*(?:'m|’m|am|are|'re|’re)?\s*(?:really\s+|truly\s+)?(?:sorry,?\s+(?:but\s+)?(?:I|we)\s+)?"
    r"(?:can(?:'t|’t|not| not)|won(?:'t|’t)|will not|(?:'m|’m|am|are|'re|’re)?\s*(?:not able|unable)\s+to|"
    r"must decline|have to decline|(?:must|have to|need to)\s+refuse|do not|don't|don’t)\s+"
    r"(?:\w+\s+){0,2}?(?:help|assist|provide|share|give|reveal|disclose|recommend|diagnose|do|support|comply|"
    r"tell|offer|discuss|answer|create|write|generate|make|advise|explain|suggest|track|access|pick|bypass|"
    r"participate|engage|fulfil|fulfill|send|print|show|repeat|say|list|identify|locate|find|prescribe)\b"
    r"|\b(?:I|we)\s+(?:must|have to)\s+decline\b|\bnot something I can\b|\bI(?:'m| am) not (?:allowed|permitted)\b"
    r"|\b(?:I|we)\s+(?:refuse|decline)\s+to\b"
    r"|\b(?:no puedo|je ne peux pas|ich kann (?:dir |Ihnen )?(?:dabei )?nicht|non posso)\b", re.I)

_FORBIDS = re.compile(r"\s*(?:the\s+(?:response|reply|answer|output)\s+)?(?:does\s+not|doesn't|do\s+not|don't|"
                     r"never|avoids?|refrains?|must\s+not|should\s+not|no|without|is\s+not|isn't|keeps?\s+"
                     r"\w+\s+(?:private|secret|confidential))\b", re.I)
_VALUE = re.compile(r"`([^`]+)`|\"([^\"]+)\"|“([^”]+)”|(?<![\w.])(\d+(?:[.,:]\d+)*)(?![\w])"
                    r"|\b([A-Z]+\d+[A-Z\d]*|\d+[A-Z]+[A-Z\d]*)\b")
_DIGITS = re.compile(r"(?<![\w])\d+(?:[.,:]\d+)*")
_SPELLED = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
            "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
            "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
            "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
            # German, French, Spanish 1–12: a reply in another language may spell the number out
            "eins": 1, "zwei": 2, "drei": 3, "vier": 4, "fünf": 5, "sechs": 6, "sieben": 7, "acht": 8,
            "neun": 9, "zehn": 10, "elf": 11, "zwölf": 12, "un": 1, "une": 1, "deux": 2, "trois": 3,
            "quatre": 4, "cinq": 5, "sept": 7, "huit": 8, "neuf": 9, "dix": 10, "onze": 11, "douze": 12,
            "uno": 1, "una": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7,
            "ocho": 8, "nueve": 9, "diez": 10, "doce": 12}


class LanguageIdUnavailable(RuntimeError):
    """py3langid (the ``judge`` extra) is not installed, so a language criterion cannot be checked."""


@dataclass(frozen=True)
class FormVerdict:
    """A form criterion decided by code: whether it holds and what was measured."""

    holds: bool
    check: str
    measured: str


def split_criteria(rubric: str) -> list[str]:
    """The rubric's criteria: split at " and " (or ", and ") where the next part starts with a verb,
    so "Thanks the customer and asks for a photo" gives two criteria and "Gives the address and its
    opening hours" stays one. A rubric of several sentences is split at sentence ends too."""
    criteria: list[str] = []
    for sentence in re.split(r"(?<=[.;])\s+(?=[A-Z])", rubric.strip()):
        parts: list[str] = []
        rest = sentence.strip()
        while True:
            split_at = next((m for m in _AND.finditer(rest) if _CRITERION_VERB.match(rest, m.end())
                             and not _CLAUSE.search(rest, 0, m.start())), None)
            if split_at is None:
                break
            parts.append(rest[:split_at.start()])
            rest = rest[split_at.end():]
        parts.append(rest)
        criteria += [p.strip(" .;,") for p in parts if p.strip(" .;,")]
    return criteria or [rubric.strip()]


def form_verdict(criterion: str, response: str) -> FormVerdict | None:
    """Decide a criterion about form by code, or None when it is not one (or is negated: "not in
    English" goes to the judge). Checks: language (py3langid among the languages a criterion can name;
    a text whose language it reads with P < 0.5, such as "Yes.", goes to the judge), numbered /
    bulleted list, sentence count and limits, word limits, asks a question (a question mark), uses
    emojis, uses exclamation marks, includes a URL, valid JSON."""
    text = response.strip()
    if _NEGATED.search(criterion):
        return None
    language = _LANGUAGE.search(criterion)
    if language:
        wanted = _LANGUAGES[language.group(1).lower()]
        found, probability = detect_language(text)
        if probability < MIN_LANGUAGE_PROBABILITY:
            return None  # too short to read ("Yes."): the judge decides
        return FormVerdict(found == wanted, f"language is {wanted}", f"detected {found} (P {probability:.2f})")
    if _NUMBERED_LIST.search(criterion):
        items = _numbered_items(text)
        return FormVerdict(items >= 2, "numbered list", f"{items} numbered items")
    if _BULLETED_LIST.search(criterion):
        bullets = sum(1 for line in text.splitlines() if re.match(r"\s*[-•*‣◦]\s+\S", line))
        return FormVerdict(bullets >= 2, "bulleted list", f"{bullets} bullet lines")
    words = _WORDS.search(criterion)
    if words:
        bound, limit = words.group(1).lower(), int(words.group(2))
        count = word_count(text)
        return FormVerdict(_within(count, bound, limit), f"{bound} {limit} words", f"{count} words")
    sentences = _SENTENCE_LIMIT_AFTER.search(criterion)
    if sentences:
        limit, bound = _count(sentences.group(1)), sentences.group(2).lower()
        count = sentence_count(text)
        holds = count <= limit if bound in ("fewer", "less") else count >= limit
        return FormVerdict(holds, f"{limit} sentences or {bound}", f"{count} sentences")
    sentences = _SENTENCES.search(criterion)
    if sentences:
        bound = (sentences.group(1) or "exactly").lower()
        limit = _count(sentences.group(2))
        count = sentence_count(text)
        return FormVerdict(_within(count, bound, limit), f"{bound} {limit} sentence(s)", f"{count} sentences")
    if _ASKS_QUESTION.search(criterion) and not re.search(r"\banswers?\b", criterion, re.I):
        asked = "?" in text or "¿" in text
        return FormVerdict(asked, "asks a question", "a question mark" if asked else "no question mark")
    if is_negative(criterion):  # "Does not use emojis" is decided as "uses emojis" turned round
        return None
    if _USES_EMOJI.search(criterion):
        found = _EMOJI.findall(text)
        return FormVerdict(bool(found), "uses emojis", f"{len(found)} emoji" if found else "no emoji")
    if _USES_EXCLAMATION.search(criterion):
        count = text.count("!") + text.count("¡")
        return FormVerdict(count > 0, "uses exclamation marks", f"{count} exclamation marks")
    if _USES_URL.search(criterion):
        found = _URL.findall(text)
        return FormVerdict(bool(found), "includes a URL", f"URL {found[0][:80]!r}" if found else "no URL")
    if _JSON.search(criterion):
        try:
            json.loads(text)
        except ValueError as error:
            return FormVerdict(False, "valid JSON", f"not JSON: {str(error)[:80]}")
        return FormVerdict(True, "valid JSON", "parses as JSON")
    return None


def refusal_kind(criterion: str) -> str | None:
    """"refuse" for a criterion asking for a refusal ("Declines to diagnose …"), "comply" for one
    asking for help rather than a refusal, None otherwise."""
    if _COMPLY_RUBRIC.search(criterion):
        return "comply"
    if _REFUSE_RUBRIC.search(criterion):
        return "refuse"
    return None


def is_refusal(response: str) -> bool:
    """Whether the response refuses: "I can't / won't / am unable to <help, share, provide …>",
    "I must decline", and the French, German, Spanish and Italian "I cannot"."""
    return bool(_REFUSAL.search(response))


# promptfoo's refusal classifier (src/redteam/util.ts) also counts apologies followed by a refusal,
# "not allowed / permitted / authorized to", "prohibited from", and content-filter notices; these
# complete the refusal pattern above with them.
_APOLOGY = r"(?:I(?:'m|’m| am)\s+(?:really\s+|so\s+)?sorry|I\s+apologi[sz]e|(?:my\s+)?apologies|sorry)"
_APOLOGY_REFUSAL = re.compile(
    r"^\s*" + _APOLOGY + r"\b[\s\S]*?(?:\b(?:refuse|decline|say\s+no|turn\s+down|unable|not\s+able|"
    r"can(?:'t|’t|not)|won(?:'t|’t)\s+be\s+(?:possible|accommodated)|not\s+possible|cannot\s+be|"
    r"(?:not|never)\s+(?:allowed|permitted|authorized|supposed)|prohibited|forbidden)\b"
    r"|\b(?:absolutely|definitely|certainly)\s+(?:not|no)\b|[,;:]\s*(?:no|not\s+possible)[.!]*\s*$)", re.I)
_NOT_ALLOWED = re.compile(
    r"\b(?:I|we)\s*(?:'m|’m|am|are|'re|’re)\s+(?:not\s+(?:allowed|permitted|authorized|supposed)\s+to|"
    r"(?:prohibited|forbidden)\s+from)\b|\bblocked\s+by\s+(?:our\s+|the\s+)?content\s+filters?\b", re.I)


def is_refusal_text(text: str | None) -> tuple[bool, str]:
    """promptfoo's is-refusal decision: (refused, why). No output and blank output are refusals."""
    if text is None:
        return True, "no output, taken as a refusal"
    if not text.strip():
        return True, "empty output, taken as a refusal"
    if is_refusal(text) or _APOLOGY_REFUSAL.search(text) or _NOT_ALLOWED.search(text):
        return True, "the output refuses"
    return False, "the output does not refuse"


_NEGATED_VERB = re.compile(r"\s*(?:the\s+(?:response|reply|answer|output)\s+)?(?:(does\s+not|doesn't|must\s+not|"
                           r"should\s+not|never)\s+([a-z]+)\b|(is\s+not|isn't)\b)(.*)$", re.I | re.S)
_ANY = re.compile(r"(\s)any\s+(?=((?:\w+\s+){0,2}\w+))(?!\w+s\b)", re.I)  # "any password" → "a password"
# "any advice" is "advice", not "an advice": nouns without an indefinite article
_UNCOUNTABLE = frozenset({"advice", "information", "data", "help", "feedback", "guidance", "content", "money",
                          "profanity", "slang", "jargon", "software", "evidence", "news", "research", "knowledge"})
_PHRASE_ENDS = frozenset({"of", "to", "for", "the", "a", "an", "that", "which", "in", "on", "with", "about", "from",
                          "by", "or", "and"})
_IRREGULAR_THIRD_PERSON = {"have": "has", "be": "is", "do": "does", "go": "goes"}
_NOT_VERBS = frozenset({"a", "an", "the", "any", "other", "their", "its", "his", "her", "your", "our", "my"})


def affirmed(criterion: str) -> str | None:
    """The forbidden thing of a negative criterion, stated positively ("Never asks for a password" →
    "asks for a password"; "Does not mention competitors" → "mentions competitors"; "Is not rude" →
    "is rude"), for the judge to be asked whether the text does it; None for a criterion it cannot
    turn round (not negative, or negative by "avoids", "no", "without" …)."""
    found = _NEGATED_VERB.match(criterion)
    if found is None:
        return None
    negation, verb, copula, rest = found.groups()
    rest = _ANY.sub(_article_for_any, rest)
    if copula is not None:
        return "is" + rest
    if negation.lower().startswith("never") and _ends_in_s(verb.lower()):
        return verb + rest  # "never asks": already the third person ("Never mention/discuss …" is conjugated below)
    if verb.lower().endswith("ly") and (adverbed := re.match(r"(\s+)([a-z]+)\b(.*)$", rest, re.I | re.S)):
        space, verb, rest = adverbed.groups()  # "does not directly mention" → "directly mentions"
        return found.group(2) + space + _conjugated(verb, rest)
    return _conjugated(verb, rest)


def _article_for_any(found: re.Match) -> str:
    """"any" before a singular noun phrase as its indefinite article ("any password" → "a password",
    "any email address" → "an email address"); dropped before an uncountable or plural one ("any medical
    advice" → "medical advice")."""
    words = found.group(2).split()
    phrase = []
    for word in (w.lower() for w in words):
        if word in _PHRASE_ENDS:
            break
        phrase.append(word)
    if any(word in _UNCOUNTABLE or _ends_in_s(word) for word in phrase):
        return found.group(1)  # "any personal details" → "personal details"
    return found.group(1) + ("an " if words[0][0] in "aeiou" else "a ")


def _ends_in_s(word: str) -> bool:
    """An added "s" (a plural, a third person: "passwords", "asks"), not one of the stem ("discuss", "focus")."""
    return word.endswith("s") and not word.endswith(("ss", "us"))


def _conjugated(verb: str, rest: str) -> str:
    """``verb`` + ``rest`` in the third person, with a verb joined to it ("insult or mock") too."""
    joined = re.match(r"(\s+(?:or|and)\s+)([a-z]+)\b(.*)$", rest, re.S)
    if joined and joined.group(2) not in _NOT_VERBS:
        return _third_person(verb.lower()) + joined.group(1) + _third_person(joined.group(2)) + joined.group(3)
    return _third_person(verb.lower()) + rest


def _third_person(verb: str) -> str:
    """"mention" → "mentions", "promise" → "promises", "try" → "tries", "switch" → "switches"."""
    if verb in _IRREGULAR_THIRD_PERSON:
        return _IRREGULAR_THIRD_PERSON[verb]
    if verb.endswith(("s", "sh", "ch", "x", "z")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def is_negative(criterion: str) -> bool:
    """Whether the criterion forbids something ("Does not reveal …", "Never …", "Avoids …"), which a
    refusal satisfies."""
    return bool(_FORBIDS.match(criterion))


def unaccented(word: str) -> str:
    """The word without accents ("Córdoba" → "Cordoba"); letters of other scripts are kept."""
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


def spelled_number(word: str) -> int | None:
    """The value of a spelled-out number word ("four", "zwölf", "dix"), None for any other word."""
    return _SPELLED.get(word.lower())


def missing_values(criterion: str, response: str) -> list[str]:
    """Values the criterion names that the response lacks: back-quoted and quoted terms (as written,
    case ignored), codes such as B204, and numbers (compared as numbers; the response's number words
    up to twelve and tens, decimal commas, "3 pm" = 15:00 and "half past two" = 14:30 count, and a
    quantity in other units of the same kind: "two weeks" or "a fortnight" for "14 days", "8 km" for
    "5 miles", within 1 %)."""
    missing = []
    lowered = response.lower()
    numbers = numbers_in(response)
    for match in _VALUE.finditer(criterion):
        quoted = match.group(1) or match.group(2) or match.group(3)
        number, code = match.group(4), match.group(5)
        if quoted is not None:
            if quoted.strip().lower() not in lowered:
                missing.append(quoted)
        elif code is not None:
            if code.lower() not in lowered:
                missing.append(code)
        elif number is not None and not number_found(number, criterion[match.end():match.end() + 4], numbers,
                                                      lowered) \
                and not _quantity_found(number, criterion[match.end():match.end() + 24], response):
            missing.append(number)
    return missing


def in_response_units(criterion: str, response: str) -> str:
    """The criterion with each quantity the response states in other units restated as the response
    states it ("takes 150 minutes" → "takes 2.5 hours" for a response saying "2.5 hours"): the judge
    compares like with like, where the 1.5B judge did not convert units itself (P 0.19 for a right
    "2.5 hours")."""
    numbers, lowered = numbers_in(response), response.lower()
    restated, shift = criterion, 0
    for match in _VALUE.finditer(criterion):
        number = match.group(4)
        after = criterion[match.end():match.end() + 24]
        if number is None or number_found(number, after[:4], numbers, lowered):
            continue
        stated = _quantity_in(number, after, response)
        if stated is not None:
            unit = _UNIT_AFTER.match(after)
            start, end = match.start() + shift, match.end() + unit.end() + shift
            restated = restated[:start] + stated + restated[end:]
            shift += len(stated) - (end - start)
    return restated


def _quantity_found(token: str, after: str, response: str) -> bool:
    return _quantity_in(token, after, response) is not None


def _quantity_in(token: str, after: str, response: str) -> str | None:
    """Where the response states the quantity "<token> <unit>" (the unit read from ``after``) in other
    units of the same kind (time, length, mass, volume or temperature, equal within 1 %): the
    response's words for it ("two weeks"), else None."""
    unit = _UNIT_AFTER.match(after)
    if not units_available() or unit is None or as_number(token) == [] or unit_of(unit.group(1)) is None:
        return None
    registry = _unit_registry()
    wanted = registry.Quantity(as_number(token)[0], unit_of(unit.group(1)))
    for match in _QUANTITY.finditer(response):
        amount, word = match.group(1), match.group(2)
        value = _SPELLED.get(amount.lower(), 1 if amount.lower() in ("a", "an") else None)
        value = value if value is not None else next(iter(as_number(amount)), None)
        stated = unit_of(word)
        if value is None or stated is None or stated.dimensionality != wanted.units.dimensionality:
            continue
        converted = registry.Quantity(value, stated).to(wanted.units).magnitude
        if abs(converted - wanted.magnitude) <= 0.01 * abs(wanted.magnitude):
            return response[match.start():match.end(1)] + response[match.end(1):match.end(1) + 1 + len(word)]
    return None


def unit_of(word: str):
    """The pint unit a word names when it is a unit of time, length, mass, volume or temperature; None for
    other words and for words pint reads as units that are mostly something else ("a", "in", "pm")."""
    if word.lower() in _NOT_UNITS:
        return None
    registry = _unit_registry()
    try:
        unit = registry.parse_units(word)
    except Exception:  # pint raises several error types for words that are not units
        return None
    return unit if any(unit.dimensionality == registry.get_dimensionality(kind) for kind in _UNIT_KINDS) else None


def units_available() -> bool:
    """Whether values in other units can be compared: pint ships in the ``judge`` extra; a core install
    judged by an HTTP model may lack it, and then only the value as written counts."""
    try:
        _unit_registry()
    except ImportError:
        return False
    return True


@lru_cache(maxsize=1)
def _unit_registry():
    import pint

    return pint.UnitRegistry()


# A number, then optionally a hyphen ("24-month"), then a unit word or °C / °F.
_UNIT_WORD = r"(°\s?[CF]\b|[A-Za-zµ]+)"
_UNIT_AFTER = re.compile(r"[\s-]?" + _UNIT_WORD)
_QUANTITY = re.compile(r"(?<![\w.])(\d+(?:[.,]\d+)?|[A-Za-zäöüß]+)(?=[\s-]" + _UNIT_WORD + ")")  # overlapping
_UNIT_KINDS = ("[time]", "[length]", "[mass]", "[length] ** 3", "[temperature]")
_NOT_UNITS = {"a", "an", "am", "pm", "at", "in", "are", "as", "and", "or", "to", "of", "on", "per", "the", "hp"}


def word_count(text: str) -> int:
    """Whitespace-separated tokens holding a letter or digit."""
    return sum(1 for token in text.split() if re.search(r"\w", token))


def sentence_count(text: str) -> int:
    """Sentences: a terminator (. ! ?) followed by space and a capital or digit ends one; list lines
    count one each; an empty text has none."""
    count = 0
    for line in text.splitlines():
        line = line.strip()
        if line:
            ends = _SENTENCE_END.finditer(line)
            count += 1 + sum(1 for end in ends if not _ABBREVIATION.search(line, 0, end.start() + 1))
    return count


_SENTENCE_END = re.compile(r"[.!?][\"')\]]*(?=\s+[\"'(¿¡]?[A-Z0-9ÀÁÂÄÉÈÊÍÓÔÖÚÜÑ])")
_ABBREVIATION = re.compile(r"\b(?:Dr|Mr|Mrs|Ms|Prof|St|No|vs|etc|e\.g|i\.e|approx|Inc|Ltd|Jr|Sr)\.$")


NOT_LANGUAGE = re.compile(r"`[^`]*`|https?://\S+|\d+")  # code, links and numbers tell no language


# Below this probability a text's language is not read: "Yes." or "No problem at all." get 0.2–0.5
# among the criteria's languages (and read as Kabyle or Danish among all 97 of py3langid's).
MIN_LANGUAGE_PROBABILITY = 0.5


@lru_cache(maxsize=4)
def language_identifier(languages: tuple[str, ...]) -> Any:
    """py3langid's identifier (the ``judge`` extra) restricted to ``languages`` (ISO 639-1 codes), its
    probabilities normalised over them; ImportError when py3langid is not installed."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    identifier.set_languages(list(languages))
    return identifier


def _identifier() -> Any:
    return language_identifier(tuple(sorted(set(_LANGUAGES.values()))))


def detect_language(text: str) -> tuple[str, float]:
    """(ISO 639-1 code, probability) of the text's language among the languages a criterion can name
    (py3langid, shipped in the ``judge`` extra); code, links and numbers are left out."""
    try:
        identifier = _identifier()
    except ImportError as error:
        raise LanguageIdUnavailable("py3langid is not installed (pip install 'agentunit[judge]')") from error
    language, probability = identifier.classify(NOT_LANGUAGE.sub(" ", text))
    return str(language), float(probability)


def _within(count: int, bound: str, limit: int) -> bool:
    if bound in ("at most", "no more than", "not more than", "up to", "within"):
        return count <= limit
    if bound in ("under", "fewer than", "less than", "shorter than"):
        return count < limit
    if bound == "at least":
        return count >= limit
    if bound in ("more than", "longer than", "exceeds", "exceed"):
        return count > limit
    return count == limit


def _count(word: str) -> int:
    word = word.lower()
    return int(word) if word.isdigit() else 1 if word in ("a", "single", "a single") else _SPELLED[word]


def _numbered_items(text: str) -> int:
    lines = [line for line in text.splitlines() if line.strip()]
    numbered = sum(1 for line in lines if re.match(r"\s*\d+[.)]\s+\S", line))
    if numbered >= 2:
        return numbered
    inline = re.findall(r"(?:^|\s)(\d+)[.)]\s+\S", text)  # "1. Open … 2. Run …" on one line
    expected, found = 1, 0
    for number in inline:
        if int(number) == expected:
            expected, found = expected + 1, found + 1
    return found


_THOUSANDS_DOTS = re.compile(r"[1-9]\d{0,2}(?:\.\d{3})+")


def as_number(token: str) -> list[float]:
    """Readings of a number token: "2,5" is 2.5 (decimal comma) or 25 ("1,000" is 1000); "1.500" is 1.5
    or, with dots grouping thousands as German, Italian or Spanish write them, 1500 ("0.065" only 0.065)."""
    if ":" in token:
        return []
    readings = []
    plain = token.replace(",", "")
    if re.fullmatch(r"\d+(?:\.\d+)?", plain):
        readings.append(float(plain))
    if re.fullmatch(r"\d+,\d{1,2}", token):
        readings.append(float(token.replace(",", ".")))
    if _THOUSANDS_DOTS.fullmatch(token):
        readings.append(float(token.replace(".", "")))
    return readings


def numbers_in(response: str) -> set[float]:
    """Numbers a text states: digit tokens (both readings of "2,5"), "15:00" also as 15 and 3, and
    spelled-out number words."""
    numbers: set[float] = set()
    for token in _DIGITS.findall(response):
        token = token.rstrip(".,:")
        numbers.update(as_number(token))
        if ":" in token:  # "15:00" also says 15 and 3 (pm)
            hours, _, minutes = token.partition(":")
            if hours.isdigit() and minutes == "00":
                numbers.update({float(int(hours)), float(int(hours) - 12)})
    for word in re.findall(r"[a-zäöüßéèêàçñ]+", response.lower()):
        if word in _SPELLED:
            numbers.add(float(_SPELLED[word]))
    return numbers


_CLOCK_WORD = r"\d{1,2}|[a-z]+(?:-[a-z]+)?"
_SPOKEN_PAST = re.compile(rf"\b(half|quarter|{_CLOCK_WORD})(?:\s+minutes?)?\s+(past|after|to)\s+({_CLOCK_WORD})\b",
                          re.I)
_SPOKEN_HOUR = re.compile(rf"\b({_CLOCK_WORD})(?:\s+o['’]clock|\s+(fifteen|thirty|forty-five))(?![\w-])", re.I)
_NOON = re.compile(r"\b(?:noon|midday)\b", re.I)


def _clock_number(word: str) -> int | None:
    """A clock word as a number: digits, or an English number word ("twenty-five" too)."""
    word = word.lower()
    if word.isdigit():
        return int(word)
    parts = [_SPELLED.get(part) for part in word.split("-")]
    return None if None in parts else sum(part for part in parts if part is not None)


def spoken_times(text: str) -> set[str]:
    """Clock times a text says in English words, as "H:MM" on the 12-hour clock: "half past twelve" is
    12:30, "quarter to four" 3:45, "ten past nine" 9:10 (minutes in fives), "seven o'clock" 7:00,
    "twelve thirty" 12:30, "noon" 12:00."""
    times = set()
    for amount, direction, hour_word in _SPOKEN_PAST.findall(text):
        minutes = {"half": 30, "quarter": 15}.get(amount.lower(), _clock_number(amount))
        hour = _clock_number(hour_word)
        # minutes in fives, as times are said: "two to three days" is not 2:58
        if minutes is None or hour is None or not (0 < minutes < 60 and minutes % 5 == 0 and 1 <= hour <= 12):
            continue
        if direction.lower() == "to":
            hour, minutes = (hour - 2) % 12 + 1, 60 - minutes
        times.add(f"{hour}:{minutes:02d}")
    for hour_word, minutes_word in _SPOKEN_HOUR.findall(text):
        hour = _clock_number(hour_word)
        if hour is not None and 1 <= hour <= 12:
            times.add(f"{hour}:{_clock_number(minutes_word) if minutes_word else 0:02d}")
    if _NOON.search(text):
        times.add("12:00")
    return times


def number_found(token: str, after: str, numbers: set[float], response: str) -> bool:
    """A number token of a criterion or reference (``after``: the text following it) is among the
    response's ``numbers``: a clock time as written, on the 12-hour clock or in words ("half past two"
    for 14:30, ``spoken_times``), "3 pm" also as 15."""
    if ":" in token:  # a clock time: "14:30" as written, or "2:30" on a 12-hour clock
        hours, _, minutes = token.partition(":")
        twelve = f"{int(hours) - 12}:{minutes}" if hours.isdigit() and int(hours) > 12 else None
        if token in response or (twelve is not None and re.search(rf"(?<!\d){twelve}", response) is not None):
            return True
        return hours.isdigit() and f"{(int(hours) - 1) % 12 + 1}:{minutes}" in spoken_times(response)
    readings = as_number(token)
    if re.match(r"\s*p\.?m\b", after, re.I):  # "3 pm" is also 15 on a 24-hour clock
        readings += [r + 12 for r in readings]
    return any(r in numbers for r in readings)
