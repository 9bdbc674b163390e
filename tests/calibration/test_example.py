"""The README's `agentunit calibrate examples/calibrate.yaml`, end to end with the embedded judge."""

import json

import pytest

from agentunit.models.store import ModelNotInstalled, require
from tests.conftest import JUDGED_RUN_S, ROOT, run_cli


@pytest.mark.slow
def test_the_readme_calibrate_command_runs_end_to_end_with_the_embedded_judge(tmp_path):
    try:
        require("judge")
    except ModelNotInstalled as exc:
        pytest.fail(f"{exc} (make test does this before the tests)")
    assert "agentunit calibrate examples/calibrate.yaml" in (ROOT / "README.md").read_text()
    db, cal, out = str(tmp_path / "r.db"), tmp_path / "calibration.json", tmp_path / "out.json"

    # 20 cases, about 30 calls of the embedded judge: a minute or two on an idle 2-core machine, ten times that on
    # a busy one. Each case gets the run's whole time (`--timeout`): a case that a busy machine made slow would be
    # an error and a missing verdict (positives 9, negatives 9), which is not what this test is about.
    proc = run_cli("calibrate", "examples/calibrate.yaml", "--db", db, "--json", "--write", str(cal),
                   "--timeout", str(JUDGED_RUN_S), timeout=JUDGED_RUN_S)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    metrics = {m["metric"]: m for m in report["metrics"]}
    assert report["judge"]["provider"] == "local" and report["cases"]["run"] == 20
    assert (metrics["llm-rubric"]["positives"], metrics["llm-rubric"]["negatives"]) == (10, 10)
    assert (metrics["factuality"]["positives"], metrics["factuality"]["negatives"]) == (4, 4)
    for metric in metrics.values():  # every labelled result measured: the figures are all there
        assert metric["errors"] == [] and metric["not_measured"] == [], metric
        assert None not in (metric["balanced_accuracy"], metric["kappa"], metric["ece"], metric["best_threshold"])
    written = json.loads(cal.read_text())
    assert written["judge"] == report["judge"] and set(written["metrics"]) == {"llm-rubric", "factuality"}

    proc = run_cli("calibrate", "examples/calibrate.yaml", "--db", db, "--timeout", str(JUDGED_RUN_S), timeout=600)
    assert proc.returncode == 0 and "judge calls 0" in proc.stdout  # the database's judge cache

    run_cli("run", "examples/calibrate.yaml", "--db", db, "--calibration", str(cal), "-o", str(out), "-q",
            "--timeout", str(JUDGED_RUN_S), timeout=600)
    for case in json.loads(out.read_text())["cases"]:
        for metric in case["metrics"]:
            assert metric["threshold"] == written["metrics"][metric["metric"]]["threshold"]
            assert metric["detail"]["threshold_source"] == str(cal)
