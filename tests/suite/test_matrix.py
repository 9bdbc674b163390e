"""Native suites' prompts × targets matrix, output transforms and CSV `__expected` columns."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from agentunit.core.engine import Engine, RunOptions
from agentunit.errors import SuiteError
from agentunit.store.sqlite import Store
from agentunit.suite.loader import load_suite
from agentunit.suite.transform import TransformError, load_transform

SHOUT = "def answer(prompt):\n    return prompt.upper()\n"


def _suite(tmp_path: Path, text: str, **files: str) -> Path:
    for name, content in files.items():
        (tmp_path / name).write_text(content)
    path = tmp_path / "suite.yaml"
    path.write_text(text)
    return path


def _problems(path: Path) -> list[str]:
    with pytest.raises(SuiteError) as info:
        load_suite(path).validate(require_target=True)
    return [str(p) for p in info.value.problems]


def _run(path: Path, tmp_path: Path):
    suite = load_suite(path)
    suite.validate(require_target=True)
    store = Store(tmp_path / "r.db")
    return asyncio.run(Engine(suite, store, RunOptions(concurrency=2), target=suite.build_target()).run())


MATRIX = """
prompts:
  - "Answer briefly: {{ question }}"
  - { label: polite, template: "Please answer: {{ question }}" }
targets:
  - { type: echo, label: echo }
  - { type: python, function: "shout_mod:answer", label: shout }
metrics: [{ metric: icontains, value: briefly }]
cases:
  - { id: capital, vars: { question: "capital of France?" } }
"""


def test_cases_expand_over_prompts_and_targets_with_ids_and_labels(tmp_path):
    path = _suite(tmp_path, MATRIX, **{"shout_mod.py": SHOUT})
    suite = load_suite(path)
    assert suite.validate(require_target=True) == 4
    cases = list(suite.iter_cases())
    assert [c.id for c in cases] == ["capital [prompt-1] [echo]", "capital [prompt-1] [shout]",
                                     "capital [polite] [echo]", "capital [polite] [shout]"]
    assert [c.query for c in cases][::2] == ["Answer briefly: capital of France?", "Please answer: capital of France?"]
    assert [(c.metadata["prompt_label"], c.metadata["target_label"]) for c in cases] == [
        ("prompt-1", "echo"), ("prompt-1", "shout"), ("polite", "echo"), ("polite", "shout")]


def test_only_dimensions_with_several_entries_are_in_the_id(tmp_path):
    path = _suite(tmp_path, """
prompts: ["Q: {{ prompt }}", "Say: {{ prompt }}"]
targets: [{ type: echo }]
cases: [{ id: a, prompt: "hi {{ name }}", vars: { name: Bo } }]
""")
    cases = list(load_suite(path).iter_cases())
    assert [c.id for c in cases] == ["a [prompt-1]", "a [prompt-2]"]
    assert [c.query for c in cases] == ["Q: hi Bo", "Say: hi Bo"]  # the case's own prompt fills {{ prompt }}
    assert cases[0].metadata == {"prompt_label": "prompt-1", "target_label": "echo"}


def test_a_data_files_prompt_fills_a_template_as_text_never_compiled(tmp_path):
    path = _suite(tmp_path, 'prompts: ["A: {{ prompt }}", "B: {{ prompt }}"]\ntarget: echo\ncases_file: c.jsonl\n',
                  **{"c.jsonl": json.dumps({"id": "x", "prompt": "{{ 7 * 7 }}"}) + "\n"})
    assert [c.query for c in load_suite(path).iter_cases()] == ["A: {{ 7 * 7 }}", "B: {{ 7 * 7 }}"]


def test_matrix_run_records_labels_and_the_side_by_side_summary(tmp_path):
    path = _suite(tmp_path, MATRIX, **{"shout_mod.py": SHOUT})
    result = _run(path, tmp_path)
    matrix = result.summary["matrix"]
    assert matrix["prompts"] == ["prompt-1", "polite"] and matrix["targets"] == ["echo", "shout"]
    cells = {(c["prompt"], c["target"]): c for c in matrix["cells"]}
    assert cells[("prompt-1", "shout")]["passed"] == 1 and cells[("polite", "echo")]["failed"] == 1
    assert cells[("polite", "echo")]["metrics"] == {"icontains": {"failed": 1}}
    report = result.to_dict()
    assert [(c["prompt_label"], c["target_label"]) for c in report["cases"]][:2] == [
        ("prompt-1", "echo"), ("prompt-1", "shout")]
    assert report["cases"][1]["output"] == "ANSWER BRIEFLY: CAPITAL OF FRANCE?"


def test_a_suite_without_a_matrix_has_no_matrix_keys(tmp_path):
    path = _suite(tmp_path, "target: echo\ncases: [{id: a, prompt: hi, metrics: [{metric: contains, value: hi}]}]\n")
    result = _run(path, tmp_path)
    assert "matrix" not in result.summary
    assert "prompt_label" not in result.to_dict()["cases"][0]


def test_matrix_validation_problems_name_file_line_and_field(tmp_path):
    path = _suite(tmp_path, """prompt: "x {{ q }}"
