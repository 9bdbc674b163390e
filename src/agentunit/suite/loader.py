"""Load a suite from a YAML/JSON file or a dict, checking its top level, target and options."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from agentunit.errors import Problem, SuiteError
from agentunit.suite.cases import CASE_KEYS, Where, parse_metric_list
from agentunit.suite.model import Suite
from agentunit.suite.problems import Problems

SUITE_KEYS = ("name", "description", "target", "judge", "defaults", "metrics", "options", "prompt",
              "cases", "cases_file", "tests")
TARGET_KEYS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # type: (required keys, optional keys)
    "echo": ((), ()),
    "python": (("function",), ()),
    "http": (("url",), ("method", "headers", "body", "output_path", "retries", "backoff")),
    "command": (("argv",), ("stdin", "cwd", "env")),
    "openai": (("model",), ("base_url", "api_key_env", "system", "temperature", "max_tokens", "logprobs",
                            "top_logprobs", "retries", "backoff", "headers")),
}
_COMMON_TARGET_KEYS = ("type", "timeout", "cache")
OPTION_KEYS = ("concurrency", "timeout", "repeat", "cache")


def load_suite(path: str | Path) -> Suite:
    """Read and check a suite file (YAML or JSON). Raises SuiteError with file:line problems."""
    path = Path(path)
    file = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SuiteError([Problem("suite file not found", file=file)]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SuiteError([Problem(f"cannot read suite file: {exc}", file=file)]) from None
    try:
        if path.suffix.lower() == ".json":
            data = json.loads(text)
        else:
            data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except json.JSONDecodeError as exc:
        raise SuiteError([Problem(f"invalid JSON: {exc.msg}", file=file, line=exc.lineno)]) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise SuiteError([Problem(f"invalid YAML: {getattr(exc, 'problem', None) or exc}", file=file,
                                  line=mark.line + 1 if mark else None)]) from None
    return suite_from_dict(data, path=path)


def suite_from_dict(data: Any, path: Path | None = None) -> Suite:
    """Build a Suite from decoded suite data; ``path`` locates problems and relative cases files."""
    file = str(path) if path else None
    problems = Problems(file=file)
    if not isinstance(data, dict):
        raise SuiteError([Problem("a suite must be an object with `cases`", file=file, line=1)])
    problems.unknown_keys(data, SUITE_KEYS, (), "suite")
    where = Where(file, ())
    name = data.get("name") or (path.stem if path else "suite")
    suite = Suite(name=str(name), path=path, description=data.get("description"), problems=problems)
    suite.target = _target(data.get("target"), problems)
    judge = data.get("judge")
    if judge is not None:
        if isinstance(judge, dict):
            suite.judge = judge
        else:
            problems.error("judge must be an object like {provider: local}", ("judge",))
    suite.options = _options(data.get("options"), problems)
    defaults = data.get("defaults") or {}
    if not isinstance(defaults, dict):
        problems.error("defaults must be an object", ("defaults",))
        defaults = {}
    problems.unknown_keys(defaults, CASE_KEYS - {"id"}, ("defaults",), "defaults")
    suite.defaults = defaults
    suite.default_metrics = parse_metric_list(defaults.get("metrics"), Where(file, ("defaults",)),
                                              ("metrics",), problems)
    suite.suite_metrics = parse_metric_list(data.get("metrics"), where, ("metrics",), problems)
    prompt = data.get("prompt")
    if prompt is not None and not isinstance(prompt, str):
        problems.error("prompt must be a string template", ("prompt",))
    suite.prompt = prompt if isinstance(prompt, str) else None
    cases = data.get("cases", data.get("tests"))
    if cases is not None and not isinstance(cases, list):
        problems.error("cases must be a list", ("cases",))
        cases = []
    suite.inline_cases = cases or []
    suite.case_files = _case_files(data.get("cases_file"), path, problems)
    if not suite.inline_cases and not suite.case_files and "cases" not in data:
        problems.error("the suite has no cases", (), suggestion="add `cases:` or `cases_file:`")
    return suite


def _target(target: Any, problems: Problems) -> dict[str, Any] | None:
    if target is None:
        return None
    if isinstance(target, str):
        target = {"type": target}
    if not isinstance(target, dict):
        problems.error("target must be an object like {type: http, url: ...}", ("target",))
        return None
    kind = target.get("type")
    if kind not in TARGET_KEYS:
        import difflib

        close = difflib.get_close_matches(str(kind), list(TARGET_KEYS), n=1)
        problems.error(f"unknown target type {kind!r}", ("target", "type"),
                       suggestion=f"did you mean {close[0]!r}?" if close else f"use one of {', '.join(TARGET_KEYS)}")
        return None
    required, optional = TARGET_KEYS[kind]
    problems.unknown_keys(target, (*_COMMON_TARGET_KEYS, *required, *optional), ("target",), f"{kind} target")
    for key in required:
        if key not in target:
            problems.error(f"{kind} target needs {key!r}", ("target",))
    if kind == "python" and "function" in target and not callable(target["function"]):
        spec = target["function"]
        if not isinstance(spec, str) or ":" not in spec:
            problems.error(f"function must be 'module:callable', got {spec!r}", ("target", "function"),
                           suggestion="for example examples.calc:answer")
    for key in ("timeout", "retries", "backoff"):
        value = target.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0):
            problems.error(f"{key} must be a non-negative number", ("target", key))
    return target


def _options(options: Any, problems: Problems) -> dict[str, Any]:
    if options is None:
        return {}
    if not isinstance(options, dict):
        problems.error("options must be an object", ("options",))
        return {}
    problems.unknown_keys(options, OPTION_KEYS, ("options",), "options")
    for key in ("concurrency", "repeat"):
        value = options.get(key)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
            problems.error(f"{key} must be an integer ≥ 1", ("options", key))
    timeout = options.get("timeout")
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0):
        problems.error("timeout must be a number of seconds > 0", ("options", "timeout"))
    return options


def _case_files(value: Any, path: Path | None, problems: Problems) -> list[Path]:
    if value is None:
        return []
    items = value if isinstance(value, list) else [value]
    base = path.parent if path else Path.cwd()
    files = []
    for index, item in enumerate(items):
        key = ("cases_file", index) if isinstance(value, list) else ("cases_file",)
        if not isinstance(item, str):
            problems.error("cases_file must be a path or a list of paths", key)
            continue
        file = (base / item) if not Path(item).is_absolute() else Path(item)
        if not file.exists():
            problems.error(f"cases file {item!r} not found (looked in {base})", key)
            continue
        files.append(file)
    return files
