"""The judged video metrics: not measured without evidence (with the fix named), config errors naming the
field, the vision-judge path (frames in order as image_url parts), CLIP with a CLIP-shaped ONNX model,
and the offline path (OCR text and visual facts of the frames)."""

import base64
import contextlib
import math

import pytest

from agentunit import check
from agentunit.errors import MetricConfigError
from agentunit.judges import service as judge_service
from agentunit.judges.base import JudgeReply
from agentunit.multimodal import evidence
from agentunit.video import metrics as video_metrics
from agentunit.video.metrics import (
    TextToVideoMetric,
    VideoGEvalMetric,
    VideoResponseRelevanceMetric,
    VideoTemporalConsistencyMetric,
    VideoVisualQualityMetric,
)
from tests.judge_helpers import ScriptedProvider
from tests.multimodal.test_clip import clip_model  # noqa: F401  (a fixture)
from tests.multimodal.test_metrics import vision_server  # noqa: F401  (a fixture)

from .clips import solid_clip, text_clip

pytest.importorskip("cv2")
OCR = pytest.mark.skipif(evidence.ocr_status() is not None, reason="OCR unavailable")
ALL = ("video-visual-quality", "video-temporal-consistency", "text-to-video", "video-factual-consistency",
       "video_response_relevance")


def b64(data: bytes) -> dict:
    return {"base64": base64.b64encode(data).decode(), "mime": "video/x-msvideo"}


@contextlib.contextmanager
def vision_scripted(respond):
    """A scripted judge marked as a vision model (so frames are sent to it)."""
    service = judge_service.JudgeService({"provider": "openai", "vision": True, "model": "vlm"})
    provider = ScriptedProvider(respond)
    service.provider = provider
    token = judge_service.set_current_judge(service)
    try:
        yield provider
    finally:
        judge_service._current.reset(token)


@pytest.mark.parametrize("name", ALL)
def test_no_video_is_not_measured(name):
    result = check("a title card", name, query="make a title card")
    assert result.value is None and result.status == "not_measured" and "no video" in result.reason


def test_config_errors_name_the_field(tmp_path):
    with pytest.raises(MetricConfigError, match=r"config\.video must be auto, reply or input"):
        VideoVisualQualityMetric(config={"video": "output"})
    with pytest.raises(MetricConfigError, match=r"config\.frames must be an integer from 1 to 64"):
        VideoVisualQualityMetric(config={"frames": 0})
    with pytest.raises(MetricConfigError, match=r"config\.max_frames"):
        VideoTemporalConsistencyMetric(config={"max_frames": "many"})
    with pytest.raises(MetricConfigError, match=r"config\.clip_model"):
        VideoResponseRelevanceMetric(config={"clip_model": str(tmp_path / "clip.onnx")})
    with pytest.raises(MetricConfigError, match="value must be the rubric"):
        VideoGEvalMetric()
    with pytest.raises(MetricConfigError, match=r"config\.frames must be an integer from 1 to 32"):
        TextToVideoMetric(config={"frames": 40})


def test_the_reply_video_comes_before_the_case_video():
    reply = {"output": "here", "trusys": {"video": b64(solid_clip((0, 0, 0), 4))}}
    result = check(reply, "video-visual-quality", video=solid_clip((128, 128, 128), 4))
    assert result.detail["video"]["field"] == "trusys.video" and result.detail["aspects"]["exposure"] == 0.0
    chosen = check(reply, {"metric": "video-visual-quality", "config": {"video": "input"}},
                   video=solid_clip((128, 128, 128), 4))
    assert chosen.detail["video"]["field"] == "video" and chosen.detail["aspects"]["exposure"] == 1.0


# -- offline -------------------------------------------------------------------------------------------

def test_scene_semantics_offline_is_not_measured_with_the_fix():
    clip = solid_clip((0, 160, 0))
    t2v = check("", "text-to-video", query="A dog runs across a park", video=clip)
    assert t2v.value is None and "vision: true" in t2v.reason and "clip_model" in t2v.reason
    relevance = check("A dog runs across a park.", "video_response_relevance", video=clip)
    assert relevance.value is None and "vision: true" in relevance.reason


def test_colour_claims_are_checked_against_the_frames_offline():
    red = solid_clip((20, 20, 220))  # BGR
    right = check("The whole video is red.", "video-factual-consistency", video=red)
    assert right.value == 1.0 and right.detail["evidence"] == "facts"
    wrong = check("The whole video is blue.", "video-factual-consistency", video=red)
    assert wrong.value == 0.0 and not wrong.passed


@OCR
def test_text_to_video_reads_the_title_with_ocr():
    spec = {"metric": "text-to-video", "config": {"frames": 2}}
    card = text_clip("SUMMER SALE")
    right = check("", spec, query='A title card reading "SUMMER SALE" on a red background', video=card)
    assert right.value == 1.0 and right.passed and right.detail["evidence"] == "facts+ocr"
    assert right.detail["frame_times_s"] == [0.5, 1.5]
    wrong = check("", spec, query='A title card reading "WINTER DEALS"', video=card)
    assert wrong.value == 0.0 and "WINTER DEALS" in wrong.reason


