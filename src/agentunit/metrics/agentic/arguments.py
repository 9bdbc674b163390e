"""argument-correctness: are each tool call's arguments valid for the tool's schema and fit for the
request? The judge's verdict, checked against its own arguments for the call (numbers, dates, times,
codes, units compared as values) and against values the request never gave."""

from __future__ import annotations

import datetime
import json
import re
from typing import Any

from rapidfuzz import fuzz

import agentunit.metrics._rubric as rubric_rules
from agentunit.judges.base import JudgeRequest
from agentunit.judges.service import current_judge, pass_fail
from agentunit.metrics._cloze import NAME_SIMILARITY, content_words
from agentunit.metrics._grounding import unsupported_values
from agentunit.metrics.agentic.calls import _call_line, _call_result, _tool_specs
from agentunit.metrics.base import MetricResult
from agentunit.metrics.judged import JudgedMetric
from agentunit.metrics.overlap import answer_f1
from agentunit.metrics.registry import register


@register("argument-correctness", family="agentic", needs=("output",), threshold=0.55, model="judge",
          example="{metric: argument-correctness}")
class ArgumentCorrectness(JudgedMetric):
    """Are each tool call's arguments valid and appropriate for the request?

    Per call: when the tool's JSON Schema is known (the case's ``tools`` or ``config.tools``, OpenAI
    form), arguments that fail it score 0 with the schema errors listed and no judge call; otherwise
    the judge decides whether the arguments are appropriate for the user's request and the tool's
    description (P(PASS)), then fills the call itself (its own arguments, generated under the tool's
    schema) and the two are compared (``compared_with_own``: a number, true/false, time of day, date,
    e-mail address, unit of measure, list of strings or code that differs halves P, every argument
    equal lifts it half-way to 1; tune 0.739 → 0.924, docs/agentic.md). A number, date or time written
    inside a free-text argument that neither the request nor an earlier call gives halves P too
    (``values_in_text_unsupported``: "move our call to 2pm" for 4pm), and so does a short text argument
    that names something the request does not where the judge's own value names something it does
    (``values_not_asked_for``: "sell" for "Buy"). Own arguments that repeat an
    earlier call of the same tool are not compared (``repeats_earlier_call``: the judge copied what it saw).
    ``config.judge: false`` keeps only the schema check: a call whose arguments pass its schema
    scores 1, a call with no schema is not checked (listed in the detail, left out of the mean).
    Score = mean over checked calls. Pass mark 0.55, the best round mark on the tune split of
    tests/data/labelled/agent_arguments.jsonl before the comparison (0.739 there against 0.696 at 0.5),
    kept after it. No
    tool calls, or no call that could be checked (no schema and the judge off) → not measured.
    """

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        from agentunit.metrics.json_checks import compile_schema, schema_errors

        calls = [e.payload for e in trace.of_type("tool_call")] or outcome.tool_calls
        if not calls:
            return self.not_measured("no tool calls")
        specs = _tool_specs(self.config.get("tools", case.tools))
        use_judge = self.config.get("judge", True)
        question = outcome.query or case.query
        results, unchecked = [], []
        for position, call in enumerate(calls):
            name, arguments = str(call.get("name")), call.get("arguments")
            arguments = arguments if isinstance(arguments, dict) else {}
            spec = specs.get(name, {})
            if "parameters" in spec:
                errors = schema_errors(compile_schema(spec["parameters"], f"parameters of {name}"), arguments)
                if errors:
                    results.append({"tool": name, "score": 0.0, "schema_errors": errors})
                    continue
                if not use_judge:
                    results.append({"tool": name, "score": 1.0, "method": "schema"})
                    continue
            elif not use_judge:
                unchecked.append(name)
                continue
            score = await _judge_arguments(question, name, spec.get("description", ""), arguments)
            record: dict[str, Any] = {"tool": name, "judge_probability": round(score, 4)}
            unsupported = values_in_text_unsupported(arguments, question, calls[:position])
            if unsupported:
                record["unsupported_values"] = unsupported
            own = await _own_arguments(question, name, spec, calls[:position])
            if own is not None and not repeats_earlier_call(own, name, calls[:position]):
                if not_asked := values_not_asked_for(arguments, own, question):
                    record["not_in_request"] = not_asked
                score, agreement = compared_with_own(score, arguments, own, differs=bool(unsupported or not_asked))
                record.update(own_arguments=own, agreement=agreement)
            else:
                if own is None:
                    record["own_arguments"] = "the judge's own arguments were not a JSON object: not compared"
                else:
                    record["own_arguments"] = own
                    record["not_compared"] = "the judge's own arguments repeat an earlier call of this tool"
                if unsupported:
                    score *= OWN_MISMATCH_SCALE
            results.append({**record, "score": round(score, 4), "method": "judge"})
        detail = {"calls": results, "not_checked": unchecked}
        if not results:
            return self.not_measured(f"no schema to validate the arguments of {', '.join(sorted(set(unchecked)))} "
                                     "against and the judge is off (config.judge: false)")
        value = sum(r["score"] for r in results) / len(results)
        bad = [r["tool"] for r in results if r["score"] < 0.5]
        reason = f"mean argument fit {value:.3f} over {len(results)} calls"
        if bad:
            reason += f"; check {', '.join(bad)}"
        if unchecked:
            reason += f"; not checked (no schema, judge off): {', '.join(unchecked)}"
        return self.result(value, reason=reason, detail=detail)


