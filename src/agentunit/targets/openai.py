"""Call any OpenAI-compatible chat completions endpoint as the system under test."""

from __future__ import annotations

import asyncio
import base64
import math
import os
from typing import Any

from agentunit.core.templating import interpolate_env, render
from agentunit.datasets.base import DatasetCase
from agentunit.errors import AgentUnitError, TargetError
from agentunit.media import Media, MediaError, case_refs, load_media
from agentunit.media.access import limits_for, media_identity
from agentunit.targets._http import new_session, retry_on_timeout, send_with_retries
from agentunit.targets._limits import max_response_bytes
from agentunit.targets._secrets import clip, url_credentials
from agentunit.targets.base import Reply, Target, template_variables

DEFAULT_BASE_URL = "https://api.openai.com/v1"
DEFAULT_KEY_ENV = "OPENAI_API_KEY"
_MEDIA_MARK = "agentunit-media:"
_AUDIO_FORMATS = {"audio/wav": "wav", "audio/mpeg": "mp3"}


class OpenAITarget(Target):
    """``{type: openai, base_url, model, api_key_env, system, temperature, max_tokens, logprobs, headers,
    retry_on_timeout, max_response_bytes}``.

    Sends ``POST {base_url}/chat/completions`` with the system message (a template) and the prompt
    as the user message; temperature defaults to 0. Records the answer, ``usage``, ``finish_reason``,
    token ``logprobs`` (when ``logprobs: true``) and any ``tool_calls`` of the message. The API key is
    read from the ``api_key_env`` variable (default OPENAI_API_KEY; local servers may need none);
    ``headers`` values may use ``${ENV}``. Replies are bounded as for the http target. A case's media
    go with its prompt in one user message: images as ``image_url`` parts (``data:`` URIs), audio as
    ``input_audio`` parts (WAV or MP3), video as ``video_url`` parts (vLLM's extension); see docs/media.md.
    """

    kind = "openai"
    cacheable = True

    def __init__(self, spec: dict[str, Any]):
        super().__init__(spec)
        self.base_url = str(spec.get("base_url", DEFAULT_BASE_URL)).rstrip("/")
        self.timeout = float(spec.get("timeout", 60))
        self.retries = int(spec.get("retries", 3))
        self.backoff = float(spec.get("backoff", 1.0))
        self.retry_on_timeout = retry_on_timeout(spec, "openai target")
        self.max_response_bytes = max_response_bytes(spec, "openai target")
        self._client: Any = None

    def request(self, case: DatasetCase) -> dict[str, Any]:
        variables = template_variables(case)
        messages = []
        if self.spec.get("system"):
            messages.append({"role": "system", "content": render(str(self.spec["system"]), variables)})
        if case.conversation:
            messages += [{"role": m.get("role", "user"), "content": m.get("content", "")} for m in case.conversation]
        refs = case_refs(case)
        if refs:
            parts: list[dict[str, Any]] = [{"type": "text", "text": case.query}] if case.query else []
            messages.append({"role": "user", "content": parts + [_placeholder(r.kind, i) for i, r in enumerate(refs)]})
        elif case.query:
            messages.append({"role": "user", "content": case.query})
        body: dict[str, Any] = {"model": self.spec["model"], "messages": messages,
                                "temperature": self.spec.get("temperature", 0)}
        if self.spec.get("max_tokens") is not None:
            body["max_tokens"] = self.spec["max_tokens"]
        if self.spec.get("logprobs"):
            body["logprobs"] = True
            if self.spec.get("top_logprobs"):
                body["top_logprobs"] = self.spec["top_logprobs"]
        request = {"url": f"{self.base_url}/chat/completions", "body": body}
        if refs:  # the media go in at send(): the request (hashed for the cache key) names them by content
            request["media"] = [media_identity(case, r) for r in refs]
        return request

    def _headers(self) -> dict[str, str]:
        headers = {str(k): interpolate_env(str(v), self.secrets) for k, v in (self.spec.get("headers") or {}).items()}
        env = self.spec.get("api_key_env", DEFAULT_KEY_ENV)
        key = os.environ.get(env)
        if key:
            self.secrets.add(key)
            headers["Authorization"] = f"Bearer {key}"
        elif "api_key_env" in self.spec:
            raise AgentUnitError(f"environment variable {env} is not set (api_key_env of the openai target)")
        return headers

    async def send(self, case: DatasetCase, request: dict[str, Any]) -> Reply:
        body = await _with_media(request["body"], case) if request.get("media") else request["body"]
        if self._client is None:
            self._client = new_session()
        self.secrets |= url_credentials(request["url"], self.secrets)  # a base_url's user:password: Basic auth
        response = await send_with_retries(self._client, "POST", request["url"], headers=self._headers(),
                                           body=body, timeout=self.timeout, retries=self.retries,
                                           backoff=self.backoff, max_bytes=self.max_response_bytes,
                                           retry_timeouts=self.retry_on_timeout, redact=self.redact)
        try:
            data = response.json()
            choice = data["choices"][0]
            message = choice["message"]
            content = message.get("content") or ""
        except (ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
            raise TargetError(f"not a chat completion reply ({exc!r}): {clip(self.redact(response.text), 200)!r}") \
                from None
        body: Any = content
        if message.get("tool_calls"):
            body = {"output": content, "trusys": {"tool_calls": message["tool_calls"]}}
        usage = data.get("usage")
        return Reply(body=body, usage=usage if isinstance(usage, dict) else None, logprobs=_token_logprobs(choice),
                     finish_reason=choice.get("finish_reason"), latency_ms=response.elapsed_ms)

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.close()
            self._client = None


def _placeholder(kind: str, index: int) -> dict[str, Any]:
    marker = f"{_MEDIA_MARK}{index}"
    if kind == "audio":
        return {"type": "input_audio", "input_audio": {"data": marker, "format": None}}
    if kind == "video":  # not in OpenAI's API; vLLM and others take video_url
        return {"type": "video_url", "video_url": {"url": marker}}
    return {"type": "image_url", "image_url": {"url": marker}}


async def _with_media(body: dict[str, Any], case: DatasetCase) -> dict[str, Any]:
    """``body`` with each media placeholder replaced: an image (or video) as a ``data:`` URI, audio as
    ``{data: base64, format: wav|mp3}``. Files are read and URLs fetched in a worker thread."""
    refs = case_refs(case)
    loaded = [await asyncio.to_thread(load_media, r.ref, base_dir=case.media_dir, kind=r.kind,
                                      field=f"{r.field} (case {case.id!r})", limits=limits_for(case, r)) for r in refs]
    messages = []
    for message in body["messages"]:
        content = message.get("content")
        if isinstance(content, list):
            message = {**message, "content": [_filled(part, loaded, refs, case.id) for part in content]}
        messages.append(message)
    return {**body, "messages": messages}


def _marker_index(part: Any, kind: Any) -> int | None:
    """The medium a placeholder part stands for; None for any other part (a caller's own content)."""
    inner = part.get(kind) if isinstance(part, dict) and isinstance(kind, str) else None
    value = inner.get("data" if kind == "input_audio" else "url") if isinstance(inner, dict) else None
    if isinstance(value, str) and value.startswith(_MEDIA_MARK):
        return int(value[len(_MEDIA_MARK):])
    return None


def _filled(part: dict[str, Any], loaded: list[Media], refs: list[Any], case_id: str) -> dict[str, Any]:
    kind = part.get("type") if isinstance(part, dict) else None
    index = _marker_index(part, kind)
    if index is None:
        return part
    media = loaded[index]
    if kind == "input_audio":
        audio_format = _AUDIO_FORMATS.get(media.mime)
        if audio_format is None:
            raise MediaError(f"holds {media.mime} audio; the openai target sends WAV or MP3 (input_audio)",
                             field=f"{refs[index].field} (case {case_id!r})", reference=media.source,
                             suggestion="convert it, e.g. `ffmpeg -i IN OUT.wav`")
        return {"type": "input_audio", "input_audio": {"data": base64.b64encode(media.data).decode("ascii"),
                                                       "format": audio_format}}
    return {"type": kind, kind: {"url": f"data:{media.mime};base64,{base64.b64encode(media.data).decode('ascii')}"}}


def _token_logprobs(choice: dict[str, Any]) -> list[float] | None:
    logprobs = choice.get("logprobs")
    content = logprobs.get("content") if isinstance(logprobs, dict) else None
    if not isinstance(content, list):
        return None
    values = [t.get("logprob") for t in content if isinstance(t, dict)]
    return [float(v) for v in values if isinstance(v, (int, float)) and math.isfinite(v)] or None
