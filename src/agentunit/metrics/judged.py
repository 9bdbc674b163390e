"""LLM-as-judge metrics: llm-rubric, factuality, g-eval.

Each asks the judge small categorical questions and reads the answer's probability (see
agentunit.judges.base), so a 1.5B local judge is used where it is reliable. The detail records the
judge's option probabilities, whether they came from logprobs or text, cache hits and token usage.
"""

from __future__ import annotations

import contextvars
import functools
import json
import math
import re
import unicodedata
from typing import Any, ClassVar

from agentunit.core.sync import run_blocking
from agentunit.errors import MetricConfigError
from agentunit.judges.base import JudgeRequest
from agentunit.judges.explain import rationale
from agentunit.judges.service import pass_fail, recording_decisions
from agentunit.metrics import _rubric as rubric_rules
from agentunit.metrics._translation import criterion_wording, translated_answer
from agentunit.metrics._values import switch
from agentunit.metrics.base import Metric, MetricResult
from agentunit.metrics.registry import register

DEFAULT_FACT_SCORES = {"subset": 1.0, "superset": 1.0, "same": 1.0, "disagrees": 0.0, "differs-immaterially": 1.0}


def _judge() -> Any:
    from agentunit.judges.service import current_judge

    return current_judge()


class JudgedMetric(Metric):
    """Base for judge metrics: the sync entry point runs the async one, and ``config.explain: true``
    adds a rationale to every judge metric's result — one more generation after the metric's
    decisions, asking the judge why (agentunit.judges.explain), stored as ``detail.rationale`` and
    appended to the reason. Subclasses' ``evaluate_async`` is wrapped for this when the class is made.
    """

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        switch(self.config, "explain", False, self.name)  # validated once; read where the rationale is asked

    def __init_subclass__(cls, **kwargs: Any):
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("evaluate_async")
        if own is not None:
            cls.evaluate_async = _explained(own)

    def evaluate(self, case, trace, outcome) -> MetricResult:
        async def once() -> MetricResult:
            try:
                return await self.evaluate_async(case, trace, outcome)
            finally:
                await _judge().aclose()  # this event loop ends here; so must its connections

        return run_blocking(once())

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        raise NotImplementedError


_explaining: contextvars.ContextVar[bool] = contextvars.ContextVar("agentunit_explaining", default=False)


def _explained(evaluate_async: Any) -> Any:
    """``evaluate_async`` that, with ``config.explain``, records the judge decisions it makes and then
    asks for the rationale of the one that weighed most on the result (agentunit.judges.explain)."""

    @functools.wraps(evaluate_async)
    async def evaluate(self: JudgedMetric, case, trace, outcome) -> MetricResult:
        if not self.config.get("explain") or _explaining.get():  # off, or a subclass calling super()
            return await evaluate_async(self, case, trace, outcome)
        token = _explaining.set(True)
        try:
            with recording_decisions() as decisions:
                result = await evaluate_async(self, case, trace, outcome)
        finally:
            _explaining.reset(token)
        if result.error is not None or result.value is None:
            return result
        explained = await rationale(decisions)
        result.detail = {**result.detail, **explained}
        if explained["rationale"]:
            result.reason = f"{result.reason} — why: {explained['rationale']}" if result.reason \
                else f"why: {explained['rationale']}"
        return result

    return evaluate


def _require_text(metric: Metric, what: str) -> None:
    """A given value (rubric, reference, criteria) must be non-blank text; None falls back to the case's
    expected_output. Raises MetricConfigError, reported as a suite problem before anything runs."""
    value = metric.value
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise MetricConfigError(f"{metric.name} value ({what}) must be text, got {type(value).__name__}")
    if not str(value).strip():
        raise MetricConfigError(f"{metric.name} value ({what}) is empty: the judge would have nothing to check")


REASON_QUOTE_CHARS = 80  # how much of a rubric, reference or criteria a reason quotes


