"""The execution metrics: code-execution and code-correctness, from the catalog, check() and suites."""

from __future__ import annotations

import asyncio
import json

import pytest

import agentunit.code.sandbox as sandbox_module
from agentunit.api import check
from agentunit.code.execution import CodeCorrectnessMetric, CodeExecutionMetric
from agentunit.core.outcome import Outcome
from agentunit.core.trace import TraceLog
from agentunit.datasets.base import DatasetCase
from agentunit.errors import MetricConfigError
from agentunit.judges.base import JudgeReply
from agentunit.metrics.registry import lookup
from tests.code.humaneval_problems import PROBLEMS
from tests.code.sandboxing import requires_bwrap
from tests.conftest import run_cli
from tests.judge_helpers import pass_with, scripted_judge

ADD = "Here you go:\n```python\ndef add(a, b):\n    return a + b\n\nprint(add(2, 3))\n```\nIt prints 5."


def test_both_metrics_are_in_the_registry_as_the_code_family():
    for name, cls in (("code-execution", CodeExecutionMetric), ("code_correctness", CodeCorrectnessMetric)):
        info, negated = lookup(name)
        assert info.cls is cls and info.family == "code" and not negated
    assert lookup("code-correctness")[0].threshold == 1.0


@pytest.mark.parametrize(("spec", "message"), [
    ({"metric": "code-execution", "config": {"timout": 3}}, "unknown config key"),
    ({"metric": "code-execution", "config": {"block": "middle"}}, "config.block"),
    ({"metric": "code-execution", "config": {"sandbox": "docker"}}, "config.sandbox"),
    ({"metric": "code-execution", "config": {"timeout": -1}}, "config.timeout"),
    ({"metric": "code-execution", "config": {"memory_mb": "lots"}}, "config.memory_mb"),
    ({"metric": "code-execution", "config": {"language": "cobol"}}, "cannot run 'cobol'"),
    ({"metric": "code-correctness", "value": "assert (1"}, "does not compile"),
    ({"metric": "code-correctness", "value": "x = 1"}, "no test"),
    ({"metric": "code-correctness", "value": {"tests": "def check(c):\n    assert c(1)"}}, "entry_point"),
    ({"metric": "code-correctness", "value": {"tests": "assert 1", "entry_point": "f"}}, "must define check"),
    ({"metric": "code-correctness", "value": [{"stdin": "1"}]}, "expected_stdout"),
    ({"metric": "code-correctness", "value": {"command": 3}}, "command"),
    ({"metric": "code-correctness", "value": 42}, "code-correctness tests are"),
])
def test_bad_configuration_is_refused_when_the_metric_is_built(spec, message):
    with pytest.raises(MetricConfigError, match=message):
        check(ADD, spec)


def test_without_bubblewrap_the_metric_errors_and_names_the_fix(monkeypatch):
    monkeypatch.setattr(sandbox_module.shutil, "which", lambda name, *a, **k: None)
    sandbox_module._require_bubblewrap.cache_clear()
    try:
        result = check(ADD, "code-execution")
    finally:
        monkeypatch.undo()
        sandbox_module._require_bubblewrap.cache_clear()
    assert result.status == "error" and result.value is None
    assert "apt-get install bubblewrap" in result.error and "sandbox: none" in result.error


def test_no_tests_and_no_prompt_is_not_measured():
    result = check(ADD, "code-correctness")
    assert result.status == "not_measured" and "no tests" in result.reason and "no prompt" in result.reason


def test_no_tests_with_the_judge_fallback_off_is_not_measured():
    with scripted_judge(lambda request: pass_with(0.9)) as judge:
        result = check(ADD, {"metric": "code-correctness", "config": {"judge": False}}, query="Add two numbers")
    assert result.status == "not_measured" and "fallback is off" in result.reason and not judge.requests


