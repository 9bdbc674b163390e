"""The tune/test split of every labelled set, fixed before any tuning.

A row's split follows from its ``group`` (the item its good and bad variants share: a fact, a
question, a task), so paired rows never straddle the split: sha256(set name + group) decides, half
the groups to each part. Tuning (prompt wording, thresholds, calibrators) may read only ``tune``
rows; figures in docs are from ``test`` rows.
"""

from __future__ import annotations

import hashlib


def split_of(set_name: str, group: str) -> str:
    """``"tune"`` or ``"test"`` for a group of a set (stable across runs and machines)."""
    digest = hashlib.sha256(f"{set_name}\x00{group}".encode()).digest()
    return "tune" if digest[0] % 2 == 0 else "test"
