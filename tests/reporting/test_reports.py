import json
import xml.etree.ElementTree as ET

import pytest

from agentunit import evaluate
from agentunit.reporting.html import write_html
from agentunit.reporting.json_report import write_json
from agentunit.reporting.junit import write_junit
from agentunit.reporting.markdown import write_markdown

EVIL = "<script>alert('x')</script> | pipe \x07 & \"quotes\""


@pytest.fixture
def result():
    def target(prompt):
        if prompt == "crash":
            raise RuntimeError("<b>boom</b>")
        return EVIL if prompt == "evil" else prompt

    return evaluate(cases=[
        {"id": "evil", "prompt": "evil", "metrics": [{"metric": "contains", "value": "safe"}]},
        {"id": "fine", "prompt": "fine", "metrics": [{"metric": "equals", "value": "fine"}, "tool_success"]},
        {"id": "crash", "prompt": "crash", "metrics": [{"metric": "equals", "value": "x"}]}], target=target)


def test_json_report_has_exactly_the_contract_keys(result, tmp_path):
    write_json(result, tmp_path / "r.json")
    data = json.loads((tmp_path / "r.json").read_text())
    assert data == result.to_dict()
    assert set(data) == {"run_id", "suite", "started_at", "summary", "cases"}
    assert {"cases", "passed", "failed", "errored"} <= set(data["summary"])
    assert (data["summary"]["cases"], data["summary"]["passed"], data["summary"]["failed"],
            data["summary"]["errored"]) == (3, 1, 1, 1)
    for case in data["cases"]:
        assert set(case) == {"id", "prompt", "output", "passed", "error", "latency_ms", "metrics"}
        for metric in case["metrics"]:
            assert set(metric) == {"metric", "value", "passed", "threshold", "reason", "detail", "error"}
    fine = data["cases"][1]
    assert fine["metrics"][1]["value"] is None and fine["metrics"][1]["passed"] is None  # not measured
    assert data["cases"][2]["output"] is None and "boom" in data["cases"][2]["error"]


def test_html_escapes_everything_and_runs_no_script(result, tmp_path):
    write_html(result, tmp_path / "r.html")
    page = (tmp_path / "r.html").read_text()
    assert "<script>" not in page and "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page
    assert "<b>boom</b>" not in page and "&lt;b&gt;boom&lt;/b&gt;" in page
    assert "Content-Security-Policy" in page and "http" not in page.split("<body>")[0].replace("http-equiv", "")


def test_junit_is_valid_xml_with_one_testcase_per_case(result, tmp_path):
    write_junit(result, tmp_path / "j.xml")
    root = ET.parse(tmp_path / "j.xml").getroot()
    cases = root.findall(".//testcase")
    assert [c.get("name") for c in cases] == ["evil", "fine", "crash"]
    assert cases[0].find("failure").get("message").startswith("contains:")
    assert "boom" in cases[2].find("error").get("message")
    assert "<script>" in cases[0].find("system-out").text  # escaped in the file, intact when parsed


def test_markdown_lists_failures_with_escaped_cells(result, tmp_path):
    write_markdown(result, tmp_path / "r.md")
    text = (tmp_path / "r.md").read_text()
    assert "**1/3 passed**" in text and "| contains | 0.0% | 0 | 1 |" in text
    assert "**evil** (failed)" in text and "\\| pipe" in text and "<script>" not in text
    assert "**crash** (errored)" in text
