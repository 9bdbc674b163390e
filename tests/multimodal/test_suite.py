import textwrap

import pytest

from agentunit.errors import SuiteError
from agentunit.suite.loader import load_suite


def _write(folder, name, text):
    path = folder / name
    path.write_text(textwrap.dedent(text))
    return path


def test_judge_vision_flag_is_a_boolean(tmp_path):
    suite = load_suite(_write(tmp_path, "s.yaml", """
        judge: {provider: openai, vision: true, base_url: "http://127.0.0.1:1/v1", model: vlm}
        cases: [{output: x}]
        """))
    assert suite.judge["vision"] is True
    with pytest.raises(SuiteError, match="vision"):
        load_suite(_write(tmp_path, "b.yaml", "judge: {provider: openai, vision: sure}\ncases: [{output: x}]\n")
                   ).validate()


def test_metrics_are_in_the_catalog_with_their_family():
    from agentunit.metrics.registry import lookup

    for name in ("image_caption_accuracy", "cross_modal_grounding", "image-caption-accuracy",
                 "cross-modal-grounding"):
        assert lookup(name)[0].family == "multimodal"


@pytest.mark.skipif(__import__("agentunit.multimodal.evidence", fromlist=["x"]).ocr_status() is not None,
                    reason="OCR unavailable")
def test_the_multimodal_example_runs_offline(tmp_path):
    import json

    from tests.conftest import run_cli

    out = tmp_path / "out.json"
    proc = run_cli("run", "examples/multimodal.yaml", "--db", str(tmp_path / "r.db"), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    cases = {c["id"]: {m["metric"]: m for m in c["metrics"]} for c in json.loads(out.read_text())["cases"]}
    assert cases["sign-right"]["cross_modal_grounding"]["detail"]["evidence"] == "facts+ocr"
    wrong = cases["sign-wrong"]["not-cross_modal_grounding"]
    assert wrong["passed"] and "CLOSED" in wrong["reason"]
    assert cases["colour-and-size"]["cross_modal_grounding"]["detail"]["evidence"] == "facts"
    # The image-answering target read the images it was given, and returned one.
    outputs = {c["id"]: c["output"] for c in json.loads(out.read_text())["cases"]}
    assert outputs["app-reads-the-sign"] == 'The sign says "OPEN 24 HOURS".'
    assert outputs["app-names-the-colour"] == "It is mostly red."
    helpful = cases["app-shows-a-chart"]["image-helpfulness"]
    assert helpful["detail"]["evidence"] == "ocr+judge" and "SALES" in helpful["detail"]["ocr_text"][0]


def test_labelled_sets_have_both_classes_and_enough_cases():
    import json
    from collections import Counter
    from pathlib import Path

    data = Path(__file__).resolve().parent.parent / "data" / "multimodal"
    for name in ("grounding.jsonl", "captions.jsonl"):
        labels = Counter(json.loads(line)["label"] for line in (data / name).read_text().splitlines())
        assert sum(labels.values()) >= 40 and labels[0] >= 20 and labels[1] >= 20, name
