"""Trivial lexical baselines on the labelled sets, so a set that a string check already solves is seen.

For every row it compares a "source" text with a "candidate" text (which ones depends on the
metric, see ``_texts``) and predicts pass/fail three ways:

- substring: the source's key content appears verbatim in the candidate (the reference or
  expected answer inside the output; every sentence of the output inside the context; the
  rubric's numbers, names and quoted terms inside the output; every query word inside the
  context or answer; for rankings, the passage that shares most query words ranked first);
- Jaccard: Jaccard similarity of the two texts' content words ≥ 0.5;
- coverage: the share of the source's content words found in the candidate ≥ t, with t chosen to
  maximise balanced accuracy on the set's tune rows and reported on its test rows only.

Balanced accuracy = (pass rate on label-1 rows + fail rate on label-0 rows) / 2; 0.5 is chance.

select-best rows are scored by group instead (``select_best_baselines``): the top-1 accuracy of
picking the candidate with the most word overlap with the criterion, the longest, the shortest, or a
random one.

Run: python tests/data/labelled/baselines.py  (prints the markdown table kept in README.md)
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(DATA))

from build_labelled_rag import content_words  # noqa: E402

NEW_SETS = ["llm_rubric", "factuality", "g_eval", "answer_correctness", "rag_halueval", "rag_handwritten"]
# The development sets that predate the labelled/ folder, and the metric each one's rows serve.
OLD_SETS = {"llm_rubric_dev": "llm-rubric", "factuality_dev": "factuality", "g_eval_dev": "g-eval",
            "rag_dev": "context-faithfulness", "rag_compound_dev": "context-faithfulness",
            "rag_negation_dev": "context-faithfulness", "rag_swap_dev": "context-faithfulness",
            "retrieval_dev": "context-recall", "ranking_dev": "retrieval_quality"}
_KEY_TERM = re.compile(r"\d[\d.,:]*|(?<!^)(?<![.!?] )\b[A-Z][\w'-]+|'[^']+'|`[^`]+`|\"[^\"]+\"")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.lower()).strip(" .!?")


def _jaccard(a: str, b: str) -> float:
    x, y = content_words(a), content_words(b)
    return len(x & y) / len(x | y) if x | y else 0.0


def _coverage(source: str, candidate: str) -> float:
    words = content_words(source)
    return len(words & content_words(candidate)) / len(words) if words else 1.0


def _rubric_terms_present(rubric: str, output: str) -> bool:
    terms = [t.strip("'\"`").lower() for t in _KEY_TERM.findall(rubric)]
    return all(term in output.lower() for term in terms)


def _texts(row: dict) -> tuple[str, str, bool]:
    """(source, candidate, substring prediction) for the row's metric."""
    metric, output = row["metric"], row["output"]
    context = "\n".join(row.get("context") or [])
    if metric in ("llm-rubric", "g-eval"):
        value = row.get("rubric") or row.get("criteria")
        return value, output, _rubric_terms_present(value, output)
    if metric in ("factuality", "answer_correctness"):
        value = row.get("reference") or row.get("expected")
        return value, output, _norm(value) in _norm(output)
    if metric in ("context-faithfulness", "context-recall"):
        claims = output if metric == "context-faithfulness" else row["expected"]
        verbatim = all(_norm(s) in _norm(context) for s in _SENTENCE.split(claims.strip()) if s.strip())
        return claims, context, verbatim
    if metric == "context-relevance":
        return row["query"], context, content_words(row["query"]) <= content_words(context)
    if metric == "answer-relevance":
        return row["query"], output, content_words(row["query"]) <= content_words(output)
    if metric == "retrieval_quality":
        shares = [_coverage(row["query"], passage) for passage in row["context"]]
        return row["query"], row["context"][0], shares[0] == max(shares)
    raise SystemExit(f"no baseline for metric {metric}")


def balanced_accuracy(pairs: list[tuple[int, bool]]) -> float | None:
    good = [p for label, p in pairs if label == 1]
    bad = [p for label, p in pairs if label == 0]
    if not good or not bad:
        return None
    return (sum(good) / len(good) + sum(not p for p in bad) / len(bad)) / 2


