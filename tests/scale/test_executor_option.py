"""The executor option without a cluster: usage errors, a missing Ray, and no Ray on the local path."""

from __future__ import annotations

import asyncio
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from agentunit.cli import app
from agentunit.core.engine import Engine, RunOptions
from agentunit.errors import AgentUnitError
from agentunit.scale import RayExecutor
from agentunit.store.sqlite import Store
from agentunit.suite.loader import load_suite
from tests.conftest import write_suite

_SUITE = {"name": "s", "target": {"type": "echo"},
          "cases": [{"id": "a", "prompt": "hi", "metrics": [{"metric": "contains", "value": "hi"}]}]}


def test_ray_options_need_the_ray_executor(tmp_path: Path) -> None:
    suite = write_suite(tmp_path / "s.json", _SUITE)
    result = CliRunner().invoke(app, ["run", str(suite), "--db", str(tmp_path / "au.db"), "--ray-workers", "2"])
    assert result.exit_code == 2
    assert "--ray-address and --ray-workers need --executor ray" in result.output


def test_ray_executor_without_ray_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    suite = write_suite(tmp_path / "s.json", _SUITE)
    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "ray" else find_spec(name, *a))
    result = CliRunner().invoke(app, ["run", str(suite), "--db", str(tmp_path / "au.db"), "--executor", "ray"])
    assert result.exit_code == 2
    assert "pip install 'agentunit[ray]'" in result.output
    assert not (tmp_path / "au.db").exists()  # refused before anything was opened or run


def test_a_run_without_ray_ends_interrupted_with_the_reason(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    store = Store(tmp_path / "au.db")
    engine = Engine(load_suite(write_suite(tmp_path / "s.json", _SUITE)), store, RunOptions(executor=RayExecutor()))
    with pytest.raises(AgentUnitError, match=r"pip install 'agentunit\[ray\]'"):
        asyncio.run(engine.run())
    assert store.get_run(engine.run_id)["status"] == "interrupted"
    store.close()


def test_the_local_path_does_not_import_ray() -> None:
    code = ("import sys, agentunit.cli, agentunit.core.engine, agentunit.scale; "
            "assert 'ray' not in sys.modules, 'ray imported'")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
