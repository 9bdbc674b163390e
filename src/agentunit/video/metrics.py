"""Video metrics: visual quality and temporal consistency measured from the frames, and text-to-video,
factual consistency, G-Eval and response relevance judged over sampled frames.

The video is the reply's (``trusys.video``, or the output itself when it is a video) else the case's
``video`` field; ``config.video: reply | input`` picks one. Frames are decoded with OpenCV
(agentunit.video.decode). The judged metrics use, first available: a CLIP model in ONNX form
(``config.clip_model``, where the metric says so), the suite's judge when it is a vision model
(``judge: {provider: openai, vision: true, …}``: sampled frames travel as ``image_url`` parts, in
order), else what ships offline — OCR text and visual facts of the frames (agentunit.multimodal) for
what they can settle. Otherwise not measured, with the fix named. See docs/video.md.
"""

from __future__ import annotations

import asyncio
import math
from typing import Any

import numpy as np

from agentunit.errors import MetricConfigError
from agentunit.judges.base import JudgeRequest
from agentunit.judges.service import current_judge
from agentunit.media import output_media
from agentunit.metrics._values import switch
from agentunit.metrics.base import Metric, MetricResult, keyword_config
from agentunit.metrics.judged import GEval, question_of
from agentunit.metrics.registry import register
from agentunit.multimodal import evidence as ev
from agentunit.multimodal.metrics import (
    ImageMetric,
    check_claims,
    clip_model_at,
    data_uri,
    extract_claims,
    scene_fix,
    vision_judge,
    vision_pass,
)
from agentunit.video import quality, temporal
from agentunit.video.decode import FramePlan, Video, decode_video, decoder_status
from agentunit.video.frames import ORDERS, frame_media, frame_times, videos_of

__all__ = ["TextToVideoMetric", "VideoFactualConsistencyMetric", "VideoGEvalMetric",
           "VideoResponseRelevanceMetric", "VideoTemporalConsistencyMetric", "VideoVisualQualityMetric"]

MEAN_WEIGHT = 0.6          # video_response_relevance: 0.6 × mean + 0.4 × max of the per-frame relevance
WORST_SHARE = 0.1          # temporal consistency: the worst 10 % of transitions weigh as much as all of them
JUDGE_SIDE = 768           # frames sent to a vision judge or CLIP are at most this many pixels a side
SEMANTIC_SIDE = 1280       # frames for OCR and visual facts


