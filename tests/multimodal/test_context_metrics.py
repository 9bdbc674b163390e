import base64

import pytest

from agentunit import check
from agentunit.multimodal import evidence

from ..judge_helpers import pass_with, scripted_judge
from .images import sign, solid
from .test_metrics import vision_server  # noqa: F401  (fixture)

OCR = pytest.mark.skipif(evidence.ocr_status() is not None, reason="OCR unavailable")


def uri(data: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(data).decode()


def reply(*context):
    return {"output": "It opens at any hour.", "trusys": {"context": list(context)}}


def judge_by_text(needle: str):
    """P(PASS) 0.9 when the last user message mentions ``needle``, else 0.1."""
    return scripted_judge(lambda request: pass_with(0.9 if needle in request.messages[-1][1] else 0.1))


@OCR
def test_relevancy_reads_an_image_context_item_by_ocr():
    with judge_by_text("OPEN 24 HOURS") as judge:
        result = check(reply({"image": uri(sign("OPEN 24 HOURS"))}, "Parking is free on Sundays."),
                       "multimodal-contextual-relevancy", query="When is the shop open?")
    assert result.value == pytest.approx(0.5) and result.detail["evidence"] == "judge+ocr+judge"
    image_item = result.detail["items"][0]
    assert image_item["evidence"] == "ocr+judge" and "OPEN 24 HOURS" in image_item["ocr_text"]
    assert len(judge.requests) == 2


def test_relevancy_of_an_image_without_text_or_vision_judge_is_not_measured():
    with judge_by_text("x") as judge:
        result = check(reply({"image": uri(solid((0, 160, 0)))}, "Some text."),
                       "multimodal-contextual-relevancy", query="What is in the photo?")
    assert result.value is None and "vision: true" in result.reason and "no text OCR can read" in result.reason
    assert judge.requests == []


def test_relevancy_without_any_context_is_not_measured():
    result = check("x", "multimodal-contextual-relevancy", query="q")
    assert result.value is None and "no context" in result.reason


def test_relevancy_sends_images_to_the_vision_judge(vision_server):  # noqa: F811
    image = solid((0, 160, 0))
    result = check(reply({"image": uri(image)}), "multimodal-contextual-relevancy", query="What is in the photo?")
    assert result.value == pytest.approx(0.8, abs=1e-6) and result.detail["evidence"] == "vision_judge"
    parts = vision_server.bodies[0]["messages"][1]["content"]
    assert "What is in the photo?" in parts[0]["text"] and parts[1]["image_url"]["url"] == uri(image)


@OCR
def test_recall_counts_what_the_image_text_supports():
    with judge_by_text("OPEN 24 HOURS"):
        result = check(reply({"image": uri(sign("OPEN 24 HOURS"))}), {
            "metric": "multimodal-contextual-recall", "value": "The shop is open 24 hours."})
    assert result.detail["evidence"] == "ocr+judge" and result.value > 0.5
    with judge_by_text("nothing matches"):
        low = check(reply({"image": uri(sign("OPEN 24 HOURS"))}), {
            "metric": "multimodal-contextual-recall", "value": "The shop sells bicycles."})
    assert low.value < 0.5


def test_recall_with_an_unreadable_image_is_not_measured():
    with judge_by_text("x"):
        result = check(reply({"image": uri(solid((0, 0, 0)))}, "The shop opens at nine."),
                       {"metric": "multimodal-contextual-recall", "value": "The shop opens at nine."})
    assert result.value is None and "clip_model" in result.reason


def test_recall_asks_the_vision_judge_with_images_and_text(vision_server):  # noqa: F811
    result = check(reply({"image": uri(solid((0, 0, 0)))}, "The shop opens at nine."),
                   {"metric": "multimodal-contextual-recall", "value": "The shop opens at nine. It sells tea."})
    assert result.detail["evidence"] == "vision_judge" and len(result.detail["claims"]) == 2
    text = vision_server.bodies[0]["messages"][1]["content"][0]["text"]
    assert "The shop opens at nine." in text and "Text context:" in text
