"""Bench: page latency of `agentunit view` on a results database with two runs of N cases (default 100,000).

Builds the database with bulk SQL in the store's own schema (agentunit.store.sqlite.SCHEMA): each case has
three metric results, an envelope on every tenth case, a large output (kept once in `texts`) on every
hundredth. Then serves it with the viewer and requests each kind of page over HTTP, ROUNDS times each,
and prints p50/p95 in milliseconds. Target: every case-grid page of the 100,000-case run under 200 ms.
Usage: python bench/viewer.py [N] [--rounds R] [--db PATH]   (an existing PATH is reused as is)
       python bench/viewer.py 300 --screenshots docs/images   (the PNGs of docs/viewer.md; needs chromium)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sqlite3
import statistics
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

from agentunit.store.sqlite import SCHEMA
from agentunit.viewer import make_server

METRICS = ("contains", "regex", "answer_relevancy")
RUNS = ("20250101T000000-aaaaaa", "20250102T000000-bbbbbb")


def build(path: Path, n: int) -> None:
    """Two runs of ``n`` cases each, written in batches of 10,000 rows."""
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    rng = random.Random(7)
    for index, run_id in enumerate(RUNS):
        failing = 0.12 if index == 0 else 0.09
        cases, metrics, texts, counts = [], [], {}, {m: {"passed": 0, "failed": 0} for m in METRICS}
        status_counts = {"passed": 0, "failed": 0, "errored": 0, "unmeasured": 0}
        for i in range(n):
            case_id = f"case-{i:06d}"
            output, output_hash = f"Answer {i}: the item is {rng.choice(('blue', 'green', 'red'))}.", None
            if i % 100 == 0:
                body = (output + " ") * 600
                output_hash, output = hashlib.sha256(body.encode()).hexdigest(), None
                texts[output_hash] = body
            envelope = json.dumps({"context": [f"document {i}"], "tool_calls": [
                {"name": "lookup", "arguments": {"q": i}, "output": "blue"}]}) if i % 10 == 0 else None
            verdicts = [rng.random() > failing for _ in METRICS]
            status = "passed" if all(verdicts) else "failed"
            status_counts[status] += 1
            cases.append((run_id, i, case_id, 0, status, int(status == "passed"), sum(verdicts) / 3,
                          f"Question {i} about the benchmark", output, None, rng.uniform(5, 900), 0, envelope,
                          time.time(), output_hash))
            for position, (metric, ok) in enumerate(zip(METRICS, verdicts, strict=True)):
                counts[metric]["passed" if ok else "failed"] += 1
                metrics.append((run_id, case_id, 0, position, metric, "passed" if ok else "failed", float(ok), int(ok),
                                0.5, 1.0, "matched" if ok else "did not match", None, None, None))
            if len(cases) >= 10_000 or i == n - 1:
                with conn:
                    conn.executemany(f"INSERT INTO case_results VALUES ({','.join('?' * 15)})", cases)
                    conn.executemany(f"INSERT INTO metric_results VALUES ({','.join('?' * 14)})", metrics)
                    conn.executemany("INSERT OR IGNORE INTO texts VALUES (?, ?)", list(texts.items()))
                cases, metrics, texts = [], [], {}
        summary = {"cases": n, **status_counts, "allow_unmeasured": False, "metrics": counts}
        with conn:
            conn.execute("INSERT INTO runs VALUES (?, 'bench', NULL, NULL, ?, ?, 'completed', '{}', NULL, ?)",
                         (run_id, f"2025-01-0{index + 1}T00:00:00+00:00", f"2025-01-0{index + 1}T01:00:00+00:00",
                          json.dumps(summary)))
    conn.close()


def _timed(url: str) -> float:
    start = time.perf_counter()
    with urllib.request.urlopen(url) as reply:
        reply.read()
        assert reply.status == 200, url
    return (time.perf_counter() - start) * 1000


def screenshots(path: Path, folder: Path) -> None:
    """PNGs of each viewer page and of the HTML report (Playwright driving /usr/bin/chromium), palette-reduced."""
    from types import SimpleNamespace

    from PIL import Image
    from playwright.sync_api import sync_playwright

    from agentunit.reporting.html import write_html
    from agentunit.store.sqlite import Store

    folder.mkdir(parents=True, exist_ok=True)
    server = make_server(path, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    run = quote(RUNS[1], safe="")
    store = Store(path)
    meta = store.get_run(RUNS[1])
    report = folder.resolve() / "report.html"
    write_html(SimpleNamespace(run_id=RUNS[1], suite=meta["suite"], started_at=meta["started_at"],
                               summary=meta["summary"], iter_cases=lambda: store.iter_cases(RUNS[1])), report)
    shots = {"viewer-runs": server.url, "viewer-run": server.url + f"run/{run}?status=failed",
             "viewer-case": server.url + f"run/{run}/case?id=case-000010",
             "viewer-compare": server.url + f"compare?a={RUNS[0]}&b={RUNS[1]}", "report": report.as_uri()}
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path="/usr/bin/chromium")
        page = browser.new_page(viewport={"width": 1100, "height": 720})
        for name, url in shots.items():
            page.goto(url)
            if name == "report":
                page.select_option("select[name=status]", "failed")
            target = folder / f"{name}.png"
            page.screenshot(path=str(target))
            Image.open(target).convert("RGB").quantize(64).save(target, optimize=True)
            print(f"{target}: {target.stat().st_size / 1000:.0f} kB")
        browser.close()
    report.unlink()
    store.close()
    server.shutdown()
    server.server_close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", nargs="?", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--screenshots", type=Path, default=None, help="write PNGs of the pages to this folder")
    args = parser.parse_args()
    path = args.db or Path(tempfile.mkdtemp(prefix="au-bench-viewer-")) / "viewer.db"
    if not path.exists():
        start = time.perf_counter()
        build(path, args.n)
        print(f"built {path}: 2 runs × {args.n:,} cases × {len(METRICS)} metrics in "
              f"{time.perf_counter() - start:.1f} s, {path.stat().st_size / 1e6:.0f} MB")
    if args.screenshots is not None:
        screenshots(path, args.screenshots)
        return
    server = make_server(path, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    run = quote(RUNS[1], safe="")
    last = args.n - 1
    pages = {
        "runs (with trends)": "",
        "run, first page": f"run/{run}",
        "run, page 1000 (deep)": f"run/{run}?page={max(1, args.n // 50 // 2)}",
        "run, last page": f"run/{run}?page={max(1, (args.n + 49) // 50)}",
        "run, status=failed": f"run/{run}?status=failed",
        "run, metric regex failed": f"run/{run}?metric=regex&verdict=failed&page=20",
        "run, search (matches)": f"run/{run}?q=is+green",
        "run, search (rare)": f"run/{run}?q=case-0{last:05d}",
        "case (large output)": f"run/{run}/case?id=case-000100",
        "case (envelope)": f"run/{run}/case?id=case-000010",
        "compare (kept after first)": f"compare?a={RUNS[0]}&b={RUNS[1]}",
    }
    first = _timed(server.url + pages["compare (kept after first)"])
    print(f"compare, first request (agentunit.stats.compare_runs over both runs): {first:.0f} ms")
    print(f"{'page':<28} {'p50 ms':>8} {'p95 ms':>8}")
    for name, page in pages.items():
        url = server.url + page
        _timed(url)  # warm the page cache
        times = sorted(_timed(url) for _ in range(args.rounds))
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        print(f"{name:<28} {statistics.median(times):>8.1f} {p95:>8.1f}")
    server.shutdown()
    server.server_close()


if __name__ == "__main__":
    main()
