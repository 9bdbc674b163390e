"""Temporal consistency on generated clips: smooth motion beats flicker and jumps, the cause is named,
jumps are found at the frames where they happen, and per-frame degradations do not count as temporal."""

import pytest

from agentunit import check

from .clips import clip, square_clip

pytest.importorskip("cv2")


@pytest.fixture(scope="module")
def results():
    return {kind: check("", "video-temporal-consistency", video=clip(kind))
            for kind in ("smooth", "flicker", "jumps", "blur", "compressed")}


def test_smooth_motion_beats_flicker_and_jumps(results):
    smooth, flicker, jumps = results["smooth"], results["flicker"], results["jumps"]
    assert smooth.value >= 0.95 and smooth.passed
    assert flicker.value < 0.2 and not flicker.passed
    assert jumps.value < 0.5 and not jumps.passed
    assert smooth.value > jumps.value > flicker.value


def test_flicker_is_named_and_measured_in_gray_levels(results):
    detail = results["flicker"].detail
    assert detail["aspects"]["flicker"] < 0.1
    assert detail["median_measures"]["flicker"] == pytest.approx(36, abs=6)  # ±18 around the scene
    assert results["smooth"].detail["median_measures"]["flicker"] < 1


def test_jumps_are_found_where_they_happen(results):
    detail = results["jumps"].detail
    # the pan jumps when t // 6 changes: between frames 5 and 6, 11 and 12, …
    jump_at = {round(t / 25, 2) for t in range(6, 48, 6)}
    assert {round(w["to_s"], 2) for w in detail["worst_transitions"]} <= jump_at
    assert detail["cuts"] >= 1 and set(detail["cuts_at_s"]) <= jump_at
    assert results["smooth"].detail["cuts"] == 0


def test_per_frame_degradations_are_not_temporal_inconsistency(results):
    assert results["blur"].value >= 0.9 and results["compressed"].value >= 0.9


def test_a_single_frame_video_is_not_measured():
    result = check("", "video-temporal-consistency", video=clip("smooth", count=1))
    assert result.value is None and "fewer than 2" in result.reason


# -- a small object: jumping about against gliding (issue 52) -----------------------------------------


@pytest.fixture(scope="module")
def squares():
    return {motion: check("", "video-temporal-consistency", video=square_clip(motion))
            for motion in ("static", "smooth", "jumpy")}


def test_a_jumping_object_fails_where_the_same_object_gliding_passes(squares):
    static, smooth, jumpy = squares["static"], squares["smooth"], squares["jumpy"]
    assert static.value >= 0.95 and static.passed
    assert smooth.value >= 0.95 and smooth.passed
    assert jumpy.value < 0.25 and not jumpy.passed
    assert smooth.value - jumpy.value > 0.7


def test_the_jumps_are_named_as_unexplained_change_or_jerk(squares):
    detail = squares["jumpy"].detail
    assert {w["weakest"] for w in detail["worst_transitions"]} <= {"unexplained", "jerk"}
    assert detail["median_measures"]["unexplained"] > 0.5 > squares["smooth"].detail["median_measures"]["unexplained"]
    assert detail["median_measures"]["jerk"] > 3 > squares["smooth"].detail["median_measures"]["jerk"]


@pytest.mark.parametrize(("options", "passes"), [
    ({"motion": "smooth", "speed": 2}, True),
    ({"motion": "smooth", "speed": 6}, True),
    ({"motion": "smooth", "background": "photo"}, True),
    ({"motion": "jumpy", "seed": 1}, False),
    ({"motion": "jumpy", "background": "photo"}, False),
    ({"motion": "jumpy", "side": 12}, False),
    ({"motion": "jumpy", "side": 60}, False),
], ids=["smooth-slow", "smooth-fast", "smooth-over-a-photo", "jumpy-other-path", "jumpy-over-a-photo",
        "jumpy-12px", "jumpy-60px"])
def test_gliding_passes_and_jumping_fails_whatever_the_size_speed_or_background(options, passes):
    motion = options.pop("motion")
    result = check("", "video-temporal-consistency", video=square_clip(motion, count=32, **options))
    assert result.passed is passes, (result.value, result.reason)


def test_a_pointer_sized_jump_counts_in_proportion_to_its_size():
    # a change of a few pixels (a mouse pointer in a screen recording) is not a scene jumping about
    result = check("", "video-temporal-consistency", video=square_clip("jumpy", side=3, count=32))
    assert result.passed and result.detail["median_measures"]["unexplained"] < 0.2
