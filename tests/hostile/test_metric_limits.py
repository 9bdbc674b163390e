"""Issue 11 replays: metrics stay honest and bounded in work on hostile data.

pii_leakage without the NER extra, pii_leakage on long texts, sustainability on remote targets,
rouge-n's definition, and regex on hostile patterns.
"""

from __future__ import annotations

import json
import sys

import pytest

from agentunit.api import check, evaluate
from agentunit.core.outcome import Outcome
from agentunit.core.trace import TraceLog
from agentunit.datasets.base import DatasetCase
from agentunit.errors import SuiteError
from agentunit.metrics.base import score
from agentunit.privacy import detectors
from agentunit.privacy.metrics import PIILeakageMetric
from agentunit.suite import load_suite
from tests.http_helpers import LocalServer, Reply
from tests.work_helpers import cpu_ratio, line_budget


def _score(metric, output):
    return score(metric, DatasetCase(id="c", query="q"), TraceLog(), Outcome(output=output))


# -- pii_leakage without the NER extra --------------------------------------------------------------

@pytest.fixture
def without_ner_extra(monkeypatch):
    """presidio cannot be imported, as when `agentunit[privacy]` is not installed."""
    monkeypatch.setitem(sys.modules, "presidio_analyzer", None)
    monkeypatch.setattr(detectors, "_analyzer", None)
    monkeypatch.setattr(detectors, "_ner_error", None)


def test_pii_leakage_without_the_ner_extra_is_an_error_naming_the_install(without_ner_extra):
    result = _score(PIILeakageMetric(), "Maria Garcia lives here.")
    assert result.status == "error" and result.passed is None
    assert "pip install 'agentunit[privacy]'" in result.error
    assert "ner: false" in result.error and "types" in result.error


def test_pii_leakage_patterns_only_says_so_instead_of_no_personal_data(without_ner_extra):
    result = _score(PIILeakageMetric(ner=False), "Maria Garcia lives here.")
    assert result.passed is True and "no personal data found by patterns (ner: false)" in result.reason
    assert "honorific" in result.detail["ner"]
    structured = _score(PIILeakageMetric(types=["email", "phone"]), "nothing here")
    assert structured.status == "passed" and structured.reason == "no personal data found"


# -- pii_leakage on long texts -----------------------------------------------------------------------

def test_pii_leakage_on_a_long_log_is_bounded():
    """Every pair of findings was compared: 30,000 IP addresses (~0.6 MB) took about 30 s. The lines of
    agentunit run grow with the findings (about 45 each), not with their pairs (12.5 million for 5,000)."""
    findings = 5_000
    log = "".join(f"GET /x 200 from 10.{i // 65536 % 256}.{i // 256 % 256}.{i % 256} ok\n" for i in range(findings))
    with line_budget(150 * findings):
        result = _score(PIILeakageMetric(types=["ip_address", "phone", "email"]), log)
    assert result.detail["by_type"] == {"ip_address": findings}


def test_email_search_is_linear_on_hostile_local_parts():
    """'a%a%a%…' (100 kB) made the e-mail pattern try every start to the end of the run (~9 s, 2,000 times
    the CPU time of a plain text of the same size); now it costs what the plain text costs. The pattern runs
    in C, where no line is counted: the two CPU times are compared, whatever the machine's speed."""
    metric = PIILeakageMetric(types=["email"])
    hostile, plain = "a%" * 50_000, "a " * 50_000
    assert _score(metric, hostile).value == 1.0
    assert cpu_ratio(lambda: _score(metric, hostile), lambda: _score(metric, plain), below=20) < 20


def test_a_long_text_that_was_searched_in_part_says_so(monkeypatch):
    monkeypatch.setattr(detectors, "MAX_PHONE_DIGIT_GROUPS", 50)
    text = "Call +44 20 7946 0958 today.\n" + "order 12 34 56 78\n" * 2000 + "Call +1 415 555 2671 now."
    result = _score(PIILeakageMetric(types=["phone"]), text)
    assert result.detail["by_type"] == {"phone": 1}
    assert "phone numbers were searched in the first" in result.detail["limits"][0]
    assert "searched in part" in result.reason