@requires_bwrap
class TestJudgeFallback:
    """Without tests, the program must run and then the judge decides against the case's prompt."""

    def test_the_judge_decides_and_the_result_says_so(self):
        with scripted_judge(lambda request: pass_with(0.9)) as judge:
            result = check(ADD, {"metric": "code-correctness", "config": {"language": "python"}},
                           query="Write a Python function add(a, b) returning the sum")
        assert result.passed is True and result.value == pytest.approx(0.9)
        assert result.detail["method"] == "judge" and result.reason.startswith("judged (no tests)")
        assert result.detail["run"]["exit_code"] == 0
        _generation, request = judge.requests  # the judge wrote no usable tests ("PASS"), so it was asked
        user = request.messages[-1][1]
        assert "Write a Python function add(a, b)" in user and "return a + b" in user
        assert request.options == ("yes", "no")

    def test_a_doubted_program_fails_at_the_judge_pass_mark(self):
        with scripted_judge(lambda request: pass_with(0.3)):
            low = check(ADD, "code-correctness", query="Add two numbers")
        with scripted_judge(lambda request: pass_with(0.3)):
            lenient = check(ADD, {"metric": "code-correctness", "config": {"judge_threshold": 0.25}},
                            query="Add two numbers")
        assert low.passed is False and low.value == pytest.approx(0.3)
        assert lenient.passed is True

    def test_a_program_that_does_not_run_scores_zero_without_asking_the_judge(self):
        broken = "```python\ndef add(a, b):\n    return a +\n```"
        with scripted_judge(lambda request: pass_with(0.99)) as judge:
            result = check(broken, "code-correctness", query="Add two numbers")
        assert result.value == 0.0 and result.passed is False and not judge.requests
        assert "does not run" in result.reason and "SyntaxError" in result.reason

    def test_for_python_the_judge_writes_tests_that_run_against_the_program(self):
        written = ("Here are the tests:\n```python\nassert add(1, 2) == 3\nassert add(-1, 1) == 0\n"
                   "assert add(1, 2) == 3\nassert add(0, 0) == 0\nassert add(2, 2) == 5\nassert add(\n```")

        def respond(request):
            return JudgeReply(written) if not request.options else pass_with(0.99)

        with scripted_judge(respond) as judge:
            result = check(ADD, "code-correctness", query="Write add(a, b) returning the sum")
        assert [r.options for r in judge.requests] == [()]  # one generation, no yes/no question
        assert "Write add(a, b) returning the sum" in judge.requests[0].messages[-1][1]
        assert result.detail["method"] == "judge-written tests"
        assert result.detail["judge_written_tests"] == ["assert add(1, 2) == 3", "assert add(-1, 1) == 0",
                                                        "assert add(0, 0) == 0", "assert add(2, 2) == 5"]
        assert result.value == 0.75 and result.passed is False and result.detail["judge_threshold"] == 0.8
        assert result.detail["first_failure"]["test"] == "assert add(2, 2) == 5"
        assert "tests written by the judge" in result.reason
        with scripted_judge(respond):
            lenient = check(ADD, {"metric": "code-correctness", "config": {"judge_threshold": 0.7}}, query="Add")
        assert lenient.passed is True

    def test_too_few_written_tests_fall_back_to_the_yes_no_question(self):
        def respond(request):
            return JudgeReply("assert add(1, 2) == 3\nI think that is enough.") if not request.options \
                else pass_with(0.9)

        with scripted_judge(respond) as judge:
            result = check(ADD, "code-correctness", query="Add two numbers")
        assert [r.options for r in judge.requests] == [(), ("yes", "no")]
        assert result.detail["method"] == "judge" and result.value == pytest.approx(0.9)
        assert "fewer than 3" in result.detail["judge_written_tests_unused"]

    def test_tests_take_precedence_over_the_judge(self):
        with scripted_judge(lambda request: pass_with(0.01)) as judge:
            result = check(ADD, {"metric": "code-correctness", "value": "assert add(1, 2) == 3"}, query="Add")
        assert result.passed is True and not judge.requests and "method" not in result.detail


@pytest.mark.parametrize("bad", [{"judge": "yes"}, {"judge_threshold": 0}, {"judge_threshold": True}])
def test_bad_judge_fallback_options_are_refused(bad):
    with pytest.raises(MetricConfigError, match=r"config\.judge"):
        check(ADD, {"metric": "code-correctness", "config": bad})


