"""The run engine: cases × repeats through the target and the metrics, into the store.

asyncio with ``concurrency`` workers pulling from one shared case stream (cases are never all in
memory); a target failure or timeout errors that case and the run goes on; target replies are
cached by request hash (keeping their original latency); ``resume`` skips committed cases. A run in
which nothing can suspend (``Engine.runs_inline``) is driven without an event loop, and a large one is
split across processes (``agentunit.core.shards``).
"""

from __future__ import annotations

import dataclasses
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from collections.abc import Set as AbstractSet
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agentunit._digest import sha256_hex
from agentunit.core.envelope import EnvelopeError, build_trace, ordered_events, parse_reply
from agentunit.core.inline import SHARDED_FROM, drive
from agentunit.core.outcome import Outcome
from agentunit.core.run import RunOptions, RunResult, new_run_id
from agentunit.core.scoring import judge_case, pass_at_k, pass_hat_k
from agentunit.core.trace import TraceLog
from agentunit.datasets.base import DatasetCase
from agentunit.errors import AgentUnitError
from agentunit.media.fields import METADATA_MEDIA_KEYS
from agentunit.media.limits import MediaLimits, reset_case_deadline, reset_limits, use_case_deadline, use_limits
from agentunit.metrics import metric_from_spec
from agentunit.metrics.base import MetricResult, begin_run_state, end_run_state, score, score_async
from agentunit.store.sqlite import Store
from agentunit.store.text import encodable
from agentunit.suite.model import Suite
from agentunit.targets import make_target
from agentunit.targets._secrets import redact_text
from agentunit.targets.base import Reply, Target

if TYPE_CHECKING:
    from agentunit.reporting.spool import ReportSpool

DEFAULT_CASE_TIMEOUT_S = 300.0
_NO_SECRETS: frozenset[str] = frozenset()
_LOCAL_JUDGE = {"provider": "local"}  # a suite's judge when it names none
_HAS_TIMEOUT_CM = sys.version_info >= (3, 11)  # asyncio.timeout()
if _HAS_TIMEOUT_CM:
    # asyncio.TimeoutError is the built-in one since 3.11: a run that awaits nothing does not import asyncio
    _TimedOut: type[BaseException] = TimeoutError
else:  # pragma: no cover - Python 3.10
    from asyncio import TimeoutError as _TimedOut