def quoted(text: str, limit: int = REASON_QUOTE_CHARS) -> str:
    """``text`` on one line in double quotes for a reason, cut to ``limit`` characters (then "…")."""
    flat = " ".join(str(text).split())
    return f"\"{flat[:limit]}…\"" if len(flat) > limit else f"\"{flat}\""


def question_of(case, outcome) -> str | None:
    """The question a case asks: the reply's ``trusys.query``, else the case's prompt; None when blank."""
    query = outcome.query or case.query
    return query if query else None


@register("llm-rubric", family="judge", value="required", threshold=0.75, model="judge",
          example='{metric: llm-rubric, value: "Is polite and names a concrete next step"}')
class LlmRubric(JudgedMetric):
    """Does the output meet a free-text rubric? Code decides what code can, the judge the rest.

    Algorithm (agentunit.metrics._rubric): the rubric is split into criteria at " and " before a
    verb ("Is polite and states the refund amount" → 2). Each criterion is decided by the first
    method that applies:

    1. form — language (py3langid; a text it reads with P < 0.5, such as "Yes.", goes to the judge),
       numbered / bulleted list, sentence and word limits, asks a question, emojis, exclamation
       marks, a URL, valid JSON: 1.0 or 0.0 from code; a criterion forbidding one of them ("Does not
       use emojis") is the form checked and turned round;
    2. refusal — "refuses / declines to …" scores 1.0 exactly when the output refuses ("I can't
       share …"); "helps rather than refusing" scores 0.0 when it refuses;
    3. judge — one yes/no decision on the statement "The text <criterion>." about the output (the
       question shown when the case has one), score P(yes) from the first token's probabilities.
       A criterion that forbids something ("Never asks for a password", "Does not mention X") is
       asked turned round ("The text asks for a password."), since the small judge reads negation
       poorly: done when P(yes) ≥ 0.5, score 1 − P/2 up to 0.5 and 1.5·(1 − P) above, so 0.5 sits
       at the 0.75 pass mark (on the negative tune rows: 0.545 → 0.727; docs/judges.md).
       An output in another language than a (positive) criterion — py3langid reads both with
       P ≥ 0.5, the criterion without its quoted passages — is also translated by the judge into the
       criterion's language (``_translation``, one short generation) and asked about as translated;
       the higher P(yes) is kept (tune rows: 0.872 → 0.885; ``config.translate: false`` turns it
       off). Not for a criterion that names a language or a translation ("a correct English
       translation of …"), which must see the output as written.
       Capped at 0.1 when the criterion names a value (a number, a code such as B204, a quoted
       term) the output lacks (a quantity the output gives in other units counts, "two weeks" for
       "14 days", and the judge is asked about it in the output's units, which it does not convert
       itself), or when the output refuses a positive request. A criterion that asks
       for correctness ("correct", "correctly", "accurate") on a case whose prompt asks a question
       (holds a "?") is also compared with the judge's own short answer to that question (one
       generation, the criterion in view): when the output holds none of its answering words (those
       not in the question; case, accents and number words ignored; nor in the translation, when there
       is one), the score is multiplied by 0.75
       (chosen on the tuning rows: the small judge grades "Venus is closest to the Sun" as correct,
       but answers "Mercury").

    Score = the lowest criterion score; passes when ≥ threshold (default 0.75, the pass mark chosen
    on the tuning rows of tests/data/labelled/llm_rubric.jsonl: the judge leans to yes, so 0.5
    passed too many near misses). The detail lists every criterion with its method and evidence.
    ``config.exact_checks: false`` sends the whole rubric to the judge as one decision.
    """

    subject: ClassVar[str] = "rubric"  # what the value is called in reasons and errors

    def setup(self) -> None:
        _require_text(self, f"the {self.subject}")
        self._exact = switch(self.config, "exact_checks", True, self.name)
        self._translate = switch(self.config, "translate", True, self.name)

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        rubric, output = str(self.expected(case)), outcome.output
        question = question_of(case, outcome)
        criteria = rubric_rules.split_criteria(rubric) if self._exact else [rubric]
        decided = [await self._criterion(c, question, output) for c in criteria]
        worst = min(decided, key=lambda d: d["score"])
        score = worst["score"]
        why = worst["why"] if worst["method"] == "judge" else f"{worst['method']}: {worst['why']}"
        named = f"{self.subject} {quoted(rubric)}"
        reason = (f"{named}: {why}" if len(decided) == 1 else
                  f"{named}, {len(decided)} criteria, lowest {quoted(worst['criterion'])}: {why}")
        detail: dict[str, Any] = {"criteria": decided}
        judged = [d["judge"] for d in decided if d["method"] == "judge"]
        if len(judged) == 1:
            detail["judge"] = judged[0]
        return self.result(score, reason=reason, detail=detail)

    async def _criterion(self, criterion: str, question: str | None, output: str) -> dict[str, Any]:
        record: dict[str, Any] = {"criterion": criterion}
        if self._exact:
            try:
                exact = _exact_decision(criterion, output)
            except rubric_rules.LanguageIdUnavailable as missing:
                exact, record["fallback"] = None, f"{missing}; the judge decided the language"
            if exact is not None:
                return {**record, **exact}
        asked = rubric_rules.in_response_units(criterion, output) if self._exact else criterion
        if asked != criterion:
            record["asked_as"] = asked  # the output's units: the 1.5B judge does not convert them itself
        forbidden = rubric_rules.affirmed(asked) if self._exact else None
        if forbidden is not None:
            return {**record, **await _forbidden_decision(forbidden, question, output)}
        decision = await _judge().decide(JudgeRequest.yes_no(RUBRIC_SYSTEM, rubric_prompt(asked, question, output)))
        probability = decision.probabilities["yes"]
        record.update(method="judge", judge=decision.to_detail(), judge_probability=round(probability, 4))
        caps = _caps(criterion, output) if self._exact else {}
        # a capped criterion scores at most VALUE_CAP whatever the reading: no translation is asked for
        wording = criterion_wording(criterion) if self._translate and not caps else None
        translation = await translated_answer(output, wording) if wording else None
        if translation and translation["text"]:
            other = await _judge().decide(JudgeRequest.yes_no(RUBRIC_SYSTEM, rubric_prompt(
                asked, question, translation["text"])))
            record.update(translation=translation, translated_probability=round(other.probabilities["yes"], 4))
            if other.probabilities["yes"] > probability:
                probability = other.probabilities["yes"]
                record.update(judge=other.to_detail(), read="translated")
        score = min(probability, VALUE_CAP) if caps else probability
        why = f"P(pass) = {probability:.3f}" + (f", capped at {VALUE_CAP}: " + "; ".join(caps.values()) if caps else "")
        if record.get("read") == "translated":
            why += f" (the output translated from {translation['from']} to {translation['to']}: the better reading)"
        if self._exact and not caps and asks_a_question(question) and asks_correctness(criterion):
            own = await _own_answer(question, criterion)
            found = own_answer_found(own, question, output)
            if translation and translation["text"] and found is not None:
                found = max(found, own_answer_found(own, question, translation["text"]) or 0.0)
            record.update(judge_answer=own, judge_answer_found=None if found is None else round(found, 4))
            if found == 0:
                score *= OWN_ANSWER_SCALE
                why += f", × {OWN_ANSWER_SCALE}: the output has none of the judge's own answer {quoted(own)}"
        record.update(score=score, why=why, **caps)
        return record


