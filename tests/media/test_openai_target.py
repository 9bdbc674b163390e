"""The openai target sends a case's images as image_url parts and its audio as input_audio parts, checked
against a real OpenAI-compatible HTTP server started by the test."""

import base64
import json
import os

import pytest

from agentunit import evaluate
from agentunit.datasets.base import DatasetCase
from agentunit.targets import make_target
from tests.http_helpers import Reply

from .makers import SAMPLES, png, wav

PNG, WAV = png(), wav()
MP3, FLAC, MP4 = SAMPLES["mp3_sync"][0], SAMPLES["flac"][0], SAMPLES["mp4_video"][0]


def _describe(body):
    """What a vision server received, after checking each request's shape (OpenAI chat completions with
    content parts): the part types, and for each medium its decoded size."""
    content = body["messages"][-1]["content"]
    if isinstance(content, str):
        return f"text only: {content}"
    seen = []
    for part in content:
        if part["type"] == "text":
            seen.append(f"text={part['text']}")
        elif part["type"] == "image_url":
            header, data = part["image_url"]["url"].split(",", 1)
            assert header.startswith("data:image/") and header.endswith(";base64")
            seen.append(f"{header[5:-7]}={len(base64.b64decode(data))}")
        elif part["type"] == "video_url":
            header, data = part["video_url"]["url"].split(",", 1)
            seen.append(f"{header[5:-7]}={len(base64.b64decode(data))}")
        elif part["type"] == "input_audio":
            audio = part["input_audio"]
            assert set(audio) == {"data", "format"}
            seen.append(f"{audio['format']}={len(base64.b64decode(audio['data']))}")
        else:
            seen.append(f"unexpected {part['type']}")
    return " ".join(seen)


def _answer_with_what_was_received(request):
    return Reply(200, {"choices": [{"message": {"role": "assistant", "content": _describe(request.json)},
                                    "finish_reason": "stop"}]})


@pytest.fixture
def server(local_server):
    """An OpenAI-compatible server answering with what it received (``_describe``); ``bodies`` are the requests."""
    return local_server(_answer_with_what_was_received, path="/v1")


@pytest.fixture
def folder(tmp_path):
    for name, data in (("a.png", PNG), ("v.wav", WAV), ("v.mp3", MP3), ("v.flac", FLAC), ("c.mp4", MP4)):
        (tmp_path / name).write_bytes(data)
    return tmp_path


def _run(server, cases, folder, **target):
    spec = {"type": "openai", "base_url": server.url, "model": "vision", "cache": False, **target}
    old = os.getcwd()
    os.chdir(folder)
    try:
        return {c["id"]: c for c in evaluate(cases=cases, target=spec, metrics=["latency"]).cases}
    finally:
        os.chdir(old)


def test_images_and_audio_go_as_content_parts_with_the_prompt(server, folder):
    cases = _run(server, [
        {"id": "img", "prompt": "what is it?", "image": "a.png", "images": [png(2, 2)]},
        {"id": "wav", "prompt": "transcribe", "audio": "v.wav"},
        {"id": "mp3", "prompt": "transcribe", "audio": "v.mp3"},
        {"id": "text", "prompt": "just text"},
        {"id": "video", "prompt": "what happens?", "video": "c.mp4"},
    ], folder)
    assert cases["video"]["output"] == f"text=what happens? video/mp4={len(MP4)}"
    assert cases["img"]["output"] == f"text=what is it? image/png={len(PNG)} image/png={len(png(2, 2))}"
    assert cases["wav"]["output"] == f"text=transcribe wav={len(WAV)}"
    assert cases["mp3"]["output"] == f"text=transcribe mp3={len(MP3)}"
    assert cases["text"]["output"] == "text only: just text"
    (img_body,) = [b for b in server.bodies if "what is it?" in json.dumps(b)]
    assert img_body["messages"][-1]["role"] == "user"
    assert "agentunit-media" not in json.dumps(server.bodies)


def test_system_message_and_image_url_shape(server, folder):
    _run(server, [{"id": "img", "prompt": "p", "image": "a.png"}], folder, system="You see images.")
    (body,) = server.bodies
    assert body["messages"][0] == {"role": "system", "content": "You see images."}
    assert body["messages"][1]["content"] == [
        {"type": "text", "text": "p"},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64," + base64.b64encode(PNG).decode()}}]


def test_audio_the_api_cannot_take_errors_the_case_without_a_call(server, folder):
    cases = _run(server, [{"id": "flac", "prompt": "transcribe", "audio": "v.flac"},
                          {"id": "ok", "prompt": "fine"}], folder)
    assert cases["flac"]["status"] == "errored"
    assert cases["flac"]["error"].startswith(
        "audio (case 'flac'): v.flac: holds audio/flac audio; the openai target sends WAV or MP3")
    assert (cases["ok"]["status"], cases["ok"]["output"]) == ("unmeasured", "text only: fine")
    assert len(server.bodies) == 1


def test_a_url_image_is_fetched_and_sent_inline(server, folder, media_server):
    media_server.files["/remote.png"] = PNG
    cases = _run(server, [{"id": "u", "prompt": "p", "image": f"{media_server.url}/remote.png"}], folder)
    assert cases["u"]["output"] == f"text=p image/png={len(PNG)}"
    dead = _run(server, [{"id": "d", "prompt": "p", "image": f"{media_server.url}/gone.png"}], folder)
    assert dead["d"]["status"] == "errored" and "HTTP 404" in dead["d"]["error"]


def test_the_request_names_media_by_content_for_the_cache_key(folder):
    target = make_target({"type": "openai", "base_url": "http://127.0.0.1:9/v1", "model": "m"})
    case = DatasetCase(id="c", query="q", image="a.png", media_dir=str(folder))
    request = target.request(case)
    assert len(json.dumps(request)) < 1000  # no base64 in what is hashed
    assert request["media"][0]["field"] == "image"
    key = target.cache_key(request, 0)
    assert target.cache_key(target.request(case), 0) == key
    (folder / "a.png").write_bytes(png(9, 9))
    os.utime(folder / "a.png", ns=(5, 5))
    assert target.cache_key(target.request(case), 0) != key  # another image, another reply


def test_a_missing_file_errors_naming_the_field_and_the_case(tmp_path):
    from agentunit.datasets.base import DatasetCase
    from agentunit.media import MediaError
    from agentunit.targets.openai import OpenAITarget

    target = OpenAITarget({"type": "openai", "model": "m", "base_url": "http://127.0.0.1:1/v1"})
    case = DatasetCase(id="c1", query="What is this?", image="gone.png", media_dir=str(tmp_path))
    with pytest.raises(MediaError, match=r"image \(case 'c1'\): gone.png: file not found"):
        target.request(case)