def _now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class Engine:
    """Runs one suite into one store. Build it, then ``await run()``."""

    def __init__(self, suite: Suite, store: Store, options: RunOptions | None = None, *,
                 target: Target | None = None, on_progress: Callable[[int, int | None], None] | None = None,
                 judge: Any = None):
        self.suite = suite
        self.store = store
        self.options = options or RunOptions()
        base_dir = suite.path.parent if suite.path else None
        if target is None and getattr(suite, "variants", None) is not None:
            target = suite.build_target()  # `targets:`: one target per label
        self.target = target if target is not None else make_target(suite.target, base_dir)
        self.on_progress = on_progress
        self.judge = judge  # a JudgeService to use instead of the suite's (dry runs count calls with one)
        # The per-case limit spans the target call (every attempt) and the metrics (judge calls
        # included); a target's own `timeout` bounds one attempt. The echo target is not bounded:
        # it cannot hang, and the benchmark's hot path should not pay for a timer.
        self.timeout = self.options.timeout or suite.options.get("timeout") or DEFAULT_CASE_TIMEOUT_S
        self._bound_target = self.target is not None and self.target.kind != "echo"
        self.use_cache = self.options.cache and self.target is not None and self.target.cache_enabled
        try:
            self._filter = re.compile(self.options.filter) if self.options.filter else None
        except re.error as exc:
            raise AgentUnitError(f"--filter {self.options.filter!r} is not a valid regular expression: {exc}") from None
        self._done = 0
        self._in_flight = 0
        self.run_id: str | None = None
        # The prompts × targets labels to record per case (None: not a matrix suite, nothing to do per case).
        self._matrix_keys: tuple[str, str] | None = getattr(suite, "matrix_keys", None)
        self._target_transforms = bool(getattr(suite, "has_transforms", False))
        self._inline = False  # set by execute() for a run driven without an event loop
        self._report_spool: ReportSpool | None = None  # the run's, while it runs
        self._judged = True  # whether the run set a judge up (``_uses_a_judge``), from run() on
        self._judge_waited = 0.0  # seconds the stored cases waited in line for the judge, summed

    # -- driving the run ------------------------------------------------------------------------

    def execute(self) -> RunResult:
        """Run to the end from synchronous code (the CLI, ``agentunit.run``).

        A run in which nothing can suspend — the echo target or recorded outputs, no metric with
        ``evaluate_async``, no executor — is driven without an event loop: the run's coroutine is
        stepped once and finishes (asyncio is not even imported; about 25 ms of a short run's start-up).
        Any other run goes through ``asyncio.run``, in a helper thread when this thread already runs a loop.
        """
        if self.runs_inline():
            self._inline = True
            try:
                return drive(self.run())
            finally:
                self._inline = False
        from agentunit.core.sync import run_blocking

        return run_blocking(self.run())

    def runs_inline(self) -> bool:
        """Whether ``execute`` can drive this run without an event loop (see there)."""
        target = self.target
        return (self.options.executor is None and getattr(self.suite, "awaits_nothing", False)
                and (target is None or target.sends_inline()))

    # -- jobs -----------------------------------------------------------------------------------

    def _jobs(self, skip: set[tuple[str, int]], first: int = 0,
              cases: Iterable[DatasetCase] | None = None) -> Iterator[tuple[int, DatasetCase, int]]:
        """(case index, case, attempt) of every attempt to run, from case index ``first`` on (``cases``: the
        suite's from there, when a resident helper holds them; agentunit.suite.split)."""
        if cases is None:
            cases = self.suite.iter_cases(first) if first else self.suite.iter_cases()
        for seq, case in enumerate(cases, first):
            if not isinstance(case.id, str):  # a case built in Python may carry a number: ids are text from here on
                case = dataclasses.replace(case, id=str(case.id))
            if self._filter and not (self._filter.search(case.id) or self._filter.search(case.query or "")):
                continue
            stored_id = encodable(str(case.id))  # the store keeps ids made encodable: resume must match them
            for repeat in range(self.options.repeat):
                if (stored_id, repeat) not in skip:
                    yield seq, case, repeat

    @staticmethod
    def _metrics_of(case: DatasetCase) -> list[Any]:
        return [m if callable(getattr(m, "evaluate", None)) else metric_from_spec(m) for m in case.metrics]

    # -- one case -------------------------------------------------------------------------------

    async def _call_target(self, case: DatasetCase, repeat: int, deadline: float,
                           meter: dict[str, Any] | None = None) -> tuple[Outcome, TraceLog | None]:
        target = self.target
        if case.output is not None:
            return parse_reply(case.output), None
        if target is None:
            raise AgentUnitError("the suite has no target and this case has no recorded `output`")
        request = target.request(case)
        key = target.cache_key(request, repeat) if self.use_cache else None
        hit = self.store.cache_get(key) if key else None
        if hit is not None:
            reply, latency, cached = Reply.from_json(hit[0]), hit[1], True
        else:
            running = None
            if meter is not None:
                from agentunit.sustainability.meter import ResourceMeter

                running = ResourceMeter(in_flight=lambda: self._in_flight, **meter).start()
            self._in_flight += 1
            start = time.perf_counter()
            try:
                sending = target.send(case, request)
                reply = await (_within(sending, deadline) if self._bound_target else sending)
            finally:
                self._in_flight -= 1
                usage = running.stop() if running is not None else None
            # Time of the attempt that answered, when the target knows it: retry waits are not latency.
            attempt_ms = getattr(reply, "latency_ms", None)
            latency = attempt_ms if attempt_ms is not None else (time.perf_counter() - start) * 1000.0
            cached = False
            secrets = self._secrets()
            if secrets:  # a reply echoing a key must not carry it into metrics, judges, the cache or reports
                reply.body = scrub(reply.body, secrets)
            if key:
                try:
                    self.store.cache_put(key, reply.to_json(), latency)
                except (TypeError, ValueError):
                    pass  # a reply that is not JSON-serialisable is not cached
        outcome = parse_reply(reply.body)
        outcome.latency_ms, outcome.cached = latency, cached
        if meter is not None and not cached:
            if target.kind in ("http", "openai"):
                from agentunit.sustainability.meter import REMOTE_SCOPE

                usage.scope = REMOTE_SCOPE
            outcome.resources = usage.to_dict()
        if reply.usage is not None:
            outcome.usage = reply.usage
        if reply.logprobs is not None:
            outcome.logprobs = reply.logprobs
        if reply.finish_reason is not None:
            outcome.finish_reason = reply.finish_reason
        if reply.cost is not None:
            outcome.cost = reply.cost
        return outcome, reply.extra.get("trace")

    def _secrets(self) -> frozenset[str]:
        """Secret values the target and the judge resolved so far (API keys, ${ENV} headers)."""
        own = self.target.secrets if self.target is not None else None
        judge_secrets = getattr(self._judge_service(), "secrets", None) if self._judged else None
        if not own and not judge_secrets:
            return _NO_SECRETS  # the usual case, asked twice per case: no set is built
        return frozenset(own or ()) | frozenset(judge_secrets or ())

    async def _converse(self, case: DatasetCase, repeat: int,
                        deadline: float) -> tuple[DatasetCase, Outcome, TraceLog | None]:
        """Play a conversation of user turns against the target, one call per turn with the history.

        Each call sees the turn as its prompt and the transcript so far as the case's ``conversation``
        (and the ``history`` template variable). The case handed to the metrics holds the whole
        transcript up to the last user turn; the outcome is the last reply, with the tool and agent
        calls of every turn and the summed latency.
        """
        history: list[dict[str, Any]] = []
        calls: list[dict[str, Any]] = []
        agent_calls: list[dict[str, Any]] = []
        events: list[dict[str, Any]] | None = []  # None once a turn's call order is unknown
        latency = 0.0
        cached = True
        outcome = Outcome(output="")
        for turn in case.conversation or []:
            content = str(turn.get("content", ""))
            step = dataclasses.replace(case, query=content, conversation=list(history),
                                       vars={**case.vars, "history": list(history)})
            outcome, _ = await self._call_target(step, repeat, deadline)
            history += [{"role": "user", "content": content}, {"role": "assistant", "content": outcome.output or ""}]
            calls += outcome.tool_calls
            agent_calls += outcome.agent_calls
            turn_events = ordered_events(outcome)
            events = None if events is None or turn_events is None else events + turn_events
            latency += outcome.latency_ms or 0.0
            cached = cached and outcome.cached
        outcome.tool_calls, outcome.agent_calls, outcome.events = calls, agent_calls, events
        outcome.latency_ms, outcome.cached = latency, cached
        return dataclasses.replace(case, conversation=history[:-1]), outcome, None

    async def _run_one(self, run_id: str, seq: int, case: DatasetCase, repeat: int) -> None:
        self._store_case(run_id, seq, repeat, await self._evaluate(case, repeat))

    def _store_case(self, run_id: str, seq: int, repeat: int, values: dict[str, Any]) -> None:
        """Store one evaluated case (``_evaluate``'s values, made here or by an executor's worker)."""
        if self._judged and values.get("envelope"):
            self._judge_waited += values["envelope"].get("judge_queue_wait_s", 0.0)
        self.store.add_case(run_id, seq, values.pop("case_id"), repeat, **values)
        self._done += 1
        if self.on_progress is not None:
            self.on_progress(self._done, None)

    async def _evaluate(self, case: DatasetCase, repeat: int) -> dict[str, Any]:
        """Call the target and score one case; the keyword arguments of ``store.add_case`` (and ``case_id``)."""
        deadline = time.monotonic() + self.timeout
        token = use_case_deadline(deadline)  # a media download (in any thread) stops when the case's time ends
        clock = None
        if self._judged:  # the case's clock stops while it waits in line for the judge (judges.service)
            from agentunit.judges.service import CaseClock

            clock = CaseClock(deadline).start()
        try:
            return await self._evaluate_until(case, repeat, deadline, clock)
        finally:
            if clock is not None:
                clock.stop()
            reset_case_deadline(token)

    async def _evaluate_until(self, case: DatasetCase, repeat: int, deadline: float,
                              clock: Any = None) -> dict[str, Any]:
        error = None
        trace = None
        try:
            metrics = self._metrics_of(case)
        except Exception as exc:  # metric specs on a DatasetCase given to the API: checked only here
            metrics, error = [], f"a metric of this case cannot be built: {type(exc).__name__}: {exc}"
        try:
            if error is not None:  # no target call for a case that cannot be scored
                outcome = Outcome(output=None, success=False)
            elif _scripted_conversation(case):
                case, outcome, trace = await self._converse(case, repeat, deadline)
            else:
                outcome, trace = await self._call_target(case, repeat, deadline, _meter_options(metrics))
        except _TimedOut:
            outcome, error = Outcome(output=None, success=False), f"target timed out after {self.timeout:g} s"
        except (AgentUnitError, EnvelopeError) as exc:
            outcome, error = Outcome(output=None, success=False), str(exc)
        except Exception as exc:  # the system under test raised: this case errors, the run goes on
            outcome, error = Outcome(output=None, success=False), f"{type(exc).__name__}: {exc}"
        if error is None and outcome.output is not None and (self._target_transforms or self.suite.case_transforms):
            error = self._transform(case, outcome)
        if error is None and outcome.success is False and outcome.error:
            error = outcome.error
        if error is not None:
            results: list[Any] = []
            status, passed, case_score = "errored", False, None
        else:
            if trace is None:
                trace = build_trace(outcome, case.query)
            results = [await self._score_within(m, case, trace, outcome, deadline, clock)
                       if getattr(m, "evaluate_async", None) else score(m, case, trace, outcome) for m in metrics]
            verdict = judge_case(results, metrics, case.threshold)
            status, passed, case_score = verdict.status, verdict.passed, verdict.score
            if verdict.status == "errored":
                error = verdict.reason
            elif outcome.success is False:  # an AgentUnit adapter reported failure without an error
                status, passed = "failed", False
        secrets = self._secrets()
        if secrets:
            error = scrub(error, secrets)
            outcome.output = scrub(outcome.output, secrets)
            results = [_scrub_result(r, secrets) for r in results]
        envelope = _envelope(outcome, case)
        if clock is not None and clock.queued:  # reported, not counted against the case's limit
            envelope = {**(envelope or {}), "judge_queue_wait_s": round(clock.waited, 3)}
        if self._matrix_keys is not None:
            envelope = _with_labels(envelope, case, self._matrix_keys)
        return {"case_id": case.id, "status": status, "passed": passed, "score": case_score, "prompt": case.query,
                "output": outcome.output, "error": error, "latency_ms": outcome.latency_ms, "cached": outcome.cached,
                "envelope": scrub(envelope, secrets) if secrets else envelope, "metrics": results}

    def _transform(self, case: DatasetCase, outcome: Outcome) -> str | None:
        """Apply the target's and the case's ``transform`` to the output; the error naming the field, if any
        (the output is left as the target gave it, for the reports)."""
        from agentunit.suite.transform import TransformError, transform_context

        transforms = self.suite.transforms_for(case, called=case.output is None)
        if not transforms:
            return None
        output, context = outcome.output, transform_context(case)
        try:
            for transform in transforms:
                output = transform.apply(output, context)
        except TransformError as exc:
            return str(exc)
        outcome.output = output
        return None

    async def _score_within(self, metric: Any, case: DatasetCase, trace: TraceLog, outcome: Outcome,
                            deadline: float, clock: Any = None) -> MetricResult:
        """A model-backed metric, bounded by what is left of the case's time limit (``clock``: the case's clock,
        whose deadline stops while the case waits in line for the judge)."""
        if clock is not None:  # a media download of the metric's ends with the case's time, moved on by the waits
            use_case_deadline(clock.deadline)  # the case's token resets it (``_evaluate``)
        scoring = score_async(metric, case, trace, outcome)
        try:
            return await (_within(scoring, deadline) if clock is None else clock.within(scoring))
        except _TimedOut:
            return MetricResult(name=getattr(metric, "display_name", None) or getattr(metric, "name", "metric"),
                                value=None, weight=getattr(metric, "weight", 1.0), label=getattr(metric, "label", None),
                                error=f"timed out: the case's {self.timeout:g} s limit (target call and metrics, "
                                      f"judge calls included) ran out")

    # -- the run --------------------------------------------------------------------------------

    async def run(self) -> RunResult:
        options, store = self.options, self.store
        if options.resume:
            previous = store.get_run(options.resume)
            if previous is None:
                raise AgentUnitError(f"no run {options.resume!r} in {store.path}")
            run_id, started_at = options.resume, previous["started_at"]
            skip = store.completed_keys(run_id)
            store.mark_run(run_id, "running")
        else:
            run_id, started_at, skip = new_run_id(), _now_iso(), set()
            store.start_run(run_id, suite=self.suite.name, suite_path=self.suite.file,
                            suite_hash=_file_hash(self.suite.path), started_at=started_at,
                            options=_public_options(options),
                            target=self.target.describe() if self.target else None)
        self.run_id = run_id
        self._judged = self._uses_a_judge()
        if self._judged:
            from agentunit.judges.service import set_current_judge, use_judge

            if self.judge is not None:
                set_current_judge(self.judge)
            else:
                use_judge(self.suite.judge)  # model-backed metrics use the suite's judge and cache
            # Judge services live for the process; this run's database is theirs only until the run ends.
            judge = self._judge_service()
            judge_store_before, judge.store = judge.store, store
            judge_before = dataclasses.replace(judge.stats)
        jobs = self._jobs(skip)
        spool = self._spool(resumed=bool(options.resume))
        run_state_token = begin_run_state()
        limits_token = use_limits(MediaLimits.for_suite(self.suite.options, self.suite.media_dir))

        status = "interrupted"
        try:
            await self._drain(run_id, jobs, max(1, options.concurrency))
            status = "completed"
        finally:
            end_run_state(run_state_token)
            reset_limits(limits_token)
            dismiss = getattr(self.suite, "dismiss_residents", None)
            if dismiss is not None:  # a run that was not split (or ran them otherwise): their spools were read
                dismiss()
            if self.target is not None:
                await self.target.aclose()
            if self._judged:
                judge = self._judge_service()
                await judge.aclose()
                judge.store = judge_store_before
            store.flush()
            store.listener = store.on_rewrite = None
            # The spool counted what was stored, unless a row was stored some other way (then the database counts).
            counted = spool.summary_counts() if spool is not None and spool.count == store.case_count(run_id) \
                else None
            summary = summarize(store, run_id, options.repeat, options.allow_unmeasured, counted=counted)
            if spool is not None and spool.count != summary["cases"]:
                spool.discard()  # a case the database holds once was spooled twice, or the reverse
            if self._matrix_keys is not None:
                from agentunit.reporting.matrix import matrix_summary

                matrix = matrix_summary(store, run_id)
                if matrix:
                    summary["matrix"] = matrix
            used = {k: getattr(judge.stats, k) - getattr(judge_before, k) for k in vars(judge_before)} \
                if self._judged else {}
            if any(used.values()):
                cost = judge.cost_of({"prompt_tokens": used["prompt_tokens"],
                                      "completion_tokens": used["completion_tokens"]})
                described = judge.provider.describe()
                summary["judge"] = {**described, **used, "cost": cost, "queue_wait_s": round(self._judge_waited, 3),
                                    "agreement": self._judge_agreement(store, run_id, described)}
            finished_at = _now_iso()
            store.mark_run(run_id, status, finished_at=finished_at, summary=summary)
        return RunResult(run_id=run_id, suite=self.suite.name, started_at=started_at, finished_at=finished_at,
                         status=status, summary=summary, store=store,
                         spool=spool if spool is not None and spool.usable else None)

    def _uses_a_judge(self) -> bool:
        """Whether this run may call a judge or must scrub a judge's secrets: not when it awaits nothing, every
        metric is one of agentunit's own deterministic ones (``Suite.splittable``: judge calls are awaited) and
        the judge is the suite's default local one, which holds no secret (its service is then not imported)."""
        suite = self.suite
        return (self.judge is not None or suite.judge != _LOCAL_JUDGE or not getattr(suite, "splittable", False)
                or not self.runs_inline())

    @staticmethod
    def _judge_service() -> Any:
        from agentunit.judges.service import current_judge

        return current_judge()

    def _judge_agreement(self, store: Store, run_id: str, judge: dict[str, Any]) -> dict[str, dict[str, Any]]:
        """Per judge-backed metric of the run, the measured agreement with people that describes its
        verdicts, or why none does (``agentunit.judges.measured``)."""
        from agentunit.judges.measured import run_agreement

        return run_agreement(store.verdict_thresholds(run_id), judge, calibration=self.suite.calibration,
                             calibration_source=self.suite.calibration_source)

    def _spool(self, *, resumed: bool) -> ReportSpool | None:
        """A report spool fed by the store as cases are stored: for a new run into SQLite (a resumed run's
        earlier cases and PostgreSQL's own text rules are read from the database instead)."""
        if resumed or getattr(self.store, "dialect", None) != "sqlite" or not hasattr(self.store, "listener"):
            return None
        from agentunit.reporting.spool import ReportSpool

        spool = ReportSpool(self.options.repeat, with_repeat=self.options.repeat > 1, lines=self.options.report_lines)
        self.store.listener, self.store.on_rewrite = spool.add, spool.discard
        self._report_spool = spool
        return spool

    async def _drain(self, run_id: str, jobs: Iterator[tuple[int, DatasetCase, int]], concurrency: int) -> None:
        """Run every job with at most ``concurrency`` in flight.

        Workers pull from one shared job stream and are started one at a time, each when the one
        before it took a job, so ``-j 1000000000`` on ten cases starts ten workers, not a billion.
        With ``options.executor`` set, the jobs go to it instead; it stores each case through ``_store_case``.
        """
        if self.options.executor is not None:
            await self.options.executor.drain(self, run_id, jobs)
            return
        if self._inline:  # nothing suspends: the jobs run one after another as the workers would run them
            cases, processes = getattr(self.suite, "case_count", None) or 0, self.options.processes
            if cases >= (SHARDED_FROM if processes is None else 2) and (processes is None or processes > 1):
                from agentunit.core.shards import run_sharded, shard_bounds

                bounds = shard_bounds(self)
                if bounds:
                    run_sharded(self, run_id, jobs, bounds)
                    return
            for seq, case, repeat in jobs:
                await self._run_one(run_id, seq, case, repeat)
            return
        import asyncio

        workers: list[asyncio.Task[None]] = []

        async def worker() -> None:
            for seq, case, repeat in jobs:
                if len(workers) < concurrency:
                    workers.append(asyncio.ensure_future(worker()))
                await self._run_one(run_id, seq, case, repeat)

        workers.append(asyncio.ensure_future(worker()))
        try:
            index = 0
            while index < len(workers):  # the list grows while we wait
                await workers[index]
                index += 1
        finally:
            for task in workers:
                task.cancel()


