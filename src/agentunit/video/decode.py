"""Decode a video and sample its frames with OpenCV's FFmpeg reader (``opencv-python``, the ``video`` extra).

A plan says which frames to read: ``even`` (``count`` frames at the centres of equal slices of the video),
``fps`` (one frame every 1/``fps`` s, capped at ``max_frames`` by taking an even subset) or ``windows``
(runs of consecutive frames — what temporal measures need — ``max_frames`` in all, split into
``windows`` runs spread evenly over the video; the whole video when it is short enough). Frames are
downscaled so that their longer side is at most ``max_side`` (None: native size).

Sparse plans seek (``CAP_PROP_POS_FRAMES``) and take the frame's own timestamp; dense ones decode in
order and keep the frames asked for. A file OpenCV cannot open or read a frame from is a
``VideoInputError`` naming the field: corrupt, truncated, or a codec its FFmpeg build lacks.
"""

from __future__ import annotations

import os
import tempfile
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["Frame", "FramePlan", "Video", "VideoInfo", "VideoInputError", "decode_video", "decoder_status",
           "plan_indices"]

# FOURCC → a codec name people know.
CODECS = {"FMP4": "MPEG-4 Part 2", "MP4V": "MPEG-4 Part 2", "XVID": "MPEG-4 Part 2", "DIVX": "MPEG-4 Part 2",
          "AVC1": "H.264", "H264": "H.264", "X264": "H.264", "HEV1": "H.265", "HVC1": "H.265", "HEVC": "H.265",
          "VP80": "VP8", "VP90": "VP9", "AV01": "AV1", "MJPG": "Motion JPEG", "THEO": "Theora"}
_SUFFIX = {"video/mp4": ".mp4", "video/quicktime": ".mov", "video/3gpp": ".3gp", "video/webm": ".webm",
           "video/x-matroska": ".mkv", "video/x-msvideo": ".avi", "video/ogg": ".ogv"}
SEEK_STEP = 24  # frames between wanted frames above which seeking beats decoding every frame
_CACHE: OrderedDict[tuple, Video] = OrderedDict()
_CACHE_SIZE = 6
_LOCK = threading.Lock()


class VideoInputError(ValueError):
    """A video a metric cannot use; the message names the field and the fix."""


def decoder_status() -> str | None:
    """None when OpenCV can decode video, else why not and how to install it."""
    try:
        import cv2  # noqa: F401
    except ImportError:
        return "OpenCV is not installed — pip install 'agentunit[video]' (opencv-python)"
    return None


@dataclass(frozen=True, slots=True)
class FramePlan:
    """Which frames to read (see the module doc). ``count`` for ``even``; ``fps`` for ``fps``;
    ``max_frames`` caps every mode; ``windows`` for ``windows``; ``max_side`` downscales (None: native)."""

    mode: str = "even"
    count: int = 16
    fps: float | None = None
    max_frames: int = 64
    windows: int = 4
    max_side: int | None = None


@dataclass(frozen=True, slots=True)
class VideoInfo:
    width: int
    height: int
    fps: float
    frame_count: int
    duration_s: float
    codec: str
    fourcc: str
    mime: str

    def to_dict(self) -> dict[str, Any]:
        return {"duration_s": round(self.duration_s, 3), "fps": round(self.fps, 3), "width": self.width,
                "height": self.height, "frame_count": self.frame_count, "codec": self.codec,
                "fourcc": self.fourcc, "mime": self.mime}


@dataclass(frozen=True, slots=True)
class Frame:
    """One decoded frame: its index in the video, its time in s, the pixels (BGR uint8)."""

    index: int
    time_s: float
    image: np.ndarray

    @property
    def gray(self) -> np.ndarray:
        import cv2

        return cv2.cvtColor(self.image, cv2.COLOR_BGR2GRAY)


@dataclass(frozen=True, slots=True)
class Video:
    info: VideoInfo
    frames: list[Frame] = field(default_factory=list)
    plan: FramePlan = FramePlan()
    scale: float = 1.0  # analysis size / native size

    def detail(self) -> dict[str, Any]:
        """What a metric's detail says about the video and the sampling."""
        plan = self.plan
        how = {"even": f"{plan.count} evenly spaced", "fps": f"{plan.fps or 0:g} per second",
               "windows": f"runs of consecutive frames in up to {plan.windows} windows"}[plan.mode]
        return {**self.info.to_dict(), "sampled_frames": len(self.frames), "sampling": how,
                "analysis_size": list(self.frames[0].image.shape[1::-1]) if self.frames else None}


