"""The console report and the JSON document of `agentunit calibrate`."""

import json

from agentunit.calibration.report import render_text, report_dict
from tests.calibration.helpers import run_calibration
from tests.calibration.test_run import _suite


def _run():
    extra = [{"id": "silent", "output": "no marker", "expected_pass": True, "metrics": ["scored"]}]
    return run_calibration(_suite(extra=extra))


def test_json_document_has_every_figure_and_is_json():
    document = json.loads(json.dumps(report_dict(_run(), {"path": "c.json", "metrics": ["scored"], "kept": [],
                                                               "not_fitted": []})))
    assert document["version"] == 1 and document["cases"] == {"total": 6, "run": 6, "not_run": 0,
                                                              "labels_without_judge_metric": []}
    assert document["ece_bins"] == 10 and document["written"]["path"] == "c.json"
    (metric,) = document["metrics"]
    assert set(metric) == {"metric", "n", "positives", "negatives", "thresholds", "confusion", "accuracy",
                           "pass_recall", "fail_recall", "balanced_accuracy", "kappa", "ece", "best_threshold",
                           "disagreements", "not_measured", "errors", "no_verdict", "warnings"}
    assert metric["accuracy"]["value"] == 0.6 and len(metric["accuracy"]["ci95"]) == 2
    assert metric["best_threshold"]["threshold"] == 0.575 and metric["best_threshold"]["p_pass_interval"] == [0.55, 0.6]
    assert metric["disagreements"][0] == {"case": "e", "value": 0.7, "p_pass": 0.7, "human_pass": False,
                                          "judge_pass": True, "threshold": 0.5, "status": "passed",
                                          "reason": "read p = 0.7", "error": None}
    assert metric["not_measured"][0]["case"] == "silent"


def test_text_report_shows_figures_disagreements_left_out_results_and_warnings():
    text = render_text(_run(), {"path": None, "metrics": [], "kept": [], "not_fitted": ["scored"]})
    assert "scored  n=5 (2 pass / 3 fail by the human verdicts)  threshold 0.5" in text
    assert "  accuracy           0.600  [0.231, 0.882]" in text
    assert "  Cohen's κ          0.286" in text
    assert "  ECE (10 bins)      0.390" in text
    assert "human pass → judge pass 2, judge fail 0 · human fail → judge pass 2, judge fail 1" in text
    assert "  best threshold     0.575 → balanced accuracy 0.833 on these labels" in text
    assert "  left out: not measured 1 · errors 0 · no verdict 0\n    silent: not measured: no [p=" in text
    assert "    e  value 0.700  human fail, judge pass  — read p = 0.7" in text
    assert "warning: small sample (2 pass / 3 fail" in text
    assert text.endswith("nothing written: no metric could be fitted (a fit needs measured human passes and fails)")


def test_text_report_escapes_control_characters_from_reasons():
    run = run_calibration(_suite(extra=[{"id": "x\x1b[2J", "output": "[p=0.99]", "expected_pass": False,
                                         "metrics": ["scored"]}]))
    text = render_text(run)
    assert "\x1b" not in text and "x\\x1b[2J" in text
