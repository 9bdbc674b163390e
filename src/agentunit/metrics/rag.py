"""RAG metrics: faithfulness / hallucination, context recall, context relevance, answer relevance,
retrieval quality.

Built for a small local judge: texts are split into sentence-level claims (optionally the judge
splits a sentence that joins several claims, see ``_claims``); each claim gets one
PASS/FAIL decision against the context, read from token probabilities, with the context at the
start of the prompt so llama.cpp reuses its cache across claims and metrics. A claim carries what
it needs to be checked on its own: an answer of fewer than 12 words is shown with the question it
answers ("Question: … Answer: …"); a bare "yes"/"no" is scored by asking the judge the question
itself (P(yes), or 1 − P(yes) for "no"), and any other short answer is compared with the judge's own
answer to the question (``agreement_support``); a sentence that opens with a pronoun is shown after the
sentence before it. Each of a claim's numbers and names is then blanked and filled by the judge from the
context (``_cloze``): a fill that differs caps the support, fills that all agree lift it
(``cloze_support``). Deterministic evidence runs alongside: a number or a capitalised name in a claim
(not the question) that appears nowhere in the context caps the claim's support (see ``evidence``).
Long contexts are cut to the passages most similar to the claim and its question (embeddings).
Without context (from the case, or ``trusys.context``) a metric is not measured. Measured in
docs/rag.md.
"""

from __future__ import annotations

import re
from typing import Any

from agentunit.errors import MetricConfigError
from agentunit.judges.base import Decision, JudgeRequest
from agentunit.judges.service import current_judge, pass_fail
from agentunit.metrics._claims import atomic_claims
from agentunit.metrics._cloze import cloze_check, names_in
from agentunit.metrics._sentences import split_sentences
from agentunit.metrics.base import MetricResult
from agentunit.metrics.judged import JudgedMetric, quoted
from agentunit.metrics.overlap import answer_f1
from agentunit.metrics.registry import register

MAX_CONTEXT_CHARS = 2400  # beyond this, only the passages most similar to the claim are shown
TOP_PASSAGES = 4
NUMBER_CAP = 0.1   # support of a claim with a number the context lacks
ENTITY_CAP = 0.3   # support of a claim with a name the context lacks
CONTRADICTED_CAP = 0.1  # support of a yes/no answer whose yes/no is the opposite of the judge's own
# A short answer against the judge's own answer to its question (token F1), chosen on the tune rows
# (docs/rag.md): agreement lifts the support half-way to 1, no shared word scales it by 0.75.
AGREE_F1, AGREE_LIFT = 0.7, 0.5
DISAGREE_F1, DISAGREE_SCALE = 0.1, 0.75
# A claim's values blanked and filled by the judge (``_cloze``), chosen on the tune rows (docs/rag.md):
# a fill that differs from the claimed value caps the support at 0.3; when every fill agrees, an
# uncapped support moves a quarter of the way to 1.
CLOZE_DIFFERS_CAP, CLOZE_LIFT = 0.3, 0.25
_NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")


def evidence(claim: str, context: str) -> dict[str, Any]:
    """Numbers and capitalised names of the claim that do not occur in the context (case-insensitive)."""
    lowered = context.lower()
    plain = lowered.replace(",", "")
    numbers = [n for n in _NUMBER.findall(claim) if n.replace(",", "") not in plain]
    names = [n.group() for n in names_in(claim) if n.group().lower() not in lowered]
    return {"missing_numbers": numbers, "missing_names": names}


def cap_support(probability: float, found: dict[str, Any]) -> float:
    if found["missing_numbers"]:
        return min(probability, NUMBER_CAP)
    if found["missing_names"]:
        return min(probability, ENTITY_CAP)
    return probability


def context_of(case: Any, outcome: Any) -> list[str] | None:
    context = outcome.context or case.context
    return [c for c in context if c and c.strip()] if context else None


async def _passages_for(claim: str, passages: list[str]) -> str:
    text = "\n".join(passages)
    if len(text) <= MAX_CONTEXT_CHARS:
        return text
    from agentunit.models.embeddings import embed_texts

    pieces = [s for p in passages for s in (split_sentences(p) or [p])]
    vectors = await embed_texts([claim, *pieces])
    ranked = sorted(range(len(pieces)), key=lambda i: -float((vectors[0] * vectors[i + 1]).sum()))
    keep = sorted(ranked[:TOP_PASSAGES])
    return "\n".join(pieces[i] for i in keep)


