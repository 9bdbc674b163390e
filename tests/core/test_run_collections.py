"""`agentunit run` collects its youngest generation of garbage less often while it runs, and gives the
collector its thresholds back when the command ends (the CLI runs in-process in tests and notebooks)."""

import gc
import json

from click.testing import CliRunner

import agentunit.cli.run_command as run_command
from agentunit.cli import app


def _suite(tmp_path):
    path = tmp_path / "s.json"
    case = {"id": "a", "prompt": "hi", "metrics": [{"metric": "contains", "value": "hi"}]}
    path.write_text(json.dumps({"name": "gc", "target": {"type": "echo"}, "cases": [case]}))
    return path


def test_run_raises_the_young_threshold_and_restores_the_thresholds(tmp_path, monkeypatch):
    before = gc.get_threshold()
    seen = []
    real = run_command.execute

    def spy(*args, **kwargs):
        seen.append(gc.get_threshold())
        return real(*args, **kwargs)

    monkeypatch.setattr(run_command, "execute", spy)
    result = CliRunner().invoke(app, ["run", str(_suite(tmp_path)), "--db", str(tmp_path / "r.db"), "-q"])
    assert result.exit_code == 0, result.output
    assert seen and seen[0][0] == max(before[0], 50_000) and seen[0][1:] == before[1:]
    assert gc.get_threshold() == before


def test_a_collector_switched_off_stays_off(tmp_path, monkeypatch):
    before = gc.get_threshold()
    seen = []
    real = run_command.execute

    def spy(*args, **kwargs):
        seen.append(gc.get_threshold()[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(run_command, "execute", spy)
    gc.set_threshold(0, *before[1:])
    try:
        result = CliRunner().invoke(app, ["run", str(_suite(tmp_path)), "--db", str(tmp_path / "r.db"), "-q"])
        assert gc.get_threshold()[0] == 0
    finally:
        gc.set_threshold(*before)
    assert result.exit_code == 0, result.output
    assert seen == [0]
