"""Bench: the moderation metric on the labelled set tests/data/moderation (test rows by default).

For each of the 13 categories: positives, AUPRC (average precision) of the category score, and
precision / recall at the metric's default threshold (0.5); then the macro means, the "flagged at
all" balanced accuracy (any category ≥ 0.5 vs any label), and seconds per text. The same figures
for two baselines on the same rows: word overlap (each category's score is the Jaccard similarity
of the text's words to the most similar tuning row labelled with that category, minus that to the
most similar one not labelled with it, mapped to 0..1) and alt-profanity-check's P(offensive) used
as every category's score (when the package is installed).

Usage: python bench/moderation.py [--method classifier|both] [--split test|tune|all]
       [--cache PATH] [--save FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

from agentunit.judges.service import service_for, use_judge
from agentunit.moderation.metrics import DEFAULT_THRESHOLDS, moderation_scores
from agentunit.moderation.taxonomy import CATEGORIES
from agentunit.store.sqlite import Store

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "moderation" / "moderation.jsonl"
THRESHOLD = 0.5  # per method: DEFAULT_THRESHOLDS


def load(split: str) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
    return [r for r in rows if split == "all" or r["split"] == split]


def average_precision(scores: list[float], labels: list[int]) -> float | None:
    """Area under the precision-recall curve as the mean precision at each positive's rank (ties by
    score order, then label last, so a tie never flatters)."""
    positives = sum(labels)
    if not positives:
        return None
    ranked = sorted(zip(scores, labels, strict=True), key=lambda pair: (-pair[0], pair[1]))
    hits, total = 0, 0.0
    for rank, (_, label) in enumerate(ranked, 1):
        if label:
            hits += 1
            total += hits / rank
    return total / positives


def figures(scored: list[dict[str, float]], rows: list[dict[str, Any]]) -> dict[str, Any]:
    per: dict[str, dict[str, Any]] = {}
    for c in CATEGORIES:
        labels = [r["labels"][c] for r in rows]
        scores = [s[c] for s in scored]
        flagged = [x >= THRESHOLD for x in scores]
        tp = sum(f and y for f, y in zip(flagged, labels, strict=True))
        per[c] = {"positives": sum(labels), "auprc": average_precision(scores, labels),
                  "precision": tp / sum(flagged) if any(flagged) else None,
                  "recall": tp / sum(labels) if sum(labels) else None}
    any_label = [max(r["labels"].values()) for r in rows]
    any_flag = [max(s[c] for c in CATEGORIES) >= THRESHOLD for s in scored]
    pos = sum(any_label)
    tpr = sum(f and y for f, y in zip(any_flag, any_label, strict=True)) / pos
    tnr = sum((not f) and (not y) for f, y in zip(any_flag, any_label, strict=True)) / (len(rows) - pos)
    mean = {k: sum(p[k] or 0.0 for p in per.values()) / len(per) for k in ("auprc", "precision", "recall")}
    return {"per": per, "mean": mean, "flagged_ba": (tpr + tnr) / 2, "flagged_recall": tpr, "clean_kept": tnr}


_WORD = re.compile(r"\w+")


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def word_overlap_scores(rows: list[dict[str, Any]], reference: list[dict[str, Any]]) -> list[dict[str, float]]:
    refs = [(_words(r["text"]), r["labels"]) for r in reference]
    out = []
    for row in rows:
        words = _words(row["text"])
        sims = [(len(words & w) / len(words | w) if words | w else 0.0, labels) for w, labels in refs]
        scores = {}
        for c in CATEGORIES:
            pos = max((s for s, labels in sims if labels[c]), default=0.0)
            neg = max((s for s, labels in sims if not labels[c]), default=0.0)
            scores[c] = (1 + pos - neg) / 2
        out.append(scores)
    return out


def profanity_scores(rows: list[dict[str, Any]]) -> list[dict[str, float]] | None:
    try:
        from profanity_check import predict_prob
    except ImportError:
        return None
    probabilities = predict_prob([r["text"] for r in rows])
    return [dict.fromkeys(CATEGORIES, float(p)) for p in probabilities]


def _print(name: str, result: dict[str, Any], seconds: float | None = None) -> None:
    mean = result["mean"]
    cost = f", {seconds * 1000:.1f} ms/text" if seconds is not None else ""
    print(f"\n{name}: macro AUPRC {mean['auprc']:.3f}, precision {mean['precision']:.3f}, recall "
          f"{mean['recall']:.3f}; flagged-at-all BA {result['flagged_ba']:.3f} (recall {result['flagged_recall']:.3f},"
          f" clean kept {result['clean_kept']:.3f}){cost}")


def _cell(value: float | None) -> str:
    return f"{value:8.3f}" if value is not None else f"{'–':>8}"


def _table(result: dict[str, Any]) -> None:
    print(f"{'category':<24}{'pos':>5}{'AUPRC':>8}{'P':>8}{'R':>8}   (P, R at the threshold)")
    for c, p in result["per"].items():
        print(f"{c:<24}{p['positives']:>5}{_cell(p['auprc'])}{_cell(p['precision'])}{_cell(p['recall'])}")


async def _score_all(rows: list[dict[str, Any]], method: str) -> list[dict[str, float]]:
    out = []
    for row in rows:
        scores, _ = await moderation_scores(row["text"], method=method)
        out.append(scores)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--method", default="classifier", choices=("classifier", "both"))
    parser.add_argument("--split", default="test", choices=("test", "tune", "all"))
    parser.add_argument("--cache", default="/tmp/agentunit-moderation-bench.db")
    parser.add_argument("--save")
    args = parser.parse_args()
    rows = load(args.split)
    use_judge(None)
    service_for(None).store = Store(args.cache)
    global THRESHOLD
    THRESHOLD = DEFAULT_THRESHOLDS[args.method]
    asyncio.run(moderation_scores("warm-up", method="classifier"))  # model load is not per-text cost
    start = time.perf_counter()
    scored = asyncio.run(_score_all(rows, args.method))
    seconds = (time.perf_counter() - start) / len(rows)
    result = figures(scored, rows)
    print(f"{len(rows)} {args.split} rows of {DATA.relative_to(ROOT)}, method {args.method}, threshold {THRESHOLD}")
    _print(f"moderation ({args.method})", result, seconds)
    _table(result)
    if args.split != "tune":
        overlap = figures(word_overlap_scores(rows, load("tune")), rows)
        _print("baseline: word overlap with the tuning rows", overlap)
    profane = profanity_scores(rows)
    if profane is not None:
        _print("baseline: alt-profanity-check P(offensive) for every category", figures(profane, rows))
    if args.save:
        with open(args.save, "w") as fh:
            for row, scores in zip(rows, scored, strict=True):
                fh.write(json.dumps({"id": row["id"], "scores": scores}) + "\n")


if __name__ == "__main__":
    sys.exit(main())
