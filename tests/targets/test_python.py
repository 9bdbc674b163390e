import asyncio

import pytest

from agentunit.datasets.base import DatasetCase
from agentunit.errors import AgentUnitError
from agentunit.targets import make_target
from agentunit.targets.python import load_callable


def _send(function, case=None):
    target = make_target({"type": "python", "function": function})
    case = case or DatasetCase(id="c", query="q", vars={"v": 1}, context=["ctx"], expected_output="e")
    return asyncio.run(target.send(case, target.request(case))).body


def test_call_shapes():
    assert _send(lambda p: p + "!") == "q!"
    assert _send(lambda prompt, vars: f"{prompt}{vars['v']}") == "q1"
    assert _send(lambda prompt, context, expected_output, id: (prompt, context, expected_output, id)) == \
        ("q", ["ctx"], "e", "c")
    assert _send(lambda case: case.id) == "c"
    assert _send(lambda: "const") == "const"

    async def coro(prompt):
        return prompt * 2

    assert _send(coro) == "qq"


def test_load_callable_errors(tmp_path):
    assert load_callable("examples.calc:answer")("What is 2 + 3?") == "5"
    with pytest.raises(AgentUnitError, match="cannot import module"):
        load_callable("no_such_module_xyz:f")
    with pytest.raises(AgentUnitError, match="has no attribute"):
        load_callable("examples.calc:nope")
    with pytest.raises(AgentUnitError, match="not callable"):
        load_callable("examples.calc:_CAPITALS")


@pytest.mark.parametrize("body", ["def broken(:\n", "raise RuntimeError('no config')\n", "import sys\nsys.exit(3)\n"],
                         ids=["syntax-error", "raises", "exits"])
def test_a_module_that_fails_while_importing_is_a_clear_error(tmp_path, monkeypatch, body):
    (tmp_path / "au_bad_target_module.py").write_text(body)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(AgentUnitError, match="cannot import module 'au_bad_target_module'"):
        load_callable("au_bad_target_module:answer")
