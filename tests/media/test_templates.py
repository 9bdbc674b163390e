"""A case's media in request templates: the variables, the filters, the markers in the request (named by
content hash for the cache key) and their values put in at send time (agentunit.media.templates)."""

import base64
import hashlib
import os
from pathlib import Path

import pytest

from agentunit.core.templating import TemplateError, check_template, render, render_value
from agentunit.datasets.base import DatasetCase
from agentunit.media import MediaError
from agentunit.media.templates import MediaFiller, is_marker, media_variables, used_media

from .makers import png, wav

PNG, WAV = png(), wav()
PNG_B64 = base64.b64encode(PNG).decode()


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "a.png").write_bytes(PNG)
    (tmp_path / "b.png").write_bytes(png(2, 2))
    (tmp_path / "v.wav").write_bytes(WAV)
    return tmp_path


def _case(folder, **media):
    return DatasetCase(id="c", query="p", media_dir=str(folder), **media)


def test_variables_are_placeholders_defined_only_for_the_media_a_case_has(folder):
    assert media_variables(DatasetCase(id="plain")) == {}
    variables = media_variables(_case(folder, images=["a.png", "b.png"], audio="v.wav"))
    assert set(variables) == {"image", "images", "audio"}
    assert variables["image"] == variables["images"][0] and len(variables["images"]) == 2
    assert all(is_marker(v) for v in [variables["audio"], *variables["images"]])
    # the `image` field comes first among the images; metadata paths count when no field gives the kind
    both = media_variables(_case(folder, image="b.png", images=["a.png"], metadata={"audio_path": "v.wav"}))
    assert both["images"] == ["__agentunit_media_0_data_uri__", "__agentunit_media_1_data_uri__"]
    assert both["image"] == both["images"][0] and both["audio"] == "__agentunit_media_2_data_uri__"


def test_filters_give_markers_that_compile_and_refuse_plain_values(folder):
    for form in ("data_uri", "base64", "path", "mime"):
        check_template(f"{{{{ image | {form} }}}}")  # known to the sandbox at load time
    variables = {"prompt": "p", **media_variables(_case(folder, image="a.png", images=["b.png"]))}
    assert is_marker(render("{{ image | base64 }}", variables))
    assert render("{{ images | length }}", variables) == "2"
    looped = render("{% for i in images %}[{{ i | mime }}]{% endfor %}", variables)
    assert looped.count("[__agentunit_media_") == 2
    with pytest.raises(TemplateError, match="the base64 filter applies to a case medium"):
        render("{{ prompt | base64 }}", variables)


def test_a_whole_string_keeps_lists_json(folder):
    variables = media_variables(_case(folder, images=["a.png", "b.png"]))
    for text in ("{{ images }}", "{{ images | base64 }}", "{{images|data_uri}}"):
        value = render_value({"x": text}, variables)["x"]
        assert isinstance(value, list) and len(value) == 2 and all(is_marker(v) for v in value)
    assert render_value("{{ images | length }}", variables) == "2"  # other expressions render as text


def test_fill_puts_each_form_in_reading_each_medium_once(folder):
    case = _case(folder, image={"base64": PNG_B64, "mime": "image/png"}, audio="v.wav")
    variables = media_variables(case)
    body = render_value({"uri": "{{ image | data_uri }}", "raw": "{{ image }}", "b64": "{{ image | base64 }}",
                         "mime": "{{ image | mime }} and {{ audio | mime }}", "file": "{{ image | path }}",
                         "wav": "{{ audio | path }}"}, variables)
    with MediaFiller(case) as media:
        filled = media.fill(body)
        assert filled["uri"] == filled["raw"] == f"data:image/png;base64,{PNG_B64}"
        assert filled["b64"] == PNG_B64 and filled["mime"] == "image/png and audio/wav"
        assert filled["wav"] == str(folder / "v.wav")  # a local file is passed as itself
        temp = filled["file"]
        assert temp.endswith(".png") and Path(temp).read_bytes() == PNG  # inline data: a temporary file
        assert oct(os.stat(temp).st_mode & 0o777) == "0o600"
    assert not os.path.exists(temp)  # removed when the call is over


def test_used_media_name_content_not_paths_and_read_nothing_unused(folder):
    case = _case(folder, image="a.png", audio="missing.wav")
    body = render_value({"i": "{{ image | base64 }}"}, {**media_variables(case)})
    first = used_media(body, case)
    assert first == [{"field": "image", "id": "sha256:" + hashlib.sha256(PNG).hexdigest()}]
    (folder / "a.png").write_bytes(png(5, 5))  # same path, new content: a new identity
    os.utime(folder / "a.png", ns=(1, 1))
    assert used_media(body, case) != first
    # nothing refers to a medium: nothing is read (the missing audio raises nothing)
    assert used_media(render_value({"p": "{{ prompt }}"}, {"prompt": "x", **media_variables(case)}), case) == []


def test_errors_name_the_field_and_the_case(folder):
    missing = _case(folder, image="gone.png")
    body = render_value("{{ image | base64 }}", media_variables(missing))
    with pytest.raises(MediaError, match=r"^image \(case 'c'\): gone.png: file not found"):
        used_media(body, missing)
    with pytest.raises(MediaError, match=r"^image \(case 'c'\): gone.png: file not found"):
        MediaFiller(missing).fill(body)
    wrong = _case(folder, image="v.wav")
    for form in ("base64", "path", "mime"):
        with pytest.raises(MediaError, match=r"^image \(case 'c'\): v.wav: holds WAV audio \(audio/wav\), not an "):
            MediaFiller(wrong).fill(render_value(f"{{{{ image | {form} }}}}", media_variables(wrong)))


def test_marker_text_of_no_medium_stays_as_written(folder):
    case = _case(folder, image="a.png")
    text = "see __agentunit_media_7_base64__"
    assert MediaFiller(case).fill(text) == text
