"""The GGUF file a local judge runs: the embedded judge, or any file given as ``model_path``.

A judge's description (and so every cache key) must tell models apart, so a ``model_path`` model is
described by its absolute path and the sha256 of its content. Hashing a multi-gigabyte file takes
seconds, so the digest is computed once and remembered in ``fingerprints.json`` next to the models
folder, keyed by path, size and modification time: a file changed in place is hashed again.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentunit.errors import AgentUnitError

EMBEDDED_JUDGE = "qwen2.5-coder-1.5b-instruct-q4_k_m"
GGUF_MAGIC = b"GGUF"
_CHUNK = 1 << 20
_lock = threading.Lock()


@dataclass(frozen=True)
class ModelFile:
    """A judge model: its file, the name it is shown (and matched for calibration) by, and whether it
    is the embedded judge (whose content is pinned by the catalog's sha256)."""

    path: Path | None  # None: the embedded judge, located when it loads
    name: str
    embedded: bool

    def resolve(self) -> Path:
        """The file to load (ModelNotInstalled for a missing embedded judge)."""
        if self.path is not None:
            return self.path
        from agentunit.models.store import require

        return require("judge") / "judge.gguf"


def model_file(config: dict[str, Any]) -> ModelFile:
    """The model of a local judge config: ``model_path`` when given (checked now: it must be a GGUF
    file), else the embedded judge."""
    given = config.get("model_path")
    if given is None:
        return ModelFile(None, EMBEDDED_JUDGE, True)
    if not isinstance(given, (str, os.PathLike)) or not str(given).strip():
        raise AgentUnitError(f"judge model_path must be the path of a .gguf file, got {given!r}")
    path = Path(given).expanduser().resolve()
    if not path.is_file():
        raise AgentUnitError(f"judge model_path {str(given)!r}: no such file ({path})")
    try:
        with path.open("rb") as handle:
            magic = handle.read(len(GGUF_MAGIC))
    except OSError as exc:
        raise AgentUnitError(f"judge model_path {str(given)!r}: cannot read it ({exc.strerror})") from None
    if magic != GGUF_MAGIC:
        raise AgentUnitError(f"judge model_path {str(given)!r} is not a GGUF model (llama.cpp needs a .gguf file; "
                             "convert other formats with llama.cpp's convert_hf_to_gguf.py)")
    return ModelFile(path, path.stem, False)


def fingerprint(path: Path) -> str:
    """sha256 of the file's content, from the fingerprint memo when path, size and mtime still match."""
    stat = path.stat()
    entry = {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns}
    memo_path = _memo_path()
    with _lock:
        memo = _read_memo(memo_path)
        known = memo.get(str(path))
        if isinstance(known, dict) and all(known.get(k) == v for k, v in entry.items()) \
                and isinstance(known.get("sha256"), str):
            return known["sha256"]
        digest = hashlib.sha256()
        with path.open("rb") as handle:
            while block := handle.read(_CHUNK):
                digest.update(block)
        memo[str(path)] = {**entry, "sha256": digest.hexdigest()}
        _write_memo(memo_path, memo)
        return digest.hexdigest()


def _memo_path() -> Path:
    from agentunit.models.store import models_dir

    return models_dir().parent / "fingerprints.json"


def _read_memo(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # absent or damaged: hash again
        return {}
    return data if isinstance(data, dict) else {}


def _write_memo(path: Path, memo: dict[str, Any]) -> None:
    """Best effort (a read-only home only costs a re-hash next time); atomic so readers never see half."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.partial")
        partial.write_text(json.dumps(memo, indent=1), encoding="utf-8")
        partial.replace(path)
    except OSError:
        pass


def check_local_config(config: dict[str, Any]) -> ModelFile:
    """Check a local judge's settings without starting it (``n_gpu_layers``, ``model_path``); returns its
    model file. Raises AgentUnitError naming the setting."""
    layers = config.get("n_gpu_layers")
    if layers is not None and (isinstance(layers, bool) or not isinstance(layers, int) or layers < 0):
        raise AgentUnitError(f"judge n_gpu_layers must be a whole number ≥ 0 (0 = CPU only), got {layers!r}")
    return model_file(config)
