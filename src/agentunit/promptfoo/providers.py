"""promptfoo providers → agentunit targets: echo, openai, http(s), exec:, python files.

``providers`` entries are ids (``openai:chat:gpt-4o-mini``), objects (``{id, label, config, prompts}``)
or the legacy one-key form (``{openai:gpt-4: {config: …}}``). Each becomes a native target spec
(``echo``, ``openai``, ``http``, ``command``) or, for a python file provider, a ``PythonFileTarget``.
Anything else — another vendor's SDK, JavaScript files and transforms — is a problem naming the
line and what to use instead; it is never skipped.
"""

from __future__ import annotations

import asyncio
import importlib.util
import inspect
import json
import os
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentunit.datasets.base import DatasetCase
from agentunit.errors import AgentUnitError, TargetError
from agentunit.suite.fields import shown
from agentunit.suite.problems import Problems
from agentunit.targets.base import Reply, Target
from agentunit.targets.command import CommandTarget
from agentunit.targets.matrix import MatrixTarget as MatrixTarget  # shared with native suites' `targets:`

PROVIDER_KEYS = ("id", "label", "config", "prompts", "transform", "delay", "env")
OPENAI_DEFAULT_MODEL = "gpt-4o-mini"
OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1"
OLLAMA_DEFAULT_HOST = "http://localhost:11434"
_CONVERTIBLE = ("echo, openai:chat:MODEL, openai:MODEL, ollama:chat:MODEL, http(s)://URL, "
                "exec:COMMAND, file://provider.py (python)")
_SIMPLE_PATH = re.compile(r"^json(?:(?:\.[A-Za-z_$][\w$]*)|(?:\[\d+\])|(?:\[['\"][^'\"]+['\"]\]))*$")


@dataclass
class ProviderSpec:
    """One promptfoo provider, resolved: its label, its target spec, the prompts it runs (None: all)."""

    label: str
    provider_id: str
    target: dict[str, Any]
    key_path: tuple[Any, ...]
    prompts: list[str] | None = None
    notes: list[str] = field(default_factory=list)
    config: dict[str, Any] = field(default_factory=dict)  # the provider's `config` (tools, functions, …)

    @property
    def exportable(self) -> bool:
        """A native target type (python file providers are not: native python targets are modules)."""
        return self.target.get("type") in ("echo", "openai", "http", "command", "promptfoo-exec")

    @property
    def native_target(self) -> dict[str, Any]:
        """The target spec a native suite gets: an ``exec:`` command without promptfoo's options and context
        arguments (a native command target passes what its ``argv`` templates say)."""
        if self.target.get("type") != "promptfoo-exec":
            return self.target
        return {"type": "command", **{k: v for k, v in self.target.items() if k not in ("type", "options")}}


def read_providers(value: Any, key_path: tuple[Any, ...], base_dir: Path, env: dict[str, Any],
                   problems: Problems) -> list[ProviderSpec]:
    """The config's ``providers`` (or ``targets``) as ProviderSpecs; problems for the rest."""
    if value is None:
        problems.error("the config has no providers", (), suggestion="add `providers: [echo]` or "
                       "`providers: [openai:chat:MODEL]`")
        return []
    items = value if isinstance(value, list) else [value]
    specs = []
    for index, item in enumerate(items):
        path = (*key_path, index) if isinstance(value, list) else key_path
        spec = provider_spec(item, path, base_dir, env, problems)
        if spec is not None:
            specs.append(spec)
    labels: dict[str, int] = {}
    for spec in specs:  # labels name the column of the matrix: make them unique
        count = labels.get(spec.label, 0)
        labels[spec.label] = count + 1
        if count:
            spec.label = f"{spec.label} #{count + 1}"
    return specs


