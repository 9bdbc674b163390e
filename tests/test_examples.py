"""The agentic example: an HTTP agent with trusys tool calls, plan and agent calls, every agentic metric."""

import json
import subprocess
import sys

import pytest

from tests.conftest import ROOT, run_cli


@pytest.fixture
def weather_agent():
    process = subprocess.Popen([sys.executable, "-m", "examples.weather_agent", "--port", "0"], cwd=ROOT,
                               stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    yield line.strip().rsplit(":", 1)[-1].rstrip("/")
    process.terminate()
    process.wait(timeout=10)


@pytest.mark.slow
def test_weather_agent_suite_measures_every_agentic_metric(weather_agent, tmp_path):
    out = tmp_path / "out.json"
    proc = run_cli("run", "examples/weather_agentic.yaml", "--db", str(tmp_path / "r.db"), "-o", str(out),
                   env={"WEATHER_AGENT_PORT": weather_agent})
    assert proc.returncode in (0, 1), proc.stderr
    report = json.loads(out.read_text())
    assert report["summary"]["errored"] == 0
    for case in report["cases"]:
        results = {m["metric"]: m for m in case["metrics"]}
        assert len(results) == 11
        for name, metric in results.items():
            assert metric["error"] is None and metric["value"] is not None, (case["id"], name, metric)
        assert results["tool_success"]["value"] == 1.0 and results["tool-correctness"]["value"] == 1.0
        assert results["execution-efficiency"]["value"] == 1.0
        assert results["agent-llm-rubric"]["detail"]["rules"][0]["method"] == "trace"
