"""What mutation testing found unpinned in ``agentunit.suite.loader`` (docs/testing.md, "Mutation testing").

Each problem below is asserted whole (file, line, field, message and suggestion): a suite author reads
exactly that line, so a dropped location or suggestion is a regression.
"""

from __future__ import annotations

import textwrap

import pytest

from agentunit.errors import SuiteError
from agentunit.suite import load_suite


def _write(tmp_path, text, name="s.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip())
    return path


def _problems(path, **options):
    with pytest.raises(SuiteError) as info:
        load_suite(path, **options).validate()
    return [str(p) for p in info.value.problems]


CASES = "cases: [{prompt: hi}]\n"


# -- reading the file --------------------------------------------------------------------------------------


def test_a_missing_or_unreadable_suite_file(tmp_path):
    assert _problems(tmp_path / "missing.yaml") == [f"{tmp_path / 'missing.yaml'}:1: suite file not found"]
    assert _problems(tmp_path) == [f"{tmp_path}:1: cannot read suite file: Is a directory"]


# -- targets: lists, labels, transforms ----------------------------------------------------------------------


def test_targets_must_be_a_non_empty_list(tmp_path):
    hint = " — targets: [{type: echo, label: baseline}, {type: python, function: app:answer}]"
    for value, shown in (("[]", "a list"), ("echo", "'echo'"), ("{type: echo}", "an object")):
        path = _write(tmp_path, f"targets: {value}\n{CASES}")
        assert _problems(path) == [f"{path}:1: targets: targets must be a non-empty list of targets, got {shown}{hint}"]


def test_target_labels_are_checked_each_and_made_unique(tmp_path):
    path = _write(tmp_path, """
        targets:
          - echo
          - {type: echo, label: true}
          - {type: echo, label: "  "}
          - {type: echo, label: " b "}
          - {type: echo, label: b}
          - {type: echo, label: b}
        cases: [{prompt: hi}]
        """)
    assert _problems(path) == [
        f"{path}:3: targets[1].label: label must be text, got true",
        f"{path}:4: targets[2].label: label must be text, got '  '",
        f"{path}:6: targets[4].label: target label 'b' is used twice (also targets[3]) — give each target a unique "
        "`label:`",
        f"{path}:7: targets[5].label: target label 'b' is used twice (also targets[3]) — give each target a unique "
        "`label:`"]


def test_targets_without_labels_are_numbered_and_keep_their_index(tmp_path):
    (tmp_path / "shape.py").write_text("def f(output, context):\n    return output + '!'\n")
    path = _write(tmp_path, """
        targets:
          - echo
          - {type: echo, cache: false}
          - {type: echo, label: 7, transform: "file://shape.py:f"}
          - {type: echo, label: " x "}
        cases: [{prompt: hi}]
        """)
    variants = load_suite(path).variants.targets
    assert [(v.label, v.spec, v.index) for v in variants] == [
        ("echo", {"type": "echo"}, 0), ("echo #2", {"type": "echo", "cache": False}, 1),
        ("7", {"type": "echo"}, 2), ("x", {"type": "echo"}, 3)]
    assert variants[2].transform.field == "targets[2].transform"
    assert variants[2].transform.apply("out", {}) == "out!"  # read next to the suite, not the working directory
    assert variants[0].transform is None


def test_a_target_transform_that_cannot_load_says_what_to_write(tmp_path):
    path = _write(tmp_path, f"targets: [echo, {{type: echo, transform: 'file://nope.py:f'}}]\n{CASES}")
    assert _problems(path) == [
        f"{path}:1: targets[1].transform: transform file 'nope.py' not found (looked in {tmp_path}) — an expression "
        "over `output` such as output.strip().lower(), or file://transform.py:function"]
    path = _write(tmp_path, f"target: {{type: echo, transform: 'output.('}}\n{CASES}")
    assert _problems(path) == [
        f"{path}:1: target.transform: transform is not one Python expression: invalid syntax — put longer code in a "
        "function: file://transform.py:function"]


# -- python functions, argv, HTTP methods ---------------------------------------------------------------------


@pytest.mark.parametrize("function", ["app", ":answer", "app:", 3])
def test_a_python_function_must_be_module_colon_callable(tmp_path, function):
    path = _write(tmp_path, f"target: {{type: python, function: {function!r}}}\n{CASES}")
    shown = repr(function) if isinstance(function, str) else str(function)
    assert _problems(path) == [f"{path}:1: target.function: function must be 'module:callable', got {shown} — for "
                               "example examples.calc:answer"]


def test_a_function_name_may_hold_further_colons(tmp_path):
    path = _write(tmp_path, f"target: {{type: python, function: 'app:a:b'}}\n{CASES}")
    assert load_suite(path).target == {"type": "python", "function": "app:a:b"}  # checked, not imported yet


def test_argv_that_is_empty_or_does_not_split(tmp_path):
    path = _write(tmp_path, f"target: {{type: command, argv: '  '}}\n{CASES}")
    assert _problems(path) == [f"{path}:1: target.argv: argv is empty — name the program to run"]
    path = _write(tmp_path, f"target: {{type: command, argv: 'echo \"hi'}}\n{CASES}")
    assert _problems(path) == [f"{path}:1: target.argv: argv cannot be split like a shell command line: No closing "
                               "quotation — close the quote, or give argv as a list"]
    path = _write(tmp_path, f"target: {{type: command, argv: 'echo hi'}}\n{CASES}")
    assert load_suite(path).target == {"type": "command", "argv": "echo hi"}


def test_http_methods_in_any_case(tmp_path):
    path = _write(tmp_path, f"target: {{type: http, url: 'http://x', method: patch}}\n{CASES}")
    assert load_suite(path).target["method"] == "patch"


# -- judge ensembles ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("judges", "why"), [
    ("5", "must be a list of 2 or more judges like {provider: openai, …}, got 5"),
    ("[{provider: openai, model: m}]", "must be a list of 2 or more judges like {provider: openai, …}, got a list"),
    ("[{provider: openai}, 3]", "item 1 must be a judge object, got 3"),
    ("[{provider: openai, combine: mean}, {provider: openai}]", "item 0 has an unknown judge field 'combine'"),
    ("[{provider: openai}, {provider: openai, bogus: 1}]", "item 1 has an unknown judge field 'bogus'"),
    ("[{provider: ensemble}, {provider: openai}]", "item 0 is an ensemble itself; list its judges here instead"),
    ("[{provider: openai}, {provider: openai, timeout: 0}]", "item 1 field timeout must be a finite number > 0, got 0"),
])
def test_ensemble_members_are_checked_one_by_one(tmp_path, judges, why):
    path = _write(tmp_path, f"target: echo\njudge: {{provider: ensemble, judges: {judges}}}\n{CASES}")
    assert _problems(path) == [f"{path}:2: judge.judges: judges {why}"]


