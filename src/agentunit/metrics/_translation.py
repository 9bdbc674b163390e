"""An answer written in another language than its reference, translated by the judge before comparing.

The statement checks and the embeddings that compare an answer with a reference work within one
language: the small judge doubts that "Rojo, verde y azul." states "Red, green and blue.", and the
English embedding model puts the two far apart. When py3langid, restricted to 25 common languages,
reads the answer and the reference as different languages, each with a probability of at least 0.5,
the judge translates the answer into the reference's language (one short generation, cached) and the
comparison reads the translation. The probability bound keeps out short texts whose language cannot
be read: "Jane Austen." or "Canada." read as German or Spanish with P 0.1–0.4.
"""

from __future__ import annotations

import re
from typing import Any

from agentunit.judges.base import JudgeRequest
from agentunit.judges.service import current_judge
from agentunit.metrics._rubric import MIN_LANGUAGE_PROBABILITY, NOT_LANGUAGE, language_identifier

LANGUAGE_NAMES = {"en": "English", "de": "German", "fr": "French", "es": "Spanish", "it": "Italian",
                  "pt": "Portuguese", "nl": "Dutch", "sv": "Swedish", "da": "Danish", "no": "Norwegian",
                  "fi": "Finnish", "pl": "Polish", "cs": "Czech", "tr": "Turkish", "ru": "Russian",
                  "uk": "Ukrainian", "el": "Greek", "ar": "Arabic", "he": "Hebrew", "hi": "Hindi",
                  "zh": "Chinese", "ja": "Japanese", "ko": "Korean", "id": "Indonesian", "vi": "Vietnamese"}
_MAX_TOKENS = 400
_QUOTED = re.compile(r"`[^`]*`|\"[^\"]*\"|“[^”]*”|‘[^’]*’|(?<!\w)'[^']+'(?!\w)")
_ABOUT_LANGUAGE = re.compile(r"\btranslat|\b(?:" + "|".join(LANGUAGE_NAMES.values()) + r")\b", re.IGNORECASE)


def _identifier() -> Any:
    return language_identifier(tuple(LANGUAGE_NAMES))


def read_language(text: str) -> tuple[str, float] | None:
    """(ISO 639-1 code, probability) of the text's language among LANGUAGE_NAMES (py3langid, the
    ``judge`` extra); None when py3langid is not installed."""
    try:
        identifier = _identifier()
    except ImportError:
        return None
    language, probability = identifier.classify(NOT_LANGUAGE.sub(" ", text))
    return str(language), float(probability)


async def translated_answer(answer: str, reference: str) -> dict[str, Any] | None:
    """``{"from", "to", "text"}``: the answer translated by the judge into the reference's language, when
    both are read (``read_language``) with a probability of at least MIN_LANGUAGE_PROBABILITY and the
    languages differ (``text`` is empty when the judge returned nothing: the call was made); None
    otherwise, without a call.

    Args:
        answer: the text to compare.
        reference: the text it is compared with, whose language the translation takes.
    """
    read = _confident_languages(answer, reference)
    if read is None or read[0] == read[1]:
        return None
    source, target = read
    language = LANGUAGE_NAMES[target]
    text, _, _ = await current_judge().generate(JudgeRequest((
        ("system", "You translate text. Reply with the translation only."),
        ("user", f"Translate into {language}:\n\n{answer}")),
        max_tokens=min(_MAX_TOKENS, 3 * len(answer.split()) + 20)))
    return {"from": source, "to": target, "text": text.strip()}


def criterion_wording(criterion: str) -> str | None:
    """The criterion's own words, whose language an output in another language is translated into: its
    quoted passages left out ("Is a correct English translation of 'Der Zug fährt um acht'" reads as
    English). None when the criterion is about language or translation ("written in Spanish", "a correct
    English translation"): an output judged on its language must be read as written."""
    if _ABOUT_LANGUAGE.search(criterion):
        return None
    return _QUOTED.sub(" ", criterion)


def same_language(answer: str, reference: str) -> bool:
    """Both texts read (``read_language``) as one language, each with a probability of at least
    MIN_LANGUAGE_PROBABILITY: a name the answer gives in the reference's place can then be compared
    with the reference's letter by letter ("Lenin" is not "Engels"; "Nueva Zelanda" could be "New Zealand")."""
    read = _confident_languages(answer, reference)
    return read is not None and read[0] == read[1]


def _confident_languages(answer: str, reference: str) -> tuple[str, str] | None:
    """The two texts' language codes when both are read with a probability of at least
    MIN_LANGUAGE_PROBABILITY; None otherwise (or without py3langid)."""
    source, target = read_language(answer), read_language(reference)
    if source is None or target is None or min(source[1], target[1]) < MIN_LANGUAGE_PROBABILITY:
        return None
    return source[0], target[0]