def summarize(store: Store, run_id: str, repeat: int = 1, allow_unmeasured: bool = False, *,
              counted: tuple[dict[str, int], dict[str, Any], dict[str, Any]] | None = None) -> dict[str, Any]:
    """Summary from the store (so a resumed run counts its earlier cases): counts, per metric, repeats.

    ``counted``: the store's (status, metric, label) counts, counted as the rows were stored
    (``ReportSpool.summary_counts``), instead of counting them in the database.
    """
    counts, metrics, labels = counted if counted is not None else \
        (store.status_counts(run_id), store.metric_counts(run_id), store.label_counts(run_id))
    summary: dict[str, Any] = {
        "cases": sum(counts.values()),
        "passed": counts.get("passed", 0),
        "failed": counts.get("failed", 0),
        "errored": counts.get("errored", 0),
        "unmeasured": counts.get("unmeasured", 0),
        "allow_unmeasured": allow_unmeasured,
        "metrics": metrics,
    }
    if labels:
        summary["labels"] = labels
    if repeat > 1:
        per_case = []
        for case_id, n, c in store.repeat_counts(run_id):
            k = min(repeat, n)
            per_case.append({"id": case_id, "attempts": n, "passes": c, "pass_rate": c / n,
                             "pass_at_k": pass_at_k(n, c, k), "pass_hat_k": pass_hat_k(n, c, k), "k": k})
        count = len(per_case) or 1
        summary["repeat"] = {
            "k": repeat,
            "pass_rate": sum(p["pass_rate"] for p in per_case) / count,
            "pass_at_k": sum(p["pass_at_k"] for p in per_case) / count,
            "pass_hat_k": sum(p["pass_hat_k"] for p in per_case) / count,
            "cases": per_case,
        }
    return summary


