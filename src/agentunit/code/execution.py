"""The execution metrics: ``code-execution`` (the program runs) and ``code-correctness`` (it passes tests).

Both extract the program from the output (``agentunit.code.extract``), pick its language and run it
in the sandbox (``agentunit.code.sandbox``) under the limits of their config.
"""

from __future__ import annotations

from typing import Any

from agentunit.code.extract import CodeBlock, check_block_config, normalise_language, select_code
from agentunit.code.languages import UnknownLanguage, get_language, languages
from agentunit.code.sandbox import ISOLATIONS, Limits, RunResult, Sandbox
from agentunit.code.testing import TestReport, TestSpec, parse_tests, run_tests, same_stdout
from agentunit.core.sync import run_blocking
from agentunit.errors import MetricConfigError
from agentunit.metrics.base import Metric, MetricResult
from agentunit.metrics.registry import register

__all__ = ["CodeCorrectnessMetric", "CodeExecutionMetric"]

_LIMIT_KEYS = ("timeout", "cpu_seconds", "memory_mb", "processes", "file_size_mb", "open_files", "disk_mb",
               "output_kb")
_COMMON_KEYS = ("language", "block", "sandbox", *_LIMIT_KEYS)
_SHOWN_TESTS = 50


class _SandboxedMetric(Metric):
    """Shared by the execution metrics: config checks, the program and its language, the sandbox."""

    _keys: tuple[str, ...] = _COMMON_KEYS

    def setup(self) -> None:
        c = self.config
        unknown = sorted(set(c) - set(self._keys))
        if unknown:
            raise MetricConfigError(f"unknown config key(s) {unknown}; known: {', '.join(self._keys)}")
        check_block_config(c.get("block", "first"))
        if c.get("language") is not None:
            try:
                get_language(str(c["language"]))
            except UnknownLanguage as exc:
                raise MetricConfigError(str(exc)) from None
        isolation = c.get("sandbox", "bubblewrap")
        if isolation not in ISOLATIONS:
            raise MetricConfigError(f"config.sandbox must be bubblewrap (the default) or none, got {isolation!r}")
        self.sandbox = Sandbox(isolation, Limits.from_config(c))

    def evaluate(self, case, trace, outcome) -> MetricResult:
        return run_blocking(self.evaluate_async(case, trace, outcome))

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        raise NotImplementedError

    def _program(self, output: str) -> tuple[str, str, dict[str, Any]] | MetricResult:
        """The code to run, its language and a detail naming the blocks used; or the result when there
        is nothing runnable (no code fails; code in a language the sandbox cannot run is not measured)."""
        blocks, why = select_code(output, self.config.get("block", "first"))
        if not blocks:
            return self.result(0.0, passed=False, reason=f"no program to run: {why}", detail={"code": None})
        language = self._language(blocks)
        if language is None:
            tag = next(b.tag for b in blocks if b.tag)
            return self.not_measured(f"the code is tagged {tag!r}, which the sandbox does not run (languages: "
                                     f"{', '.join(languages())}); set config.language or add the language")
        if len(blocks) > 1:  # block: all — the blocks of that language (or untagged), in order
            blocks = [b for b in blocks if b.tag in (None, language)]
        code = "\n\n".join(b.code for b in blocks)
        return code, language, {"language": language, "blocks": [b.describe() for b in blocks]}

    def _language(self, blocks: list[CodeBlock]) -> str | None:
        configured = self.config.get("language")
        if configured:
            return get_language(str(configured)).name
        tag = next((b.tag for b in blocks if b.tag), None)
        if tag is None:
            return "python"
        return normalise_language(tag) if normalise_language(tag) in languages() else None


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1].strip()[:200] if lines else ""


@register("code-execution", family="code", aliases=("code_execution",), needs=("output",),
          value="optional", kind="binary",
          example="{metric: code-execution, config: {language: python, stdin: \"3 4\\n\", expected_stdout: \"7\"}}")
