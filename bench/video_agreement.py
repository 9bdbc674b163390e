"""Bench: agreement of the judged video metrics with the labelled sets of tests/data/video/ (built by its
build.py; clips rendered from their specs at run time), offline — OCR and visual facts of the sampled
frames, and the embedded text judge for ``video-g-eval`` — at each metric's default pass mark
(0.5; 0.61 for video-g-eval), label 1 = pass. Nothing is tuned: no threshold, weight or prompt was
changed after looking at results.

Per metric and split (test, tune, all): rows; not measured (its own figure, never a pass); balanced
accuracy (BA) with a not-measured row counted as a wrong verdict, and over the measured rows only;
pass / fail recall; ROC AUC of the score over the measured rows; seconds per case; judge calls per case
and seconds per judge call. Then two baselines on the same rows, from the same OCR text (the 8 frames
the metrics sample, read by the same OCR model):

- keyword: the share of the text's key terms (figures, capitalised names, quoted strings — the rule of
  tests/data/labelled/baselines.py; its content words when it has none) found in the frames' OCR text,
  spaces and case ignored;
- word overlap: Jaccard of the content words of the text and of the OCR text.

The text is the prompt (text-to-video), the output (video-factual-consistency) or the rubric
(video-g-eval). Each baseline passes at the cut with the best BA on the tune rows; its AUC needs no
cut. Then per kind. ``video_response_relevance`` has no set: offline it is never measured (relevance to
what a frame shows needs CLIP or a vision judge).

``--write-ocr`` stores the OCR text per clip in tests/data/video/ocr.json (so the baselines can be
recomputed with ``--baselines-only`` and no OCR model). The judge is the embedded one, one thread
(``--judge-json``, default ``{"provider": "local", "threads": 1}``), its replies cached in ``--cache``.

    HF_HUB_OFFLINE=1 .venv/bin/python bench/video_agreement.py [--metric NAME] [--split test|tune|all]
        [--cache /tmp/video-judge.db] [--save rows.jsonl] [--write-ocr] [--baselines-only]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "video"
sys.path.insert(0, str(DATA))
sys.path.insert(0, str(ROOT / "tests" / "data" / "labelled"))
import baselines as text_baselines  # noqa: E402  (tests/data/labelled/baselines.py: the key-term rule)
import build  # noqa: E402  (tests/data/video/build.py: the clips)

from agentunit import check  # noqa: E402
from agentunit.calibration.stats import best_threshold  # noqa: E402
from agentunit.calibration.stats import roc_auc as auc  # noqa: E402
from agentunit.multimodal.metrics import content_words  # noqa: E402

METRICS = {name: file for file, name in build.SETS.items()}
PASS_MARK = {"text-to-video": 0.5, "video-factual-consistency": 0.5, "video-g-eval": 0.61}
TEXT = {"text-to-video": "prompt", "video-factual-consistency": "output", "video-g-eval": "rubric"}
OCR_FILE = DATA / "ocr.json"

_RENDERED: dict[str, bytes] = {}


def load(metric: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (DATA / METRICS[metric]).read_text().splitlines()]


def video(row: dict[str, Any]) -> bytes:
    if row["clip_id"] not in _RENDERED:
        _RENDERED[row["clip_id"]] = build.render(row["clip"])
    return _RENDERED[row["clip_id"]]


# -- OCR of the sampled frames (the metrics' plan, so their OCR cache is shared) ----------------------

def read_frames(data: bytes) -> list[str]:
    """The OCR text of each of the 8 frames the judged metrics sample."""
    from agentunit.multimodal import evidence
    from agentunit.video.decode import FramePlan, decode_video
    from agentunit.video.frames import frame_media
    from agentunit.video.metrics import SEMANTIC_SIDE

    decoded = decode_video(data, "video/x-msvideo", "video", FramePlan("even", count=8, max_frames=8,
                                                                        max_side=SEMANTIC_SIDE))
    return [" ".join(line["text"] for line in evidence.ocr_text(frame_media(f, "video"))) for f in decoded.frames]


# -- the baselines ------------------------------------------------------------------------------------

def _squash(value: str) -> str:
    return "".join(value.lower().split())


def key_terms(text: str) -> list[str]:
    terms = [t.strip("'\"`.,;:!?") for t in text_baselines._KEY_TERM.findall(text)]
    return [t for t in terms if t] or content_words(text)


def keyword_share(text: str, seen: str) -> float:
    terms = key_terms(text)
    return sum(_squash(t) in _squash(seen) for t in terms) / len(terms) if terms else 0.0


def jaccard(a: str, b: str) -> float:
    x, y = set(content_words(a)), set(content_words(b))
    return len(x & y) / len(x | y) if x | y else 0.0


# -- figures ------------------------------------------------------------------------------------------



def _recall(items: list[dict[str, Any]], label: int, key: str = "passed") -> float | None:
    of = [i for i in items if i["label"] == label]
    return sum(i[key] is not None and i[key] == bool(label) for i in of) / len(of) if of else None


def _ba(items: list[dict[str, Any]], key: str = "passed") -> float | None:
    p, f = _recall(items, 1, key), _recall(items, 0, key)
    return None if p is None or f is None else (p + f) / 2


def figures(items: list[dict[str, Any]]) -> dict[str, Any]:
    measured = [i for i in items if i["value"] is not None]
    return {"rows": len(items), "not_measured": len(items) - len(measured), "ba": _ba(items),
            "ba_measured": _ba(measured), "pass": _recall(items, 1), "fail": _recall(items, 0),
            "auc": auc([i["value"] for i in measured], [i["label"] for i in measured])}


def _f(value: Any) -> str:
    return "–" if value is None else f"{value:.3f}"


# -- one metric ---------------------------------------------------------------------------------------

def score(metric: str, row: dict[str, Any]):
    data = video(row)
    if metric == "text-to-video":
        return check("", "text-to-video", query=row["prompt"], video=data)
    if metric == "video-factual-consistency":
        return check(row["output"], "video-factual-consistency", video=data)
    return check("", {"metric": "video-g-eval", "value": row["rubric"]}, video=data)


def run_metric(metric: str, split: str, ocr: dict[str, list[str]], service: Any, baselines_only: bool
               ) -> list[dict[str, Any]]:
    rows = load(metric)
    chosen = rows if split == "all" else [r for r in rows if r["split"] == split]
    scored = []
    calls = hits = 0
    start = time.perf_counter()
    judge_seconds = 0.0
    for row in chosen:
        item = {"id": row["id"], "kind": row["kind"], "split": row["split"], "label": row["label"],
                "value": None, "passed": None, "reason": None}
        if not baselines_only:
            c0, h0, t0 = service.stats.calls, service.stats.cache_hits, time.perf_counter()
            result = score(metric, row)
            if result.error:
                raise SystemExit(f"{row['id']}: {result.error}")
            item.update(value=result.value, reason=result.reason,
                        passed=None if result.value is None else result.value >= PASS_MARK[metric])
            dc = service.stats.calls - c0
            calls, hits = calls + dc, hits + service.stats.cache_hits - h0
            if dc:
                judge_seconds += time.perf_counter() - t0
        seen = " ".join(ocr[row["clip_id"]])
        text = row[TEXT[metric]]
        item["keyword"], item["overlap"] = keyword_share(text, seen), jaccard(text, seen)
        scored.append(item)
    seconds = time.perf_counter() - start
    # baseline cuts from the tune rows (all rows are read for that, whatever the split shown)
    tune = [r for r in rows if r["split"] == "tune"]
    cuts = {}
    for key, fn in (("keyword", keyword_share), ("overlap", jaccard)):
        values = [fn(r[TEXT[metric]], " ".join(ocr[r["clip_id"]])) for r in tune]
        best = best_threshold(values, [bool(r["label"]) for r in tune])
        cuts[key] = best.threshold
    for item in scored:
        item["keyword_pass"] = item["keyword"] >= cuts["keyword"]
        item["overlap_pass"] = item["overlap"] >= cuts["overlap"]
    print(f"\n{metric} [{split}] ({METRICS[metric]}; pass mark {PASS_MARK[metric]}; baseline cuts from tune: "
          f"keyword share ≥ {cuts['keyword']:.3f}, Jaccard ≥ {cuts['overlap']:.3f})")
    if not baselines_only:
        print(f"  cost: {seconds / len(chosen):.2f} s/case (decode + claim checks or judge; OCR read above), "
              f"{(calls + hits) / len(chosen):.2f} judge calls/case ({hits} from the cache), "
              f"{judge_seconds / max(calls, 1):.2f} s per judge call (judged cases' time / calls)")
    parts = [(name, [i for i in scored if i["split"] == name]) for name in ("tune", "test")] + [("all", scored)] \
        if split == "all" else [(split, scored)]
    mark = None
    if split == "all" and not baselines_only:
        # the metric's best pass mark on the tune rows (measured ones): a guide for ``threshold:``, never the
        # default; its BA on the test rows is printed next to the default's
        tune_items = [i for i in scored if i["split"] == "tune" and i["value"] is not None]
        best = best_threshold([i["value"] for i in tune_items], [bool(i["label"]) for i in tune_items])
        mark = None if best is None else best.threshold
    for name, items in parts:
        f = figures(items)
        line = f"  {name:<5} rows={f['rows']}"
        if not baselines_only:
            line += (f" not_measured={f['not_measured']} BA={_f(f['ba'])} (measured only {_f(f['ba_measured'])}) "
                     f"pass={_f(f['pass'])} fail={_f(f['fail'])} AUC={_f(f['auc'])}")
            if mark is not None:
                marked = [{**i, "passed": None if i["value"] is None else i["value"] >= mark} for i in items]
                line += f" | at the tune mark {mark:.3f} BA={_f(_ba(marked))}"
        line += (f" | keyword BA={_f(_ba(items, 'keyword_pass'))} AUC="
                 f"{_f(auc([i['keyword'] for i in items], [i['label'] for i in items]))}"
                 f" | Jaccard BA={_f(_ba(items, 'overlap_pass'))} AUC="
                 f"{_f(auc([i['overlap'] for i in items], [i['label'] for i in items]))}")
        print(line)
    by_kind: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    for item in scored:
        by_kind[(item["kind"], item["label"])].append(item)
    for (kind, label), items in sorted(by_kind.items(), key=lambda kv: (-kv[0][1], kv[0][0])):
        right = sum(i["passed"] == bool(label) for i in items if i["passed"] is not None)
        nm = sum(i["value"] is None for i in items)
        kw = sum(i["keyword_pass"] == bool(label) for i in items)
        ov = sum(i["overlap_pass"] == bool(label) for i in items)
        metric_part = "" if baselines_only else f"right={right:<3} not_measured={nm:<3} "
        print(f"    {kind:<26} label={label} n={len(items):<3} {metric_part}keyword right={kw:<3} Jaccard right={ov}")
    return scored


def relevance_not_measured(split: str) -> None:
    """video_response_relevance offline on the factual set's outputs: how many are not measured, and why.
    (No labels apply: every output there is about its clip, true or false.)"""
    rows = [r for r in load("video-factual-consistency") if split == "all" or r["split"] == split]
    results = [check(r["output"], "video_response_relevance", video=video(r)) for r in rows]
    missing = [x for x in results if x.value is None]
    print(f"\nvideo_response_relevance [{split}] on the factual outputs: not measured on {len(missing)} of "
          f"{len(rows)} rows — {missing[0].reason if missing else ''}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--metric", choices=sorted(METRICS), action="append", default=None)
    parser.add_argument("--split", choices=("test", "tune", "all"), default="test")
    parser.add_argument("--judge-json", default='{"provider": "local", "threads": 1}')
    parser.add_argument("--cache", default="/tmp/agentunit-video-judge.db")
    parser.add_argument("--save", default=None, help="write one JSON line per scored row")
    parser.add_argument("--write-ocr", action="store_true", help="(re)write tests/data/video/ocr.json")
    parser.add_argument("--relevance", action="store_true",
                        help="also run video_response_relevance on the factual rows' outputs (not measured offline)")
    parser.add_argument("--baselines-only", action="store_true", help="baselines from ocr.json, no metric or OCR")
    args = parser.parse_args()
    metrics = args.metric or list(METRICS)

    from agentunit.judges.service import service_for, use_judge
    from agentunit.store.sqlite import Store

    judge = json.loads(args.judge_json)
    service = service_for(judge)
    if not args.baselines_only:
        use_judge(judge)
        service.store = Store(args.cache)

    if args.baselines_only:
        ocr = json.loads(OCR_FILE.read_text())
    else:
        from agentunit.multimodal import evidence

        wanted = list(METRICS) if args.write_ocr else metrics
        clips = {r["clip_id"]: r for m in wanted for r in load(m)
                 if args.write_ocr or args.split == "all" or r["split"] == args.split}
        evidence.ocr_text(evidence_probe())  # load the OCR model off the clock
        evidence._OCR.clear()
        start = time.perf_counter()
        fresh = {key: read_frames(video(row)) for key, row in sorted(clips.items())}
        elapsed = time.perf_counter() - start
        frames = 8 * len(clips)
        # the baselines' cuts read every tune row: stored text for the clips not read here
        ocr = {**(json.loads(OCR_FILE.read_text()) if OCR_FILE.exists() else {}), **fresh}
        print(f"clips: {len(clips)} (640x360, 5 fps, 4.4-8 s, Motion JPEG); render + decode + OCR of the 8 sampled "
              f"frames: {elapsed / len(clips):.2f} s per clip ({elapsed / frames:.3f} s per frame)")
        if args.write_ocr:
            OCR_FILE.write_text(json.dumps(fresh, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
            print(f"OCR text of {len(fresh)} clips → {OCR_FILE}")
        # each metric then pays its own decode and claim checks but not OCR again (cached by frame hash)
    saved = []
    for metric in metrics:
        if metric == "video-g-eval" and not args.baselines_only:
            import asyncio

            from agentunit.judges.service import pass_fail

            asyncio.run(pass_fail("Reply PASS or FAIL.", "Warm-up: reply PASS."))  # load the judge off the clock
        saved += [{"metric": metric, **item} for item in run_metric(metric, args.split, ocr, service,
                                                                    args.baselines_only)]
    if not args.baselines_only and args.relevance:
        relevance_not_measured(args.split)
    if args.save:
        Path(args.save).write_text("".join(json.dumps(item) + "\n" for item in saved))


def evidence_probe():
    """A small image with text, to load the OCR model before timing."""
    import hashlib

    import cv2
    import numpy as np

    from agentunit.media import Media

    image = np.full((80, 240, 3), 255, np.uint8)
    cv2.putText(image, "WARM UP", (10, 55), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (0, 0, 0), 2)
    data = cv2.imencode(".png", image)[1].tobytes()
    return Media("image", "image/png", data, hashlib.sha256(data).hexdigest(), "warm-up", len(data))


if __name__ == "__main__":
    main()
