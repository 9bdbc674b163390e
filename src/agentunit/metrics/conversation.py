"""Conversational metrics over ``conversation: [{role, content}]`` (plus the target's reply to the
last user turn): knowledge-retention, role-adherence, conversation-relevancy, conversational-g-eval.

Each judged assistant turn gets a judge decision over a window of the turns before it (the shared
windowing helper), read from token probabilities — role-adherence asks about each sentence of the
turn instead; the detail lists every turn's probability. Without a conversation a metric is not
measured.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from agentunit.errors import MetricConfigError
from agentunit.judges.base import JudgeRequest
from agentunit.judges.content_free import calibrated, content_free_prior
from agentunit.judges.service import current_judge, pass_fail, yes_probability
from agentunit.metrics._rubric import is_refusal_text, split_criteria
from agentunit.metrics._sentences import split_sentences
from agentunit.metrics._values import switch
from agentunit.metrics.base import MetricResult
from agentunit.metrics.judged import GEval, JudgedMetric, quoted, verb_phrase
from agentunit.metrics.registry import register

DEFAULT_WINDOW = 6


def conversation_turns(case: Any, outcome: Any) -> list[tuple[str, str]]:
    """The case's turns, with the target's reply appended when the conversation ends on a user turn."""
    turns = [(str(t.get("role", "user")), str(t.get("content", ""))) for t in case.conversation or []
             if isinstance(t, dict)]
    if turns and turns[-1][0] == "user" and outcome.output:
        turns.append(("assistant", outcome.output))
    return turns


def window(turns: list[tuple[str, str]], index: int, size: int) -> str:
    """The ``size`` turns before ``index``, as a transcript."""
    start = max(0, index - size)
    return "\n".join(f"{role}: {content}" for role, content in turns[start:index]) or "(start of the conversation)"


def window_option(config: dict[str, Any]) -> int:
    """``config.window`` (default DEFAULT_WINDOW), validated: a positive integer."""
    size = config.get("window", DEFAULT_WINDOW)
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise MetricConfigError("config.window must be a positive integer")
    return size


def reply_context(turns: list[tuple[str, str]], index: int, size: int) -> str:
    """What the judge sees before the reply at ``index``: the window of turns before it."""
    return f"Conversation so far:\n{window(turns, index, size)}"


def last_message_line(turns: list[tuple[str, str]], index: int) -> str:
    """The user's last message before ``index``, as a line to add to the context."""
    last = next((content for role, content in reversed(turns[:index]) if role == "user"), "")
    return f"\nThe user's last message: {last}"


async def statement_probability(context: str, reply: str, statement: str) -> float:
    """P(yes) that ``statement`` about the assistant's ``reply`` is true, with ``context`` shown."""
    return await yes_probability(
        "You check whether statements about an assistant's reply in a conversation are true. Answer yes or no.",
        f"{context}\n\nAssistant reply: {reply}\n\nStatement: {statement}\nIs the statement true?")


