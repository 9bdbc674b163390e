import base64

import pytest

from agentunit import check
from agentunit.multimodal import evidence

from ..judge_helpers import pass_with, scripted_judge
from .images import chart, sign, solid
from .test_metrics import vision_server  # noqa: F401  (fixture)

OCR = pytest.mark.skipif(evidence.ocr_status() is not None, reason="OCR unavailable")


def uri(data: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(data).decode()


@OCR
def test_helpfulness_sends_the_reply_images_text_to_the_judge():
    output = {"output": "Sales peaked in the third quarter.", "trusys": {"image": uri(chart())}}
    with scripted_judge(lambda r: pass_with(0.9 if "SALES" in r.messages[-1][1] else 0.1)) as judge:
        result = check(output, "image-helpfulness", query="How did sales go in 2024?")
    assert result.value == pytest.approx(0.9, abs=1e-3) and result.detail["evidence"] == "ocr+judge"
    assert len(judge.requests) == 1


def test_helpfulness_of_a_photo_without_text_is_not_measured():
    output = {"output": "Here is a cat.", "trusys": {"image": uri(solid((140, 80, 30)))}}
    result = check(output, "image-helpfulness", query="Show me a cat")
    assert result.value is None and "vision: true" in result.reason


def test_helpfulness_without_images_is_not_measured():
    assert "no image" in check("text only", "image-helpfulness").reason


def test_helpfulness_with_the_vision_judge(vision_server):  # noqa: F811
    output = {"output": "Here is a cat.", "trusys": {"image": uri(solid((140, 80, 30)))}}
    result = check(output, "image-helpfulness", query="Show me a cat")
    assert result.value == pytest.approx(0.8, abs=1e-6) and result.detail["evidence"] == "vision_judge"
    assert vision_server.bodies[0]["messages"][1]["content"][1]["type"] == "image_url"


@OCR
def test_coherence_offline_is_0_6_coverage_plus_0_4_coherence():
    image = sign("OPEN 24 HOURS")
    full = check('The sign says "OPEN 24 HOURS" on white.', "multimodal_coherence", image=image)
    assert full.value == pytest.approx(1.0) and full.detail["coverage"] == 1.0
    part = check('The sign says "OPEN" in red.', "multimodal_coherence", image=image)
    # coverage: "open" of {open, 24, hours}; coherence: OPEN found, red not
    assert part.detail["coverage"] == pytest.approx(1 / 3, abs=1e-4) and part.detail["coherence"] == 0.5
    assert part.value == pytest.approx(0.6 / 3 + 0.4 * 0.5)


@OCR
def test_coherence_needs_image_text_and_checkable_claims_offline():
    no_text = check("A green field in red.", "multimodal_coherence", image=solid((0, 160, 0)))
    assert no_text.value is None and "no text OCR can read" in no_text.reason
    no_claims = check("The shop never closes.", "multimodal_coherence", image=sign("OPEN 24 HOURS"))
    assert no_claims.value is None and "no claim" in no_claims.reason


def test_coherence_with_the_vision_judge_asks_twice(vision_server):  # noqa: F811
    result = check("A green field.", "multimodal_coherence", image=solid((0, 160, 0)))
    assert result.value == pytest.approx(0.8, abs=1e-6) and len(vision_server.bodies) == 2
    assert result.detail["evidence"] == "vision_judge"
