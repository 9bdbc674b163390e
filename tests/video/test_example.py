"""examples/video.yaml runs offline on the committed clips, with the expected verdicts."""

import json

import pytest

from agentunit.multimodal import evidence
from tests.conftest import JUDGED_RUN_S, run_cli

pytest.importorskip("cv2")


def test_video_example_runs_offline(tmp_path):
    if evidence.ocr_status() is not None:
        pytest.skip("OCR unavailable")
    out = tmp_path / "out.json"
    # embedded models on every case: the cases get the run's whole time, so a busy machine errs none
    proc = run_cli("run", "examples/video.yaml", "--db", str(tmp_path / "r.db"), "-o", str(out),
                   "--timeout", str(JUDGED_RUN_S), env={"HF_HUB_OFFLINE": "1"}, timeout=JUDGED_RUN_S)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(out.read_text())
    cases = {c["id"]: {m["metric"]: m for m in c["metrics"]} for c in report["cases"]}
    assert report["summary"]["errored"] == 0 and len(cases) == 5
    assert all(m["passed"] is True for case in cases.values() for m in case.values()), cases
    smooth, flicker = cases["smooth-pan"], cases["flickering-pan"]
    assert smooth["video-temporal-consistency"]["value"] > 0.9
    assert flicker["not-video-temporal-consistency"]["detail"]["aspects"]["flicker"] < 0.1
    assert smooth["video-visual-quality"]["detail"]["video"]["codec"] == "MPEG-4 Part 2"
    assert cases["title-card"]["text-to-video"]["detail"]["evidence"] == "facts+ocr"
