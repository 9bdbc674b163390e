"""Tests for a program, as ``code-correctness`` takes them, and running them in the sandbox.

Four shapes of ``value`` (``parse_tests``):

- ``{tests: CODE, entry_point: NAME}``: HumanEval — CODE defines ``check(candidate)``; each statement
  of ``check`` holding an ``assert`` is one test (``agentunit.code._harness``);
- a string: Python assertion code run after the program, in its namespace; each top-level statement
  holding an ``assert`` is one test;
- a list of ``{stdin | args, expected_stdout}``: one run of the program per pair, in any language;
  the test passes when the run exits 0 and its stdout equals the expected one (trailing spaces and
  blank lines ignored);
- ``{command: CMD | [CMD, …], files: {name: text}}``: each command runs with ``sh -c`` in the
  sandbox directory, where the program is saved under its language's file name (or ``filename``)
  next to ``files``; it passes when it exits 0.
"""

from __future__ import annotations

import ast
import asyncio
import dataclasses
import json
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentunit.code import _harness
from agentunit.code.languages import Language, command_for, get_language
from agentunit.code.sandbox import RunResult, Sandbox
from agentunit.errors import MetricConfigError

HARNESS_FILE = "_agentunit_tests.py"
_PARALLEL_RUNS = 4  # I/O pairs of one case run this many at a time (the engine's -j multiplies it)


@dataclass(frozen=True)
class TestSpec:
    """Parsed tests: ``kind`` is ``check``, ``asserts``, ``io`` or ``command``."""

    kind: str
    code: str = ""
    entry_point: str = ""
    pairs: tuple[dict[str, Any], ...] = ()
    commands: tuple[str, ...] = ()
    files: dict[str, str] = field(default_factory=dict)
    filename: str | None = None

    @property
    def python_only(self) -> bool:
        return self.kind in ("check", "asserts")

    def count(self) -> int:
        """How many tests the spec holds, before anything runs."""
        if self.kind == "io":
            return len(self.pairs)
        if self.kind == "command":
            return len(self.commands)
        return len(self.python_tests())

    def python_tests(self) -> list[str]:
        """The source of each Python test, in order (as the harness labels them)."""
        statements, _ = _harness.test_statements(ast.parse(self.code), self.kind)
        if statements == "call":
            return [f"check({self.entry_point})"]
        return [(ast.get_source_segment(self.code, node) or "")[:300] for node, is_test in statements if is_test]


@dataclass
class TestOutcome:
    """One test's verdict, with what failed and the tail of its traceback."""

    test: str
    passed: bool
    error: str | None = None
    traceback: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in dataclasses.asdict(self).items() if v not in (None, [])}


@dataclass
class TestReport:
    """Every test's outcome, the runs they took (described) and the isolation in effect."""

    outcomes: list[TestOutcome]
    runs: list[RunResult]

    @property
    def passed(self) -> int:
        return sum(o.passed for o in self.outcomes)

    @property
    def total(self) -> int:
        return len(self.outcomes)


def parse_tests(value: Any) -> TestSpec:
    """A TestSpec from a metric's value; MetricConfigError naming the accepted shapes otherwise."""
    if isinstance(value, str):
        _compile_python(value, "the assertion code")
        spec = TestSpec("asserts", code=value)
    elif isinstance(value, list):
        spec = TestSpec("io", pairs=tuple(_pair(item, i) for i, item in enumerate(value)))
    elif isinstance(value, dict) and "tests" in value:
        spec = _check_spec(value)
    elif isinstance(value, dict) and "command" in value:
        spec = _command_spec(value)
    else:
        raise MetricConfigError("code-correctness tests are {tests: CODE, entry_point: NAME}, Python assertion "
                                "code, a list of {stdin | args, expected_stdout} or {command: …, files: {…}}; "
                                f"got {type(value).__name__}")
    if spec.count() == 0:
        raise MetricConfigError("the tests hold no test (no assert statement, pair or command)")
    return spec


def _compile_python(code: Any, what: str) -> None:
    if not isinstance(code, str) or not code.strip():
        raise MetricConfigError(f"{what} must be non-empty Python code")
    try:
        ast.parse(code)
    except SyntaxError as exc:
        raise MetricConfigError(f"{what} does not compile: {exc.msg} (line {exc.lineno})") from None


def _check_spec(value: dict[str, Any]) -> TestSpec:
    unknown = set(value) - {"tests", "entry_point"}
    if unknown:
        raise MetricConfigError(f"unknown key(s) {sorted(unknown)} in {{tests, entry_point}}")
    _compile_python(value["tests"], "tests")
    entry = value.get("entry_point")
    if not isinstance(entry, str) or not entry.isidentifier():
        raise MetricConfigError("HumanEval-shaped tests need entry_point: the name of the function to check")
    statements, _ = _harness.test_statements(ast.parse(value["tests"]), "check")
    if statements is None:
        raise MetricConfigError("tests must define check(candidate) (the HumanEval shape)")
    return TestSpec("check", code=value["tests"], entry_point=entry)


def _pair(item: Any, index: int) -> dict[str, Any]:
    if not isinstance(item, dict) or "expected_stdout" not in item:
        raise MetricConfigError(f"test {index}: each pair is {{stdin | args, expected_stdout}}")
    unknown = set(item) - {"stdin", "args", "expected_stdout"}
    if unknown:
        raise MetricConfigError(f"test {index}: unknown key(s) {sorted(unknown)}")
    args = item.get("args", [])
    if isinstance(args, str):
        args = args.split()
    if not isinstance(args, list):
        raise MetricConfigError(f"test {index}: args must be a list")
    stdin = item.get("stdin")
    if stdin is not None and not isinstance(stdin, str):
        stdin = json.dumps(stdin) if isinstance(stdin, dict | list) else str(stdin)
    return {"stdin": stdin, "args": [str(a) for a in args], "expected_stdout": str(item["expected_stdout"])}