prompts:
  - "Answer: {{ q }"
  - { label: a, template: "A {{ q }}" }
  - { label: a, template: "B {{ q }}" }
  - { label: b, tmpl: "C" }
targets:
  - { type: ecco }
  - { type: echo, label: e, colour: red }
cases: [{ id: one, vars: { q: 1 } }]
""")
    problems = _problems(path)
    assert f"{path}:2: prompts: a suite takes `prompt:` or `prompts:`, not both — move the `prompt:` into the " \
           "`prompts:` list" in problems
    assert any(p.startswith(f"{path}:3: prompts[0]: template syntax error") for p in problems)
    assert f"{path}:5: prompts[2]: prompt label 'a' is used twice (also prompts[1]) — give each prompt a unique " \
           "`label:`" in problems
    assert any(p.startswith(f"{path}:6: prompts[3].tmpl: unknown prompt field 'tmpl'") for p in problems)
    assert f"{path}:8: targets[0].type: unknown target type 'ecco' — did you mean 'echo'?" in problems
    assert any(p.startswith(f"{path}:9: targets[1].colour: unknown echo target field 'colour'") for p in problems)


def test_a_template_a_case_cannot_fill_is_a_problem_at_the_case(tmp_path):
    path = _suite(tmp_path, 'prompts: ["A {{ question }}", "B {{ prompt }}"]\ntarget: echo\n'
                            'cases:\n  - { id: one, vars: { question: hi } }\n')
    assert _problems(path) == [
        f"{path}:4: cases[0]: cannot fill prompts[1] ('prompt-2') for case 'one': 'prompt' is undefined "
        "(available: id, question) — give the case `vars:` for every variable of the template, or a `prompt:` "
        "the template uses as {{ prompt }}"]


def test_duplicate_default_target_labels_are_numbered(tmp_path):
    path = _suite(tmp_path, 'targets: [echo, echo]\ncases: [{id: a, prompt: hi}]\n')
    assert [c.id for c in load_suite(path).iter_cases()] == ["a [echo]", "a [echo #2]"]


# -- transforms ----------------------------------------------------------------------------------


def test_target_and_case_transforms_apply_in_order(tmp_path):
    path = _suite(tmp_path, """
target: { type: echo, transform: "output.upper()" }
defaults: { transform: "output + '!'" }
cases:
  - { id: a, prompt: "hi", transform: "json.dumps({'said': output})" }
  - { id: b, prompt: "yo" }
  - { id: c, output: "recorded" }
""")
    outputs = {c["id"]: c["output"] for c in _run(path, tmp_path).to_dict()["cases"]}
    # the target's transform, then the case's; a recorded output gets only the case's (defaults')
    assert outputs == {"a": '{"said": "HI"}', "b": "YO!", "c": "recorded!"}


def test_a_file_transform_gets_output_and_context(tmp_path):
    path = _suite(tmp_path, 'target: {type: echo, transform: "file://t.py:shape"}\n'
                            'cases: [{id: a, prompt: hi, vars: {who: Bo}}]\n',
                  **{"t.py": "def shape(output, context):\n    return f\"{output} to {context['vars']['who']}\"\n"})
    assert _run(path, tmp_path).to_dict()["cases"][0]["output"] == "hi to Bo"


def test_a_failing_transform_errors_the_case_naming_the_field(tmp_path):
    path = _suite(tmp_path, 'targets: [{type: echo, label: e, transform: "output[1000]"}, {type: echo, label: f}]\n'
                            'cases: [{id: a, prompt: hi, metrics: [{metric: contains, value: hi}]}]\n')
    cases = {c["id"]: c for c in _run(path, tmp_path).to_dict()["cases"]}
    assert cases["a [e]"]["status"] == "errored"
    assert cases["a [e]"]["error"] == "targets[0].transform failed: IndexError: string index out of range"
    assert cases["a [e]"]["output"] == "hi"  # what the target said, for the reports
    assert cases["a [f]"]["status"] == "passed"


def test_transform_problems_are_suite_problems_with_lines(tmp_path):
    path = _suite(tmp_path, """
targets:
  - { type: echo, transform: "output.__class__" }
  - { type: echo, label: b, transform: "x = 1" }
  - { type: echo, label: c, transform: "file://missing.py:f" }
  - { type: echo, label: d, transform: "'{0.__doc__}'.format(output)" }