def _claim_prompt(claim: str, shown: str, question: str | None, previous: str | None) -> str:
    """The claim-check prompt: context first (cache reuse), then the claim with what it needs."""
    if question:
        return (f"Context:\n{shown}\n\nQuestion: {question}\nAnswer: {claim}\n\nIf the context states or "
                "clearly implies this answer to the question, reply PASS. If the context contradicts the answer "
                "or does not mention it, reply FAIL.")
    lead = f"Preceding sentence (for reference only): {previous}\n" if previous else ""
    return (f"Context:\n{shown}\n\n{lead}Claim: {claim}\n\nIf the context states or clearly implies the claim, "
            "reply PASS. If the context contradicts the claim or does not mention it, reply FAIL.")


_YES_NO = re.compile(r"^\W*(yes|no)\W*$", re.I)


def _yes_no(claim: str) -> str | None:
    """"yes" or "no" when the claim is nothing but that word."""
    match = _YES_NO.match(claim)
    return match.group(1).lower() if match else None


async def _judge_probability(claim: str, shown: str, question: str | None, previous: str | None
                             ) -> tuple[float, Decision]:
    """P(supported) of one claim. A bare yes/no answer is scored by asking the judge the question itself
    (P(yes) for "yes", 1 − P(yes) for "no"): the same prompt for both answers, read as PASS = yes."""
    answer = _yes_no(claim) if question else None
    if answer:
        decision = await pass_fail(
            "You answer yes/no questions from a context. Reply PASS for yes, FAIL for no.",
            f"Context:\n{shown}\n\nQuestion: {question}\n\nIf the context shows that the answer to the "
            "question is yes, reply PASS. If the answer is no, reply FAIL.")
        yes = decision.probabilities["PASS"]
        return (yes if answer == "yes" else 1 - yes), decision
    decision = await pass_fail("You check claims against a context. Reply FAIL or PASS.",
                               _claim_prompt(claim, shown, question, previous))
    return decision.probabilities["PASS"], decision


_LEADING_YES_NO = re.compile(r"^\W*(yes|no)\b", re.I)


async def _own_answer(question: str, shown: str) -> str:
    """The judge's own short answer to the question from the shown context (greedy, cached)."""
    text, _, _ = await current_judge().generate(JudgeRequest(
        (("system", "You answer questions from a context. Reply with a short phrase only."),
         ("user", f"Context:\n{shown}\n\nQuestion: {question}\n\nAnswer the question with the shortest phrase "
                  "from the context that answers it.")), max_tokens=24))
    return text.strip()


def agreement_support(support: float, claim: str, own: str, capped: bool) -> tuple[float, float]:
    """(support after comparing the short answer with the judge's own answer, their token F1).

    An answer that opens with yes/no while the judge's own answer opens with the other is contradicted:
    support ≤ 0.1. Otherwise F1 ≥ 0.7 (they agree) moves an uncapped support half-way to 1, and F1 < 0.1
    (no shared word) scales it by 0.75; in between it is kept."""
    f1 = answer_f1(own, claim)
    stated, judged = _LEADING_YES_NO.match(claim), _LEADING_YES_NO.match(own)
    if stated:
        if judged and judged.group(1).lower() != stated.group(1).lower():
            return min(support, CONTRADICTED_CAP), f1
        return support, f1
    if f1 >= AGREE_F1 and not capped:
        return support + AGREE_LIFT * (1 - support), f1
    if f1 < DISAGREE_F1:
        return support * DISAGREE_SCALE, f1
    return support, f1


def cloze_support(support: float, checks: list[dict[str, str]], capped: bool) -> float:
    """Support after the claim's values were blanked and filled by the judge (``_cloze``): a fill that
    differs from the claimed value caps it at CLOZE_DIFFERS_CAP; when every fill agrees, an uncapped
    support moves CLOZE_LIFT of the way to 1."""
    verdicts = [c["verdict"] for c in checks]
    if "differs" in verdicts:
        return min(support, CLOZE_DIFFERS_CAP)
    if verdicts and all(v == "agrees" for v in verdicts) and not capped:
        return support + CLOZE_LIFT * (1 - support)
    return support


