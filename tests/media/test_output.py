"""An output that is itself a medium (text-to-image, text-to-speech): reply media ``output`` of its sniffed kind,
a short reference as the stored output text, ``output_media(outcome)`` for metrics (agentunit.media.output)."""

import base64
import hashlib
import json
import os
from pathlib import Path

import pytest

from agentunit import evaluate
from agentunit.core.envelope import parse_reply
from agentunit.datasets.base import DatasetCase
from agentunit.media import MediaError, media_of, media_records
from agentunit.media.output import output_media

from .makers import png, wav
from .probe import MediaProbe

PNG, WAV = png(), wav()
BIG = png(580, 580, noise=True)  # ~1 MB that does not compress
BIG_URI = "data:image/png;base64," + base64.b64encode(BIG).decode()
PNG_B64, WAV_B64 = base64.b64encode(PNG).decode(), base64.b64encode(WAV).decode()
CASE = DatasetCase(id="c")


@pytest.mark.parametrize("reply", [
    f"data:image/png;base64,{PNG_B64}",
    f"  data:image/png;base64,{PNG_B64}\n",
    f"data:application/octet-stream;base64,{PNG_B64}",  # no media type declared: the content decides
    {"base64": PNG_B64, "mime": "image/png"},
    {"output": f"data:image/png;base64,{PNG_B64}", "trusys": {"plan": ["draw"]}},
    {"output": {"base64": PNG_B64}},
    json.dumps({"output": f"data:image/png;base64,{PNG_B64}"}),  # a command's JSON text
    json.dumps({"base64": PNG_B64, "mime": "image/png"}),
    PNG,  # a Python target's bytes
])
def test_inline_media_outputs_are_reply_media_with_a_short_output(reply):
    outcome = parse_reply(reply)
    assert outcome.output in (f"data:image/png;base64,… ({len(PNG)} bytes)", f"{{base64: … ({len(PNG)} bytes)}}",
                              f"{{base64: … ({len(PNG)} bytes), mime: image/png}}", f"<bytes> ({len(PNG)} bytes)",
                              f"data:application/octet-stream;base64,… ({len(PNG)} bytes)")
    (image,) = media_of(CASE, outcome, "image", "reply")
    assert image.data == PNG and output_media(outcome, CASE) is image
    assert media_of(CASE, outcome, "audio", "reply") == []
    (record,) = media_records(CASE, outcome)
    assert (record["field"], record["sha256"], record["mime"]) == ("output", hashlib.sha256(PNG).hexdigest(),
                                                                   "image/png")


def test_the_kind_comes_from_the_content():
    outcome = parse_reply(f"data:image/png;base64,{WAV_B64}")  # a mislabelled recording is audio
    assert media_of(CASE, outcome, "image", "reply") == [] and output_media(outcome).mime == "audio/wav"
    assert len(media_of(CASE, outcome, "audio", "reply")) == 1


@pytest.mark.parametrize("text", [
    "data:text/plain,hello", "data:text/plain;base64,aGVsbG8=", "data:application/json,{}",
    "data:;base64,aGVsbG8=",  # no type, and not a medium: text
    "data:image/svg+xml;utf8,<svg/>",  # SVG is not read as a medium
    "photo.png", "https://example.com/cat.png", "A picture of a cat", "",
])
def test_other_text_stays_text(text):
    outcome = parse_reply(text)
    assert outcome.output == text and outcome.media is None and output_media(outcome) is None


@pytest.mark.parametrize("reply, message", [
    ("data:image/png;base64,aGVsbG8=", "output: data:image/png;base64,… (5 bytes): content is not a recognised"),
    ("data:audio/wav;base64,%%%", "output: data:audio/wav;base64,… (2 bytes): invalid base64"),
    ({"base64": "aGVsbG8="}, "output: {base64: … (5 bytes)}: content is not a recognised"),
    ({"output": "x", "trusys": {"output_media": "data:text/plain,hi"}}, "trusys.output_media: data:text/plain,… "),
    ({"output": "x", "trusys": {"output_media": 5}}, "trusys.output_media: is not a media reference"),
])
def test_a_medium_that_is_declared_but_unusable_is_an_error(reply, message):
    with pytest.raises(MediaError) as info:
        parse_reply(reply)
    assert str(info.value).startswith(message)


