"""Media fields in suites: known fields, checked at load time with file:line, URLs errored per case at run time."""

import base64
import hashlib
import json
import textwrap

import pytest

from agentunit import evaluate
from agentunit.errors import SuiteError
from agentunit.suite import load_suite

from .makers import png, wav
from .probe import MediaProbe

PNG, WAV = png(), wav()


def _suite(tmp_path, text, name="s.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip())
    return path


def _problems(path):
    with pytest.raises(SuiteError) as info:
        load_suite(path).validate()
    return [str(p) for p in info.value.problems]


@pytest.fixture
def suite_dir(tmp_path):
    (tmp_path / "img").mkdir()
    (tmp_path / "img" / "red.png").write_bytes(PNG)
    (tmp_path / "voice.wav").write_bytes(WAV)
    return tmp_path


def test_media_fields_load_relative_to_the_suite_folder(suite_dir, monkeypatch, tmp_path_factory):
    monkeypatch.chdir(tmp_path_factory.mktemp("elsewhere"))  # paths are not relative to the working directory
    inline = base64.b64encode(png(2, 2)).decode()
    path = _suite(suite_dir, f"""
        target: echo
        cases:
          - id: a
            prompt: what colour?
            image: img/red.png
            images: [img/red.png, "data:image/png;base64,{inline}"]
            audio: voice.wav
          - id: b
            prompt: hi
            metadata: {{image_path: img/red.png}}
        """)
    suite = load_suite(path)
    suite.validate()
    first, second = list(suite.iter_cases())
    assert (first.image, first.audio, first.media_dir) == ("img/red.png", "voice.wav", str(suite_dir))
    assert second.metadata == {"image_path": "img/red.png"} and second.image is None
    assert first.images[0] == "img/red.png" and len(first.images) == 2
    result = evaluate(suite, metrics=[MediaProbe()])
    values = [c["metrics"][-1]["value"] for c in result.cases]
    assert values == [3.0, 1.0]
    digest = hashlib.sha256(PNG).hexdigest()
    assert result.cases[0]["metrics"][-1]["detail"]["media"][0] == [digest, "image/png", "img/red.png"]


def test_missing_and_wrong_type_media_are_suite_problems_with_file_and_line(suite_dir):
    path = _suite(suite_dir, """
        target: echo
        cases:
          - prompt: one
            image: img/blue.png
          - prompt: two
            image: voice.wav
          - prompt: three
            images:
              - img/red.png
              - voice.wav
            audio: img/red.png
          - prompt: four
            video: "data:video/mp4;base64,@@"
            metadata: {audio_path: nothing.wav}
        """)
    problems = _problems(path)
    text = "\n".join(problems)
    assert f"{path}:4: cases[0].image: img/blue.png: file not found (looked for {suite_dir / 'img' / 'blue.png'})" \
        in text
    assert f"{path}:6: cases[1].image: voice.wav: holds WAV audio (audio/wav), not an image — give an image" in text
    assert f"{path}:10: cases[2].images[1]: voice.wav: holds WAV audio" in text
    assert f"{path}:11: cases[2].audio: img/red.png: holds PNG image (image/png), not audio" in text
    assert f"{path}:13: cases[3].video: data:video/mp4;base64,… (1 bytes): invalid base64" in text
    assert f"{path}:14: cases[3].metadata.audio_path: nothing.wav: file not found" in text
    assert len(problems) == 6


def test_shapes_defaults_and_suggestions(suite_dir):
    path = _suite(suite_dir, """
        target: echo
        defaults:
          image: img/gone.png
        cases:
          - prompt: one
            image: 42
          - prompt: two
            images: [img/red.png, {path: x}]
          - prompt: three
            imgae: img/red.png
        """)
    text = "\n".join(_problems(path))
    assert f"{path}:3: defaults.image: img/gone.png: file not found" in text
    assert "a relative path is relative to" in text
    assert f"{path}:6: cases[0].image: image must be a media reference (a path, URL, data: URI or " \
           "{base64, mime}), got int" in text
    assert f"{path}:8: cases[1].images: images item 1 must be a path, URL, data: URI or {{base64, mime}}" in text
    assert f"{path}:10: cases[2].imgae: unknown case field 'imgae' — did you mean 'image'?" in text


def test_media_limit_option_applies_at_load(suite_dir):
    path = _suite(suite_dir, f"""
        target: echo
        options: {{media_max_bytes: {len(PNG) - 1}}}
        cases:
          - prompt: one
            image: img/red.png
        """)
    (problem,) = _problems(path)
    assert f"cases[0].image: img/red.png: is {len(PNG)} bytes, over the {len(PNG) - 1}-byte limit" in problem
    bad = _suite(suite_dir, """
        target: echo
        options: {media_max_bytes: 0, media_timeout: -1}
        cases: [{prompt: one}]
        """, "bad.yaml")
    text = "\n".join(_problems(bad))
    assert "options.media_max_bytes: media_max_bytes must be an integer ≥ 1, got 0" in text
    assert "options.media_timeout: media_timeout must be a finite number > 0" in text


def test_cases_file_media_are_relative_to_the_suite_and_located_by_line(suite_dir):
    (suite_dir / "data").mkdir()
    (suite_dir / "data" / "cases.jsonl").write_text(
        json.dumps({"prompt": "a", "image": "img/red.png"}) + "\n"
        + json.dumps({"prompt": "b", "image": "x.png"}) + "\n")
    (suite_dir / "data" / "cases.csv").write_text(
        'prompt,image,images\nc,img/red.png,"[""img/red.png"", ""img/red.png""]"\nd,,img/red.png\n')
    path = _suite(suite_dir, """
        target: echo
        cases_file: [data/cases.jsonl]
        """)
    (problem,) = _problems(path)
    assert problem.startswith(f"{suite_dir / 'data' / 'cases.jsonl'}:2: image: x.png: file not found")
    csv_suite = _suite(suite_dir, "target: echo\ncases_file: data/cases.csv\n", "csv.yaml")
    result = evaluate(csv_suite, metrics=[MediaProbe()])
    assert [c["metrics"][-1]["value"] for c in result.cases] == [3.0, 1.0]


def test_a_url_is_checked_at_run_time_and_errors_only_its_case(suite_dir, media_server):
    media_server.files["/red.png"] = PNG
    path = _suite(suite_dir, f"""
        target: echo
        cases:
          - id: good
            prompt: one
            image: {media_server.url}/red.png
          - id: dead
            prompt: two
            image: {media_server.url}/missing.png
          - id: local
            prompt: three
            image: img/red.png
        """)
    load_suite(path).validate()  # nothing is downloaded while loading
    assert sum(media_server.hits.values()) == 0
    result = evaluate(path, metrics=[MediaProbe()])
    by_id = {c["id"]: c for c in result.cases}
    assert [by_id[i]["status"] for i in ("good", "dead", "local")] == ["passed", "errored", "passed"]
    assert by_id["dead"]["error"].startswith(
        f"media-probe: MediaError: image (case 'dead'): {media_server.url}/missing.png: download failed: HTTP 404")
    assert result.summary["errored"] == 1


def test_the_run_uses_the_suite_media_limits(suite_dir, media_server):
    media_server.files["/big.png"] = png(60, 60, noise=True)
    path = _suite(suite_dir, f"""
        target: echo
        options: {{media_max_bytes: 5000}}
        cases:
          - prompt: one
            image: {media_server.url}/big.png
        """)
    (case,) = evaluate(path, metrics=[MediaProbe()]).cases
    assert case["status"] == "errored" and "over the 5,000-byte limit" in case["error"]
