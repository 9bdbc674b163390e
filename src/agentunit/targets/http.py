"""Call an HTTP endpoint as the system under test."""

from __future__ import annotations

import json
from typing import Any

from agentunit.core.templating import interpolate_env, render, render_value
from agentunit.datasets.base import DatasetCase
from agentunit.errors import TargetError
from agentunit.targets._http import extract_path, new_session, send_with_retries
from agentunit.targets.base import Reply, Target, template_variables

DEFAULT_BODY = {"prompt": "{{ prompt }}"}


class HttpTarget(Target):
    """``{type: http, url, method, headers, body, output_path, timeout, retries, backoff}``.

    ``url``, ``headers`` and ``body`` are Jinja2 templates over ``prompt``, ``id`` and the case vars
    (a dict/list body keeps its JSON structure; each string in it is rendered). Header values may use
    ``${ENV}``; the resolved values are never stored. The reply is parsed as JSON when it is JSON;
    ``output_path`` (``choices.0.message.content``, ``$.data[0].text``) selects the answer; a
    ``trusys`` object at the top level of the reply carries the evaluation metadata.
    Defaults: POST, body ``{"prompt": "{{ prompt }}"}``, timeout 30 s, 3 retries, backoff 0.5 s.
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
        self._client: Any = None

    def request(self, case: DatasetCase) -> dict[str, Any]:
        variables = template_variables(case)
        body = self.spec.get("body", DEFAULT_BODY if self.method not in ("GET", "HEAD") else None)
        return {
            "method": self.method,
            "url": render(str(self.spec["url"]), variables),
            "headers": {str(k): render(str(v), variables) for k, v in (self.spec.get("headers") or {}).items()},
            "body": render_value(body, variables),
        }

    async def send(self, case: DatasetCase, request: dict[str, Any]) -> Reply:
        if self._client is None:
            self._client = new_session()
        headers = {k: interpolate_env(v, self.secrets) for k, v in request["headers"].items()}
        url = interpolate_env(request["url"], self.secrets)
        response = await send_with_retries(self._client, request["method"], url, headers=headers,
                                           body=request["body"], timeout=self.timeout, retries=self.retries,
                                           backoff=self.backoff)
        return Reply(body=self._answer(response.text, response.headers.get("content-type", "")))

    def _answer(self, text: str, content_type: str) -> Any:
        looks_json = "json" in content_type or text.lstrip()[:1] in ("{", "[")
        if not looks_json:
            if self.output_path:
                raise TargetError(f"reply is not JSON, cannot read output_path {self.output_path!r}: {text[:120]!r}")
            return text
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise TargetError(f"malformed JSON reply: {exc}: {text[:120]!r}") from exc
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
