"""Fitting the local classifier's weights: L2-regularised, class-balanced logistic regression per
category, solved by Newton's method (numpy only, deterministic).

``python -m agentunit.moderation.fit`` refits ``classifier.json`` from the tuning rows of
``tests/data/moderation/moderation.jsonl``; the test rows are never read.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from agentunit.moderation.classifier import WEIGHTS_PATH, Weights
from agentunit.moderation.taxonomy import CATEGORIES

__all__ = ["DEFAULT_L2", "fit_logistic", "fit_weights"]

DEFAULT_L2 = 1.0
FEATURES = "all-MiniLM-L6-v2 mean-pooled unit embedding (384)"


def fit_logistic(x: Any, y: Any, *, l2: float = DEFAULT_L2, iterations: int = 50) -> tuple[Any, float]:
    """(w, b) minimising Σ_i c_i·logloss(σ(w·x_i + b), y_i) + l2/2·|w|², where c_i = n / (2·n_class(y_i))
    balances the classes (a rare category weighs as much as the rest). Newton steps until the step
    is below 1e-8 or ``iterations`` are done; the intercept is not penalised."""
    import numpy as np

    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    n, d = x.shape
    positives = y.sum()
    if positives in (0, n):
        raise ValueError("a category needs both classes among the rows to be fitted")
    weight = np.where(y == 1, n / (2 * positives), n / (2 * (n - positives)))
    design = np.hstack([x, np.ones((n, 1))])
    penalty = np.full(d + 1, l2)
    penalty[-1] = 0.0
    theta = np.zeros(d + 1)
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(design @ theta)))
        gradient = design.T @ (weight * (p - y)) + penalty * theta
        hessian = (design * (weight * p * (1 - p))[:, None]).T @ design + np.diag(penalty) + 1e-9 * np.eye(d + 1)
        step = np.linalg.solve(hessian, gradient)
        theta -= step
        if np.abs(step).max() < 1e-8:
            break
    return theta[:-1], float(theta[-1])


def fit_weights(texts: list[str], labels: list[dict[str, int]], *, l2: float = DEFAULT_L2,
                fitted_on: dict[str, Any] | None = None) -> Weights:
    """Weights for every category from texts and their 0/1 labels (each text embedded whole)."""
    import numpy as np

    from agentunit.models.embeddings import embed_sync

    x = np.asarray(embed_sync(texts))
    coefficients, intercepts = {}, {}
    for category in CATEGORIES:
        w, b = fit_logistic(x, [row[category] for row in labels], l2=l2)
        coefficients[category], intercepts[category] = [float(v) for v in w], b
    return Weights(FEATURES, coefficients, intercepts, {**(fitted_on or {}), "rows": len(texts), "l2": l2})


def _tuning_rows(path: Path) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [row for row in rows if row["split"] == "tune"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("tests/data/moderation/moderation.jsonl"))
    parser.add_argument("--l2", type=float, default=DEFAULT_L2)
    parser.add_argument("--out", type=Path, default=WEIGHTS_PATH)
    args = parser.parse_args(argv)
    rows = _tuning_rows(args.data)
    weights = fit_weights([r["text"] for r in rows], [r["labels"] for r in rows], l2=args.l2,
                          fitted_on={"data": "tests/data/moderation/moderation.jsonl", "split": "tune"})
    args.out.write_text(weights.to_json())
    print(f"wrote {args.out}: {len(rows)} tuning rows, l2 {args.l2}")


if __name__ == "__main__":
    main()