RUBRIC_SYSTEM = "You check whether statements about a text are true. Answer yes or no."


async def _forbidden_decision(forbidden: str, question: str | None, output: str) -> dict[str, Any]:
    """A negative criterion ("Never asks for a password") decided by asking whether the text does the
    forbidden thing ("The text asks for a password."): the small judge reads negations poorly and says
    yes to most statements, but of two outputs it gives the one that does the thing the higher P(yes).
    Done when P(yes) ≥ 0.5; the score maps P(done) onto the rubric's scale with 0.5 at the 0.75 pass
    mark: 1 − P/2 up to 0.5, then 1.5·(1 − P)."""
    decision = await _judge().decide(JudgeRequest.yes_no(RUBRIC_SYSTEM, rubric_prompt(forbidden, question, output)))
    done = decision.probabilities["yes"]
    score = 1 - done / 2 if done <= 0.5 else 1.5 * (1 - done)
    return {"method": "judge", "judge": decision.to_detail(), "forbidden": forbidden,
            "forbidden_probability": round(done, 4), "score": score,
            "why": f"P(the text {forbidden.rstrip('.')}) = {done:.3f}"}


def rubric_prompt(criterion: str, question: str | None, output: str) -> str:
    """The judge's question for one criterion: is "The text <criterion>" a true statement about the
    output? Read as a statement about the text, the criterion ranked the tuning rows best of seven
    wordings (AUC 0.85 on the judged criteria, against 0.78 for "reply FAIL if it does not meet the
    requirement or states anything false", 0.73 with four worked examples; docs/judges.md)."""
    return ((f"Question: {question}\n" if question else "") + f"Text: {output}\n\nStatement: The text "
            f"{verb_phrase(criterion).rstrip('.')}.\n\nIs the statement true? Answer yes or no.")


