"""The judge service: one provider behind a cache, a concurrency bound, retries and call counts.

Every call is keyed by sha256 over the provider description and the full request, and served from
the cache when it has been made before (in memory, and in the results database when a run binds
one), so a rerun makes zero judge calls. Output that matches no option is retried once with a
stricter instruction, then raised as JudgeOutputError — recorded as the metric's error, never a pass.

Bounds: ``timeout`` is one deadline for a whole call, transport retries included (HTTP judges
default to 120 s; the local judge has none unless configured), and a call that ran out of it is not
retried. The provider's secrets (API keys) are removed from every reply text and error the service
returns or raises, before anything is cached.
"""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import hashlib
import json
import math
from dataclasses import dataclass
from typing import Any

from agentunit.errors import AgentUnitError, TargetError
from agentunit.judges.base import Decision, JudgeOutputError, JudgeReply, JudgeRequest, read_decision
from agentunit.judges.providers import DEFAULT_HTTP_TIMEOUT_S, PROVIDERS
from agentunit.targets._secrets import redact_text

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

    def __init__(self, config: dict[str, Any] | None = None):
        config = dict(config or {"provider": "local"})
        provider = config.get("provider", "local")
        if not isinstance(provider, str) or provider not in PROVIDERS:
            raise AgentUnitError(f"unknown judge provider {provider!r}; use one of {', '.join(PROVIDERS)}")
        self._concurrency = _concurrency(config.get("concurrency", 1 if provider == "local" else 8))
        self.timeout = _timeout(config.get("timeout", None if provider == "local" else DEFAULT_HTTP_TIMEOUT_S))
        self.provider = PROVIDERS[provider](config)
        self.config = config
        self._semaphores: dict[int, asyncio.Semaphore] = {}
        self._memory: dict[str, JudgeReply] = {}
        self.store: Any = None
        self.stats = JudgeStats()

    def key(self, request: JudgeRequest) -> str:
        material = json.dumps({"judge": self.provider.describe(), "messages": request.messages,
                               "options": request.options, "max_tokens": request.max_tokens,
                               "schema": request.json_schema}, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(material.encode("utf-8", "surrogatepass")).hexdigest()

    async def reply(self, request: JudgeRequest) -> tuple[JudgeReply, bool]:
        """The provider's reply, from the cache when possible; returns (reply, cached)."""
        key = self.key(request)
        cached = self._memory.get(key)
        if cached is None and self.store is not None:
            row = self.store.judge_cache_get(key)
            if row is not None:
                cached = self._redacted(_reply_from_json(row))
                self._memory[key] = cached
        if cached is not None:
            self.stats.cache_hits += 1
            return cached, True
        async with self._semaphore():
            reply = self._redacted(await self._call(request))
        self.stats.calls += 1
        self.stats.prompt_tokens += reply.usage.get("prompt_tokens", 0)
        self.stats.completion_tokens += reply.usage.get("completion_tokens", 0)
        self._memory[key] = reply
        if self.store is not None:
            self.store.judge_cache_put(key, _reply_to_json(reply))
        return reply, False

    @property
    def secrets(self) -> set[str]:
        """The secret values the provider sends (API keys): never in a reply text or error of this service."""
        return set(getattr(self.provider, "secrets", ()))

    def redact(self, text: str) -> str:
        """``text`` with every secret of the provider replaced by ``***``."""
        return redact_text(text, self.secrets)

    def _redacted(self, reply: JudgeReply) -> JudgeReply:
        text = self.redact(reply.text)
        return reply if text == reply.text else dataclasses.replace(reply, text=text)

    async def _call(self, request: JudgeRequest) -> JudgeReply:
        """One provider call within ``timeout`` (one deadline over its retries); errors are redacted."""
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
        loop = id(asyncio.get_running_loop())  # asyncio primitives belong to one event loop
        if loop not in self._semaphores:
            self._semaphores.clear()
            self._semaphores[loop] = asyncio.Semaphore(self._concurrency)
        return self._semaphores[loop]

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
        return Decision(option, probabilities, source, reply.text, reply.usage, cached,
                        cost=None if cached else self.cost_of(reply.usage))

    def cost_of(self, usage: dict[str, int]) -> float | None:
        """Price of a call from ``cost_per_1k_prompt_tokens``/``cost_per_1k_completion_tokens`` in the judge
        config (None when no price is configured; the local judge costs nothing)."""
        prompt_price = self.config.get("cost_per_1k_prompt_tokens")
        completion_price = self.config.get("cost_per_1k_completion_tokens")
        if prompt_price is None and completion_price is None:
            return 0.0 if self.config.get("provider", "local") == "local" else None
        return (usage.get("prompt_tokens", 0) * float(prompt_price or 0)
                + usage.get("completion_tokens", 0) * float(completion_price or 0)) / 1000.0

    async def generate(self, request: JudgeRequest) -> tuple[str, dict[str, int], bool]:
        """Free text (or JSON when ``json_schema`` is set): (text, usage, cached)."""
        reply, cached = await self.reply(request)
        return reply.text, reply.usage, cached

    async def aclose(self) -> None:
        await self.provider.aclose()


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
    return JudgeRequest(tuple(messages), request.options, request.max_tokens, request.json_schema)


def _reply_to_json(reply: JudgeReply) -> str:
    return json.dumps({"text": reply.text, "top_logprobs": reply.top_logprobs, "usage": reply.usage})


def _reply_from_json(text: str) -> JudgeReply:
    data = json.loads(text)
    top = [tuple(item) for item in data["top_logprobs"]] if data.get("top_logprobs") else None
    return JudgeReply(text=data["text"], top_logprobs=top, usage=data.get("usage") or {})


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


def use_judge(config: dict[str, Any] | None, store: Any = None) -> contextvars.Token:
    """Make the judge of ``config`` current for metrics (the engine does this for the suite's judge)."""
    service = service_for(config)
    if store is not None:
        service.store = store
    return _current.set(service)


async def pass_fail(system: str, user: str) -> Decision:
    """One PASS/FAIL decision by the current judge — the binary question every judge metric asks;
    ``decision.probabilities["PASS"]`` is the probability the metrics score with."""
    return await current_judge().decide(JudgeRequest((("system", system), ("user", user)), options=("PASS", "FAIL")))


def set_current_judge(service: JudgeService) -> contextvars.Token:
    return _current.set(service)


def current_judge() -> JudgeService:
    """The judge metrics should use: the run's, else the local embedded judge."""
    service = _current.get()
    return service if service is not None else service_for(None)
