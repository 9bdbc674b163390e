"""The engine sets a judge up only for a run that may call one (issue 20: a run of agentunit's deterministic
checks with the default local judge does not even import the judge service)."""

from __future__ import annotations

import math
import sqlite3

import pytest

from agentunit import evaluate
from agentunit.judges.base import JudgeReply
from agentunit.judges.service import service_for
from tests.judge_helpers import ScriptedProvider

_CODE = "def add(a, b):\n    return a + b\n"


@pytest.fixture
def scripted_local_judge():
    """The process's local judge service answering every readability question with a 4."""
    service = service_for(None)
    before = service._provider
    provider = ScriptedProvider(lambda request: JudgeReply("4", [("4", math.log(0.9)), ("3", math.log(0.1))]))
    service._provider = provider
    try:
        yield provider
    finally:
        service._provider = before


def test_a_deterministic_metric_that_asks_the_judge_gets_the_suites_judge_and_its_cache(tmp_path,
                                                                                      scripted_local_judge):
    # code-readability is deterministic (no model of its own) but asks the judge when `judge: true`: its calls
    # are awaited, so the run is not driven inline, and the judge is set up as for any judge metric.
    db = tmp_path / "r.db"
    suite = {"name": "judged", "target": {"type": "echo"}, "cases": [
        {"id": "a", "prompt": _CODE, "metrics": [{"metric": "code-readability", "config": {"judge": True}}]}]}
    result = evaluate(suite, db=db)
    assert scripted_local_judge.requests
    assert result.summary["judge"]["calls"] == len(scripted_local_judge.requests)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM judge_cache").fetchone()[0] == len(scripted_local_judge.requests)


def test_a_run_of_deterministic_checks_with_the_default_judge_sets_none_up(tmp_path, monkeypatch):
    import agentunit.judges.service as service_module

    asked = []
    monkeypatch.setattr(service_module, "use_judge", lambda *args, **kwargs: asked.append(args))
    suite = {"name": "plain", "target": {"type": "echo"}, "cases": [
        {"id": "a", "prompt": "Answer: 42", "metrics": [{"metric": "contains", "value": "42"}]}]}
    result = evaluate(suite, db=tmp_path / "r.db")
    assert result.passed and asked == [] and "judge" not in result.summary
    evaluate({**suite, "judge": {"provider": "openai", "base_url": "http://127.0.0.1:9/v1", "model": "m"}},
             db=tmp_path / "r.db")
    assert len(asked) == 1  # a judge of its own is set up: its secrets are scrubbed from what is kept
