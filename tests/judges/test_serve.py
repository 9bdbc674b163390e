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


@pytest.mark.slow
def test_any_gguf_file_is_served_too():
    import asyncio

    from agentunit.judges.base import JudgeRequest
    from agentunit.judges.service import JudgeService

    path = require("perplexity") / "smollm2-135m.gguf"  # stands in for any.gguf
    command = [sys.executable, "-m", "agentunit", "models", "serve", "judge", "--model-path", str(path),
               "--n-gpu-layers", "0"]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               env=os.environ.copy())
    try:
        line = process.stdout.readline()
        assert "serving" in line and "smollm2-135m@b179c9523d0e" in line, line
        service = JudgeService({"provider": "openai", "base_url": line.strip().rsplit(" ", 1)[-1], "model": "any"})

        async def ask():  # a 135M model's verdicts are no use; that it answers is what is checked
            try:
                return await service.generate(JudgeRequest((("user", "Say hello."),), max_tokens=5))
            finally:
                await service.aclose()

        text, usage, cached = asyncio.run(ask())
        assert text.strip() and usage["prompt_tokens"] > 0 and not cached
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_serve_reports_a_bad_model_path(tmp_path):
    from tests.conftest import run_cli

    (tmp_path / "notes.gguf").write_text("not a model")
    proc = run_cli("models", "serve", "judge", "--model-path", str(tmp_path / "notes.gguf"))
    assert proc.returncode == 2 and "is not a GGUF model" in proc.stderr and "Traceback" not in proc.stderr
