"""Every reference form, the stored source text, the limits, and each error with its message."""

import base64
import hashlib
import os
import re
from pathlib import Path

import pytest

from agentunit.media import (
    Media,
    MediaError,
    MediaLimits,
    cache_dir,
    check_reference,
    describe_reference,
    fetch,
    is_remote,
    load_media,
    shorten,
)
from agentunit.media.references import identity

from .makers import SAMPLES, png, wav

PNG = png()
PNG_B64 = base64.b64encode(PNG).decode()


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "img").mkdir()
    (tmp_path / "img" / "red.png").write_bytes(PNG)
    (tmp_path / "hello.wav").write_bytes(wav())
    return tmp_path


def _same(media, data, kind, mime):
    assert isinstance(media, Media)
    assert (media.kind, media.mime, media.data, media.size) == (kind, mime, data, len(data))
    assert media.sha256 == hashlib.sha256(data).hexdigest()


def test_relative_path_is_read_from_base_dir(folder):
    media = load_media("img/red.png", base_dir=folder, kind="image")
    _same(media, PNG, "image", "image/png")
    assert media.source == "img/red.png"


def test_relative_path_without_base_dir_is_read_from_the_working_directory(folder, monkeypatch):
    monkeypatch.chdir(folder)
    assert load_media("img/red.png").data == PNG


def test_absolute_path_and_pathlib_path(folder):
    path = folder / "img" / "red.png"
    assert load_media(str(path), base_dir="/nowhere").data == PNG
    assert load_media(path).source == str(path)


def test_file_uri(folder):
    uri = (folder / "img" / "red.png").as_uri()
    media = load_media(uri, kind="image")
    assert media.data == PNG and media.source == uri
    assert load_media(f"file://localhost{folder / 'img' / 'red.png'}").data == PNG


def test_file_uri_with_spaces_is_unquoted(tmp_path):
    (tmp_path / "my photo.png").write_bytes(PNG)
    assert load_media((tmp_path / "my photo.png").as_uri()).data == PNG


def test_data_uri_base64_is_decoded_and_its_source_shortened():
    media = load_media(f"data:image/png;base64,{PNG_B64}", kind="image")
    _same(media, PNG, "image", "image/png")
    assert media.source == f"data:image/png;base64,… ({len(PNG)} bytes)"
    assert PNG_B64 not in media.source


def test_data_uri_percent_encoded():
    media = load_media("data:application/octet-stream," + "".join(f"%{b:02X}" for b in PNG))
    assert media.data == PNG and media.mime == "image/png"  # the content decides, not the declared type


def test_base64_object_with_folded_lines_and_urlsafe_alphabet():
    folded = "\n".join(PNG_B64[i:i + 60] for i in range(0, len(PNG_B64), 60))
    media = load_media({"base64": folded, "mime": "image/png"}, kind="image")
    assert media.data == PNG
    assert media.source == f"{{base64: … ({len(PNG)} bytes), mime: image/png}}"
    urlsafe = base64.urlsafe_b64encode(PNG + b"\xfb\xff").decode().rstrip("=")  # '-', '_', no padding
    assert "-" in urlsafe or "_" in urlsafe
    assert load_media({"base64": urlsafe}).data == PNG + b"\xfb\xff"


def test_bytes_and_media_objects():
    media = load_media(PNG)
    assert media.source == f"<bytes> ({len(PNG)} bytes)"
    assert load_media(media, kind="image") is media
    with pytest.raises(MediaError, match="holds PNG image"):
        load_media(media, kind="audio")


def test_url_is_fetched_once_then_served_from_the_caches(media_server, media_home):
    media_server.files["/red.png"] = PNG
    url = f"{media_server.url}/red.png"
    assert is_remote(url) and not is_remote("img/red.png")
    media = load_media(url, kind="image")
    _same(media, PNG, "image", "image/png")
    assert media.source == url
    load_media(url)
    assert media_server.hits["/red.png"] == 1  # in-process cache by URL
    digest = hashlib.sha256(PNG).hexdigest()
    assert (Path(cache_dir()) / digest[:2] / digest).read_bytes() == PNG  # on disk by content hash
    assert Path(cache_dir()).is_relative_to(media_home)
    fetch.forget()  # a new process: the disk cache answers
    assert load_media(url).data == PNG
    assert media_server.hits["/red.png"] == 1


