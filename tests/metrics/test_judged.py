"""The shared JudgedMetric layer: ``config.explain`` — a rationale generated after the decision,
for every judge-backed metric (scripted judge)."""

import pytest

from agentunit import check
from agentunit.errors import MetricConfigError
from agentunit.judges.base import JudgeReply
from agentunit.judges.service import pass_fail
from agentunit.metrics.judged import JudgedMetric, LlmRubric
from tests.judge_helpers import pass_with, scripted_judge, verdict

RATIONALE = "The response names Lyon, not Paris. It also rambles."


def _respond(request):
    if not request.options:
        return JudgeReply(RATIONALE + "\nSecond line.")
    if request.options == ("PASS", "FAIL"):
        return pass_with(0.2 if "every fact" in request.messages[-1][1] else 0.7)
    return verdict("2", 0.8, "4")


def test_rationale_is_asked_after_the_decision_and_shown():
    with scripted_judge(_respond) as judge:
        result = check("Lyon", {"metric": "llm-rubric", "value": "names the capital", "config": {"explain": True}})
    decision, asked = judge.requests
    assert decision.options == ("PASS", "FAIL") and asked.options == ()
    # the rationale request is the decision's conversation, its answer, then the question why
    assert asked.messages[:len(decision.messages)] == decision.messages
    assert asked.messages[len(decision.messages)] == ("assistant", "PASS")
    assert "one sentence" in asked.messages[-1][1] and "PASS" in asked.messages[-1][1]
    assert result.detail["rationale"] == "The response names Lyon, not Paris."
    assert result.detail["rationale_of"] == {"option": "PASS", "P(PASS)": 0.7}
    assert result.reason == "P(pass) = 0.700 — why: The response names Lyon, not Paris."
    assert result.value == pytest.approx(0.7)  # the verdict is the decision's, untouched


def test_off_by_default_and_cached_like_every_call():
    with scripted_judge(_respond) as judge:
        plain = check("Lyon", {"metric": "llm-rubric", "value": "names the capital"})
        assert len(judge.requests) == 1 and "rationale" not in plain.detail and "why" not in plain.reason
        spec = {"metric": "llm-rubric", "value": "names the capital", "config": {"explain": True}}
        first = check("Lyon", spec)
        again = check("Lyon", spec)
    assert len(judge.requests) == 2  # the decision was cached; the rationale once, then cached
    assert first.detail["rationale_judge"]["cached"] is False and again.detail["rationale_judge"]["cached"] is True
    assert again.detail["rationale"] == first.detail["rationale"]


def test_several_decisions_explain_the_one_that_weighed_most_against_passing():
    with scripted_judge(_respond) as judge:
        result = check("Lyon", {"metric": "factuality", "value": "Paris",
                                "config": {"explain": True, "scores": {"subset": 0}}})
    asked = judge.requests[-1]
    assert len(judge.requests) == 3 and asked.options == ()
    explained = [r for r in judge.requests[:2] if r.messages == asked.messages[:len(r.messages)]]
    assert len(explained) == 1 and "every fact" in explained[0].messages[-1][1]  # P(PASS) 0.2, not the 0.7 one
    assert result.detail["rationale_of"]["P(PASS)"] == 0.2
    assert asked.messages[-2] == ("assistant", "FAIL")


def test_every_judge_metric_gets_it_including_subclasses_elsewhere_and_digit_scores():
    class Custom(JudgedMetric):
        async def evaluate_async(self, case, trace, outcome):
            decision = await pass_fail("Reply FAIL or PASS.", f"Response: {outcome.output}")
            return self.result(decision.probabilities["PASS"], reason="custom")

    with scripted_judge(_respond):
        custom = Custom(config={"explain": True}, threshold=0.5).evaluate(*_case("an answer"))
        g = check("an answer", {"metric": "g-eval", "value": "helpfulness", "config": {"explain": True}})
    assert custom.detail["rationale"] == "The response names Lyon, not Paris."
    assert custom.reason.startswith("custom — why")
    assert g.detail["rationale_of"] == {"option": "2"} and g.detail["rationale"]


def test_no_rationale_for_errors_or_metrics_without_a_decision():
    def garbage(request):
        return JudgeReply("maybe") if request.options else JudgeReply(RATIONALE)

    with scripted_judge(garbage) as judge:
        failed = check("x", {"metric": "llm-rubric", "value": "r", "config": {"explain": True}})
    assert failed.error and "rationale" not in failed.detail and all(r.options for r in judge.requests)
    class Undecided(JudgedMetric):
        async def evaluate_async(self, case, trace, outcome):
            return self.result(1.0, reason="no model needed")

    with scripted_judge(_respond) as judge:
        undecided = Undecided(config={"explain": True}).evaluate(*_case("Paris"))
    assert judge.requests == [] and undecided.detail["rationale"] is None
    assert undecided.detail["rationale_of"] == "no judge decision was made" and undecided.reason == "no model needed"


@pytest.mark.parametrize("bad", ["yes", 1, None])
def test_explain_must_be_a_boolean(bad):
    with pytest.raises(MetricConfigError, match=r"config\.explain must be true or false"):
        LlmRubric("a rubric", config={"explain": bad})


def _case(output):
    from agentunit.core.envelope import build_trace
    from agentunit.core.outcome import Outcome
    from agentunit.datasets.base import DatasetCase

    case = DatasetCase(id="c", query="q")
    outcome = Outcome(output=output)
    return case, build_trace(outcome, case.query), outcome
