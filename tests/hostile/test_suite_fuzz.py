"""Issue 11, "clear errors, exit 2, with file:line:field, before the first call": the faults of the
978-suite campaign replayed one by one, then the campaign itself as a bounded, derandomized
hypothesis test over mutations of the example suites and cases files, run in-process with the echo
target and recorded outputs (never a network).
"""

from __future__ import annotations

import copy
import csv
import io
import json
import math
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from agentunit.cli import app
from agentunit.errors import MetricConfigError
from agentunit.metrics import registry
from agentunit.metrics.base import Metric
from agentunit.metrics.registry import lookup, register_metric

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
MARK = "# <-"  # marks the line a problem must be reported at


def _invoke(suite: Path, *args: str) -> Any:
    return CliRunner().invoke(app, ["run", str(suite), "--db", str(suite.parent / "r.db"), "-q", *args])


def _write(tmp_path: Path, text: str, files: dict[str, str | bytes] | None = None, name: str = "s.yaml") -> Path:
    for file_name, content in {**(files or {}), name: text}.items():
        # a lone surrogate written as its (invalid) UTF-8 bytes: a file no UTF-8 reader accepts
        data = content if isinstance(content, bytes) else content.encode("utf-8", "surrogatepass")
        (tmp_path / file_name).write_bytes(data)
    return tmp_path / name


def _marked_line(text: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if MARK in line)


ECHO = "target: {type: echo}\n"
CASE = "cases:\n  - {prompt: hi, metrics: [{metric: contains, value: hi}]}\n"
BROKEN_MODULE = "def answer(prompt:\n    return prompt\n"

