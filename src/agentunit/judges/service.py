"""The judge service: one provider behind a cache, a concurrency bound, retries and call counts.

Every call is keyed by sha256 over the provider description and the full request, and served from
the cache when it has been made before (in memory, and in the results database when a run binds
one), so a rerun makes zero judge calls. Identical requests in flight at the same time (two metrics
or cases asking the same question with ``-j > 1``) make one provider call: the others await it.
Output that matches no option is retried once with a stricter instruction, then raised as
JudgeOutputError — recorded as the metric's error, never a pass.

Bounds: ``timeout`` is one deadline for a whole call, transport retries included (HTTP judges
default to 120 s; the local judge has none unless configured), and a call that ran out of it is not
retried. The provider's secrets (API keys) are removed from every reply text and error the service
returns or raises, before anything is cached.

The judge's queue: at most ``concurrency`` calls are sent at once, and never more than the provider
serves at once (its ``capacity``: the local judge answers one request at a time). A call waits in line
for its turn — and for the provider's start-up (``ready``: loading the local model) — and while it does,
the case's clock (``CaseClock``, set by the engine per case) is stopped: the queue is not the case's
time. The wait is added to the case's ``waited``. ``queue_timeout`` bounds
a case's waits, summed (default an hour): past it the call raises an error naming the judge's queue.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import hashlib
import json
import math
import sys
import time
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from agentunit.errors import AgentUnitError, TargetError
from agentunit.judges.base import Decision, JudgeOutputError, JudgeReply, JudgeRequest, read_decision
from agentunit.judges.model_file import check_local_config
from agentunit.judges.providers import DEFAULT_HTTP_TIMEOUT_S, PROVIDERS
from agentunit.targets._secrets import redact_text

if TYPE_CHECKING:
    import asyncio

STRICT_SUFFIX = "\n\nReply with exactly one of: {options}. No other words."
DEFAULT_QUEUE_TIMEOUT_S = 3600.0  # the most a case waits in line for the judge, its waits summed
_HAS_TIMEOUT_CM = sys.version_info >= (3, 11)  # asyncio.timeout(), movable with reschedule()


@dataclass
class JudgeStats:
    calls: int = 0
    cache_hits: int = 0
    retries: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0


class JudgeService:
    """Decisions and generations through one provider (see the module docstring)."""

    def __init__(self, config: dict[str, Any] | None = None, built: Any = None):
        """``built``: a provider to use instead of building the one ``config`` names."""
        config = dict(config or {"provider": "local"})
        provider = config.get("provider", "local")
        if not isinstance(provider, str) or provider not in PROVIDERS:
            raise AgentUnitError(f"unknown judge provider {provider!r}; use one of {', '.join(PROVIDERS)}")
        self._concurrency = _concurrency(config.get("concurrency", 1 if provider == "local" else 8))
        self.timeout = _timeout(config.get("timeout", None if provider in ("local", "ensemble")
                                           else DEFAULT_HTTP_TIMEOUT_S))
        self.queue_timeout = _timeout(config.get("queue_timeout", DEFAULT_QUEUE_TIMEOUT_S), "queue_timeout")
        self.config = config
        self._store: Any = None
        # The embedded judge's provider (llama.cpp client, urllib) is built when first used: a run without
        # judge metrics does not pay for importing it. Remote providers are built now, so the API key they
        # resolve is a secret from the start (redacted from what the target says even if no metric asks).
        self._provider: Any = built
        if built is None and provider != "local":
            self._provider = PROVIDERS[provider](config)
        elif built is None:
            check_local_config(config)  # its settings are checked now, as a built provider's would be
        self._semaphores: weakref.WeakKeyDictionary[Any, asyncio.Semaphore] = weakref.WeakKeyDictionary()
        self._inflight: weakref.WeakKeyDictionary[Any, dict[str, _InFlight]] = weakref.WeakKeyDictionary()
        self._memory: dict[str, JudgeReply] = {}
        self.stats = JudgeStats()

    @property
    def provider(self) -> Any:
        """The provider that answers (built on first use for the embedded judge)."""
        if self._provider is None:
            try:
                self._provider = PROVIDERS[self.config.get("provider", "local")](self.config)
            except AgentUnitError as exc:  # checked at construction; a file that changed since, say
                self._provider = UnavailableJudge(exc)
            self._bind(self._store)
        return self._provider

    @provider.setter
    def provider(self, provider: Any) -> None:
        self._provider = provider

    @property
    def embedded(self) -> bool:
        """Whether this is the embedded judge (local, no ``model_path``): the judge the metrics' shipped
        calibrations were fitted for."""
        return self.config.get("provider", "local") == "local" and not self.config.get("model_path")

    @property
    def store(self) -> Any:
        """The results database the cache reads and writes (None: memory only)."""
        return self._store

    @store.setter
    def store(self, store: Any) -> None:
        self._store = store
        if self._provider is not None:
            self._bind(store)

    def _bind(self, store: Any) -> None:
        bind = getattr(self._provider, "bind_store", None)
        if bind is not None:  # an ensemble's members cache where it does
            bind(store)

    def key(self, request: JudgeRequest) -> str:
        material = json.dumps({"judge": self.provider.describe(), "messages": request.messages,
                               "options": request.options, "max_tokens": request.max_tokens,
                               "schema": request.json_schema,
                               # images by content hash, and only when present: text-only keys are unchanged
                               **({"images": [hashlib.sha256(i.encode()).hexdigest() for i in request.images]}
                                  if request.images else {})}, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(material.encode("utf-8", "surrogatepass")).hexdigest()

    async def reply(self, request: JudgeRequest) -> tuple[JudgeReply, bool]:
        """The provider's reply, from the cache when possible; returns (reply, cached). A request already
        in flight is awaited rather than sent again (and counts as a cache hit)."""
        key = self.key(request)
        cached = self._cached(key)
        if cached is not None:
            self.stats.cache_hits += 1
            return cached, True
        import asyncio  # here, not at the top: a run without judge calls needs no event loop (issue 20)

        loop = asyncio.get_running_loop()
        inflight = self._inflight.setdefault(loop, {})
        shared = inflight.get(key)
        if shared is None:
            # A task of its own, so one caller giving up (a case timing out) does not cancel the others' answer.
            admitted = loop.create_future()  # done when the call's turn at the judge came
            shared = inflight[key] = _InFlight(asyncio.ensure_future(self._fetch(key, request, admitted)), admitted)
            shared.task.add_done_callback(lambda done: (inflight.pop(key, None), _retrieved(done)))
            return await shared.wait(self), False
        self.stats.cache_hits += 1
        return await shared.wait(self), True

    def _cached(self, key: str) -> JudgeReply | None:
        cached = self._memory.get(key)
        if cached is None and self.store is not None:
            row = self.store.judge_cache_get(key)
            if row is not None:
                cached = self._redacted(_reply_from_json(row))
                self._memory[key] = cached
        return cached

    async def _fetch(self, key: str, request: JudgeRequest, admitted: asyncio.Future[None]) -> JudgeReply:
        try:
            async with self._semaphore():
                await self._ready()
                _admit(admitted)
                reply = self._redacted(await self._call(request))
        finally:
            _admit(admitted)  # a call cancelled in line: its waiters go on to its outcome
        self.stats.calls += 1
        self.stats.prompt_tokens += reply.usage.get("prompt_tokens", 0)
        self.stats.completion_tokens += reply.usage.get("completion_tokens", 0)
        self._memory[key] = reply
        if self.store is not None:
            self.store.judge_cache_put(key, _reply_to_json(reply))
        return reply

    @property
    def secrets(self) -> set[str]:
        """The secret values the provider sends (API keys): never in a reply text or error of this service."""
        return set(getattr(self._provider, "secrets", ()))  # a provider not built yet has resolved none

    def redact(self, text: str) -> str:
        """``text`` with every secret of the provider replaced by ``***``."""
        return redact_text(text, self.secrets)

    def _redacted(self, reply: JudgeReply) -> JudgeReply:
        text = self.redact(reply.text)
        return reply if text == reply.text else dataclasses.replace(reply, text=text)

    async def _call(self, request: JudgeRequest) -> JudgeReply:
        """One provider call within ``timeout`` (one deadline over its retries); errors are redacted."""
        import asyncio

        try:
            if self.timeout is None:
                return await self.provider.call(request)
            return await asyncio.wait_for(self.provider.call(request), self.timeout)
        except asyncio.TimeoutError:
            raise AgentUnitError(f"judge call timed out after {self.timeout:g} s (the judge's timeout, "
                                 "retries included; not retried)") from None
        except TargetError as exc:  # the judge's transport failed, not the system under test
            raise AgentUnitError(self.redact(f"judge call failed: {exc}")) from None
        except AgentUnitError as exc:
            text = self.redact(str(exc))
            if text == str(exc):
                raise
            raise AgentUnitError(text) from None
        except Exception as exc:  # a provider bug or an unexpected reply: an error, without the key
            raise AgentUnitError(self.redact(f"judge error: {type(exc).__name__}: {exc}")) from None

    async def _ready(self) -> None:
        """The provider's start-up (``ready``: the local judge loads its model), waited for in line: not the time
        of the case whose call happens to be first. A failure is left to the call, which reports it."""
        ready = getattr(self.provider, "ready", None)
        if ready is not None:
            with contextlib.suppress(Exception):
                await ready()

    async def _in_line(self, admitted: asyncio.Future[None]) -> None:
        """Wait for a call's turn at the judge (``admitted``) with the case's clock stopped, at most what is left
        of the case's ``queue_timeout``; past it, raise AgentUnitError naming the judge's queue."""
        import asyncio

        clock = _case_clock.get()
        limit = self.queue_timeout
        left = None if limit is None else limit - (clock.waited if clock is not None else 0.0)
        if clock is not None:
            clock.pause()
        try:
            if left is None or left > 0:
                await asyncio.wait((admitted,), timeout=left)
        finally:
            if clock is not None:
                clock.resume()
        if not admitted.done():
            raise AgentUnitError(f"waited {limit:g} s in line for the judge: the judge's queue (other cases' judge "
                                 f"calls ahead of this one) outlasted judge.queue_timeout ({limit:g} s) — raise "
                                 "it, or run with a lower -j")

    @property
    def capacity(self) -> int:
        """How many calls are sent at once: ``concurrency``, at most the provider's ``capacity`` (the requests it
        serves at once; the local judge serves one)."""
        served = getattr(self.provider, "capacity", None)
        usable = isinstance(served, int) and not isinstance(served, bool) and served >= 1
        return min(self._concurrency, served) if usable else self._concurrency

    def _semaphore(self) -> asyncio.Semaphore:
        import asyncio

        loop = asyncio.get_running_loop()  # asyncio primitives belong to one event loop
        semaphore = self._semaphores.get(loop)
        if semaphore is None:
            semaphore = self._semaphores[loop] = asyncio.Semaphore(self.capacity)
        return semaphore

    async def decide(self, request: JudgeRequest) -> Decision:
        """A categorical decision among ``request.options`` (see agentunit.judges.base)."""
        reply, cached = await self.reply(request)
        try:
            option, probabilities, source = read_decision(reply, request.options)
        except JudgeOutputError:
            self.stats.retries += 1
            strict = _stricter(request)
            reply, cached = await self.reply(strict)
            option, probabilities, source = read_decision(reply, request.options)  # raises: recorded as error
        decision = Decision(option, probabilities, source, reply.text, reply.usage, cached,
                            cost=None if cached else self._cost_of_reply(reply), detail=reply.detail)
        recorded = _recorded.get()
        if recorded is not None:
            recorded.append((self, request, decision))
        return decision

    def _cost_of_reply(self, reply: JudgeReply) -> float | None:
        of_reply = getattr(self.provider, "cost_of_reply", None)
        return of_reply(reply) if of_reply is not None else self.cost_of(reply.usage)

    def cost_of(self, usage: dict[str, int]) -> float | None:
        """Price of a call from ``cost_per_1k_prompt_tokens``/``cost_per_1k_completion_tokens`` in the judge
        config (None when no price is configured; the local judge costs nothing)."""
        prompt_price = self.config.get("cost_per_1k_prompt_tokens")
        completion_price = self.config.get("cost_per_1k_completion_tokens")
        of_usage = getattr(self.provider, "cost_of_usage", None)
        if prompt_price is None and completion_price is None and of_usage is not None:
            return of_usage(usage)
        if prompt_price is None and completion_price is None:
            return 0.0 if self.config.get("provider", "local") == "local" else None
        return (usage.get("prompt_tokens", 0) * float(prompt_price or 0)
                + usage.get("completion_tokens", 0) * float(completion_price or 0)) / 1000.0

    async def generate(self, request: JudgeRequest) -> tuple[str, dict[str, int], bool]:
        """Free text (or JSON when ``json_schema`` is set): (text, usage, cached)."""
        reply, cached = await self.reply(request)
        return reply.text, reply.usage, cached

    async def aclose(self) -> None:
        if self._provider is not None:  # never built: nothing to close
            await self._provider.aclose()


def _concurrency(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise AgentUnitError(f"judge concurrency must be a whole number ≥ 1, got {value!r}")
    return value


def _timeout(value: Any, name: str = "timeout") -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise AgentUnitError(f"judge {name} must be a number of seconds > 0, got {value!r}")
    return float(value)


def _stricter(request: JudgeRequest) -> JudgeRequest:
    messages = list(request.messages)
    role, content = messages[-1]
    messages[-1] = (role, content + STRICT_SUFFIX.format(options=", ".join(request.options)))
    return JudgeRequest(tuple(messages), request.options, request.max_tokens, request.json_schema, request.images)


class _InFlight:
    """A provider call shared by every caller asking the same request; cancelled when the last gives up."""

    def __init__(self, task: asyncio.Task, admitted: asyncio.Future[None]):
        self.task = task
        self.admitted = admitted
        self.waiters = 0

    async def wait(self, service: JudgeService) -> JudgeReply:
        import asyncio

        self.waiters += 1
        try:
            if not self.admitted.done():  # the call waits in line: so does each caller, its clock stopped
                await service._in_line(self.admitted)
            return await asyncio.shield(self.task)
        except BaseException:  # cancelled, or out of queue time
            if not self.task.done() and self.waiters == 1:
                self.task.cancel()  # nobody is left to use the answer
            raise
        finally:
            self.waiters -= 1


def _admit(admitted: asyncio.Future[None]) -> None:
    if not admitted.done():
        admitted.set_result(None)


class CaseClock:
    """One case's time limit, stopped while the case waits in line for the judge (the module docstring).

    ``deadline`` (``time.monotonic()``) moves on by each wait; ``waited`` sums the waits (waits that overlap, a
    metric's parallel calls, count once); ``queued``: the case's judge calls went through the queue (its
    wait, 0 or more, is reported). ``within`` bounds an awaitable by the deadline, following it as it moves.
    The engine makes one per case and ``start``s it: the judge calls of that case (in its tasks) find it.
    """

    def __init__(self, deadline: float):
        self.deadline = deadline
        self.waited = 0.0
        self.queued = False
        self._paused = 0
        self._since = 0.0
        self._moves: list[Callable[[float | None], None]] = []
        self._token: contextvars.Token[CaseClock | None] | None = None

    def start(self) -> CaseClock:
        self._token = _case_clock.set(self)
        return self

    def stop(self) -> None:
        if self._token is not None:
            _case_clock.reset(self._token)
            self._token = None

    def pause(self) -> None:
        self.queued = True
        self._paused += 1
        if self._paused == 1:
            self._since = time.monotonic()
            for move in self._moves:
                move(None)

    def resume(self) -> None:
        self._paused -= 1
        if self._paused == 0:
            waited = time.monotonic() - self._since
            self.waited += waited
            self.deadline += waited
            for move in self._moves:
                move(self.deadline)

    async def within(self, awaitable: Any) -> Any:
        """Await ``awaitable`` until the deadline, however it moves meanwhile; raises asyncio.TimeoutError."""
        import asyncio

        if not self._paused and self.deadline <= time.monotonic():
            awaitable.close()
            raise asyncio.TimeoutError
        loop = asyncio.get_running_loop()
        if _HAS_TIMEOUT_CM:
            async with asyncio.timeout(None) as timeout:
                def move(at: float | None) -> None:
                    if not timeout.expired():
                        timeout.reschedule(None if at is None else loop.time() + at - time.monotonic())

                return await self._following(awaitable, move)
        # asyncio.timeout's part, before Python 3.11: cancel the task at the deadline, and say why
        task, fired, timer = asyncio.current_task(), [], [None]

        def fire() -> None:
            fired.append(True)
            task.cancel()

        def rearm(at: float | None) -> None:
            if timer[0] is not None:
                timer[0].cancel()
            timer[0] = None if at is None else loop.call_at(loop.time() + at - time.monotonic(), fire)

        try:
            return await self._following(awaitable, rearm)
        except asyncio.CancelledError:
            if fired:
                raise asyncio.TimeoutError from None
            raise
        finally:
            rearm(None)

    async def _following(self, awaitable: Any, move: Callable[[float | None], None]) -> Any:
        move(None if self._paused else self.deadline)
        self._moves.append(move)
        try:
            return await awaitable
        finally:
            self._moves.remove(move)


def _retrieved(task: asyncio.Task) -> None:
    """Mark a finished call's error as seen: when every caller was cancelled, nobody else will."""
    if not task.cancelled():
        task.exception()


def _reply_to_json(reply: JudgeReply) -> str:
    data: dict[str, Any] = {"text": reply.text, "top_logprobs": reply.top_logprobs, "usage": reply.usage}
    if reply.detail:
        data["detail"] = reply.detail
    return json.dumps(data)


def _reply_from_json(text: str) -> JudgeReply:
    data = json.loads(text)
    top = [tuple(item) for item in data["top_logprobs"]] if data.get("top_logprobs") else None
    return JudgeReply(text=data["text"], top_logprobs=top, usage=data.get("usage") or {}, detail=data.get("detail"))


_recorded: contextvars.ContextVar[list[tuple[Any, JudgeRequest, Decision]] | None] = contextvars.ContextVar(
    "agentunit_judge_decisions", default=None)


@contextlib.contextmanager
def recording_decisions() -> Iterator[list[tuple[JudgeService, JudgeRequest, Decision]]]:
    """Collect (service, request, decision) for every decision made inside the block (in this context
    and the tasks it starts) — what a metric's rationale explains."""
    decisions: list[tuple[JudgeService, JudgeRequest, Decision]] = []
    token = _recorded.set(decisions)
    try:
        yield decisions
    finally:
        _recorded.reset(token)


@contextlib.contextmanager
def not_recorded() -> Iterator[None]:
    """Decisions inside the block are not recorded (an ensemble's members' parts of one decision)."""
    token = _recorded.set(None)
    try:
        yield
    finally:
        _recorded.reset(token)


_case_clock: contextvars.ContextVar[CaseClock | None] = contextvars.ContextVar("agentunit_case_clock", default=None)
_services: dict[str, JudgeService] = {}
_current: contextvars.ContextVar[JudgeService | None] = contextvars.ContextVar("agentunit_judge", default=None)


def service_for(config: dict[str, Any] | None) -> JudgeService:
    """One service per judge configuration per process (the local model loads once)."""
    config = dict(config or {"provider": "local"})
    key = json.dumps(config, sort_keys=True, default=str)
    service = _services.get(key)
    if service is None:
        service = _services[key] = JudgeService(config)
    return service


class UnavailableJudge:
    """The provider of a judge that could not be built (a ``model_path`` that is no file or no GGUF
    model, an option only the provider's constructor checks): every call raises the reason."""

    name = "unavailable"

    def __init__(self, error: AgentUnitError):
        self.error = AgentUnitError(f"the judge could not be started: {error} — fix the suite's `judge:` settings")

    def describe(self) -> dict[str, str]:
        return {"provider": "unavailable", "error": str(self.error)}

    async def call(self, request: JudgeRequest) -> JudgeReply:
        raise self.error

    async def aclose(self) -> None:
        """Nothing was started."""


def use_judge(config: dict[str, Any] | None, store: Any = None) -> contextvars.Token:
    """Make the judge of ``config`` current for metrics (the engine does this for the suite's judge).

    A judge that cannot be built does not end the run with a traceback (the engine calls this inside
    the run, after the suite was checked): each judge metric records the reason as its error, with
    the field to fix, and the deterministic metrics still run."""
    try:
        service = service_for(config)
    except AgentUnitError as exc:
        unavailable = UnavailableJudge(exc)
        try:  # the run records the configuration asked for
            service = JudgeService(config, built=unavailable)
        except AgentUnitError:  # the configuration's own settings are what is wrong
            service = JudgeService({"provider": "local"}, built=unavailable)
    if store is not None:
        service.store = store
    return _current.set(service)


async def pass_fail(system: str, user: str) -> Decision:
    """One PASS/FAIL decision by the current judge — the binary question every judge metric asks;
    ``decision.probabilities["PASS"]`` is the probability the metrics score with."""
    return await current_judge().decide(JudgeRequest((("system", system), ("user", user)), options=("PASS", "FAIL")))


async def yes_probability(system: str, user: str) -> float:
    """P(yes) of one yes/no decision by the current judge (the statements and per-sentence questions)."""
    decision = await current_judge().decide(JudgeRequest.yes_no(system, user))
    return decision.probabilities["yes"]


def set_current_judge(service: JudgeService) -> contextvars.Token:
    return _current.set(service)


def current_judge() -> JudgeService:
    """The judge metrics should use: the run's, else the local embedded judge."""
    service = _current.get()
    return service if service is not None else service_for(None)
