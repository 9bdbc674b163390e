"""Bench: write throughput of the results store, SQLite versus PostgreSQL (cases/s).

N cases × 3 metric results go through ``Store.add_case`` in the store's own batches (2,000 cases,
one transaction each), as a run writes them; the time includes the last flush and closing. SQLite is a
file in a temporary directory (WAL, synchronous=NORMAL). PostgreSQL is the server at ``--url`` or, by
default, a throwaway cluster this script starts from Debian's binaries (``make postgres``) on a free
loopback port with the server's default durability (fsync on). Also printed: N cases written by 4
concurrent writers (threads, one connection each) into PostgreSQL.
Usage: python bench/store.py [N] [--url postgresql://USER:PASSWORD@HOST:PORT/DB]
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace

from agentunit.store import Store, redact_url

METRICS = [SimpleNamespace(name=name, status="passed", value=1.0, passed=True, threshold=None, weight=1.0, reason="ok",
                           detail={}, error=None, label=None) for name in ("contains", "regex", "starts-with")]


def write(db: str | Path, n: int, run_id: str = "bench", offset: int = 0) -> float:
    """Seconds to write ``n`` cases × 3 metric results into ``db`` as one run."""
    start = time.perf_counter()
    store = Store(db)
    store.start_run(run_id, suite="bench", suite_path=None, suite_hash=None, started_at="2026-01-01T00:00:00+00:00",
                    options={}, target={"type": "echo"})
    for i in range(offset, offset + n):
        store.add_case(run_id, i, f"c{i}", 0, status="passed", passed=True, score=1.0,
                       prompt=f"Answer: item {i} of the benchmark", output=f"Answer: item {i} of the benchmark",
                       error=None, latency_ms=0.1, cached=False, envelope=None, metrics=METRICS)
    store.mark_run(run_id, "completed", finished_at="2026-01-01T00:00:01+00:00", summary={"cases": n})
    store.close()
    return time.perf_counter() - start


@contextmanager
def cluster() -> Iterator[str]:
    """A throwaway PostgreSQL cluster (run as ``postgres`` when this is root); yields its URL."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if not found:
        sys.exit("no PostgreSQL server binaries (/usr/lib/postgresql/*/bin): run `make postgres` or pass --url")
    bindir = Path(found[-1]).parent
    work = Path(tempfile.mkdtemp(prefix="au-bench-pg-"))
    os.chmod(work, 0o755)
    prefix: list[str] = []
    if os.geteuid() == 0:
        owner = pwd.getpwnam("postgres")
        os.chown(work, owner.pw_uid, owner.pw_gid)
        prefix = ["runuser", "-u", "postgres", "--"]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    data = work / "data"
    subprocess.run([*prefix, str(bindir / "initdb"), "-D", str(data), "-U", "bench", "-A", "trust", "-E", "UTF8",
                    "--no-locale"], check=True, capture_output=True)
    subprocess.run([*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-l", str(work / "log"), "-w", "-o",
                    f"-p {port} -k {work} -c listen_addresses=127.0.0.1", "start"], check=True, capture_output=True)
    try:
        yield f"postgresql://bench@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"],
                       capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


def concurrent(url: str, n: int, writers: int = 4) -> float:
    """Seconds for ``writers`` threads to write ``n`` cases in all, each its own run and connection."""
    share = n // writers
    threads = [threading.Thread(target=write, args=(url, share, f"bench-w{k}", k * share)) for k in range(writers)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - start


def main() -> None:
    n = int(next((a for a in sys.argv[1:] if a.isdigit()), 100_000))
    url = sys.argv[sys.argv.index("--url") + 1] if "--url" in sys.argv else None
    with tempfile.TemporaryDirectory() as tmp:
        seconds = write(Path(tmp) / "bench.db", n)
    print(f"sqlite      cases={n} metrics={3 * n} wall_s={seconds:.2f} cases_per_s={n / seconds:,.0f}")
    with (cluster() if url is None else _given(url)) as db:
        seconds = write(db, n)
        print(f"postgresql  cases={n} metrics={3 * n} wall_s={seconds:.2f} cases_per_s={n / seconds:,.0f}"
              f"  ({redact_url(db)})")
        seconds = concurrent(db, n)
        print(f"postgresql  4 writers, cases={n} in all wall_s={seconds:.2f} cases_per_s={n / seconds:,.0f}")


@contextmanager
def _given(url: str) -> Iterator[str]:
    yield url


if __name__ == "__main__":
    main()