@OCR
def test_video_g_eval_offline_gives_the_judge_the_ocr_text_with_times():
    asked = []

    def respond(request):
        asked.append(request)
        if not request.options:
            return JudgeReply('{"steps": ["Read the text.", "Check the offer."]}', [])
        return JudgeReply("5", [("5", math.log(0.75)), ("4", math.log(0.25))])

    service = judge_service.JudgeService({"provider": "local"})
    service.provider = ScriptedProvider(respond)
    token = judge_service.set_current_judge(service)
    try:
        result = check("", {"metric": "video-g-eval", "value": "Announces a summer sale.", "config": {"frames": 2}},
                       video=text_clip("SUMMER SALE"))
    finally:
        judge_service._current.reset(token)
    assert result.value == pytest.approx((4.75 - 1) / 4) and result.detail["evidence"] == "ocr+judge"
    user = asked[-1].messages[-1][1]
    assert "[0.5 s]" in user and "SUMMER" in user and asked[-1].images == ()


# -- vision judge --------------------------------------------------------------------------------------

def test_text_to_video_sends_the_frames_in_order_to_the_vision_judge(vision_server):  # noqa: F811
    result = check("", {"metric": "text-to-video", "config": {"frames": 4}}, query="A dog runs across a park",
                   video=solid_clip((0, 160, 0), 20))
    assert result.value == pytest.approx(0.8, abs=1e-6) and result.detail["evidence"] == "vision_judge"
    (body,) = vision_server.bodies
    text, *frames = body["messages"][-1]["content"]
    assert "4 frames sampled in order" in text["text"] and "A dog runs across a park" in text["text"]
    assert "0.2 s, 0.7 s, 1.2 s, 1.7 s" in text["text"]
    assert len(frames) == 4 and all(f["image_url"]["url"].startswith("data:image/jpeg;base64,") for f in frames)


def test_factual_consistency_with_the_vision_judge(vision_server):  # noqa: F811
    result = check("A dog runs across a park.", "video-factual-consistency", video=solid_clip((0, 160, 0), 20))
    assert result.value == pytest.approx(0.8, abs=1e-6) and len(vision_server.bodies) == 1
    assert "A dog runs across a park." in vision_server.bodies[0]["messages"][-1]["content"][0]["text"]


def test_response_relevance_is_0_6_mean_plus_0_4_max_of_per_frame_relevance(monkeypatch):
    seen = []

    async def per_frame(service, system, user, images):
        seen.append(images[0].source)
        return [0.2, 0.4, 0.9, 0.5][len(seen) - 1]

    monkeypatch.setattr(video_metrics, "vision_pass", per_frame)
    with vision_scripted(lambda request: JudgeReply("PASS", [])):
        result = check("A dog runs across a park.", {"metric": "video_response_relevance", "config": {"frames": 4}},
                       video=solid_clip((0, 160, 0), 20))
    assert result.value == pytest.approx(0.6 * 0.5 + 0.4 * 0.9)
    assert [f["relevance"] for f in result.detail["frames"]] == [0.2, 0.4, 0.9, 0.5]
    assert seen == ["video@0.20s", "video@0.70s", "video@1.20s", "video@1.70s"]


def test_video_g_eval_with_the_vision_judge_scores_digits_over_the_frames():
    def respond(request):
        if not request.options:
            return JudgeReply('{"steps": ["Watch.", "Score."]}', [])
        return JudgeReply("4", [("4", math.log(0.5)), ("2", math.log(0.5))])

    with vision_scripted(respond) as provider:
        result = check("", {"metric": "video-g-eval", "value": "Shows a green field.", "config": {"frames": 3}},
                       video=solid_clip((0, 160, 0), 12))
    assert result.value == pytest.approx((3 - 1) / 4) and result.detail["evidence"] == "vision_judge"
    decision = provider.requests[-1]
    assert decision.options == ("1", "2", "3", "4", "5") and len(decision.images) == 3


# -- CLIP ----------------------------------------------------------------------------------------------

RED_BGR = (20, 20, 220)  # the test CLIP's "red" is RGB (220, 20, 20)


def test_response_relevance_with_clip(clip_model):  # noqa: F811
    spec = {"metric": "video_response_relevance", "config": {"clip_model": clip_model, "frames": 3}}
    red = check("red", spec, video=solid_clip(RED_BGR))
    assert red.value == pytest.approx(1.0, abs=0.02) and red.detail["evidence"] == "clip"
    blue = check("blue", spec, video=solid_clip(RED_BGR))
    assert blue.value == 0.0 and not blue.passed


def test_text_to_video_with_clip(clip_model):  # noqa: F811
    spec = {"metric": "text-to-video", "config": {"clip_model": clip_model, "frames": 2}}
    assert check("", spec, query="red", video=solid_clip(RED_BGR)).value == pytest.approx(1.0, abs=0.02)
    assert check("", spec, query="blue", video=solid_clip(RED_BGR)).value == 0.0
