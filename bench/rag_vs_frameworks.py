"""Bench: our context-faithfulness vs DeepEval's FaithfulnessMetric vs RAGAS's Faithfulness.

All three use the same judge: the embedded model served by ``agentunit models serve judge``, behind a
counting proxy that records every chat completion and its token usage per tool. DeepEval and RAGAS
run from a separate virtual environment (they are not agentunit dependencies):

    python3 -m venv /tmp/ragbench-venv
    /tmp/ragbench-venv/bin/pip install deepeval ragas "langchain-community<0.4" "langchain<1" \\
        "langchain-core<1" "langchain-openai<1"      # ragas 0.4.3 imports a module langchain-community 0.4 dropped
    python bench/rag_vs_frameworks.py --python /tmp/ragbench-venv/bin/python --per-kind 12

Cases: ``--per-kind`` rows of each of the seven kinds of tests/data/rag_dev.jsonl (grounded answers
and answers with contradicted or unsupported facts, short and long contexts). Each tool is scored at
its own default pass mark (ours 0.65, DeepEval 0.5, RAGAS 0.5: the usual cut, it has none) and at the
best of 0.5/0.7/0.9/1.0 in hindsight. A case a tool cannot score counts as a wrong verdict.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

from aiohttp import ClientSession, ClientTimeout, web

from agentunit.core.envelope import build_trace
from agentunit.core.outcome import Outcome
from agentunit.datasets.base import DatasetCase
from agentunit.judges.service import use_judge
from agentunit.metrics import create_metric
from agentunit.metrics.base import score_async

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "rag_dev.jsonl"
WORKER = ROOT / "bench" / "_rag_frameworks_worker.py"
DEFAULT_THRESHOLD = {"agentunit": 0.65, "deepeval": 0.5, "ragas": 0.5}


class CountingProxy:
    """Forwards ``/<tool>/v1/...`` to the judge server and counts calls and tokens per tool."""

    def __init__(self, upstream: str):
        self.upstream = upstream.rstrip("/")
        self.counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        self.url = ""
        self._ready = threading.Event()

    async def _forward(self, request: web.Request) -> web.Response:
        tool, rest = request.match_info["tool"], request.match_info["rest"]
        body = await request.read()
        async with self._session.request(request.method, f"{self.upstream}/{rest}", data=body,
                                         headers={"Content-Type": "application/json"}) as reply:
            payload = await reply.read()
            if rest.endswith("chat/completions"):
                counts = self.counts[tool]
                counts["calls"] += 1
                try:
                    usage = json.loads(payload).get("usage") or {}
                except ValueError:
                    usage = {}
                counts["prompt_tokens"] += int(usage.get("prompt_tokens") or 0)
                counts["completion_tokens"] += int(usage.get("completion_tokens") or 0)
            return web.Response(body=payload, status=reply.status, content_type="application/json")

    def start(self) -> None:
        threading.Thread(target=self._serve, daemon=True).start()
        self._ready.wait(30)

    def _serve(self) -> None:
        async def main() -> None:
            self._session = ClientSession(timeout=ClientTimeout(total=1200))
            app = web.Application(client_max_size=64 * 1024 * 1024)
            app.router.add_route("*", "/{tool}/{rest:.*}", self._forward)
            runner = web.AppRunner(app, access_log=None)
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            port = site._server.sockets[0].getsockname()[1]
            self.url = f"http://127.0.0.1:{port}"
            self._ready.set()
            await asyncio.Event().wait()

        asyncio.run(main())


def balanced_accuracy(labels: list[int], scores: list[float | None], threshold: float) -> float:
    right = defaultdict(int)
    total = defaultdict(int)
    for label, value in zip(labels, scores, strict=True):
        total[label] += 1
        right[label] += value is not None and (value >= threshold) == bool(label)
    return sum(right[k] / total[k] for k in total) / len(total)


async def run_agentunit(cases: list[dict], base_url: str) -> tuple[list[float | None], int]:
    """Scores, and the number of claim decisions made (cache hits included)."""
    use_judge({"provider": "openai", "base_url": base_url, "model": "judge", "api_key": "none"})
    scores, claims = [], 0
    for row in cases:
        metric = create_metric("context-faithfulness")
        case = DatasetCase(id="dev", query=row["query"], context=row["context"])
        outcome = Outcome(output=row["output"])
        result = await score_async(metric, case, build_trace(outcome, case.query), outcome)
        scores.append(result.value)
        claims += len(result.detail.get("claims", []))
    return scores, claims


def run_framework(python: str, framework: str, base_url: str, cases: list[dict]) -> tuple[list, list, list]:
    feed = "".join(json.dumps(c) + "\n" for c in cases)
    done = subprocess.run([python, str(WORKER), framework, base_url], input=feed, capture_output=True, text=True,
                          check=False)
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    if len(rows) != len(cases):
        sys.stderr.write(done.stderr[-3000:])
        raise SystemExit(f"{framework}: worker returned {len(rows)} of {len(cases)} results")
    return [r["score"] for r in rows], [r["seconds"] for r in rows], [r["error"] for r in rows if r["error"]]


def select(per_kind: int) -> list[dict]:
    rows = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
    by_kind = defaultdict(list)
    for row in rows:
        by_kind[row["kind"]].append(row)
    # rows spread evenly over each kind's topics, not the first few of the file
    return [r for kind in sorted(by_kind) for r in by_kind[kind][::max(1, len(by_kind[kind]) // per_kind)][:per_kind]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--python", required=True, help="python of the venv holding deepeval and ragas")
    parser.add_argument("--per-kind", type=int, default=3)
    parser.add_argument("--tools", default="agentunit,deepeval,ragas")
    args = parser.parse_args()
    cases = select(args.per_kind)
    labels = [r["label"] for r in cases]
    server = subprocess.Popen([sys.executable, "-m", "agentunit", "models", "serve", "judge"], stdout=subprocess.PIPE,
                              text=True)
    try:
        line = server.stdout.readline()
        upstream = line.rsplit(" ", 1)[-1].strip()
        print(f"judge: {line.strip()}", flush=True)
        proxy = CountingProxy(upstream)
        proxy.start()
        results = {}
        for tool in args.tools.split(","):
            start = time.perf_counter()
            base_url = f"{proxy.url}/{tool}"
            if tool == "agentunit":
                scores, claims = asyncio.run(run_agentunit(cases, base_url))
                errors = [None for s in scores if s is None]
                print(f"agentunit: {claims / len(cases):.2f} claim decisions per case; the rest of the "
                      "calls/case gap is claims repeated across cases, answered from the judge cache", flush=True)
            else:
                scores, _, errors = run_framework(args.python, tool, base_url, cases)
            results[tool] = (scores, time.perf_counter() - start, errors)
            print(f"{tool}: done in {results[tool][1]:.0f} s, {len(errors)} unscored", flush=True)
    finally:
        server.terminate()
    n = len(cases)
    print(f"\n{n} cases ({sum(labels)} grounded, {n - sum(labels)} with unsupported/contradicted facts), "
          f"one served judge (Qwen2.5-Coder-1.5B Q4_K_M), 2-core CPU")
    print(f"{'tool':<10} {'bal.acc@default':>15} {'best (thr)':>12} {'unscored':>8} {'calls/case':>10} "
          f"{'prompt tok/case':>15} {'compl. tok/case':>15} {'s/case':>7}")
    for tool, (scores, wall, errors) in results.items():
        counts = proxy.counts[tool]
        default = balanced_accuracy(labels, scores, DEFAULT_THRESHOLD[tool])
        best = max((balanced_accuracy(labels, scores, t), t) for t in (0.5, 0.7, 0.9, 1.0))
        print(f"{tool:<10} {default:>15.3f} {best[0]:>7.3f} ({best[1]:.1f}) {len(errors):>8} "
              f"{counts['calls'] / n:>10.1f} {counts['prompt_tokens'] / n:>15.0f} "
              f"{counts['completion_tokens'] / n:>15.0f} {wall / n:>7.1f}")
        for error in sorted({e for e in errors if e})[:3]:
            print(f"    e.g. {error}")


if __name__ == "__main__":
    main()