def _best_threshold(scored: list[tuple[int, float]]) -> float:
    candidates = sorted({score for _, score in scored}) or [0.5]
    return max(candidates, key=lambda t: balanced_accuracy([(label, score >= t) for label, score in scored]) or 0)


def load(name: str) -> list[dict]:
    path = DATA / "labelled" / f"{name}.jsonl" if name in NEW_SETS else DATA / f"{name}.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    for row in rows:
        row.setdefault("metric", OLD_SETS.get(name))
        if row["metric"] == "context-recall" and "expected" not in row:
            row["expected"] = row.get("output")
    return rows


def report(name: str) -> list[str]:
    lines = []
    by_metric = defaultdict(list)
    for row in load(name):
        by_metric[row["metric"]].append(row)
    for metric, rows in sorted(by_metric.items()):
        scored = []
        for row in rows:
            source, candidate, verbatim = _texts(row)
            scored.append((row, verbatim, _jaccard(source, candidate), _coverage(source, candidate)))
        tune = [(r["label"], cov) for r, _, _, cov in scored if r.get("split") == "tune"]
        threshold = _best_threshold(tune) if tune else None
        for split in ("tune", "test"):
            part = [s for s in scored if s[0].get("split") == split]
            if not part:
                continue
            substring = balanced_accuracy([(r["label"], v) for r, v, _, _ in part])
            jaccard = balanced_accuracy([(r["label"], j >= 0.5) for r, _, j, _ in part])
            coverage = (balanced_accuracy([(r["label"], c >= threshold) for r, _, _, c in part])
                        if split == "test" and threshold is not None else None)
            cells = [f"{x:.3f}" if x is not None else "–" for x in (substring, jaccard, coverage)]
            lines.append(f"| {name} | {metric} | {split} | {len(part)} | {' | '.join(cells)} |")
    return lines


def groups_of(rows: list[dict]) -> dict[str, list[dict]]:
    """select-best rows by group, each group's candidates in their shown order (the id's last part)."""
    groups: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        groups[row["group"]].append(row)
    return {g: sorted(c, key=lambda r: int(r["id"].rsplit("/", 1)[1])) for g, c in groups.items()}


def _pick_accuracy(candidates: list[dict], scores: list[float]) -> float:
    """Chance that picking a highest-scoring candidate (ties broken at random) picks the best one."""
    top = [i for i, s in enumerate(scores) if s == max(scores)]
    return sum(candidates[i]["label"] for i in top) / len(top)


def select_best_baselines(rows: list[dict]) -> dict[str, float | None]:
    """Top-1 accuracy over the groups of select-best rows of four pickers: the candidate with the
    highest Jaccard word overlap with the criterion, the longest, the shortest (characters), and a
    random one (1/n); ties count as a random pick among the tied."""
    groups = list(groups_of(rows).values())
    if not groups:
        return {"overlap": None, "longest": None, "shortest": None, "random": None}
    pickers = {"overlap": lambda r: _jaccard(r["criteria"], r["output"]), "longest": lambda r: len(r["output"]),
               "shortest": lambda r: -len(r["output"])}
    out = {name: sum(_pick_accuracy(c, [key(r) for r in c]) for c in groups) / len(groups)
           for name, key in pickers.items()}
    out["random"] = sum(1 / len(c) for c in groups) / len(groups)
    return out


def select_best_report() -> list[str]:
    rows = [json.loads(line) for line in (DATA / "labelled" / "select_best.jsonl").read_text().splitlines()]
    lines = []
    for split in ("tune", "test"):
        part = [r for r in rows if r["split"] == split]
        base = select_best_baselines(part)
        cells = " | ".join(f"{base[k]:.3f}" for k in ("overlap", "longest", "shortest", "random"))
        lines.append(f"| select_best | {split} | {len(groups_of(part))} | {len(part)} | {cells} |")
    return lines


def main() -> None:
    print("| set | metric | split | rows | substring | Jaccard ≥ 0.5 | coverage (t from tune) |")
    print("|---|---|---|---|---|---|---|")
    for name in [*NEW_SETS, *OLD_SETS]:
        for line in report(name):
            print(line)
    print()
    print("| set | split | groups | rows | overlap | longest | shortest | random |")
    print("|---|---|---|---|---|---|---|---|")
    for line in select_best_report():
        print(line)


if __name__ == "__main__":
    main()