def provider_spec(item: Any, path: tuple[Any, ...], base_dir: Path, env: dict[str, Any],
                  problems: Problems) -> ProviderSpec | None:
    """One provider (an id, ``{id, label, config, prompts}`` or the legacy ``{ID: {…}}``) resolved to its
    target spec; None, with a problem at ``path``, when it cannot run."""
    if isinstance(item, str):
        entry: dict[str, Any] = {"id": item}
    elif isinstance(item, dict) and "id" not in item and len(item) == 1 and isinstance(next(iter(item)), str) \
            and isinstance(next(iter(item.values())), dict):  # legacy {openai:gpt-4: {config: …}}
        provider_id, options = next(iter(item.items()))
        entry = {"id": provider_id, **options}
    elif isinstance(item, dict):
        entry = item
    else:
        problems.error(f"a provider must be an id or an object with `id`, got {shown(item)}", path)
        return None
    provider_id = entry.get("id")
    if not isinstance(provider_id, str) or not provider_id.strip():
        problems.error("a provider object needs an `id`", path, suggestion=f"one of {_CONVERTIBLE}")
        return None
    for key in entry:
        if key not in PROVIDER_KEYS:
            problems.warn(f"provider field {key!r} is not used by agentunit", (*path, key))
    if entry.get("transform") is not None:
        problems.error("provider `transform` is JavaScript and cannot run here", (*path, "transform"),
                       suggestion="return the final text from the provider itself (a python provider, or an "
                                  "http provider with a `transformResponse: json.path` selector)")
        return None
    config = entry.get("config") or {}
    if not isinstance(config, dict):
        problems.error(f"provider config must be an object, got {shown(config)}", (*path, "config"))
        return None
    prompts = entry.get("prompts")
    if prompts is not None and not (isinstance(prompts, list) and all(isinstance(p, str) for p in prompts)):
        problems.error(f"provider `prompts` must be a list of prompt labels, got {shown(prompts)}", (*path, "prompts"))
        prompts = None
    target = _target(provider_id.strip(), config, path, base_dir, {**env, **(entry.get("env") or {})}, problems)
    if target is None:
        return None
    label = entry.get("label") if isinstance(entry.get("label"), str) else provider_id.strip()
    return ProviderSpec(label=label, provider_id=provider_id.strip(), target=target, key_path=path, prompts=prompts,
                        config=config)


def declared_schemas(value: Any) -> dict[str, Any]:
    """The first ``tools``/``functions`` declared in a raw ``providers`` list's configs (kept when an
    override such as ``AGENTUNIT_PROMPTFOO_PROVIDERS=echo`` replaces the providers)."""
    for item in value if isinstance(value, list) else [value]:
        if isinstance(item, dict) and "id" not in item and len(item) == 1 and isinstance(next(iter(item.values())),
                                                                                         dict):
            item = next(iter(item.values()))
        config = item.get("config") if isinstance(item, dict) else None
        if isinstance(config, dict):
            found = {k: config[k] for k in ("tools", "functions") if config.get(k) is not None}
            if found:
                return found
    return {}


def _target(provider_id: str, config: dict[str, Any], path: tuple[Any, ...], base_dir: Path,
            env: dict[str, Any], problems: Problems) -> dict[str, Any] | None:
    at = (*path, "id")  # a string entry has no `id` key: its own line is found instead
    if provider_id == "echo":
        return {"type": "echo"}
    if provider_id.startswith("openai:") or provider_id == "openai":
        return _openai(provider_id, config, path, env, problems)
    if provider_id.startswith("ollama:"):
        model = provider_id.split(":", 2)[-1] if provider_id.count(":") >= 1 else ""
        host = str(config.get("apiBaseUrl") or _env("OLLAMA_BASE_URL", env) or OLLAMA_DEFAULT_HOST).rstrip("/")
        return _with_openai_options({"type": "openai", "model": model, "base_url": f"{host}/v1"}, config)
    if provider_id.startswith(("http://", "https://")) or provider_id in ("http", "https"):
        return _http(provider_id, config, path, problems)
    if provider_id.startswith("exec:"):
        return _exec(provider_id[len("exec:"):], config, path, problems)
    file_ref = provider_id[len("file://"):] if provider_id.startswith("file://") else \
        provider_id[len("python:"):] if provider_id.startswith("python:") else None
    if file_ref is not None:
        file, _, function = file_ref.partition(":")
        if file.endswith(".py"):
            resolved = base_dir / file
            if not resolved.is_file():
                problems.error(f"python provider file {file!r} not found (looked in {base_dir})", at)
                return None
            return {"type": "promptfoo-python", "file": str(resolved), "function": function or "call_api",
                    "config": config}
        if file.endswith((".js", ".mjs", ".cjs", ".ts")):
            problems.error(f"provider {provider_id!r} is JavaScript and cannot run here", at,
                           suggestion="port it to a python provider (file://provider.py with call_api(prompt, "
                                      "options, context)) or an exec: command")
            return None
        problems.error(f"provider file {file!r} is not a python provider", at,
                       suggestion="name a .py file with call_api(prompt, options, context)")
        return None
    problems.error(f"provider {provider_id!r} cannot run here: agentunit runs {_CONVERTIBLE}", at,
                   suggestion="serve the model behind an OpenAI-compatible API (vLLM, llama.cpp, `agentunit models "
                              "serve judge`) and use openai:chat:MODEL with OPENAI_BASE_URL, or call it from a "
                              "python provider")
    return None