def verb_phrase(criterion: str) -> str:
    """The criterion to follow a subject ("Answers politely" → "answers politely"): its first letter
    lower-cased, unless it opens with an acronym ("JSON …" stays)."""
    return criterion[0].lower() + criterion[1:] if criterion[:2] != criterion[:2].upper() else criterion


VALUE_CAP = 0.1  # the score of a judged criterion whose named value is missing, or that the output refuses
OWN_ANSWER_SCALE = 0.75  # a correctness criterion whose output has no word of the judge's own answer
OWN_ANSWER_LIFT = 0.5  # g-eval: a correctness score moves half-way to 1 when the output gives the judge's answer
_CORRECTNESS = re.compile(r"\b(?:correct|correctly|accurate|accurately)\b", re.IGNORECASE)
_CORRECTNESS_NAME = re.compile(r"^\W*(?:factual\s+)?(?:correctness|accuracy|factuality)\b", re.IGNORECASE)
_FUNCTION_WORDS = frozenset({"a", "an", "the", "is", "was", "of", "in", "by", "and"})


def asks_a_question(prompt: str | None) -> bool:
    """The case's prompt asks a question (holds a question mark): "Tell me about X" has no short answer
    for the judge to give and compare."""
    return bool(prompt) and "?" in prompt


def asks_correctness(criterion: str) -> bool:
    """The criterion asks for a correct answer ("Correctly answers the question", "Gives the correct result")."""
    return _CORRECTNESS.search(criterion) is not None


def names_correctness(criteria: str) -> bool:
    """G-Eval criteria named for correctness: they open with "Correctness", "Accuracy", "Factuality"
    or "Factual accuracy" ("Correctness: every factual statement is accurate")."""
    return _CORRECTNESS_NAME.search(criteria) is not None


def _words(text: str) -> list[str]:
    """Lower-case words without accents ("Córdoba" → "cordoba"), split at anything not a letter or digit,
    number words as digits ("four" → "4")."""
    words = re.findall(r"\w+", unicodedata.normalize("NFC", text.lower()))
    return [str(n) if (n := rubric_rules.spelled_number(w)) is not None else rubric_rules.unaccented(w) for w in words]


def own_answer_found(own: str, question: str, output: str) -> float | None:
    """Share of the judge's own answer's words found in the output, counting only the words that answer:
    not in the question, not a function word. None when no such word is left (nothing to compare)."""
    asked = set(_words(question))
    answering = [w for w in _words(own) if w not in asked and w not in _FUNCTION_WORDS]
    if not answering:
        return None
    given = set(_words(output))
    return sum(w in given for w in answering) / len(answering)


