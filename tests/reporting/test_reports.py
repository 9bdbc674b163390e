import io
import json
import xml.etree.ElementTree as ET
from types import SimpleNamespace

import pytest

from agentunit import evaluate
from agentunit.reporting.console import print_summary
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
    assert set(data) == {"run_id", "suite", "started_at", "summary", "statistics", "cases"}
    assert {"cases", "passed", "failed", "errored"} <= set(data["summary"])
    assert (data["summary"]["cases"], data["summary"]["passed"], data["summary"]["failed"],
            data["summary"]["errored"]) == (3, 1, 1, 1)
    for case in data["cases"]:
        assert set(case) == {"id", "prompt", "output", "passed", "status", "error", "latency_ms", "metrics"}
        for metric in case["metrics"]:
            assert set(metric) == {"metric", "value", "passed", "threshold", "reason", "detail", "error"}
    fine = data["cases"][1]
    assert fine["metrics"][1]["value"] is None and fine["metrics"][1]["passed"] is None  # not measured
    assert data["cases"][2]["output"] is None and "boom" in data["cases"][2]["error"]


def test_html_escapes_everything_and_runs_only_its_own_script(result, tmp_path):
    write_html(result, tmp_path / "r.html")
    page = (tmp_path / "r.html").read_text()
    assert page.count("<script>") == 1 and "<script>alert" not in page  # the filter, allowed by its hash
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page
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
    assert "**evil** (failed)" in text and "\\| pipe" in text
    assert "\\<script>" in text and "<script>" not in text.replace("\\<", "")  # a literal "<", never a tag
    assert "**crash** (errored)" in text


# -- the unmeasured status ------------------------------------------------------------------------


def _with_unmeasured(allow):
    """One passing case and two whose only metric is not measured (no tool calls to judge)."""
    return evaluate(cases=[
        {"id": "fine", "prompt": "fine", "metrics": [{"metric": "equals", "value": "fine"}]},
        {"id": "rag-1", "prompt": "a", "metrics": ["tool_success"]},
        {"id": "rag-2", "prompt": "b", "metrics": ["tool_success"]}], target=lambda p: p, allow_unmeasured=allow)


def _console(result):
    out = io.StringIO()
    print_summary(result, out=out)
    return out.getvalue()


def test_a_run_whose_every_case_passed_is_not_searched_for_cases_to_list(monkeypatch):
    result = evaluate(cases=[{"id": f"c{i}", "prompt": "fine", "metrics": [{"metric": "equals", "value": "fine"}]}
                             for i in range(3)], target=lambda p: p)
    monkeypatch.setattr(result.store, "iter_cases", lambda *a, **k: pytest.fail("searched the database"))
    assert _console(result).splitlines()[-1].startswith("PASSED  3/3 passed, 0 failed, 0 errored, 0 unmeasured")


def test_console_counts_lists_and_fails_on_unmeasured_cases():
    text = _console(_with_unmeasured(False))
    assert "UNMEASURED rag-1\n    tool_success: not measured: no tool calls in the trace\n" in text
    assert "UNMEASURED rag-2" in text
    assert text.splitlines()[-1].startswith("FAILED  1/3 passed, 0 failed, 0 errored, 2 unmeasured  · run ")
    allowed = _console(_with_unmeasured(True))
    assert allowed.splitlines()[-1].startswith("PASSED  1/3 passed, 0 failed, 0 errored, 2 unmeasured (allowed)")
    assert "UNMEASURED rag-1" in allowed


def test_console_reads_summaries_written_before_the_unmeasured_status():
    result = _with_unmeasured(False)
    old = {k: v for k, v in result.summary.items() if k not in ("unmeasured", "allow_unmeasured")}
    legacy = SimpleNamespace(summary=old, store=result.store, run_id=result.run_id, status="completed", passed=True)
    assert "PASSED  1/3 passed, 0 failed, 0 errored, 0 unmeasured" in _console(legacy)


def test_junit_marks_unmeasured_cases_failed_or_skipped_when_allowed(tmp_path):
    write_junit(_with_unmeasured(False), tmp_path / "j.xml")
    root = ET.parse(tmp_path / "j.xml").getroot()
    assert root.get("failures") == "2" and root.get("skipped") == "0"
    failure = root.find(".//testcase[@name='rag-1']/failure")
    assert failure.get("type") == "unmeasured" and "tool_success: not measured" in failure.get("message")
    assert root.find(".//testcase[@name='fine']/failure") is None
    write_junit(_with_unmeasured(True), tmp_path / "a.xml")
    root = ET.parse(tmp_path / "a.xml").getroot()
    assert root.get("failures") == "0" and root.get("skipped") == "2"
    skipped = root.find(".//testcase[@name='rag-2']/skipped")
    assert "not measured: no tool calls" in skipped.get("message") and root.find(".//failure") is None


def test_json_markdown_and_html_show_unmeasured(tmp_path):
    result = _with_unmeasured(False)
    data = result.to_dict()
    assert [c["status"] for c in data["cases"]] == ["passed", "unmeasured", "unmeasured"]
    assert data["summary"]["unmeasured"] == 2 and data["summary"]["allow_unmeasured"] is False
    assert [c["passed"] for c in data["cases"]] == [True, False, False]
    write_markdown(result, tmp_path / "r.md")
    md = (tmp_path / "r.md").read_text()
    assert "**1/3 passed**, 0 failed, 0 errored, 2 unmeasured." in md
    assert "- **rag-1** (unmeasured): output “a”\n  - tool_success: not measured: no tool calls" in md
    write_html(result, tmp_path / "r.html")
    page = (tmp_path / "r.html").read_text()
    assert "2 unmeasured</span>" in page and "<td class='unmeasured'>unmeasured</td>" in page


def test_inert_markdown_text_stays_on_one_line_and_is_cut_before_escaping():
    from agentunit.reporting.markdown import inert

    assert inert("a\r\nb\rc\nd\x0be\x0cf\x85g\u2028h\u2029i") == "a b c d e f g h i"
    assert inert("# [x](y) `z` | <b>") == "\\# \\[x\\](y) \\`z\\` \\| \\<b>"
    assert inert("\x1b[2J") == "\\\\x1b\\[2J"  # visible, and its backslash escaped
    assert inert("[[[[", limit=2) == "\\[\\[…"


def test_console_reports_values_the_store_had_to_replace():
    result = _with_unmeasured(True)
    result.store.problems.append("case 'x' #0 stored reduced: [score not stored: OverflowError: too big]")
    text = _console(result)
    assert "STORE case 'x' #0 stored reduced: [score not stored: OverflowError: too big]\n" in text