def _meter_options(metrics: list[Any]) -> dict[str, Any] | None:
    """ResourceMeter settings when a metric needs the call's resources measured, else None."""
    wanting = [m for m in metrics if "resources" in getattr(getattr(m, "info", None), "needs", ())]
    if not wanting:
        return None
    options: dict[str, Any] = {"sample_interval": min(getattr(m, "sample_interval", 1.0) for m in wanting)}
    tdp = next((m.cpu_tdp_watts for m in wanting if getattr(m, "cpu_tdp_watts", None)), None)
    if tdp:
        options["cpu_tdp_watts"] = float(tdp)
    return options


def _scripted_conversation(case: DatasetCase) -> bool:
    """A conversation of user turns only (and no recorded output) is played against the target."""
    turns = case.conversation or []
    return case.output is None and len(turns) > 0 and all(
        isinstance(t, dict) and t.get("role", "user") == "user" for t in turns)


def _envelope(outcome: Outcome, case: DatasetCase) -> dict[str, Any] | None:
    """What the database keeps of the reply's metadata, and ``media``: a record per medium of the case and
    the reply (``{field, source, sha256, mime, size}``, never the bytes)."""
    data = {k: value for k in _ENVELOPE_FIELDS if (value := getattr(outcome, k))}
    if outcome.media or _may_have_media(case):
        from agentunit.media.access import media_records  # with the thumbnailer: only a run with media pays for it

        media = media_records(case, outcome)
        if media:
            data["media"] = media
    return data or None


