"""The type comes from the content: every signature the sniffer knows, and content it must refuse."""

import pytest

from agentunit.media import sniff
from agentunit.media.sniff import HEAD_BYTES, describe_start

from .makers import SAMPLES, png


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_each_format_is_recognised_by_its_content(name):
    data, kind, mime = SAMPLES[name]
    found = sniff(data)
    assert found is not None, name
    assert (found.kind, found.mime) == (kind, mime)


@pytest.mark.parametrize("data", [
    b"", b"hello world, this is text", b"BM but no bitmap header here!!", b"RIFF\x10\x00\x00\x00XXXX",
    b"\xff\xff\xff\xff" + b"\x00" * 8,  # frame sync with a bad bitrate and sample rate
    b"\xff\xe8\x90\x64" + b"\x00" * 8,  # MPEG version bits 01 are reserved
    b"<svg xmlns='http://www.w3.org/2000/svg'></svg>",
])
def test_unknown_content_is_none(data):
    assert sniff(data) is None


def test_a_name_or_declared_type_never_decides():
    # A PNG's bytes are a PNG whatever follows; a WAV's bytes are audio.
    assert sniff(png() + b"trailing junk").mime == "image/png"
    assert sniff(SAMPLES["wav"][0]).kind == "audio"


def test_mp4_with_a_generic_brand_and_no_track_list_is_an_uncertain_video():
    data = SAMPLES["mp4_video"][0][:32]  # the ftyp box only
    found = sniff(data)
    assert (found.kind, found.certain) == ("video", False)
    assert sniff(SAMPLES["mp4_video"][0]).certain


def test_webm_track_list_beyond_the_head_is_uncertain():
    data = SAMPLES["webm_audio"][0][:20] + b"\x00" * HEAD_BYTES
    assert sniff(data).certain is False


def test_describe_start():
    assert describe_start(b"") == "is empty"
    assert describe_start(b"hello world, more") == "starts with b'hello world,'"
