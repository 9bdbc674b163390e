"""The labelled image sets of tests/data/multimodal/: their shape, that they match build.py, that their
scenes draw deterministically, and one offline metric on a few rows (no judge)."""

import hashlib
import importlib.util
import json
from collections import Counter
from pathlib import Path

import pytest

from agentunit import check
from agentunit.multimodal import evidence
from agentunit.multimodal.metrics import covered_words

DATA = Path(__file__).resolve().parent.parent / "data" / "multimodal"
SETS = {"grounding.jsonl": "cross_modal_grounding", "captions.jsonl": "image_caption_accuracy",
        "coherence.jsonl": "multimodal_coherence", "helpfulness.jsonl": "image-helpfulness",
        "relevancy.jsonl": "multimodal-contextual-relevancy", "recall.jsonl": "multimodal-contextual-recall"}
FIELDS = {"cross_modal_grounding": ("sign", "output"), "image_caption_accuracy": ("expected", "output"),
          "multimodal_coherence": ("image", "output"), "image-helpfulness": ("image", "query", "output"),
          "multimodal-contextual-relevancy": ("context", "query"),
          "multimodal-contextual-recall": ("context", "expected")}
OCR = pytest.mark.skipif(evidence.ocr_status() is not None, reason="OCR unavailable")


def _build():
    spec = importlib.util.spec_from_file_location("multimodal_build", DATA / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build = _build()


def rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text().splitlines()]


def _specs(row: dict) -> list[dict]:
    found = [row[key] for key in ("image",) if key in row]
    return found + [item["image"] for item in row.get("context", []) if isinstance(item, dict)]


@pytest.mark.parametrize("name", sorted(SETS))
def test_each_set_has_40_rows_both_labels_in_each_split_and_unique_ids(name):
    items = rows(name)
    assert len(items) >= 40
    assert len({r["id"] for r in items}) == len(items)
    assert {r["metric"] for r in items} == {SETS[name]}
    counts = Counter((r["split"], r["label"]) for r in items)
    for split in ("tune", "test"):
        assert counts[(split, 0)] >= 10 and counts[(split, 1)] >= 10, (split, counts)
    labels = Counter(r["label"] for r in items)
    assert abs(labels[0] - labels[1]) <= len(items) // 2  # roughly balanced
    for row in items:
        assert row["kind"] and row["group"] and all(row.get(f) for f in FIELDS[SETS[name]]), row["id"]
    # a group (a scene pair) never straddles the split
    splits = {}
    for row in items:
        assert splits.setdefault(row["group"], row["split"]) == row["split"], row["group"]


def test_scene_sets_match_build_py():
    for name, items in build.scene_rows().items():
        assert rows(name) == items, f"{name} is stale: run python tests/data/multimodal/build.py"


def test_every_referenced_scene_exists_and_draws_the_same_bytes_twice():
    known = {json.dumps(s, sort_keys=True) for s in build.all_specs()}
    for name in ("coherence.jsonl", "helpfulness.jsonl", "relevancy.jsonl", "recall.jsonl"):
        for row in rows(name):
            for spec in _specs(row):
                assert json.dumps(spec, sort_keys=True) in known, row["id"]
    for spec in build.all_specs():
        first, second = build.draw(spec), build.draw(spec)
        assert first[:8] == b"\x89PNG\r\n\x1a\n" and hashlib.sha256(first).digest() == hashlib.sha256(second).digest()


# One row of each sort the offline coherence gets right: faithful descriptions, and descriptions of
# the neighbouring image. Breaking OCR, coverage or the claim check breaks these.
COHERENCE_ROWS = ["multimodal_coherence-sales-2024-pass-faithful_quoted",
                  "multimodal_coherence-bluetooth-settings-pass-faithful_quoted",
                  "multimodal_coherence-first-aid-pass-faithful_quoted",
                  "multimodal_coherence-bluetooth-settings-fail-other_image",
                  "multimodal_coherence-delivery-hours-fail-other_image",
                  "multimodal_coherence-first-aid-fail-other_image"]


@OCR
def test_offline_coherence_agrees_with_the_labels_on_six_rows():
    by_id = {r["id"]: r for r in rows("coherence.jsonl")}
    for row_id in COHERENCE_ROWS:
        row = by_id[row_id]
        result = check(row["output"], "multimodal_coherence", image=build.draw(row["image"]))
        assert result.value is not None and result.passed == bool(row["label"]), (row_id, result.reason)


def test_coverage_counts_words_ocr_glued_together():
    assert covered_words({"insufficientfunds", "card", "e402", "off"}, "Declined for insufficient funds.") \
        == {"insufficientfunds"}
    assert covered_words({"10", "off"}, "It is 100 and offline.") == set()  # short words match whole only


@OCR
def test_coherence_coverage_with_ocr_that_drops_spaces():
    from .images import as_media, solid

    image = solid((17, 99, 201), (80, 40))
    box = [[0, 0], [1, 0], [1, 1], [0, 1]]
    evidence._OCR[as_media(image).sha256] = [{"text": text, "score": 0.99, "box": box}
                                             for text in ("GREENLEAFCAFE", "TOTAL 10.50")]
    try:
        result = check('The receipt from "Green Leaf Cafe" totals 10.50.', "multimodal_coherence", image=image)
    finally:
        evidence._OCR.pop(as_media(image).sha256, None)
    assert result.detail["coverage"] == 1.0 and result.detail["missing_words"] == []
    assert result.detail["coherence"] == 1.0


def test_colour_words_inside_quoted_or_all_caps_text_are_not_colour_claims():
    from agentunit.multimodal.metrics import extract_claims

    assert extract_claims('The receipt from "Green Leaf Cafe".') == [{"kind": "text", "value": "Green Leaf Cafe"}]
    assert extract_claims("The RED LION PUB sign is white.") == [{"kind": "text", "value": "RED LION PUB"},
                                                                  {"kind": "colour", "value": "white"}]


def test_reading_order_keeps_the_cells_of_a_row_together():
    from agentunit.multimodal.evidence import reading_order

    def box(text, x, top, height=20):
        return {"text": text, "score": 0.9, "box": [[x, top], [x + 50, top], [x + 50, top + height], [x, top + height]]}

    # a receipt line whose price box starts 3 px higher than its item, then the next line
    lines = [box("Latte", 30, 100), box("3.80", 260, 97), box("Orange juice", 30, 134), box("4.20", 260, 131),
             box("TOTAL", 30, 180, 24), box("10.50", 250, 178, 24)]
    assert [item["text"] for item in reading_order(lines)] == ["Latte", "3.80", "Orange juice", "4.20", "TOTAL",
                                                                "10.50"]
