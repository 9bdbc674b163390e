"""A reply read back from the cache is the reply that was cached (every field), and a reply declared a
medium (``output_is_media: true``) becomes ``{output, trusys: {output_media}}`` with relative paths made
absolute against the command's folder (mutation testing found these unpinned in the target tests)."""

from agentunit.targets.base import Reply, wrap_media_output


def test_every_field_of_a_reply_survives_the_cache_form():
    reply = Reply(body={"output": "x", "trusys": {"plan": ["a"]}}, usage={"prompt_tokens": 3},
                  logprobs=[-0.1, -2.5], finish_reason="length", cost=0.002,
                  extra={"trace": {"spans": [{"name": "llm"}]}}, latency_ms=12.5)
    assert Reply.from_json(reply.to_json()) == reply


def test_a_cache_row_without_the_optional_fields_reads_as_absent_ones():
    assert Reply.from_json('{"body": "hi"}') == Reply(body="hi")
    assert Reply.from_json('{"body": "hi", "extra": null}').extra == {}


def test_text_output_becomes_an_output_medium_with_a_path_made_absolute():
    assert wrap_media_output("out/cat.png\n", "/work") == {"output": "out/cat.png\n",
                                                            "trusys": {"output_media": "/work/out/cat.png"}}
    assert wrap_media_output("/abs/cat.png", "/work")["trusys"]["output_media"] == "/abs/cat.png"
    assert wrap_media_output("cat.png")["trusys"]["output_media"] == "cat.png"  # no folder: as given
    for reference in ("https://h/cat.png", "data:image/png;base64,AAAA", "S3://bucket/cat.png", "DATA:image/png,x"):
        assert wrap_media_output(reference, "/work")["trusys"]["output_media"] == reference


def test_a_json_reply_keeps_its_envelope_and_gains_the_output_medium():
    text = ' {"output": "cat.png", "trusys": {"usage": {"prompt_tokens": 1}}}'
    assert wrap_media_output(text, "/work") == {"output": "cat.png", "trusys": {
        "usage": {"prompt_tokens": 1}, "output_media": "/work/cat.png"}}
    assert wrap_media_output({"output": " cat.png ", "score": 1}, "/w") == {
        "output": " cat.png ", "score": 1, "trusys": {"output_media": "/w/cat.png"}}


def test_a_reply_naming_its_own_output_medium_or_without_text_output_is_left_alone():
    named = {"output": "a caption", "trusys": {"output_media": "img.png"}}
    assert wrap_media_output(named, "/work") == named
    assert wrap_media_output({"output": 3}, "/work") == {"output": 3}
    assert wrap_media_output({"trusys": {}}, "/work") == {"trusys": {}}
    assert wrap_media_output({"output": "x", "trusys": ["not", "an", "object"]}, "/w") == \
        {"output": "x", "trusys": ["not", "an", "object"]}
    assert wrap_media_output(["a", "list"], "/work") == ["a", "list"]
    broken = '{"output": "half'  # not JSON after all: a reference like any other text
    assert wrap_media_output(broken, "/work")["output"] == broken
    assert wrap_media_output("", "/work") == {"output": "", "trusys": {"output_media": ""}}