_ENVELOPE_FIELDS = ("query", "context", "tool_calls", "plan", "agent_calls", "events", "usage", "cost",
                    "finish_reason", "resources")


def _may_have_media(case: DatasetCase) -> bool:
    """Whether ``media_records`` could find a medium of the case (False: it would return [] — the usual
    text case skips it)."""
    if type(case) is not DatasetCase:
        return True
    if case.image is not None or case.images is not None or case.audio is not None or case.video is not None:
        return True
    metadata = case.metadata
    return bool(metadata) and (type(metadata) is not dict or not metadata.keys().isdisjoint(METADATA_MEDIA_KEYS))


def _with_labels(envelope: dict[str, Any] | None, case: DatasetCase,
                 keys: tuple[str, str]) -> dict[str, Any] | None:
    """The envelope with ``matrix: {prompt, target}``, the case's labels in the prompts × targets matrix."""
    prompt, target = case.metadata.get(keys[0]), case.metadata.get(keys[1])
    if prompt is None and target is None:
        return envelope
    labels = {"prompt": None if prompt is None else str(prompt), "target": None if target is None else str(target)}
    return {**(envelope or {}), "matrix": labels}


def _public_options(options: RunOptions) -> dict[str, Any]:
    return {"concurrency": options.concurrency, "repeat": options.repeat, "timeout": options.timeout,
            "cache": options.cache, "filter": options.filter, "allow_unmeasured": options.allow_unmeasured}