async def claim_support(claim: str, passages: list[str], question: str | None = None,
                        previous: str | None = None, blank_values: bool = True) -> dict[str, Any]:
    """One claim against the context: the judge's P(supported), the evidence, the capped support.
    ``question`` (a short answer's question) and ``previous`` (the sentence a pronoun refers back to)
    are shown with the claim; the evidence looks at the claim alone. A short answer (not a bare yes/no)
    is also compared with the judge's own answer to its question (``agreement_support``). With
    ``blank_values`` the claim's numbers and names are blanked and filled by the judge
    (``cloze_support``)."""
    framed = f"{question} {claim}" if question else f"{previous} {claim}" if previous else claim
    shown = await _passages_for(framed, passages)
    probability, decision = await _judge_probability(claim, shown, question, previous)
    found = evidence(claim, "\n".join(passages))
    support = cap_support(probability, found)
    record = {"claim": claim, "judge_probability": round(probability, 4)}
    capped = bool(found["missing_numbers"] or found["missing_names"])
    if question and not _yes_no(claim):
        own = await _own_answer(question, shown)
        support, f1 = agreement_support(support, claim, own, capped)
        record.update(judge_answer=own, answer_f1=round(f1, 4))
    if blank_values and not capped:  # a capped support (≤ 0.3) is one the fills could not move
        checks = await cloze_check(claim, shown, "\n".join(passages), question)
        if checks:
            support = cloze_support(support, checks, capped)
            record["blanks"] = checks
    record.update(support=round(support, 4), **found, judge_source=decision.source, cached=decision.cached)
    if question:
        record["question"] = question
    if previous:
        record["previous"] = previous
    return record


class _ClaimMetric(JudgedMetric):
    """Split a text into claims and check each against the context."""

    async def _claims(self, text: str, passages: list[str], question: str | None) -> list[dict[str, Any]]:
        claims = await atomic_claims(text, use_judge=self.config.get("split_claims", False), question=question)
        checked = []
        for item in claims:
            record = await claim_support(item["claim"], passages, item["question"], item["previous"],
                                         blank_values=self.config.get("blank_values", True))
            if item["split_note"]:
                record.update(sentence=item["sentence"], split=item["split_note"])
            checked.append(record)
        return checked

    async def _answer_claims(self, case, outcome) -> list[dict[str, Any]] | MetricResult:
        """The answer's checked claims, or the not-measured result when there is no context or claim."""
        passages = context_of(case, outcome)
        if not passages:
            return self.not_measured("no context (set it on the case or return it in trusys.context)")
        claims = await self._claims(outcome.output, passages, outcome.query or case.query)
        return claims or self.not_measured("the answer has no claims")


@register("context-faithfulness", family="rag", aliases=("faithfulness", "faithfulness-metric"), threshold=0.65,
          model="judge", catalog_name="faithfulness", example="{metric: context-faithfulness, threshold: 0.8}")
class FaithfulnessMetric(_ClaimMetric):
    """Share of the answer's claims supported by the context (RAGAS/promptfoo faithfulness).

    Algorithm: claims are the answer's sentences. With ``config.split_claims: true`` a sentence that
    joins several claims (", and it …", "; ", ", which …") is split by the judge, the split kept only
    if it neither adds nor drops content words — off by default: on a 60-case set of joined
    sentences whole-sentence decisions scored 1.000 balanced accuracy with 1 call per case, splitting
    0.983 with 2.55 (docs/rag.md). Each claim stands on its own: when the answer has fewer than 12
    words and the case has a question, the judge sees "Question: … Answer: …" and is asked whether
    the context supports this answer to the question; a bare yes/no is scored as the judge's own
    P(yes) (or 1 − P(yes)) to the question against the context; a sentence opening with a pronoun
    is shown after the previous sentence. For each claim, P(supported) from one PASS/FAIL judge
    decision with the context first in the prompt, capped at 0.1 when the claim holds a number the
    context lacks and at 0.3 for a missing capitalised name (the claim's opening word counts only
    beside another capitalised word). For a short answer (not a bare yes/no) the judge also answers the
    question itself from the context (one short generation), and the two answers are compared —
    SQuAD token F1 ≥ 0.7 lifts an uncapped support half-way to 1, no shared word scales it by 0.75,
    and an answer opening with yes/no against the judge's opposite yes/no is capped at 0.1 (chosen on
    the tune rows: balanced accuracy 0.715 → 0.765, docs/rag.md). Then each of the claim's first four
    numbers and names (numbers first) is replaced by a blank and the judge fills it from the context
    (one short generation each; not for a claim the evidence already capped): a fill holding another
    number or name found in the context caps the support at 0.3; when every fill agrees with the
    claim, the support moves a quarter of the way to 1 (tune 0.765 → 0.792, test 0.738 → 0.762;
    ``config.blank_values: false`` turns this off).
    Score = mean support. The detail lists every claim with its question or previous sentence, judge
    probability, the judge's own answer and its F1, the blanks with their fills, evidence and final
    support. No context → not
    measured. Results are named ``faithfulness`` (the AgentUnit catalog's name) when the metric is
    built as ``FaithfulnessMetric()`` or asked for as ``faithfulness``, else
    ``context-faithfulness``. Pass mark 0.65: the small judge's P(PASS) for supported short answers
    sits at 0.55–0.7, and 0.65 scored best of the round marks on the tune split (docs/rag.md).
    """

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        claims = await self._answer_claims(case, outcome)
        if isinstance(claims, MetricResult):
            return claims
        score = sum(c["support"] for c in claims) / len(claims)
        return self.result(score, reason=f"{score:.2f} of {len(claims)} claims supported{_weakest(claims)}",
                           detail={"claims": claims})