# (id, suite text with the problem's line marked, extra files, field, part of the message)
REPLAYS = [
    ("invalid judge provider", ECHO + "judge: {provider: nope}  " + MARK + "\n" + CASE,
     {}, "judge.provider", "must be one of local, openai, anthropic, ensemble, got 'nope'"),
    ("judge concurrency 0", ECHO + "judge:\n  concurrency: 0  " + MARK + "\n" + CASE,
     {}, "judge.concurrency", "must be an integer ≥ 1, got 0"),
    ("judge timeout nan", ECHO + "judge:\n  timeout: .nan  " + MARK + "\n" + CASE,
     {}, "judge.timeout", "must be a finite number > 0, got nan"),
    ("empty concurrency", ECHO + "options:\n  concurrency:  " + MARK + "\n" + CASE,
     {}, "options.concurrency", "got nothing"),
    ("empty repeat", ECHO + "options:\n  repeat:  " + MARK + "\n" + CASE, {}, "options.repeat", "got nothing"),
    ("400-digit concurrency", ECHO + "options:\n  concurrency: " + "9" * 400 + "  " + MARK + "\n" + CASE,
     {}, "options.concurrency", "got a 400-digit number"),
    ("infinite timeout", ECHO + "options:\n  timeout: .inf  " + MARK + "\n" + CASE,
     {}, "options.timeout", "got inf"),
    ("a list as target type", "target:\n  type: [echo]  " + MARK + "\n" + CASE,
     {}, "target.type", "target type must be a name, got a list"),
    ("python target SyntaxError", "target:\n  type: python\n  function: broken_module:answer  " + MARK + "\n"
     + CASE, {"broken_module.py": BROKEN_MODULE}, "target.function",
     "cannot build the target: cannot import module 'broken_module' for target function 'broken_module:answer': "
     "SyntaxError"),
    ("python target raising on import", "target:\n  type: python\n  function: raising_module:f  " + MARK + "\n"
     + CASE, {"raising_module.py": "1 / 0\n"}, "target.function", "ZeroDivisionError"),
    ("unclosed quote in argv", "target:\n  type: command\n  argv: echo 'x  " + MARK + "\n" + CASE,
     {}, "target.argv", "No closing quotation"),
    ("retries that are not whole", "target:\n  type: http\n  url: http://127.0.0.1:9/\n  retries: 2.5  " + MARK
     + "\n" + CASE, {}, "target.retries", "must be an integer ≥ 0, got 2.5"),
    ("render-time template error", ECHO + "cases:\n  - prompt: '{{ [1, \"a\"] | sum }}'  " + MARK + "\n",
     {}, "cases[0].prompt", "template error: TypeError"),
    ("400-digit threshold", ECHO + "cases:\n  - prompt: hi\n    threshold: " + "9" * 400 + "  " + MARK + "\n",
     {}, "cases[0].threshold", "got a 400-digit number"),
    ("NaN case threshold", ECHO + "cases:\n  - prompt: hi\n    threshold: .nan  " + MARK + "\n"
     "    metrics: [{metric: contains, value: hi}]\n", {}, "cases[0].threshold", "got nan"),
    ("infinite suite threshold", ECHO + "defaults:\n  threshold: -.inf  " + MARK + "\n" + CASE,
     {}, "defaults.threshold", "got -inf"),
    ("infinite metric threshold", ECHO + "cases:\n  - prompt: hi\n    metrics:\n"
     "      - {metric: contains, value: hi, threshold: .inf}  " + MARK + "\n",
     {}, "cases[0].metrics[0].threshold", "got inf"),
    ("NaN weight", ECHO + "metrics:\n  - {metric: contains, value: hi, weight: .nan}  " + MARK + "\n" + CASE,
     {}, "metrics[0].weight", "got nan"),
    ("missing target", "cases:\n  - prompt: hi  " + MARK + "\n    metrics: [{metric: contains, value: hi}]\n",
     {}, "cases[0].output", "no recorded `output` and the suite has no `target`"),
    ("cases not a list", ECHO + "cases: {prompt: hi}  " + MARK + "\n", {}, "cases", "cases must be a list"),
    ("vars not an object", ECHO + "cases:\n  - prompt: hi\n    vars: [a]  " + MARK + "\n",
     {}, "cases[0].vars", "vars must be an object, got a list"),
    ("conversation of strings", ECHO + "cases:\n  - output: x\n    conversation: [hi]  " + MARK + "\n",
     {}, "cases[0].conversation", "item 0 must be a turn {role, content}"),
    ("name that is a list", ECHO + "name: [a]  " + MARK + "\n" + CASE, {}, "name", "must be text or a number"),
    ("empty g-eval criteria", ECHO + "cases:\n  - prompt: hi\n    metrics:\n"
     "      - {metric: g-eval, value: ' '}  " + MARK + "\n", {}, "cases[0].metrics[0].value", "is empty"),
    ("factuality score out of range", ECHO + "metrics:\n  - {metric: factuality, value: x, config: {scores: "
     "{subset: .nan}}}  " + MARK + "\n" + CASE, {}, "metrics[0].config", "config.scores.subset must be"),
    ("duplicate id", ECHO + "cases:\n  - {id: a, prompt: hi}\n  - {id: a, prompt: ho}  " + MARK + "\n",
     {}, "cases[1].id", "duplicate case id 'a'"),
    ("no cases", ECHO + "cases: []  " + MARK + "\n", {}, "cases", "the suite has no cases"),
]


@pytest.mark.parametrize(("text", "files", "field", "message"), [r[1:] for r in REPLAYS], ids=[r[0] for r in REPLAYS])
def test_each_fault_of_the_campaign_exits_2_naming_file_line_and_field(tmp_path, text, files, field, message):
    suite = _write(tmp_path, text, files)
    result = _invoke(suite)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    expected = f"{suite}:{_marked_line(text)}: {field}: "
    assert any(line.startswith(expected) and message in line for line in result.stderr.splitlines()), result.stderr


class _PickyMetric(Metric):
    """A user metric whose setup rejects its value with an exception of its own choosing."""

    def setup(self) -> None:
        if self.value == "config-error":
            raise MetricConfigError("config.mode must be fast or slow")
        raise OverflowError("the value is too large for this metric")

    def evaluate(self, case, trace, outcome):  # pragma: no cover - never built
        raise AssertionError