def _env(name: str, env: dict[str, Any]) -> str | None:
    value = env.get(name, os.environ.get(name))
    return str(value) if value else None


def _openai(provider_id: str, config: dict[str, Any], path: tuple[Any, ...], env: dict[str, Any],
            problems: Problems) -> dict[str, Any] | None:
    parts = provider_id.split(":")
    kind = parts[1] if len(parts) > 2 else "chat"
    model = parts[-1] if len(parts) > 1 and parts[-1] not in ("chat", "") else OPENAI_DEFAULT_MODEL
    if kind not in ("chat",):
        problems.error(f"provider {provider_id!r}: only OpenAI chat completions can run here ({kind!r} cannot)",
                       (*path, "id"), suggestion=f"use openai:chat:{model}")
        return None
    base_url = config.get("apiBaseUrl") or (f"{str(config['apiHost']).rstrip('/')}/v1" if config.get("apiHost")
                                             else None)
    base_url = base_url or _env("OPENAI_BASE_URL", env) or _env("OPENAI_API_BASE_URL", env) or OPENAI_DEFAULT_BASE_URL
    spec: dict[str, Any] = {"type": "openai", "model": str(config.get("model", model)), "base_url": str(base_url)}
    if isinstance(config.get("apiKeyEnvar"), str):
        spec["api_key_env"] = config["apiKeyEnvar"]
    return _with_openai_options(spec, config)


def _with_openai_options(spec: dict[str, Any], config: dict[str, Any]) -> dict[str, Any]:
    if isinstance(config.get("temperature"), (int, float)) and not isinstance(config.get("temperature"), bool):
        spec["temperature"] = config["temperature"]
    tokens = config.get("max_tokens", config.get("max_completion_tokens"))
    if isinstance(tokens, int) and not isinstance(tokens, bool) and tokens > 0:
        spec["max_tokens"] = tokens
    if isinstance(config.get("headers"), dict):
        spec["headers"] = config["headers"]
    return spec


def _http(provider_id: str, config: dict[str, Any], path: tuple[Any, ...], problems: Problems) -> dict[str, Any] | None:
    url = config.get("url") if provider_id in ("http", "https") else provider_id
    if not isinstance(url, str) or not url:
        problems.error("an http provider needs `config.url`", (*path, "config"))
        return None
    spec: dict[str, Any] = {"type": "http", "url": url, "method": str(config.get("method", "POST")).upper(),
                            "body": config.get("body", {"prompt": "{{ prompt }}"})}
    if isinstance(config.get("headers"), dict):
        spec["headers"] = config["headers"]
    transform = config.get("transformResponse", config.get("responseParser"))
    if transform is not None:
        selector = response_path(transform)
        if selector is None:
            key = "transformResponse" if "transformResponse" in config else "responseParser"
            problems.error(f"transformResponse {shown(transform)} is JavaScript and cannot run here",
                           (*path, "config", key),
                           suggestion="use a path into the JSON reply such as json.choices[0].message.content")
            return None
        spec["output_path"] = selector
    for key in config:
        if key not in ("url", "method", "body", "headers", "transformResponse", "responseParser"):
            problems.warn(f"http provider option {key!r} is not used by agentunit", (*path, "config", key))
    return spec


def response_path(transform: Any) -> str | None:
    """A promptfoo ``transformResponse`` that only selects a path (``json.a.b[0]``) as our
    ``output_path`` (``$.a.b[0]``); None for anything else (JavaScript)."""
    if not isinstance(transform, str):
        return None
    text = transform.strip()
    if not _SIMPLE_PATH.match(text):
        return None
    return "$" + text[len("json"):] if text != "json" else "$"