OWN_AGREE_LIFT = 0.5       # every compared argument equal: support moves half-way to 1
OWN_MISMATCH_SCALE = 0.5   # a number or true/false that differs: support halved
NUMBER_TOLERANCE = 0.005   # numbers within 0.5 % of each other agree


EARLIER_RESULT_CHARS = 300  # of each earlier call's output shown to the judge filling a later call


def _earlier_calls(calls: list[dict[str, Any]]) -> str:
    """The calls made before this one, with their results: a later call's values often come from them
    (coordinates from a geocoder), which the request alone cannot tell the judge."""
    if not calls:
        return ""
    return "\nEarlier calls and their results:\n" + "\n".join(
        f"- {_call_line(call, EARLIER_RESULT_CHARS)} -> {_call_result(call, EARLIER_RESULT_CHARS)}" for call in calls)


async def _own_arguments(question: str, tool: str, spec: dict[str, Any], earlier: list[dict[str, Any]]
                         ) -> dict[str, Any] | None:
    """The judge's own arguments for the call, generated under the tool's JSON Schema, with the calls made
    before it and their results (None when the reply is not a JSON object)."""
    parameters, description = spec.get("parameters"), spec.get("description", "")
    text, _, _ = await current_judge().generate(JudgeRequest(
        (("system", "You call tools for a user. Reply with the tool's arguments as JSON only."),
         ("user", f"User request: {question}{_earlier_calls(earlier)}\nTool: {tool}"
          + (f" — {description}" if description else "")
          + (f"\nParameters (JSON Schema): {json.dumps(parameters, ensure_ascii=False)}" if parameters else "")
          + "\n\nWrite the arguments this call needs to serve the request, as a JSON object.")),
        max_tokens=120, json_schema=parameters or {"type": "object"}))
    try:
        own = json.loads(text)
    except ValueError:
        return None
    return own if isinstance(own, dict) else None


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str) and _NUMERIC.fullmatch(value):
        return float(value)
    return None


_NUMERIC = re.compile(r"\s*-?\d+(?:\.\d+)?\s*")


_CLOCK = re.compile(r"\s*(\d{1,2})(?::(\d{2}))?(?::\d{2})?\s*([ap])?\.?\s*(?:m\.?)?\s*", re.IGNORECASE)
_DATE_FORMATS = ("%d %B %Y", "%d %b %Y", "%B %d, %Y", "%B %d %Y", "%b %d, %Y", "%b %d %Y", "%Y/%m/%d")
_CODE_SEPARATORS = re.compile(r"[\s-]")
_EMAIL = re.compile(r"\s*[^@\s]+@[^@\s]+\.\w+\s*")


def _email(value: str) -> str | None:
    return value.strip().lower() if _EMAIL.fullmatch(value) else None


def _clock_minutes(value: str) -> int | None:
    """Minutes after midnight of a time of day written "19:45", "7:45pm" or "9 am" (a bare number is not a time)."""
    match = _CLOCK.fullmatch(value)
    if not match or (match.group(2) is None and match.group(3) is None):
        return None
    hour, minute, half = int(match.group(1)), int(match.group(2) or 0), (match.group(3) or "").lower()
    if half:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if half == "p" else 0)
    return hour * 60 + minute if hour < 24 and minute < 60 else None