@requires_bwrap
class TestCodeExecution:
    def test_a_program_that_exits_0_passes_and_the_detail_names_the_isolation(self):
        result = check(ADD, {"metric": "code-execution", "value": "5"})
        assert result.passed is True and result.value == 1.0
        run = result.detail["run"]
        assert run["exit_code"] == 0 and run["isolation"]["mode"] == "bubblewrap"
        assert run["isolation"]["network"].startswith("none")
        assert result.detail["blocks"][0]["tag"] == "python" and result.detail["language"] == "python"

    def test_wrong_stdout_fails_with_both_outputs_in_the_reason(self):
        result = check(ADD, {"metric": "code-execution", "config": {"expected_stdout": "6"}})
        assert result.passed is False and "'5'" in result.reason and "'6'" in result.reason

    def test_a_crash_fails_with_the_error_line(self):
        result = check("```python\nprint(undefined)\n```", "code-execution")
        assert result.passed is False and "NameError" in result.reason and "exit code 1" in result.reason

    def test_stdin_and_args_reach_the_program(self):
        code = "```python\nimport sys\nprint(sys.argv[1], sys.stdin.read().strip())\n```"
        result = check(code, {"metric": "code-execution",
                              "config": {"args": ["hello"], "stdin": "world\n", "expected_stdout": "hello world"}})
        assert result.passed is True, result.reason

    @pytest.mark.parametrize(("output", "expected"), [
        ("```js\nconsole.log([1, 2, 3].map(x => x * 2).join(','))\n```", "2,4,6"),
        ("```javascript\nconst n = 4; console.log(`n=${n}`)\n```", "n=4"),
        ("```bash\nfor i in 1 2 3; do printf '%s' $i; done; echo\n```", "123"),
        ("```sh\necho $((6 * 7))\n```", "42"),
    ])
    def test_javascript_and_bash_by_their_fence_tags(self, output, expected):
        result = check(output, {"metric": "code-execution", "value": expected})
        assert result.passed is True, (result.reason, result.detail)

    def test_config_language_overrides_an_untagged_block(self):
        result = check("console.log('untagged')", {"metric": "code-execution",
                                                   "config": {"language": "js"}, "value": "untagged"})
        assert result.passed is True and result.detail["language"] == "javascript"

    def test_block_selection(self):
        output = "```python\nprint('one')\n```\ntext\n```text\nsample output\n```\n```python\nprint('two')\n```"
        assert check(output, {"metric": "code-execution", "config": {"block": "last"}, "value": "two"}).passed
        assert check(output, {"metric": "code-execution", "config": {"block": 0}, "value": "one"}).passed
        every = check(output, {"metric": "code-execution", "config": {"block": "all"}, "value": "one\ntwo"})
        assert every.passed and [b["index"] for b in every.detail["blocks"]] == [0, 2]  # the text block is left out
        missing = check(output, {"metric": "code-execution", "config": {"block": 7}})
        assert missing.passed is False and "3 code block" in missing.reason

    def test_an_output_without_code_fails(self):
        result = check("", "code-execution")
        assert result.passed is False and result.value == 0.0 and "holds no code" in result.reason

    def test_a_language_the_sandbox_does_not_run_is_not_measured(self):
        result = check("```ruby\nputs 1\n```", "code-execution")
        assert result.status == "not_measured" and "'ruby'" in result.reason

    def test_a_timeout_is_a_failure_with_the_limit_named(self):
        result = check("```python\nimport time\ntime.sleep(60)\n```",
                       {"metric": "code-execution", "config": {"timeout": 1}})
        assert result.passed is False and "timeout: 1 s" in result.reason
        assert result.detail["run"]["limits_hit"] == ["timeout: 1 s wall clock, process tree killed"]

    def test_sandbox_none_runs_on_the_host_and_says_so(self):
        result = check("```python\nimport os\nprint(os.path.isdir('/usr'))\n```",
                       {"metric": "code-execution", "config": {"sandbox": "none"}, "value": "True"})
        assert result.passed is True
        assert result.detail["run"]["isolation"]["mode"] == "none"
        assert "host" in result.detail["run"]["isolation"]["filesystem"]

    def test_negated(self):
        result = check("```python\nraise SystemExit(3)\n```", "not-code-execution")
        assert result.passed is True and result.value == 1.0


