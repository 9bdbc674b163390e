"""What mutation testing found unpinned in ``agentunit.targets.python`` (docs/testing.md, "Mutation testing").

How ``module:attr`` is imported (a dotted attribute, a second colon, the folders put on ``sys.path`` once)
and how a function without an inspectable signature, or with only ``*args``, gets the prompt.
"""

from __future__ import annotations

import asyncio
import sys

import pytest

from agentunit.datasets.base import DatasetCase
from agentunit.errors import AgentUnitError
from agentunit.targets.python import PythonTarget, load_callable


def _send(function, prompt="abc"):
    target = PythonTarget({"type": "python", "function": function})
    case = DatasetCase(id="c", query=prompt)
    return asyncio.run(target.send(case, target.request(case))).body


def test_a_dotted_attribute_is_looked_up_step_by_step():
    import json

    assert load_callable("json:JSONDecoder.decode") is json.JSONDecoder.decode
    with pytest.raises(AgentUnitError) as info:
        load_callable("json:dumps:x")  # the module is what comes before the first colon
    assert str(info.value) == "module 'json' has no attribute 'dumps:x'"


def test_the_suite_folder_is_put_on_the_path_once(tmp_path, monkeypatch):
    (tmp_path / "au_mutants_app.py").write_text("def answer(prompt):\n    return prompt.upper()\n")
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.delitem(sys.modules, "au_mutants_app", raising=False)
    assert load_callable("au_mutants_app:answer", tmp_path)("x") == "X"
    load_callable("au_mutants_app:answer", tmp_path)
    assert sys.path.count(str(tmp_path)) == 1 and sys.path[0] == str(tmp_path)
    load_callable("json:dumps")  # no suite folder: nothing named "None" is added
    assert "None" not in sys.path


def test_a_function_without_a_signature_or_with_only_star_args_gets_the_prompt():
    assert _send(max) == "c"  # a builtin inspect cannot read: called with the prompt

    def first(*args):
        return args[0] + "!"

    assert _send(first) == "abc!"


def test_import_errors_say_where_to_look(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "path", list(sys.path))
    (tmp_path / "au_mutants_boom.py").write_text("x = 1\nraise ValueError('boom')\n")
    (tmp_path / "au_mutants_dep.py").write_text("import au_mutants_missing_dependency\n")
    looked_for = " — the module is looked for in the working directory and the suite's folder"
    cases = {
        "au_mutants_nope:f": "ModuleNotFoundError: No module named 'au_mutants_nope'" + looked_for,
        "json.au_mutants_nope:f": "ModuleNotFoundError: No module named 'json.au_mutants_nope'" + looked_for,
        "au_mutants_boom:f": f"ValueError: boom (raised at {tmp_path / 'au_mutants_boom.py'}:2) — fix the module, "
                             "or run it alone to see why",
        "au_mutants_dep:f": "ModuleNotFoundError: No module named 'au_mutants_missing_dependency' (raised at "
                            f"{tmp_path / 'au_mutants_dep.py'}:1) — fix the module, or run it alone to see why",
    }
    for spec, why in cases.items():
        with pytest.raises(AgentUnitError) as info:
            load_callable(spec, tmp_path)
        module = spec.partition(":")[0]
        assert str(info.value) == f"cannot import module {module!r} for target function {spec!r}: {why}", spec