@pytest.mark.parametrize(("value", "field", "message"), [
    ("config-error", "metrics[0].config", "config.mode must be fast or slow"),
    ("anything", "metrics[0]", "cannot build metric 'picky': OverflowError: the value is too large"),
])
def test_any_metric_setup_failure_is_a_suite_problem(tmp_path, value, field, message):
    with registry.restored():
        register_metric("picky", _PickyMetric, value="required")
        text = ECHO + f"metrics:\n  - {{metric: picky, value: {value}}}  {MARK}\n" + CASE
        suite = _write(tmp_path, text)
        result = _invoke(suite)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"{suite}:{_marked_line(text)}: {field}: {message}" in result.stderr, result.stderr


@pytest.mark.parametrize(("name", "content", "line", "message"), [
    ("c.json", "[" * 100_000 + "]" * 100_000, 1, "invalid JSON: nested too deeply"),
    ("c.jsonl", '{"prompt": "a", "output": "a"}\n' + "[" * 100_000 + "]" * 100_000 + "\n", 2,
     "invalid JSON: nested too deeply"),
    ("c.yaml", "- {prompt: a, output: a}\n- " + "[" * 100_000 + "]" * 100_000 + "\n", 2, "invalid YAML"),
    ("c.json", '[\n {"prompt": "a",\n  "threshold": ' + "9" * 5000 + "}]", 3, "invalid JSON: Exceeds the limit"),
    ("c.jsonl", '{"prompt": "a"}\n{"prompt": "\xff"}\n'.encode("latin-1"), 2, "not UTF-8 text"),
    ("c.txt", "prompt\na\n", 1, "unsupported cases file type '.txt'"),
])
def test_unreadable_cases_files_exit_2_with_their_line(tmp_path, name, content, line, message):
    suite = _write(tmp_path, ECHO + f"cases_file: {name}\n", {name: content})
    result = _invoke(suite)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert f"{tmp_path / name}:{line}: " in result.stderr and message in result.stderr, result.stderr


def test_a_deeply_nested_json_suite_exits_2_with_its_line(tmp_path):
    suite = _write(tmp_path, '{"cases":\n ' + "[" * 100_000 + "]" * 100_000 + "}", name="s.json")
    result = _invoke(suite)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"{suite}:1: invalid JSON: nested too deeply to read" in result.stderr


def test_a_csv_field_over_131072_characters_is_read(tmp_path):
    prompt = "long " * 30_000  # 150,000 characters, over the csv module's default field limit
    suite = _write(tmp_path, ECHO + "cases_file: c.csv\nmetrics: [{metric: starts-with, value: long}]\n",
                   {"c.csv": f"id,prompt\nbig,{prompt}\n"})
    report = tmp_path / "out.json"
    result = _invoke(suite, "-o", str(report))
    assert result.exit_code == 0, result.output
    assert json.loads(report.read_text())["cases"][0]["prompt"] == prompt


@pytest.mark.parametrize("args", [["-j", "1000000000"], ["--concurrency", str(2**63 - 1)]])
def test_absurd_job_counts_are_accepted(tmp_path, args):
    result = _invoke(_write(tmp_path, ECHO + CASE), *args)
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "0"])
def test_a_timeout_that_is_not_a_finite_positive_number_is_a_usage_error(tmp_path, value):
    result = _invoke(_write(tmp_path, ECHO + CASE), "--timeout", value)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "--timeout" in result.output


# -- the campaign, as a property -------------------------------------------------------------------

_HEAVY_FAMILIES = ("sustainability",)  # resource meters: real but slow to sample; not what is fuzzed here
SAFE_METRICS = ["contains", "equals", "icontains", "starts-with", "regex", "word-count", "contains-any",
                "levenshtein", "is-json", "latency", "token_usage", "tool_success", "not-contains"]


def _offline(metric: Any) -> bool:
    """A metric that needs no model and no judge (so a run stays in-process and fast)."""
    name = metric if isinstance(metric, str) else metric.get("type", metric.get("metric")) \
        if isinstance(metric, dict) else None
    try:
        info, _ = lookup(str(name))
    except Exception:
        return True  # unknown names are part of what is fuzzed
    return info.model is None and info.family not in _HEAVY_FAMILIES and info.name not in ("python", "pii_leakage")