async def _own_answer(question: str, criterion: str) -> str:
    """The judge's own short answer to the question, with the criterion in view (greedy, cached)."""
    text, _, _ = await _judge().generate(JudgeRequest(
        (("system", "You answer questions correctly. Reply with a short phrase only."),
         ("user", f"Question: {question}\nWhat the answer must do: {criterion}\n\nGive the correct answer as the "
                  "shortest phrase.")), max_tokens=24))
    return text.strip()


def _exact_decision(criterion: str, output: str) -> dict[str, Any] | None:
    """A criterion decided by code (form or refusal), or None for the judge."""
    forbidden = rubric_rules.affirmed(criterion)
    form = rubric_rules.form_verdict(forbidden, output) if forbidden is not None else None
    if form is not None:  # "Does not use emojis": the form it forbids, checked, then turned round
        return {"method": "form", "score": float(not form.holds), "check": f"not: {form.check}",
                "measured": form.measured, "why": f"not: {form.check}: {form.measured}"}
    form = rubric_rules.form_verdict(criterion, output)
    if form is not None:
        return {"method": "form", "score": float(form.holds), "check": form.check, "measured": form.measured,
                "why": f"{form.check}: {form.measured}"}
    wanted = rubric_rules.refusal_kind(criterion)
    refused = rubric_rules.is_refusal(output)
    if wanted == "refuse":
        return {"method": "refusal", "score": float(refused), "refused": refused,
                "why": "the output refuses" if refused else "the output does not refuse"}
    if wanted == "comply" and refused:
        return {"method": "refusal", "score": 0.0, "refused": True, "why": "the output refuses"}
    return None


def _caps(criterion: str, output: str) -> dict[str, str]:
    """Why a judged criterion's score is capped: values it names that the output lacks, or a refusal
    of a positive request ("Gives …" answered with "I can't help with that")."""
    caps = {}
    missing = rubric_rules.missing_values(criterion, output)
    if missing:
        caps["missing_values"] = "the output lacks " + ", ".join(repr(v) for v in missing) + (
            "" if rubric_rules.units_available() else " (other units not compared: pip install pint)")
    if not rubric_rules.is_negative(criterion) and rubric_rules.is_refusal(output):
        caps["refused"] = "the output refuses"
    return caps


@register("factuality", family="judge", value="required", threshold=0.5, model="judge",
          example='{metric: factuality, value: "Paris is the capital of France."}')
