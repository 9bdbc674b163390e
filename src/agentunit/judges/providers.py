"""Judge providers: a local GGUF model (xllamacpp, in-process; agentunit.judges.local), any
OpenAI-compatible server, Anthropic's Messages API, and an ensemble of judges
(agentunit.judges.ensemble). Each turns a JudgeRequest into a JudgeReply."""

from __future__ import annotations

import functools
import importlib
import math
import os
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from agentunit.errors import AgentUnitError
from agentunit.targets._limits import max_response_bytes
from agentunit.targets._secrets import clip, redact_text, url_credentials
from agentunit.targets.base import redact_headers

if TYPE_CHECKING:  # imported by the providers' calls: asking which providers exist (suite checks) imports neither
    from agentunit.judges.base import JudgeReply, JudgeRequest

TOP_LOGPROBS = 20
DEFAULT_HTTP_TIMEOUT_S = 120.0


def _first_token_logprobs(choice: dict[str, Any]) -> list[tuple[str, float]] | None:
    """The first token's (token, logprob) alternatives; None when the reply has none or they are malformed
    (the decision then reads the text, and says so)."""
    logprobs = choice.get("logprobs")
    content = logprobs.get("content") if isinstance(logprobs, dict) else None
    if not isinstance(content, list) or not content or not isinstance(content[0], dict):
        return None
    top = content[0].get("top_logprobs")
    if not isinstance(top, list):
        return None
    out = []
    for item in top:
        if isinstance(item, dict) and isinstance(item.get("logprob", float("-inf")), (int, float)):
            out.append((str(item.get("token", "")), float(item.get("logprob", float("-inf")))))
    return out or None


def _token_counts(usage: Any, names: dict[str, str]) -> dict[str, int]:
    """``{our_name: int}`` from a reply's usage object; a missing or non-numeric count is 0."""
    usage = usage if isinstance(usage, dict) else {}
    counts = {}
    for ours, theirs in names.items():
        value = usage.get(theirs, 0)
        counts[ours] = int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) \
            and math.isfinite(value) else 0
    return counts


class _HttpProvider:
    """An aiohttp session per event loop (``agentunit.check`` runs each call in a fresh loop), the API
    key it sends (``secrets``, redacted from every error), and bounded sending (a timed-out attempt is
    not retried; replies over ``max_response_bytes`` are errors)."""

    _session: Any = None
    _session_loop: Any = None
    key_env = "OPENAI_API_KEY"

    def __init__(self, config: dict[str, Any]):
        self.config = config
        self.secrets: set[str] = set()
        self.max_response_bytes = max_response_bytes(config, "judge")
        self._api_key()  # known before the first call, so results can be scrubbed of it

    def _api_key(self) -> str | None:
        key = os.environ.get(self.config.get("api_key_env", self.key_env))
        if key:
            self.secrets.add(key)
        return key or None

    def _session_for_loop(self, factory: Any) -> Any:
        import asyncio  # not at the top: runs without judge calls need no event loop

        loop = asyncio.get_running_loop()
        if self._session is None or self._session_loop is not loop:
            self._session, self._session_loop = factory(), loop
        return self._session

    async def _post(self, url: str, headers: dict[str, str], body: dict[str, Any]) -> Any:
        """POST ``body`` and return the decoded JSON reply; raises AgentUnitError (redacted) otherwise."""
        from agentunit.targets._http import new_session, send_with_retries

        session = self._session_for_loop(new_session)
        self.secrets |= url_credentials(url, self.secrets)  # a base_url's user:password goes out as Basic auth
        redact = functools.partial(redact_text, secrets=self.secrets)
        response = await send_with_retries(session, "POST", url, headers=headers, body=body,
                                           timeout=float(self.config.get("timeout", DEFAULT_HTTP_TIMEOUT_S)),
                                           retries=3, backoff=1.0, max_bytes=self.max_response_bytes, redact=redact)
        try:
            return response.json()
        except ValueError as exc:
            raise AgentUnitError(f"judge reply is not JSON ({exc}): {clip(redact(response.text), 200)!r}") from None

    async def aclose(self) -> None:
        import asyncio

        if self._session is not None and self._session_loop is asyncio.get_running_loop():
            await self._session.close()
        self._session = self._session_loop = None


