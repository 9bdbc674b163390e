"""The target reply cache key: a changed target config, or another repeat, is never served a stale reply.

The key (agentunit.targets.base.Target.cache_key) hashes the target kind, its redacted config
(``describe()``), the request and the repeat index. Dropping any of those from the key makes a rerun
with another config read the previous config's answer from the results database without a call.
"""

import sys

import pytest

from agentunit import evaluate
from agentunit.datasets.base import DatasetCase
from agentunit.targets import make_target

_CASE = DatasetCase(id="c1", query="hello", vars={"lang": "en"})

_PRINT_ENV = [sys.executable, "-c", "import os; print(os.environ['AU_GUARD_GREETING'])"]

# (a target spec, a change to one setting that changes what the target answers)
_CONFIG_CHANGES = [
    ({"type": "http", "url": "http://h/agent"}, {"output_path": "trusys.plan.0"}),
    ({"type": "http", "url": "http://h/agent"}, {"url": "http://h/other-agent"}),
    ({"type": "http", "url": "http://h/agent", "headers": {"X-Model": "small"}}, {"headers": {"X-Model": "large"}}),
    ({"type": "http", "url": "http://h/agent"}, {"output_is_media": True}),
    ({"type": "command", "argv": _PRINT_ENV, "cache": True, "env": {"AU_GUARD_GREETING": "hello"}},
     {"env": {"AU_GUARD_GREETING": "bye"}}),
    ({"type": "command", "argv": _PRINT_ENV, "cache": True}, {"cwd": "/tmp"}),
    ({"type": "openai", "model": "m1", "base_url": "http://h/v1"}, {"base_url": "http://h2/v1"}),
    ({"type": "openai", "model": "m1", "base_url": "http://h/v1"}, {"headers": {"X-Route": "eu"}}),
]


@pytest.mark.parametrize(("spec", "change"), _CONFIG_CHANGES,
                         ids=[f"{spec['type']}-{next(iter(change))}" for spec, change in _CONFIG_CHANGES])
def test_every_config_setting_is_part_of_the_cache_key(spec, change):
    before, after = make_target(spec), make_target({**spec, **change})
    request = before.request(_CASE)
    assert before.cache_key(request, 0) != after.cache_key(request, 0)
    assert before.cache_key(request, 0) == make_target(dict(spec)).cache_key(request, 0)  # and it is stable


def test_the_target_kind_and_the_request_are_part_of_the_cache_key():
    http = make_target({"type": "http", "url": "http://h/agent", "cache": True})
    command = make_target({"type": "command", "argv": ["x"], "cache": True})
    request = {"prompt": "hello"}
    assert http.cache_key(request, 0) != command.cache_key(request, 0)
    assert http.cache_key(request, 0) != http.cache_key({"prompt": "hello!"}, 0)


def test_each_repeat_has_its_own_cache_key():
    target = make_target({"type": "http", "url": "http://h/agent"})
    request = target.request(_CASE)
    keys = {target.cache_key(request, repeat) for repeat in range(3)}
    assert len(keys) == 3


def test_a_command_target_whose_env_changed_is_not_served_the_previous_reply(tmp_path):
    def run(greeting):
        target = {"type": "command", "argv": _PRINT_ENV, "cache": True, "env": {"AU_GUARD_GREETING": greeting}}
        return evaluate({"name": "s", "target": target, "cases": [
            {"id": "c", "prompt": "p", "metrics": [{"metric": "contains", "value": greeting}]}]},
            db=tmp_path / "r.db").cases[0]

    first, rerun, changed = run("hello"), run("hello"), run("bye")
    assert first["output"] == "hello" and not first["cached"]
    assert rerun["output"] == "hello" and rerun["cached"]  # the cache is on: an unchanged config is served
    assert changed["output"] == "bye" and not changed["cached"] and changed["passed"]


def test_each_repeat_is_called_and_cached_on_its_own(tmp_path):
    calls = []

    def agent(prompt):
        calls.append(prompt)
        return f"answer {len(calls)}"

    def run():
        return evaluate({"name": "s", "target": {"type": "python", "function": agent, "cache": True}, "cases": [
            {"id": "c", "prompt": "p", "metrics": [{"metric": "contains", "value": "answer"}]}]},
            repeat=3, concurrency=1, db=tmp_path / "r.db")

    first = run()
    assert len(calls) == 3  # one call per repeat, not one answer shared by the three
    assert sorted(c["output"] for c in first.cases) == ["answer 1", "answer 2", "answer 3"]
    second = run()
    assert len(calls) == 3 and all(c["cached"] for c in second.cases)
    by_repeat = {c["repeat"]: c["output"] for c in first.cases}
    assert {c["repeat"]: c["output"] for c in second.cases} == by_repeat  # each repeat keeps its own reply
