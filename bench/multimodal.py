"""Offline image pipeline: seconds per image for evidence extraction (visual facts, OCR), then each image
metric's agreement with its labelled set in tests/data/multimodal/ (built by its build.py; the scenes
are drawn from their specs at run time), at the metric's threshold 0.5, label 1 = pass.

For every metric: rows, share measured, balanced accuracy with a not-measured row counted wrong and
among measured rows only, pass / fail recall (not measured counted wrong), ROC AUC of the score over
the measured rows, seconds and judge calls per case (the embedded judge, loaded before the clock
starts; OCR and facts caches emptied per metric, so each pays its own OCR); then the word-overlap
baseline on the same rows: Jaccard of content words between the output (or expected answer, or
query) and the image's OCR text (or the reference caption), passing at the cut with the best balanced
accuracy on the tune rows. Also the metric's own best pass mark on the tune rows and the balanced
accuracy it gives (a guide for ``threshold:``; the defaults stay 0.5). Figures are printed for all
rows and for the test rows; then per kind. With ``--cache`` a rerun takes its judge replies from the
cache, so its seconds per case are not the judge's.

    HF_HUB_OFFLINE=1 .venv/bin/python bench/multimodal.py [--metric NAME] [--cache judge.db] [--save rows.jsonl]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import hashlib
import io
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from agentunit import check
from agentunit.calibration.stats import best_threshold
from agentunit.calibration.stats import roc_auc as auc
from agentunit.judges.service import current_judge, pass_fail
from agentunit.media import Media
from agentunit.multimodal import evidence
from agentunit.multimodal.metrics import content_words

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "multimodal"
sys.path.insert(0, str(DATA))
import build  # noqa: E402  (tests/data/multimodal/build.py: the scenes' drawing)

COLOURS = {"white": (255, 255, 255), "yellow": (255, 230, 0), "green": (0, 160, 0), "red": (220, 20, 20),
           "blue": (20, 40, 220), "orange": (255, 140, 0)}
# metric -> its set
SETS = {"cross_modal_grounding": "grounding.jsonl", "image_caption_accuracy": "captions.jsonl",
        "multimodal_coherence": "coherence.jsonl", "image-helpfulness": "helpfulness.jsonl",
        "multimodal-contextual-relevancy": "relevancy.jsonl", "multimodal-contextual-recall": "recall.jsonl"}


def draw(sign: dict) -> bytes:
    image = Image.new("RGB", (480, 140), COLOURS[sign["background"]])
    ImageDraw.Draw(image).text((20, 40), sign["text"], fill=sign["ink"], font=ImageFont.load_default(size=40))
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def media(data: bytes) -> Media:
    return Media("image", "image/png", data, hashlib.sha256(data).hexdigest(), "bench", len(data))


_DRAWN: dict[str, bytes] = {}


def scene(spec: dict) -> bytes:
    key = json.dumps(spec, sort_keys=True)
    if key not in _DRAWN:
        _DRAWN[key] = draw(spec) if "text" in spec and "type" not in spec else build.draw(spec)
    return _DRAWN[key]


def uri(spec: dict) -> str:
    return "data:image/png;base64," + base64.b64encode(scene(spec)).decode()


def load(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (DATA / name).read_text().splitlines()]


# -- one row through its metric -----------------------------------------------------------------------

def score(metric: str, row: dict[str, Any]):
    if metric == "cross_modal_grounding":
        return check(row["output"], metric, image=scene(row["sign"]))
    if metric == "image_caption_accuracy":
        return check(row["output"], {"metric": metric, "value": row["expected"]})
    if metric == "multimodal_coherence":
        return check(row["output"], metric, image=scene(row["image"]))
    if metric == "image-helpfulness":
        return check({"output": row["output"], "trusys": {"image": uri(row["image"])}}, metric, query=row["query"])
    context = [{"image": uri(c["image"])} if isinstance(c, dict) else c for c in row["context"]]
    reply = {"output": row.get("output", ""), "trusys": {"context": context}}
    if metric == "multimodal-contextual-relevancy":
        return check(reply, metric, query=row["query"])
    return check(reply, {"metric": metric, "value": row["expected"]}, query=row["query"])


# -- the word-overlap baseline ------------------------------------------------------------------------

def _ocr(spec: dict) -> str:
    return " ".join(line["text"] for line in evidence.ocr_text(media(scene(spec))))


def _jaccard(a: str, b: str) -> float:
    x, y = set(content_words(a)), set(content_words(b))
    return len(x & y) / len(x | y) if x | y else 0.0


def overlap(metric: str, row: dict[str, Any]) -> float:
    if metric == "cross_modal_grounding":
        return _jaccard(row["output"], _ocr(row["sign"]))
    if metric == "image_caption_accuracy":
        return _jaccard(row["output"], row["expected"])
    if metric == "multimodal_coherence":
        return _jaccard(row["output"], _ocr(row["image"]))
    if metric == "image-helpfulness":
        return _jaccard(f"{row['query']} {row['output']}", _ocr(row["image"]))
    items = [_ocr(c["image"]) if isinstance(c, dict) else c for c in row["context"]]
    if metric == "multimodal-contextual-relevancy":
        return sum(_jaccard(row["query"], item) for item in items) / len(items)
    return _jaccard(row["expected"], " ".join(items))


# -- figures ------------------------------------------------------------------------------------------



def figures(items: list[dict[str, Any]]) -> dict[str, Any]:
    """Balanced accuracy etc.; a not-measured row counts as a wrong verdict except in ``ba_measured``."""
    def recall(label: int, rows: list[dict[str, Any]]) -> float | None:
        of = [r for r in rows if r["label"] == label]
        return sum(r["passed"] == bool(label) for r in of) / len(of) if of else None

    def ba(rows: list[dict[str, Any]]) -> float | None:
        p, f = recall(1, rows), recall(0, rows)
        return None if p is None or f is None else (p + f) / 2

    measured = [r for r in items if r["value"] is not None]
    right = sum(r["passed"] == bool(r["label"]) for r in measured)
    return {"rows": len(items), "measured": len(measured), "ba": ba(items), "ba_measured": ba(measured),
            "accuracy_measured": right / len(measured) if measured else None,
            "pass": recall(1, items), "fail": recall(0, items),
            "auc": auc([r["value"] for r in measured], [r["label"] for r in measured])}


def baseline_ba(items: list[dict[str, Any]], cut: float | None) -> float | None:
    if cut is None:
        return None
    rows = [(r["overlap"] >= cut, bool(r["label"])) for r in items]
    pos = [p for p, y in rows if y]
    neg = [not p for p, y in rows if not y]
    return (sum(pos) / len(pos) + sum(neg) / len(neg)) / 2 if pos and neg else None


def marked_ba(items: list[dict[str, Any]], mark: float | None) -> float | None:
    """Balanced accuracy with the pass mark ``mark`` (not measured still counted wrong)."""
    if mark is None:
        return None
    return figures([{**i, "passed": None if i["value"] is None else i["value"] >= mark} for i in items])["ba"]


def _f(value: Any) -> str:
    return "–" if value is None else f"{value:.3f}"


def run_metric(metric: str, service: Any) -> list[dict[str, Any]]:
    rows = load(SETS[metric])
    evidence._OCR.clear()
    evidence._FACTS.clear()
    calls, hits, start = service.stats.calls, service.stats.cache_hits, time.perf_counter()
    scored = []
    for row in rows:
        result = score(metric, row)
        scored.append({"id": row["id"], "kind": row["kind"], "split": row["split"], "label": row["label"],
                       "value": result.value, "passed": None if result.value is None else result.value >= 0.5,
                       "reason": result.reason, "evidence": (result.detail or {}).get("evidence")})
    seconds, calls, hits = time.perf_counter() - start, service.stats.calls - calls, service.stats.cache_hits - hits
    for item, row in zip(scored, rows, strict=True):
        item["overlap"] = overlap(metric, row)
    tune = [s for s in scored if s["split"] == "tune"]
    best = best_threshold([s["overlap"] for s in tune], [bool(s["label"]) for s in tune])
    cut = None if best is None else best.threshold
    # The metric's own best pass mark on the tune rows (measured ones), for the test rows: a guide for
    # config threshold, never the default.
    tuned = best_threshold([s["value"] for s in tune if s["value"] is not None],
                           [bool(s["label"]) for s in tune if s["value"] is not None])
    mark = None if tuned is None else tuned.threshold
    images = len({json.dumps(c, sort_keys=True) for row in rows for c in _specs(row)})
    print(f"\n{metric}  ({SETS[metric]}: {len(rows)} rows, {images} images; "
          f"{seconds / len(rows):.2f} s/case, {(calls + hits) / len(rows):.2f} judge calls/case"
          f"{f' ({hits} from the cache)' if hits else ''}; baseline cut (tune) {_f(cut)}, "
          f"metric's best mark on tune {_f(mark)})")
    for split in ("all", "test"):
        items = scored if split == "all" else [s for s in scored if s["split"] == "test"]
        f = figures(items)
        print(f"  {split:<5} rows={f['rows']:<3} measured={f['measured'] / f['rows']:.2f}  BA={_f(f['ba'])} "
              f"(measured only {_f(f['ba_measured'])})  pass={_f(f['pass'])} fail={_f(f['fail'])} "
              f"AUC={_f(f['auc'])} accuracy(measured)={_f(f['accuracy_measured'])} "
              f"| at the tune mark BA={_f(marked_ba(items, mark))} | jaccard baseline BA={_f(baseline_ba(items, cut))}")
    by_kind: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    for item in scored:
        by_kind[(item["kind"], item["label"])].append(item)
    for (kind, label), items in sorted(by_kind.items()):
        right = sum(i["passed"] == bool(label) for i in items)
        measured = sum(i["value"] is not None for i in items)
        print(f"    {kind:<22} label={label} n={len(items):<3} right={right:<3} measured={measured}")
    return scored


def _specs(row: dict[str, Any]) -> list[dict]:
    if "sign" in row:
        return [row["sign"]]
    if "image" in row:
        return [row["image"]]
    return [c["image"] for c in row.get("context", []) if isinstance(c, dict)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--metric", choices=sorted(SETS), default=None, help="run this metric's set only")
    parser.add_argument("--cache", default=None, help="judge cache (SQLite): reruns cost no judge time")
    parser.add_argument("--save", default=None, help="write one JSON line per scored row")
    args = parser.parse_args()

    grounding = load("grounding.jsonl")
    images = {json.dumps(r["sign"], sort_keys=True): draw(r["sign"]) for r in grounding}
    signs = [media(d) for d in images.values()]
    start = time.perf_counter()
    for m in signs:
        evidence.image_facts(m)
    facts_s = (time.perf_counter() - start) / len(signs)
    evidence.ocr_text(signs[0])  # load the OCR models once, outside the timing
    evidence._OCR.clear()
    start = time.perf_counter()
    for m in signs:
        evidence.ocr_text(m)
    ocr_s = (time.perf_counter() - start) / len(signs)
    scenes = [media(build.draw(spec)) for spec in build.all_specs()]
    start = time.perf_counter()
    for m in scenes:
        evidence.ocr_text(m)
    scene_s = (time.perf_counter() - start) / len(scenes)
    print(f"images: {len(signs)} (480x140 signs), {len(scenes)} scenes (charts, receipts, tables, screenshots, "
          "slides, signs; 360x240 to 640x420)")
    print(f"visual facts: {facts_s:.4f} s/image   OCR: {ocr_s:.3f} s/image (signs), "
          f"{scene_s:.3f} s/image (scenes)")

    service = current_judge()
    if args.cache:
        from agentunit.store.sqlite import Store

        service.store = Store(args.cache)
    metrics = [args.metric] if args.metric else list(SETS)
    if any(m in metrics for m in ("image-helpfulness", "multimodal-contextual-relevancy",
                                  "multimodal-contextual-recall")):
        asyncio.run(pass_fail("Reply PASS or FAIL.", "Warm-up: reply PASS."))  # load the judge off the clock
    saved = []
    for metric in metrics:
        saved += [{"metric": metric, **item} for item in run_metric(metric, service)]
    if args.save:
        Path(args.save).write_text("".join(json.dumps(item) + "\n" for item in saved))


if __name__ == "__main__":
    main()