class Factuality(JudgedMetric):
    """Compare the output with a reference answer: does it disagree with it, leave facts out (subset),
    or add facts (superset)? Categories as promptfoo's factuality: subset, superset, same, disagrees,
    differs-immaterially.

    Algorithm: the five-way question is asked as binary PASS/FAIL decisions, because the 1.5B local
    judge's five-way distribution was near-uniform (docs/judges.md). Decision 1 (always): is the
    answer consistent with the reference (no contradiction)? — the judge's P(PASS), calibrated:
    P(consistent) = σ(3.0·logit(P(PASS)) + 4.85), Platt scaling fitted on the tuning rows of
    tests/data/labelled/factuality.jsonl, where the raw probability ranked the rows well (AUC 0.98)
    but called most right answers with extra detail inconsistent (ECE 0.28); other judges' P(PASS)
    is used as it is (fit a pass mark with ``agentunit calibrate``). Only when
    ``config.scores`` penalises ``subset`` or ``superset``: decision 2, does it state every fact of
    the reference; decision 3, does it add facts. Category probabilities: disagrees = 1 − P(c);
    subset = P(c)(1 − P(complete)); superset = P(c)·P(complete)·P(extra); same = the rest.
    Score = Σ P(category) · score(category); by default only ``disagrees`` scores 0, so the score is
    P(consistent) from one call. Passes when ≥ threshold (default 0.5).
    """

    def setup(self) -> None:
        _require_text(self, "the reference answer")
        scores = dict(DEFAULT_FACT_SCORES)
        overrides = self.config.get("scores", {})
        if not isinstance(overrides, dict) or set(overrides) - set(scores):
            raise MetricConfigError(f"config.scores keys must be among {', '.join(scores)}")
        for name, score in overrides.items():
            if isinstance(score, bool) or not isinstance(score, (int, float)) or not 0 <= score <= 1:
                raise MetricConfigError(f"config.scores.{name} must be a number from 0 to 1, got {score!r}")
        scores.update({k: float(v) for k, v in overrides.items()})
        self._scores = scores

    async def _decide(self, instruction: str, reference: str, answer: str, question: str) -> Any:
        user = (f"Question: {question}\nExpert answer: {reference}\nSubmitted answer: {answer}\n\n{instruction}")
        return await pass_fail(FACT_SYSTEM, user)

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        question = question_of(case, outcome) or "(not given)"
        reference, answer = str(self.expected(case)), outcome.output
        decisions = {"consistent": await self._decide(FACT_CONSISTENT, reference, answer, question)}
        judged_consistent = decisions["consistent"].probabilities["PASS"]
        # fitted for the embedded judge; another judge's probabilities are taken as they come
        p_consistent = platt(judged_consistent, *FACT_CALIBRATION) if _judge().embedded else judged_consistent
        p_complete, p_extra = 1.0, 0.0
        if self._scores["subset"] < self._scores["same"]:
            decisions["complete"] = await self._decide(FACT_COMPLETE, reference, answer, question)
            p_complete = decisions["complete"].probabilities["PASS"]
        if self._scores["superset"] < self._scores["same"]:
            decisions["extra"] = await self._decide(FACT_EXTRA, reference, answer, question)
            p_extra = decisions["extra"].probabilities["FAIL"]  # FAIL = it adds facts
        categories = {"disagrees": 1 - p_consistent, "subset": p_consistent * (1 - p_complete),
                      "superset": p_consistent * p_complete * p_extra,
                      "same": p_consistent * p_complete * (1 - p_extra)}
        score = sum(p * self._scores[name] for name, p in categories.items())
        chosen = max(categories, key=categories.__getitem__)
        return self.result(score, reason=f"{chosen}: the answer against the reference {quoted(reference)} "
                                         f"(P(consistent) {p_consistent:.3f}, score {score:.3f})",
                           detail={"category": chosen, "categories": {k: round(v, 4) for k, v in categories.items()},
                                   "judge_p_consistent": round(judged_consistent, 4),
                                   "judge": {k: d.to_detail() for k, d in decisions.items()}})


FACT_CALIBRATION = (3.0, 4.85)  # Platt slope and intercept for the embedded judge (docs/judges.md)


def platt(probability: float, slope: float, intercept: float) -> float:
    """σ(slope · logit(p) + intercept): a judge probability mapped onto how often it is right."""
    clipped = min(max(probability, 1e-6), 1 - 1e-6)
    return 1.0 / (1.0 + math.exp(-(slope * math.log(clipped / (1 - clipped)) + intercept)))


# Static instructions first: the local runtime reuses the cached prefix across cases.
FACT_SYSTEM = "You check a submitted answer against an expert answer. Reply FAIL or PASS."
FACT_CONSISTENT = ("If the submitted answer contradicts the expert answer or states something false, reply FAIL. "
                   "Otherwise reply PASS.")
FACT_COMPLETE = "If the submitted answer states every fact in the expert answer, reply PASS. Otherwise reply FAIL."
FACT_EXTRA = ("If the submitted answer adds facts that are not in the expert answer, reply FAIL. "
              "Otherwise reply PASS.")

STEPS_SCHEMA = {"type": "object", "properties": {"steps": {"type": "array", "items": {"type": "string"},
                                                           "minItems": 2, "maxItems": 6}}, "required": ["steps"]}


@register("g-eval", family="judge", value="required", threshold=0.61, model="judge",
          example='{metric: g-eval, value: "Coherence: the answer is well structured and logical."}')
