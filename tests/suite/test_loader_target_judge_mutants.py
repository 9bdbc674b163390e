"""The suite's ``judge:`` and ``target:`` checks: the exact problem for each kind of mistake, and what the
suite keeps when one is wrong (the local judge, no target); mutation testing found these unpinned."""

import pytest

from agentunit.errors import SuiteError
from agentunit.suite import suite_from_dict

_CASES = [{"prompt": "p"}]


def _problems(data):
    with pytest.raises(SuiteError) as raised:
        suite_from_dict(data).validate()
    return [str(p) for p in raised.value.problems]


def test_a_judge_that_is_not_an_object_is_refused_and_the_local_judge_kept():
    data = {"target": "echo", "judge": "gpt", "cases": _CASES}
    assert _problems(data) == ["<suite>: judge: judge must be an object like {provider: local}, got 'gpt'"]
    assert suite_from_dict(data).judge == {"provider": "local"}


def test_an_ensemble_judge_needs_its_judges():
    assert _problems({"target": "echo", "judge": {"provider": "ensemble"}, "cases": _CASES}) == [
        "<suite>: judge: an ensemble judge needs `judges:` — list two or more judges, e.g. judges: "
        "[{provider: local}, {provider: openai, …}]"]
    members = [{"provider": "local"}, {"provider": "local", "n_gpu_layers": 0}]
    suite = suite_from_dict({"target": "echo", "judge": {"provider": "ensemble", "judges": members}, "cases": _CASES})
    assert suite.validate() == 1 and suite.judge == {"provider": "ensemble", "judges": members}


@pytest.mark.parametrize(("target", "problem"), [
    (5, "<suite>: target: target must be an object like {type: http, url: ...}, got 5"),
    ({"type": "htt", "url": "u"}, "<suite>: target.type: unknown target type 'htt' — did you mean 'http'?"),
    ({"type": "zzzz"},
     "<suite>: target.type: unknown target type 'zzzz' — use one of echo, python, http, command, openai, traces"),
    ({"type": "http"}, "<suite>: target: http target needs 'url'"),
    ({"type": "http", "url": "u", "timeout": "x"},
     "<suite>: target.timeout: timeout must be a finite number > 0, got 'x'"),
    ({"type": "command", "argv": "a 'b"}, "<suite>: target.argv: argv cannot be split like a shell command line: No "
                                          "closing quotation — close the quote, or give argv as a list"),
    ({"type": "python", "function": "nocolon"},
     "<suite>: target.function: function must be 'module:callable', got 'nocolon' — for example examples.calc:answer"),
])
def test_each_target_mistake_has_its_problem_and_leaves_no_target(target, problem):
    data = {"target": target, "cases": _CASES}
    assert _problems(data) == [problem]
    assert suite_from_dict(data).target is None


def test_an_unknown_target_field_is_a_problem_but_the_target_is_kept():
    data = {"target": {"type": "echo", "function": "x:y"}, "cases": _CASES}
    assert _problems(data) == [
        "<suite>: target.function: unknown echo target field 'function' — allowed: cache, timeout, transform, type"]
    assert suite_from_dict(data).target == {"type": "echo", "function": "x:y"}