class _TurnMetric(JudgedMetric):
    """One judge decision per judged assistant turn, aggregated over the turns.

    Which turns are judged (``config.turns``): ``reply`` (default) judges the target's reply alone when
    the case's conversation ends on a user turn, since the turns before it are the case's script,
    not what the system under test said this run; a conversation recorded in full (it ends on an
    assistant turn) has every assistant turn judged. ``all`` judges every assistant turn, the script's
    too. With ``statement`` set the judge is asked whether that statement about the reply is true
    (yes/no; the score is P(yes)), otherwise the PASS/FAIL ``instruction`` (the score is P(PASS)).
    """

    instruction: ClassVar[str] = ""
    statement: ClassVar[str | None] = None
    system: ClassVar[str] = "You evaluate one reply of an assistant in a conversation. Reply FAIL or PASS."
    # "min": one bad turn fails the conversation (forgetting, leaving the role); "mean": share of good turns
    aggregate: ClassVar[str] = "mean"
    show_last_message: ClassVar[bool] = False
    # False for metrics whose judge never sees the turns before the reply: config.window is then an error
    sees_window: ClassVar[bool] = True

    def setup(self) -> None:
        if not self.sees_window and "window" in self.config:
            raise MetricConfigError(f"config.window does not apply to {self.name}: it judges each sentence of the "
                                    "reply alone, without the turns before it (remove `window`)")
        self._window = window_option(self.config) if self.sees_window else None
        self._turns = self.config.get("turns", "reply")
        if self._turns not in ("reply", "all"):
            raise MetricConfigError(f"config.turns must be 'reply' or 'all', got {self._turns!r}")

    def context_for(self, case: Any, turns: list[tuple[str, str]], index: int) -> str:
        return reply_context(turns, index, self._window)

    def unmeasured(self, case: Any) -> str | None:
        return None

    def judged_turns(self, case: Any, turns: list[tuple[str, str]]) -> list[int]:
        """Indices of the assistant turns to judge: the target's appended reply alone under
        ``turns: reply``, else every assistant turn."""
        appended = len(turns) > len([t for t in case.conversation or [] if isinstance(t, dict)])
        if self._turns == "reply" and appended:
            return [len(turns) - 1]
        return [index for index, (role, _) in enumerate(turns) if role == "assistant"]

    async def judge_turn(self, case: Any, turns: list[tuple[str, str]], index: int) -> dict[str, Any]:
        """The judged turn's record: ``pass`` (its probability) and whatever else explains it."""
        return {"pass": await self._judge_turn(case, turns, index)}

    async def _judge_turn(self, case: Any, turns: list[tuple[str, str]], index: int) -> float:
        context = self.context_for(case, turns, index)
        if self.show_last_message:
            context += last_message_line(turns, index)
        reply = turns[index][1]
        if self.statement is None:
            decision = await pass_fail(self.system, f"{context}\n\nAssistant reply: {reply}\n\n{self.instruction}")
            return decision.probabilities["PASS"]
        return await statement_probability(context, reply, self.statement)

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:

        turns = conversation_turns(case, outcome)
        if not any(role == "assistant" for role, _ in turns):
            return self.not_measured("no conversation with assistant turns")
        reason = self.unmeasured(case)
        if reason:
            return self.not_measured(reason)
        scored = []
        for index in self.judged_turns(case, turns):
            record = await self.judge_turn(case, turns, index)
            scored.append({"turn": index, "reply": turns[index][1][:200], **record,
                           "pass": round(record["pass"], 4)})
        worst = min(scored, key=lambda t: t["pass"])
        value = worst["pass"] if self.aggregate == "min" else sum(t["pass"] for t in scored) / len(scored)
        if len(scored) == 1:
            reason = f"P(pass) {value:.3f} for the reply (turn {worst['turn']})"
        else:
            reason = (f"{self.aggregate} {value:.3f} over {len(scored)} assistant turns"
                      + (f"; weakest turn {worst['turn']}" if worst["pass"] < (self.threshold or 0.5) else ""))
        if worst.get("asks_again"):
            again = worst["asks_again"][0]
            reason += (f"; halved: it asks again for what the user said ({quoted(again['question'])}: the user said "
                       f"{quoted(again['user_said'])})")
        detail: dict[str, Any] = {"turns": scored, "judged": self._turns}
        if self.sees_window:
            detail["window"] = self._window
        return self.result(value, reason=reason, detail=detail)


@register("knowledge-retention", family="conversation", needs=("output",), threshold=0.55, model="judge",
          example="{metric: knowledge-retention}")
class KnowledgeRetention(_TurnMetric):
    """Facts the user gave earlier are not forgotten or contradicted: for each judged turn (the
    target's reply; every assistant turn of a recorded conversation or with ``config.turns: all``) the
    judge sees every earlier user turn and decides PASS/FAIL whether the reply stays consistent with
    what the user said. Then each question the reply asks (a sentence ending in "?") is answered by
    the judge from the user's messages before the one the reply answers (one short generation,
    "not said" when they do not say it): a question they answer asks again for what the user already
    said, and halves the turn's score (``config.check_questions: false`` turns this off). Score = the
    lowest turn (one forgetful turn fails the conversation; every turn's probability, question and
    answer is in the detail). Pass mark 0.55, chosen on the tune split of
    tests/data/labelled/conversation_dialogues.jsonl (docs/agentic.md); a yes/no statement ("the
    reply respects everything the user said earlier …") did no better there (AUC 0.813 against 0.807,
    best balanced accuracy 0.771 for both)."""

    aggregate = "min"
    instruction = ("If the reply contradicts, ignores or asks again for something the user already said, "
                   "reply FAIL. Otherwise reply PASS.")

    def setup(self) -> None:
        super().setup()
        self._check_questions = switch(self.config, "check_questions", True, self.name)

    def context_for(self, case, turns, index) -> str:
        said = [content for role, content in turns[:index] if role == "user"]
        return "What the user said earlier:\n" + (_bulleted(said) or "(nothing)")

    async def judge_turn(self, case, turns, index) -> dict[str, Any]:
        record = await super().judge_turn(case, turns, index)
        questions = [s for s in split_sentences(turns[index][1]) if s.rstrip().endswith("?")]
        if not self._check_questions or not questions:
            return record
        said = [content for role, content in turns[:index] if role == "user"][:-1]
        answered = []
        for question in questions:
            answer = await answer_from_user(said, question)
            if answer is not None:
                answered.append({"question": question[:200], "user_said": answer[:200]})
        record["questions"] = len(questions)
        if answered:
            record["pass"] *= ASKED_AGAIN_FACTOR
            record["asks_again"] = answered
        return record


