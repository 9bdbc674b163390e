"""The environment a suite's targets read: every ``${NAME}`` must be set before anything is sent.

A target reads the environment where the suite wrote ``${NAME}``: an ``http`` target's ``url`` and
header values, an ``openai`` target's header values and ``api_key_env``, a ``command`` target's ``env``
values. An unset variable would fail every case the same way; it is one suite problem instead, found
before the first call, naming where the suite reads it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

from agentunit.core.templating import ENV_REF
from agentunit.errors import SuiteError
from agentunit.suite.problems import Problems

_READ_FIELDS = ("url", "headers", "env")


def check_environment(suite: Any) -> None:
    """Raise SuiteError naming each environment variable a target of ``suite`` reads and that is not set
    (its file, line and field, and the ``export`` to type)."""
    missing = {name: where for name, where in _references(suite) if not os.environ.get(name)}
    if not missing:
        return
    problems = Problems(file=suite.file)
    for name, where in missing.items():
        problems.error(f"environment variable {name} is not set", where,
                       suggestion=f"export {name}=… before the run (nothing was sent)")
    raise SuiteError(problems.resolve(problems.errors))


def _references(suite: Any) -> Iterator[tuple[str, tuple[Any, ...]]]:
    """(variable, key path) for each ``${NAME}`` the suite's targets read, first place per variable."""
    specs: list[tuple[tuple[Any, ...], Any]] = [(("target",), suite.target)]
    if suite.variants is not None:
        specs += [(("targets", t.index), t.spec) for t in suite.variants.targets]
    seen: set[str] = set()
    for at, spec in specs:
        if not isinstance(spec, dict):
            continue
        found = list(_env_refs({k: v for k, v in spec.items() if k in _READ_FIELDS}, at))
        key_env = spec.get("api_key_env")
        if spec.get("type") == "openai" and isinstance(key_env, str):
            found.append((key_env, (*at, "api_key_env")))
        for name, where in found:
            if name not in seen:
                seen.add(name)
                yield name, where


def _env_refs(value: Any, at: tuple[Any, ...]) -> Iterator[tuple[str, tuple[Any, ...]]]:
    if isinstance(value, str):
        for name in ENV_REF.findall(value):
            yield name, at
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _env_refs(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _env_refs(item, (*at, index))
