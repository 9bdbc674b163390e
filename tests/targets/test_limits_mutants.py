"""Reply limits at their edges: the messages a user reads, dict nesting, the default names (written for the
mutation pass over targets/_limits.py; docs/testing.md, "Mutation testing")."""

import asyncio

import pytest

from agentunit.errors import TargetError
from agentunit.targets._limits import MAX_JSON_DEPTH, ReplyJSONError, parse_json_reply, read_capped, read_tail


def _stream(data: bytes) -> asyncio.StreamReader:
    stream = asyncio.StreamReader()
    stream.feed_data(data)
    stream.feed_eof()
    return stream


def _nested_objects(depth: int) -> str:
    return '{"a": ' * (depth - 1) + "{}" + "}" * (depth - 1)


def test_object_nesting_is_limited_like_list_nesting():
    assert parse_json_reply(_nested_objects(MAX_JSON_DEPTH)) is not None
    with pytest.raises(ReplyJSONError) as caught:
        parse_json_reply(_nested_objects(MAX_JSON_DEPTH + 1))
    assert str(caught.value) == "JSON nested deeper than 128 levels"
    # the deep branch is found beside shallow ones, in an object or a list
    deep = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    with pytest.raises(ReplyJSONError):
        parse_json_reply('{"x": 1, "y": [], "deep": ' + deep + ', "z": {}}')
    assert parse_json_reply('[1, {"a": []}, ' + "[" * (MAX_JSON_DEPTH - 1) + "]" * (MAX_JSON_DEPTH - 1) + "]")


def test_a_scalar_reply_has_no_depth():
    assert parse_json_reply('"text"') == "text" and parse_json_reply("3") == 3


def test_an_out_of_range_number_is_quoted_up_to_30_characters():
    with pytest.raises(ReplyJSONError) as caught:
        parse_json_reply("1e400")
    assert str(caught.value) == "JSON number 1e400 is out of a float's range"
    literal = "1" * 26 + "e400"  # 30 characters: quoted whole
    with pytest.raises(ReplyJSONError) as caught:
        parse_json_reply(literal)
    assert str(caught.value) == f"JSON number {literal} is out of a float's range"
    with pytest.raises(ReplyJSONError) as caught:
        parse_json_reply("-" + literal)  # 31: clipped
    assert str(caught.value) == f"JSON number -{literal[:29]}… is out of a float's range"


def test_an_integer_too_long_is_refused_with_its_digit_count():
    with pytest.raises(ReplyJSONError) as caught:
        parse_json_reply("[" + "1" * 301 + "]")
    assert str(caught.value) == "JSON has a 301-digit number (at most 300 digits)"


async def _capped(data: bytes, limit: int) -> bytes:
    return await read_capped(_stream(data), limit)


async def _tail(data: bytes, keep: int) -> bytes:
    return await read_tail(_stream(data), keep)


def test_a_capped_read_names_a_reply_by_default_and_keeps_every_chunk():
    data = bytes(range(256)) * 1000  # 256,000 bytes: four 64 KB chunks
    assert asyncio.run(_capped(data, len(data))) == data
    with pytest.raises(TargetError) as caught:
        asyncio.run(_capped(data, len(data) - 1))
    assert str(caught.value) == "reply larger than 255999 bytes (max_response_bytes)"


def test_a_tail_read_keeps_the_last_bytes_across_chunks():
    data = bytes(range(256)) * 1000
    assert asyncio.run(_tail(data, 70_000)) == data[-70_000:]
    assert asyncio.run(_tail(b"short", 10)) == b"short"


def test_a_reply_limit_of_one_byte_is_allowed():
    from agentunit.targets._limits import max_response_bytes

    assert max_response_bytes({"max_response_bytes": 1}, "http target") == 1
