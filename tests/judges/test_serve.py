"""`agentunit models serve judge` is a real OpenAI-compatible server; the openai judge provider uses it."""

import os
import subprocess
import sys
import time

import pytest

from agentunit import evaluate
from agentunit.models.store import ModelNotInstalled, require
from tests.conftest import ROOT


@pytest.fixture(scope="module")
def served_judge():
    try:
        require("judge")
    except ModelNotInstalled as exc:
        pytest.fail(f"{exc} (make test does this before the tests)")
    process = subprocess.Popen([sys.executable, "-m", "agentunit", "models", "serve", "judge"], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=os.environ.copy())
    deadline = time.monotonic() + 120
    line = ""
    while time.monotonic() < deadline and "serving" not in line:
        line = process.stdout.readline()
    assert "serving" in line, "the judge server did not start"
    yield line.strip().rsplit(" ", 1)[-1]
    process.terminate()
    process.wait(timeout=30)


@pytest.mark.slow
def test_openai_provider_against_the_served_judge(served_judge, tmp_path):
    suite = {"name": "served", "judge": {"provider": "openai", "base_url": served_judge, "model": "judge"},
             "cases": [{"id": "good", "prompt": "What is the capital of France?", "output": "The capital is Paris.",
                        "metrics": [{"metric": "llm-rubric", "value": "Correctly names the capital of France"}]},
                       {"id": "rude", "output": "Go away.",
                        "metrics": [{"metric": "llm-rubric", "value": "The reply is polite."}]}]}
    result = evaluate(suite, db=tmp_path / "r.db")
    cases = {c["id"]: c for c in result.cases}
    good, rude = cases["good"]["metrics"][0], cases["rude"]["metrics"][0]
    assert good["detail"]["judge"]["source"] == "logprobs" and good["detail"]["judge"]["usage"]["prompt_tokens"] > 0
    assert good["passed"] is True and rude["passed"] is False