def _bulleted(lines: list[str]) -> str:
    return "\n".join(f"- {line}" for line in lines)


ASKED_AGAIN_FACTOR = 0.5
NOT_SAID = "not said"


async def answer_from_user(said: list[str], question: str) -> str | None:
    """The judge's answer to ``question`` from the user's messages ``said`` (one short generation);
    None when it replies that the user did not say it, or when there is nothing to answer from."""
    if not said:
        return None
    text, _, _ = await current_judge().generate(JudgeRequest((
        ("system", "You answer a question using only what a user said. Reply with a few words."),
        ("user", f"What the user said:\n{_bulleted(said)}\n\nQuestion: {question}\n\n"
                 f"Answer it from what the user said. If the user did not say it, reply exactly: {NOT_SAID}")),
        max_tokens=30))
    answer = text.strip()
    if not answer or re.sub(r"[^a-z ]", "", answer.lower()).strip().startswith(NOT_SAID):
        return None
    return answer


@register("role-adherence", family="conversation", needs=("output",), threshold=0.5, model="judge",
          example='{metric: role-adherence}')
class RoleAdherence(_TurnMetric):
    """Assistant turns stay in the case's ``role`` (e.g. "a polite airline support agent"), judged
    sentence by sentence: for each sentence of the reply the judge answers two yes/no questions, one
    in each polarity — "is saying this part of the job of <role>?" and "does this sentence give
    medical, legal, financial or other advice that is not the job of <role>?". Each answer is
    calibrated against the same question asked about content-free sentences ("N/A", "OK.",
    "[sentence]"; ``judges.content_free``), which removes how readily the judge says yes for this
    role whatever the sentence: q = (p/c) / (p/c + (1−p)/(1−c)). The sentence scores
    (q_job + 1 − q_outside) / 2. A sentence that declines ("I can't advise on …", the ``is-refusal``
    pattern) is in role and not asked about, unless it goes on after a contrast ("…, but adults can
    take up to 1,200 mg a day"): that part is judged as a sentence. The reply scores its lowest
    sentence (one out-of-role sentence breaks the role; a reply that only declines scores 1); the
    conversation its lowest judged turn. Pass mark 0.5, where a sentence is judged exactly as a
    content-free one: on the tune split of tests/data/labelled/conversation_dialogues.jsonl
    (docs/agentic.md) the calibration took the balanced accuracy from 0.833 (raw probabilities, best
    mark 0.63) to 0.875 (with the mean of the three texts' priors; any one alone gives 0.54–0.60 at
    0.5), and one PASS/FAIL question on the whole reply separated nothing (AUC 0.62); judging what
    follows a decline took the tune rows with declining openers from 0.771 to 0.847 (test 0.754 →
    0.812). Roles whose job is medical, legal or financial advice are its weak spot: the small judge
    rates that advice as outside the role (in-role answers pass 0.50–0.58 on test). At most the first
    12 sentences of a reply are checked; six content-free questions per role (cached). No role → not
    measured."""

    aggregate = "min"
    sees_window = False

    def unmeasured(self, case) -> str | None:
        return None if case.role else "no role (set the case's role)"

    async def judge_turn(self, case, turns, index) -> dict[str, Any]:
        role = str(case.role)
        checked: list[dict[str, Any]] = []
        priors: tuple[float, float] | None = None
        for whole in split_sentences(turns[index][1]):
            sentence = whole
            if is_refusal_text(whole)[0]:
                sentence = advice_after_declining(whole)
                if sentence is None:
                    checked.append({"sentence": whole[:200], "declines": True})
                    continue
            if priors is None:
                priors = (await content_free_prior(lambda text: in_job_probability(role, text)),
                          await content_free_prior(lambda text: outside_advice_probability(role, text)))
            in_job, outside = await in_job_probability(role, sentence), await outside_advice_probability(role, sentence)
            score = (calibrated(in_job, priors[0]) + 1 - calibrated(outside, priors[1])) / 2
            checked.append({"sentence": whole[:200], **({"declines": True, "then": sentence[:200]} if sentence != whole
                                                       else {}),
                            "in_job": round(in_job, 4), "outside_advice": round(outside, 4), "score": round(score, 4)})
        scores = [item["score"] for item in checked if "score" in item]
        turn: dict[str, Any] = {"pass": min(scores) if scores else 1.0, "sentences": checked}
        if priors is not None:
            turn["content_free"] = {"in_job": round(priors[0], 4), "outside_advice": round(priors[1], 4)}
        return turn


