"""The local moderation classifier: one logistic regression per category over sentence embeddings.

Features of a text window: its all-MiniLM-L6-v2 embedding (the embedded model, unit length, 384
dims). A long text is cut into windows of about WINDOW_WORDS words at sentence ends, so content
anywhere in it counts; a category's score is its highest window score. The weights are fitted by
``agentunit.moderation.fit`` on the tuning rows of ``tests/data/moderation`` and ship in
``classifier.json`` next to this module.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from agentunit.moderation.taxonomy import CATEGORIES, close_scores

__all__ = ["WEIGHTS_PATH", "WINDOW_WORDS", "Weights", "classifier_scores", "load_weights", "windows"]

WEIGHTS_PATH = Path(__file__).with_name("classifier.json")
WINDOW_WORDS = 50
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+|\n+")


@dataclass(frozen=True)
class Weights:
    """Per-category logistic regression: P(category) = σ(w · x + b)."""

    features: str
    coefficients: dict[str, list[float]]
    intercepts: dict[str, float]
    fitted_on: dict[str, Any]

    def to_json(self) -> str:
        """Stable JSON, one line per category's coefficients (so a refit shows as a readable diff)."""
        head = {"features": self.features, "fitted_on": self.fitted_on,
                "intercepts": {c: round(b, 6) for c, b in self.intercepts.items()}}
        lines = [f" {json.dumps(c)}: {json.dumps([round(w, 6) for w in ws])}" for c, ws in self.coefficients.items()]
        body = json.dumps(head, sort_keys=True)[:-1]
        return body + ', "coefficients": {\n' + ",\n".join(lines) + "\n}}\n"


@lru_cache(maxsize=1)
def load_weights(path: Path = WEIGHTS_PATH) -> Weights:
    data = json.loads(path.read_text())
    return Weights(features=data["features"], coefficients=data["coefficients"],
                   intercepts=data["intercepts"], fitted_on=data.get("fitted_on", {}))


def windows(text: str, size: int = WINDOW_WORDS) -> list[str]:
    """``text`` cut at sentence ends into windows of at most ``size`` words (a longer sentence is cut
    at ``size`` words); a short text is one window. Empty text gives no windows."""
    out: list[str] = []
    current: list[str] = []
    for sentence in _SENTENCE_END.split(text):
        words = sentence.split()
        while len(words) > size:
            out.append(" ".join(words[:size]))
            words = words[size:]
        if current and len(current) + len(words) > size:
            out.append(" ".join(current))
            current = []
        current.extend(words)
    if current:
        out.append(" ".join(current))
    return out


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))


def scores_of_vector(vector: Any, weights: Weights) -> dict[str, float]:
    """P(category) for one embedding vector."""
    import numpy as np

    return {c: _sigmoid(float(np.dot(np.asarray(weights.coefficients[c], dtype=np.float32), vector))
                        + weights.intercepts[c]) for c in CATEGORIES}


async def classifier_scores(text: str, weights: Weights | None = None) -> tuple[dict[str, float], dict[str, Any]]:
    """(category scores, detail): each category's highest window probability, closed under the
    taxonomy's implications; the detail names the windows scored and the window each maximum came from."""
    from agentunit.models.embeddings import embed_texts

    weights = weights or load_weights()
    parts = windows(text)
    if not parts:
        return dict.fromkeys(CATEGORIES, 0.0), {"windows": 0}
    vectors = await embed_texts(parts)
    per_window = [scores_of_vector(v, weights) for v in vectors]
    best = {c: max(range(len(parts)), key=lambda i, c=c: per_window[i][c]) for c in CATEGORIES}
    scores = close_scores({c: per_window[best[c]][c] for c in CATEGORIES})
    detail: dict[str, Any] = {"windows": len(parts)}
    if len(parts) > 1:
        top = max(CATEGORIES, key=scores.__getitem__)
        detail["window_of_top"] = {"category": top, "window": best[top] + 1, "text": parts[best[top]][:200]}
    return scores, detail
