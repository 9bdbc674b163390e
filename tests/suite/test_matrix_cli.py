"""End to end: `agentunit run` on a suite with two prompts and two targets shows them side by side."""

from __future__ import annotations

import json

from click.testing import CliRunner

from agentunit.cli import app

SUITE = """
name: side by side
prompts:
  - { label: short, template: "Answer briefly: {{ question }}" }
  - { label: long, template: "Please think, then answer: {{ question }}" }
targets:
  - { type: echo, label: echo }
  - { type: python, function: "shout_app:answer", label: shout, transform: "output.strip()" }
metrics: [{ metric: contains, value: briefly }]
cases:
  - { id: capital, vars: { question: "capital of France?" } }
  - { id: sum, vars: { question: "2 + 2?" } }
"""


def test_run_prints_and_reports_the_prompts_by_targets_table(tmp_path):
    (tmp_path / "shout_app.py").write_text("def answer(prompt):\n    return ' ' + prompt.upper() + ' '\n")
    suite = tmp_path / "suite.yaml"
    suite.write_text(SUITE)
    out, md, page = tmp_path / "out.json", tmp_path / "r.md", tmp_path / "r.html"
    result = CliRunner().invoke(app, ["run", str(suite), "--db", str(tmp_path / "r.db"), "-o", str(out),
                                      "--markdown", str(md), "--html", str(page)])
    assert result.exit_code == 1, result.output  # `short` passes with echo only: the table shows where
    lines = result.output.splitlines()
    start = lines.index("prompts × targets: cases passed")
    assert [line.split() for line in lines[start + 1:start + 4]] == [
        ["prompt", "\\", "target", "echo", "shout"],
        ["short", "2/2", "(100%)", "0/2", "(0%)"],
        ["long", "0/2", "(0%)", "0/2", "(0%)"]]
    assert "FAIL capital [short] [shout]" in result.output
    report = json.loads(out.read_text())
    assert report["summary"]["matrix"]["prompts"] == ["short", "long"]
    assert report["summary"]["matrix"]["targets"] == ["echo", "shout"]
    assert {(c["id"], c["prompt_label"], c["target_label"]) for c in report["cases"]} >= {
        ("capital [short] [echo]", "short", "echo"), ("sum [long] [shout]", "long", "shout")}
    shout = next(c for c in report["cases"] if c["id"] == "capital [short] [shout]")
    assert shout["output"] == "ANSWER BRIEFLY: CAPITAL OF FRANCE?"  # the transform stripped the spaces
    markdown = md.read_text()
    assert "### Prompts × targets: cases passed" in markdown
    assert "| short | 2/2 (100%) | 0/2 (0%) |" in markdown
    assert "### Prompts × targets: metric contains" in markdown
    html = page.read_text()
    assert "<h2>Prompts × targets: cases passed</h2>" in html
    assert "<tr><th>short</th><td>2/2 (100%)</td><td>0/2 (0%)</td></tr>" in html
