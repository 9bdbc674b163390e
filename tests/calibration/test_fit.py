"""The calibration file: written, read back, checked, merged; thresholds from the agreement figures."""

import json

import pytest

from agentunit.calibration.fit import (
    Calibration,
    CalibrationFileError,
    FittedThreshold,
    fitted_thresholds,
    merged,
    read_calibration,
    same_judge,
    write_calibration,
)
from tests.calibration.helpers import run_calibration
from tests.calibration.test_run import FIVE, _suite

JUDGE = {"provider": "local", "model": "m1"}


def test_round_trip_keeps_thresholds_and_figures(tmp_path):
    calibration = Calibration(JUDGE, {"llm-rubric": FittedThreshold(0.62, 40, 0.9, 0.12, "2026-12-01T00:00:00+00:00",
                                                                     {"positives": 20})})
    path = tmp_path / "c.json"
    write_calibration(path, calibration)
    data = json.loads(path.read_text())
    assert data == {"version": 1, "judge": JUDGE, "metrics": {"llm-rubric": {
        "threshold": 0.62, "n": 40, "balanced_accuracy": 0.9, "ece": 0.12, "fitted_at": "2026-12-01T00:00:00+00:00",
        "positives": 20}}}
    assert read_calibration(path) == calibration


@pytest.mark.parametrize(("text", "message", "line"), [
    ("[]", "a calibration file must be a JSON object", 1),
    ('{"version": 2}', "calibration file version must be 1, got 2", 1),
    ('{"version": 1,\n"judge": "local"}', "judge must be an object with the provider", 2),
    ('{"version": 1, "judge": {"provider": "local"},\n"metrics": []}', "metrics must be an object", 2),
    ('{"version": 1, "judge": {"provider": "local"}, "metrics": {\n"x": {"threshold": "high"}}}',
     "threshold of 'x' must be a number from 0 to 1, got 'high'", 2),
    ('{"version": 1, "judge": {"provider": "local"}, "metrics": {\n"x": {"threshold": NaN}}}',
     "threshold of 'x' must be a number from 0 to 1, got nan", 2),
    ('{"version": 1,\n\n"judge": }', "calibration file is not valid JSON: Expecting value", 3),
])
def test_bad_files_are_refused_with_the_line(tmp_path, text, message, line):
    path = tmp_path / "c.json"
    path.write_text(text)
    with pytest.raises(CalibrationFileError) as info:
        read_calibration(path)
    assert str(info.value).startswith(message) and info.value.line == line


def test_same_judge_means_same_provider_and_model():
    assert same_judge(JUDGE, {**JUDGE, "base_url": "elsewhere"})
    assert not same_judge(JUDGE, {"provider": "local", "model": "m2"})
    assert not same_judge(JUDGE, {"provider": "openai", "model": "m1"})


def test_merge_keeps_other_metrics_only_for_the_same_judge():
    old = Calibration(JUDGE, {"a": FittedThreshold(0.3), "b": FittedThreshold(0.4)})
    new = {"b": FittedThreshold(0.6)}
    calibration, kept = merged(old, JUDGE, new)
    assert kept == ["a"] and {k: v.threshold for k, v in calibration.metrics.items()} == {"a": 0.3, "b": 0.6}
    calibration, kept = merged(old, {"provider": "local", "model": "m2"}, new)
    assert kept == [] and set(calibration.metrics) == {"b"} and calibration.judge["model"] == "m2"


def test_fitted_thresholds_carry_the_figures_they_were_fitted_with():
    agreements = run_calibration(_suite(rows=FIVE)).agreements
    (fitted,) = fitted_thresholds(agreements, fitted_at="T").values()
    assert fitted.threshold == pytest.approx(0.575) and fitted.n == 5
    assert fitted.balanced_accuracy == pytest.approx(5 / 6) and fitted.ece == pytest.approx(0.39)
    assert fitted.fitted_at == "T" and fitted.extra["positives"] == 2 and fitted.extra["negatives"] == 3
    only_passes = run_calibration(_suite(rows=[("a", 0.9, True), ("b", 0.4, True)])).agreements
    assert fitted_thresholds(only_passes) == {}  # one class: nothing to fit
