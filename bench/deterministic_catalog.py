"""Bench: every deterministic metric once per case on N recorded outputs (default 10,000).

Cases carry their output (no target), so this measures the metric catalog plus the engine and the
SQLite writes. Prints cases/s, metric results/s and peak RSS.
Usage: python bench/deterministic_catalog.py [N]
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from _measure import run_agentunit

TOOLS = [{"type": "function", "function": {"name": "lookup", "parameters": {"type": "object",
                                                                              "required": ["q"]}}}]


def _output(i: int) -> str:
    return (f"Order {i} is confirmed. The total is {i % 500 + 10}.50 dollars.\n"
            f'```json\n{{"order": {i}, "items": ["a", "b", "c"], "status": "ok"}}\n```\n'
            f"Query used: SELECT id, total FROM orders WHERE id = {i};\n"
            f"<receipt><id>{i}</id><total>{i % 500}</total></receipt>\n"
            f"<p>Thanks for your <b>order</b>!</p>")


def _metrics(i: int) -> list[dict]:
    ref = f"Order {i} is confirmed. The total is {i % 500 + 10}.50 dollars."
    return [
        {"metric": "equals", "value": "nope"}, {"metric": "contains", "value": f"Order {i}"},
        {"metric": "icontains", "value": "CONFIRMED"}, {"metric": "contains-any", "value": "refund, confirmed"},
        {"metric": "contains-all", "value": ["Order", "total"]}, {"metric": "icontains-any", "value": ["ok", "x"]},
        {"metric": "icontains-all", "value": ["order", "total"]}, {"metric": "starts-with", "value": "Order"},
        {"metric": "regex", "value": r"total is \d+\.\d{2}"}, {"metric": "word-count", "value": {"max": 60}},
        {"metric": "levenshtein", "value": ref, "threshold": 400},
        {"metric": "equals-number", "value": 1}, {"metric": "greater-than", "value": 0},
        {"metric": "less-than", "value": 10}, {"metric": "is-json"},
        {"metric": "contains-json", "value": {"type": "object", "required": ["order"]}},
        {"metric": "json-equals", "value": {"order": i}}, {"metric": "array-length", "value": 3},
        {"metric": "is-xml"}, {"metric": "contains-xml", "value": "receipt.total"},
        {"metric": "is-sql"}, {"metric": "contains-sql", "value": {"allowedTables": ["orders"]}},
        {"metric": "is-html"}, {"metric": "contains-html"},
        {"metric": "tool-call-f1", "value": ["lookup"]},
        {"metric": "is-valid-openai-tools-call", "config": {"tools": TOOLS}},
        {"metric": "finish-reason", "value": "stop"},
        {"metric": "bleu", "value": ref}, {"metric": "gleu", "value": ref}, {"metric": "rouge-n", "value": ref},
        {"metric": "python", "value": "len(output) > 20"},
        {"metric": "assert-set", "threshold": 0.5, "assert": [{"metric": "contains", "value": "Order"},
                                                              {"metric": "contains", "value": "refund"}]},
    ]


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    work = Path(tempfile.mkdtemp(prefix="au-bench-catalog-"))
    with (work / "cases.jsonl").open("w") as handle:
        for i in range(n):
            handle.write(json.dumps({"id": f"c{i}", "output": _output(i), "metrics": _metrics(i)}) + "\n")
    (work / "suite.json").write_text(json.dumps({"name": f"catalog x {n}", "cases_file": "cases.jsonl"}))
    per_case = len(_metrics(0))
    code, wall, peak = run_agentunit(["run", str(work / "suite.json"), "--db", str(work / "au.db"),
                                      "-o", str(work / "out.json"), "-q"])
    with (work / "out.json").open() as handle:
        head = handle.read(4000)
    summary = json.loads(head[: head.index(', "cases": [')] + "}")["summary"]
    errors = sum(counts.get("error", 0) for counts in summary["metrics"].values())
    print(f"cases={n} metrics_per_case={per_case} exit={code} metric_errors={errors}")
    print(f"wall_s={wall:.2f} cases_per_s={n / wall:,.0f} metric_results_per_s={n * per_case / wall:,.0f} "
          f"peak_rss_mb={peak:.0f}")


if __name__ == "__main__":
    main()
