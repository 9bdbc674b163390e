"""The privacy metrics on cases: scores, masking in the detail, inputs, tool calls and consent."""

import json

import pytest

from agentunit.core.envelope import build_trace, parse_reply
from agentunit.core.outcome import Outcome
from agentunit.datasets.base import DatasetCase
from agentunit.metrics import create_metric
from agentunit.metrics.base import score
from agentunit.privacy.metrics import (
    ConsentComplianceMetric,
    DataMinimizationMetric,
    PIILeakageMetric,
    PrivacyBudgetMetric,
)


def _run(metric, output, query="q", metadata=None, **trusys):
    case = DatasetCase(id="c", query=query, metadata=metadata or {})
    outcome = parse_reply({"output": output, "trusys": trusys}) if trusys else Outcome(output=output)
    return score(metric, case, build_trace(outcome, query), outcome)


def test_pii_leakage_scores_by_severity_and_masks_values():
    result = _run(PIILeakageMetric(ner=False), "Reach me at ann.lee@example.com, card 4111 1111 1111 1111.")
    assert result.value == pytest.approx(max(0.0, 1 - (0.5 * 0.95 + 1.0 * 0.95)))
    assert result.passed is False
    text = json.dumps(result.detail)
    assert "4111 1111 1111 1111" not in text and "ann.lee@example.com" not in text
    assert {f["type"] for f in result.detail["findings"]} == {"email", "credit_card"}
    clean = _run(PIILeakageMetric(), "Your order ships Tuesday.")
    assert clean.value == 1.0 and clean.passed is True


def test_pii_leakage_input_tool_calls_and_allow_list():
    metric = PIILeakageMetric(check_input=True, check_tool_calls=True, allow=["help@acme.com"], ner=False)
    result = _run(metric, "Write to help@acme.com.", query="my ssn is 123-45-6789",
                  tool_calls=[{"name": "crm", "arguments": {"phone": "+1 415 555 2671"}}])
    sources = sorted(f["source"] for f in result.detail["findings"])
    assert sources == ["input", "tool:crm"]
    weights = PIILeakageMetric(severity_weights={"email": 0.1}, ner=False)
    assert _run(weights, "ann.lee@example.com").value == pytest.approx(1 - 0.1 * 0.95)


def test_pii_leakage_from_a_suite_spec_and_bad_config():
    metric = create_metric("pii_leakage", config={"types": ["email"]})
    assert _run(metric, "card 4111 1111 1111 1111").value == 1.0
    with pytest.raises(Exception, match="unknown PII type"):
        create_metric("pii_leakage", config={"types": ["emial"]})


def test_privacy_budget_accumulates_across_cases():
    metric = PrivacyBudgetMetric(total_budget=1.0, warn_threshold=0.8)
    first = _run(metric, "a", privacy={"epsilon": 0.5})
    assert first.value == pytest.approx(0.5) and first.passed and not first.detail["warning"]
    second = _run(metric, "b", privacy={"epsilon": 0.4})
    assert second.detail["warning"] and second.detail["total_spent"] == pytest.approx(0.9)
    third = _run(metric, "c", metadata={"epsilon": 0.3})
    assert third.detail["budget_exceeded"] and third.passed is False and third.value == 0.0
    assert _run(metric, "d").value is None  # no epsilon: not measured, not zero


def test_data_minimization_finds_keys_in_json_text_and_tool_arguments():
    output = 'Done. {"user": {"name": "Ann", "apiKey": "sk-1"}} password: hunter2'
    result = _run(DataMinimizationMetric(), output, tool_calls=[{"name": "crm", "arguments": {"ssn": "x"}}])
    assert set(result.detail["exposed"]) == {"api_key", "password", "ssn"}
    assert result.value == pytest.approx(1 - 3 / 9) and result.passed is False
    prose = _run(DataMinimizationMetric(), "Note that the password: x. Credit card: 4111. Meet at 10:30, https://a.io")
    assert set(prose.detail["exposed"]) == {"password", "credit_card"}
    allowed = _run(DataMinimizationMetric(sensitive_keys=["email"]), '{"email": "a@b.co"}',
                   metadata={"allowed_fields": ["email"]})
    assert allowed.value is None  # the only checked key is necessary here


