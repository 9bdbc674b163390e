"""The moderation labelled set: size, both classes per category and split, hash splits, rebuildable."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from agentunit.moderation.taxonomy import CATEGORIES, IMPLIES

DATA = Path(__file__).resolve().parents[1] / "data"
sys.path.insert(0, str(DATA))

import build_moderation  # noqa: E402
from splits import split_of  # noqa: E402

ROWS = [json.loads(line) for line in (DATA / "moderation" / "moderation.jsonl").read_text().splitlines()]


def test_the_committed_file_is_the_builders_output():
    assert (DATA / "moderation" / "moderation.jsonl").read_text() == build_moderation.render(build_moderation.rows())


def test_size_labels_and_splits():
    assert len(ROWS) >= 300 and len({r["id"] for r in ROWS}) == len(ROWS)
    for row in ROWS:
        assert set(row["labels"]) == set(CATEGORIES) and set(row["labels"].values()) <= {0, 1}
        assert row["split"] == split_of("moderation", row["group"])
        for child, parents in IMPLIES.items():
            if row["labels"][child]:
                assert all(row["labels"][p] for p in parents), (row["id"], child)
    for split in ("tune", "test"):
        positives = Counter(c for r in ROWS if r["split"] == split for c in CATEGORIES if r["labels"][c])
        negatives = Counter(c for r in ROWS if r["split"] == split for c in CATEGORIES if not r["labels"][c])
        assert all(positives[c] >= 8 and negatives[c] >= 100 for c in CATEGORIES), (split, positives)
    groups = {}
    for row in ROWS:
        assert groups.setdefault(row["group"], row["split"]) == row["split"]
    assert {r["kind"] for r in ROWS} >= {"positive", "hard-negative", "clean", "non-english"}
