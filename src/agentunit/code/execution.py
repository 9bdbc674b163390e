"""The execution metrics: ``code-execution`` (the program runs) and ``code-correctness`` (it passes tests).

Both extract the program from the output (``agentunit.code.extract``), pick its language and run it
in the sandbox (``agentunit.code.sandbox``) under the limits of their config.
"""

from __future__ import annotations

import ast
from typing import Any

from agentunit.code.extract import CodeBlock, check_block_config, normalise_language, select_code
from agentunit.code.languages import UnknownLanguage, get_language, languages
from agentunit.code.sandbox import ISOLATIONS, Limits, RunResult, Sandbox
from agentunit.code.testing import TestReport, TestSpec, parse_tests, run_tests, same_stdout
from agentunit.core.sync import run_blocking
from agentunit.errors import MetricConfigError
from agentunit.judges.base import JudgeRequest
from agentunit.metrics._values import switch
from agentunit.metrics.base import Metric, MetricResult
from agentunit.metrics.registry import register

__all__ = ["CodeCorrectnessMetric", "CodeExecutionMetric"]

_LIMIT_KEYS = ("timeout", "cpu_seconds", "memory_mb", "total_memory_mb", "processes", "file_size_mb", "open_files",
               "disk_mb", "output_kb")
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


JUDGE_PASS_MARK = 0.5
WRITTEN_TESTS_PASS_MARK = 0.8
MIN_WRITTEN_TESTS = 3
MAX_WRITTEN_TESTS = 6
_REVIEWER = "You review programs written for a task. Answer yes or no."
_TESTER = "You write Python unit tests. Output only assert statements, one per line."


def tests_request(task: str) -> JudgeRequest:
    """The judge's generation of tests for a task without tests: assert statements, one per line."""
    user = (f"Task:\n{task}\n\nWrite {MAX_WRITTEN_TESTS} assert statements that a correct solution of this task "
            "must pass, covering normal cases and edge cases. Call the function exactly as the task names it. "
            "Output only the assert lines.")
    return JudgeRequest((("system", _TESTER), ("user", user)), max_tokens=300)


def written_asserts(text: str) -> list[str]:
    """The distinct lines of ``text`` that are one ``assert`` statement parsing on its own (code
    fences and prose dropped), at most MAX_WRITTEN_TESTS, in order."""
    found: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("assert ") or line in found:
            continue
        try:
            tree = ast.parse(line)
        except SyntaxError:
            continue
        if len(tree.body) == 1 and isinstance(tree.body[0], ast.Assert):
            found.append(line)
    return found[:MAX_WRITTEN_TESTS]


