"""Writes tests/data/multimodal/ocr.json: the text the shipped OCR model (PP-OCRv4, through
agentunit.multimodal.evidence) reads in every image of the labelled multimodal sets, keyed by the
image's spec (its JSON, keys sorted). bench/baselines.py computes the multimodal word-overlap and
keyword baselines from it, so they run in a second with no model; bench/multimodal.py reads the same
OCR live (its Jaccard baseline is the same figure). Rerun after the sets or the OCR model change:

    HF_HUB_OFFLINE=1 .venv/bin/python bench/multimodal_ocr.py   (about 2 s per image on 2 cores)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import multimodal  # (bench/multimodal.py: the scenes and the OCR call)

OUT = multimodal.DATA / "ocr.json"


def main() -> None:
    specs = {}
    for name in multimodal.SETS.values():
        for row in multimodal.load(name):
            for spec in multimodal._specs(row):
                specs[json.dumps(spec, sort_keys=True)] = spec
    texts = {key: multimodal._ocr(spec) for key, spec in sorted(specs.items())}
    OUT.write_text(json.dumps(texts, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(texts)} images → {OUT}")


if __name__ == "__main__":
    main()
