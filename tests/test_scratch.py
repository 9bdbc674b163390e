"""A run's scratch files and folders (agentunit._scratch) are where and as tempfile would make them, without
importing tempfile, shutil or random."""

import os
import subprocess
import sys
import tempfile

import pytest

from agentunit import _scratch
from agentunit._scratch import copy_file, remove_folder, scratch_file, scratch_folder, temporary_folder


@pytest.fixture
def no_tempdir(monkeypatch, tmp_path):
    """As in a fresh run: tempfile has chosen no folder, the environment decides (after ``tmp_path``,
    whose making has tempfile choose one)."""
    monkeypatch.setattr(tempfile, "tempdir", None)
    for name in ("TMPDIR", "TEMP", "TMP"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_the_folder_is_the_first_non_empty_of_tmpdir_temp_tmp_then_tmp(no_tempdir, tmp_path):
    assert temporary_folder() == "/tmp"
    no_tempdir.setenv("TMP", str(tmp_path / "c"))
    assert temporary_folder() == str(tmp_path / "c")
    no_tempdir.setenv("TEMP", str(tmp_path / "b"))
    assert temporary_folder() == str(tmp_path / "b")
    no_tempdir.setenv("TMPDIR", "")  # empty: skipped, as tempfile skips it
    assert temporary_folder() == str(tmp_path / "b")
    no_tempdir.setenv("TMPDIR", "relative")
    assert temporary_folder() == os.path.abspath("relative")


def test_a_folder_tempfile_has_chosen_is_kept(no_tempdir, tmp_path):
    no_tempdir.setenv("TMPDIR", str(tmp_path / "env"))
    no_tempdir.setattr(tempfile, "tempdir", str(tmp_path))
    assert temporary_folder() == str(tmp_path)


def test_a_scratch_file_has_no_name_in_the_folder_and_reads_back(no_tempdir, tmp_path):
    no_tempdir.setenv("TMPDIR", str(tmp_path))
    with scratch_file(prefix="agentunit-x-") as file:
        file.write(b"line one\nline two\n")
        file.seek(0)
        assert file.read() == b"line one\nline two\n"
        assert "b" in file.mode and "+" in file.mode
        assert os.listdir(tmp_path) == []  # unnamed: nothing left behind, even if the process is killed
        assert os.fstat(file.fileno()).st_mode & 0o777 == 0o600


def test_a_scratch_file_in_a_folder_that_is_gone_is_tempfiles(no_tempdir, tmp_path, monkeypatch):
    no_tempdir.setenv("TMPDIR", str(tmp_path / "missing"))
    made = []
    real = tempfile.TemporaryFile
    monkeypatch.setattr(tempfile, "TemporaryFile", lambda **kw: made.append(kw) or real(dir=tmp_path))
    with scratch_file(prefix="agentunit-x-") as file:
        file.write(b"x")
    assert made == [{"prefix": "agentunit-x-"}]


def test_a_scratch_folder_is_new_private_and_prefixed(no_tempdir, tmp_path):
    no_tempdir.setenv("TMPDIR", str(tmp_path))
    first, second = scratch_folder("agentunit-shards-12-"), scratch_folder("agentunit-shards-12-")
    assert first != second
    for path in (first, second):
        assert os.path.dirname(path) == str(tmp_path) and os.path.basename(path).startswith("agentunit-shards-12-")
        assert os.path.isdir(path) and os.stat(path).st_mode & 0o777 == 0o700


def test_a_scratch_folder_name_taken_is_tried_again(no_tempdir, tmp_path, monkeypatch):
    no_tempdir.setenv("TMPDIR", str(tmp_path))
    draws = iter([b"\x00" * 6, b"\x00" * 6, b"\x01" * 6])
    monkeypatch.setattr(_scratch.os, "urandom", lambda n: next(draws))
    assert scratch_folder("p-").endswith("p-" + "00" * 6)
    assert scratch_folder("p-").endswith("p-" + "01" * 6)


def test_a_scratch_folder_where_none_can_be_made_is_tempfiles(no_tempdir, tmp_path, monkeypatch):
    no_tempdir.setenv("TMPDIR", str(tmp_path / "missing"))
    monkeypatch.setattr(tempfile, "mkdtemp", lambda prefix: f"made by tempfile with {prefix}")
    assert scratch_folder("p-") == "made by tempfile with p-"


def test_removing_a_folder_removes_what_it_holds_and_follows_no_link(tmp_path, monkeypatch):
    import shutil

    monkeypatch.setattr(shutil, "rmtree", lambda *a, **k: pytest.fail("left to shutil"))
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("kept")
    folder = tmp_path / "folder"
    (folder / "0" / "deeper").mkdir(parents=True)
    (folder / "0" / "range.db").write_bytes(b"x")
    (folder / "0" / "deeper" / "lines").write_bytes(b"y")
    (folder / "state.pickle").write_bytes(b"z")
    (folder / "link").symlink_to(outside, target_is_directory=True)
    remove_folder(folder)
    assert not folder.exists() and (outside / "keep.txt").read_text() == "kept"


def test_a_link_given_as_the_folder_is_not_followed(tmp_path):
    target = tmp_path / "target"
    (target / "sub").mkdir(parents=True)
    (target / "sub" / "keep.txt").write_text("kept")
    (target / "top.txt").write_text("kept")
    link = tmp_path / "agentunit-shards-1-link"
    link.symlink_to(target, target_is_directory=True)
    remove_folder(link)  # shutil.rmtree refuses a link too: nothing is removed
    assert (target / "sub" / "keep.txt").read_text() == "kept" and (target / "top.txt").read_text() == "kept"


def test_a_folder_that_cannot_be_emptied_is_left_to_shutil(tmp_path, monkeypatch):
    import shutil

    removed = []
    monkeypatch.setattr(shutil, "rmtree", lambda path, ignore_errors: removed.append((path, ignore_errors)))
    remove_folder(tmp_path / "missing")
    assert removed == [(tmp_path / "missing", True)]


def test_copying_a_file_copies_what_is_left_of_it(tmp_path, monkeypatch):
    monkeypatch.setattr(_scratch, "_BLOCK", 3)  # several blocks
    source = tmp_path / "source"
    source.write_bytes(b"skip|0123456789")
    with open(source, "rb") as reading, open(tmp_path / "target", "wb") as writing:
        reading.seek(5)
        copy_file(reading, writing)
    assert (tmp_path / "target").read_bytes() == b"0123456789"


def test_scratch_work_imports_neither_tempfile_shutil_nor_random(tmp_path):
    code = ("import sys\nfrom agentunit._scratch import scratch_file, scratch_folder, remove_folder, copy_file\n"
            "folder = scratch_folder('agentunit-test-')\n"
            "with scratch_file() as f, open(folder + '/x', 'wb') as g:\n"
            "    f.write(b'abc'); f.seek(0); copy_file(f, g)\n"
            "remove_folder(folder)\n"
            "print(sorted(m for m in ('tempfile', 'shutil', 'random') if m in sys.modules))")
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]" and os.listdir(tmp_path) == []
