import base64
import math

import pytest

from agentunit import check
from agentunit.errors import MetricConfigError
from agentunit.judges import service as judge_service
from agentunit.multimodal import evidence
from agentunit.multimodal.metrics import (
    CrossModalGroundingMetric,
    ImageCaptionAccuracyMetric,
    extract_claims,
    keyword_f1,
)
from tests.http_helpers import Reply

from .images import chart, sign, solid

OCR = pytest.mark.skipif(evidence.ocr_status() is not None, reason="OCR unavailable")


def grounding(output, image, **config):
    return check(output, {"metric": "cross_modal_grounding", "config": config} if config
                 else "cross_modal_grounding", image=image)


# -- image_caption_accuracy -------------------------------------------------------------------------

def test_keyword_f1_over_content_words():
    assert keyword_f1("A red bus on the street", "The red bus in a street") == (1.0, 1.0, 1.0)
    precision, recall, f1 = keyword_f1("a red car", "a red bus parked")
    assert (precision, recall) == (0.5, 1 / 3) and f1 == pytest.approx(0.4)
    assert keyword_f1("the of a", "red bus") == (0.0, 0.0, 0.0)


def test_caption_accuracy_is_0_7_semantic_plus_0_3_keywords():
    good = check("A red double-decker bus drives down a city street.",
                 {"metric": "image_caption_accuracy", "value": "A red double-decker bus on a city street."})
    d = good.detail
    assert good.value == pytest.approx(0.7 * d["semantic_similarity"] + 0.3 * d["keyword_f1"], abs=1e-3)
    assert d["semantic_similarity"] > 0.8 and good.passed
    assert d["missing_keywords"] == [] and "drives" in d["extra_keywords"]
    bad = check("Two cats asleep on a sofa.", {"metric": "image_caption_accuracy",
                                               "value": "A red double-decker bus on a city street."})
    assert bad.value < 0.35 and not bad.passed and bad.detail["keyword_f1"] == 0.0


def test_caption_accuracy_needs_an_expected_caption():
    result = check("a bus", "image_caption_accuracy")
    assert result.value is None and "expected_output" in result.reason
    assert ImageCaptionAccuracyMetric().name == "image_caption_accuracy"


# -- cross_modal_grounding: offline evidence --------------------------------------------------------

def test_claims_the_offline_evidence_can_settle():
    claims = extract_claims('The sign reads "Open 24 hours" in black on a grey board, 640x480, next to EXIT.')
    assert claims == [{"kind": "text", "value": "Open 24 hours"}, {"kind": "text", "value": "EXIT"},
                      {"kind": "size", "value": (640, 480)}, {"kind": "colour", "value": "black"},
                      {"kind": "colour", "value": "gray"}]
    assert extract_claims("A dog runs across a park.") == []


@OCR
def test_quoted_sign_text_is_checked_with_ocr():
    image = sign("OPEN 24 HOURS")
    right = grounding('The sign says "Open 24 hours".', image)
    assert right.value == 1.0 and right.passed and right.detail["evidence"] == "ocr"
    wrong = grounding('The sign says "CLOSED FOR LUNCH".', image)
    assert wrong.value == 0.0 and not wrong.passed and "CLOSED FOR LUNCH" in wrong.reason


@OCR
def test_a_chart_title_and_its_colours():
    result = grounding("The chart is titled SALES 2024 and has blue bars on white.", chart())
    assert result.value == 1.0 and result.detail["evidence"] == "facts+ocr"
    wrong = grounding("The chart is titled SALES 2024 and has green bars.", chart())
    assert wrong.value == pytest.approx(0.5)


def test_colour_and_size_claims_use_visual_facts():
    red = solid((220, 20, 20), (64, 48))
    assert grounding("A red square, 64x48 pixels.", red).value == 1.0
    result = grounding("A blue square.", red)
    assert result.value == 0.0 and result.detail["evidence"] == "facts"
    assert result.detail["claims"][0]["present"] == ["red"]
    assert grounding("A red square, 100x100.", red).value == 0.5


def test_scene_semantics_without_a_vision_judge_or_clip_is_not_measured():
    result = grounding("A dog plays fetch in a sunny park.", solid((0, 160, 0)))
    assert result.value is None and result.passed is None
    assert "vision: true" in result.reason and "clip_model" in result.reason


def test_no_image_is_not_measured():
    result = check("A red square.", "cross_modal_grounding")
    assert result.value is None and "no image" in result.reason


def test_ocr_unavailable_leaves_text_claims_out_and_says_so(monkeypatch):
    monkeypatch.setattr(evidence, "_ENGINE", None)
    monkeypatch.setattr(evidence, "_ENGINE_ERROR", "OCR is unavailable — pip install 'agentunit[multimodal]'")
    only_text = grounding('It says "HELLO".', sign("HELLO"))
    assert only_text.value is None and "pip install" in only_text.reason and "vision" in only_text.reason
    mixed = grounding('It says "HELLO" on a white sign.', sign("HELLO"))
    assert mixed.value == 1.0 and mixed.detail["evidence"] == "facts"
    assert "pip install" in mixed.detail["notes"][0]


def test_clip_config_errors(tmp_path):
    with pytest.raises(MetricConfigError, match="file not found"):
        CrossModalGroundingMetric(config={"clip_model": str(tmp_path / "clip.onnx")})
    with pytest.raises(MetricConfigError, match="clip_threshold"):
        CrossModalGroundingMetric(config={"clip_threshold": 2})
    with pytest.raises(MetricConfigError, match="clip_model must be a path"):
        CrossModalGroundingMetric(config={"clip_model": 3})


# -- cross_modal_grounding: the vision judge --------------------------------------------------------