def test_output_media_by_reference_is_read_when_asked(tmp_path):
    (tmp_path / "drawn.png").write_bytes(PNG)
    case = DatasetCase(id="c", media_dir=str(tmp_path))
    outcome = parse_reply({"output": "done", "trusys": {"output_media": "drawn.png"}})
    assert outcome.output == "done" and outcome.media[0].kind is None  # not read yet
    assert media_of(case, outcome, "audio", "reply") == []
    assert output_media(outcome, case).data == PNG and len(media_of(case, outcome, "image", "reply")) == 1
    bare = parse_reply({"trusys": {"output_media": "drawn.png"}})
    assert bare.output == "drawn.png"  # no output text given: the reference stands for it
    missing = parse_reply({"output": "x", "output_media": "gone.png"})  # a Python target's top-level form
    with pytest.raises(MediaError, match=r"^trusys.output_media \(case 'c'\): gone.png: file not found"):
        output_media(missing, case)


def test_a_generated_megabyte_is_not_stored_per_case(tmp_path):
    def draw(case):
        return BIG_URI

    db = tmp_path / "r.db"
    result = evaluate(cases=[{"id": "g", "prompt": "draw a cat"}], target=draw,
                      metrics=[MediaProbe("image", "reply")], db=db)
    result.store.flush()
    (case,) = result.cases
    assert case["status"] == "passed" and case["metrics"][0]["value"] == 1.0
    assert case["output"] == f"data:image/png;base64,… ({len(BIG):,} bytes)"
    (record,) = case["envelope"]["media"]
    assert (record["field"], record["size"], record["sha256"]) == ("output", len(BIG), hashlib.sha256(BIG).hexdigest())
    stored = b"".join(Path(p).read_bytes() for p in (db, f"{db}-wal") if os.path.exists(p))
    assert len(stored) < 200_000 and BIG_URI[5000:5100].encode() not in stored


def test_an_output_over_the_size_limit_errors_the_case():
    result = evaluate({"name": "s", "options": {"media_max_bytes": 1000}, "target": {"type": "echo"},
                       "cases": [{"id": "big", "prompt": "p", "output": BIG_URI, "metrics": ["latency"]},
                                 {"id": "ok", "prompt": "p", "output": "fine", "metrics": ["latency"]}]})
    cases = {c["id"]: c for c in result.cases}
    assert cases["big"]["status"] == "errored"
    assert cases["big"]["error"].startswith("output: data:image/png;base64,… (")
    assert "over the 1,000-byte limit" in cases["big"]["error"] and cases["ok"]["status"] != "errored"


def test_a_target_that_declares_its_output_a_medium():
    from agentunit.targets.base import wrap_media_output

    uri = f"data:image/png;base64,{PNG_B64}"
    outcome = parse_reply(wrap_media_output(uri))
    assert outcome.output == f"data:image/png;base64,… ({len(PNG)} bytes)"
    assert [(r.field, r.kind) for r in outcome.media] == [("trusys.output_media", "image")]  # decoded once
    with pytest.raises(MediaError, match=r"^trusys.output_media: data:text/plain,… \(2 bytes\): content is not"):
        parse_reply(wrap_media_output("data:text/plain,hi"))  # declared a medium: text is an error
    wrapped = wrap_media_output(json.dumps({"output": "cat.png", "trusys": {"plan": ["draw"]}}), "/work")
    assert wrapped["trusys"] == {"plan": ["draw"], "output_media": "/work/cat.png"}
    assert wrap_media_output({"output": "x", "trusys": {"output_media": "y.png"}}) == \
        {"output": "x", "trusys": {"output_media": "y.png"}}  # the reply's own choice stands
