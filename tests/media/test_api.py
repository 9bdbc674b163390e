"""check(output, spec, image=…): media keywords reach the metrics; bad local media fail at once."""

import base64

import pytest

from agentunit import check
from agentunit.media import MediaError

from .makers import png, wav
from .probe import MediaProbe

PNG = png()


def test_image_keyword_reaches_metrics_relative_to_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.png").write_bytes(PNG)
    result = check("a red square", MediaProbe(), image="a.png")
    assert result.value == 1.0
    assert result.detail["media"][0][1:] == ["image/png", "a.png"]
    many = check("x", MediaProbe(), images=["a.png", PNG, "data:image/png;base64," + base64.b64encode(PNG).decode()])
    assert many.value == 3.0
    assert check("x", MediaProbe("audio"), audio=wav()).value == 1.0
    assert check("x", MediaProbe("image"), images="a.png").value == 1.0  # one reference is a list of one


def test_reply_media_in_the_output_envelope():
    output = {"output": "here it is", "trusys": {"image": "data:image/png;base64," + base64.b64encode(PNG).decode()}}
    assert check(output, MediaProbe("image", "reply")).value == 1.0


def test_bad_local_media_raise_a_media_error_naming_the_field(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "v.wav").write_bytes(wav())
    with pytest.raises(MediaError) as info:
        check("x", "contains", image="nope.png")
    assert str(info.value).startswith("image: nope.png: file not found")
    with pytest.raises(MediaError, match=r"^images\[1\]: v\.wav: holds WAV audio"):
        check("x", "contains", images=[PNG, "v.wav"])
    with pytest.raises(MediaError, match=r"^video: .*invalid base64"):
        check("x", "contains", video={"base64": "!!"})


def test_a_url_is_only_fetched_when_a_metric_reads_it(media_server):
    url = f"{media_server.url}/none.png"
    assert check("x", {"metric": "contains", "value": "x"}, image=url).passed
    assert media_server.hits[url.removeprefix(media_server.url)] == 0
    result = check("x", MediaProbe(), image=url)
    assert result.error.startswith("MediaError: image (case 'check'): ") and "HTTP 404" in result.error


def test_unknown_keywords_still_fail():
    with pytest.raises(TypeError, match="unknown field"):
        check("x", "contains", picture="a.png")