def _judging_pass_with(p: float):
    """An OpenAI-compatible chat endpoint's handler answering PASS with probability ``p``."""
    top = [{"token": "PASS", "logprob": math.log(p)}, {"token": "FAIL", "logprob": math.log(1 - p)}]
    first = {"token": "PASS", "logprob": top[0]["logprob"], "top_logprobs": top}
    reply = Reply(200, {"choices": [{"message": {"role": "assistant", "content": "PASS"},
                                     "logprobs": {"content": [first]}, "finish_reason": "stop"}]})
    return lambda request: reply


@pytest.fixture
def vision_server(local_server):
    """The vision judge in use: answers PASS with probability 0.8; ``bodies`` are the requests."""
    server = local_server(_judging_pass_with(0.8), path="/v1")
    token = judge_service.use_judge({"provider": "openai", "vision": True, "model": "vlm", "base_url": server.url})
    yield server
    judge_service._current.reset(token)


def test_the_vision_judge_receives_the_image_as_an_image_url_part(vision_server):
    image = solid((0, 160, 0))
    result = grounding("A dog plays fetch in a sunny park.", image)
    assert result.value == pytest.approx(0.8, abs=1e-6) and result.detail["evidence"] == "vision_judge"
    body = vision_server.bodies[0]
    assert body["model"] == "vlm" and body["logprobs"] is True
    system, user = body["messages"]
    assert system["role"] == "system" and isinstance(system["content"], str)
    text, picture = user["content"]
    assert text["type"] == "text" and "A dog plays fetch" in text["text"]
    assert picture == {"type": "image_url",
                       "image_url": {"url": "data:image/png;base64," + base64.b64encode(image).decode()}}


def test_a_judge_not_marked_vision_is_not_sent_images(vision_server):
    token = judge_service.use_judge({"provider": "openai", "model": "vlm", "base_url": vision_server.url})
    try:
        result = grounding("A dog plays fetch in a sunny park.", solid((0, 160, 0)))
    finally:
        judge_service._current.reset(token)
    assert result.value is None and vision_server.bodies == []


def test_judge_cache_keys_tell_images_apart():
    from agentunit.judges.base import JudgeRequest

    service = judge_service.JudgeService({"provider": "openai", "vision": True})
    plain = JudgeRequest((("user", "q"),), options=("PASS", "FAIL"))
    one = JudgeRequest((("user", "q"),), options=("PASS", "FAIL"), images=("data:image/png;base64,AA==",))
    two = JudgeRequest((("user", "q"),), options=("PASS", "FAIL"), images=("data:image/png;base64,AB==",))
    assert len({service.key(plain), service.key(one), service.key(two)}) == 3
    assert plain.as_messages() == [{"role": "user", "content": "q"}]


@OCR
def test_ocr_spacing_does_not_count():
    # OCR merges "SALES 2024" into "SALES2024" when the gap is narrow; the claim must still be found.
    merged = sign("SALES2024 Q1 Q2")
    assert grounding("The sign reads SALES 2024.", merged).value == 1.0
    assert grounding("The sign reads SALES 2025.", merged).value == 0.0


def test_figures_are_claims_and_small_counts_are_not():
    claims = extract_claims('Revenue grew 21% to $4.2M; costs fell 3%. Opens 9am, 1,450 visitors, 3 dogs, "Q3 2024".')
    assert [c["value"] for c in claims if c["kind"] == "number"] == ["21", "4.2", "3", "9", "1450"]


@OCR
def test_figures_must_be_among_the_numbers_the_image_shows():
    receipt = sign("TOTAL 12.50  08:05")
    right = grounding("The total was 12.5, paid at 8:05.", receipt)
    assert right.value == 1.0 and {c["kind"] for c in right.detail["claims"]} == {"number"}
    wrong = grounding("The total was 13.50, paid at 8:05.", receipt)
    assert wrong.value == 0.5 and "13.50" in wrong.reason
    # A photo without text: a figure is not something OCR can settle.
    assert grounding("About 150 birds fly over 12 trees.", solid((0, 160, 0))).value is None


@OCR
def test_a_generated_image_is_held_against_its_prompt():
    drawn = "data:image/png;base64," + base64.b64encode(sign("OPEN 24 HOURS")).decode()
    right = check(drawn, "cross_modal_grounding", prompt='Draw a white sign that says "OPEN 24 HOURS".')
    assert right.value == 1.0 and right.detail["text_from"] == "prompt" and "generated image" in right.reason
    wrong = check(drawn, "cross_modal_grounding", prompt='Draw a sign that says "CLOSED".')
    assert wrong.value == 0.0 and "CLOSED" in wrong.reason
    assert check(drawn, "multimodal_coherence", prompt='A sign that says "OPEN 24 HOURS".').value == 1.0
    no_prompt = check(drawn, "cross_modal_grounding")
    assert no_prompt.value is None and "no prompt" in no_prompt.reason


def test_quoted_text_is_found_despite_misread_letters_but_not_with_other_figures():
    from agentunit.multimodal.metrics import _text_found

    assert _text_found("ORDER 58213", ["0RDER 58213 confirmed"]) == (True, 0.909)  # a misread letter
    assert _text_found("$25.00", ["Total $25.00"]) == (True, 1.0)
    assert _text_found("Sales 2,500", ["SALES 2500"]) == (True, 1.0)
    # a near-miss figure looks alike to a fuzzy match, but is another figure
    assert _text_found("$250.00", ["Total $25.00"]) == (False, 0.0)
    assert _text_found("ORDER 58231", ["ORDER 58213"]) == (False, 0.0)
    assert _text_found("TX-71120", ["Reference TX-77120"]) == (False, 0.0)