_CONTRAST = re.compile(r"\b(?:but|however|though|although|that said|still)\b[,:]?\s+", re.I)


def advice_after_declining(sentence: str) -> str | None:
    """What a declining sentence goes on to say after a contrast ("I can't give medical advice, but adults
    can take up to 1,200 mg a day." → "adults can take …"), to be judged like any sentence; None when it
    only declines: no contrast, under three words after it, or that part declines too ("…, but I can't
    say more")."""
    found = _CONTRAST.search(sentence)
    if found is None:
        return None
    rest = sentence[found.end():].strip()
    if len(rest.split()) < 3 or is_refusal_text(rest)[0]:
        return None
    return rest


async def in_job_probability(role: str, sentence: str) -> float:
    """P(yes) that saying ``sentence`` is part of the job of ``role``."""
    return await yes_probability("You decide what an assistant's job covers. Answer yes or no.",
                                 f"The assistant is {role}.\nThe assistant says: {sentence}\n\n"
                                 f"Is saying this part of the job of {role}?")


async def outside_advice_probability(role: str, sentence: str) -> float:
    """P(yes) that ``sentence`` gives advice outside the job of ``role`` (the job question's other polarity)."""
    return await yes_probability(
        "You answer questions about what an assistant says. Answer yes or no.",
        f"The assistant is {role}.\nSentence: {sentence}\n\n"
        f"Does this sentence give medical, legal, financial or other advice that is not the job of {role}?")


@register("conversation-relevancy", family="conversation", needs=("output",), threshold=0.75, model="judge",
          example="{metric: conversation-relevancy, config: {window: 3}}")
class ConversationRelevancy(_TurnMetric):
    """The reply answers the user's last message: for each judged turn (the target's reply; every
    assistant turn of a recorded conversation or with ``config.turns: all``) the judge sees the window
    of turns before it (``config.window``, default 6) and the user's last message, and is asked
    whether the statement "the reply answers the user's last message" is true (yes/no); score = mean
    P(yes). Pass mark 0.75, chosen on the tune split of tests/data/labelled/conversation_dialogues.jsonl
    (docs/agentic.md): there the small judge's P(yes) was 0.66–0.93 for answers (median 0.87) and
    0.20–0.81 for replies to an earlier turn or off the topic (median 0.57)."""

    statement = "The reply answers the user's last message."
    show_last_message = True


@register("conversational-g-eval", family="conversation", value="required", needs=("output",), threshold=0.8,
          model="judge", example='{metric: conversational-g-eval, value: "The assistant resolves the issue politely"}')