def correctness_request(task: str, code: str, language: str) -> JudgeRequest:
    """The judge's yes/no question when a case has no tests: is the program a correct, complete
    solution of the task (the case's prompt)?"""
    user = (f"Task:\n{task}\n\nProgram ({language}):\n```{language}\n{code}\n```\n\n"
            "Statement: The program is a correct and complete solution to the task: it gives the right "
            "result on every input the task allows, including edge cases.\n"
            "Is the statement true? Answer yes or no.")
    return JudgeRequest.yes_no(_REVIEWER, user)


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
    tail of its traceback, the limits hit and the isolation. Options and limits as
    ``code-execution``; the timeout applies to each run.

    Without tests the judge decides against the case's prompt, and the result says so
    (``detail.method``). The program must first run in the sandbox (exit 0; one that fails scores
    0). For Python, the judge then writes tests from the prompt (one generation: up to 6 assert
    statements on normal and edge cases; each must parse on its own, at least 3 are needed), which
    run against the program like given assertion code: score = the share passed, passing at
    ``judge_threshold`` (default 0.8, so one wrong expectation of the judge's in six is tolerated);
    ``detail.method: judge-written tests`` and the tests are in the detail. For other languages,
    or when the judge writes too few usable asserts, one yes/no decision on "the program is a
    correct and complete solution to the task" (``detail.method: judge``), score P(yes), passing at
    ``judge_threshold`` (default 0.5). ``judge: false`` turns the fallback off (no tests is then
    not measured), and a case without a prompt is not measured either.
    """

    _keys = (*_COMMON_KEYS, "judge", "judge_threshold")

    def setup(self) -> None:
        super().setup()
        self.tests = parse_tests(self.value) if self.value is not None else None
        judge = switch(self.config, "judge", True)
        mark = self.config.get("judge_threshold")
        if mark is not None and (isinstance(mark, bool) or not isinstance(mark, (int, float)) or not 0.0 < mark <= 1.0):
            raise MetricConfigError(f"config.judge_threshold must be a number in (0, 1], got {mark!r}")
        self.judge_fallback, self.judge_threshold = judge, None if mark is None else float(mark)

    def check_expected(self, expected: Any) -> None:
        parse_tests(expected)

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        tests = self.tests
        if tests is None and case.expected_output is not None:
            tests = parse_tests(case.expected_output)
        task = outcome.query or case.query
        if tests is None and not (self.judge_fallback and task):
            why = "no prompt for the judge to decide against" if self.judge_fallback else "the judge fallback is off"
            return self.not_measured(f"no tests (give the metric a value: {{tests, entry_point}}, assertion code, "
                                     f"{{stdin, expected_stdout}} pairs or {{command}}) and {why}")
        program = self._program(str(outcome.output))
        if isinstance(program, MetricResult):
            return program
        code, language, detail = program
        if tests is None:
            return await self._judged(str(task), code, language, detail)
        if tests.python_only and language != "python":
            return self.result(0.0, passed=False, detail=detail,
                               reason=f"the tests are Python ({tests.kind}) but the program is {language}")
        report = await run_tests(code, language, tests, self.sandbox)
        return self._scored(report, tests, detail)

    async def _judged(self, task: str, code: str, language: str, detail: dict[str, Any]) -> MetricResult:
        """No tests: the program must run; then tests the judge writes from the task decide (Python),
        else one yes/no decision of the judge."""
        from agentunit.judges.service import current_judge

        detail["method"] = "judge"
        run = await self.sandbox.run_program(code, language)
        detail["run"] = run.describe()
        if not run.ok:
            error = _last_line(run.stderr)
            return self.result(0.0, passed=False, detail=detail,
                               reason=f"judged (no tests): the {language} program does not run: {run.failure()}"
                                      + (f" — {error}" if error else ""))
        judge = current_judge()
        if language == "python":
            text, _, _ = await judge.generate(tests_request(task))
            asserts = written_asserts(text)
            detail["judge_written_tests"] = asserts
            if len(asserts) >= MIN_WRITTEN_TESTS:
                return await self._judge_tested(code, asserts, detail)
            detail["judge_written_tests_unused"] = f"fewer than {MIN_WRITTEN_TESTS} usable asserts"
        decision = await judge.decide(correctness_request(task, code, language))
        score = decision.probabilities.get("yes", 0.0)
        mark = self.judge_threshold if self.judge_threshold is not None else JUDGE_PASS_MARK
        detail["judge"] = decision.to_detail()
        detail["judge_threshold"] = mark
        return self.result(round(score, 6), passed=score >= mark, detail=detail,
                           reason=f"judged (no tests): P(correct solution of the prompt) = {score:.2f}")

    async def _judge_tested(self, code: str, asserts: list[str], detail: dict[str, Any]) -> MetricResult:
        spec = TestSpec("asserts", code="\n".join(asserts))
        report = await run_tests(code, "python", spec, self.sandbox)
        result = self._scored(report, spec, detail)
        mark = self.judge_threshold if self.judge_threshold is not None else WRITTEN_TESTS_PASS_MARK
        result.detail["method"] = "judge-written tests"
        result.detail["judge_threshold"] = mark
        result.passed = result.value is not None and result.value >= mark
        result.reason = f"judged (no tests): {result.reason} (tests written by the judge from the prompt)"
        return result

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
