"""Bench: precision and recall per PII type on tests/data/pii_dev.jsonl, plus throughput.

A detected span matches a labelled span of the same type when they overlap by at least half of the
longer one (IoU-style on characters). Usage: python bench/pii_detection.py [--no-ner] [--errors]
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path

from agentunit.privacy.detectors import PII_TYPES, STRUCTURED_TYPES, detect_pii

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "pii_dev.jsonl"


def _overlaps(a: dict, b: dict) -> bool:
    common = min(a["end"], b["end"]) - max(a["start"], b["start"])
    return common > 0 and common >= 0.5 * max(a["end"] - a["start"], b["end"] - b["start"])


def score_rows(rows: list[dict], ner: bool = True) -> tuple[dict[str, Counter], list[str], float]:
    """Per-type true positives, false positives and false negatives; the mistakes; seconds spent."""
    counts: dict[str, Counter] = {t: Counter() for t in PII_TYPES}
    mistakes = []
    start = time.perf_counter()
    for row in rows:
        found = [{"type": f.type, "start": f.start, "end": f.end} for f in detect_pii(row["text"], ner=ner)]
        gold = row["spans"]
        for g in gold:
            hit = any(f["type"] == g["type"] and _overlaps(f, g) for f in found)
            counts[g["type"]]["tp" if hit else "fn"] += 1
            if not hit:
                mistakes.append(f"MISS {g['type']}: {row['text'][g['start']:g['end']]!r}  in {row['text'][:90]!r}")
        for f in found:
            if not any(f["type"] == g["type"] and _overlaps(f, g) for g in gold):
                counts[f["type"]]["fp"] += 1
                mistakes.append(f"FALSE {f['type']}: {row['text'][f['start']:f['end']]!r}  in {row['text'][:90]!r}")
    return counts, mistakes, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--no-ner", action="store_true", help="patterns only (no spaCy model)")
    parser.add_argument("--errors", action="store_true", help="print every miss and false finding")
    args = parser.parse_args()
    rows = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
    detect_pii("warm up the NER model", ner=not args.no_ner)
    counts, mistakes, seconds = score_rows(rows, ner=not args.no_ner)
    print(f"{len(rows)} texts, {sum(len(r['spans']) for r in rows)} labelled spans, "
          f"{sum(1 for r in rows if not r['spans'])} texts with look-alikes only")
    print(f"{'type':<12} {'spans':>5} {'precision':>9} {'recall':>7}")
    for kind in PII_TYPES:
        c = counts[kind]
        precision = c["tp"] / (c["tp"] + c["fp"]) if c["tp"] + c["fp"] else float("nan")
        recall = c["tp"] / (c["tp"] + c["fn"]) if c["tp"] + c["fn"] else float("nan")
        tag = "  (structured)" if kind in STRUCTURED_TYPES else "  (NER)" if kind == "name" else ""
        print(f"{kind:<12} {c['tp'] + c['fn']:>5} {precision:>9.3f} {recall:>7.3f}{tag}")
    total = Counter()
    for kind in STRUCTURED_TYPES:
        total.update(counts[kind])
    print(f"structured   {total['tp'] + total['fn']:>5} {total['tp'] / (total['tp'] + total['fp']):>9.3f} "
          f"{total['tp'] / (total['tp'] + total['fn']):>7.3f}")
    print(f"{seconds * 1000 / len(rows):.2f} ms per text ({len(rows) / seconds:.0f} texts/s, ner={not args.no_ner})")
    if args.errors:
        print("\n".join(mistakes))


if __name__ == "__main__":
    main()
