"""The model file of a local judge: model_path checks and the content fingerprint memo."""

import hashlib
import json
import os

import pytest

from agentunit.errors import AgentUnitError
from agentunit.judges.model_file import EMBEDDED_JUDGE, fingerprint, model_file


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("AGENTUNIT_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def test_model_path_must_be_an_existing_gguf_file(tmp_path):
    assert model_file({}).embedded and model_file({}).name == EMBEDDED_JUDGE
    with pytest.raises(AgentUnitError, match="no such file"):
        model_file({"model_path": str(tmp_path / "missing.gguf")})
    (tmp_path / "weights.bin").write_bytes(b"PK\x03\x04 not a gguf")
    with pytest.raises(AgentUnitError, match="is not a GGUF model"):
        model_file({"model_path": str(tmp_path / "weights.bin")})
    with pytest.raises(AgentUnitError, match=r"must be the path of a \.gguf file"):
        model_file({"model_path": 3})
    (tmp_path / "tiny.gguf").write_bytes(b"GGUF\x03\x00")
    found = model_file({"model_path": str(tmp_path / "tiny.gguf")})
    assert found.path == (tmp_path / "tiny.gguf").resolve() and found.name == "tiny" and not found.embedded


def test_fingerprint_is_the_sha256_computed_once_per_file_version(tmp_path, home):
    model = tmp_path / "m.gguf"
    model.write_bytes(b"GGUF" + b"x" * 5000)
    digest = hashlib.sha256(model.read_bytes()).hexdigest()
    assert fingerprint(model) == digest
    memo_path = home / "fingerprints.json"
    memo = json.loads(memo_path.read_text())
    memo[str(model)]["sha256"] = "remembered"
    memo_path.write_text(json.dumps(memo))
    assert fingerprint(model) == "remembered"  # same size and mtime: not hashed again
    model.write_bytes(b"GGUF" + b"y" * 5000)
    os.utime(model, ns=(1, 1))  # another version of the file (an older mtime than the memo's)
    assert fingerprint(model) == hashlib.sha256(model.read_bytes()).hexdigest() != digest