# -- sustainability on a remote target ----------------------------------------------------------------

def _sustainability(energy_kwh: float | None, **config):
    """Runs against an HTTP agent that reports its own energy (``trusys.energy_kwh``) or none."""
    reply = Reply(200, {"output": "done", "trusys": {} if energy_kwh is None else {"energy_kwh": energy_kwh}})
    with LocalServer(lambda request: reply, path="/agent", protocol="HTTP/1.1") as server:
        run = evaluate(cases=[{"id": "one", "query": "go"}], target={"type": "http", "url": server.url},
                       concurrency=1, cache=False,
                       metrics=[{"metric": "energy_consumption", "config": {"threshold_kwh": 0.1, **config}},
                                {"metric": "carbon_emissions", "config": config}])
    return {m["metric"]: m for m in run.cases[0]["metrics"]}


def test_a_server_reporting_5_kwh_fails_a_0_1_kwh_threshold():
    results = _sustainability(5.0)
    energy, carbon = results["energy_consumption"], results["carbon_emissions"]
    assert energy["passed"] is False and energy["detail"]["energy_kwh"] == 5.0
    assert energy["detail"]["energy_source"] == "reported"
    assert carbon["detail"]["carbon_kg"] == pytest.approx(5.0 * 0.475) and carbon["passed"] is False


def test_a_server_reporting_nothing_is_not_scored_on_our_client_process():
    results = _sustainability(None)
    assert results["energy_consumption"]["value"] is None
    assert "client_side" in results["energy_consumption"]["reason"]
    opted_in = _sustainability(None, client_side=True)["energy_consumption"]
    assert opted_in["value"] is not None and "client side only" in opted_in["reason"]


# -- rouge-n --------------------------------------------------------------------------------------------

def test_rouge_n_reports_recall_as_lin_2004_defines_it():
    result = check("the cat", {"metric": "rouge-n", "value": "the cat sat"})
    assert result.value == pytest.approx(2 / 3) and result.passed is False  # F1 0.8 passed before
    assert result.detail["fmeasure"] == pytest.approx(0.8) and result.detail["precision"] == 1.0


# -- regex on hostile patterns ---------------------------------------------------------------------------

def test_catastrophic_backtracking_is_an_error_within_the_budget():
    # the error is the regex engine's own, raised when the budget stopped the match (not after it ended)
    result = check("a" * 40 + "b", {"metric": "regex", "value": "(a|aa)+$", "config": {"timeout": 0.2}})
    assert result.status == "error" and "(a|aa)+$" in result.error and "0.2 s" in result.error


@pytest.mark.parametrize("pattern", ["a{1000000000}", "a{99999999999999999999}", "(?:a{1000}){1000}", "(x", "a**",
                                     "(" * 5000 + ")" * 5000])
def test_hostile_patterns_are_suite_errors_with_a_line(tmp_path, pattern):
    path = tmp_path / "s.yaml"
    path.write_text("name: s\ncases:\n  - prompt: hi\n    output: hi\n    metrics:\n"
                    f"      - {{metric: regex, value: {json.dumps(pattern)}}}\n")
    with pytest.raises(SuiteError) as info:
        load_suite(path).validate()
    problem = info.value.problems[0]
    assert problem.file == str(path) and problem.line == 6 and "regular expression" in problem.message


@pytest.mark.parametrize("pattern", ["a{1000000000}", "(x"])
def test_a_hostile_pattern_in_expected_output_is_a_suite_error_too(tmp_path, pattern):
    path = tmp_path / "s.yaml"
    path.write_text("name: s\ncases:\n  - prompt: hi\n    output: hi\n    metrics: [regex]\n"
                    f"    expected_output: {json.dumps(pattern)}\n")
    with pytest.raises(SuiteError) as info:
        load_suite(path).validate()
    problem = info.value.problems[0]
    assert problem.line == 6 and problem.field == "cases[0].expected_output"
    assert "regular expression" in problem.message and "used by 'regex'" in problem.message
