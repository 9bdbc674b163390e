"""Atomic claims: sentences first, the judge only for a sentence that joins several claims (opt-in,
``config.split_claims: true`` on the claim metrics; measured in docs/rag.md).

A sentence is a split candidate when it joins clauses (", and", ", but", "; ", ", which", ", while",
"and it/this/they …"). The judge rewrites it as standalone claims (JSON, schema-constrained). A
split is kept only if it is faithful to the sentence: every claim's content words come from the
sentence (≥ 85 %), and together the claims cover ≥ 70 % of the sentence's content words — so the
judge can neither invent nor drop content. Otherwise the sentence stays one claim, and the record
says why.

Claims that stand on their own (always on): an answer of fewer than SHORT_ANSWER_WORDS words, when
the case has a question, carries that question (the RAG metrics check "Question: … Answer: …");
a sentence that opens with a pronoun ("It was founded in 1952.") carries the sentence before it.
"""

from __future__ import annotations

import json
import re
from typing import Any

from agentunit.judges.base import JudgeRequest
from agentunit.judges.service import current_judge
from agentunit.metrics._sentences import MAX_STATEMENTS, split_sentences

_JOINED = re.compile(r",\s*(?:and|but|while|whereas|which|although|so|yet)\b|;\s|\band\s+(?:it|he|she|they|this|"
                     r"that|its|their|his|her|there)\b|\bbut\s+(?:it|he|she|they|this|its|their)\b", re.I)
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
STOP_WORDS = frozenset("""a an the and or but so yet of to in on at by for with from as is are was were be been being
it its this that these those there their his her he she they them which while whereas although also very has have
had do does did not no than then""".split())
MIN_WORDS_TO_SPLIT = 8
SHORT_ANSWER_WORDS = 12  # an answer shorter than this is checked together with its question
_LEADING_PRONOUN = re.compile(r"^\W*(?:it|its|he|she|his|her|they|their|them|this|these|those|there|such)\b", re.I)
CLAIMS_SCHEMA = {"type": "object", "properties": {"claims": {"type": "array", "items": {"type": "string"},
                                                             "minItems": 1, "maxItems": 6}},
                 "required": ["claims"]}


def _content(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in STOP_WORDS}


def joins_claims(sentence: str) -> bool:
    """Whether a sentence looks like several claims joined together (worth a judge split)."""
    return len(sentence.split()) >= MIN_WORDS_TO_SPLIT and bool(_JOINED.search(sentence))


def faithful_split(sentence: str, claims: list[str]) -> str | None:
    """None when ``claims`` restate ``sentence`` without adding or dropping content, else why not."""
    source = _content(sentence)
    if len(claims) < 2:
        return "the judge returned a single claim"
    covered: set[str] = set()
    for claim in claims:
        words = _content(claim)
        if not words:
            return "an empty claim"
        if len(words & source) / len(words) < 0.85:
            return f"claim adds words not in the sentence: {claim!r}"
        covered |= words
    if source and len(covered & source) / len(source) < 0.7:
        return "the claims drop part of the sentence"
    return None


async def split_claim(sentence: str) -> dict[str, Any]:
    """Ask the judge to split one sentence; returns {claims, split, reason}."""
    text, _, _ = await current_judge().generate(JudgeRequest(
        (("system", "You split sentences into short standalone claims."),
         ("user", "Split the sentence into its separate claims. Each claim is one short full sentence that names "
                  "its subject instead of using a pronoun. Use only words from the sentence; add nothing.\n\n"
                  f"Sentence: {sentence}\n\nReply as JSON: {{\"claims\": [...]}}")),
        max_tokens=200, json_schema=CLAIMS_SCHEMA))
    try:
        claims = [str(c).strip() for c in json.loads(text)["claims"] if str(c).strip()]
    except (ValueError, KeyError, TypeError):
        return {"claims": [sentence], "split": False, "reason": "judge output was not the requested JSON"}
    problem = faithful_split(sentence, claims)
    if problem:
        return {"claims": [sentence], "split": False, "reason": problem}
    return {"claims": claims, "split": True, "reason": None}


def folds_question(text: str, question: str | None) -> bool:
    """Whether the answer is checked as "Question: … Answer: …": a short answer ("Marie Curie",
    "yes", "In 1952.") says nothing checkable without the question it answers."""
    return bool(question and question.strip()) and len(text.split()) < SHORT_ANSWER_WORDS


def leans_on_previous(sentence: str) -> bool:
    """Whether a sentence needs the one before it to be read: it opens with a pronoun ("It was …")."""
    return bool(_LEADING_PRONOUN.match(sentence))


async def atomic_claims(text: str, use_judge: bool = True, question: str | None = None) -> list[dict[str, Any]]:
    """Claims of ``text``: [{claim, sentence, split_note, question, previous}] in order, at most
    MAX_STATEMENTS. ``question`` is set when the answer is short (it cannot be checked without the
    question it answers); ``previous`` is the sentence before one that opens with a pronoun."""
    out: list[dict[str, Any]] = []
    sentences = split_sentences(text) or ([text.strip()] if text.strip() else [])
    folded = question.strip() if question and folds_question(text, question) else None
    for index, sentence in enumerate(sentences):
        previous = sentences[index - 1] if index and leans_on_previous(sentence) else None
        frame = {"sentence": sentence, "question": folded, "previous": previous}
        if use_judge and joins_claims(sentence):
            result = await split_claim(sentence)
            note = "split by the judge" if result["split"] else f"kept whole: {result['reason']}"
            out += [{"claim": c, "split_note": note, **frame} for c in result["claims"]]
        else:
            out.append({"claim": sentence, "split_note": None, **frame})
    return out[:MAX_STATEMENTS]
