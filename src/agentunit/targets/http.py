"""Call an HTTP endpoint as the system under test."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from agentunit.core.templating import render_value
from agentunit.datasets.base import DatasetCase
from agentunit.errors import TargetError
from agentunit.media.templates import MediaFiller, media_variables, used_media
from agentunit.targets._http import extract_path, new_session, retry_on_timeout, send_with_retries
from agentunit.targets._limits import ReplyJSONError, max_response_bytes, parse_json_reply
from agentunit.targets._secrets import clip, render_with_env_refs, resolve_env_refs, url_credentials
from agentunit.targets.base import Reply, Target, output_is_media, template_variables, wrap_media_output

DEFAULT_BODY = {"prompt": "{{ prompt }}"}


class HttpTarget(Target):
    """``{type: http, url, method, headers, body, output_path, timeout, retries, backoff, retry_on_timeout,
    max_response_bytes, output_is_media}``.

    ``url``, ``headers`` and ``body`` are Jinja2 templates over ``prompt``, ``id`` and the case vars
    (a dict/list body keeps its JSON structure; each string in it is rendered). ``url`` and header
    values may use ``${ENV}`` in the suite's own text; case data inserted into them stays literal
    (agentunit.targets._secrets), and the resolved values are never stored. The reply is read up to
    ``max_response_bytes`` decoded bytes and parsed as JSON when it is JSON (bounded depth and
    numbers); ``output_path`` (``choices.0.message.content``, ``$.data[0].text``) selects the answer; a
    ``trusys`` object at the top level of the reply carries the evaluation metadata. A timed-out
    attempt is retried only with ``retry_on_timeout: true``. A case's media are template variables
    (``{{ image | data_uri }}``, ``| base64``, ``| path``, ``| mime``; agentunit.media.templates), put in
    when the request is sent; the request names them by content hash. With ``output_is_media: true``
    a text answer is a media reference (path, URL, ``data:``), the reply's output medium.
    Defaults: POST, body ``{"prompt": "{{ prompt }}"}``, timeout 30 s, 3 retries, backoff 0.5 s, 10 MiB.
    """

    kind = "http"
    cacheable = True

    def __init__(self, spec: dict[str, Any]):
        super().__init__(spec)
        self.method = str(spec.get("method", "POST")).upper()
        self.timeout = float(spec.get("timeout", 30))
        self.retries = int(spec.get("retries", 3))
        self.backoff = float(spec.get("backoff", 0.5))
        self.output_path = spec.get("output_path")
        self.retry_on_timeout = retry_on_timeout(spec, "http target")
        self.max_response_bytes = max_response_bytes(spec, "http target")
        self.output_is_media = output_is_media(spec, "http target")
        self._client: Any = None

    def request(self, case: DatasetCase) -> dict[str, Any]:
        """The request with case data rendered in and the suite's ``${ENV}`` left as placeholders
        (in ``url`` and headers every other ``$`` is written ``$$``; see agentunit.targets._secrets)."""
        variables = template_variables(case)
        media = media_variables(case)
        if media:
            variables.update(media)
        body = self.spec.get("body", DEFAULT_BODY if self.method not in ("GET", "HEAD") else None)
        request = {
            "method": self.method,
            "url": render_with_env_refs(str(self.spec["url"]), variables),
            "headers": {str(k): render_with_env_refs(str(v), variables)
                        for k, v in (self.spec.get("headers") or {}).items()},
            "body": render_value(body, variables),
        }
        used = used_media(request, case) if media else None
        if used:
            request["media"] = used
        return request

    async def send(self, case: DatasetCase, request: dict[str, Any]) -> Reply:
        if self._client is None:
            self._client = new_session()
        headers = {k: resolve_env_refs(v, self.secrets) for k, v in request["headers"].items()}
        url = resolve_env_refs(request["url"], self.secrets)
        # aiohttp sends a URL's user:password as an Authorization: Basic header: echoed, it must be redacted
        self.secrets |= url_credentials(url, self.secrets)
        body = request["body"]
        with MediaFiller(case) as media:
            if request.get("media"):  # after ${ENV} resolution: a medium's text is never read for references
                url, headers, body = await asyncio.to_thread(media.fill, [url, headers, body])
            response = await send_with_retries(self._client, request["method"], url, headers=headers,
                                               body=body, timeout=self.timeout, retries=self.retries,
                                               backoff=self.backoff, max_bytes=self.max_response_bytes,
                                               retry_timeouts=self.retry_on_timeout, redact=self.redact)
        answer = self._answer(response.text, response.headers.get("content-type", ""))
        return Reply(body=wrap_media_output(answer) if self.output_is_media else answer,
                     latency_ms=response.elapsed_ms)

    def _answer(self, text: str, content_type: str) -> Any:
        looks_json = "json" in content_type or text.lstrip()[:1] in ("{", "[")
        if not looks_json:
            if self.output_path:
                raise TargetError(f"reply is not JSON, cannot read output_path {self.output_path!r}: "
                                  f"{clip(self.redact(text), 120)!r}")
            return text
        try:
            data = parse_json_reply(text)
        except ReplyJSONError as exc:
            raise TargetError(f"reply rejected: {exc}") from None
        except ValueError as exc:
            raise TargetError(f"malformed JSON reply: {exc}: {clip(self.redact(text), 120)!r}") from None
        if not self.output_path:
            return data
        try:
            answer = extract_path(data, self.output_path)
        except KeyError as exc:
            raise TargetError(f"output_path {self.output_path!r}: {exc.args[0]}") from exc
        if isinstance(data, dict) and "trusys" in data:
            return {"output": answer, "trusys": data["trusys"]}
        return answer if isinstance(answer, str) else json.dumps(answer, ensure_ascii=False)

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.close()
            self._client = None