class CodeExecutionMetric(_SandboxedMetric):
    """The program in the output runs: it exits 0 within the limits (and prints ``expected_stdout``).

    The program is the output's first fenced block (``config.block``: ``first``, ``last``, ``all`` —
    the blocks of the chosen language, joined — or a number from 0), else the whole output. Its
    language is ``config.language``, else the fence's tag, else Python; Python, JavaScript (node)
    and Bash run, more can be added (``agentunit.code.register_language``); a block tagged with a
    language the sandbox does not run is not measured. It runs in the sandbox (docs/code-and-moderation.md)
    with ``stdin`` and ``args`` if given. Value 1 when it exits 0 by itself — not stopped by the
    timeout or the output cap, not killed by a signal — and, when ``expected_stdout`` (or the
    metric's ``value``) is given, its stdout equals it (trailing spaces and blank lines ignored);
    else 0. An output without code scores 0: the model was asked for a program and gave none.

    The detail names the blocks used, the language, the exit code or signal, every limit hit, the
    isolation in effect and the tails of stdout and stderr. Without bubblewrap the result is an error
    naming the install command, unless ``sandbox: none`` asks to run without filesystem isolation.

    Options: ``language``, ``block``, ``stdin``, ``args`` (list), ``expected_stdout``, ``sandbox``
    (``bubblewrap`` | ``none``), ``timeout`` (10 s wall clock), ``cpu_seconds`` (the timeout),
    ``memory_mb`` (1024, address space), ``processes`` (64), ``file_size_mb`` (16), ``open_files``
    (256), ``disk_mb`` (64), ``output_kb`` (1024 per stream).
    """

    _keys = (*_COMMON_KEYS, "stdin", "args", "expected_stdout")

    def setup(self) -> None:
        super().setup()
        c = self.config
        args = c.get("args", [])
        if isinstance(args, str):
            args = args.split()
        if not isinstance(args, list):
            raise MetricConfigError("config.args must be a list of arguments")
        self.args = [str(a) for a in args]
        stdin = c.get("stdin")
        if stdin is not None and not isinstance(stdin, str):
            raise MetricConfigError("config.stdin must be text")
        self.stdin = stdin
        expected = self.value if self.value is not None else c.get("expected_stdout")
        if expected is not None and not isinstance(expected, str | int | float):
            raise MetricConfigError("the expected stdout (value or config.expected_stdout) must be text")
        self.expected_stdout = None if expected is None else str(expected)

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        program = self._program(str(outcome.output))
        if isinstance(program, MetricResult):
            return program
        code, language, detail = program
        run = await self.sandbox.run_program(code, language, args=self.args, stdin=self.stdin)
        detail["run"] = run.describe()
        if not run.ok:
            error = _last_line(run.stderr)
            return self.result(0.0, passed=False, detail=detail,
                               reason=f"{language} program failed: {run.failure()}" + (f" — {error}" if error else ""))
        if self.expected_stdout is not None:
            matches = same_stdout(run.stdout, self.expected_stdout)
            detail["expected_stdout"] = self.expected_stdout
            detail["stdout_matches"] = matches
            if not matches:
                return self.result(0.0, passed=False, detail=detail,
                                   reason=f"exited 0 but printed {run.stdout.strip()[:120]!r}, expected "
                                          f"{self.expected_stdout.strip()[:120]!r}")
        return self.result(1.0, passed=True, detail=detail,
                           reason=f"{language} program exited 0 in {run.duration_s:.2f} s ({run.isolation['mode']})"
                                  + ("; stdout as expected" if self.expected_stdout is not None else ""))


@register("code-correctness", family="code", aliases=("code_correctness",), needs=("output",),
          value="optional", threshold=1.0, kind="score",
          example="{metric: code-correctness, value: {tests: \"def check(candidate):\\n    assert candidate(2) == 4\", "
                  "entry_point: square}}")
class CodeCorrectnessMetric(_SandboxedMetric):
    """The share of tests the program in the output passes, run in the sandbox; passes at 1.0 by default.

    Tests come from the metric's ``value`` (else the case's ``expected_output`` in the same shapes):
    ``{tests: CODE, entry_point: NAME}`` (HumanEval: CODE defines ``check(candidate)``, called with
    the program's function NAME; each statement of ``check`` holding an ``assert`` is one test);
    Python assertion code (a string) run after the program, each top-level statement holding an
    ``assert`` one test; a list of ``{stdin | args, expected_stdout}`` pairs, one run per pair, in
    any language; or ``{command: CMD | [CMD, …], files: {name: text}, filename: NAME}``, each command
    run with ``sh -c`` in the sandbox directory where the program is saved (under its language's
    file name, or ``filename``) beside ``files``. Python tests run statement by statement in one
    process (the program is loaded as a module named ``candidate``), so a failing test does not stop
    the next; a run that times out fails the tests it had not finished. Score = passed / total.

    The program is extracted as for ``code-execution`` (``block``, ``language``); an output without
    code scores 0. The detail lists every test's verdict (first 50), the first failing test with the
    tail of its traceback, the limits hit and the isolation. Without tests the result is not
    measured (there is no judge fallback). Options and limits as ``code-execution``; the timeout
    applies to each run.
    """

    def setup(self) -> None:
        super().setup()
        self.tests = parse_tests(self.value) if self.value is not None else None

    def check_expected(self, expected: Any) -> None:
        parse_tests(expected)

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        tests = self.tests
        if tests is None:
            if case.expected_output is None:
                return self.not_measured("no tests (give the metric a value: {tests, entry_point}, assertion code, "
                                         "{stdin, expected_stdout} pairs or {command})")
            tests = parse_tests(case.expected_output)
        program = self._program(str(outcome.output))
        if isinstance(program, MetricResult):
            return program
        code, language, detail = program
        if tests.python_only and language != "python":
            return self.result(0.0, passed=False, detail=detail,
                               reason=f"the tests are Python ({tests.kind}) but the program is {language}")
        report = await run_tests(code, language, tests, self.sandbox)
        return self._scored(report, tests, detail)

    def _scored(self, report: TestReport, tests: TestSpec, detail: dict[str, Any]) -> MetricResult:
        passed, total = report.passed, report.total
        detail.update({"kind": tests.kind, "passed": passed, "total": total,
                       "tests": [o.to_dict() for o in report.outcomes[:_SHOWN_TESTS]]})
        hits = sorted({hit for run in report.runs for hit in run.limits_hit})
        detail["limits_hit"] = hits
        detail["isolation"] = report.runs[0].isolation if report.runs else None
        detail["runs"] = [_run_summary(run) for run in report.runs[:_SHOWN_TESTS]]
        failing = next((o for o in report.outcomes if not o.passed), None)
        reason = f"{passed}/{total} tests passed"
        if failing is not None:
            detail["first_failure"] = failing.to_dict()
            error = (failing.error or "failed").strip().splitlines()
            reason += f"; first failure: {failing.test.splitlines()[0][:100]} — {error[-1][:200] if error else ''}"
        value = passed / total if total else 0.0
        return self.result(value, reason=reason, detail=detail)


def _run_summary(run: RunResult) -> dict[str, Any]:
    return {"exit_code": run.exit_code, "signal": run.signal, "limits_hit": run.limits_hit,
            "duration_s": round(run.duration_s, 3), "stdout_tail": run.stdout[-500:], "stderr_tail": run.stderr[-500:]}
