"""Agreement across repeats: Krippendorff's α, and per-case flakiness (verdicts that differ)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

LEVELS = ("nominal", "ordinal", "interval", "ratio")


def krippendorff_alpha(units: Iterable[Sequence[Any]], level: str = "nominal") -> float | None:
    """Krippendorff's α = 1 − D_o/D_e over units (here: a case's metric) each valued by several coders
    (here: the repeats); ``None`` entries are missing values.

    With mᵤ pairable values in unit u (units with fewer than 2 are skipped), n_{uc} of them equal
    to c, n_c = Σᵤ n_{uc} and n = Σ_c n_c:
    α = 1 − (n − 1)·Σᵤ [Σ_{c≠k} n_{uc}·n_{uk}·δ²(c,k) / (mᵤ − 1)] / Σ_{c,k} n_c·n_k·δ²(c,k),
    with δ² 0/1 (nominal), (c − k)² (interval), ((c − k)/(c + k))² (ratio), and for ordinal
    (Σ_{g from c to k} n_g − (n_c + n_k)/2)². α = 1 is perfect agreement, 0 chance level.
    Returns None when it is undefined: no pairable values, or no variation at all (D_e = 0).
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
    counts = []
    for unit in units:
        present = Counter(v for v in unit if v is not None)
        if sum(present.values()) >= 2:
            counts.append(present)
    totals: Counter[Any] = Counter()
    for present in counts:
        totals.update(present)
    n = sum(totals.values())
    if n < 2:
        return None
    delta = _distance(level, totals)
    values = list(totals)
    expected = sum(totals[c] * totals[k] * delta(c, k) for c in values for k in values if c != k)
    if expected == 0:
        return None
    observed = 0.0
    for present in counts:
        m = sum(present.values())
        keys = list(present)
        pairs = sum(present[c] * present[k] * delta(c, k) for c in keys for k in keys if c != k)
        observed += pairs / (m - 1)
    return 1.0 - (n - 1) * observed / expected


def _distance(level: str, totals: Mapping[Any, int]) -> Any:
    if level == "nominal":
        return lambda c, k: 0.0 if c == k else 1.0
    if level == "interval":
        return lambda c, k: (float(c) - float(k)) ** 2
    if level == "ratio":
        return lambda c, k: 0.0 if float(c) + float(k) == 0 else ((float(c) - float(k)) / (float(c) + float(k))) ** 2
    ordered = sorted(totals)
    cumulative, running = {}, 0
    for value in ordered:  # Σ_{g ≤ value} n_g
        running += totals[value]
        cumulative[value] = running

    def ordinal(c: Any, k: Any) -> float:
        low, high = (c, k) if c <= k else (k, c)
        between = cumulative[high] - cumulative[low] + totals[low]  # Σ_{g from low to high} n_g
        return (between - (totals[c] + totals[k]) / 2.0) ** 2

    return ordinal


def flaky_cases(verdicts: Iterable[tuple[Hashable, bool]]) -> list[dict[str, Any]]:
    """Cases whose verdict differs across repeats (0 < passes < attempts), in first-seen order.

    ``verdicts``: (case id, passed) per attempt. Each flaky case: ``{"id", "attempts", "passes"}``.
    """
    attempts: dict[Hashable, list[int]] = {}
    for case_id, passed in verdicts:
        tally = attempts.setdefault(case_id, [0, 0])
        tally[0] += 1
        tally[1] += bool(passed)
    return [{"id": case_id, "attempts": n, "passes": p} for case_id, (n, p) in attempts.items() if 0 < p < n]


def flakiness(per_case: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Flakiness of a repeated run from per-case ``{"id", "attempts", "passes"}`` (the run summary's
    ``repeat.cases``): ``{"flaky": [ids], "cases": m, "rate": flaky/m}`` over the m cases attempted
    at least twice (rate None when there are none). A case is flaky when 0 < passes < attempts."""
    repeated = [c for c in per_case if c["attempts"] >= 2]
    flaky = [c["id"] for c in repeated if 0 < c["passes"] < c["attempts"]]
    return {"flaky": flaky, "cases": len(repeated), "rate": len(flaky) / len(repeated) if repeated else None}