async def _within(awaitable: Any, deadline: float) -> Any:
    """Await ``awaitable`` until ``deadline`` (time.monotonic()); raises asyncio.TimeoutError after it."""
    import asyncio

    remaining = deadline - time.monotonic()
    if remaining <= 0:
        awaitable.close()
        raise _TimedOut
    if _HAS_TIMEOUT_CM:
        async with asyncio.timeout(remaining):  # no extra task per call, unlike wait_for
            return await awaitable
    return await asyncio.wait_for(awaitable, remaining)


def scrub(value: Any, secrets: AbstractSet[str]) -> Any:
    """``value`` with every secret string replaced by ``***``, through dicts and lists (longest first)."""
    if isinstance(value, str):
        return redact_text(value, secrets)
    if isinstance(value, dict):
        return {k: scrub(v, secrets) for k, v in value.items()}
    if isinstance(value, list):
        return [scrub(v, secrets) for v in value]
    return value


def _scrub_result(result: MetricResult, secrets: AbstractSet[str]) -> MetricResult:
    result.reason = scrub(result.reason, secrets)
    result.error = scrub(result.error, secrets)
    result.detail = scrub(result.detail, secrets)
    return result


def _file_hash(path: Path | None) -> str | None:
    if path is None:
        return None
    try:
        return sha256_hex(path.read_bytes())
    except OSError:
        return None
