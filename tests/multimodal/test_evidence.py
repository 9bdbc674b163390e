import io

import numpy as np
import pytest
from PIL import Image

from agentunit.multimodal import evidence
from agentunit.multimodal.evidence import colour_name, image_facts, ocr_status, ocr_text

from .images import as_media, chart, checkerboard, encode, sign, solid


def test_size_and_dominant_colours_of_solid_images():
    facts = image_facts(as_media(solid((220, 20, 20), (64, 48))))
    assert (facts.width, facts.height) == (64, 48)
    assert facts.colour_names() == ["red"]
    assert facts.colours[0]["share"] == 1.0
    assert image_facts(as_media(solid((10, 20, 200)))).colour_names() == ["blue"]


def test_chart_colours_include_the_bars_and_the_background():
    names = image_facts(as_media(chart())).colour_names()
    assert names[0] == "white" and "blue" in names and "red" not in names


def test_colour_names_are_the_nearest_of_the_table():
    assert colour_name((250, 250, 250)) == "white"
    assert colour_name((0, 0, 120)) == "navy"
    assert colour_name((255, 150, 10)) == "orange"


def test_sharpness_separates_sharp_from_blurred():
    sharp = image_facts(as_media(checkerboard()))
    blurred = image_facts(as_media(checkerboard(blur=3)))
    assert sharp.sharpness > 10 * blurred.sharpness


def test_noise_estimate_rises_with_added_noise():
    rng = np.random.default_rng(0)
    flat = np.full((96, 96, 3), 128, dtype=np.uint8)
    noisy = np.clip(flat + rng.normal(0, 20, flat.shape), 0, 255).astype(np.uint8)
    assert image_facts(as_media(encode(Image.fromarray(flat)))).noise == 0.0
    assert image_facts(as_media(encode(Image.fromarray(noisy)))).noise > 5


def test_jpeg_blockiness_is_higher_at_low_quality():
    rng = np.random.default_rng(1)
    x = np.linspace(0, 255, 256)
    smooth = (np.add.outer(x, x) / 2 + rng.normal(0, 3, (256, 256))).clip(0, 255).astype(np.uint8)
    image = Image.fromarray(smooth).convert("RGB")
    low = image_facts(as_media(encode(image, "JPEG", quality=5), "image/jpeg"))
    high = image_facts(as_media(encode(image, "JPEG", quality=95), "image/jpeg"))
    assert low.blockiness > high.blockiness + 0.3


def test_facts_are_cached_by_sha256(monkeypatch):
    medium = as_media(solid((0, 160, 0), (33, 17)))
    first = image_facts(medium)
    monkeypatch.setattr(evidence, "_open", lambda m: pytest.fail("read again"))
    assert image_facts(medium) is first


@pytest.mark.skipif(ocr_status() is not None, reason="OCR unavailable")
def test_ocr_reads_a_drawn_sign():
    lines = ocr_text(as_media(sign("OPEN 24 HOURS")))
    assert [line["text"] for line in lines] == ["OPEN 24 HOURS"]
    assert lines[0]["score"] > 0.8
    assert ocr_text(as_media(solid((255, 255, 255)))) == []


def test_ocr_unavailable_reports_why(monkeypatch):
    monkeypatch.setattr(evidence, "_ENGINE", None)
    monkeypatch.setattr(evidence, "_ENGINE_ERROR", "OCR is unavailable (ImportError: x) — pip install …")
    assert ocr_status().startswith("OCR is unavailable")
    with pytest.raises(evidence.OcrUnavailable, match="pip install"):
        ocr_text(as_media(sign("NEVER READ")))


def test_image_bytes_are_not_read_by_name():
    data = io.BytesIO()
    Image.new("RGB", (5, 5), "white").save(data, "GIF")
    assert image_facts(as_media(data.getvalue(), "image/gif")).width == 5
