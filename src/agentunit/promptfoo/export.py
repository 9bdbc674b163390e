"""``agentunit import promptfoo CONFIG -o suite.yaml``: write the equivalent native suite.

The matrix is written out: one inline case per test × prompt (× expanded vars), each with its
``prompt`` template, ``vars``, ``assert`` (agentunit metric entries) and metadata. A config with one
provider becomes one suite; with several, one suite per provider (``suite.<provider>.yaml``), since a
native suite has one target. Python file providers have no native target and are a problem.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from agentunit.errors import SuiteError
from agentunit.promptfoo.config import PromptfooSuite, expand
from agentunit.suite.loader import load_suite
from agentunit.suite.problems import Problems


def native_suites(config: str | Path) -> list[tuple[str, dict[str, Any]]]:
    """The native suite(s) of a promptfoo config: (provider label, suite data) pairs. Raises SuiteError."""
    suite = load_suite(config)
    if not isinstance(suite, PromptfooSuite):
        raise SuiteError([_problem(config, "not a promptfoo config (it has no prompts or providers)")])
    suite.validate(require_target=False)
    problems = Problems(file=suite.file)
    for provider in suite.matrix.providers:
        if not provider.exportable:
            problems.error(f"provider {provider.provider_id!r} has no native target", provider.key_path,
                           suggestion="wrap call_api in a module function and use a `type: python` target")
    if suite.matrix.test_provider_specs:
        problems.error("a test's own `provider` cannot be written as a native suite (one target per suite)",
                       ("tests",), suggestion="run the promptfoo config itself, or move those tests to a config "
                                              "whose provider is theirs")
    if suite.matrix.compares:
        problems.error("select-best and max-score compare a test's outputs across prompts and providers, which a "
                       "native suite (one target, cases scored on their own) cannot express", ("tests",),
                       suggestion="run the promptfoo config itself: `agentunit run promptfooconfig.yaml`")
    problems.raise_if_any()
    out = []
    for provider in suite.matrix.providers:
        cases = []
        for raw, asserts, _, _ in expand(suite.matrix, suite.problems):
            if raw["metadata"]["provider"] != provider.label:
                continue
            case = dict(raw)
            if len(suite.matrix.providers) > 1:
                case["id"] = case["id"].replace(f" [{provider.label}]", "")
            if asserts:
                case["assert"] = [entry for entry, *_ in asserts]
            cases.append(case)
        data: dict[str, Any] = {"name": suite.name if len(suite.matrix.providers) == 1
                                else f"{suite.name} [{provider.label}]"}
        if suite.description:
            data["description"] = suite.description
        data["target"] = provider.native_target
        if suite.options:
            data["options"] = suite.options
        data["cases"] = cases
        out.append((provider.label, data))
    return out


def write_native(config: str | Path, output: str | Path) -> list[Path]:
    """Write the native suite(s) of ``config`` to ``output`` (several providers: ``output`` with the
    provider's name before the suffix); returns the paths written."""
    output = Path(output)
    suites = native_suites(config)
    written = []
    for label, data in suites:
        path = output if len(suites) == 1 else output.with_name(f"{output.stem}.{_slug(label)}{output.suffix}")
        path.write_text(yaml.dump(data, Dumper=_NoAliases, sort_keys=False, allow_unicode=True, width=120),
                        encoding="utf-8")
        written.append(path)
    return written


class _NoAliases(yaml.SafeDumper):
    """Write shared values (a test's vars, used by every prompt) in full, without YAML anchors."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _slug(label: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", label).strip("-") or "provider"


def _problem(config: str | Path, message: str) -> Any:
    from agentunit.errors import Problem

    return Problem(message, file=str(config), line=1,
                   suggestion="`agentunit import promptfoo` reads promptfooconfig.yaml files")
