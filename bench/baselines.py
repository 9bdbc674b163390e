"""Lexical baselines on every labelled set whose accuracy figures the docs quote, so a set that a
string check already solves is seen for what it is.

Two baselines per set, on the same rows as the docs' figure (all rows where the docs quote all
rows, the tune or test split where they quote one):

- substring / keyword: a fixed surface rule. For the text and RAG sets the rule of
  tests/data/labelled/baselines.py (the reference inside the output; every sentence of the claims
  verbatim in the context; every query word in the context or answer; the passage sharing most query
  words ranked first); for the agentic and conversational sets the builders' keyword rules
  (tests/data/build_labelled_agent.py, build_labelled_conversation.py).
- word overlap: content-word overlap between what is judged and what it is judged against, as
  balanced accuracy at Jaccard >= 0.5 and as ROC AUC (threshold-free; > 0.5 when more overlap means
  pass, < 0.5 when it points the wrong way). The AUC score is the share of the source's content words
  found in the candidate (coverage) for the text and RAG sets, the builders' Jaccard for the agentic
  and conversational ones, and Jaccard for the `similar` pairs.

A baseline near 1.0 means the set does not discriminate: a judge scoring well on it shows nothing
beyond substring matching. No judge or model is loaded; the whole run takes about a second.

Run: python bench/baselines.py  (prints one markdown table per docs table)
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
sys.path.insert(0, str(DATA))
sys.path.insert(0, str(DATA / "labelled"))

import baselines as text_baselines  # noqa: E402  (tests/data/labelled/baselines.py)
import build_labelled_agent  # noqa: E402
import build_labelled_conversation  # noqa: E402


@dataclass(frozen=True)
class Baseline:
    """The baselines of one set (or one part of a set) as a docs table quotes it."""

    table: str     # the docs table the row belongs to
    name: str      # the set and part, as the table names it
    metric: str
    rows: int
    substring: float       # balanced accuracy of the substring / keyword rule
    jaccard: float         # balanced accuracy of Jaccard >= 0.5
    overlap_auc: float     # ROC AUC of the word-overlap score

    def line(self) -> str:
        return (f"| {self.table} | {self.name} | {self.metric} | {self.rows} | {self.substring:.3f} | "
                f"{self.jaccard:.3f} | {self.overlap_auc:.3f} |")


def balanced_accuracy(pairs: Iterable[tuple[int, bool]]) -> float:
    pairs = list(pairs)
    good = [p for label, p in pairs if label == 1]
    bad = [p for label, p in pairs if label == 0]
    return (sum(good) / len(good) + sum(not p for p in bad) / len(bad)) / 2


def auc(scored: Iterable[tuple[int, float]]) -> float:
    """ROC AUC: the chance that a label-1 row scores above a label-0 row, ties counting half."""
    scored = list(scored)
    good = [s for label, s in scored if label == 1]
    bad = [s for label, s in scored if label == 0]
    wins = sum((g > b) + 0.5 * (g == b) for g in good for b in bad)
    return wins / (len(good) * len(bad))


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _text_baseline(table: str, name: str, rows: list[dict]) -> Baseline:
    """Substring, Jaccard and coverage of tests/data/labelled/baselines.py on rows of one metric."""
    scored = []
    for row in rows:
        source, candidate, verbatim = text_baselines._texts(row)
        scored.append((row["label"], verbatim, text_baselines._jaccard(source, candidate),
                       text_baselines._coverage(source, candidate)))
    return Baseline(table, name, rows[0]["metric"], len(rows),
                    balanced_accuracy((label, verbatim) for label, verbatim, _, _ in scored),
                    balanced_accuracy((label, jaccard >= 0.5) for label, _, jaccard, _ in scored),
                    auc((label, coverage) for label, _, _, coverage in scored))


def _rule_baseline(table: str, name: str, rows: list[dict], keyword: Callable[[dict], bool],
                   overlap: Callable[[dict], float]) -> Baseline:
    return Baseline(table, name, rows[0]["metric"], len(rows),
                    balanced_accuracy((r["label"], keyword(r)) for r in rows),
                    balanced_accuracy((r["label"], overlap(r) >= 0.5) for r in rows),
                    auc((r["label"], overlap(r)) for r in rows))


def _as_metric(rows: list[dict], metric: str) -> list[dict]:
    return [{**row, "metric": metric} for row in rows]


def rag_development_sets() -> list[Baseline]:
    """docs/rag.md, "Measured": the development sets, all rows, as the judge figures there."""
    table = "rag.md development sets"
    out = [_text_baseline(table, name, text_baselines.load(name))
           for name in ("rag_dev", "rag_negation_dev", "rag_swap_dev", "rag_compound_dev", "ranking_dev")]
    retrieval = text_baselines.load("retrieval_dev")
    out += [_text_baseline(table, "retrieval_dev", _as_metric(retrieval, metric))
            for metric in ("context-recall", "context-relevance", "answer-relevance")]
    return out


def rag_labelled_tune() -> list[Baseline]:
    """docs/rag.md, the strategy table: tune rows of HaluEval QA, HaluEval summaries, handwritten."""
    halueval = [r for r in text_baselines.load("rag_halueval") if r["split"] == "tune"]
    handwritten = [r for r in text_baselines.load("rag_handwritten")
                   if r["split"] == "tune" and r["metric"] == "context-faithfulness"]
    parts = {"HaluEval QA": [r for r in halueval if r["kind"].startswith("qa-")],
             "HaluEval summaries": [r for r in halueval if r["kind"].startswith("summary-")],
             "handwritten": handwritten}
    return [_text_baseline("rag.md tune", name, rows) for name, rows in parts.items()]


def rag_deepeval_comparison(per_kind: int = 12) -> Baseline:
    """docs/rag.md, side by side with DeepEval and RAGAS: the rows of rag_dev.jsonl that
    bench/rag_vs_frameworks.py scores with ``--per-kind`` (its ``select``: spread evenly over each
    kind's topics)."""
    by_kind: dict[str, list[dict]] = {}
    for row in text_baselines.load("rag_dev"):
        by_kind.setdefault(row["kind"], []).append(row)
    rows = [r for kind in sorted(by_kind)
            for r in by_kind[kind][::max(1, len(by_kind[kind]) // per_kind)][:per_kind]]
    return _text_baseline("rag.md frameworks", f"rag_dev, {per_kind} per kind", rows)


def judge_labelled_tune() -> list[Baseline]:
    """docs/judges.md, the llm-rubric build table: its tune rows."""
    rows = [r for r in text_baselines.load("llm_rubric") if r["split"] == "tune"]
    return [_text_baseline("judges.md llm-rubric tune", "llm_rubric tune", rows)]


def _agent_row(row: dict) -> dict:
    """A development-set row in the shape the labelled builders' rules read: the rules of
    agent-llm-rubric come in ``value``, and the set records no tool list, so the called tools stand
    for the available ones."""
    tools = [{"name": c["name"]} for c in row.get("tool_calls") or []]
    rules = row.get("value")
    return {**row, "tools": row.get("tools") or tools,
            "rules": [rules] if isinstance(rules, str) else rules or []}


def agentic_development_sets() -> list[Baseline]:
    """docs/agentic.md, "Development sets": agent_dev and conversation_dev, all rows per metric."""
    table = "agentic.md development sets"
    out = []
    agent = [_agent_row(r) for r in _rows(DATA / "agent_dev.jsonl")]
    for metric in sorted({r["metric"] for r in agent}):
        out.append(_rule_baseline(table, "agent_dev", [r for r in agent if r["metric"] == metric],
                                  build_labelled_agent.keyword_baseline, build_labelled_agent.overlap_score))
    conversation = _rows(DATA / "conversation_dev.jsonl")
    for metric in sorted({r["metric"] for r in conversation}):
        out.append(_rule_baseline(table, "conversation_dev", [r for r in conversation if r["metric"] == metric],
                                  build_labelled_conversation.keyword_baseline,
                                  build_labelled_conversation.overlap_score))
    return out


def similar_pairs() -> Baseline:
    """docs/models.md: `similar` on tests/data/similar_pairs.jsonl (substring: one text inside the other)."""
    rows = _rows(DATA / "similar_pairs.jsonl")
    norm = text_baselines._norm
    return Baseline("models.md similar", "similar_pairs", "similar", len(rows),
                    balanced_accuracy((r["label"], norm(r["a"]) in norm(r["b"]) or norm(r["b"]) in norm(r["a"]))
                                      for r in rows),
                    balanced_accuracy((r["label"], text_baselines._jaccard(r["a"], r["b"]) >= 0.5) for r in rows),
                    auc((r["label"], text_baselines._jaccard(r["a"], r["b"])) for r in rows))


def everything() -> list[Baseline]:
    return [*rag_development_sets(), *rag_labelled_tune(), rag_deepeval_comparison(), *judge_labelled_tune(),
            *agentic_development_sets(), similar_pairs()]


def main() -> None:
    print("| docs table | set | metric | rows | substring / keyword BA | Jaccard ≥ 0.5 BA | word-overlap AUC |")
    print("|---|---|---|---|---|---|---|")
    for baseline in everything():
        print(baseline.line())


if __name__ == "__main__":
    main()