@register("hallucination", family="rag", aliases=("hallucination_rate", "hallucination-rate-metric"),
          threshold=0.35, direction="lower", model="judge", catalog_name="hallucination_rate",
          example="{metric: hallucination, threshold: 0.2}")
class HallucinationRateMetric(_ClaimMetric):
    """Share of the answer's content not supported by the context: 1 − faithfulness (lower is better;
    passes when ≤ threshold, default 0.35, the complement of faithfulness's 0.65). Same claims,
    decisions and evidence as context-faithfulness. Results are named ``hallucination_rate`` (the
    AgentUnit catalog's name) when the metric is built as ``HallucinationRateMetric()`` or asked for
    as ``hallucination_rate``, else ``hallucination``."""

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        claims = await self._answer_claims(case, outcome)
        if isinstance(claims, MetricResult):
            return claims
        rate = 1 - sum(c["support"] for c in claims) / len(claims)
        return self.result(rate, reason=f"{rate:.2f} of the answer unsupported{_weakest(claims)}",
                           detail={"claims": claims})


def _weakest(claims: list[dict[str, Any]]) -> str:
    """The reason's evidence: the least supported claim, quoted, when one is less than fully supported."""
    weakest = min(claims, key=lambda c: c["support"])
    if weakest["support"] >= 1:
        return ""
    return f"; least supported: {quoted(weakest['claim'])} ({weakest['support']:.2f})"


@register("context-recall", family="rag", needs=("output", "expected_output"), value="optional", threshold=0.5,
          model="judge", example="{metric: context-recall, value: \"Paris is the capital of France.\"}")
class ContextRecall(_ClaimMetric):
    """Share of the expected answer's sentences attributable to the retrieved context (same claims —
    a short expected answer shown with its question and compared with the judge's own answer —,
    per-claim decision, blanked values and evidence as context-faithfulness, applied to the expected
    output; ``config.blank_values: false`` skips the blanks). Passes at ≥ 0.5: chosen on the tuning
    rows of tests/data/labelled/rag_handwritten.jsonl (AUC 0.97; 0.7 failed more than half the
    contexts that hold the answer). A blank expected answer, or one without a claim, is not measured."""

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        passages = context_of(case, outcome)
        if not passages:
            return self.not_measured("no context (set it on the case or return it in trusys.context)")
        expected = str(self.expected(case))
        if not expected.strip():
            return self.not_measured("the expected answer is blank (nothing to find in the context)")
        claims = await self._claims(expected, passages, outcome.query or case.query)
        if not claims:
            return self.not_measured("the expected answer has no claims")
        score = sum(c["support"] for c in claims) / len(claims)
        return self.result(score, reason=f"{score:.2f} of the expected answer found in the context",
                           detail={"claims": claims})


async def _useful(passage: str, question: str, target: str | None) -> float:
    goal = f"Question: {question}" + (f"\nExpected answer: {target}" if target else "")
    decision = await pass_fail(
        "You judge whether a passage helps answer a question. Reply FAIL or PASS.",
        f"{goal}\n\nPassage: {passage}\n\nIf the passage contains information needed to answer the "
        "question, reply PASS. Otherwise reply FAIL.")
    return decision.probabilities["PASS"]


