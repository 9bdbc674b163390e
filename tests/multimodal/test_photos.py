"""Natural photos (the ones scikit-image ships in its wheel): what the offline evidence reads from
them, and what it must refuse to guess."""

import numpy as np
import pytest
from PIL import Image, ImageFilter

from agentunit import check
from agentunit.multimodal import evidence, image_facts

from .images import as_media, encode

skdata = pytest.importorskip("skimage.data")
OCR = pytest.mark.skipif(evidence.ocr_status() is not None, reason="OCR unavailable")


def photo(name: str) -> Image.Image:
    return Image.fromarray(getattr(skdata, name)())


def png(image: Image.Image) -> bytes:
    return encode(image)


def facts(image: Image.Image, fmt: str = "PNG", **options):
    return image_facts(as_media(encode(image, fmt, **options), f"image/{fmt.lower()}"))


def test_blur_lowers_sharpness_and_noise_raises_the_noise_estimate():
    astronaut = photo("astronaut")
    sharp, blurred = facts(astronaut), facts(astronaut.filter(ImageFilter.GaussianBlur(2)))
    assert blurred.sharpness < sharp.sharpness / 10
    pixels = np.asarray(skdata.camera(), dtype=float)
    noise = [facts(Image.fromarray(np.clip(pixels + np.random.default_rng(0).normal(0, sigma, pixels.shape),
                                           0, 255).astype(np.uint8))).noise for sigma in (0, 5, 10, 20)]
    assert noise == sorted(noise) and noise[-1] > 5 * noise[0]
    # The estimate tracks the added sigma within a factor of 1.5 once the noise dominates the texture.
    assert 20 / 1.5 < noise[-1] < 20 * 1.5


def test_heavy_jpeg_compression_shows_as_blockiness():
    coffee = photo("coffee")
    blockiness = [facts(coffee, "JPEG", quality=q).blockiness for q in (95, 30, 8)]
    assert blockiness == sorted(blockiness)
    assert facts(coffee).blockiness < 1.15 < blockiness[-1]


def test_dominant_colours_of_photos():
    assert "brown" in facts(photo("chelsea")).colour_names()         # the tabby cat
    assert {"navy", "teal"} & set(facts(photo("rocket")).colour_names())  # the evening sky
    assert facts(photo("camera")).mode == "L" and "red" not in facts(photo("camera")).colour_names()


def test_what_a_photo_shows_is_not_guessed_offline():
    cat = png(photo("chelsea"))
    for metric in ("cross_modal_grounding", "multimodal_coherence", "image-helpfulness"):
        result = check("A cat lying on a blanket, looking at the camera.", metric, image=cat,
                       query="What animal is this?")
        assert result.value is None and result.passed is None, metric
        assert "vision: true" in result.reason and "clip_model" in result.reason, metric


def test_colour_claims_about_a_photo_are_checked_and_nothing_else():
    cat = png(photo("chelsea"))
    brown = check("A brown cat on a gray blanket.", "cross_modal_grounding", image=cat)
    assert brown.value == 1.0 and brown.detail["evidence"] == "facts"
    assert "only the claims" in brown.detail["scope"]
    green = check("A green cat.", "cross_modal_grounding", image=cat)
    assert green.value == 0.0 and not green.passed


@OCR
def test_a_scanned_page_is_read_and_quotes_from_it_are_grounded():
    page = png(photo("page"))
    right = check('The page says "markers of the coins" and mentions "background".', "cross_modal_grounding",
                  image=page)
    assert right.value == 1.0 and right.detail["evidence"] == "ocr"
    wrong = check('The page says "edge detection with the Canny filter".', "cross_modal_grounding", image=page)
    assert wrong.value == 0.0 and "Canny" in wrong.reason


@OCR
def test_a_photo_without_text_reads_no_text():
    assert evidence.ocr_text(as_media(png(photo("coffee")))) == []