@requires_bwrap
class TestCodeCorrectness:
    def test_humaneval_right_solutions_pass_and_mutated_ones_fail(self):
        assert len(PROBLEMS) >= 10

        async def score_all():
            jobs = []
            for problem in PROBLEMS:
                value = {"tests": problem["tests"], "entry_point": problem["entry_point"]}
                # A right solution ends on its own: 60 s, however busy the machine. A mutated one may loop until
                # its timeout; a short one fails it either way.
                for variant, timeout in (("right", 60), ("mutated", 2)):
                    metric = CodeCorrectnessMetric(value, config={"timeout": timeout})
                    output = f"```python\n{problem[variant]}```"
                    jobs.append(metric.evaluate_async(DatasetCase(id="p", query="solve"), TraceLog(),
                                                      Outcome(output=output)))
            return await asyncio.gather(*jobs)

        results = asyncio.run(score_all())
        for problem, right, mutated in zip(PROBLEMS, results[::2], results[1::2], strict=True):
            assert right.passed is True and right.value == 1.0, (problem["entry_point"], right.reason)
            assert mutated.passed is False and mutated.value < 1.0, (problem["entry_point"], mutated.reason)
            assert mutated.detail["first_failure"]["error"], problem["entry_point"]

    def test_the_score_is_the_share_of_asserts_and_the_first_failure_has_its_traceback(self):
        tests = ("def check(candidate):\n    assert candidate(2) == 4\n    assert candidate(3) == 9\n"
                 "    assert candidate(-1) == 1\n    assert candidate('x') == 'xx'\n")
        code = "```python\ndef square(x):\n    if x < 0:\n        raise ValueError('negative')\n    return x * x\n```"
        result = check(code, {"metric": "code-correctness", "value": {"tests": tests, "entry_point": "square"}})
        assert result.value == 0.5 and result.passed is False
        assert result.detail["passed"] == 2 and result.detail["total"] == 4
        first = result.detail["first_failure"]
        assert first["test"] == "assert candidate(-1) == 1" and first["error"] == "ValueError: negative"
        assert any("raise ValueError('negative')" in line for line in first["traceback"])
        assert "first failure: assert candidate(-1) == 1 — ValueError: negative" in result.reason

    def test_a_check_without_asserts_of_its_own_is_one_test(self):
        tests = "def _ok(f):\n    assert f(1) == 2\n\ndef check(candidate):\n    _ok(candidate)\n"
        result = check("```python\ndef inc(x):\n    return x + 1\n```",
                       {"metric": "code-correctness", "value": {"tests": tests, "entry_point": "inc"}})
        assert result.passed is True and result.detail["total"] == 1

    def test_a_program_that_does_not_load_fails_every_test(self):
        result = check("```python\ndef add(a, b)\n    return a + b\n```",
                       {"metric": "code-correctness", "value": "assert add(1, 1) == 2\nassert add(0, 0) == 0"})
        assert result.value == 0.0 and result.detail["total"] == 2
        assert "SyntaxError" in result.detail["first_failure"]["error"]

    def test_a_missing_entry_point_fails(self):
        result = check(ADD, {"metric": "code-correctness",
                             "value": {"tests": "def check(c):\n    assert c(1, 2) == 3", "entry_point": "plus"}})
        assert result.value == 0.0 and "no 'plus'" in result.detail["first_failure"]["error"]

    def test_assertion_code_runs_in_the_programs_namespace(self):
        value = "assert add(1, 2) == 3\nresult = add('a', 'b')\nassert result == 'ab'\nassert add(2, 2) == 5"
        result = check(ADD, {"metric": "code-correctness", "value": value})
        assert (result.detail["passed"], result.detail["total"]) == (2, 3)
        assert "print" not in json.dumps(result.detail["tests"])  # the program's own prints are not tests

    def test_the_programs_main_block_does_not_run_under_the_tests(self):
        code = "```python\ndef f():\n    return 1\n\nif __name__ == '__main__':\n    input()\n```"
        assert check(code, {"metric": "code-correctness", "value": "assert f() == 1"}).passed is True

    def test_io_pairs_in_javascript(self):
        code = "```js\nconst [a, b] = require('fs').readFileSync(0, 'utf8').trim().split(' ').map(Number);\n" \
               "console.log(a + b);\n```"
        pairs = [{"stdin": "1 2", "expected_stdout": "3"}, {"stdin": "5 5", "expected_stdout": "10"},
                 {"stdin": "1 1", "expected_stdout": "3"}]
        result = check(code, {"metric": "code-correctness", "value": pairs})
        assert (result.detail["passed"], result.detail["total"]) == (2, 3)
        assert "expected stdout '3', got '2\\n'" in result.detail["first_failure"]["error"]

    def test_io_pairs_with_args_in_bash(self):
        code = "```bash\necho $(( $1 * $2 ))\n```"
        pairs = [{"args": ["3", "4"], "expected_stdout": "12"}, {"args": "5 6", "expected_stdout": "30"}]
        assert check(code, {"metric": "code-correctness", "value": pairs}).passed is True

    def test_a_test_command_with_extra_files(self):
        value = {"command": ["python3 -m unittest -q test_main", "python3 main.py | grep -q 5"],
                 "files": {"test_main.py": "import unittest\nfrom main import add\n\n"
                                           "class T(unittest.TestCase):\n    def test_add(self):\n"
                                           "        self.assertEqual(add(2, 2), 4)\n"}}
        result = check(ADD, {"metric": "code-correctness", "value": value})
        assert result.passed is True, result.detail
        failing = check(ADD, {"metric": "code-correctness", "value": {"command": "python3 main.py | grep -q 6"}})
        assert failing.value == 0.0 and "exit code 1" in failing.detail["first_failure"]["error"]

    def test_python_tests_against_a_javascript_program_fail(self):
        result = check("```js\nfunction add(a, b) { return a + b }\n```",
                       {"metric": "code-correctness", "value": "assert add(1, 2) == 3"})
        assert result.passed is False and "the program is javascript" in result.reason

    def test_a_timeout_fails_the_unfinished_tests_only(self):
        code = "```python\nimport time\ndef f(x):\n    if x > 2:\n        time.sleep(60)\n    return x\n```"
        tests = "def check(c):\n    assert c(1) == 1\n    assert c(2) == 2\n    assert c(3) == 3\n    assert c(0) == 0"
        result = check(code, {"metric": "code-correctness", "config": {"timeout": 1},
                              "value": {"tests": tests, "entry_point": "f"}})
        assert result.value == 0.5 and result.detail["limits_hit"][0].startswith("timeout")
        assert [t["passed"] for t in result.detail["tests"]] == [True, True, False, False]

    def test_a_program_cannot_forge_the_harness_report(self):
        code = "```python\nprint('@@agentunit 0000 {\"done\": true}')\ndef f():\n    return 0\n```"
        assert check(code, {"metric": "code-correctness", "value": "assert f() == 1"}).passed is False

    def test_tests_from_the_cases_expected_output(self):
        result = check(ADD, "code-correctness", expected_output="assert add(2, 2) == 4")
        assert result.passed is True


@requires_bwrap
def test_the_coding_assistant_example_runs_offline_with_j4(tmp_path):
    out = tmp_path / "out.json"
    proc = run_cli("run", "examples/coding_assistant.yaml", "-j", "4", "--db", str(tmp_path / "r.db"), "-o", str(out))
    assert proc.returncode == 1, proc.stderr  # one case fails on purpose
    cases = {c["id"]: {m["metric"]: m for m in c["metrics"]} for c in json.loads(out.read_text())["cases"]}
    for case_id, results in cases.items():
        for name, metric in results.items():
            assert metric["error"] is None, (case_id, name, metric["error"])
    assert cases["buggy-median"]["code-correctness"]["passed"] is False
    assert all(m["passed"] for cid, ms in cases.items() if cid != "buggy-median" for m in ms.values())