def test_url_failures(media_server):
    with pytest.raises(MediaError) as info:
        load_media(f"{media_server.url}/missing", field="cases[0].image")
    text = str(info.value)
    assert text.startswith(f"cases[0].image: {media_server.url}/missing: download failed: HTTP 404")
    assert "reachable" in text
    with pytest.raises(MediaError, match="download failed"):
        load_media("http://127.0.0.1:1/nothing-listens-here")


def test_a_failed_url_is_not_fetched_again_for_every_case(media_server):
    for _ in range(3):
        with pytest.raises(MediaError):
            load_media(f"{media_server.url}/missing")
    assert media_server.hits["/missing"] == 1


def test_url_timeout(media_server):
    media_server.files["/slow.png"] = PNG
    with pytest.raises(MediaError, match=r"timed out after 0.3 s.*media_timeout"):
        load_media(f"{media_server.url}/slow.png", limits=MediaLimits(timeout_s=0.3))


@pytest.mark.parametrize("path", ["/big.png", "/trickle.png"])  # with and without a Content-Length
def test_url_over_the_size_limit(media_server, path):
    media_server.files[path] = png(200, 200, noise=True)
    with pytest.raises(MediaError, match=r"over the 10,000-byte limit"):
        load_media(f"{media_server.url}{path}", limits=MediaLimits(max_bytes=10_000))


def test_missing_file_names_field_reference_and_fix(folder):
    with pytest.raises(MediaError) as info:
        load_media("img/blue.png", base_dir=folder, kind="image", field="cases[2].image")
    error = info.value
    assert (error.field, error.reference) == ("cases[2].image", "img/blue.png")
    assert str(error).startswith("cases[2].image: img/blue.png: file not found (looked for ")
    assert str(folder / "img" / "blue.png") in str(error)
    assert "relative to" in error.suggestion


def test_folder_is_not_a_file(folder):
    with pytest.raises(MediaError, match="is not a file"):
        load_media("img", base_dir=folder)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_unreadable_file(folder):
    path = folder / "img" / "red.png"
    path.chmod(0)
    try:
        with pytest.raises(MediaError, match="cannot read the file: Permission denied"):
            load_media(str(path))
    finally:
        path.chmod(0o644)


def test_oversized_file_and_inline_data(folder):
    limits = MediaLimits(max_bytes=len(PNG) - 1)
    with pytest.raises(MediaError, match=rf"is {len(PNG)} bytes, over the {len(PNG) - 1}-byte limit") as info:
        load_media("img/red.png", base_dir=folder, limits=limits)
    assert "media_max_bytes" in info.value.suggestion
    with pytest.raises(MediaError, match="over the"):
        load_media(f"data:image/png;base64,{PNG_B64}", limits=limits)
    big = base64.b64encode(b"\x00" * 100_000).decode()
    with pytest.raises(MediaError, match="over the 1,000-byte limit"):
        check_reference({"base64": big}, limits=MediaLimits(max_bytes=1000))


def test_wrong_kind_names_the_detected_type(folder):
    with pytest.raises(MediaError) as info:
        load_media("hello.wav", base_dir=folder, kind="image", field="cases[0].image")
    assert str(info.value).startswith("cases[0].image: hello.wav: holds WAV audio (audio/wav), not an image")
    assert "`audio` field" in info.value.suggestion


def test_unrecognised_content(tmp_path):
    """Inline content is quoted (the writer's own bytes); a file's never is (issue 50: a host file's first
    bytes reached the report)."""
    import base64

    inline = {"base64": base64.b64encode(b"just some text").decode(), "mime": "image/png"}
    with pytest.raises(MediaError, match=r"not a recognised image format \(it starts with b'just some te'\)"):
        load_media(inline, kind="image")
    (tmp_path / "notes.png").write_text("just some text")
    with pytest.raises(MediaError, match=r"not a recognised image format") as info:
        load_media("notes.png", base_dir=tmp_path, kind="image")
    assert "just" not in str(info.value)


@pytest.mark.parametrize(("ref", "message"), [
    ("data:image/png;base64,@@@not-base64@@@", "invalid base64"),
    ({"base64": "abc$", "mime": "image/png"}, "invalid base64"),
    ("data:image/png;base64", "malformed data: URI"),
    ("ftp://example.com/a.png", "unsupported scheme 'ftp'"),
    ("s3://bucket/a.png", "unsupported scheme 's3'"),
    ("file://otherhost/a.png", "names another host"),
    ("https://", "URL has no host"),
    ("   ", "is empty"),
    (42, "is not a media reference (got int)"),
    ({"path": "a.png"}, "an object must be {base64: ..., mime: ...}"),
    ({"base64": "AAAA", "mime": 3}, "mime must be text"),
])
def test_bad_references(ref, message):
    with pytest.raises(MediaError, match=re.escape(message)):
        load_media(ref, field="image")
    with pytest.raises(MediaError):
        check_reference(ref)


