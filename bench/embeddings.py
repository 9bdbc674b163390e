"""Bench: embedding throughput of the embedded all-MiniLM-L6-v2 (int8 ONNX) and `similar`'s AUC on the
labelled paraphrase/unrelated pairs in tests/data/similar_pairs.jsonl.

Usage: python bench/embeddings.py   (after `agentunit models install embeddings`)
Target: ≥ 150 embeddings/s on 2 cores; AUC ≥ 0.95.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from agentunit import check
from agentunit.models.embeddings import embedder

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "similar_pairs.jsonl"


def main() -> None:
    rows = [json.loads(line) for line in DATA.read_text().splitlines()]
    texts = sorted({r["a"] for r in rows} | {r["b"] for r in rows})
    model = embedder()
    model.embed(texts[:8])  # warm-up
    corpus = [f"{t} (variant {i})" for i in range(8) for t in texts]
    start = time.perf_counter()
    model.embed(corpus)
    elapsed = time.perf_counter() - start
    print(f"embeddings={len(corpus)} seconds={elapsed:.2f} embeddings_per_s={len(corpus) / elapsed:,.0f}")
    scores = [check(r["a"], {"metric": "similar", "value": r["b"]}).value for r in rows]
    positives = [s for s, r in zip(scores, rows, strict=True) if r["label"]]
    negatives = [s for s, r in zip(scores, rows, strict=True) if not r["label"]]
    auc = sum((p > n) + 0.5 * (p == n) for p in positives for n in negatives) / (len(positives) * len(negatives))
    at_default = sum((s >= 0.8) == bool(r["label"]) for s, r in zip(scores, rows, strict=True)) / len(rows)
    print(f"pairs={len(rows)} (paraphrases={len(positives)}, unrelated={len(negatives)}) auc={auc:.4f} "
          f"accuracy_at_0.8={at_default:.3f} min_paraphrase={min(positives):.3f} max_unrelated={max(negatives):.3f}")


if __name__ == "__main__":
    main()