def _command_spec(value: dict[str, Any]) -> TestSpec:
    unknown = set(value) - {"command", "files", "filename"}
    if unknown:
        raise MetricConfigError(f"unknown key(s) {sorted(unknown)} in {{command, files, filename}}")
    commands = value["command"]
    commands = [commands] if isinstance(commands, str) else commands
    if not isinstance(commands, list) or not all(isinstance(c, str) and c.strip() for c in commands):
        raise MetricConfigError("command must be a shell command or a list of them")
    files = value.get("files") or {}
    if not isinstance(files, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in files.items()):
        raise MetricConfigError("files must map file names to their text")
    filename = value.get("filename")
    if filename is not None and (not isinstance(filename, str) or "/" in filename or not filename):
        raise MetricConfigError("filename must be a plain file name")
    return TestSpec("command", commands=tuple(commands), files=dict(files), filename=filename)


def same_stdout(got: str, expected: str) -> bool:
    """Stdout equality ignoring trailing spaces on each line and trailing blank lines."""
    def norm(text: str) -> list[str]:
        return [line.rstrip() for line in text.replace("\r\n", "\n").rstrip().split("\n")]
    return norm(got) == norm(expected)


async def run_tests(code: str, language: str, spec: TestSpec, sandbox: Sandbox) -> TestReport:
    """Run every test of ``spec`` against the program ``code`` written in ``language``."""
    if spec.python_only:
        return await _run_python_tests(code, spec, sandbox)
    if spec.kind == "io":
        return await _run_pairs(code, language, spec, sandbox)
    return await _run_commands(code, get_language(language), spec, sandbox)


async def _run_python_tests(code: str, spec: TestSpec, sandbox: Sandbox) -> TestReport:
    harness = dataclasses.replace(get_language("python"), filename=HARNESS_FILE)
    argv, mounts = command_for(harness, [spec.kind, spec.entry_point] if spec.entry_point else [spec.kind])
    nonce = secrets.token_hex(16)
    source = Path(_harness.__file__).read_text(encoding="utf-8")
    run = await sandbox.run({"main.py": code, HARNESS_FILE: source, _harness.TESTS: spec.code}, argv,
                            stdin=nonce + "\n", mounts=mounts)
    outcomes, load_error, done = _read_reports(run, nonce)
    labels = spec.python_tests()
    if load_error is not None:
        outcomes = [TestOutcome(label, False, load_error["load_error"], load_error.get("traceback", []))
                    for label in labels]
    elif not done:  # stopped half-way (timeout, a limit, the program exited): the rest did not pass
        why = run.failure() or "the run ended before the tests finished"
        tail = run.stderr.strip().splitlines()[-12:]
        finished = sum(not o.test.startswith("setup: ") for o in outcomes)
        outcomes += [TestOutcome(label, False, why, tail) for label in labels[finished:]]
    # What the program printed, without the harness's report lines.
    run.stdout = "\n".join(line for line in run.stdout.split("\n") if not line.startswith(f"@@agentunit {nonce}"))
    return TestReport(outcomes, [run])


def _read_reports(run: RunResult, nonce: str) -> tuple[list[TestOutcome], dict[str, Any] | None, bool]:
    marker = f"@@agentunit {nonce} "
    outcomes, load_error, done = [], None, False
    for line in run.stdout.split("\n"):
        if not line.startswith(marker):
            continue
        report = json.loads(line[len(marker):])
        if report.get("done"):
            done = True
        elif "load_error" in report:
            load_error = report
        else:
            label = ("setup: " if report.get("setup") else "") + report["test"]
            outcomes.append(TestOutcome(label, report["passed"], report.get("error"), report.get("traceback", [])))
    return outcomes, load_error, done


async def _run_pairs(code: str, language: str, spec: TestSpec, sandbox: Sandbox) -> TestReport:
    gate = asyncio.Semaphore(_PARALLEL_RUNS)

    async def one(pair: dict[str, Any]) -> RunResult:
        async with gate:
            return await sandbox.run_program(code, language, args=pair["args"], stdin=pair["stdin"])

    runs = await asyncio.gather(*(one(p) for p in spec.pairs))
    outcomes = []
    for i, (pair, run) in enumerate(zip(spec.pairs, runs, strict=True)):
        label = f"pair {i}" + (f" args={pair['args']}" if pair["args"] else "") + \
            (f" stdin={pair['stdin'][:80]!r}" if pair["stdin"] is not None else "")
        if not run.ok:
            outcomes.append(TestOutcome(label, False, run.failure(), run.stderr.strip().splitlines()[-12:]))
        elif not same_stdout(run.stdout, pair["expected_stdout"]):
            outcomes.append(TestOutcome(label, False, f"expected stdout {pair['expected_stdout'][:200]!r}, "
                                                      f"got {run.stdout[:200]!r}"))
        else:
            outcomes.append(TestOutcome(label, True))
    return TestReport(outcomes, list(runs))


async def _run_commands(code: str, language: Language, spec: TestSpec, sandbox: Sandbox) -> TestReport:
    _, mounts = command_for(language)  # the interpreter the commands will call must be visible too
    files = {**spec.files, spec.filename or language.filename: code}
    outcomes, runs = [], []
    for command in spec.commands:
        run = await sandbox.run(files, ["/bin/sh", "-c", command], mounts=mounts)
        runs.append(run)
        tail = (run.stderr.strip() or run.stdout.strip()).splitlines()[-12:]
        outcomes.append(TestOutcome(command, run.ok, run.failure(), [] if run.ok else tail))
    return TestReport(outcomes, runs)