def _sanitize(node: Any) -> Any:
    """The example suites with the echo target, recorded outputs where a judge would be needed, and only
    metrics that run offline."""
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key in ("metrics", "assert") and isinstance(value, list):
                value = [_sanitize(m) for m in value if _offline(m)]
            out[key] = _sanitize(value)
        return out
    if isinstance(node, list):
        return [_sanitize(v) for v in node]
    return node


def _seed_suites() -> list[dict[str, Any]]:
    seeds = []
    for path in sorted(EXAMPLES.glob("*.yaml")):
        data = _sanitize(yaml.safe_load(path.read_text()))
        data["target"] = {"type": "echo"}
        data.pop("cases_file", None)
        data.pop("judge", None)
        seeds.append(data)
    return seeds


SEEDS = _seed_suites()
CASE_FILES = {"more_cases.jsonl": (EXAMPLES / "more_cases.jsonl").read_text(),
              "quickstart_cases.csv": (EXAMPLES / "quickstart_cases.csv").read_text(),
              "cases.yaml": yaml.safe_dump([{"id": "y", "prompt": "p", "metrics": ["equals"], "expected_output": "p"}])}
DEEP = "\x00DEEP\x00"  # replaced by 3,000 levels of nesting after serialisation
HOSTILE = [None, "", [], {}, True, 0, -1, 2.5, 10**400, -(10**400), math.nan, math.inf, -math.inf, "\ud83d",
           "x" * 150_000, DEEP, "{{ x", "{{ 1/0 }}", "{{ cycler.__init__ }}", "{{ undefined_name }}",
           "{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}", "(", "a{1000000000}",
           "(a+)+$", "\x1b[2J", "nope", "echo", "python", "command", "http", "openai", "local",
           "broken_module:answer", "no_such_module:f", "echo 'unclosed", ["echo", "{{ prompt }}"],
           {"type": "echo"}, {"type": ["echo"]}, {"provider": "nope"}, {"concurrency": 0}, {"timeout": math.nan},
           {"metric": "g-eval", "value": ""}, {"metric": "regex", "value": "("}, {"metric": "nope"},
           "cases.yaml", "more_cases.jsonl", "quickstart_cases.csv", "missing.jsonl", "../" * 40]
ADDABLE_KEYS = ["threshold", "weight", "concurrency", "repeat", "timeout", "cache", "allow_unmeasured", "judge",
                "target", "prompt", "vars", "output", "metrics", "cases_file", "provider", "type", "argv", "url",
                "function", "config", "conversation", "expected_tools", "id", "unknown_field"]


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _paths(value, (*prefix, index))
    return found


def _parent(tree: Any, path: tuple[Any, ...]) -> Any:
    for key in path[:-1]:
        tree = tree[key]
    return tree


def _swap_type(value: Any) -> Any:
    if isinstance(value, str):
        return [value]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, dict):
        return list(value.values())
    if isinstance(value, list):
        return {str(i): v for i, v in enumerate(value)}
    return "true" if isinstance(value, bool) else 0


@st.composite
def mutated_suites(draw: Any) -> tuple[dict[str, Any], str, dict[str, str]]:
    """(suite data, format, cases files) after 1–3 mutations: deletions, type swaps, hostile values
    (huge/NaN/inf numbers, lone surrogates, long strings, deep nesting, bad templates, regexes,
    targets and judge configs) and added keys, in the suite or in a cases file."""
    tree = copy.deepcopy(SEEDS[draw(st.integers(0, len(SEEDS) - 1))])
    files = dict(CASE_FILES)
    if draw(st.booleans()):
        tree["cases_file"] = draw(st.sampled_from(sorted(CASE_FILES)))
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(tree)
        path = draw(st.sampled_from(paths[1:])) if len(paths) > 1 else ()
        operation = draw(st.sampled_from(["delete", "swap", "hostile", "add", "case-file"]))
        if operation == "case-file":
            files = _mutate_case_file(draw, files)
            continue
        if operation == "add":
            container = _parent(tree, path) if path else tree
            if isinstance(container, dict):
                container[draw(st.sampled_from(ADDABLE_KEYS))] = draw(st.sampled_from(HOSTILE))
            continue
        if not path:
            continue
        parent = _parent(tree, path)
        if operation == "delete":
            del parent[path[-1]]
        elif operation == "swap":
            parent[path[-1]] = _swap_type(parent[path[-1]])
        else:
            parent[path[-1]] = draw(st.sampled_from(HOSTILE))
    return tree, draw(st.sampled_from(["yaml", "json"])), files


