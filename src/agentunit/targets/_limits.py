"""Bounds on what one reply may cost: its decoded size, and the nesting and number sizes of its JSON.

A target or judge server is not trusted: a 521 KB gzip reply can decode to gigabytes, a JSON reply
100,000 levels deep overflows the parser's stack, and a 400-digit number overflows every float
conversion downstream (costs, token counts, scores). Replies are read in chunks up to
``max_response_bytes`` decoded bytes, and JSON replies are parsed with a depth and number check.
"""

from __future__ import annotations

import json
import math
from typing import Any, Protocol

from agentunit.errors import AgentUnitError, TargetError

DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024
MAX_JSON_DEPTH = 128
MAX_INT_DIGITS = 300  # 10^308 is the largest power of ten a float holds
_CHUNK = 64 * 1024


class _Stream(Protocol):
    async def read(self, n: int = -1) -> bytes: ...


class ReplyJSONError(ValueError):
    """A reply is JSON but outside the limits (too deep, a number out of range)."""


def max_response_bytes(config: dict[str, Any], where: str) -> int:
    """``config["max_response_bytes"]`` (default 10 MiB), checked to be an integer ≥ 1.

    Raises AgentUnitError naming ``where`` (the target or judge) otherwise."""
    value = config.get("max_response_bytes", DEFAULT_MAX_RESPONSE_BYTES)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise AgentUnitError(f"{where}: max_response_bytes must be a whole number of bytes ≥ 1, got {value!r}")
    return value


async def read_capped(stream: _Stream, limit: int, what: str = "reply") -> bytes:
    """Read ``stream`` (aiohttp's or asyncio's StreamReader) to its end, keeping at most ``limit`` bytes.

    Reads 64 KB chunks of decoded data; raises TargetError "<what> larger than N bytes
    (max_response_bytes)" as soon as the total passes ``limit``, so at most one chunk more is held.
    """
    chunks: list[bytes] = []
    size = 0
    while chunk := await stream.read(_CHUNK):
        size += len(chunk)
        if size > limit:
            raise TargetError(f"{what} larger than {limit} bytes (max_response_bytes)")
        chunks.append(chunk)
    return b"".join(chunks)


async def read_tail(stream: _Stream, keep: int) -> bytes:
    """Read ``stream`` to its end and return only its last ``keep`` bytes (for stderr tails)."""
    tail = b""
    while chunk := await stream.read(_CHUNK):
        tail = (tail + chunk)[-keep:]
    return tail


def parse_json_reply(text: str) -> Any:
    """``json.loads`` for untrusted replies: nesting at most ``MAX_JSON_DEPTH`` levels, integers of at
    most ``MAX_INT_DIGITS`` digits, no number literal that overflows a float.

    Raises ValueError (``json.JSONDecodeError`` or ``ReplyJSONError``) for every bad reply, never
    RecursionError. ``NaN`` and ``Infinity`` are read as Python's json reads them.
    """
    try:
        data = json.loads(text, parse_int=_parse_int, parse_float=_parse_float)
    except RecursionError:
        raise ReplyJSONError(f"JSON nested deeper than {MAX_JSON_DEPTH} levels") from None
    if _deeper_than(data, MAX_JSON_DEPTH):
        raise ReplyJSONError(f"JSON nested deeper than {MAX_JSON_DEPTH} levels")
    return data


def _parse_int(literal: str) -> int:
    digits = len(literal.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise ReplyJSONError(f"JSON has a {digits}-digit number (at most {MAX_INT_DIGITS} digits)")
    return int(literal)


def _parse_float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise ReplyJSONError(f"JSON number {literal[:30]}{'…' if len(literal) > 30 else ''} is out of a float's range")
    return value


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether ``value`` nests lists/dicts more than ``limit`` levels (iterative: no recursion limit)."""
    stack = [(value, 1)] if isinstance(value, (dict, list)) else []
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False
