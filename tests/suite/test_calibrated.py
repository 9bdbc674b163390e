"""A calibration file applied to a suite: fitted thresholds for judge-backed entries without one."""

import json
import textwrap

import pytest

from agentunit import evaluate
from agentunit.datasets.base import DatasetCase
from agentunit.errors import SuiteError
from agentunit.judges.service import service_for
from agentunit.suite import load_suite
from tests.calibration.helpers import Scored  # noqa: F401  (registers the `scored` test metric)
from tests.judge_helpers import pass_with, scripted_judge

LOCAL = service_for({"provider": "local"}).provider.describe()  # describing does not load the model


def _calibration(path, judge=None, **thresholds):
    path.write_text(json.dumps({"version": 1, "judge": judge or LOCAL,
                                "metrics": {k.replace("_", "-"): {"threshold": t} for k, t in thresholds.items()}},
                               indent=2))
    return path


def _suite(tmp_path, text, name="s.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip())
    return path


SUITE = """
    calibration: fit/cal.json
    cases:
      - id: a
        output: "[p=0.6]"
        metrics:
          - scored
          - {metric: scored, label: tone}
          - {metric: scored, label: strict, threshold: 0.9}
          - {metric: contains, value: p}
    """


def test_entries_without_a_threshold_get_the_fitted_one_and_say_where_it_came_from(tmp_path):
    (tmp_path / "fit").mkdir()
    _calibration(tmp_path / "fit" / "cal.json", scored=0.7, tone=0.4, strict=0.1, contains=0.9)
    result = evaluate(_suite(tmp_path, SUITE))
    by_position = result.cases[0]["metrics"]
    assert [(m["threshold"], m["passed"]) for m in by_position] == [
        (0.7, False),  # `scored`: fitted 0.7 > 0.6
        (0.4, True),  # labelled `tone`: its own key
        (0.9, False),  # explicit threshold: kept
        (None, True),  # not judge-backed: untouched
    ]
    assert by_position[0]["detail"]["threshold_source"] == "fit/cal.json"
    assert by_position[1]["detail"]["threshold_source"] == "fit/cal.json"
    assert "threshold_source" not in by_position[2]["detail"]


def test_a_file_fitted_with_another_judge_is_not_applied_and_a_warning_says_so(tmp_path):
    (tmp_path / "fit").mkdir()
    _calibration(tmp_path / "fit" / "cal.json", {"provider": "openai", "model": "big-judge"}, scored=0.7)
    suite = load_suite(_suite(tmp_path, SUITE))
    suite.validate()
    (warning,) = suite.problems.warning_texts()
    assert "calibration fit/cal.json was not applied: it was fitted with openai big-judge, this run uses local" \
        in warning
    assert [m.threshold for m in next(iter(suite.iter_cases())).metrics][:2] == [0.5, 0.5]


def test_evaluate_takes_a_calibration_and_matches_it_against_a_judge_service(tmp_path):
    path = _suite(tmp_path, "cases: [{id: a, output: '[p=0.6]', metrics: [scored]}]\n")
    cal = _calibration(tmp_path / "c.json", {"provider": "scripted"}, scored=0.65)
    with scripted_judge(lambda request: pass_with(0.5)) as provider:
        result = evaluate(path, judge=provider.service, calibration=cal)
    (metric,) = result.cases[0]["metrics"]
    assert (metric["threshold"], metric["passed"], metric["detail"]["threshold_source"]) == (0.65, False, str(cal))
    with pytest.warns(UserWarning, match="was not applied"):
        result = evaluate(path, calibration=cal)  # the local judge: not the one it was fitted with
    assert result.cases[0]["metrics"][0]["threshold"] == 0.5
    with pytest.raises(TypeError, match="not DatasetCase objects"):
        evaluate(cases=[DatasetCase(id="a", output="[p=0.6]", metrics=["scored"])], calibration=cal)


def test_a_bad_calibration_file_is_a_suite_problem_with_its_line(tmp_path):
    (tmp_path / "fit").mkdir()
    cal = tmp_path / "fit" / "cal.json"
    cal.write_text('{"version": 1,\n "judge": {"provider": "local"},\n "metrics": {\n  "scored": {"threshold": 2}}}')
    path = _suite(tmp_path, SUITE)
    with pytest.raises(SuiteError) as info:
        load_suite(path).validate()
    assert [str(p) for p in info.value.problems] == [
        f"{path}:1: calibration: threshold of 'scored' must be a number from 0 to 1, got 2 ('fit/cal.json', line 4)"
        " — write it with `agentunit calibrate SUITE --write FILE`"]
    with pytest.raises(SuiteError) as info:  # named on the command line: the problem is in that file
        load_suite(path, calibration=cal).validate()
    assert str(info.value.problems[0]).startswith(f"{cal}:4: metrics.scored.threshold: threshold of 'scored'")
    cal.unlink()
    with pytest.raises(SuiteError) as info:
        load_suite(path).validate()
    assert "calibration: calibration file not found ('fit/cal.json', line 1)" in str(info.value.problems[0])
