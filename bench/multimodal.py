"""Offline image pipeline: seconds per image for evidence extraction (visual facts, OCR) and the
accuracy of cross_modal_grounding (OCR + facts) and image_caption_accuracy on the labelled sets in
tests/data/multimodal/ (threshold 0.5; label 1 = grounded / same scene).

    HF_HUB_OFFLINE=1 .venv/bin/python bench/multimodal.py
"""

from __future__ import annotations

import hashlib
import io
import json
import time
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from agentunit import check
from agentunit.media import Media
from agentunit.multimodal import evidence

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "multimodal"
COLOURS = {"white": (255, 255, 255), "yellow": (255, 230, 0), "green": (0, 160, 0), "red": (220, 20, 20),
           "blue": (20, 40, 220), "orange": (255, 140, 0)}


def draw(sign: dict) -> bytes:
    image = Image.new("RGB", (480, 140), COLOURS[sign["background"]])
    ImageDraw.Draw(image).text((20, 40), sign["text"], fill=sign["ink"], font=ImageFont.load_default(size=40))
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def accuracy(rows: list[dict], score) -> tuple[float, int, int]:
    right = measured = 0
    for row in rows:
        value = score(row)
        if value is None:
            continue
        measured += 1
        right += (value >= 0.5) == bool(row["label"])
    return (right / measured if measured else 0.0), measured, len(rows)


def main() -> None:
    grounding = [json.loads(line) for line in (DATA / "grounding.jsonl").read_text().splitlines()]
    captions = [json.loads(line) for line in (DATA / "captions.jsonl").read_text().splitlines()]
    images = {json.dumps(r["sign"], sort_keys=True): draw(r["sign"]) for r in grounding}
    media = [Media("image", "image/png", d, hashlib.sha256(d).hexdigest(), "bench", len(d)) for d in images.values()]
    start = time.perf_counter()
    for m in media:
        evidence.image_facts(m)
    facts_s = (time.perf_counter() - start) / len(media)
    evidence.ocr_text(media[0])  # load the OCR models once, outside the timing
    evidence._OCR.clear()
    start = time.perf_counter()
    for m in media:
        evidence.ocr_text(m)
    ocr_s = (time.perf_counter() - start) / len(media)
    print(f"images: {len(media)} (480x140 signs)")
    print(f"visual facts: {facts_s:.4f} s/image   OCR: {ocr_s:.3f} s/image")

    def ground(row):
        image = images[json.dumps(row["sign"], sort_keys=True)]
        return check(row["output"], "cross_modal_grounding", image=image).value

    def caption(row):
        return check(row["output"], {"metric": "image_caption_accuracy", "value": row["expected"]}).value

    for name, rows, score in (("cross_modal_grounding (OCR + facts)", grounding, ground),
                              ("image_caption_accuracy", captions, caption)):
        acc, measured, total = accuracy(rows, score)
        print(f"{name}: accuracy {acc:.3f} on {measured}/{total} measured cases")


if __name__ == "__main__":
    main()
