"""Visual quality: the blur measure equals scikit-image's, and on generated clips the expected orderings
hold, with the right aspect named weakest and the worst frames named with their times."""

import numpy as np
import pytest

from agentunit import check
from agentunit.video import quality

from .clips import clip

cv2 = pytest.importorskip("cv2")


def test_blur_effect_equals_scikit_image():
    from skimage import data
    from skimage.measure import blur_effect

    gray = data.camera()
    for sigma in (0, 1.5, 3):
        image = cv2.GaussianBlur(gray, (0, 0), sigma) if sigma else gray
        assert quality.blur_effect(image) == pytest.approx(blur_effect(image), abs=1e-4)


def test_noise_sigma_reads_added_noise_and_ignores_edges():
    rng = np.random.default_rng(1)
    flat = np.full((240, 320), 120.0)
    for sigma in (4, 10):
        noisy = np.clip(flat + rng.normal(0, sigma, flat.shape), 0, 255).astype(np.uint8)
        assert quality.noise_sigma(noisy) == pytest.approx(sigma, rel=0.2)
    edges = np.zeros((240, 320), np.uint8)
    edges[:, ::16] = 255  # strong edges, no noise
    assert quality.noise_sigma(edges) < 1


def test_linear_mapping_both_directions():
    assert quality.linear(0.3, 0.45, 0.65) == 1.0 and quality.linear(0.7, 0.45, 0.65) == 0.0
    assert quality.linear(0.55, 0.45, 0.65) == pytest.approx(0.5)
    assert quality.linear(0.55, 0.65, 0.45) == pytest.approx(0.5)


@pytest.fixture(scope="module")
def scores():
    return {kind: check("", "video-visual-quality", video=clip(kind, photo="astronaut"))
            for kind in ("smooth", "blur", "noise", "compressed", "dark", "bright")}


@pytest.mark.parametrize("kind,aspect", [("blur", "sharpness"), ("noise", "noise"), ("compressed", "blockiness"),
                                         ("dark", "exposure"), ("bright", "exposure")])
def test_a_sharp_clean_clip_beats_each_degraded_one_and_the_cause_is_named(scores, kind, aspect):
    good, bad = scores["smooth"], scores[kind]
    assert good.value >= 0.9 and good.passed
    assert bad.value < good.value - 0.4 and not bad.passed
    assert min(bad.detail["aspects"], key=bad.detail["aspects"].get) == aspect
    assert bad.detail["worst_frames"][0]["weakest"] == aspect


def test_the_detail_names_the_video_and_the_worst_frames(scores):
    detail = scores["blur"].detail
    assert detail["video"]["codec"] == "Motion JPEG" and detail["video"]["sampled_frames"] == 16
    worst = detail["worst_frames"]
    assert len(worst) == 3 and all(0 <= w["time_s"] < 2 for w in worst)
    assert worst[0]["measures"]["blur"] > 0.65
    assert "worst frame at" in scores["blur"].reason


def test_only_the_blurred_part_of_a_clip_is_named():
    from .clips import frames, write

    sharp = frames("smooth", 50)
    blurred = frames("blur", 50)
    mixed = write(sharp[:40] + blurred[40:])  # the last 0.4 s blurred
    result = check("", {"metric": "video-visual-quality", "config": {"frames": 10}}, video=mixed)
    assert all(w["time_s"] >= 1.6 for w in result.detail["worst_frames"][:2])
    assert 0.7 <= result.value <= 0.85  # 2 of 10 frames at 0