cases: [{ id: a, prompt: hi }]
""")
    problems = _problems(path)
    assert f"{path}:3: targets[0].transform: transform may not use '__class__': names starting with '_' are " \
           "refused — work on the text: output.strip(), json.loads(output)['answer'], …" in problems
    assert f"{path}:4: targets[1].transform: transform is not one Python expression: invalid syntax — put longer " \
           "code in a function: file://transform.py:function" in problems
    assert any(p.startswith(f"{path}:5: targets[2].transform: transform file 'missing.py' not found")
               for p in problems)
    assert any(p.startswith(f"{path}:6: targets[3].transform: transform may not call .format()") for p in problems)


def test_transform_expressions_have_no_dangerous_builtins():
    for source in ("open('/etc/passwd').read()", "__import__('os')", "eval(output)", "getattr(output, 'upper')()"):
        with pytest.raises(TransformError):
            load_transform(source, "target.transform", None).apply("x", {})
    with pytest.raises(TransformError, match="format"):
        load_transform("output.format(1)", "target.transform", None)
    # the output is a value: text that looks like code is never run
    assert load_transform("output.strip()", "t", None).apply(" __import__('os').system('x') ", {}) == \
        "__import__('os').system('x')"
    assert load_transform("json.loads(output)['a']", "t", None).apply('{"a": [1, 2]}', {}) == "[1, 2]"
    assert load_transform("re.sub(r'\\d', '#', output)", "t", None).apply("a1b2", {}) == "a#b#"


def test_a_cases_file_cannot_carry_a_transform(tmp_path):
    path = _suite(tmp_path, "target: echo\ncases_file: c.jsonl\n",
                  **{"c.jsonl": json.dumps({"id": "a", "prompt": "hi", "transform": "output"}) + "\n"})
    assert _problems(path) == [
        f"{tmp_path / 'c.jsonl'}:1: transform: transform runs code, and a cases file is data — put `transform:` on "
        "the suite's target, in `defaults:` or on an inline case (rename a `transform` column that is a var)"]


# -- CSV promptfoo columns -----------------------------------------------------------------------


def test_csv_expected_columns_are_metrics_never_vars(tmp_path):
    csv = ("question,__expected,__expected2,__expected3,__description,__metric,__threshold\n"
           "what is up,contains: up,not-contains: down,up,up-case,updown,0.5\n"
           "plain,icontains: PLAIN,,,,,\n")
    path = _suite(tmp_path, 'prompt: "{{ question }}"\ntarget: echo\ncases_file: c.csv\n', **{"c.csv": csv})
    first, second = list(load_suite(path).iter_cases())
    assert first.id == "up-case" and first.description == "up-case" and first.threshold == 0.5
    assert first.vars == {"question": "what is up"}
    assert [(m.info.name, m.value, getattr(m, "negate", False), m.label) for m in first.metrics] == [
        ("contains", "up", False, "updown"), ("contains", "down", True, "updown"), ("equals", "up", False, "updown")]
    assert second.id == "case-2" and [m.info.name for m in second.metrics] == ["icontains"]
    assert second.vars == {"question": "plain"}


def test_csv_columns_that_cannot_run_are_problems_with_lines(tmp_path):
    csv = "question,__expected,__prefix\nhi,javascript: output.length > 2,p\nyo,python: output == 'yo',\n"
    path = _suite(tmp_path, 'prompt: "{{ question }}"\ntarget: echo\ncases_file: c.csv\n', **{"c.csv": csv})
    file = tmp_path / "c.csv"
    problems = _problems(path)
    assert f"{file}:1: __prefix: column '__prefix' is not read by agentunit — use __expected, __expectedN, " \
           "__description, __metric, __threshold or __metadata:KEY; rename the column if it is a var" in problems
    assert any(p.startswith(f"{file}:2: __expected: a JavaScript assertion cannot run here") for p in problems)
    assert any(p.startswith(f"{file}:3: __expected.type: metric 'python' runs code, and a cases file is data")
               for p in problems)


def test_csv_matrix_runs_end_to_end(tmp_path):
    csv = "question,__expected\nwhat is up,icontains: UP\n"
    path = _suite(tmp_path, 'prompts: ["{{ question }}", "Q: {{ question }}"]\ntargets: [echo]\ncases_file: c.csv\n',
                  **{"c.csv": csv})
    result = _run(path, tmp_path)
    assert result.summary["passed"] == 2 and len(result.summary["matrix"]["cells"]) == 2


def test_the_matrix_summary_is_the_same_read_from_cases(tmp_path):
    from agentunit.reporting.matrix import _summary_from_cases, matrix_summary

    path = _suite(tmp_path, MATRIX, **{"shout_mod.py": SHOUT})
    result = _run(path, tmp_path)
    assert _summary_from_cases(result.store, result.run_id) == matrix_summary(result.store, result.run_id)