def test_an_ensemble_of_two_valid_judges_loads(tmp_path):
    path = _write(tmp_path, "target: echo\njudge: {provider: ensemble, combine: agreement, judges: "
                            f"[{{provider: openai, model: a}}, {{provider: anthropic, model: b}}]}}\n{CASES}")
    judge = load_suite(path).judge
    assert judge["combine"] == "agreement" and [j["model"] for j in judge["judges"]] == ["a", "b"]


# -- calibration files -------------------------------------------------------------------------------------


def test_a_calibration_file_that_cannot_be_used(tmp_path):
    hint = " — write it with `agentunit calibrate SUITE --write FILE`"
    (tmp_path / "cal.json").write_text("{not json")
    path = _write(tmp_path, f"target: echo\n{CASES}calibration: cal.json\n")
    assert _problems(path) == [f"{path}:3: calibration: calibration file is not valid JSON: Expecting property name "
                               f"enclosed in double quotes ('cal.json', line 1){hint}"]
    # named on the command line: the problem is the calibration file's own
    assert _problems(_write(tmp_path, f"target: echo\n{CASES}"), calibration=tmp_path / "cal.json") == [
        f"{tmp_path / 'cal.json'}:1: calibration file is not valid JSON: Expecting property name enclosed in double "
        f"quotes{hint}"]
    long = "x" * 300  # a name the file system refuses: quoted to 200 characters, at line 1
    path = _write(tmp_path, f"target: echo\n{CASES}calibration: {long}\n")
    assert _problems(path) == [f"{path}:3: calibration: cannot read the calibration file: File name too long "
                               f"({'x' * 200!r}, line 1){hint}"]
    path = _write(tmp_path, f"target: echo\n{CASES}")
    assert _problems(path, calibration=long) == [
        f"{long}:1: cannot read the calibration file: File name too long{hint}"]


def test_a_calibration_path_with_a_nul_byte(tmp_path):
    path = _write(tmp_path, f'target: echo\n{CASES}calibration: "a\\0b"\n')
    assert _problems(path) == [f"{path}:3: calibration: calibration file 'a\\x00b' cannot be used: embedded null byte"]
    path = _write(tmp_path, f"target: echo\n{CASES}")
    assert _problems(path, calibration="a\0b") == [
        f"{path}:1: calibration file 'a\\x00b' cannot be used: embedded null byte"]


def test_a_suite_file_that_does_not_decode_or_parse_names_its_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b'name: s\ntarget: echo\ncases:\n  - prompt: "h\xff"\n')
    assert _problems(bad) == [f"{bad}:4: suite file is not UTF-8 text: invalid start byte"]
    bad.write_bytes(b'\nname: s\n\xff\n')  # lines are counted from the first byte
    assert _problems(bad) == [f"{bad}:3: suite file is not UTF-8 text: invalid start byte"]
    broken = _write(tmp_path, "name: s\ncases: [\n", "broken.yaml")
    assert _problems(broken) == [f"{broken}:3: invalid YAML: did not find expected node content"]
    broken = _write(tmp_path, '{"name": "s",\n "cases": [}\n', "broken.json")
    assert _problems(broken) == [f"{broken}:2: invalid JSON: Expecting value"]
    upper = _write(tmp_path, f"target: echo\n{CASES}", "suite.JSON")  # read as JSON whatever the suffix's case
    assert _problems(upper) == [f"{upper}:1: invalid JSON: Expecting value"]


def test_a_promptfoo_config_is_read_as_one(tmp_path):
    path = _write(tmp_path, 'prompts: ["{{q}}"]\nproviders: [echo]\ntests: [{vars: {q: hi}}]\n', "promptfooconfig.yaml")
    suite = load_suite(path)
    assert type(suite).__name__ == "PromptfooSuite" and suite.target == {"type": "echo"}
    assert [case.query for case in suite.iter_cases()] == ["hi"]
