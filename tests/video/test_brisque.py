"""BRISQUE (agentunit.video.brisque) with the LIVE-trained model of the model store: the libsvm model is
read and predicted in numpy, the scores of scikit-image's photos are those of the image-quality package
that trained the model, and blur, noise and JPEG raise them. Skipped when the ``brisque`` model is not
installed (``agentunit models install brisque``); the metric's config and its not-installed detail are
tested without it."""

import numpy as np
import pytest

from agentunit import check
from agentunit.errors import MetricConfigError
from agentunit.models import store
from agentunit.video import brisque

from .clips import clip

cv2 = pytest.importorskip("cv2")
data = pytest.importorskip("skimage.data")

# imquality.brisque.score (image-quality 1.2.7, libsvm 3.37) of these images, RGB uint8 (camera stacked
# to three channels), computed once; the numpy implementation agrees to 1e-9 on them.
REFERENCE = {"astronaut": 10.917, "camera": -8.128, "coffee": 2.001, "chelsea": 1.129}


@pytest.fixture(scope="module")
def model():
    if not store.is_installed("brisque"):
        pytest.skip("the brisque model is not installed: agentunit models install brisque")
    return brisque.installed_model()


def _spec(config):
    return {"metric": "video-visual-quality", "config": config}


def _photo(name):
    image = getattr(data, name)()
    return np.stack([image] * 3, -1) if image.ndim == 2 else image


def test_the_model_is_the_live_svr_with_36_features(model):
    assert model.vectors.shape == (770, 36) and model.gamma == 0.05 and model.rho == pytest.approx(-155.845)
    assert model.low.shape == model.high.shape == (36,) and np.all(model.high > model.low)


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_scores_of_pristine_photos_match_the_training_implementation(model, name):
    assert brisque.score(_photo(name), model) == pytest.approx(REFERENCE[name], abs=0.01)


def test_gray_rgb_and_bgr_inputs_agree(model):
    rgb = data.astronaut()
    assert brisque.score(rgb[..., ::-1], model, bgr=True) == pytest.approx(brisque.score(rgb, model), abs=1e-9)
    gray = data.camera()
    assert brisque.score(gray, model) == pytest.approx(brisque.score(_photo("camera"), model), abs=0.05)


@pytest.mark.parametrize("name", ["astronaut", "camera", "coffee"])
def test_blur_noise_and_jpeg_raise_the_score(model, name):
    image = _photo(name)
    rng = np.random.default_rng(0)
    pristine = brisque.score(image, model)
    blurred = cv2.GaussianBlur(image, (0, 0), 2)
    noisy = np.clip(image + rng.normal(0, 15, image.shape), 0, 255).astype(np.uint8)
    jpeg = cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 10])[1], cv2.IMREAD_UNCHANGED)
    for degraded in (blurred, noisy, jpeg):
        assert brisque.score(degraded, model) > pristine + 15


def test_the_range_file_may_hold_plain_data_only():
    import pickle

    class Evil:
        def __reduce__(self):
            return (print, ("pwned",))

    with pytest.raises(pickle.UnpicklingError):
        brisque.parse_ranges(pickle.dumps({"min_": [0.0], "max_": [Evil()]}))
    low, high = brisque.parse_ranges(pickle.dumps({"min_": [0.0, 1.0], "max_": [2.0, 3.0]}))
    assert low.tolist() == [0.0, 1.0] and high.tolist() == [2.0, 3.0]


def test_a_libsvm_model_other_than_rbf_epsilon_svr_is_refused():
    with pytest.raises(ValueError, match="RBF epsilon-SVR"):
        brisque.parse_svm("svm_type c_svc\nkernel_type rbf\ngamma 0.5\nrho 0\nSV\n1 1:0.5\n")
    vectors, coefs, gamma, rho = brisque.parse_svm(
        "svm_type epsilon_svr\nkernel_type rbf\ngamma 0.5\nnr_class 2\ntotal_sv 2\nrho -1\nSV\n2 1:1 3:0.5\n-1 2:1\n")
    assert vectors.tolist() == [[1, 0, 0.5], [0, 1, 0]] and coefs.tolist() == [2, -1] and (gamma, rho) == (0.5, -1)


def test_the_metric_reports_brisque_per_frame_when_asked(model):
    good = check("", _spec({"brisque": True, "frames": 4}), video=clip("smooth", photo="astronaut"))
    bad = check("", _spec({"brisque": True, "frames": 4}), video=clip("blur", photo="astronaut"))
    for result in (good, bad):
        summary = result.detail["brisque"]
        assert summary["measured"] and summary["label"] == "BRISQUE (natural footage)"
        assert "BRISQUE (natural footage)" in result.reason
        assert all("brisque" in frame["measures"] for frame in result.detail["worst_frames"])
    assert bad.detail["brisque"]["mean"] > good.detail["brisque"]["mean"] + 10


def test_brisque_is_off_by_default_and_says_how_to_install_when_missing(monkeypatch, tmp_path):
    video = clip("smooth", photo="astronaut")
    assert "brisque" not in check("", _spec({"frames": 2}), video=video).detail
    monkeypatch.setenv("AGENTUNIT_HOME", str(tmp_path))
    brisque.load.cache_clear()
    result = check("", _spec({"brisque": True, "frames": 2}), video=video)
    assert result.detail["brisque"]["measured"] is False
    assert "agentunit models install brisque" in result.detail["brisque"]["why"]
    with pytest.raises(MetricConfigError, match=r"config\.brisque"):
        check("", _spec({"brisque": "yes"}), video=video)
