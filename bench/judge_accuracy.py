"""Bench: accuracy of the judge metrics on the labelled development sets in tests/data, with the
embedded local judge (or another, via --judge-json), plus seconds per judge decision and judge
calls per case.

Usage: python bench/judge_accuracy.py [llm-rubric|factuality|g-eval ...] [--limit N] [--judge-json '{...}']
       [--config-json '{"split_claims": false}']   (a NAME@SET entry scores NAME on another labelled set)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from pathlib import Path

from agentunit.core.envelope import build_trace
from agentunit.core.outcome import Outcome
from agentunit.datasets.base import DatasetCase
from agentunit.judges.service import service_for, use_judge
from agentunit.metrics import create_metric
from agentunit.metrics.base import score_async

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
SETS = {"llm-rubric": ("llm_rubric_dev.jsonl", "rubric"), "factuality": ("factuality_dev.jsonl", "reference"),
        "g-eval": ("g_eval_dev.jsonl", "criteria"), "context-faithfulness": ("rag_dev.jsonl", None),
        # one sentence joining two claims, the second unsupported and free of numbers and names
        "context-faithfulness@compound": ("rag_compound_dev.jsonl", None),
        # the fact vs the fact negated ("is not"): the same words as the context plus one
        "context-faithfulness@negation": ("rag_negation_dev.jsonl", None),
        # a detail changed by one word (antonym, spelled-out number), no new digit or name
        "context-faithfulness@swap": ("rag_swap_dev.jsonl", None),
        "hallucination": ("rag_dev.jsonl", None), "context-recall": ("retrieval_dev.jsonl", "expected"),
        "context-relevance": ("retrieval_dev.jsonl", None), "retrieval_quality": ("ranking_dev.jsonl", None),
        "answer-relevance": ("retrieval_dev.jsonl", None),
        **{m: ("agent_dev.jsonl", None) for m in ("task-completion", "goal-fulfillment", "tool-selection-quality",
                                                  "plan-quality", "reasoning-coherence", "argument-correctness",
                                                  "agent-llm-rubric", "plan-adherence")},
        **{m: ("conversation_dev.jsonl", None) for m in ("knowledge-retention", "conversation-relevancy",
                                                         "role-adherence", "conversational-g-eval")}}


async def evaluate(set_name: str, rows: list[dict], config: dict | None = None) -> list[tuple[int, float, bool]]:
    out = []
    metric_name = set_name.split("@")[0]
    for row in rows:
        key = SETS[set_name][1]
        metric = create_metric(metric_name, value=row[key] if key else row.get("value"), config=config)
        case = DatasetCase(id="dev", query=row.get("query") or "", context=row.get("context"), plan=row.get("plan"),
                           conversation=row.get("conversation"), role=row.get("role"))
        outcome = Outcome(output=row["output"], query=row.get("query"), tool_calls=row.get("tool_calls") or [])
        result = await score_async(metric, case, build_trace(outcome), outcome)
        if result.error:
            raise SystemExit(f"{metric_name}: {result.error}")
        out.append((row["label"], result.value, result.passed))
    return out


def report(name: str, results: list[tuple[int, float, bool]], seconds: float, calls: int) -> None:
    positives = [r for r in results if r[0] == 1]
    negatives = [r for r in results if r[0] == 0]
    tpr = sum(r[2] for r in positives) / len(positives)
    tnr = sum(not r[2] for r in negatives) / len(negatives)
    accuracy = sum(r[2] == bool(r[0]) for r in results) / len(results)
    print(f"{name}: cases={len(results)} accuracy={accuracy:.3f} balanced_accuracy={(tpr + tnr) / 2:.3f} "
          f"(pass rate on good {tpr:.3f}, fail rate on bad {tnr:.3f}) judge_calls={calls} "
          f"calls_per_case={calls / len(results):.2f} s_per_call={seconds / max(calls, 1):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("metrics", nargs="*", default=list(SETS))
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--judge-json", default=None)
    parser.add_argument("--config-json", default=None, help="metric config, e.g. '{\"split_claims\": false}'")
    args = parser.parse_args()
    metric_config = json.loads(args.config_json) if args.config_json else None
    config = json.loads(args.judge_json) if args.judge_json else None
    service = service_for(config)
    use_judge(config)
    for name in args.metrics:
        rows = [json.loads(line) for line in (DATA / SETS[name][0]).read_text().splitlines()]
        rows = [r for r in rows if r.get("metric", name.split("@")[0]) == name.split("@")[0]]
        if args.limit:
            rows = rows[: args.limit]
        calls_before = service.stats.calls
        start = time.perf_counter()
        results = asyncio.run(evaluate(name, rows, metric_config))
        report(name, results, time.perf_counter() - start, service.stats.calls - calls_before)


if __name__ == "__main__":
    main()
