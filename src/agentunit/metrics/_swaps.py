"""Parts of a reference answer exchanged in an answer: every value given, each attached to the wrong thing.

"Sydney is the capital; Canberra is the largest city." against "Canberra is the capital; Sydney is the
largest city." gives every name of the reference, and each sentence is about something the reference
states, so values and statements pass it (the 1.5B judge says the answer states "Canberra is the
capital" with P ≈ 0.6). Read by code instead:

1. Both texts are cut into parts at sentence ends, semicolons, commas and the conjunctions "and",
   "but", "then", "while", "whereas"; a part is read as its words (lower case, accents, stop words,
   pronouns and a plural "s" dropped) and its numbers.
2. Each reference part keeps the words no other part has (its own words: {canberra, capital} and
   {sydney, largest, city}).
3. An answer part is a swap when it holds own words of two reference parts without all the own words
   of either, and one of the words it matched is not a value (a number or a capitalised name): "Sydney
   is the capital" holds "capital" of the first and "Sydney" of the second. "From 1914 to 1918" for
   "It began in 1914 and ended in 1918" matches values only and is not a swap; "Canberra, not Sydney,
   is the capital" holds all of the first part's own words and is not one either.

The answer must be cut into two parts or more (an answer in another language is not cut at its own
conjunctions, so its one part would hold words of every reference part); an answer read translated
is not checked (the caller leaves it out).

``reordered`` finds the other exchange: every part named, none attached to another, but a stated order
("The Volga, then the Danube") given the other way round.
"""

from __future__ import annotations

import re
from collections import Counter

from agentunit.metrics._cloze import NOT_NAMES, claim_values, content_words

_PART_END = re.compile(r"[;.!?](?:\s|$)|,\s*(?:(?:and|then|but)\s+)?|\s+(?:and|but|then|while|whereas)\s+",
                       re.IGNORECASE)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_PRONOUNS = frozenset("i me you we us he she they them my your our their his its".split())
_ORDERED = re.compile(r"\b(?:then|first|followed\s+by|next|finally)\b", re.IGNORECASE)
_TURNS_ORDER = re.compile(r"\b(?:after|before|preceded|second|third|last|behind|not|than|rather)\b", re.IGNORECASE)
_CAPITALISED = re.compile(r"\b[A-Z][a-zA-Z]+\b")
_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|\w+")


def swapped_parts(reference: str, answer: str) -> list[str]:
    """The parts of ``answer`` that attach a value of one part of ``reference`` to another part's
    words (module docstring); [] when there are none or either text has fewer than two parts."""
    parts = [words for words in (_words(part) for part in _parts(reference)) if words]
    answer_parts = _parts(answer)
    if len(parts) < 2 or len(answer_parts) < 2:
        return []
    counts = Counter(word for words in parts for word in words)
    own = [{word for word in words if counts[word] == 1} for words in parts]
    owner = {word: index for index, words in enumerate(own) for word in words}
    found = []
    for part in answer_parts:
        hits: dict[int, set[str]] = {}
        for word in _words(part):
            if word in owner:
                hits.setdefault(owner[word], set()).add(word)
        # two reference parts met, neither whole (a proper subset of its own words), a word that is not a value
        if len(hits) >= 2 and all(hit < own[index] for index, hit in hits.items()) \
                and set().union(*hits.values()) - _values(part):
            found.append(part)
    return found


def reordered(reference: str, answer: str) -> list[str]:
    """``reference``'s parts in the order ``answer`` gives them, when the reference states an order ("The
    Volga, then the Danube": "then", "first", "followed by", "next", "finally") and the answer names every
    part in another order without a word that could turn the order round ("after", "before", "second",
    "last", …); [] otherwise. Each part is named by its capitalised words and numbers ("Volga"; "Danube")."""
    if not _ORDERED.search(reference) or _TURNS_ORDER.search(answer):
        return []
    keyed = [(part, key) for part, key in ((part, _key(part)) for part in _parts(reference)) if key]
    first_place: dict[str, int] = {}
    for token in _TOKEN.finditer(answer.lower()):
        first_place.setdefault(token.group(), token.start())
    places = []
    for _, key in keyed:
        found = [first_place[word] for word in key if word in first_place]
        if not found:
            return []  # a part left out is the values check's to count, not an order
        places.append(min(found))
    if places == sorted(places):
        return []
    return [keyed[i][0] for i in sorted(range(len(keyed)), key=places.__getitem__)]


def _key(part: str) -> set[str]:
    """A part's capitalised words (not "The", "It" …) and numbers, lower-cased."""
    names = {w.lower() for w in _CAPITALISED.findall(part) if w not in NOT_NAMES}
    return names | set(_NUMBER.findall(part))


def _parts(text: str) -> list[str]:
    return [part for part in (p.strip() for p in _PART_END.split(text)) if part]


def _words(text: str) -> set[str]:
    """Content words (a plural "s" dropped: "makes" and "make" meet) and numbers, thousands commas dropped."""
    words = {_singular(w) for w in content_words(text) if w not in _PRONOUNS}
    return words | {n.replace(",", "") for n in _NUMBER.findall(text)}


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def _values(text: str) -> set[str]:
    """The words of the part's numbers and capitalised names, read as ``_words`` reads them."""
    out: set[str] = set()
    for value in claim_values(text):
        out |= _words(value.text)
    return out
