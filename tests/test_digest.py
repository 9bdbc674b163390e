"""SHA-256 digests (agentunit._digest) are hashlib's, without importing hashlib for small data."""

import hashlib
import subprocess
import sys

import pytest

from agentunit import _digest
from agentunit._digest import sha256_hex


@pytest.mark.parametrize("size", [0, 1, 64, 1000, _digest._OWN_UP_TO, _digest._OWN_UP_TO + 1, 3 << 20])
def test_the_digest_is_hashlibs(size):
    data = bytes(range(256)) * (size // 256) + bytes(size % 256)
    assert sha256_hex(data) == hashlib.sha256(data).hexdigest()


def test_small_data_is_hashed_by_the_interpreters_own_sha256_and_large_data_by_hashlib(monkeypatch):
    used, real = [], hashlib.sha256
    monkeypatch.setattr(_digest, "_own_sha256", lambda data: used.append("own") or real(data))
    monkeypatch.setattr(hashlib, "sha256", lambda data: used.append("hashlib") or real(data))
    sha256_hex(b"x" * _digest._OWN_UP_TO)
    sha256_hex(b"x" * (_digest._OWN_UP_TO + 1))
    assert used == ["own", "hashlib"]


def test_an_interpreter_without_its_own_sha256_uses_hashlib(monkeypatch):
    monkeypatch.setattr(_digest, "_own_sha256", None)
    assert sha256_hex(b"abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


def test_hashing_a_suite_file_imports_no_hashlib():
    code = ("import sys\nfrom agentunit._digest import sha256_hex\n"
            "print(sha256_hex(b'abc'), 'hashlib' in sys.modules, '_hashlib' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "False",
                                   "False"]
