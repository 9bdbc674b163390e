import asyncio
import json
import sys

import pytest

from agentunit.datasets.base import DatasetCase
from agentunit.errors import TargetError
from agentunit.targets import make_target


def _run(spec, prompt="hello; rm -rf /", **vars_):
    target = make_target({"type": "command", **spec})
    case = DatasetCase(id="c1", query=prompt, vars=vars_)
    return asyncio.run(target.send(case, target.request(case)))


def test_argv_templates_are_passed_literally_without_a_shell():
    reply = _run({"argv": [sys.executable, "-c", "import sys; print(sys.argv[1])", "{{ prompt }}"]})
    assert reply.body == "hello; rm -rf /"


def test_stdin_template_and_string_argv():
    reply = _run({"argv": f"{sys.executable} -c 'import sys; print(sys.stdin.read().upper())'",
                  "stdin": "{{ prompt }} / {{ lang }}"}, prompt="hi", lang="en")
    assert reply.body == "HI / EN"


def test_json_stdout_is_returned_for_envelope_parsing():
    payload = json.dumps({"output": "x", "trusys": {"plan": ["a"]}})
    reply = _run({"argv": [sys.executable, "-c", f"print({payload!r})"]})
    assert reply.body == payload


def test_non_zero_exit_timeout_and_missing_program():
    with pytest.raises(TargetError, match="status 3: oops"):
        _run({"argv": [sys.executable, "-c", "import sys; sys.stderr.write('oops'); sys.exit(3)"]})
    with pytest.raises(TargetError, match=r"timed out after 0\.3 s"):
        _run({"argv": [sys.executable, "-c", "import time; time.sleep(10)"], "timeout": 0.3})
    with pytest.raises(TargetError, match="cannot start"):
        _run({"argv": ["/nonexistent/program"]})
