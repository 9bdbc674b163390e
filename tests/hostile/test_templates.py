"""Issue 11, "data is data": a prompt from a cases file is text, never a template, under a run and a
dry run; the suite's own templates render in a sandbox with limits, and every template problem is a
suite error with file:line:field before the first call."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
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


# Issue 50, "data is data": one template budget, enforced by the renderer. A promptfoo CSV `__expected`
# cell is rendered as a template over its row's vars, so whoever writes the CSV writes a template.

def _promptfoo_csv(tmp_path: Path, expected: str, **columns: str) -> Path:
    """A promptfoo config whose one test is a CSV row: ``columns`` as vars, ``expected`` its ``__expected`` cell."""
    import csv

    with (tmp_path / "tests.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["input", *columns, "__expected"])
        writer.writerow(["hi", *columns.values(), expected])
    config = tmp_path / "promptfooconfig.yaml"
    config.write_text("prompts: ['{{input}}']\nproviders: [echo]\ntests: file://tests.csv\n")
    return config


@pytest.mark.parametrize(("cell", "columns", "message"), [
    ("contains:{{ '%0999999999d' % 1 }}", {}, "printf-style formatting would make about 999,999,999 characters"),
    ("{{ '%*d' % (999999999, 1) }}", {}, "printf-style formatting would make about 999,999,999 characters"),
    ("{{ '%.999999999f' % 1.0 }}", {}, "printf-style formatting would make about"),
    ("{{ '%(a)0999999999d' % {'a': 1} }}", {}, "printf-style formatting would make about"),
    ("{{ '%0999999999d' | format(1) }}", {}, "printf-style formatting would make about"),
    ("{{ ('%(t)s' * 1000) % {'t': text} }}", {"text": "x" * 10_000}, "printf-style formatting would make about"),
    ("{{ '{:>999999999}'.format(1) }}", {}, "str.format would make about"),
    ("{{ '{:{}}'.format(1, 999999999) }}", {}, "str.format would make about"),
    ("{{ ('{0}' * 1000).format(text) }}", {"text": "x" * 10_000}, "str.format would make about"),
    ("{{ text | wordwrap(1) }}", {"text": "a" * 300_000},
     "wordwrap breaking long words would take about 90,000,000,000 steps"),
    ("{{ text | wordwrap(1, wrapstring=text) }}", {"text": "a " * 5_000}, "wordwrap would make about"),
], ids=["percent-width", "percent-star", "percent-precision", "percent-key", "format-filter", "percent-fields",
        "str-format", "str-format-nested", "str-format-fields", "wordwrap-long-word", "wordwrap-wrapstring"])
def test_a_csv_expected_cell_cannot_make_gigabytes_of_text(tmp_path, cell, columns, message):
    result = _run(_promptfoo_csv(tmp_path, cell, **columns))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert f"{tmp_path / 'tests.csv'}:2: assert[0].value: template not allowed: " in result.stderr
    assert message in result.stderr


def test_a_csv_expected_cell_that_runs_past_the_cpu_budget_is_stopped(tmp_path, monkeypatch):
    from agentunit.core import templating

    monkeypatch.setattr(templating, "MAX_RENDER_SECONDS", 0.5)
    # Bounded work (each wordwrap is fast, every limit holds) done 20,000 times: seconds of CPU.
    cell = "{% for i in range(20000) %}{{ text | wordwrap(40) | length }}{% endfor %}"
    result = _run(_promptfoo_csv(tmp_path, cell, text="a b " * 2_000))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert (f"{tmp_path / 'tests.csv'}:2: assert[0].value: template took longer than the template budget of "
            "0.5 s of CPU time (agentunit.core.templating.MAX_RENDER_SECONDS)") in result.stderr


@pytest.mark.parametrize(("template", "variables", "message"), [
    ("{{ (text ~ '').join(['a'] * 2000) }}", {"text": "x" * 1000}, "join would make about 1,999,000 characters"),
    ("{{ (['a'] * 2000) | join(text) }}", {"text": "x" * 1000}, "join would make about 1,999,000 characters"),
    ("{{ text.replace('a', text) }}", {"text": "a" * 2000}, "replace would make about 4,000,000 characters"),
    ("{{ text | replace('a', text) }}", {"text": "a" * 2000}, "replace would make about 4,000,000 characters"),
    ("{{ text.translate({97: text}) }}", {"text": "a" * 2000}, "translate would make about 4,000,000 characters"),
    ("{{ text.expandtabs(1000000) }}", {"text": "\t" * 2}, "expandtabs would make about 2,000,002 characters"),
    ("{{ text | indent(text) }}", {"text": "a\n" * 1000}, "indent would make about"),
    ("{{ [[[1]]] | tojson(indent=1000000) }}", {}, "JSON text is longer than the template limit"),
    ("{{ [text] * 2000 }}", {"text": "x" * 1000}, "repetition would make about"),
    ("{{ [text, text, text] | string }}", {"text": "x" * 400_000}, "the text of the value given to string"),
    ("{% macro f(s, n) %}{{ f(s ~ s, n - 1) if n else s | length }}{% endmacro %}{{ f('x', 40) }}", {},
     "joining with ~ would make about 1,048,576 characters"),
    ("{% macro f(s, n) %}{{ f(s + s, n - 1) if n else s | length }}{% endmacro %}{{ f('x', 40) }}", {},
     "a value of more than 1,000,000 characters"),
    ("{% macro m() %}{% for i in range(1000) %}{{ text }}{% endfor %}{% endmacro %}{{ m() | length }}",
     {"text": "x" * 10_000}, "a block's text would make about 10,000,000 characters"),
    ("{{ range(60) | map('string') | map('center', 1000000) | list | length }}", {},
     "values built by one render are above the template limit of 50,000,000 characters"),
    ("{% set l = [" + ", ".join(f"text[{i}:]" for i in range(60)) + "] %}{{ l | length }}", {"text": "x" * 999_000},
     "values built by one render are above the template limit"),
    ("{{ text.rfind('a' + 'b' * 100000) }}", {"text": "a" * 100_000}, "rfind would take about 10,000,100,000 steps"),
    ("{{ text | trim('b' * 100000) }}", {"text": "a" * 100_000}, "trim would take about"),
], ids=["join-method", "join-filter", "replace-method", "replace-filter", "translate", "expandtabs", "indent",
        "tojson-indent", "list-repr", "string-filter", "concat-doubling", "plus-doubling", "macro-buffer",
        "built-total", "slices", "rfind", "trim"])
def test_no_step_of_a_template_builds_more_than_the_budget(template, variables, message):
    from agentunit.core.templating import TemplateError, render

    with pytest.raises(TemplateError) as info:
        render(template, variables)
    assert message in str(info.value)


def test_a_recursive_loop_spends_the_loop_budget(monkeypatch):
    from agentunit.core import templating

    monkeypatch.setattr(templating, "MAX_LOOP_ITERATIONS", 10_000)
    with pytest.raises(templating.TemplateError, match="loops ran more than 10,000 iterations"):
        templating.render("{% for x in range(200) recursive %}{% if loop.depth < 2 %}{{ loop(range(200)) }}"
                          "{% endif %}{% endfor %}", {})


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS is enforced on Linux")
def test_a_huge_printf_width_is_refused_without_allocating_it():
    # In a process that may map 1 GiB in all, the 1 GB the format asks for would be a MemoryError.
    script = textwrap.dedent("""
        import resource
        from agentunit.core.templating import TemplateError, render
        render("{{ 'warm' | upper }}", {})
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        for template in ("{{ '%0999999999d' % 1 }}", "{{ '{:>999999999}'.format(1) }}"):
            try:
                render(template, {})
            except TemplateError as exc:
                print(exc)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "printf-style formatting would make about 999,999,999 characters" in done.stdout
    assert "str.format would make about 999,999,999 characters" in done.stdout
    assert "memory" not in done.stdout