class OpenAIProvider(_HttpProvider):
    """Any OpenAI-compatible chat completions server (vLLM, Ollama, llama.cpp, hosted APIs).

    Sends temperature 0 with ``logprobs``/``top_logprobs`` for decisions and ``response_format``
    JSON Schema for structured generation; servers that reject logprobs are retried without them.
    """

    name = "openai"

    def __init__(self, config: dict[str, Any]):
        super().__init__(config)
        self.base_url = str(config.get("base_url", "https://api.openai.com/v1")).rstrip("/")
        self.model = config.get("model") or "gpt-4o-mini"
        self._no_logprobs = False

    def describe(self) -> dict[str, Any]:
        return redact_headers({"provider": "openai", "base_url": self.base_url, "model": self.model})

    def _headers(self) -> dict[str, str]:
        key = self._api_key()
        if key:
            return {"Authorization": f"Bearer {key}"}
        if "api_key_env" in self.config:
            raise AgentUnitError(f"environment variable {self.config['api_key_env']} is not set (judge api_key_env)")
        return {}

    async def call(self, request: JudgeRequest) -> JudgeReply:
        from agentunit.judges.base import JudgeReply

        body: dict[str, Any] = {"model": self.model, "messages": request.as_messages(),
                                "max_tokens": request.max_tokens, "temperature": 0}
        if request.options and not self._no_logprobs:
            body.update(logprobs=True, top_logprobs=TOP_LOGPROBS)
        elif request.json_schema is not None:
            body["response_format"] = {"type": "json_schema",
                                       "json_schema": {"name": "answer", "schema": request.json_schema}}
        try:
            data = await self._post(f"{self.base_url}/chat/completions", self._headers(), body)
        except AgentUnitError as exc:
            if "logprobs" in body and "HTTP 400" in str(exc):
                self._no_logprobs = True  # the server does not do logprobs: read the text instead
                return await self.call(request)
            raise
        try:
            choice = data["choices"][0]
            text = choice["message"].get("content") or ""
            if not isinstance(text, str):
                raise TypeError(f"content is {type(text).__name__}, not text")
        except (KeyError, IndexError, TypeError, AttributeError) as exc:
            raise AgentUnitError(f"judge reply is not a chat completion: {exc!r}") from None
        return JudgeReply(text=text, top_logprobs=_first_token_logprobs(choice),
                          usage=_token_counts(data.get("usage"), {"prompt_tokens": "prompt_tokens",
                                                                  "completion_tokens": "completion_tokens"}))


class AnthropicProvider(_HttpProvider):
    """Anthropic's Messages API (no logprobs: decisions are read from the text)."""

    name = "anthropic"
    key_env = "ANTHROPIC_API_KEY"

    def __init__(self, config: dict[str, Any]):
        super().__init__(config)
        self.base_url = str(config.get("base_url", "https://api.anthropic.com")).rstrip("/")
        self.model = config.get("model") or "claude-3-5-haiku-latest"

    def describe(self) -> dict[str, Any]:
        return redact_headers({"provider": "anthropic", "base_url": self.base_url, "model": self.model})

    async def call(self, request: JudgeRequest) -> JudgeReply:
        from agentunit.judges.base import JudgeReply

        key = self._api_key()
        if not key:
            raise AgentUnitError(f"environment variable {self.config.get('api_key_env', self.key_env)} is not set "
                                 "(anthropic judge)")
        system = "\n".join(c for r, c in request.messages if r == "system")
        messages = [{"role": r, "content": c} for r, c in request.messages if r != "system"]
        body = {"model": self.model, "max_tokens": max(request.max_tokens, 1), "temperature": 0,
                "messages": messages, **({"system": system} if system else {})}
        data = await self._post(f"{self.base_url}/v1/messages",
                                {"x-api-key": key, "anthropic-version": "2023-06-01"}, body)
        content = data.get("content") if isinstance(data, dict) else None
        if not isinstance(content, list):
            raise AgentUnitError("judge reply is not a Messages API reply: no content list")
        text = "".join(str(block.get("text", "")) for block in content
                       if isinstance(block, dict) and block.get("type") == "text")
        return JudgeReply(text=text, usage=_token_counts(data.get("usage"), {"prompt_tokens": "input_tokens",
                                                                             "completion_tokens": "output_tokens"}))


class _Providers(Mapping[str, Any]):
    """Judge provider classes by name; the embedded model's (llama.cpp client, urllib) and the ensemble's
    modules are imported when a suite uses them, not by every run."""

    _WHERE: ClassVar[dict[str, tuple[str, str]]] = {
        "local": ("agentunit.judges.local", "LocalProvider"), "openai": (__name__, "OpenAIProvider"),
        "anthropic": (__name__, "AnthropicProvider"), "ensemble": ("agentunit.judges.ensemble", "EnsembleProvider")}

    def __getitem__(self, name: str) -> Any:
        module, attribute = self._WHERE[name]
        return getattr(importlib.import_module(module), attribute)

    def __contains__(self, name: object) -> bool:
        # Mapping's own test looks the name up, which would import the provider's module.
        try:
            return name in self._WHERE
        except TypeError:  # unhashable: no provider's name
            return False

    def __iter__(self) -> Iterator[str]:
        return iter(self._WHERE)

    def __len__(self) -> int:
        return len(self._WHERE)


PROVIDERS: Mapping[str, Any] = _Providers()