@register("context-relevance", family="rag", needs=("output", "query"), threshold=0.5, model="judge",
          example="{metric: context-relevance}")
class ContextRelevance(JudgedMetric):
    """Share of the context needed to answer the query: the context is split into sentences and the
    judge decides for each whether it holds information needed for the answer; score = mean P(PASS)."""

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        passages = context_of(case, outcome)
        if not passages:
            return self.not_measured("no context (set it on the case or return it in trusys.context)")
        question = outcome.query or case.query
        sentences = [s for p in passages for s in (split_sentences(p) or [p])]
        parts = [await _useful(s, question, None) for s in sentences]
        score = sum(parts) / len(parts)
        return self.result(score, reason=f"{score:.2f} of {len(sentences)} context sentences relevant",
                           detail={"sentences": [{"text": s, "relevant": round(p, 4)}
                                                 for s, p in zip(sentences, parts, strict=True)]})


@register("retrieval_quality", family="rag", aliases=("retrieval-quality-metric",), needs=("output", "query"),
          threshold=0.8, model="judge", example="{metric: retrieval_quality, config: {margin: 0.1}}")
class RetrievalQualityMetric(JudgedMetric):
    """Rank-aware precision of the retrieved context items (AgentUnit RetrievalQualityMetric): each item,
    in retrieval order, gets P(useful) for the question (and the expected output when there is one); an
    item counts as useful when P ≥ 0.5 and P is within ``config.margin`` (default 0.1) of the most useful
    item's; score = average precision = Σ_k P@k · rel_k / Σ rel_k over those items, so useful items ranked
    first score higher. 0 when no item is useful.

    Why relative: the small judge ranks passages better than it rates them — on the tune split of
    tests/data/labelled/rag_handwritten.jsonl it gave passages about other facts of the same subject
    P(useful) 0.6–0.8 beside 0.8–0.95 for the passage that answers, so soft relevances scored a buried
    answer almost as high as one ranked first (BA 0.702). The margin 0.1 and the pass mark 0.8 (the
    useful items come first) were chosen there (BA 0.905); docs/judges.md has the test figure."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        margin = self.config.get("margin", 0.1)
        if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not 0 <= margin <= 1:
            raise MetricConfigError(f"{self.name} config.margin must be a number from 0 to 1, got {margin!r}")
        self.margin = float(margin)

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        passages = context_of(case, outcome)
        if not passages:
            return self.not_measured("no retrieved context")
        question = outcome.query or case.query
        target = None if case.expected_output is None else str(case.expected_output)
        relevance = [await _useful(p, question, target) for p in passages]
        best = max(relevance)
        useful = [p >= 0.5 and p >= best - self.margin for p in relevance]
        detail = {"relevance": [round(r, 4) for r in relevance], "useful": useful, "margin": self.margin}
        if not any(useful):
            return self.result(0.0, reason="no retrieved item is useful", detail=detail)
        ranks = [k for k, hit in enumerate(useful, 1) if hit]
        ap = sum(found / k for found, k in enumerate(ranks, 1)) / len(ranks)  # P@k at each useful item's rank
        return self.result(ap, reason=f"average precision {ap:.3f} over {len(passages)} items "
                                      f"(useful at rank {', '.join(map(str, ranks))})", detail=detail)


@register("answer-relevance", family="rag", needs=("output", "query"), threshold=0.5, model="judge",
          example="{metric: answer-relevance}")
class AnswerRelevance(JudgedMetric):
    """How directly the answer addresses the query: P(PASS) of one judge decision "does the response
    directly answer the question?" (an empty answer scores 0 without a call)."""

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        if not outcome.output.strip():
            return self.result(0.0, reason="empty answer")
        question = outcome.query or case.query
        decision = await pass_fail(
            "You judge whether a response answers a question. Reply FAIL or PASS.",
            f"Question: {question}\nResponse: {outcome.output}\n\nIf the response directly answers the "
            "question, reply PASS. If it is off-topic, evasive or answers something else, reply FAIL.")
        score = decision.probabilities["PASS"]
        return self.result(score, reason=f"P(answers the question {quoted(question)}) = {score:.3f}",
                           detail={"judge": decision.to_detail()})


__all__ = ["AnswerRelevance", "ContextRecall", "ContextRelevance", "FaithfulnessMetric",
           "HallucinationRateMetric", "RetrievalQualityMetric"]
