"""The target interface: turn a case into a request, send it, return the raw reply.

A target splits its work in two so the runner can cache: ``request(case)`` renders the full request
as JSON-able data with secrets left as ``${ENV}`` placeholders (this is hashed for the cache key and
is safe to store), and ``send(request)`` resolves secrets and performs the call.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentunit.datasets.base import DatasetCase
from agentunit.errors import AgentUnitError
from agentunit.targets._secrets import REDACTED, redact_text

SECRET_HEADER = re.compile(r"auth|key|token|secret|password|cookie|session", re.IGNORECASE)


@dataclass(slots=True)
class Reply:
    """A target's raw reply plus transport-level facts (usage, logprobs, finish reason, cost).

    ``latency_ms`` is the duration of the attempt that produced the reply (retry waits and failed
    attempts excluded), when the target measures it (http, openai); None otherwise.
    """

    body: Any
    usage: dict[str, Any] | None = None
    logprobs: list[float] | None = None
    finish_reason: str | None = None
    cost: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    latency_ms: float | None = None

    def to_json(self) -> str:
        return json.dumps({"body": self.body, "usage": self.usage, "logprobs": self.logprobs,
                           "finish_reason": self.finish_reason, "cost": self.cost, "extra": self.extra,
                           "latency_ms": self.latency_ms}, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Reply:
        data = json.loads(text)
        return cls(body=data["body"], usage=data.get("usage"), logprobs=data.get("logprobs"),
                   finish_reason=data.get("finish_reason"), cost=data.get("cost"), extra=data.get("extra") or {},
                   latency_ms=data.get("latency_ms"))


class Target:
    """Base class for targets. Subclasses set ``kind`` and implement ``request`` and ``send``."""

    kind = "target"
    cacheable = False  # network targets cache by default; local code does not

    def __init__(self, spec: dict[str, Any]):
        self.spec = spec
        self.secrets: set[str] = set()
        self.cache_enabled = bool(spec.get("cache", self.cacheable))

    def request(self, case: DatasetCase) -> dict[str, Any]:
        return {"prompt": case.query}

    async def send(self, case: DatasetCase, request: dict[str, Any]) -> Reply:
        raise NotImplementedError

    def sends_inline(self) -> bool:
        """Whether ``send`` and ``aclose`` finish without suspending (the engine may then drive the run
        without an event loop). Only a target that does no I/O says yes."""
        return False

    def cache_key(self, request: dict[str, Any], repeat: int) -> str:
        """sha256 over the target kind, its redacted config, the request and the repeat index."""
        material = {"kind": self.kind, "spec": self.describe(), "request": redact_headers(request)}
        if repeat:
            material["repeat"] = repeat
        blob = json.dumps(material, sort_keys=True, default=str, ensure_ascii=False)
        import hashlib  # here: only a cached target's calls are keyed (hashlib loads OpenSSL, ~3 ms)

        return hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()

    def describe(self) -> dict[str, Any]:
        """The target's config with secrets redacted — what may be stored in the results DB."""
        return redact_headers({k: v for k, v in self.spec.items() if not callable(v)})

    def redact(self, text: str) -> str:
        """Remove every secret value this target interpolated from ``text`` (longest first)."""
        return redact_text(text, self.secrets)

    async def aclose(self) -> None:
        """Release connections and processes."""


# The password of a URL's userinfo (``https://user:password@host``), which a client sends as Basic auth.
_URL_PASSWORD = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://[^/@:\s]*:)[^/\s]*@")


def redact_headers(data: Any) -> Any:
    """Copy of ``data`` with the values of auth-like headers/keys replaced by ``***``."""
    if isinstance(data, dict):
        out = {}
        for key, value in data.items():
            if key == "headers" and isinstance(value, dict):
                out[key] = {h: (REDACTED if SECRET_HEADER.search(h) else v) for h, v in value.items()}
            elif isinstance(key, str) and SECRET_HEADER.search(key) and key not in ("api_key_env",) \
                    and isinstance(value, str):
                out[key] = REDACTED
            elif key in ("url", "base_url") and isinstance(value, str) and "@" in value:
                out[key] = _URL_PASSWORD.sub(rf"\1{REDACTED}@", value)
            else:
                out[key] = redact_headers(value)
        return out
    if isinstance(data, list):
        return [redact_headers(v) for v in data]
    return data


def template_variables(case: DatasetCase) -> dict[str, Any]:
    """Variables for request templates: the case vars, ``prompt`` and ``id``."""
    return {**case.vars, "prompt": case.query, "id": case.id}


def output_is_media(spec: dict[str, Any], where: str) -> bool:
    """The target's ``output_is_media`` (default false), which must be true or false."""
    value = spec.get("output_is_media", False)
    if not isinstance(value, bool):
        raise AgentUnitError(f"{where}: output_is_media must be true or false, got {value!r}")
    return value


def wrap_media_output(answer: Any, base_dir: str | None = None) -> Any:
    """A reply whose output is declared a medium (``output_is_media: true``): text becomes
    ``{output: TEXT, trusys: {output_media: TEXT}}``, as does a ``{output: TEXT, …}`` object (its
    ``trusys`` kept). A relative path is made absolute against ``base_dir`` when given (the command's
    working directory); without it, it stays relative to the suite file's folder. Anything else
    (an object without text ``output``, a reply that names ``trusys.output_media`` itself) is unchanged."""
    if isinstance(answer, str) and answer.lstrip()[:1] == "{":
        try:
            decoded = json.loads(answer)
        except ValueError:
            decoded = None
        if isinstance(decoded, dict):
            return wrap_media_output(decoded, base_dir)
    if isinstance(answer, str):
        reference = _absolute(answer.strip(), base_dir)
        return {"output": answer, "trusys": {"output_media": reference}}
    if isinstance(answer, dict) and isinstance(answer.get("output"), str):
        meta = answer.get("trusys")
        if meta is None or (isinstance(meta, dict) and "output_media" not in meta):
            reference = _absolute(answer["output"].strip(), base_dir)
            return {**answer, "trusys": {**(meta or {}), "output_media": reference}}
    return answer


def _absolute(reference: str, base_dir: str | None) -> str:
    if base_dir is None or not reference or re.match(r"^(?i:data:|[a-z][a-z0-9+.-]*://)", reference):
        return reference
    path = Path(reference).expanduser()
    return str(path if path.is_absolute() else Path(base_dir) / path)