def plan_indices(frame_count: int, fps: float, plan: FramePlan) -> list[int]:
    """The frame indices a plan reads from a video of ``frame_count`` frames at ``fps``."""
    n = max(0, int(frame_count))
    if n == 0:
        return []
    if plan.mode == "even":
        count = min(plan.count, plan.max_frames, n)
        return sorted({min(n - 1, int((i + 0.5) * n / count)) for i in range(count)})
    if plan.mode == "fps":
        step = max(1.0, fps / plan.fps) if fps > 0 else 1.0
        indices = sorted({round(k * step) for k in range(int((n - 1) / step) + 1)} - {n})
        if len(indices) > plan.max_frames:
            indices = [indices[int((i + 0.5) * len(indices) / plan.max_frames)] for i in range(plan.max_frames)]
        return indices
    if plan.mode == "windows":
        if n <= plan.max_frames:
            return list(range(n))
        windows = max(1, min(plan.windows, plan.max_frames // 2))
        length = plan.max_frames // windows
        starts = [round(w * (n - length) / max(1, windows - 1)) for w in range(windows)] if windows > 1 \
            else [(n - length) // 2]
        return sorted({s + k for s in starts for k in range(length)})
    raise ValueError(f"unknown sampling mode {plan.mode!r}")


def _fourcc(capture: Any) -> str:
    import cv2

    code = int(capture.get(cv2.CAP_PROP_FOURCC))
    text = code.to_bytes(4, "little").decode("latin-1").strip("\x00 ") if code > 0 else ""
    return text if text.isprintable() else ""


def _unreadable(field_name: str, mime: str, size: int, why: str) -> VideoInputError:
    return VideoInputError(f"{field_name}: cannot decode the video ({mime}, {size} bytes): {why} — the file is "
                           "corrupt, truncated or in a codec this OpenCV build lacks; re-encode it as MP4 (H.264) "
                           "or WebM (VP9)")


def decode_video(data: bytes, mime: str = "video/mp4", field_name: str = "video", plan: FramePlan | None = None,
                 key: str | None = None) -> Video:
    """Decode the frames ``plan`` asks for from ``data``. ``key`` (the content's sha256) caches the result
    for the last few calls. Raises VideoInputError naming ``field_name`` when the video cannot be read."""
    plan = plan or FramePlan()
    cache_key = (key, plan) if key else None
    if cache_key is not None:
        with _LOCK:
            if cache_key in _CACHE:
                _CACHE.move_to_end(cache_key)
                return _CACHE[cache_key]
    import cv2

    handle, path = tempfile.mkstemp(suffix=_SUFFIX.get(mime, ".bin"), prefix="agentunit-video-")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        capture = cv2.VideoCapture(path, cv2.CAP_FFMPEG)
        try:
            video = _read(capture, data, mime, field_name, plan, path)
        finally:
            capture.release()
    finally:
        os.unlink(path)
    if cache_key is not None:
        with _LOCK:
            _CACHE[cache_key] = video
            while len(_CACHE) > _CACHE_SIZE:
                _CACHE.popitem(last=False)
    return video


def _read(capture: Any, data: bytes, mime: str, field_name: str, plan: FramePlan, path: str) -> Video:
    import cv2

    if not capture.isOpened():
        raise _unreadable(field_name, mime, len(data), "OpenCV's FFmpeg reader cannot open it")
    fps = float(capture.get(cv2.CAP_PROP_FPS) or 0.0)
    if not 0 < fps < 1000:
        fps = 0.0
    width, height = int(capture.get(cv2.CAP_PROP_FRAME_WIDTH)), int(capture.get(cv2.CAP_PROP_FRAME_HEIGHT))
    fourcc = _fourcc(capture)
    count = int(capture.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
    if count <= 0:  # some containers do not say: count by decoding
        while capture.grab():
            count += 1
        capture.release()
        capture.open(path, cv2.CAP_FFMPEG)
    if count <= 0:
        raise _unreadable(field_name, mime, len(data), "no frame could be read")
    wanted = plan_indices(count, fps or 25.0, plan)
    scale = 1.0
    if plan.max_side and max(width, height) > plan.max_side:
        scale = plan.max_side / max(width, height)
    size = (max(1, round(width * scale)), max(1, round(height * scale)))

    def keep(image: np.ndarray, index: int, time_s: float | None) -> Frame:
        if image.shape[1] != size[0] or image.shape[0] != size[1]:
            image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        return Frame(index, time_s if time_s is not None else index / (fps or 25.0), image)

    frames: list[Frame] = []
    runs: list[list[int]] = []
    for index in wanted:  # runs of consecutive indices: one for each window, single frames otherwise
        if runs and index == runs[-1][-1] + 1:
            runs[-1].append(index)
        else:
            runs.append([index])
    position, ended = 0, False  # position: the index the next grab() returns
    for run in runs:
        seeked = run[0] - position > SEEK_STEP
        if seeked:
            capture.set(cv2.CAP_PROP_POS_FRAMES, run[0])
            position = run[0]
        while position < run[0] and capture.grab():
            position += 1
        for index in run:
            if not capture.grab():
                ended = True
                break
            ok, image = capture.retrieve()
            stamp = capture.get(cv2.CAP_PROP_POS_MSEC) if seeked and index == run[0] else 0
            position += 1
            if ok:
                frames.append(keep(image, index, stamp / 1000 if stamp and stamp > 0 else None))
        if ended:
            break
    if not frames:
        raise _unreadable(field_name, mime, len(data), "no frame could be decoded")
    if len(frames) < len(wanted) and frames[-1].index < count - 1:
        count = max(frames[-1].index + 1, len(frames))  # the stream ended early: the container overstated it
    duration = count / fps if fps else 0.0
    info = VideoInfo(width=width, height=height, fps=fps, frame_count=count, duration_s=duration,
                     codec=CODECS.get(fourcc.upper(), fourcc or "unknown"), fourcc=fourcc, mime=mime)
    return Video(info=info, frames=frames, plan=plan, scale=scale)
