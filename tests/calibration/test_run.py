"""Running the labelled cases and pairing each judge-backed result with its human verdict."""

import pytest

from agentunit.calibration import LabelRow, fitted_thresholds
from agentunit.calibration.fit import Calibration
from agentunit.errors import AgentUnitError, SuiteError
from agentunit.store.sqlite import Store
from agentunit.suite.loader import suite_from_dict
from tests.calibration.helpers import run_calibration
from tests.judge_helpers import pass_with, scripted_judge

# P(pass), human verdict: at the default 0.5 the judge passes c and e wrongly; 0.575 is the best mark.
FIVE = [("a", 0.9, True), ("b", 0.6, True), ("c", 0.55, False), ("d", 0.2, False), ("e", 0.7, False)]


def _suite(metric="scored", rows=FIVE, extra=None):
    cases = [{"id": i, "output": f"answer [p={p}]", "expected_pass": human, "metrics": [metric]}
             for i, p, human in rows]
    return suite_from_dict({"name": "cal", "cases": cases + (extra or [])})


def test_figures_for_one_metric_from_the_run():
    store = Store(":memory:")
    run = run_calibration(_suite(extra=[{"id": "unlabelled", "output": "[p=0.1]", "metrics": ["scored"]}]), store=store)
    assert (run.cases, run.labelled) == (6, 5)
    assert [c["id"] for c in store.iter_cases(run.run_id)] == ["a", "b", "c", "d", "e"]  # the unlabelled one: not run
    (item,) = run.agreements
    assert item.metric == "scored" and (item.n, item.positives, item.negatives) == (5, 2, 3)
    assert item.confusion.to_dict() == {"tp": 2, "fn": 0, "fp": 2, "tn": 1}
    assert item.accuracy == pytest.approx(0.6) and item.balanced_accuracy == pytest.approx(2 / 3)
    assert item.kappa == pytest.approx(0.16 / 0.56)
    assert item.ece == pytest.approx((0.1 + 0.4 + 0.55 + 0.2 + 0.7) / 5)
    assert item.best_metric_threshold == pytest.approx(0.575) and item.best.balanced_accuracy == pytest.approx(5 / 6)
    assert item.thresholds == [{"threshold": 0.5, "source": "suite", "results": 5}]
    # worst first: e (P 0.7, human fail) before c (P 0.55)
    assert [(p.case_id, p.value, p.human, p.passed) for p in item.disagreements] == [
        ("e", 0.7, False, True), ("c", 0.55, False, True)]
    assert item.disagreements[0].reason == "read p = 0.7"
    assert any("small sample" in w for w in item.warnings)


def test_unmeasured_and_errored_results_are_listed_not_dropped():
    extra = [{"id": "silent", "output": "no marker", "expected_pass": True, "metrics": ["scored"]},
             {"id": "broken", "output": "boom [p=0.9]", "expected_pass": False, "metrics": ["scored"]}]
    (item,) = run_calibration(_suite(extra=extra)).agreements
    assert item.n == 5  # the figures use the five results with a verdict
    assert [p.case_id for p in item.not_measured] == ["silent"]
    assert "no [p=" in item.not_measured[0].reason
    assert [p.case_id for p in item.errors] == ["broken"] and "exploded" in item.errors[0].error
    assert any("2 labelled result(s) gave no verdict" in w for w in item.warnings)


def test_only_judge_backed_metrics_are_paired_and_entry_verdicts_override_the_case():
    suite = suite_from_dict({"name": "cal", "cases": [
        {"id": "x", "output": "ok [p=0.8]", "expected_pass": True,
         "metrics": [{"metric": "contains", "value": "ok"}, "scored",
                     {"metric": "scored", "label": "strict", "expected_pass": False}]},
    ]})
    run = run_calibration(suite)
    by_name = {a.metric: a for a in run.agreements}
    assert set(by_name) == {"scored", "strict"}  # `contains` is not judge-backed
    assert by_name["scored"].positives == 1 and by_name["strict"].negatives == 1