class GEval(JudgedMetric):
    """G-Eval: the criteria are turned into evaluation steps once (one generation, frozen in the
    judge cache so every case of every run uses the same steps), then each case gets one decision
    over the score tokens 1–``config.max_score`` (default 5).

    Score = the probability-weighted mean of the score tokens, normalised to 0..1:
    (Σ p_i·i − 1)/(max − 1). When the provider gives no logprobs the generated digit is used and the
    detail says so. Passes when ≥ threshold (default 0.61, the pass mark chosen on the tuning rows of
    tests/data/labelled/g_eval.jsonl: the judge gives middling outputs a 4 of 5 too often).

    Criteria named for correctness ("Correctness: …", "Accuracy: …", "Factuality: …") on a case whose
    prompt asks a question (holds a "?") are also compared with the judge's own short answer to that
    question, as llm-rubric does: when the response holds every answering word of it (words not in the
    question; case, accents and number words ignored) the score moves half-way to 1, when it holds
    none the score is multiplied by 0.75. The small judge marks a right but rude answer down on
    correctness ("It's Canberra, obviously." 0.26) and a polite wrong one up; asked the question, it
    answers "Canberra".
    """

    def setup(self) -> None:
        _require_text(self, "the criteria")
        max_score = self.config.get("max_score", 5)
        if isinstance(max_score, bool) or not isinstance(max_score, int) or not 2 <= max_score <= 9:
            raise MetricConfigError("config.max_score must be an integer from 2 to 9")
        self._max = max_score

    async def _steps(self, criteria: str) -> tuple[list[str], dict[str, Any]]:
        text, usage, cached = await _judge().generate(JudgeRequest(
            (("system", "You write short, concrete evaluation steps."),
             ("user", f"Criteria: {criteria}\n\nWrite 3 to 5 concrete steps an evaluator follows to check a "
                      "response against these criteria. Reply as JSON: {\"steps\": [...]}.")),
            max_tokens=300, json_schema=STEPS_SCHEMA))
        try:
            steps = [str(s) for s in json.loads(text)["steps"]][:6]
        except (ValueError, KeyError, TypeError):
            steps = [line.strip("-* 0123456789.").strip() for line in text.splitlines() if line.strip()][:6]
        return steps or [criteria], {"usage": usage, "cached": cached}

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        return await self.score_text(str(self.expected(case)), question_of(case, outcome), outcome.output)

    async def score_text(self, criteria: str, question: str | None, response: str) -> MetricResult:
        steps, step_info = await self._steps(criteria)
        options = tuple(str(i) for i in range(1, self._max + 1))
        user = (f"CRITERIA: {criteria}\n\nEVALUATION STEPS:\n" + "\n".join(f"{i}. {s}" for i, s in enumerate(steps, 1))
                + (f"\n\nINPUT:\n{question}" if question else "") + f"\n\nRESPONSE:\n{response}\n\n"
                f"Following the steps, score the RESPONSE from 1 (worst) to {self._max} (best). "
                f"Answer with a single digit.")
        decision = await _judge().decide(JudgeRequest(
            (("system", "You are a careful evaluator. Answer with one digit."), ("user", user)), options=options))
        mean = sum(int(o) * p for o, p in decision.probabilities.items())
        score = (mean - 1) / (self._max - 1)
        method = ("probability-weighted mean of score tokens" if decision.source == "logprobs"
                  else "generated score (the provider gave no token probabilities)")
        reason = f"score {mean:.2f}/{self._max} on {quoted(criteria)} ({method})"
        detail = {"steps": steps, "steps_generation": step_info, "mean_score": mean, "method": method,
                  "judge": decision.to_detail()}
        if asks_a_question(question) and names_correctness(criteria):
            own = await _own_answer(question, criteria)
            found = own_answer_found(own, question, response)
            detail.update(judge_answer=own, judge_answer_found=None if found is None else round(found, 4))
            if found == 1:
                score += OWN_ANSWER_LIFT * (1 - score)
                reason += f"; lifted half-way to 1: the response gives the judge's own answer {quoted(own)}"
            elif found == 0:
                score *= OWN_ANSWER_SCALE
                reason += f"; × {OWN_ANSWER_SCALE}: the response has none of the judge's own answer {quoted(own)}"
        return self.result(score, reason=reason, detail=detail)
