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
"""

from __future__ import annotations

import re
from collections import Counter

from agentunit.metrics._cloze import claim_values, content_words

_PART_END = re.compile(r"[;.!?](?:\s|$)|,\s*(?:(?:and|then|but)\s+)?|\s+(?:and|but|then|while|whereas)\s+",
                       re.IGNORECASE)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_PRONOUNS = frozenset("i me you we us he she they them my your our their his its".split())


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