def _mutate_case_file(draw: Any, files: dict[str, str]) -> dict[str, str]:
    name = draw(st.sampled_from(sorted(files)))
    value = draw(st.sampled_from(HOSTILE))
    if name.endswith(".jsonl"):
        records = [json.loads(line) for line in CASE_FILES[name].splitlines() if line.strip()]
        record = records[draw(st.integers(0, len(records) - 1))]
        record[draw(st.sampled_from(["prompt", "threshold", "metrics", "id", "vars", "expected_output"]))] = value
        text = "\n".join(_dumps(r) for r in records) + draw(st.sampled_from(["\n", "\n{broken\n", "\n" + DEEP + "\n"]))
    elif name.endswith(".csv"):
        rows = list(csv.reader(io.StringIO(CASE_FILES[name])))
        row, column = draw(st.integers(0, len(rows) - 1)), draw(st.integers(0, len(rows[0]) - 1))
        while len(rows[row]) <= column:
            rows[row].append("")
        rows[row][column] = value if isinstance(value, str) else _dumps(value)
        out = io.StringIO()
        csv.writer(out).writerows(rows)
        text = out.getvalue() + draw(st.sampled_from(["", '"unclosed,quote\n', "a,b,c,d,e,f\n"]))
    else:
        records = yaml.safe_load(CASE_FILES[name])
        records[0][draw(st.sampled_from(["prompt", "threshold", "metrics", "expected_output"]))] = value
        text = _dumps(records)  # JSON is YAML
    return {**files, name: text}


def _dumps(data: Any) -> str:
    text = json.dumps(data)  # NaN/Infinity and \ud83d escapes, as a JSON writer would produce them
    return text.replace(json.dumps(DEEP), "[" * 3000 + "]" * 3000)


def _serialize(tree: dict[str, Any], fmt: str) -> str:
    if fmt == "json":
        return _dumps(tree)
    try:
        text = yaml.safe_dump(tree, allow_unicode=False, sort_keys=False)
    except yaml.YAMLError:  # lone surrogates cannot be written as YAML: write JSON (it is YAML too)
        return _dumps(tree)
    return text.replace(yaml.safe_dump(DEEP).split("\n")[0], "[" * 3000 + "]" * 3000)


_LOCATED = re.compile(r"^(?:warning: )?(?P<file>/[^:]+):(?P<line>\d+): ")


@settings(derandomize=True, max_examples=120, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture])
@given(mutated_suites(), st.booleans(), st.booleans())
def test_mutated_suites_exit_0_1_or_2_without_a_traceback_and_locate_every_problem(tmp_path, case, dry_run, quiet):
    tree, fmt, files = case
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    suite = _write(folder, _serialize(tree, fmt), {**files, "broken_module.py": BROKEN_MODULE}, name=f"s.{fmt}")
    args = ["run", str(suite), "--db", str(folder / "r.db"), *(["--dry-run"] if dry_run else []),
            *(["-q"] if quiet else [])]
    result = CliRunner().invoke(app, args)
    output = result.output
    event(f"exit {result.exit_code}")  # the mix shows with --hypothesis-show-statistics
    assert result.exit_code in (0, 1, 2), output
    assert "Traceback" not in output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    if result.exit_code == 2:
        problems = [line for line in result.stderr.splitlines() if not line.startswith("warning: ")]
        assert problems, output
        for line in problems:
            match = _LOCATED.match(line)
            assert match and Path(match["file"]).parent == folder, f"no file:line in {line!r}"