def test_labels_file_rows_override_the_suite_and_unknown_ids_are_errors():
    rows = [LabelRow("c", None, True, "labels.jsonl", 1)]
    (item,) = run_calibration(_suite(), rows=rows).agreements
    assert (item.positives, item.negatives) == (3, 2)
    with pytest.raises(SuiteError) as err:
        run_calibration(_suite(), rows=[LabelRow("zz", None, True, "labels.jsonl", 4)])
    assert str(err.value.problems[0]).startswith("labels.jsonl:4: id: no case with id 'zz'")


def test_metric_filter_and_nothing_labelled_are_usage_errors():
    suite = _suite(extra=[{"id": "f", "output": "[p=0.3]", "metrics": [
        {"metric": "scored", "label": "tone", "expected_pass": False}]}])
    run = run_calibration(suite, metrics=["tone"])
    assert [a.metric for a in run.agreements] == ["tone"] and run.labelled == 1
    with pytest.raises(AgentUnitError, match="--metric 'nope'"):
        run_calibration(_suite(), metrics=["nope"])
    with pytest.raises(AgentUnitError, match="no human verdicts"):
        run_calibration(suite_from_dict({"name": "n", "cases": [{"id": "a", "output": "x", "metrics": ["scored"]}]}))


@pytest.mark.parametrize("metric", ["scored", "scored-risk", "not-scored-risk", "not-scored"])
def test_the_fitted_threshold_reproduces_the_best_balanced_accuracy_when_applied(metric):
    """Fit on the labels, apply the file, run again: the verdicts reach the balanced accuracy the fit
    promised, for higher- and lower-is-better metrics, negated or not."""
    rows = FIVE if not metric.startswith("not-") else [(i, p, not h) for i, p, h in FIVE]
    first = run_calibration(_suite(metric, rows))
    (item,) = first.agreements
    assert item.best.balanced_accuracy == pytest.approx(5 / 6)
    fitted = fitted_thresholds(first.agreements)
    suite = _suite(metric, rows)
    suite.use_calibration(Calibration(first.judge, fitted), "fit.json")
    (again,) = run_calibration(suite).agreements
    assert again.balanced_accuracy == pytest.approx(5 / 6)
    assert again.thresholds == [{"threshold": pytest.approx(fitted[metric].threshold), "source": "fit.json",
                                 "results": 5}]


def test_lower_is_better_values_are_read_as_one_minus_p():
    (item,) = run_calibration(_suite("scored-risk")).agreements
    assert item.ece == pytest.approx((0.1 + 0.4 + 0.55 + 0.2 + 0.7) / 5)  # the same P(pass) as `scored`
    assert item.best_metric_threshold == pytest.approx(1 - 0.575)  # value ≤ 0.425 passes


def test_different_metrics_under_one_label_are_reported_but_not_fitted():
    cases = [{"id": i, "output": f"[p={p}]", "expected_pass": h,
              "metrics": [{"metric": "scored" if n % 2 else "scored-risk", "label": "mixed"}]}
             for n, (i, p, h) in enumerate(FIVE)]
    (item,) = run_calibration(suite_from_dict({"name": "m", "cases": cases})).agreements
    assert item.n == 5 and item.best is not None and not item.fittable
    assert fitted_thresholds([item]) == {}
    assert any("groups different metrics" in w for w in item.warnings)


def test_a_rerun_on_the_same_database_makes_no_judge_calls(tmp_path):
    suite_data = {"name": "r", "cases": [
        {"id": f"c{i}", "prompt": "Where is my order?", "output": f"It ships on day {i}.",
         "expected_pass": i % 2 == 0, "metrics": [{"metric": "llm-rubric", "value": "Gives a date"}]}
        for i in range(4)]}
    db = tmp_path / "r.db"
    with scripted_judge(lambda request: pass_with(0.8)) as provider:
        first = run_calibration(suite_from_dict(suite_data), store=Store(db), judge=provider.service)
        calls = len(provider.requests)
        assert calls >= 4 and first.judge_usage["calls"] == calls
    with scripted_judge(lambda request: pass_with(0.8)) as provider:  # a fresh service: only the database
        again = run_calibration(suite_from_dict(suite_data), store=Store(db), judge=provider.service)
        assert provider.requests == []
    assert again.agreements[0].n == 4 and again.agreements[0].confusion == first.agreements[0].confusion
