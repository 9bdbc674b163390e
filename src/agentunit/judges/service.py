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
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import hashlib
import json
import math
import weakref
from collections.abc import Iterator
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

        inflight = self._inflight.setdefault(asyncio.get_running_loop(), {})
        shared = inflight.get(key)
        if shared is None:
            # A task of its own, so one caller giving up (a case timing out) does not cancel the others' answer.
            shared = inflight[key] = _InFlight(asyncio.ensure_future(self._fetch(key, request)))
            shared.task.add_done_callback(lambda done: (inflight.pop(key, None), _retrieved(done)))
            return await shared.wait(), False
        self.stats.cache_hits += 1
        return await shared.wait(), True

    def _cached(self, key: str) -> JudgeReply | None:
        cached = self._memory.get(key)
        if cached is None and self.store is not None:
            row = self.store.judge_cache_get(key)
            if row is not None:
                cached = self._redacted(_reply_from_json(row))
                self._memory[key] = cached
        return cached

    async def _fetch(self, key: str, request: JudgeRequest) -> JudgeReply:
        async with self._semaphore():
            reply = self._redacted(await self._call(request))
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

    def _semaphore(self) -> asyncio.Semaphore:
        import asyncio

        loop = asyncio.get_running_loop()  # asyncio primitives belong to one event loop
        semaphore = self._semaphores.get(loop)
        if semaphore is None:
            semaphore = self._semaphores[loop] = asyncio.Semaphore(self._concurrency)
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


def _timeout(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise AgentUnitError(f"judge timeout must be a number of seconds > 0, got {value!r}")
    return float(value)


def _stricter(request: JudgeRequest) -> JudgeRequest:
    messages = list(request.messages)
    role, content = messages[-1]
    messages[-1] = (role, content + STRICT_SUFFIX.format(options=", ".join(request.options)))
    return JudgeRequest(tuple(messages), request.options, request.max_tokens, request.json_schema, request.images)


class _InFlight:
    """A provider call shared by every caller asking the same request; cancelled when the last gives up."""

    def __init__(self, task: asyncio.Task):
        self.task = task
        self.waiters = 0

    async def wait(self) -> JudgeReply:
        import asyncio

        self.waiters += 1
        try:
            return await asyncio.shield(self.task)
        except asyncio.CancelledError:
            if not self.task.done() and self.waiters == 1:
                self.task.cancel()  # nobody is left to use the answer
            raise
        finally:
            self.waiters -= 1


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
