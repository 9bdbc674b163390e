"""Case media fields, AgentUnit's metadata paths, reply media in the envelope, and media_of's per-case cache."""

import base64
import hashlib

import pytest

from agentunit.core.envelope import EnvelopeError, build_trace, parse_reply
from agentunit.core.outcome import Outcome
from agentunit.datasets.base import DatasetCase
from agentunit.media import MediaError, case_refs, media_of, media_records, media_refs

from .makers import png, wav

PNG, WAV = png(), wav()
PNG_URI = "data:image/png;base64," + base64.b64encode(PNG).decode()


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "a.png").write_bytes(PNG)
    (tmp_path / "b.png").write_bytes(png(2, 2))
    (tmp_path / "v.wav").write_bytes(WAV)
    return tmp_path


def test_case_fields_in_order_with_their_kinds(folder):
    case = DatasetCase(id="c", image="a.png", images=["b.png", PNG_URI], audio="v.wav", media_dir=str(folder))
    assert [(r.field, r.kind, r.role) for r in case_refs(case)] == [
        ("image", "image", "input"), ("images[0]", "image", "input"), ("images[1]", "image", "input"),
        ("audio", "audio", "input")]
    assert [m.sha256 for m in media_of(case, Outcome(), "image")] == [
        hashlib.sha256(PNG).hexdigest(), hashlib.sha256(png(2, 2)).hexdigest(), hashlib.sha256(PNG).hexdigest()]
    assert [m.mime for m in media_of(case, Outcome(), "audio")] == ["audio/wav"]
    assert media_of(case, Outcome(), "video") == []


def test_agentunit_metadata_paths(folder):
    case = DatasetCase(id="c", metadata={"image_path": "a.png", "audio_path": "v.wav"}, media_dir=str(folder))
    assert [r.field for r in case_refs(case)] == ["metadata.image_path", "metadata.audio_path"]
    assert media_of(case, None, "image")[0].data == PNG
    both = DatasetCase(id="c", image="b.png", metadata={"image_path": "a.png"}, media_dir=str(folder))
    assert [r.field for r in case_refs(both)] == ["image"]  # the case field wins over the metadata path


def test_media_of_reads_each_medium_once_per_case(folder):
    case = DatasetCase(id="c", image="a.png", media_dir=str(folder))
    outcome = Outcome()
    first = media_of(case, outcome, "image")
    (folder / "a.png").unlink()
    assert media_of(case, outcome, "image") == first  # from the case's cache: the file is not read again
    with pytest.raises(MediaError) as info:
        media_of(case, Outcome(), "image")  # another case (attempt) reads it anew
    assert str(info.value).startswith("image (case 'c'): a.png: file not found")


def test_media_of_refuses_a_field_of_the_wrong_kind(folder):
    case = DatasetCase(id="q7", image="v.wav", media_dir=str(folder))
    with pytest.raises(MediaError, match=r"^image \(case 'q7'\): v\.wav: holds WAV audio"):
        media_of(case, Outcome(), "image")
    with pytest.raises(ValueError, match="kind must be one of"):
        media_of(case, Outcome(), "images")
    with pytest.raises(ValueError, match="where must be one of"):
        media_refs(case, Outcome(), "output")


def test_reply_media_from_the_envelope_are_parsed_lazily(folder):
    outcome = parse_reply({"output": "a red square", "trusys": {
        "image": "a.png", "images": ["b.png", "missing.png"], "audio": {"base64": base64.b64encode(WAV).decode()},
        "context": ["a passage", {"image": PNG_URI}, {"image": "b.png", "text": "a caption"}], "other": 1}})
    assert outcome.output == "a red square"
    assert outcome.context == ["a passage", "a caption"]  # image items leave the text context
    assert outcome.metadata == {"other": 1}
    assert [(r.field, r.kind, r.role) for r in outcome.media] == [
        ("trusys.image", "image", "reply"), ("trusys.images[0]", "image", "reply"),
        ("trusys.images[1]", "image", "reply"), ("trusys.audio", "audio", "reply"),
        ("trusys.context[1].image", "image", "context"), ("trusys.context[2].image", "image", "context")]
    assert outcome.media_cache == {}  # nothing read yet: missing.png is no error until a metric asks
    case = DatasetCase(id="c", media_dir=str(folder))
    assert [m.data for m in media_of(case, outcome, "image", "context")] == [PNG, png(2, 2)]
    assert media_of(case, outcome, "audio", "reply")[0].data == WAV
    with pytest.raises(MediaError, match=r"^trusys\.images\[1\] \(case 'c'\): missing\.png: file not found"):
        media_of(case, outcome, "image", "reply")
    trace = build_trace(outcome, "q")
    assert trace.metadata["media"] == outcome.media


def test_python_target_top_level_media_and_text_reply():
    outcome = parse_reply({"output": "done", "image": PNG_URI})
    assert [r.field for r in outcome.media] == ["trusys.image"]
    assert parse_reply("plain text").media is None


@pytest.mark.parametrize(("trusys", "message"), [
    ({"image": 3}, "'trusys.image' must be a media reference"),
    ({"image": ["a.png"]}, "'trusys.image' must be one media reference (use 'images' for a list)"),
    ({"images": ["a.png", ""]}, "'trusys.images' item 1 must not be blank"),
    ({"audio": {"data": "x"}}, "'trusys.audio' must be a path, URL, data: URI or {base64, mime}"),
    ({"context": [{"image": None}]}, "'trusys.context[0].image' must be a media reference"),
])
def test_malformed_reply_media_error_the_envelope(trusys, message):
    with pytest.raises(EnvelopeError) as info:
        parse_reply({"output": "x", "trusys": trusys})
    assert str(info.value).startswith(message)


def test_records_hold_references_and_hashes_never_bytes(folder):
    case = DatasetCase(id="c", image="a.png", audio="missing.wav", media_dir=str(folder))
    outcome = parse_reply({"output": "x", "trusys": {"image": PNG_URI}})
    media_of(case, outcome, "image")
    records = media_records(case, outcome)
    digest = hashlib.sha256(PNG).hexdigest()
    thumbnails = [r.pop("thumbnail", None) for r in records]  # images get one (Pillow), see test_thumbnail.py
    assert thumbnails[0] is not None and thumbnails[0] == thumbnails[2] and thumbnails[1] is None
    assert records == [
        {"field": "image", "source": "a.png", "sha256": digest, "mime": "image/png", "size": len(PNG)},
        {"field": "audio", "source": "missing.wav", "error": records[1]["error"]},
        {"field": "trusys.image", "source": f"data:image/png;base64,… ({len(PNG)} bytes)", "sha256": digest,
         "mime": "image/png", "size": len(PNG)}]
    assert records[1]["error"].startswith("file not found")
    assert media_records(DatasetCase(id="plain"), Outcome()) == []