class ConversationalGEval(GEval):
    """The conversation's last reply meets the criteria (the value).

    ``config.method: statements`` (default): the criteria are split as ``llm-rubric`` splits a rubric
    (at " and " before a verb, and at sentence ends), and each criterion becomes a statement about the
    reply — as written when it names its subject ("The assistant remembers …", "Coherence: …"),
    otherwise "The reply <criterion>." The judge sees the window of turns before the reply
    (``config.window``, default 6) and the user's last message, and answers yes/no per statement, as
    ``conversation-relevancy`` asks its statement. A criterion that asks the reply to keep what the
    user said ("consistent with everything the user said earlier", "remembers what the user told it";
    ``asks_for_retention``) is also decided as ``knowledge-retention`` decides the reply (its PASS/FAIL
    question over the user's earlier messages, its check for questions the user already answered):
    that score, carried onto this metric's scale so that its 0.55 pass mark meets this one
    (× threshold / 0.55, at most 1), replaces the statement's P(yes) when lower — the small judge
    says yes to "the reply is consistent with …" for most contradictions (tune 0.802 → 0.833; test
    0.663 → 0.728; ``config.check_retention: false`` turns it off). Score = the lowest criterion
    score; pass mark 0.8.

    ``config.method: g-eval``: G-Eval over the whole transcript — evaluation steps generated once from
    the criteria (frozen in the judge cache), one decision over the score digits, the
    probability-weighted mean normalised to 0..1; pass mark 0.75 (a score of 4 of 5) unless a
    threshold is given.

    Why statements by default: on the tune split of tests/data/labelled/conversation_dialogues.jsonl
    the embedded judge gave most replies a 4 of 5, good or bad (AUC 0.655), while the statements ranked
    them at AUC 0.847 (docs/agentic.md).
    """

    G_EVAL_PASS_MARK: ClassVar[float] = 0.75

    def __init__(self, value: Any = None, *, threshold: float | None = None, config: dict[str, Any] | None = None,
                 weight: float = 1.0, negate: bool = False, label: str | None = None):
        self._threshold_given = threshold is not None  # G-Eval keeps its own pass mark unless one is given
        super().__init__(value, threshold=threshold, config=config, weight=weight, negate=negate, label=label)

    def setup(self) -> None:
        super().setup()
        self._method = self.config.get("method", "statements")
        if self._method not in ("statements", "g-eval"):
            raise MetricConfigError(f"config.method must be 'statements' or 'g-eval', got {self._method!r}")
        self._window = window_option(self.config)
        if self._method == "g-eval" and not self._threshold_given:
            self.threshold = self.G_EVAL_PASS_MARK
        self._retention = KnowledgeRetention() if switch(self.config, "check_retention", True, self.name) else None

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        turns = conversation_turns(case, outcome)
        if not any(role == "assistant" for role, _ in turns):
            return self.not_measured("no conversation with assistant turns")
        criteria = str(self.expected(case))
        if self._method == "g-eval":
            transcript = "\n".join(f"{role}: {content}" for role, content in turns)
            return await self.score_text(criteria, None, transcript)
        index = max(i for i, (role, _) in enumerate(turns) if role == "assistant")
        context = reply_context(turns, index, self._window) + last_message_line(turns, index)
        decided = []
        for criterion in split_criteria(criteria):
            statement = criterion_statement(criterion)
            probability = await statement_probability(context, turns[index][1], statement)
            record: dict[str, Any] = {"criterion": criterion, "statement": statement,
                                      "statement_probability": round(probability, 4)}
            if self._retention is not None and asks_for_retention(criterion):
                retained = await self._retention.judge_turn(case, turns, index)  # a repeat is a cache hit
                # knowledge-retention's verdict carried onto this metric's scale: its pass mark meets ours
                carried = min(1.0, retained["pass"] * (self.threshold or 0.8) / self._retention.threshold)
                record.update(retention={k: v for k, v in retained.items() if k != "pass"},
                              retention_pass=round(retained["pass"], 4))
                if carried < probability:
                    probability, record["decided_by"] = carried, "knowledge-retention"
            record["score"] = round(probability, 4)
            decided.append((probability, record))
        lowest, worst = min(decided, key=lambda d: d[0])
        reason = (f"P(yes) {lowest:.3f} that {quoted(worst['statement'])}"
                  if worst.get("decided_by") is None else
                  f"{lowest:.3f} on {quoted(worst['criterion'])}: knowledge-retention's P(pass) "
                  f"{worst['retention_pass']:.3f} against its {self._retention.threshold} mark, on this metric's scale")
        if len(decided) > 1:
            reason += f" (the lowest of {len(decided)} criteria)"
        return self.result(lowest, reason=reason,
                           detail={"criteria": [record for _, record in decided], "turn": index,
                                   "window": self._window, "method": "statements"})


_RETENTION = re.compile(r"\b(?:consistent|contradict\w*|remembers?|forgets?|earlier|previous(?:ly)?|already|"
                        r"the user (?:said|told|gave|mentioned|stated))\b", re.IGNORECASE)


def asks_for_retention(criterion: str) -> bool:
    """The criterion asks the reply to keep what the user said before ("is consistent with everything the
    user said earlier", "remembers what the user told it", "respects the facts the user gave")."""
    return _RETENTION.search(criterion) is not None


_NAMES_ITS_SUBJECT = re.compile(r"(?:the|an?|its|this)\b|\S+:", re.IGNORECASE)


def criterion_statement(criterion: str) -> str:
    """The criterion as a statement about the reply: as written when it names its subject ("The
    assistant remembers …", "Coherence: …"), else "The reply <criterion>."."""
    text = criterion.strip().rstrip(".")
    if _NAMES_ITS_SUBJECT.match(text):
        return f"{text}."
    return f"The reply {verb_phrase(text)}."
