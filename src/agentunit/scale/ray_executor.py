"""Run a suite's cases on a Ray cluster; the driver stores the results as a local run does.

The engine hands its job stream (seq, case, repeat) to ``RayExecutor.drain``. Jobs go out in batches to
a pool of actors; each actor holds its own engine (the suite, the target and the judge are built once
per actor, so a judge model loads once per worker) and returns, per case, the values the local engine
would store, plus the cache entries it made. The driver writes them into the run's store (the only
writer), so rows, reports and the exit code are those of a local run.

A worker process that dies costs only the batches it held: the actor is restarted (``max_restarts``)
and those batches are sent again (``max_task_retries``). A batch's results reach the store only
when its task returns, once, so every case is stored exactly once.

Caches: target reply cache hits are looked up on the driver before a batch is sent and shipped with
it; cache entries the workers make come back and are written by the driver. The judge cache is
written the same way but read only from what the worker itself decided during the run.

Quiet on success: an actor's constructor takes no object from the object store (Ray logs an error-level
line for any actor that may restart with one, ray-project/ray#53727) — the suite, target and options
reach each actor as a reference inside every call, and an actor (or its restart) builds its engine
from the first call it gets; the driver holds that object until the pool stops. The notice Ray logs
when it turns token authentication on for a local cluster it starts (the default, kept) is dropped;
every other warning of Ray's is left as it is.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import dataclasses
import logging
import os
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from agentunit.datasets.base import DatasetCase
from agentunit.errors import AgentUnitError
from agentunit.judges.service import current_judge

Job = tuple[int, DatasetCase, int]  # seq, case, repeat: the engine's job


@dataclass
class RayRunStats:
    """What one ``drain`` did: for logs, tests and the benchmark."""

    workers: int = 0
    startup_s: float = 0.0  # starting the pool: actor processes, the suite and target built in each
    batches: int = 0
    cases: int = 0
    worker_pids: list[int] = field(default_factory=list)  # the pool's processes when it started
    pids_seen: set[int] = field(default_factory=set)  # every process that returned a batch (restarts add some)


@dataclass
class RayExecutor:
    """Runs the engine's jobs on Ray actors (``RunOptions(executor=RayExecutor(...))``).

    Args:
        address: the cluster: ``"auto"`` (the one this machine belongs to), ``"ray://HOST:PORT"`` or a
            GCS address; None connects to the Ray already initialised in this process, else starts a
            local one for the run (as ``ray.init()`` does).
        workers: actors in the pool; None: one per ``num_cpus`` of the cluster's CPUs.
        batch_size: cases per Ray task (larger: less overhead per case, more work lost with a worker).
        in_flight: batches queued per actor, so an actor never waits for the driver between batches.
        num_cpus: CPUs each actor reserves.
        max_restarts: how often a dead actor is restarted; max_task_retries: how often the batches it
            held are sent again (only failures of the worker process, never a case's own error).
        runtime_env: Ray runtime environment for the actors (e.g. ``{"working_dir": "."}``).
    """

    address: str | None = None
    workers: int | None = None
    batch_size: int = 16
    in_flight: int = 2
    num_cpus: float = 1.0
    max_restarts: int = 3
    max_task_retries: int = 3
    runtime_env: dict[str, Any] | None = None
    stats: RayRunStats = field(default_factory=RayRunStats, init=False, repr=False)
    _payload: Any = field(default=None, init=False, repr=False)

    async def drain(self, engine: Any, run_id: str, jobs: Iterator[Job]) -> None:
        """Run every job on the actor pool and store each case's values through ``engine``.

        Args:
            engine: the driver's Engine (its store, target, cache settings and progress callback).
            run_id: the run the cases belong to.
            jobs: the engine's job stream; read lazily, one batch at a time.
        """
        ray = _import_ray()
        started_here = False
        if not ray.is_initialized():
            init: dict[str, Any] = {"address": self.address, "logging_level": logging.WARNING}
            if self.address is None:
                init["include_dashboard"] = False  # a local Ray for this run only: nothing to browse
            try:
                with _without_token_notice():
                    ray.init(**init)
            except (ConnectionError, ValueError, RuntimeError) as exc:  # no cluster there, a malformed address
                raise AgentUnitError(f"cannot start or reach Ray at {self.address or 'a local Ray'}: "
                                     f"{type(exc).__name__}: {exc}") from None
            started_here = True
        self.stats = RayRunStats()
        actors: list[Any] = []
        try:
            started = time.perf_counter()
            actors = self._start_pool(ray, engine)
            self.stats.startup_s = time.perf_counter() - started
            await self._run_batches(ray, engine, run_id, jobs, actors)
        finally:
            await _stop_pool(ray, actors)
            self._payload = None
            if started_here:
                ray.shutdown()

    def _start_pool(self, ray: Any, engine: Any) -> list[Any]:
        from ray import cloudpickle

        options = dataclasses.replace(engine.options, executor=None, resume=None)
        try:
            # The target as the driver built it (a callable given to evaluate() is not in the suite).
            payload = cloudpickle.dumps((engine.suite, engine.target, options))
        except Exception as exc:
            raise AgentUnitError(f"the suite or its target cannot be sent to Ray workers: "
                                 f"{type(exc).__name__}: {exc}") from None
        # Held until the pool stops: a restarted actor is built again from the same object.
        self._payload = ray.put(payload)
        search_paths = [str(Path.cwd())]
        if engine.suite.path is not None:
            search_paths.append(str(engine.suite.path.parent))
        count = self.workers or max(1, int(ray.cluster_resources().get("CPU", 1) // self.num_cpus))
        actor_class = ray.remote(_CaseWorker).options(
            num_cpus=self.num_cpus, max_restarts=self.max_restarts, max_task_retries=self.max_task_retries,
            runtime_env=self.runtime_env)
        actors = [actor_class.remote(search_paths) for _ in range(count)]
        self.stats.workers = count
        self.stats.worker_pids = ray.get([actor.start.remote([self._payload]) for actor in actors])
        return actors

    async def _run_batches(self, ray: Any, engine: Any, run_id: str, jobs: Iterator[Job], actors: list[Any]) -> None:
        batches = iter(lambda: list(islice(jobs, self.batch_size)), [])
        in_flight: dict[asyncio.Future[Any], int] = {}

        def submit(index: int) -> None:
            batch = next(batches, None)
            if batch is not None:
                ref = actors[index].evaluate.remote([self._payload], batch, _cache_hits(engine, batch))
                in_flight[asyncio.wrap_future(ref.future())] = index

        for _ in range(self.in_flight):
            for index in range(len(actors)):
                submit(index)
        try:
            while in_flight:
                done, _ = await asyncio.wait(in_flight, return_when=asyncio.FIRST_COMPLETED)
                for future in done:
                    index = in_flight.pop(future)
                    self._store_batch(engine, run_id, _batch_result(ray, future))
                    submit(index)
        finally:
            for future in in_flight:
                future.cancel()

    def _store_batch(self, engine: Any, run_id: str, result: dict[str, Any]) -> None:
        store = engine.store
        for key, reply_json, latency in result["cache"]:
            try:
                store.cache_put(key, reply_json, latency)
            except (TypeError, ValueError):
                pass  # as in a local run: a reply the store cannot keep is not cached
        for key, reply_json in result["judge_cache"]:
            store.judge_cache_put(key, reply_json)
        judge = current_judge()  # the run's summary counts the workers' judge calls as its own
        for name, delta in result["judge_stats"].items():
            setattr(judge.stats, name, getattr(judge.stats, name) + delta)
        for seq, repeat, values in result["cases"]:
            engine._store_case(run_id, seq, repeat, values)
        self.stats.batches += 1
        self.stats.cases += len(result["cases"])
        self.stats.pids_seen.add(result["pid"])


class _CaseWorker:
    """A Ray actor: one engine (suite, target, judge) evaluating batches of cases on one event loop.

    The constructor takes no object-store reference (see the module's docstring): every call brings the
    payload's reference, wrapped in a list so that Ray hands over the reference, not the object, and the
    first call an actor gets (``start``, or after a restart the batch retried on it) builds its engine."""

    def __init__(self, search_paths: list[str]) -> None:
        for folder in search_paths:  # where a python target's module is imported from, as on the driver
            if folder not in sys.path:
                sys.path.insert(0, folder)
        self._cache = _WorkerCache()
        # The cases run on an event loop of their own, on a thread of their own, for the actor's life (a
        # target's connections stay bound to it); Ray calls the methods on its own thread, one at a time.
        self._loop = asyncio.new_event_loop()
        threading.Thread(target=self._loop.run_forever, name="agentunit-cases", daemon=True).start()
        # The judge, the run-wide metric state and the media limits live in context variables: one
        # context for the actor's life, every batch runs inside it.
        self._context = contextvars.copy_context()
        self._engine: Any = None

    def _ready(self, payload: list[Any]) -> None:
        """Build the engine from the payload (``[ObjectRef]``) unless this actor has one already."""
        if self._engine is not None:
            return
        import ray
        from ray import cloudpickle

        suite, target, options = cloudpickle.loads(ray.get(payload[0]))
        self._engine = self._context.run(self._build, suite, target, options)

    def _build(self, suite: Any, target: Any, options: Any) -> Any:
        from agentunit.core.engine import Engine
        from agentunit.judges.service import current_judge, use_judge
        from agentunit.media import MediaLimits, use_limits
        from agentunit.metrics.base import begin_run_state

        engine = Engine(suite, self._cache, options, target=target)  # type: ignore[arg-type]
        use_judge(suite.judge)
        current_judge().store = self._cache
        begin_run_state()
        use_limits(MediaLimits.for_suite(suite.options, suite.media_dir))
        return engine

    def start(self, payload: list[Any]) -> int:
        """Build the engine (the suite, its target and judge); this process's id."""
        self._ready(payload)
        return os.getpid()

    def evaluate(self, payload: list[Any], batch: list[Job], hits: dict[str, tuple[str, float | None]]
                 ) -> dict[str, Any]:
        """Evaluate a batch; per case ``(seq, repeat, values)``, and the cache entries made on the way."""
        self._ready(payload)
        return self._in_context(_evaluate_batch(self._engine, self._cache, batch, hits))

    def _in_context(self, coroutine: Any) -> Any:
        """Run ``coroutine`` on the actor's loop, in the actor's context; its result."""
        return self._context.run(asyncio.run_coroutine_threadsafe, coroutine, self._loop).result()

    def close(self) -> None:
        """Close the target's and the judge's connections before the actor goes."""
        if self._engine is None:
            return

        async def _close() -> None:
            if self._engine.target is not None:
                await self._engine.target.aclose()
            await current_judge().aclose()

        self._in_context(_close())


async def _evaluate_batch(engine: Any, cache: _WorkerCache, batch: list[Job],
                          hits: dict[str, tuple[str, float | None]]) -> dict[str, Any]:
    """A batch's cases evaluated on the actor's loop. A function, not a method: an actor class with a
    coroutine method is an async actor to Ray, whose methods must not wait (``ray.get``) for the payload."""
    cache.begin(hits)
    judge = current_judge()
    before = dataclasses.asdict(judge.stats)
    limit = asyncio.Semaphore(max(1, engine.options.concurrency))

    async def one(seq: int, case: DatasetCase, repeat: int) -> tuple[int, int, dict[str, Any]]:
        async with limit:
            return seq, repeat, await engine._evaluate(case, repeat)

    cases = await asyncio.gather(*(one(*job) for job in batch))
    after = dataclasses.asdict(judge.stats)
    return {"cases": cases, "cache": cache.puts, "judge_cache": cache.judge_puts,
            "judge_stats": {k: after[k] - before[k] for k in after if after[k] != before[k]}, "pid": os.getpid()}


class _WorkerCache:
    """The store as a worker's engine and judge see it: caches only, the writes sent back to the driver."""

    dialect = "ray-worker"

    def __init__(self) -> None:
        self._replies: dict[str, tuple[str, float | None]] = {}
        self._judged: dict[str, str] = {}
        self.puts: list[tuple[str, str, float | None]] = []
        self.judge_puts: list[tuple[str, str]] = []

    def begin(self, hits: dict[str, tuple[str, float | None]]) -> None:
        """A new batch: the driver's cache hits for it; the entries made since the last batch were sent."""
        self._replies.update(hits)
        self.puts, self.judge_puts = [], []

    def cache_get(self, key: str) -> tuple[str, float | None] | None:
        return self._replies.get(key)

    def cache_put(self, key: str, reply_json: str, latency_ms: float | None) -> None:
        self._replies[key] = (reply_json, latency_ms)
        self.puts.append((key, reply_json, latency_ms))

    def judge_cache_get(self, key: str) -> str | None:
        return self._judged.get(key)

    def judge_cache_put(self, key: str, reply_json: str) -> None:
        self._judged[key] = reply_json
        self.judge_puts.append((key, reply_json))


def _cache_hits(engine: Any, batch: list[Job]) -> dict[str, tuple[str, float | None]]:
    """The target replies the driver's store holds for a batch's single-turn cases (a conversation's
    turns are not looked up here: the worker calls the target for them)."""
    from agentunit.core.engine import _scripted_conversation

    target = engine.target
    if not engine.use_cache or target is None:
        return {}
    hits = {}
    for _, case, repeat in batch:
        if case.output is not None or _scripted_conversation(case):
            continue
        try:
            key = target.cache_key(target.request(case), repeat)
        except Exception:
            continue  # the worker reports the case's error when it builds the same request
        hit = engine.store.cache_get(key)
        if hit is not None:
            hits[key] = hit
    return hits


def _batch_result(ray: Any, future: asyncio.Future[Any]) -> dict[str, Any]:
    """A finished batch's result; a worker lost for good (restarts spent) ends the run with the reason."""
    try:
        return future.result()
    except ray.exceptions.RayTaskError as exc:  # a bug in the engine or a metric: the original exception
        raise exc.as_instanceof_cause() from None
    except ray.exceptions.RayError as exc:
        raise AgentUnitError(f"a Ray worker was lost and its retries are spent: {type(exc).__name__}: {exc}") \
            from None


async def _stop_pool(ray: Any, actors: list[Any]) -> None:
    if not actors:
        return
    closing = [asyncio.wrap_future(actor.close.remote().future()) for actor in actors]
    done, _ = await asyncio.wait(closing, timeout=10)
    for future in done:
        future.exception()  # an actor lost for good cannot close; that is not the run's error
    for actor in actors:
        ray.kill(actor, no_restart=True)


_TOKEN_LOGGER = "ray._private.authentication.authentication_token_setup"
_TOKEN_NOTICE = "Token authentication is enabled for this Ray cluster"


class _DropTokenNotice(logging.Filter):
    """Drops Ray's notice that a local cluster it starts has token authentication on (its default, kept)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith(_TOKEN_NOTICE)


@contextlib.contextmanager
def _without_token_notice() -> Iterator[None]:
    """While Ray starts or joins a cluster: its token-authentication notice is not printed."""
    logger, drop = logging.getLogger(_TOKEN_LOGGER), _DropTokenNotice()
    logger.addFilter(drop)
    try:
        yield
    finally:
        logger.removeFilter(drop)


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise AgentUnitError("the Ray executor needs Ray: pip install 'agentunit[ray]'") from None
    return ray
