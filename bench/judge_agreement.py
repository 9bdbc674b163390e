"""Bench: agreement of each judge-backed metric with the labelled sets in tests/data/labelled, on one
split (tune while choosing prompts and pass marks, test for the figures in docs), next to the lexical
baselines of tests/data/labelled/baselines.py on the same rows.

For each metric: rows, balanced accuracy at the metric's own pass mark (with the Wilson 95 % interval
of each class's recall), Cohen's κ, ROC AUC of P(pass), ECE, the best pass mark on these rows (for
tune; never report it as a test figure), judge calls per case and seconds per judge call; then the
same per hard-case kind. Comparative metrics (select-best) are scored per group, one promptfoo test
each: top-1 accuracy over groups, per-candidate balanced accuracy and AUC of each output's share (its
score, or the judge's probability of its index), next to the pickers of
baselines.select_best_baselines (``--limit`` counts groups).
Judge replies are cached in ``--cache`` (SQLite), so a rerun with the same prompts is free and only
changed prompts cost judge time; ``--save`` writes one JSON line per row.

Usage: python bench/judge_agreement.py METRIC [METRIC ...] [--split tune|test|all] [--kind K]
       [--limit N] [--config-json '{...}'] [--judge-json '{...}'] [--cache PATH] [--save FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from agentunit.calibration.keys import pass_score
from agentunit.calibration.stats import (
    balanced_accuracy,
    best_threshold,
    cohen_kappa,
    confusion,
    expected_calibration_error,
    fail_recall,
    pass_recall,
    wilson_interval,
)
from agentunit.calibration.stats import roc_auc as auc
from agentunit.core.envelope import build_trace, parse_reply
from agentunit.datasets.base import DatasetCase
from agentunit.judges.service import service_for, use_judge
from agentunit.metrics import create_metric
from agentunit.metrics.base import score_async
from agentunit.store.sqlite import Store

ROOT = Path(__file__).resolve().parent.parent
LABELLED = ROOT / "tests" / "data" / "labelled"
sys.path.insert(0, str(LABELLED))

# The row key holding the metric's value (its rubric, reference, criteria, expected answer).
VALUE_KEYS = {"llm-rubric": "rubric", "factuality": "reference", "g-eval": "criteria",
              "answer_correctness": "expected", "context-recall": "expected", "model-graded-closedqa": "rubric",
              "trajectory:goal-success": "query", "select-best": "criteria"}
# Metrics that compare the outputs of one test (a group of rows) and pick one: scored per group.
COMPARATIVE = frozenset({"select-best"})
# Metrics scored on another metric's rows (promptfoo's closed-QA grader on the rubric rows, its
# trajectory goal check on the task-completion runs).
ROWS_OF = {"hallucination": "context-faithfulness", "model-graded-closedqa": "llm-rubric",
           "trajectory:goal-success": "task-completion"}


def load_rows(metric: str, split: str, kind: str | None) -> list[dict[str, Any]]:
    wanted = ROWS_OF.get(metric, metric)
    rows = []
    for path in sorted(LABELLED.glob("*.jsonl")):
        for line in path.read_text().splitlines():
            row = json.loads(line)
            if row["metric"] == wanted and (split == "all" or row["split"] == split) \
                    and (kind is None or row.get("kind") == kind):
                rows.append(row)
    return rows


def _case(row: dict[str, Any]) -> DatasetCase:
    return DatasetCase(id=row["id"], query=row.get("query") or "", context=row.get("context"),
                       expected_output=row.get("expected_output"), plan=row.get("plan"),
                       conversation=row.get("conversation"), role=row.get("role"), rules=row.get("rules"),
                       tools=row.get("tools"), expected_tools=row.get("expected_tools"),
                       metadata=dict(row.get("metadata") or {}))


def _outcome(row: dict[str, Any]) -> Any:
    trusys = {k: row[k] for k in ("tool_calls", "agent_calls", "events", "plan") if row.get(k) is not None}
    outcome = parse_reply({"output": row["output"], "trusys": trusys} if trusys else row["output"])
    if row.get("query"):
        outcome.query = row["query"]
    return outcome


async def score_rows(metric_name: str, rows: list[dict[str, Any]], config: dict[str, Any] | None
                     ) -> list[dict[str, Any]]:
    out = []
    for row in rows:
        key = VALUE_KEYS.get(metric_name)
        value = row.get(key) if key else row.get("value")
        metric = create_metric(metric_name, value=value, config=config)
        case, outcome = _case(row), _outcome(row)
        start = time.perf_counter()
        result = await score_async(metric, case, build_trace(outcome, case.query), outcome)
        out.append({"id": row["id"], "kind": row.get("kind"), "label": row["label"], "value": result.value,
                    "passed": result.passed, "error": result.error, "reason": result.reason,
                    "p_pass": None if result.value is None else pass_score(result.value, metric),
                    "seconds": time.perf_counter() - start})
    return out


async def score_groups(metric_name: str, rows: list[dict[str, Any]], config: dict[str, Any] | None
                       ) -> list[dict[str, Any]]:
    """Score a comparative metric as a promptfoo config run does: each group is one test whose cells'
    outputs are recorded (promptfoo's providerOutput, no target call), registered on a comparison
    board; each cell's metric carries the test's group key, the first cell's evaluation makes the one
    decision (each output scored alone, or one judge decision per order shown with `method: compare`)
    and the others read it. A row's ``p_pass`` is its share: its own score, or the mean of the judge's
    probabilities of its index in the orders asked."""
    import baselines as lexical

    from agentunit.promptfoo.compare import GROUP_KEY, ComparisonBoard

    board = ComparisonBoard()
    out = []
    for number, members in enumerate(lexical.groups_of(rows).values()):
        key = board.key(number)
        cases = [DatasetCase(id=row["id"], query=row.get("query") or "", output=row["output"]) for row in members]
        board.register(key, cases)
        for index, (row, case) in enumerate(zip(members, cases, strict=True)):
            metric = create_metric(metric_name, value=row[VALUE_KEYS[metric_name]],
                                   config={**(config or {}), GROUP_KEY: key})
            outcome = parse_reply(row["output"])
            start = time.perf_counter()
            result = await score_async(metric, case, build_trace(outcome, case.query), outcome)
            detail = result.detail or {}
            out.append({"id": row["id"], "group": row["group"], "index": index, "candidates": len(members),
                        "kind": row.get("kind"), "label": row["label"], "value": result.value,
                        "passed": result.passed, "error": result.error, "reason": result.reason,
                        "p_pass": (detail.get("shares") or {}).get(row["id"]),
                        "seconds": time.perf_counter() - start})
    return out


def summarize_groups(scored: list[dict[str, Any]]) -> dict[str, Any]:
    """Top-1 accuracy over groups (the chosen candidate is the labelled best), the judge's mean
    probability of its pick and of the best candidate, and how often it picked each position."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for item in scored:
        groups[item["group"]].append(item)
    decided = [g for g in groups.values() if all(i["passed"] is not None for i in g)]
    right = [any(i["passed"] and i["label"] for i in g) for g in decided]
    picks = [max((i["p_pass"] or 0.0) for i in g if i["passed"]) for g in decided if any(i["passed"] for i in g)]
    best = [next(i["p_pass"] for i in g if i["label"]) for g in decided]
    positions = defaultdict(int)
    for g in decided:
        for i in g:
            if i["passed"]:
                positions["first" if i["index"] == 0 else "last" if i["index"] == i["candidates"] - 1
                          else "middle"] += 1
    return {"groups": len(groups), "decided": len(decided), "top1": sum(right) / len(right) if right else None,
            "p_pick": sum(picks) / len(picks) if picks else None,
            "p_best": sum(p or 0.0 for p in best) / len(best) if best else None, "picked": dict(positions)}


def _position(item: dict[str, Any]) -> str:
    return "first" if item["index"] == 0 else "last" if item["index"] == item["candidates"] - 1 else "middle"


def report_groups(name: str, split: str, rows: list[dict[str, Any]], scored: list[dict[str, Any]], calls: int,
                  seconds: float) -> None:
    import baselines as lexical

    g, s = summarize_groups(scored), summarize(scored)
    base = lexical.select_best_baselines(rows)
    print(f"{name} [{split}] groups={g['groups']} rows={s['rows']} decided={g['decided']} errors={s['errors']} "
          f"top1={_f(g['top1'])} (p(pick)={_f(g['p_pick'])}, p(best)={_f(g['p_best'])}, picked {g['picked']}) "
          f"| per candidate BA={_f(s['balanced_accuracy'])} (pass {_f(s['pass_recall'])}, fail "
          f"{_f(s['fail_recall'])}) AUC={_f(s['auc'])} | baselines top1: overlap={_f(base['overlap'])} "
          f"longest={_f(base['longest'])} shortest={_f(base['shortest'])} random={_f(base['random'])} "
          f"| calls/group={calls / max(g['groups'], 1):.2f} s/call={seconds / max(calls, 1):.2f}")
    by_row = {row["id"]: row for row in rows}
    slices: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for item in scored:
        kind = item["kind"] or "-"
        slices[kind].append(item)
        slices["rubric-* (from llm_rubric)" if kind.startswith("rubric-") else "handwritten criteria"].append(item)
        slices[f"{item['candidates']} candidates"].append(item)
    for item in scored:  # the best candidate's position decides the group's slice
        if item["label"]:
            slices[f"best shown {_position(item)}"] += [i for i in scored if i["group"] == item["group"]]
    for label, items in sorted(slices.items()):
        k = summarize_groups(items)
        b = lexical.select_best_baselines([by_row[i["id"]] for i in items])
        print(f"    {label:<34} groups={k['groups']:<4} top1={_f(k['top1'])} p(pick)={_f(k['p_pick'])} "
              f"| overlap={_f(b['overlap'])} longest={_f(b['longest'])} shortest={_f(b['shortest'])} "
              f"random={_f(b['random'])}")




def summarize(scored: list[dict[str, Any]]) -> dict[str, Any]:
    decided = [s for s in scored if s["passed"] is not None]
    humans = [bool(s["label"]) for s in decided]
    table = confusion(humans, [bool(s["passed"]) for s in decided])
    measured = [s for s in scored if s["p_pass"] is not None]
    scores = [s["p_pass"] for s in measured]
    labels = [s["label"] for s in measured]
    best = best_threshold(scores, [bool(y) for y in labels]) if measured else None
    return {"rows": len(scored), "decided": len(decided), "errors": sum(1 for s in scored if s["error"]),
            "not_measured": sum(1 for s in scored if s["value"] is None and not s["error"]),
            "balanced_accuracy": balanced_accuracy(table), "kappa": cohen_kappa(table),
            "pass_recall": pass_recall(table), "fail_recall": fail_recall(table),
            "pass_ci": wilson_interval(table.tp, table.positives) if table.positives else None,
            "fail_ci": wilson_interval(table.tn, table.negatives) if table.negatives else None,
            "auc": auc(scores, labels), "ece": expected_calibration_error(scores, [bool(y) for y in labels]),
            "best_threshold": None if best is None else round(best.threshold, 4),
            "best_balanced_accuracy": None if best is None else best.balanced_accuracy}


AGENT_METRICS = frozenset({"task-completion", "goal-fulfillment", "tool-selection-quality", "reasoning-coherence",
                           "plan-quality", "plan-adherence", "argument-correctness", "agent-llm-rubric"})
CONVERSATION_METRICS = frozenset({"knowledge-retention", "conversation-relevancy", "role-adherence",
                                  "conversational-g-eval"})


def baselines(rows: list[dict[str, Any]]) -> dict[str, float | None]:
    """Balanced accuracy of the lexical baselines on these rows: for text and RAG sets, the substring
    check and Jaccard ≥ 0.5 of tests/data/labelled/baselines.py; for agent and conversation sets, the
    builders' fixed keyword rule and word overlap ≥ 0.5 (see tests/data/labelled/README.md)."""
    import baselines as lexical

    metric = rows[0]["metric"]
    if metric in AGENT_METRICS or metric in CONVERSATION_METRICS:
        sys.path.insert(0, str(LABELLED.parent))
        import build_labelled_agent as agent
        import build_labelled_conversation as conversation

        builder = agent if metric in AGENT_METRICS else conversation
        pairs = [(row["label"], builder.keyword_baseline(row), builder.overlap_score(row) >= 0.5) for row in rows]
    else:
        pairs = []
        for row in rows:
            source, candidate, verbatim = lexical._texts(row)
            pairs.append((row["label"], verbatim, lexical._jaccard(source, candidate) >= 0.5))
    return {"substring": lexical.balanced_accuracy([(y, v) for y, v, _ in pairs]),
            "jaccard": lexical.balanced_accuracy([(y, j) for y, _, j in pairs])}


def _f(value: Any) -> str:
    return "–" if value is None else f"{value:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("metrics", nargs="+")
    parser.add_argument("--split", choices=("tune", "test", "all"), default="tune")
    parser.add_argument("--kind", default=None)
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--config-json", default=None)
    parser.add_argument("--judge-json", default=None)
    parser.add_argument("--cache", default="/tmp/agentunit-judge-bench.db")
    parser.add_argument("--save", default=None)
    args = parser.parse_args()
    config = json.loads(args.config_json) if args.config_json else None
    judge = json.loads(args.judge_json) if args.judge_json else None
    service = service_for(judge)
    use_judge(judge)
    service.store = Store(args.cache)
    saved = []
    for name in args.metrics:
        rows = load_rows(name, args.split, args.kind)
        if args.limit and name in COMPARATIVE:  # whole groups
            rows = [r for r in rows if r["group"] in list(dict.fromkeys(x["group"] for x in rows))[: args.limit]]
        elif args.limit:
            rows = rows[: args.limit]
        if not rows:
            print(f"{name}: no labelled rows for split {args.split}")
            continue
        calls_before, start = service.stats.calls, time.perf_counter()
        scorer = score_groups if name in COMPARATIVE else score_rows
        scored = asyncio.run(scorer(name, rows, config))
        seconds, calls = time.perf_counter() - start, service.stats.calls - calls_before
        if name in COMPARATIVE:
            report_groups(name, args.split, rows, scored, calls, seconds)
            for item in scored:
                if item["error"]:
                    print(f"    error {item['id']}: {item['error'][:200]}")
            saved += [{"metric": name, "split": args.split, **item} for item in scored]
            continue
        s = summarize(scored)
        try:
            base = baselines(rows)
        except SystemExit:
            base = {"substring": None, "jaccard": None}
        print(f"{name} [{args.split}] rows={s['rows']} decided={s['decided']} errors={s['errors']} "
              f"not_measured={s['not_measured']} BA={_f(s['balanced_accuracy'])} "
              f"(pass {_f(s['pass_recall'])}, fail {_f(s['fail_recall'])}) kappa={_f(s['kappa'])} "
              f"AUC={_f(s['auc'])} ECE={_f(s['ece'])} best_t={s['best_threshold']} "
              f"best_BA={_f(s['best_balanced_accuracy'])} | substring={_f(base['substring'])} "
              f"jaccard={_f(base['jaccard'])} | calls/case={calls / len(rows):.2f} "
              f"s/call={seconds / max(calls, 1):.2f}")
        by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for item in scored:
            by_kind[item["kind"] or "-"].append(item)
        for kind, items in sorted(by_kind.items()):
            k = summarize(items)
            print(f"    {kind:<28} n={k['rows']:<4} BA={_f(k['balanced_accuracy'])} "
                  f"pass={_f(k['pass_recall'])} fail={_f(k['fail_recall'])} AUC={_f(k['auc'])}")
        for item in scored:
            if item["error"]:
                print(f"    error {item['id']}: {item['error'][:200]}")
        saved += [{"metric": name, "split": args.split, **item} for item in scored]
    if args.save:
        Path(args.save).write_text("".join(json.dumps(item) + "\n" for item in saved))
    service.store.close()


if __name__ == "__main__":
    main()
