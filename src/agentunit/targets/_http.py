"""HTTP sending with retries: exponential backoff, honouring ``Retry-After`` on 429 and 5xx."""

from __future__ import annotations

import asyncio
import email.utils
import json
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agentunit.errors import AgentUnitError, TargetError
from agentunit.targets._limits import DEFAULT_MAX_RESPONSE_BYTES, parse_json_reply, read_capped
from agentunit.targets._secrets import clip

RETRY_STATUSES = frozenset({408, 425, 429, 500, 502, 503, 504})
MAX_RETRY_AFTER_S = 120.0
ERROR_TEXT_CHARS = 300
_DELTA_SECONDS = re.compile(r"\d+(\.\d+)?")  # 400 digits reads as inf, clamped below


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header: delta-seconds or an HTTP date; None if absent/invalid.

    Only plain non-negative numbers (``120``, ``1.5``) and HTTP dates are read — ``nan``, ``inf``,
    ``-1`` and other text are invalid (None: the caller's own backoff applies). The result is clamped
    to 0..``MAX_RETRY_AFTER_S``.
    """
    if not value:
        return None
    value = value.strip()
    if _DELTA_SECONDS.fullmatch(value):
        seconds = float(value)
    else:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, OverflowError):
            return None
        if when is None:
            return None
        try:
            seconds = when.timestamp() - (time.time() if now is None else now)
        except (OverflowError, OSError, ValueError):
            return None
    return min(max(seconds, 0.0), MAX_RETRY_AFTER_S)


def retry_on_timeout(spec: dict[str, Any], where: str) -> bool:
    """The target's ``retry_on_timeout`` (default false), which must be true or false."""
    value = spec.get("retry_on_timeout", False)
    if not isinstance(value, bool):
        raise AgentUnitError(f"{where}: retry_on_timeout must be true or false, got {value!r}")
    return value


def backoff_delay(attempt: int, base: float, retry_after: float | None) -> float:
    """``Retry-After`` when the server gave one, else ``base · 2^attempt`` with ±25 % jitter."""
    if retry_after is not None:
        return retry_after
    return base * (2 ** attempt) * (0.75 + random.random() * 0.5)


@dataclass(slots=True)
class Response:
    """A reply read within the size limit; ``elapsed_ms`` is the time of the attempt that produced it."""

    status: int
    headers: dict[str, str]
    text: str
    elapsed_ms: float | None = None

    def json(self) -> Any:
        """The body as JSON within agentunit.targets._limits' bounds; raises ValueError otherwise."""
        return parse_json_reply(self.text)


def new_session() -> Any:
    """An aiohttp session without a connection cap (the runner's workers bound concurrency).

    aiohttp rather than httpx: httpcore's pool rescans every connection on each dispatch, which
    measured 27 s instead of 3.3 s for 2,000 requests at -j 64 on these 2-core machines.
    """
    import aiohttp

    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0), auto_decompress=True)


def _unchanged(text: str) -> str:
    return text


async def send_with_retries(session: Any, method: str, url: str, *, headers: dict[str, str],
                            body: Any, timeout: float, retries: int, backoff: float,
                            max_bytes: int = DEFAULT_MAX_RESPONSE_BYTES, retry_timeouts: bool = False,
                            redact: Callable[[str], str] = _unchanged) -> Response:
    """Send a request; retry transport errors, 408/425/429 and 5xx up to ``retries`` times.

    An attempt that timed out is not retried unless ``retry_timeouts``: the server may still be
    working on it, and a second request would duplicate its side effects and load. The body is read
    in chunks up to ``max_bytes`` decoded bytes (a larger one raises at once, without retrying).
    Error texts are passed through ``redact`` before they are cut to ``ERROR_TEXT_CHARS``, so a
    secret across the cut is still removed. Returns the response with a status < 400; raises
    TargetError otherwise, naming the last status or error and the number of attempts.
    """
    import aiohttp

    data: bytes | None = None
    if isinstance(body, (dict, list)):
        text = json.dumps(body, ensure_ascii=False)
        # A lone surrogate (a prompt cut mid-emoji) has no UTF-8 form; JSON's \u escape carries it as is.
        data = text.encode() if text.isascii() or _utf8_ok(text) else json.dumps(body).encode()
        headers = {"content-type": "application/json", **headers}
    elif body is not None:
        data = str(body).encode("utf-8", "replace")
    client_timeout = aiohttp.ClientTimeout(total=timeout)
    last = "no attempt"
    for attempt in range(retries + 1):
        retry_after = None
        start = time.perf_counter()
        try:
            async with session.request(method, url, data=data, headers=headers, timeout=client_timeout) as reply:
                try:
                    raw = await read_capped(reply.content, max_bytes)
                except TargetError:
                    reply.close()  # drop the connection rather than reading the rest of the body
                    raise
                response = Response(reply.status, {k.lower(): v for k, v in reply.headers.items()},
                                    _decode(raw, reply.charset),
                                    (time.perf_counter() - start) * 1000.0)
        except getattr(aiohttp, "ConnectionTimeoutError", ()) as exc:  # never connected: nothing sent, safe to retry
            last = clip(redact(f"{type(exc).__name__}: {exc}"), ERROR_TEXT_CHARS)
        except asyncio.TimeoutError:
            last = f"timed out after {timeout:g} s"
            if not retry_timeouts:
                raise TargetError(f"{last} (attempt {attempt + 1}; not retried: the server may still be working "
                                  "on it)") from None
        except aiohttp.ClientError as exc:
            last = clip(redact(f"{type(exc).__name__}: {exc}"), ERROR_TEXT_CHARS)
        else:
            if response.status < 400:
                return response
            last = f"HTTP {response.status}: {clip(redact(response.text), ERROR_TEXT_CHARS)}"
            if response.status not in RETRY_STATUSES:
                raise TargetError(last)
            retry_after = parse_retry_after(response.headers.get("retry-after"))
        if attempt < retries:
            await asyncio.sleep(backoff_delay(attempt, backoff, retry_after))
    raise TargetError(f"{last} (after {retries + 1} attempts)")


def _decode(raw: bytes, charset: str | None) -> str:
    """The body as text in the declared charset; UTF-8 when none is declared or it is not a text codec."""
    try:
        return raw.decode(charset or "utf-8", errors="replace")
    except LookupError:
        return raw.decode("utf-8", errors="replace")


def _utf8_ok(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def extract_path(data: Any, path: str) -> Any:
    """Follow ``a.b.0.c``, ``a.b[0].c`` or ``$.a.b[0]`` into decoded JSON; raises KeyError with the failing step."""
    steps = path.strip().removeprefix("$").replace("[", ".").replace("]", "").strip(".").split(".")
    current = data
    for step in steps:
        if step == "":
            continue
        if isinstance(current, list):
            try:
                current = current[int(step)]
            except (ValueError, IndexError):
                raise KeyError(f"no index {step!r} in a list of {len(current)}") from None
        elif isinstance(current, dict) and step in current:
            current = current[step]
        else:
            keys = ", ".join(list(current)[:10]) if isinstance(current, dict) else type(current).__name__
            raise KeyError(f"no {step!r} (have: {keys})")
    return current
