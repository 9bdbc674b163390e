"""Frame sampling: which frames each plan reads, that the decoder returns those frames (each test frame's
brightness encodes its index), the video's facts, and clear errors for unreadable files."""

import numpy as np
import pytest

from agentunit import check
from agentunit.video.decode import FramePlan, VideoInputError, decode_video, plan_indices

from .clips import write

pytest.importorskip("cv2")


def counting_clip(count=200, fps=25.0, codec="MJPG", size=(160, 120)):
    """Frame i is a flat gray of level 4·(i mod 60): the level read back tells which frame came back."""
    return write([np.full((size[1], size[0], 3), 4 * (i % 60), np.uint8) for i in range(count)], fps, codec)


def levels(video):
    return [f.image.mean() / 4 for f in video.frames]


def test_even_plans_take_the_centres_of_equal_slices():
    assert plan_indices(100, 25, FramePlan("even", count=4)) == [12, 37, 62, 87]
    assert plan_indices(3, 25, FramePlan("even", count=16)) == [0, 1, 2]
    assert plan_indices(1000, 25, FramePlan("even", count=64, max_frames=10)) == [50 + 100 * i for i in range(10)]


def test_fps_plans_step_by_time_and_are_capped():
    assert plan_indices(100, 25, FramePlan("fps", fps=5))[:4] == [0, 5, 10, 15]
    capped = plan_indices(10_000, 25, FramePlan("fps", fps=5, max_frames=8))
    assert len(capped) == 8 and capped == sorted(capped) and capped[-1] > 9000


def test_window_plans_are_runs_of_consecutive_frames_spread_over_the_video():
    assert plan_indices(50, 25, FramePlan("windows", max_frames=96)) == list(range(50))
    runs = plan_indices(1000, 25, FramePlan("windows", max_frames=40, windows=4))
    assert len(runs) == 40 and runs[:10] == list(range(10)) and runs[-1] == 999
    assert runs[10] - runs[9] > 1  # a new window


@pytest.mark.parametrize("codec", ["MJPG", "mp4v"])
def test_the_frames_asked_for_come_back_sequentially_and_by_seeking(codec):
    data = counting_clip(codec=codec)
    mime = "video/x-msvideo" if codec == "MJPG" else "video/mp4"
    every = decode_video(data, mime, "video", FramePlan("fps", fps=25, max_frames=200))  # all, in order
    assert [f.index for f in every.frames] == list(range(200))
    level = dict(zip(range(200), levels(every), strict=True))
    # MJPG keeps the levels; mp4v scales them a little (YUV range), so they are compared with the in-order decode
    assert level[5] == pytest.approx(5, abs=0.8) and level[15] == pytest.approx(15, abs=0.8)
    dense = decode_video(data, mime, "video", FramePlan("fps", fps=5))  # every 5th frame: decoded in order
    assert [f.index for f in dense.frames][:4] == [0, 5, 10, 15]
    assert levels(dense)[:4] == pytest.approx([level[i] for i in (0, 5, 10, 15)], abs=0.3)
    sparse = decode_video(data, mime, "video", FramePlan("even", count=4))  # 50 frames apart: seeks
    assert [f.index for f in sparse.frames] == [25, 75, 125, 175]
    assert levels(sparse) == pytest.approx([level[i] for i in (25, 75, 125, 175)], abs=0.3)
    assert [f.time_s for f in sparse.frames] == pytest.approx([1.0, 3.0, 5.0, 7.0], abs=0.05)


def test_windows_come_back_as_consecutive_frames():
    video = decode_video(counting_clip(400), "video/x-msvideo", "video",
                         FramePlan("windows", max_frames=20, windows=2, max_side=80))
    assert [f.index for f in video.frames] == [*range(10), *range(390, 400)]
    assert levels(video)[:10] == pytest.approx(list(range(10)), abs=0.8)
    assert levels(video)[10:] == pytest.approx(list(range(30, 40)), abs=0.8)
    assert video.frames[0].image.shape == (60, 80, 3)  # downscaled to 80 px a side


def test_the_video_facts():
    video = decode_video(counting_clip(150, fps=30.0, size=(320, 240)), "video/x-msvideo", "video")
    info = video.detail()
    assert info["duration_s"] == pytest.approx(5.0) and info["fps"] == 30.0 and info["frame_count"] == 150
    assert (info["width"], info["height"], info["codec"], info["fourcc"]) == (320, 240, "Motion JPEG", "MJPG")
    mp4 = decode_video(counting_clip(50, codec="mp4v"), "video/mp4", "video").info
    assert mp4.codec == "MPEG-4 Part 2"


def test_a_corrupt_video_is_an_error_naming_the_field():
    broken = b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom" + b"\x00" * 4000
    with pytest.raises(VideoInputError, match=r"^trusys\.video: cannot decode the video \(video/mp4"):
        decode_video(broken, "video/mp4", "trusys.video")
    truncated = counting_clip()[:3000]
    result = check("", "video-visual-quality", video=truncated)
    assert result.status == "error" and result.error.startswith("VideoInputError: video")
    assert "re-encode" in result.error