def _int(config: dict[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = config.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise MetricConfigError(f"config.{key} must be an integer from {low} to {high}, got {value!r}")
    return value


def _which(config: dict[str, Any]) -> str:
    which = config.get("video", "auto")
    if which not in ORDERS:
        raise MetricConfigError(f"config.video must be auto, reply or input, got {which!r}")
    return which


class _VideoSource:
    """Finds and decodes the metric's video. ``self.which`` is set by the metric's setup."""

    which = "auto"

    def _video(self: Any, case, outcome, plan: FramePlan) -> tuple[str, Video] | MetricResult:
        missing = decoder_status()
        if missing:
            return self.not_measured(missing)
        found = videos_of(case, outcome, self.which)
        if not found:
            where = {"auto": "in the reply (trusys.video, or a video output) or the case (video)",
                     "reply": "in the reply (trusys.video, or a video output)", "input": "in the case (video)"}
            return self.not_measured(f"no video {where[self.which]}")
        field, medium = found[0]
        label = field if getattr(case, "id", None) is None else f"{field} (case {case.id!r})"
        return field, decode_video(medium.data, medium.mime, label, plan, key=medium.sha256)


def _worst(items: list[dict[str, Any]], n: int = 3) -> list[dict[str, Any]]:
    return sorted(items, key=lambda item: item["score"])[:n]


# -- video-visual-quality ------------------------------------------------------------------------------

@register("video-visual-quality", family="video", aliases=("video_visual_quality",), needs=(), threshold=0.5,
          example="{metric: video-visual-quality}")
class VideoVisualQualityMetric(_VideoSource, Metric):
    """No-reference visual quality of the video's frames, 0–1.

    ``config.frames`` (16) frames evenly spaced over the video, at native size; per frame
    (agentunit.video.quality): sharpness from the Crété-Roffet perceptual blur (1 at ≤ 0.45, 0 at
    ≥ 0.65), noise from Immerkær's sigma over the calm 60 % of pixels (1 at ≤ 2.5 gray levels, 0 at
    ≥ 8), compression blockiness (8-px border step / inner step, 1 at ≤ 1.25, 0 at ≥ 2.0), exposure (the
    lower of |mean luminance − 128| — 1 within 50, 0 beyond 100 — and the clipped share ≤ 4 or ≥ 251 —
    1 at ≤ 8 %, 0 at ≥ 35 %). A frame scores its weakest aspect; the video scores the mean over the frames.
    The detail has each aspect's mean score, the median raw measures, the video's duration, fps,
    resolution and codec, and the three worst frames with their times and weakest aspect. With
    ``config.brisque: true`` (off by default) each frame also gets its BRISQUE score (agentunit.video.brisque;
    lower is better, about 0–100), reported — not scored — as "BRISQUE (natural footage)": its model was
    trained on natural photos, so it means little for screen recordings or renders; it needs the
    ``brisque`` model (``agentunit models install brisque``), and without it the detail says so. Not
    measured without a video; an unreadable one is an error naming the field.
    """

    def __init__(self, value: Any = None, **base: Any):
        super().__init__(value, config=keyword_config({}, base), **base)

    def setup(self) -> None:
        self.which = _which(self.config)
        self.frames = _int(self.config, "frames", 16, 1, 64)
        self.brisque = switch(self.config, "brisque", False)

    def _brisque(self, video: Video, per_frame: list[dict[str, Any]]) -> dict[str, Any]:
        """BRISQUE per frame (into ``per_frame``) and its summary, or why there is none."""
        from agentunit.models.store import ModelNotInstalled
        from agentunit.video import brisque

        summary: dict[str, Any] = {"label": brisque.LABEL, "lower_is_better": True}
        try:
            model = brisque.installed_model()
        except ModelNotInstalled as missing:
            return {**summary, "measured": False, "why": str(missing)}
        values = []
        for frame, item in zip(video.frames, per_frame, strict=True):
            value = round(brisque.score(frame.image, model, bgr=True), 2)
            item["measures"]["brisque"] = value
            values.append(value)
        return {**summary, "measured": True, "mean": round(float(np.mean(values)), 2),
                "median": round(float(np.median(values)), 2), "worst": max(values),
                "worst_time_s": per_frame[int(np.argmax(values))]["time_s"]}

    def evaluate(self, case, trace, outcome) -> MetricResult:
        found = self._video(case, outcome, FramePlan("even", count=self.frames, max_frames=self.frames))
        if isinstance(found, MetricResult):
            return found
        field, video = found
        per_frame = []
        for frame in video.frames:
            measures = quality.frame_measures(frame.gray)
            scores = quality.frame_scores(measures)
            weakest = min(scores, key=scores.get)
            per_frame.append({"index": frame.index, "time_s": round(frame.time_s, 3), "score": scores[weakest],
                              "weakest": weakest, "scores": scores, "measures": measures})
        score = float(np.mean([f["score"] for f in per_frame]))
        aspects = {name: round(float(np.mean([f["scores"][name] for f in per_frame if name in f["scores"]])), 4)
                   for name in ("sharpness", "noise", "blockiness", "exposure")
                   if any(name in f["scores"] for f in per_frame)}
        medians = {name: round(float(np.median([f["measures"][name] for f in per_frame
                                                if f["measures"][name] is not None])), 4)
                   for name in ("blur", "noise", "blockiness", "mean_luma", "clipped_dark", "clipped_bright")
                   if any(f["measures"][name] is not None for f in per_frame)}
        extra = {"brisque": self._brisque(video, per_frame)} if self.brisque else {}
        worst = _worst(per_frame)
        weakest = min(aspects, key=aspects.get)
        reason = (f"mean frame quality {score:.2f} over {len(per_frame)} frames; weakest aspect {weakest} "
                  f"({aspects[weakest]:.2f}); worst frame at {worst[0]['time_s']:.2f} s ({worst[0]['weakest']} "
                  f"{worst[0]['score']:.2f})")
        if extra.get("brisque", {}).get("measured"):
            reason += f"; {extra['brisque']['label']}: mean {extra['brisque']['mean']:.1f} (lower is better)"
        return self.result(score, reason=reason, detail={
            "video": {"field": field, **video.detail()}, "aspects": aspects, "median_measures": medians,
            "worst_frames": worst, "bounds": {k: list(v) for k, v in quality.BOUNDS.items()},
            "evidence": "frames", **extra})


# -- video-temporal-consistency ------------------------------------------------------------------------

@register("video-temporal-consistency", family="video", aliases=("video_temporal_consistency",), needs=(),
          threshold=0.5, example="{metric: video-temporal-consistency}")
class VideoTemporalConsistencyMetric(_VideoSource, Metric):
    """How consistent consecutive frames are, 0–1: no flicker, jumps, stutter or morphing.

    Runs of consecutive frames — the whole video up to ``config.max_frames`` (96) frames, else that many in
    ``config.windows`` (4) runs spread over it — downscaled to 256 px; for each transition
    (agentunit.video.temporal), with Farnebäck optical flow from one frame to the next:

    - warped SSIM and warped error: the next frame warped back along the flow should reproduce the
      previous one (1 at SSIM ≥ 0.75 / error ≤ 8 gray levels, 0 at ≤ 0.35 / ≥ 30); means over the whole
      frame, so they see cuts and pans that break, not a small object;
    - unexplained change: of the pixels that changed by more than 12 gray levels (frames smoothed,
      σ 1 px; the change of mean brightness taken out), the share the warped frame still gets wrong
      (allowing a 1-px misalignment), weighted by the changed share of the frame up to 0.5 % — motion
      the flow follows is explained, an object that jumps further than the flow reaches is not, even a
      small one (a 24-px object in a 320-px frame counts fully; a smaller change, a mouse pointer,
      in proportion); 1 at ≤ 0.35, 0 at ≥ 0.65;
    - luminance flicker (brightness going up then down: 1 at ≤ 3, 0 at ≥ 15 gray levels);
    - jerk, the consistency of displacement: the mean length of the change of the flow field from the
      previous transition, over the moving pixels only (so a small object counts as much as a pan),
      in % of the frame width per frame² — steady motion 0.3–0.7, shake and jumps 2–8; 1 at ≤ 1, 0 at ≥ 6.

    Plain consecutive-frame SSIM is reported (motion lowers it, so it is not scored). A transition
    scores its weakest aspect; the video scores 0.5 × the mean over the transitions + 0.5 × the mean of
    the worst 10 % (at least one) — one cut in a long video costs little, a jump every few frames fails.
    The detail names the three worst transitions with their times and counts cuts (warped SSIM < 0.3).
    Not measured for a video of fewer than 2 frames.
    """

    def __init__(self, value: Any = None, **base: Any):
        super().__init__(value, config=keyword_config({}, base), **base)

    def setup(self) -> None:
        self.which = _which(self.config)
        self.max_frames = _int(self.config, "max_frames", 96, 3, 1000)
        self.windows = _int(self.config, "windows", 4, 1, 32)
        self.side = _int(self.config, "analysis_side", 256, 64, 1024)

    def evaluate(self, case, trace, outcome) -> MetricResult:
        plan = FramePlan("windows", max_frames=self.max_frames, windows=self.windows, max_side=self.side)
        found = self._video(case, outcome, plan)
        if isinstance(found, MetricResult):
            return found
        field, video = found
        measured = temporal.transitions(video.frames)
        if not measured:
            return self.not_measured(f"{field} has fewer than 2 consecutive frames")
        for item in measured:
            scores = temporal.transition_scores(item)
            item["weakest"] = min(scores, key=scores.get)
            item["score"], item["scores"] = scores[item["weakest"]], scores
        values = sorted(item["score"] for item in measured)
        worst_share = values[:max(1, math.ceil(WORST_SHARE * len(values)))]
        mean, tail = float(np.mean(values)), float(np.mean(worst_share))
        score = 0.5 * mean + 0.5 * tail
        cuts = [item["to_s"] for item in measured if item["warped_ssim"] < temporal.CUT_WARPED_SSIM]
        aspects = {name: round(float(np.mean([m["scores"][name] for m in measured if name in m["scores"]])), 4)
                   for name in temporal.BOUNDS if any(name in m["scores"] for m in measured)}
        medians = {name: round(float(np.median([m[name] for m in measured if m[name] is not None])), 4)
                   for name in ("ssim", "warped_ssim", "warped_error", "unexplained", "changed", "flicker", "jerk",
                                "motion")
                   if any(m[name] is not None for m in measured)}
        worst = _worst(measured)
        reason = (f"{0.5 * mean:.2f} (mean {mean:.2f} ×0.5) + {0.5 * tail:.2f} (worst 10 % {tail:.2f} ×0.5) over "
                  f"{len(measured)} transitions; worst {worst[0]['from_s']:.2f}→{worst[0]['to_s']:.2f} s "
                  f"({worst[0]['weakest']} {worst[0]['score']:.2f})" + (f"; {len(cuts)} cut(s)" if cuts else ""))
        return self.result(score, reason=reason, detail={
            "video": {"field": field, **video.detail()}, "transitions": len(measured), "mean": round(mean, 4),
            "worst_share_mean": round(tail, 4), "aspects": aspects, "median_measures": medians,
            "worst_transitions": worst, "cuts_at_s": cuts[:20], "cuts": len(cuts),
            "bounds": {k: list(v) for k, v in temporal.BOUNDS.items()}, "evidence": "frames"})


# -- judged over sampled frames ------------------------------------------------------------------------

class _FramesMetric(_VideoSource, ImageMetric):
    """Shared: ``config.frames`` (8) evenly spaced frames; ``config.video``; the CLIP config of the image
    metrics (``clip_model``, ``clip_threshold``)."""

    default_frames = 8

    def setup(self) -> None:
        super().setup()
        self.which = _which(self.config)
        self.frames = _int(self.config, "frames", self.default_frames, 1, 32)

    def _sampled(self, case, outcome) -> tuple[str, Video, list[Any]] | MetricResult:
        found = self._video(case, outcome, FramePlan("even", count=self.frames, max_frames=self.frames,
                                                     max_side=SEMANTIC_SIDE))
        if isinstance(found, MetricResult):
            return found
        field, video = found
        return field, video, [frame_media(f, field) for f in video.frames]

    @staticmethod
    def _shown(video: Video) -> str:
        return (f"These are {len(video.frames)} frames sampled in order from a {video.info.duration_s:.1f}-second "
                f"video (at {frame_times(video.frames)}).")

    async def _clip_cosines(self, text: str, images: list[Any]) -> list[float]:
        model = await asyncio.to_thread(clip_model_at, self.config["clip_model"])
        return [round(await asyncio.to_thread(model.similarity, text, m), 4) for m in images]

    def _base_detail(self, field: str, video: Video, evidence: str) -> dict[str, Any]:
        return {"video": {"field": field, **video.detail()}, "evidence": evidence,
                "frame_times_s": [round(f.time_s, 3) for f in video.frames]}

    async def _claims_offline(self, text: str, images: list[Any], field: str, video: Video, what: str
                              ) -> MetricResult:
        """The share of ``text``'s checkable claims (quoted or ALL-CAPS text, figures, colours, sizes) the
        frames' OCR text and visual facts support, as cross_modal_grounding checks an image."""
        if ev.pillow_status():
            return self.not_measured(ev.pillow_status())
        checked, notes = await asyncio.to_thread(check_claims, extract_claims(text), images)
        if not checked:
            why = "; ".join(notes) + "; or " if notes else ""
            return self.not_measured(f"{what} makes no claim that OCR or visual facts of the frames can settle, and "
                                     f"what the video shows needs scene semantics — {why}{self.scene_fix}")
        supported = sum(c["supported"] for c in checked)
        missing = [str(c["value"]) for c in checked if not c["supported"]]
        detail = {**self._base_detail(field, video, "+".join(sorted({c["source"] for c in checked}))),
                  "claims": checked, "scope": "only the claims OCR and visual facts can settle were checked"}
        if notes:
            detail["notes"] = notes
        return self.result(supported / len(checked), detail=detail,
                           reason=f"{supported}/{len(checked)} checkable claims found in the frames"
                                  + (f"; not found: {', '.join(missing)}" if missing else ""))


T2V_USER = ("{shown}\n\nPrompt: {prompt}\n\nIf the video shows what the prompt asks for — its subjects, actions, "
            "setting and any text — reply PASS. If something asked for is missing or different, reply FAIL.")


@register("text-to-video", family="video", aliases=("text_to_video",), needs=("query",), threshold=0.5,
          model="judge", example="{metric: text-to-video}")
class TextToVideoMetric(_FramesMetric):
    """Does the generated video (the output when it is a video, ``trusys.video``, else the case's video)
    show what the prompt asked for? Evidence, first available: CLIP (``config.clip_model``): the mean over
    the sampled frames of ``min(1, cosine / clip_threshold)`` between the prompt and each frame (a CLIP
    score); the vision judge: P(PASS) with the ``config.frames`` (8) frames in order in one request;
    else the prompt's checkable claims — quoted or ALL-CAPS text and figures (in the frames' OCR text),
    colours (dominant colours), sizes — scored as the share the frames support. A prompt about scene
    content with none of these is not measured, with the fix named."""

    uses_clip = True

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        prompt = str(outcome.query or case.query or "")
        sampled = self._sampled(case, outcome)
        if isinstance(sampled, MetricResult):
            return sampled
        field, video, images = sampled
        if self.config.get("clip_model"):
            cosines = await self._clip_cosines(prompt, images)
            parts = [min(1.0, max(0.0, c / self.clip_threshold)) for c in cosines]
            score = sum(parts) / len(parts)
            return self.result(score, reason=f"CLIP: mean frame score {score:.3f} (cosine / {self.clip_threshold}, "
                                             f"best cosine {max(cosines):.3f})",
                               detail={**self._base_detail(field, video, "clip"), "cosines": cosines})
        service = vision_judge()
        if service is not None:
            judged = [frame_media(f, field, JUDGE_SIDE) for f in video.frames]
            p = await vision_pass(service, "You check whether a generated video matches its prompt. Reply PASS "
                                   "or FAIL.", T2V_USER.format(shown=self._shown(video), prompt=prompt), judged)
            return self.result(p, reason=f"vision judge P(matches the prompt) {p:.3f} over {len(judged)} frames",
                               detail=self._base_detail(field, video, "vision_judge"))
        return await self._claims_offline(prompt, images, field, video, "the prompt")


FACTUAL_USER = ("{shown}\n\nText: {text}\n\nIf everything the text states about the video is shown in these frames, "
                "reply PASS. If the text states something the video does not show or contradicts, reply FAIL.")


@register("video-factual-consistency", family="video", aliases=("video_factual_consistency",), threshold=0.5,
          model="judge", example="{metric: video-factual-consistency}")
class VideoFactualConsistencyMetric(_FramesMetric):
    """Is what the text output says about the video true of it (a summary of a screen recording, an answer
    about a clip)? The vision judge: P(PASS) — "everything the text states is shown" — over the
    ``config.frames`` (8) frames in order; else the output's checkable claims — quoted or ALL-CAPS text and
    figures (in the frames' OCR text, a claim holds when any frame shows it), colours, sizes — scored as
    the share supported. Scene claims with no vision judge: not measured, naming the fix. An output that
    is itself a video is not a text: use text-to-video."""

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        if output_media(outcome, case) is not None:
            return self.not_measured("the output is a medium, not a text about the video — use text-to-video")
        text = str(outcome.output)
        sampled = self._sampled(case, outcome)
        if isinstance(sampled, MetricResult):
            return sampled
        field, video, images = sampled
        service = vision_judge()
        if service is not None:
            judged = [frame_media(f, field, JUDGE_SIDE) for f in video.frames]
            p = await vision_pass(service, "You check whether a text is faithful to a video. Reply PASS or FAIL.",
                                   FACTUAL_USER.format(shown=self._shown(video), text=text), judged)
            return self.result(p, reason=f"vision judge P(consistent) {p:.3f} over {len(judged)} frames",
                               detail=self._base_detail(field, video, "vision_judge"))
        return await self._claims_offline(text, images, field, video, "the output")


RELEVANCE_USER = ("{question}Response: {response}\n\nThis is one frame of the video the response is about (at "
                  "{time:.1f} s). If the frame shows something the response is about or relevant to it, reply PASS. "
                  "Otherwise reply FAIL.")


@register("video_response_relevance", family="video", aliases=("video-response-relevance",), threshold=0.5,
          model="judge", example="{metric: video_response_relevance}")
class VideoResponseRelevanceMetric(_FramesMetric):
    """How relevant the response is to the video (AgentUnit's VideoResponseRelevanceMetric): per sampled
    frame (``config.frames``, 8, evenly spaced) a relevance in 0–1, combined as 0.6 × mean + 0.4 × max —
    the response should fit the video throughout, and fit some part of it well. Per-frame relevance:
    CLIP (``config.clip_model``): ``min(1, cosine / clip_threshold)`` of the response (with the question)
    and the frame; else the vision judge: P(PASS) for "this frame shows what the response is about", one
    request per frame. Neither configured: not measured, naming the fix (relevance to what a frame shows
    is scene semantics)."""

    uses_clip = True

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        if output_media(outcome, case) is not None:
            return self.not_measured("the output is a medium, not a text response — use text-to-video")
        response = str(outcome.output)
        question = outcome.query or case.query
        clip = self.config.get("clip_model")
        service = None if clip else vision_judge()
        sampled = self._sampled(case, outcome)
        if isinstance(sampled, MetricResult):
            return sampled
        if not clip and service is None:
            return self.not_measured(f"per-frame relevance needs scene semantics — {self.scene_fix}")
        field, video, images = sampled
        if clip:
            cosines = await self._clip_cosines(f"{question or ''} {response}".strip(), images)
            per_frame = [min(1.0, max(0.0, c / self.clip_threshold)) for c in cosines]
            evidence, extra = "clip", {"cosines": cosines, "clip_threshold": self.clip_threshold}
        else:
            per_frame = []
            for frame in video.frames:
                user = RELEVANCE_USER.format(question=f"Question: {question}\n" if question else "",
                                             response=response, time=frame.time_s)
                per_frame.append(await vision_pass(service, "You judge whether a response is relevant to a video "
                                                    "frame. Reply PASS or FAIL.", user,
                                                    [frame_media(frame, field, JUDGE_SIDE)]))
            evidence, extra = "vision_judge", {}
        mean, best = sum(per_frame) / len(per_frame), max(per_frame)
        score = MEAN_WEIGHT * mean + (1 - MEAN_WEIGHT) * best
        frames = [{"time_s": round(f.time_s, 3), "relevance": round(p, 4)}
                  for f, p in zip(video.frames, per_frame, strict=True)]
        return self.result(score, reason=f"0.6 × mean {mean:.3f} + 0.4 × max {best:.3f} over {len(frames)} frames",
                           detail={**self._base_detail(field, video, evidence), "frames": frames,
                                   "mean": round(mean, 4), "max": round(best, 4), **extra})


# -- video-g-eval --------------------------------------------------------------------------------------

@register("video-g-eval", family="video", aliases=("video_g_eval",), needs=(), value="required", threshold=0.61,
          model="judge", example='{metric: video-g-eval, value: "The screen recording shows the user completing '
                                 'checkout, without error dialogs."}')
class VideoGEvalMetric(_VideoSource, GEval):
    """G-Eval over a video: the rubric (``value``, mandatory) is turned into evaluation steps once (as
    ``g-eval`` does), then one decision over the score tokens 1–``config.max_score`` (5), scored as the
    probability-weighted mean normalised to 0–1. The vision judge sees ``config.frames`` (8) frames in
    order (and the reply's text, if any); offline, the judge reads the frames' OCR text with their times
    (a screen recording, slides, captions) as the response — a video without readable text is then not
    measured, naming the fix. Default threshold 0.61, as ``g-eval``'s."""

    def setup(self) -> None:
        if self.value is None or not str(self.value).strip():
            raise MetricConfigError(f"{self.name} value must be the rubric (criteria) the video is scored "
                                    "against, e.g. {metric: video-g-eval, value: \"Shows the checkout completing\"}")
        super().setup()
        self.which = _which(self.config)
        self.frames = _int(self.config, "frames", 8, 1, 32)

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        criteria = str(self.value)
        found = self._video(case, outcome, FramePlan("even", count=self.frames, max_frames=self.frames,
                                                     max_side=SEMANTIC_SIDE))
        if isinstance(found, MetricResult):
            return found
        field, video = found
        text = None if output_media(outcome, case) is not None else str(outcome.output or "").strip() or None
        base = {"video": {"field": field, **video.detail()},
                "frame_times_s": [round(f.time_s, 3) for f in video.frames]}
        service = vision_judge()
        if service is not None:
            result = await self._score_frames(criteria, question_of(case, outcome), text, video, field)
            result.detail = {**base, **result.detail, "evidence": "vision_judge"}
            return result
        if ev.pillow_status() or ev.ocr_status():
            return self.not_measured(f"OCR cannot read the frames ({ev.pillow_status() or ev.ocr_status()}) and "
                                     f"judging the video needs a vision model — {scene_fix(clip=False)}")
        lines, previous = [], None
        for frame in video.frames:
            words = " ".join(line["text"] for line in await asyncio.to_thread(ev.ocr_text, frame_media(frame, field)))
            if words.strip() and words != previous:
                lines.append(f"[{frame.time_s:.1f} s] {words}")
            previous = words
        if not lines:
            return self.not_measured(f"the frames of {field} hold no text OCR can read, and judging what the video "
                                     f"shows needs scene semantics — {scene_fix(clip=False)}")
        response = (f"A {video.info.duration_s:.1f}-second video ({video.info.width}×{video.info.height}). The text "
                    "read from its frames, in order:\n" + "\n".join(lines)
                    + (f"\n\nThe reply's text: {text}" if text else ""))
        result = await self.score_text(criteria, question_of(case, outcome), response)
        result.detail = {**base, **result.detail, "evidence": "ocr+judge", "ocr_text": lines}
        return result

    async def _score_frames(self, criteria: str, question: str | None, text: str | None, video: Video,
                            field: str) -> MetricResult:
        steps, step_info = await self._steps(criteria)
        options = tuple(str(i) for i in range(1, self._max + 1))
        shown = (f"RESPONSE: a {video.info.duration_s:.1f}-second video, shown as {len(video.frames)} frames in order "
                 f"(at {frame_times(video.frames)})" + (f", with this text: {text}" if text else "") + ".")
        user = (f"CRITERIA: {criteria}\n\nEVALUATION STEPS:\n" + "\n".join(f"{i}. {s}" for i, s in enumerate(steps, 1))
                + (f"\n\nINPUT:\n{question}" if question else "") + f"\n\n{shown}\n\n"
                f"Following the steps, score the RESPONSE from 1 (worst) to {self._max} (best). Answer with a single "
                "digit.")
        images = tuple(data_uri(frame_media(f, field, JUDGE_SIDE)) for f in video.frames)
        decision = await current_judge().decide(JudgeRequest(
            (("system", "You are a careful evaluator of videos. Answer with one digit."), ("user", user)),
            options=options, images=images))
        mean = sum(int(o) * p for o, p in decision.probabilities.items())
        score = (mean - 1) / (self._max - 1)
        return self.result(score, reason=f"score {mean:.2f}/{self._max} over {len(images)} frames",
                           detail={"steps": steps, "steps_generation": step_info, "mean_score": mean,
                                   "judge": decision.to_detail()})
