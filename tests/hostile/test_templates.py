"""Issue 11, "data is data": a prompt from a cases file is text, never a template, under a run and a
dry run; the suite's own templates render in a sandbox with limits, and every template problem is a
suite error with file:line:field before the first call."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from agentunit.cli import app


def _payload(marker: Path) -> str:
    return "{{ cycler.__init__.__globals__.os.popen('touch " + str(marker) + "').read() }}"


def _run(suite_path: Path, *args: str):
    return CliRunner().invoke(app, ["run", str(suite_path), "--db", str(suite_path.parent / "r.db"), "-q", *args])


def _cases_file(tmp_path: Path, kind: str, prompt: str) -> str:
    if kind == "jsonl":
        (tmp_path / "c.jsonl").write_text(json.dumps({"id": "row", "prompt": prompt}) + "\n")
    elif kind == "csv":
        (tmp_path / "c.csv").write_text('id,prompt\nrow,"' + prompt.replace('"', '""') + '"\n')
    else:
        (tmp_path / "c.yaml").write_text("- id: row\n  prompt: " + json.dumps(prompt) + "\n")
    return f"c.{kind}"


@pytest.mark.parametrize("kind", ["jsonl", "csv", "yaml"])
@pytest.mark.parametrize("dry_run", [False, True], ids=["run", "dry-run"])
def test_a_shell_command_in_a_cases_file_prompt_is_text_and_never_runs(tmp_path, kind, dry_run):
    marker = tmp_path / "pwned"
    payload = _payload(marker)
    suite = tmp_path / "s.yaml"
    suite.write_text(json.dumps({"target": {"type": "echo"}, "cases_file": _cases_file(tmp_path, kind, payload),
                                 "metrics": [{"metric": "equals", "value": payload}]}))
    report = tmp_path / "out.json"
    result = _run(suite, *(["--dry-run"] if dry_run else ["-o", str(report)]))
    assert result.exit_code == 0, result.output
    assert not marker.exists()
    if not dry_run:
        (case,) = json.loads(report.read_text())["cases"]
        assert case["prompt"] == payload and case["passed"] is True  # reached the target as written


def test_vars_are_values_in_the_suite_template_and_a_rows_prompt_is_literal(tmp_path):
    (tmp_path / "c.csv").write_text('id,prompt,question\nown,"{{ 7 * 7 }}",\nvia-template,,"{{ 7 * 7 }}"\n')
    suite = tmp_path / "s.yaml"
    suite.write_text('target: {type: echo}\nprompt: "Q: {{ question }}"\ncases_file: c.csv\n'
                     'metrics: [{metric: contains, value: "{{ 7 * 7 }}"}]\n')
    report = tmp_path / "out.json"
    result = _run(suite, "-o", str(report))
    assert result.exit_code == 0, result.output
    prompts = {c["id"]: c["prompt"] for c in json.loads(report.read_text())["cases"]}
    assert prompts == {"own": "{{ 7 * 7 }}", "via-template": "Q: {{ 7 * 7 }}"}


@pytest.mark.parametrize(("template", "message"), [
    ("{{ cycler.__init__.__globals__ }}", "not allowed: access to attribute '__init__'"),
    ("{{ [].append(1) }}", "not allowed: access to attribute 'append'"),
    ("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}", "recursion too deep"),
    ("{% for a in range(2000) %}{% for b in range(1000) %}{% endfor %}{% endfor %}", "loops ran more than"),
    ("{{ 'x' * 2000000 }}", "repetition would make 2,000,000 items"),
    ("{% for a in range(3000) %}{{ 'x' * 999 }}{% endfor %}", "longer than 1,000,000 characters"),
    ("{{ 1 / 0 }}", "ZeroDivisionError"),
    ("{{ 'a' | batch }}", "TypeError"),
    ("{{ q ", "template syntax error"),
])
def test_suite_templates_render_in_a_sandbox_with_limits(tmp_path, template, message):
    marker = tmp_path / "pwned"
    suite = tmp_path / "s.yaml"
    suite.write_text("target: {type: echo}\ncases:\n  - id: a\n    prompt: " + json.dumps(template)
                     + "\n    metrics: [{metric: contains, value: x}]\n")
    result = _run(suite)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and not marker.exists()
    assert f"{suite}:4: cases[0].prompt: " in result.stderr and message in result.stderr


@pytest.mark.parametrize(("target", "field", "message"), [
    ({"type": "http", "url": "http://127.0.0.1:9/{{ a"}, "target.url", "url is not a valid template"),
    ({"type": "http", "url": "http://127.0.0.1:9/", "headers": {"X": "{% if %}"}}, "target.headers",
     "'X' is not a valid template"),
    ({"type": "http", "url": "http://127.0.0.1:9/", "body": {"a": ["{{ 1 + }}"]}}, "target.body",
     "is not a valid template"),
    ({"type": "command", "argv": ["echo", "{{ prompt "]}, "target.argv", "item 1 is not a valid template"),
    ({"type": "command", "argv": "echo 'unclosed"}, "target.argv", "No closing quotation"),
    ({"type": "command", "argv": "echo", "stdin": "{% for %}"}, "target.stdin", "is not a valid template"),
    ({"type": "openai", "model": "m", "system": "{{"}, "target.system", "is not a valid template"),
])
def test_target_templates_are_checked_before_the_first_call(tmp_path, target, field, message):
    suite = tmp_path / "s.json"
    suite.write_text(json.dumps({"target": target, "cases": [{"prompt": "hi", "metrics": ["tool_success"]}]},
                                indent=1))
    result = _run(suite)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    line = next(n for n, text in enumerate(suite.read_text().splitlines(), 1) if f'"{field.split(".")[1]}"' in text)
    assert f"{suite}:{line}: {field}: " in result.stderr and message in result.stderr


@pytest.mark.parametrize("entry", [
    {"metric": "python", "value": "__import__('pathlib').Path(MARKER).touch() or True"},
    {"metric": "assert-set", "assert": [{"metric": "python", "value": "__import__('pathlib').Path(MARKER).touch()"}]},
], ids=["python", "inside-assert-set"])
def test_a_cases_file_cannot_declare_a_check_that_runs_code(tmp_path, entry):
    marker = tmp_path / "pwned"
    entry = json.loads(json.dumps(entry).replace("MARKER", repr(str(marker)).replace("'", "\\\"")))
    (tmp_path / "c.jsonl").write_text(json.dumps({"id": "row", "prompt": "p", "metrics": [entry]}) + "\n")
    suite = tmp_path / "s.yaml"
    suite.write_text("target: {type: echo}\ncases_file: c.jsonl\n")
    result = _run(suite, "--dry-run")
    assert result.exit_code == 2 and not marker.exists()
    assert "c.jsonl:1:" in result.output and "runs code" in result.output


def test_the_suite_file_itself_may_declare_code_checks(tmp_path):
    suite = tmp_path / "s.yaml"
    suite.write_text("target: {type: echo}\ncases: [{prompt: hello, metrics: [{metric: python, "
                     "value: \"output == 'hello'\"}]}]\n")
    assert _run(suite).exit_code == 0