def _calendar_date(value: str) -> datetime.date | None:
    """The date of "2026-05-09", "9 May 2026", "May 9, 2026" and similar English forms."""
    text = " ".join(value.split())
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        pass
    for form in _DATE_FORMATS:
        try:
            return datetime.datetime.strptime(text, form).date()
        except ValueError:
            continue
    return None


def _codes(own: str, given: str) -> tuple[str, str] | None:
    """Both values as codes (tickers, country, currency and flight codes: letters and digits, spaces,
    hyphens and case ignored) when they have the shape of one: at most 10 characters, the same length,
    and one written without lower-case letters. "LON" and "London" are not compared as codes."""
    pair = [_CODE_SEPARATORS.sub("", v).upper() for v in (own, given)]
    if not all(p.isalnum() and len(p) <= 10 for p in pair) or len(pair[0]) != len(pair[1]):
        return None
    return (pair[0], pair[1]) if any(v == v.upper() for v in (own, given)) else None


def _measurement_unit(value: str) -> Any:
    """The unit of measure a value names ("kg", "kilograms", "°F"); None for other values (a unit is a
    word or two: longer text is not handed to pint), and for every value when pint (the ``judge``
    extra) is not installed."""
    if len(value.split()) > 2 or not rubric_rules.units_available():
        return None
    return rubric_rules.unit_of(value.strip())


def _typed_agreement(own: str, given: str) -> tuple[float, str] | None:
    """Equal or not (1/0) when both strings are e-mail addresses, times of day, dates, units of measure
    or codes."""
    for read, kind in ((_email, "email"), (_clock_minutes, "time"), (_calendar_date, "date"),
                       (_measurement_unit, "unit")):
        mine, theirs = read(own), read(given)
        if mine is not None and theirs is not None:
            return float(mine == theirs), kind
    codes = _codes(own, given)
    return None if codes is None else (float(codes[0] == codes[1]), "code")


def _item_set(value: list[Any]) -> frozenset[str] | None:
    """A list of strings as the set of its items, case and surrounding space ignored; None otherwise."""
    if not value or not all(isinstance(item, str) for item in value):
        return None
    return frozenset(" ".join(item.split()).lower() for item in value)


def argument_agreement(own: Any, given: Any) -> tuple[float, str]:
    """(similarity, kind) of one argument against the judge's own value: numbers within 0.5 % or not (1/0),
    true/false equal or not; two e-mail addresses, times of day ("7:45pm" = "19:45"), dates ("9 May 2026"
    = "2026-05-09"), units of measure ("kg" = "kilograms") or codes ("UA 1234" = "UA1234", "de" = "DE")
    equal or not; two lists of strings equal as sets (case ignored) or not; anything else SQuAD token
    F1 of the texts (JSON for lists and objects)."""
    mine, theirs = _number(own), _number(given)
    if mine is not None and theirs is not None:  # within 0.5 %: a result rounded on the way still agrees
        return float(abs(mine - theirs) <= NUMBER_TOLERANCE * max(abs(mine), abs(theirs))), "number"
    if isinstance(own, bool) or isinstance(given, bool):  # JSON's true is not the number 1
        return float(isinstance(own, bool) and isinstance(given, bool) and own == given), "boolean"
    if isinstance(own, str) and isinstance(given, str):
        typed = _typed_agreement(own, given)
        if typed is not None:
            return typed
    if isinstance(own, list) and isinstance(given, list):
        mine, theirs = _item_set(own), _item_set(given)
        if mine is not None and theirs is not None:  # an item added or left out: "butter" nobody asked for
            return float(mine == theirs), "items"
    as_text = [v if isinstance(v, str) else json.dumps(v, ensure_ascii=False) for v in (own, given)]
    return answer_f1(*as_text), "text"


def repeats_earlier_call(own: dict[str, Any], tool: str, earlier: list[dict[str, Any]]) -> bool:
    """The judge's own arguments for a call are those of an earlier call of the same tool. Filling the
    second of two calls (the weather in London, then in Tokyo) with the first call's results in view,
    the small judge copies the first call's values; comparing the agent's call with that copy would
    halve a right call, and lift an agent that repeated the call by mistake."""
    return any(str(call.get("name")) == tool and call.get("arguments") == own for call in earlier)


