"""agent-llm-rubric: does the run follow the user's rules about its calls? Rules of known forms ("never
call X", "X before Y", …) are checked on the trace; when the order between tool and agent calls is
unknown, a rule whose truth depends on the order is checked over every interleaving; other rules go to
the judge."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from agentunit.judges.service import pass_fail
from agentunit.metrics.agentic.calls import _ORDER_NOTE, _call_groups, _call_line, _call_names
from agentunit.metrics.base import MetricResult
from agentunit.metrics.judged import JudgedMetric
from agentunit.metrics.registry import register

_NAME_PART = r"(?:the )?(?:tool |agent )?`?([\w-]+(?:\.[\w-]+)*)`?"
_CALLED = r"(?:is|was|has been|gets|got) (?:called|used|invoked)"
_DONT = r"(?:do not|don't|never|must not|mustn't|should not|shouldn't)"
_CALL = r"(?:call|use|invoke)"
# (kind, pattern, which groups name the rule's first and second call). "If X is called, do not call Y"
# is a conditional about the run ("once"/"when"/"whenever" read the same way): X and Y never both
# called; "after X is called, do not call Y" / "do not call Y after X" is about the order.
_RULES = (
    ("exclusive", re.compile(rf"^(?:if|when|whenever|once) {_NAME_PART} {_CALLED},? (?:then )?{_DONT} {_CALL} "
                             rf"{_NAME_PART}(?: again)?\.?$", re.IGNORECASE), (1, 2)),
    ("forbid_after", re.compile(rf"^after {_NAME_PART} {_CALLED},? (?:then )?{_DONT} {_CALL} {_NAME_PART}"
                                rf"(?: again)?\.?$", re.IGNORECASE), (1, 2)),
    ("forbid_after", re.compile(rf"^after (?:calling|using) {_NAME_PART},? (?:then )?{_DONT} {_CALL} {_NAME_PART}"
                                rf"(?: again)?\.?$", re.IGNORECASE), (1, 2)),
    ("forbid_after", re.compile(rf"^{_DONT} {_CALL} {_NAME_PART} (?:again )?after (?:calling |using )?{_NAME_PART}"
                                rf"(?: {_CALLED})?\.?$", re.IGNORECASE), (2, 1)),
    ("validate_before", re.compile(rf"^validate (?:the )?inputs? before {_NAME_PART}\.?$", re.IGNORECASE), (1,)),
    ("before", re.compile(rf"^(?:call |use )?{_NAME_PART} (?:must be called |must run |is called )?before "
                          rf"(?:calling |using )?{_NAME_PART}\.?$", re.IGNORECASE), (1, 2)),
    ("never", re.compile(rf"^(?:never|do not|don't) (?:call|use) {_NAME_PART}\.?$", re.IGNORECASE), (1,)),
    ("always", re.compile(rf"^(?:always|must) (?:call|use) {_NAME_PART}\.?$", re.IGNORECASE), (1,)),
)
# Kinds whose verdict depends on the order of the calls; the others depend only on which calls were made.
ORDER_DEPENDENT = frozenset({"forbid_after", "before", "validate_before"})


def _called(names: list[str], wanted: str) -> list[int]:
    """Positions of calls whose name is ``wanted`` (case-insensitive; ``_``/``-``/space equivalent)."""
    key = wanted.lower().replace("-", "_").replace(" ", "_")
    return [i for i, n in enumerate(names) if n.lower().replace("-", "_").replace(" ", "_") == key]


def _parse_rule(rule: str) -> tuple[str, tuple[str, ...]] | None:
    """(kind, the names the rule mentions, in the kind's order), or None for a rule of no known form."""
    text = " ".join(rule.split())
    for kind, pattern, groups in _RULES:
        match = pattern.match(text)
        if match:
            return kind, tuple(match[g] for g in groups)
    return None


def check_rule(rule: str, names: list[str]) -> dict[str, Any] | None:
    """Check a rule that the trace settles; None when the rule is not one of the known forms."""
    parsed = _parse_rule(rule)
    if parsed is None:
        return None
    kind, named = parsed
    if kind == "exclusive":  # two different calls, one of each name (X == Y: X called twice)
        first, second = _called(names, named[0]), _called(names, named[1])
        ok = not (first and second and len(set(first) | set(second)) >= 2)
        why = "not violated" if ok else (f"{named[0]} called more than once" if set(first) == set(second)
                                         else f"{named[0]} and {named[1]} both called")
    elif kind == "forbid_after":
        first, second = _called(names, named[0]), _called(names, named[1])
        ok = not (first and any(j > first[0] for j in second))
        why = f"{named[0]} then {named[1]} called" if not ok else "not violated"
    elif kind in ("before", "validate_before"):
        later = _called(names, named[0] if kind == "validate_before" else named[1])
        earlier = [i for i, n in enumerate(names) if "valid" in n.lower()] if kind == "validate_before" \
            else _called(names, named[0])
        ok = not later or bool(earlier and earlier[0] < later[0])
        why = "order respected" if ok else "the required earlier call did not come first"
    elif kind == "never":
        ok = not _called(names, named[0])
        why = "not called" if ok else f"{named[0]} was called"
    else:
        ok = bool(_called(names, named[0]))
        why = "called" if ok else f"{named[0]} was never called"
    return {"rule": rule, "method": "trace", "kind": kind, "passed": ok, "score": float(ok), "why": why}


def check_rule_unordered(rule: str, tools: list[str], agents: list[str]) -> dict[str, Any] | None:
    """``check_rule`` when the order between tool calls and agent calls is unknown (each list in order).

    A rule whose kind does not depend on the order ("if X is called, do not call Y", "never call X",
    "always call X": which calls were made decides) is checked on the calls as listed. A rule of an
    order-dependent kind (``ORDER_DEPENDENT``: "X before Y", "validate input before Z", "after X is
    called, do not call Y") is checked on every interleaving of the two lists that keeps each list's
    order; a verdict they all share is the rule's, otherwise the rule is "order unknown" (``passed``
    and ``score`` None). A shared verdict and its reason are those of the calls as listed. Only the
    calls the rule names matter, and whether the order-dependent forms hold in every interleaving
    depends only on the first call of each name and on whether some X can precede some Y: so each
    list is cut to the calls the rule names, a run of calls with the same role to its first, and the
    first three runs are kept — at most 20 interleavings (checked against all interleavings in
    tests/metrics/test_agent_rubric.py). None when the rule is not one of the known forms.
    """
    parsed = _parse_rule(rule)
    if parsed is None:
        return None
    kind, named = parsed
    settled = check_rule(rule, tools + agents)
    if kind not in ORDER_DEPENDENT:
        settled["why"] += " (the order of the calls does not matter to this rule)"
        return settled
    roles = _rule_roles(kind, named)
    verdicts = {check_rule(rule, merged)["passed"] for merged in _interleavings(
        _relevant_calls(tools, roles), _relevant_calls(agents, roles))}
    if len(verdicts) == 1:
        settled["why"] += " (whatever the order between tool and agent calls)"
        return settled
    return {"rule": rule, "method": "order unknown", "kind": kind, "passed": None, "score": None,
            "why": "the verdict depends on the order between tool calls and agent calls, which was not recorded"}


def _rule_roles(kind: str, named: tuple[str, ...]) -> Callable[[str], frozenset[str]]:
    """A function giving the roles (which of the rule's names) a call name plays."""

    def roles(name: str) -> frozenset[str]:
        found = {str(i) for i, wanted in enumerate(named) if _called([name], wanted)}
        if kind == "validate_before" and "valid" in name.lower():
            found.add("valid")
        return frozenset(found)

    return roles


def _relevant_calls(names: list[str], roles: Callable[[str], frozenset[str]], runs: int = 3) -> list[str]:
    """The calls that play a role in the rule, one per run of the same role, the first ``runs`` runs."""
    kept: list[str] = []
    last: frozenset[str] | None = None
    for name in names:
        role = roles(name)
        if not role or role == last:
            continue
        if len(kept) == runs:
            break
        kept.append(name)
        last = role
    return kept


def _interleavings(left: list[str], right: list[str]) -> list[list[str]]:
    """Every merge of two lists that keeps each list's order."""
    if not left or not right:
        return [left + right]
    return ([[left[0], *rest] for rest in _interleavings(left[1:], right)]
            + [[right[0], *rest] for rest in _interleavings(left, right[1:])])


@register("agent-llm-rubric", family="agentic", value="optional", needs=("output",),
          model="judge", example='{metric: agent-llm-rubric, value: ["If tool search is called, do not call '
                                  'agent writer", "validate input before tool pay"]}')
class AgentRubric(JudgedMetric):
    """The agent's run follows the user's rules (the value, else the case's ``rules``).

    Rules of known forms are checked on the trace's tool and agent calls, deterministically: "if X is
    called, do not call Y" (also "when"/"once"/"whenever"; a conditional about the run: X and Y are
    never both called, X twice when Y is X), "after X is called, do not call Y" / "do not call Y after
    X" (no Y after the first X), "X before Y" / "call X before calling Y", "validate input before Z" (a
    call whose name contains "valid" precedes the first Z), "never call X", "always call X". Other
    rules go to the judge with the calls, their arguments and the answer (one PASS/FAIL decision each,
    followed when P(PASS) ≥ 0.5). Score = mean over rules (a judged rule adds its P(PASS)); the case
    passes when every rule is followed, or, with a ``threshold``, when the score reaches it.

    When the order between tool calls and agent calls is unknown (separate arrays without
    ``trusys.events``, ``seq`` or ``timestamp``), the rules whose truth does not depend on the order
    ("if X is called, do not call Y", "never", "always") are checked as usual; an order-dependent one
    ("before", "after") is checked on every interleaving that keeps each array's order
    (``check_rule_unordered``): one verdict for all is kept, otherwise the rule is "order unknown" and
    left out of the score and the verdict; the judge sees the two lists apart and is told their
    interleaving was not recorded. Every rule order unknown → not measured.
    """

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        rules = self.value if self.value is not None else case.rules
        if isinstance(rules, str):
            rules = [rules]
        if not rules:
            return self.not_measured("no rules (give the metric a value or the case rules)")
        events = [e.payload for e in trace.events if e.type in ("tool_call", "agent_call")]
        names = [str(p.get("name")) for p in events]
        tools, agents = _call_names(trace)
        ordered = trace.order_known or not tools or not agents
        results = []
        for rule in rules:
            settled = check_rule(str(rule), names) if ordered else check_rule_unordered(str(rule), tools, agents)
            if settled is None:
                probability = await _judge_rule(str(rule), trace, outcome.output)
                settled = {"rule": rule, "method": "judge", "score": round(probability, 4),
                           "passed": probability >= 0.5}
            results.append(settled)
        counted = [r for r in results if r["score"] is not None]
        unknown = [r["rule"] for r in results if r["score"] is None]
        if not counted:
            return self.not_measured("order unknown for every rule: the reply's tool calls and agent calls came in "
                                     f"separate arrays ({trace.metadata.get('order_basis')})")
        score = sum(r["score"] for r in counted) / len(counted)
        broken = [r["rule"] for r in counted if not r["passed"]]
        passed = not broken if self.threshold is None else score >= self.threshold
        reason = f"{len(counted) - len(broken)}/{len(counted)} rules followed"
        if broken:
            reason += f"; broken: {'; '.join(map(str, broken))}"
        if unknown:
            reason += f"; order unknown: {'; '.join(map(str, unknown))}"
        detail: dict[str, Any] = {"rules": results}
        if not ordered:
            detail.update(order="unknown", order_basis=trace.metadata.get("order_basis"))
        return self.result(score, passed=passed, reason=reason, detail=detail)


async def _judge_rule(rule: str, trace, output: str | None) -> float:
    groups = _call_groups(trace)
    parts = [f"{heading}:\n" + ("\n".join(f"- {_call_line(e.payload, 200)}" for e in events) or "(no calls)")
             for heading, events in groups]
    if len(groups) > 1:
        parts.append(_ORDER_NOTE)
    decision = await pass_fail(
        "You check whether an agent followed a rule. Reply FAIL or PASS.",
        "\n".join(parts) + f"\nFinal answer: {output or ''}\n\nRule: {rule}\n\n"
        "If the agent followed the rule, reply PASS. If it broke the rule, reply FAIL.")
    return decision.probabilities["PASS"]
