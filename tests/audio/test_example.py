"""examples/voice_agent.yaml runs offline: calls composed by examples/voice_agent.py, speech recognition on them."""

import json

import pytest

from agentunit.models.store import ModelNotInstalled, require
from tests.conftest import JUDGED_RUN_S, run_cli


def test_voice_agent_example_runs_offline(tmp_path):
    for model in ("asr", "embeddings"):
        try:
            require(model)
        except ModelNotInstalled as exc:
            pytest.skip(str(exc))
    out = tmp_path / "out.json"
    # embedded models on every case: the cases get the run's whole time, so a busy machine errs none
    proc = run_cli("run", "examples/voice_agent.yaml", "--db", str(tmp_path / "r.db"), "-o", str(out),
                   "--timeout", str(JUDGED_RUN_S), env={"HF_HUB_OFFLINE": "1"}, timeout=JUDGED_RUN_S)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(out.read_text())
    cases = {c["id"]: {m["metric"]: m for m in c["metrics"]} for c in report["cases"]}
    assert report["summary"]["errored"] == 0 and len(cases) == 3
    compliant = cases["compliant-call"]
    assert all(m["passed"] is True for m in compliant.values()), compliant
    disclaimer = compliant["audio-disclaimer-check"]["detail"]
    assert disclaimer["transcript_source"] == "asr of trusys.audio" and disclaimer["asr_model"].startswith("asr (")
    assert disclaimer["disclaimers"][0]["found"]["at"] < 15
    assert cases["call-without-the-disclaimer"]["not-audio-disclaimer-check"]["passed"] is True
    assert cases["german-call"]["audio-language"]["detail"]["language"] == "de"
    assert cases["german-call"]["audio-language-switch"]["value"] == 0