def values_in_text_unsupported(arguments: dict[str, Any], request: str, earlier: list[dict[str, Any]]) -> list[str]:
    """Numbers, dates and times written inside free-text arguments (a message body, a reminder's text:
    strings of two or more words) that neither the request nor an earlier call gives ("move our call
    to 2pm" for "… to 4pm"), found as ``_grounding.unsupported_values`` finds them in a final answer;
    names are not counted (a greeting's or a subject line's capitalised words are not values). Without a
    request there is nothing to read them against: []."""
    if not request.strip():
        return []
    found = []
    for value in arguments.values():
        if isinstance(value, str) and len(value.split()) >= 2 and not _single_value(value):
            found += [v for v in unsupported_values(value, request, earlier) if any(c.isdigit() for c in v)]
    return found


SHORT_TEXT_WORDS = 3  # a text argument of up to this many words names one thing (a city, a team, a side)


def values_not_asked_for(arguments: dict[str, Any], own: dict[str, Any], request: str) -> list[str]:
    """Short text arguments that name something the request does not, where the judge's own value names
    something it does ("sell" for "Buy", "Los Angeles Clippers" for "the Lakers", "business" for
    "economy"): no content word of the value is a word of the request or written like one (rapidfuzz ratio
    ≥ 80: "Brasil", "Milano"), and the judge's own value has one. Values compared as typed values
    (units, codes, dates …), code-shaped values ("LON", "NYC") and free text are left out, and so is a
    value the judge inferred too (its own value not in the request: "Paris" for "France's capital")."""
    asked = content_words(request)
    found = []
    for key, value in arguments.items():
        mine = own.get(key)
        if not (isinstance(value, str) and isinstance(mine, str)) or len(value.split()) > SHORT_TEXT_WORDS \
                or _code_shaped(value) or argument_agreement(mine, value)[1] != "text":
            continue
        words = content_words(value)
        if words and content_words(mine) & asked and not any(
                fuzz.ratio(word, other) >= NAME_SIMILARITY for word in words for other in asked):
            found.append(value)
    return found


def _code_shaped(value: str) -> bool:
    """Up to four capitals and digits ("LON", "NYC", "UA1"): a code is not read for its words."""
    compact = value.replace(" ", "")
    return len(compact) <= 4 and compact == compact.upper()


def _single_value(text: str) -> bool:
    """A date, time of day or e-mail address alone ("5 May 2026", "9:15 am"): compared with the judge's own
    value, not read as free text (a date some days after the request's "today" is not in the request)."""
    return any(read(text) is not None for read in (_calendar_date, _clock_minutes, _email))


def compared_with_own(probability: float, arguments: dict[str, Any], own: dict[str, Any], *, differs: bool = False
                      ) -> tuple[float, dict[str, float]]:
    """The judge's P(arguments fit) after comparing them with its own arguments for the call.

    Over the arguments both give: a number, true/false or other typed value (time, date, e-mail
    address, unit, list of strings, code: ``argument_agreement``) that differs halves the support (the
    judge, asked to fill the call itself, disagrees on a value a PASS/FAIL question lets through), as
    does ``differs`` (a value found wrong otherwise); when every one is equal (F1 ≥ 0.99 for text) the
    support moves half-way to 1; otherwise it is kept. Text that differs does not lower it ("LON" and
    "London" share no word). Chosen on the tune rows of tests/data/labelled/agent_arguments.jsonl
    (docs/agentic.md)."""
    compared = {key: argument_agreement(own[key], value) for key, value in arguments.items() if key in own}
    agreement = {key: round(similarity, 4) for key, (similarity, _) in compared.items()}
    if differs or any(kind != "text" and similarity == 0 for similarity, kind in compared.values()):
        return probability * OWN_MISMATCH_SCALE, agreement
    if compared and all(similarity >= 0.99 for similarity, _ in compared.values()):
        return probability + OWN_AGREE_LIFT * (1 - probability), agreement
    return probability, agreement


async def _judge_arguments(question: str, tool: str, description: str, arguments: dict[str, Any]) -> float:
    decision = await pass_fail(
        "You check the arguments of an agent's tool call. Reply FAIL or PASS.",
        f"User request: {question}\nTool: {tool}" + (f" — {description}" if description else "")
        + f"\nArguments: {json.dumps(arguments, ensure_ascii=False)}\n\nIf these arguments fit the "
        "user's request, reply PASS. If a value is wrong, missing or made up, reply FAIL.")
    return decision.probabilities["PASS"]
