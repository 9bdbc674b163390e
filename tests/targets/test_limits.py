"""Bounds on replies: decoded size, JSON depth and number sizes."""

import asyncio
import math

import pytest

from agentunit.errors import AgentUnitError, TargetError
from agentunit.targets._limits import (
    DEFAULT_MAX_RESPONSE_BYTES,
    MAX_INT_DIGITS,
    MAX_JSON_DEPTH,
    ReplyJSONError,
    max_response_bytes,
    parse_json_reply,
    read_capped,
    read_tail,
)


def test_json_depth_limit_is_exact_and_never_a_recursion_error():
    assert parse_json_reply("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH) is not None
    with pytest.raises(ReplyJSONError, match=f"deeper than {MAX_JSON_DEPTH}"):
        parse_json_reply("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1))
    with pytest.raises(ReplyJSONError, match="deeper than"):
        parse_json_reply('{"a": ' * 100_000 + "1" + "}" * 100_000)


def test_json_numbers_must_fit_a_float():
    assert parse_json_reply("9" * MAX_INT_DIGITS) == int("9" * MAX_INT_DIGITS)
    with pytest.raises(ReplyJSONError, match=f"{MAX_INT_DIGITS + 1}-digit number"):
        parse_json_reply("-" + "9" * (MAX_INT_DIGITS + 1))
    with pytest.raises(ReplyJSONError, match="out of a float's range"):
        parse_json_reply('{"cost": 1e400}')
    assert parse_json_reply('{"a": 1.5, "b": "x", "c": [true, null]}') == {"a": 1.5, "b": "x", "c": [True, None]}
    assert math.isnan(parse_json_reply("NaN"))  # read as Python's json reads it
    with pytest.raises(ValueError):
        parse_json_reply('{"a": ')


def _stream(data: bytes) -> asyncio.StreamReader:
    stream = asyncio.StreamReader()
    stream.feed_data(data)
    stream.feed_eof()
    return stream


def test_read_capped_allows_the_limit_and_refuses_one_byte_more():
    async def go(size: int, limit: int) -> bytes:
        return await read_capped(_stream(b"x" * size), limit, "command output")

    assert asyncio.run(go(200_000, 200_000)) == b"x" * 200_000
    with pytest.raises(TargetError, match=r"command output larger than 199999 bytes \(max_response_bytes\)"):
        asyncio.run(go(200_000, 199_999))


def test_read_tail_keeps_the_end():
    async def go() -> bytes:
        return await read_tail(_stream(b"a" * 300_000 + b"END"), 10)

    assert asyncio.run(go()) == b"a" * 7 + b"END"


def test_max_response_bytes_config():
    assert max_response_bytes({}, "http target") == DEFAULT_MAX_RESPONSE_BYTES == 10 * 1024 * 1024
    assert max_response_bytes({"max_response_bytes": 5}, "judge") == 5
    for bad in (0, -1, 1.5, "10", True, None):
        with pytest.raises(AgentUnitError, match="http target: max_response_bytes must be a whole number"):
            max_response_bytes({"max_response_bytes": bad}, "http target")