def _exec(command: str, config: dict[str, Any], path: tuple[Any, ...], problems: Problems) -> dict[str, Any] | None:
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        problems.error(f"exec command cannot be split like a shell command line: {exc}", path)
        return None
    if not argv:
        problems.error("exec: names no command", path, suggestion="write exec: python provider.py")
        return None
    spec: dict[str, Any] = {"type": "promptfoo-exec", "argv": [*argv, "{{ prompt }}"],
                            "options": {"id": f"exec:{command}", "config": config}}
    if isinstance(config.get("basePath"), str):
        spec["cwd"] = config["basePath"]
    return spec


# -- runtime targets ------------------------------------------------------------------------------


class PythonFileTarget(Target):
    """A promptfoo python provider: ``call_api(prompt, options, context)`` in a ``.py`` file, sync or
    async, returning ``{output, error, tokenUsage, cost}`` (or plain text)."""

    kind = "python"

    def __init__(self, spec: dict[str, Any]):
        super().__init__(spec)
        file = Path(spec["file"])
        module_spec = importlib.util.spec_from_file_location(f"promptfoo_provider_{file.stem}", file)
        if module_spec is None or module_spec.loader is None:
            raise AgentUnitError(f"cannot load python provider {file}")
        module = importlib.util.module_from_spec(module_spec)
        try:
            module_spec.loader.exec_module(module)
        except (Exception, SystemExit) as exc:  # the provider's own module code may raise anything
            raise AgentUnitError(f"cannot load python provider {file}: {type(exc).__name__}: {exc}") from None
        self.function = getattr(module, spec["function"], None)
        if not callable(self.function):
            raise AgentUnitError(f"python provider {file} has no function {spec['function']!r}")

    def request(self, case: DatasetCase) -> dict[str, Any]:
        return {"prompt": case.query, "vars": case.vars}

    async def send(self, case: DatasetCase, request: dict[str, Any]) -> Reply:
        options = {"config": self.spec.get("config") or {}}
        context = {"vars": case.vars, "prompt": {"raw": case.query, "label": case.metadata.get("prompt_label")}}
        if inspect.iscoroutinefunction(self.function):
            result = await self.function(case.query, options, context)
        else:
            result = await asyncio.to_thread(self.function, case.query, options, context)
        if isinstance(result, dict):
            if result.get("error"):
                raise TargetError(f"python provider: {result['error']}")
            usage = result.get("tokenUsage")
            output = result.get("output")
            return Reply(body=output if isinstance(output, str) else json.dumps(output, ensure_ascii=False),
                         usage={"prompt_tokens": usage.get("prompt"), "completion_tokens": usage.get("completion"),
                                "total_tokens": usage.get("total")} if isinstance(usage, dict) else None,
                         cost=result.get("cost") if isinstance(result.get("cost"), (int, float)) else None)
        return Reply(body=result)

    def describe(self) -> dict[str, Any]:
        return {"type": "promptfoo-python", "file": self.spec["file"], "function": self.spec["function"]}


class ExecTarget(CommandTarget):
    """promptfoo's ``exec:`` provider: the command run with the prompt, the provider's options (JSON) and
    the call's context (JSON: ``vars``, ``prompt``) as its last three arguments, as promptfoo's script
    provider calls it; its standard output is the reply."""

    def __init__(self, spec: dict[str, Any]):
        super().__init__({k: v for k, v in spec.items() if k not in ("type", "options")} | {"type": "command"})
        self.options = spec.get("options") or {}

    def request(self, case: DatasetCase) -> dict[str, Any]:
        request = super().request(case)
        context = {"vars": case.vars, "prompt": {"raw": case.query, "label": case.metadata.get("prompt_label")}}
        request["argv"] = [*request["argv"], json.dumps(self.options, ensure_ascii=False, default=str),
                           json.dumps(context, ensure_ascii=False, default=str)]
        return request

    def describe(self) -> dict[str, Any]:
        return {"type": "promptfoo-exec", "argv": self.argv}


def build_target(spec: dict[str, Any], base_dir: Path | None) -> Target:
    """The runtime target of one provider spec."""
    if spec.get("type") == "promptfoo-python":
        return PythonFileTarget(spec)
    if spec.get("type") == "promptfoo-exec":
        return ExecTarget(spec)
    if spec.get("type") == "openai":
        from agentunit.promptfoo.chat import ChatOpenAITarget

        return ChatOpenAITarget(spec)
    from agentunit.targets import make_target

    target = make_target(spec, base_dir)
    assert target is not None
    return target