def test_check_reference_reads_local_media_and_leaves_urls(folder):
    check_reference("img/red.png", base_dir=folder, kind="image")
    check_reference("https://example.invalid/nothing.png", kind="image")  # checked when fetched
    with pytest.raises(MediaError, match="file not found"):
        check_reference("img/none.png", base_dir=folder)
    with pytest.raises(MediaError, match="holds PNG image"):
        check_reference("img/red.png", base_dir=folder, kind="video")


def test_uncertain_container_takes_the_kind_asked_for(tmp_path):
    data = SAMPLES["mp4_video"][0][:32]  # generic brand, no track list
    (tmp_path / "clip.m4a").write_bytes(data)
    assert load_media("clip.m4a", base_dir=tmp_path, kind="audio").mime == "audio/mp4"
    assert load_media("clip.m4a", base_dir=tmp_path, kind="video").mime == "video/mp4"
    check_reference("clip.m4a", base_dir=tmp_path, kind="audio")


def test_describe_reference_keeps_no_bytes_and_downloads_nothing(folder, media_server):
    record = describe_reference("img/red.png", base_dir=folder, kind="image")
    assert record == {"source": "img/red.png", "sha256": hashlib.sha256(PNG).hexdigest(), "mime": "image/png",
                      "size": len(PNG)}
    inline = describe_reference(f"data:image/png;base64,{PNG_B64}")
    assert PNG_B64 not in str(inline) and inline["sha256"] == record["sha256"]
    media_server.files["/a.png"] = PNG
    url = f"{media_server.url}/a.png"
    assert describe_reference(url) == {"source": url, "sha256": None, "mime": None, "size": None}
    assert media_server.hits["/a.png"] == 0
    load_media(url)
    assert describe_reference(url)["sha256"] == record["sha256"]
    assert describe_reference("img/none.png", base_dir=folder)["error"].startswith("file not found")
    assert describe_reference("hello.wav", base_dir=folder, kind="image")["error"].startswith("holds WAV audio")


def test_shorten_and_identity(folder):
    assert shorten(f"data:image/png;base64,{PNG_B64}") == f"data:image/png;base64,… ({len(PNG)} bytes)"
    assert shorten("img/red.png") == "img/red.png"
    assert identity("img/red.png", folder) == "sha256:" + hashlib.sha256(PNG).hexdigest()
    assert identity("https://x.test/a.png") == "https://x.test/a.png"
    assert identity(f"data:image/png;base64,{PNG_B64}") != identity(f"data:image/png;base64,{PNG_B64}A")


def test_file_hash_follows_the_file_version(tmp_path):
    path = tmp_path / "a.png"
    path.write_bytes(PNG)
    first = describe_reference("a.png", base_dir=tmp_path)["sha256"]
    other = png(5, 5)
    path.write_bytes(other)
    os.utime(path, ns=(1, 1))
    assert describe_reference("a.png", base_dir=tmp_path)["sha256"] == hashlib.sha256(other).hexdigest() != first


def test_media_repr_hides_the_bytes():
    text = repr(load_media(png(100, 100, noise=True)))
    assert len(text) < 200 and "image/png" in text


def test_limits_from_suite_options():
    assert MediaLimits.from_options({"media_max_bytes": 5, "media_timeout": 2}) == MediaLimits(5, 2.0)
    assert MediaLimits.from_options({"media_max_bytes": True, "media_timeout": float("nan")}) == MediaLimits()
    assert MediaLimits.from_options(None) == MediaLimits(20 * 1024 * 1024, 15.0)


def test_unreadable_file_message(folder, monkeypatch):
    def refuse(self, *args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "open", refuse)
    with pytest.raises(MediaError) as info:
        load_media("img/red.png", base_dir=folder, field="image")
    assert str(info.value).startswith("image: img/red.png: cannot read the file: Permission denied")
    assert "permissions" in info.value.suggestion


@pytest.mark.parametrize("ref", ["~nosuchuser-xyz/a.png", "a\x00b.png", "x" * 5000 + ".png", "bad\udcff.png"])
def test_hostile_paths_are_media_errors_not_crashes(ref, tmp_path):
    with pytest.raises(MediaError):
        load_media(ref, base_dir=tmp_path)
    assert "error" in describe_reference(ref, base_dir=tmp_path)
