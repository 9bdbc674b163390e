"""Category scores from an OpenAI-compatible ``/v1/moderations`` endpoint (``config.provider: openai``)."""

from __future__ import annotations

import functools
import math
from typing import Any

from agentunit.errors import AgentUnitError
from agentunit.judges.providers import DEFAULT_HTTP_TIMEOUT_S, _HttpProvider
from agentunit.moderation.taxonomy import canonical_category, close_scores
from agentunit.targets._secrets import clip, redact_text, url_credentials
from agentunit.targets.base import redact_headers

__all__ = ["ModerationEndpoint", "scores_from_reply"]

DEFAULT_MODEL = "omni-moderation-latest"


class ModerationEndpoint(_HttpProvider):
    """POST ``{base_url}/moderations`` with ``{model, input}``; the API key from ``api_key_env``
    (default ``OPENAI_API_KEY``) is sent as a bearer token and redacted from every error."""

    name = "openai-moderation"

    def __init__(self, config: dict[str, Any]):
        super().__init__(config)
        self.base_url = str(config.get("base_url", "https://api.openai.com/v1")).rstrip("/")
        self.model = str(config.get("model") or DEFAULT_MODEL)

    def describe(self) -> dict[str, Any]:
        return redact_headers({"provider": "openai", "base_url": self.base_url, "model": self.model})

    def _headers(self) -> dict[str, str]:
        key = self._api_key()
        if key:
            return {"Authorization": f"Bearer {key}"}
        if "api_key_env" in self.config:
            raise AgentUnitError(f"environment variable {self.config['api_key_env']} is not set "
                                 "(moderation api_key_env)")
        return {}

    async def scores(self, text: str) -> tuple[dict[str, float], dict[str, Any]]:
        """(category scores closed under the taxonomy, detail with the endpoint's own flags)."""
        from agentunit.targets._http import new_session, send_with_retries

        self.secrets |= url_credentials(self.base_url, self.secrets)  # user:password in base_url: Basic auth
        redact = functools.partial(redact_text, secrets=self.secrets)
        # A session per call: the metric runs in the engine's loop and in check()'s short-lived ones.
        async with new_session() as session:
            response = await send_with_retries(
                session, "POST", f"{self.base_url}/moderations", headers=self._headers(),
                body={"model": self.model, "input": text}, retries=3, backoff=1.0, redact=redact,
                timeout=float(self.config.get("timeout", DEFAULT_HTTP_TIMEOUT_S)), max_bytes=self.max_response_bytes)
        try:
            data = response.json()
        except ValueError as exc:
            raise AgentUnitError(f"moderation reply is not JSON ({exc}): "
                                 f"{clip(redact(response.text), 200)!r}") from None
        return scores_from_reply(data), {"endpoint": self.describe(), "flagged": _flagged(data)}


def _first_result(data: Any) -> dict[str, Any]:
    results = data.get("results") if isinstance(data, dict) else None
    if not isinstance(results, list) or not results or not isinstance(results[0], dict):
        raise AgentUnitError("moderation reply has no results[0] (is base_url a /v1/moderations server?)")
    return results[0]


def _flagged(data: Any) -> bool | None:
    flagged = _first_result(data).get("flagged")
    return flagged if isinstance(flagged, bool) else None


def scores_from_reply(data: Any) -> dict[str, float]:
    """Category scores from a moderation reply's ``results[0].category_scores``; names the taxonomy
    does not know are ignored, categories the reply lacks are left out (not scored, rather than 0),
    and a non-numeric or out-of-range score is an error."""
    raw = _first_result(data).get("category_scores")
    if not isinstance(raw, dict):
        raise AgentUnitError("moderation reply has no results[0].category_scores object")
    scores: dict[str, float] = {}
    for name, score in raw.items():
        category = canonical_category(name)
        if category is None:
            continue
        if isinstance(score, bool) or not isinstance(score, (int, float)) or not math.isfinite(score) \
                or not 0.0 <= score <= 1.0:
            raise AgentUnitError(f"moderation reply: category_scores[{name!r}] is {score!r}, not a probability")
        scores[category] = max(scores.get(category, 0.0), float(score))
    closed = close_scores(scores)
    return {category: closed[category] for category in closed if category in scores}
