"""The agentic example: an HTTP agent with trusys tool calls, plan and agent calls, every agentic metric."""

import json
import subprocess
import sys

import pytest

from tests.conftest import JUDGED_RUN_S, ROOT, run_cli


@pytest.fixture
def weather_agent():
    process = subprocess.Popen([sys.executable, "-m", "examples.weather_agent", "--port", "0"], cwd=ROOT,
                               stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    yield line.strip().rsplit(":", 1)[-1].rstrip("/")
    process.terminate()
    process.wait(timeout=60)


# Both runs are right, and the 1.5B judge now passes every metric on them. goal-fulfillment failed the
# two-cities run at its earlier 0.68 pass mark (P(yes) 0.664); its pass mark is 0.6 since the goal call is
# checked (December 2026, docs/agentic.md). reasoning-coherence, which failed this run with its old PASS/FAIL
# question, passes it with its yes/no statement; argument-correctness, which failed it at its 0.55 pass mark,
# passes both runs since the judge also fills each call itself, shown the earlier calls' results. A wrong
# verdict that a later change brings back is listed here, with why.
KNOWN_WRONG: set[tuple[str, str]] = set()


@pytest.mark.slow
def test_weather_agent_suite_measures_every_agentic_metric(weather_agent, tmp_path):
    # About twenty calls of the embedded judge: a minute on an idle 2-core machine, many on a busy one. The
    # case limit is raised past the run's own: the test is about verdicts, and a slow machine errs none.
    out = tmp_path / "out.json"
    proc = run_cli("run", "examples/weather_agentic.yaml", "--db", str(tmp_path / "r.db"), "-o", str(out),
                   "--timeout", str(JUDGED_RUN_S), env={"WEATHER_AGENT_PORT": weather_agent}, timeout=JUDGED_RUN_S)
    report = json.loads(out.read_text())
    assert report["summary"]["errored"] == 0
    wrong = set()
    for case in report["cases"]:
        results = {m["metric"]: m for m in case["metrics"]}
        assert len(results) == 11
        for name, metric in results.items():
            assert metric["error"] is None and metric["value"] is not None, (case["id"], name, metric)
            # both runs are right (the tools every city needs, in order, and an answer restating their results),
            # so every metric should pass them
            if metric["passed"] is not True:
                wrong.add((case["id"], name))
        assert results["tool_success"]["value"] == 1.0 and results["tool-correctness"]["value"] == 1.0
        assert results["execution-efficiency"]["value"] == 1.0
        assert results["agent-llm-rubric"]["detail"]["rules"][0]["method"] == "trace"
    assert proc.returncode == (1 if wrong else 0), proc.stderr
    assert wrong <= KNOWN_WRONG, wrong - KNOWN_WRONG
    if wrong:
        pytest.xfail(f"known wrong verdicts of the 1.5B judge on right runs: {sorted(wrong)}")


def test_travel_team_suite_scores_privacy_sustainability_and_multiagent(tmp_path):
    out = tmp_path / "out.json"
    proc = run_cli("run", "examples/travel_team.yaml", "-j", "1", "--db", str(tmp_path / "r.db"), "-o", str(out))
    assert proc.returncode == 1, proc.stderr  # two cases fail on purpose
    report = json.loads(out.read_text())
    cases = {c["id"]: {m["metric"]: m for m in c["metrics"]} for c in report["cases"]}
    assert cases["plain-booking"]["pii_leakage"]["passed"] is True
    assert cases["card-leak"]["pii_leakage"]["passed"] is False
    # the output itself is kept (it is what the system said); the metric's findings are masked
    assert "**** **** **** 1111" in json.dumps(cases["card-leak"]["pii_leakage"]["detail"])
    assert "4111 1111 1111 1111" not in json.dumps(cases["card-leak"]["pii_leakage"]["detail"])
    assert cases["location-without-consent"]["consent_compliance"]["value"] == 0.0
    for results in cases.values():
        # handoffs, communication and roles are perfect; the lead does half the talking (load 4, 2, 2):
        # (0.25 + 0.25 + 0.15 + 0.15 × (1 − cv)) / 0.8 with no conflicts to resolve
        cv = (((4 - 8 / 3) ** 2 + 2 * (2 - 8 / 3) ** 2) / 3) ** 0.5 / (8 / 3)
        assert results["coordination_efficiency"]["value"] == pytest.approx((0.65 + 0.15 * (1 - cv)) / 0.8)
        assert results["network_fault_tolerance"]["detail"]["bottleneck_agents"] == ["lead"]
        energy = results["energy_consumption"]["detail"]
        assert energy["cpu_s"] > 0.01 and energy["energy_source"].startswith(("rapl", "cpu-time-model"))