def test_consent_compliance_checks_output_and_tool_calls():
    consent = {"consent": {"email": True, "location": False, "phone": False}}
    ok = _run(ConsentComplianceMetric(), "Sent to ann@example.com.", metadata=consent)
    assert ok.value == 1.0 and ok.passed
    leak = _run(ConsentComplianceMetric(), "Done.", metadata=consent,
                tool_calls=[{"name": "weather", "arguments": {"lat": 51.5, "lng": -0.1}}])
    assert leak.value == 0.0 and {v["kind"] for v in leak.detail["violations"]} == {"location"}
    phone = _run(ConsentComplianceMetric(), "Call them on +44 20 7946 0958.", metadata=consent)
    assert phone.passed is False and phone.detail["violations"][0]["value"].endswith("58")
    assert _run(ConsentComplianceMetric(), "x").value is None


def _spends(prompt: str) -> dict:
    return {"output": "ok", "trusys": {"privacy": {"epsilon": 0.4}}}


def test_each_run_starts_a_fresh_budget():
    from agentunit.api import evaluate

    suite = {"name": "budget", "cases": [{"id": f"c{i}", "query": f"q{i}"} for i in range(3)],
             "metrics": [{"metric": "privacy_budget", "config": {"total_budget": 1.0}}]}
    for _ in range(2):  # the metric instance is cached across runs; the spent budget is not
        run = evaluate(suite, target=_spends, concurrency=1)
        spent = [c["metrics"][0]["detail"]["total_spent"] for c in run.cases]
        assert spent == pytest.approx([0.4, 0.8, 1.2])
        assert [c["metrics"][0]["passed"] for c in run.cases] == [True, True, False]


def _without_ner(monkeypatch):
    from agentunit.privacy import detectors

    monkeypatch.setattr(detectors, "_analyzer", None)
    monkeypatch.setattr(detectors, "_ner_error", "names and addresses need the NER model: pip install ...")


def test_without_the_ner_model_names_are_an_error_not_a_pass(monkeypatch):
    _without_ner(monkeypatch)
    result = _run(PIILeakageMetric(), "Maria Garcia wrote from ann.lee@example.com.")
    assert result.status == "error" and "NER model" in result.error and "ner: false" in result.error
    patterns = _run(PIILeakageMetric(ner=False), "Maria Garcia wrote from ann.lee@example.com.")
    assert [f["type"] for f in patterns.detail["findings"]] == ["email"]
    assert "ner: false" in patterns.detail["ner"]
    clean = _run(PIILeakageMetric(ner=False), "Maria Garcia wrote.")
    assert clean.reason == "no personal data found by patterns (ner: false)"
    structured = _run(PIILeakageMetric(types=["email"]), "Maria Garcia wrote.")  # names not asked for
    assert structured.status == "passed" and "ner" not in structured.detail


def test_consent_for_names_without_the_ner_model_is_an_error(monkeypatch):
    _without_ner(monkeypatch)
    refused = {"consent": {"name": False}}
    result = _run(ConsentComplianceMetric(), "Maria Garcia wrote.", metadata=refused)
    assert result.status == "error" and "NER model" in result.error
    email_only = _run(ConsentComplianceMetric(), "write to ann.lee@example.com", metadata={"consent": {"email": False}})
    assert email_only.passed is False  # kinds found by patterns need no model
    patterns = _run(ConsentComplianceMetric(config={"ner": False}), "Dear Mr. Smith,", metadata=refused)
    assert patterns.passed is False


def test_the_reason_says_when_a_long_text_was_searched_in_part():
    from agentunit.privacy.detectors import MAX_NER_CHARS

    result = _run(PIILeakageMetric(), "nothing personal here. " * (MAX_NER_CHARS // 20))
    assert result.passed is True
    assert result.reason.startswith("no personal data found — searched in part: names were searched in the first")


@pytest.mark.parametrize("name", ["pii_leakage", "consent_compliance", "data_minimization"])
def test_switches_given_as_text_are_refused_not_read_as_true(name):
    from agentunit.errors import MetricConfigError

    flag = "check_tool_calls" if name == "data_minimization" else "ner"
    with pytest.raises(MetricConfigError, match=f"config.{flag} must be true or false"):
        create_metric(name, config={flag: "false"})
