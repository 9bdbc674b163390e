"""promptfoo assertions → agentunit metric entries.

Most promptfoo assertion types are agentunit metric names already (``equals``, ``icontains``,
``is-json``, ``similar``, ``llm-rubric``, …); the rest are renamed here (``model-graded-factuality``
→ ``factuality``) or carry a suffix (``similar:euclidean`` → ``similar`` with ``config.metric``).
``not-`` works for every type. JavaScript (``javascript`` assertions, ``transform``) is a problem
with the line and the Python alternative, never skipped. String values are Nunjucks templates over
the test's vars, as in promptfoo.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agentunit.core.templating import TemplateError, is_template, render
from agentunit.metrics.registry import UnknownMetricError, lookup
from agentunit.metrics.text import split_values  # promptfoo's parseCommaSeparatedValues
from agentunit.suite.assertion_cells import (  # noqa: F401  (assertion_from_string: this module's API too)
    NO_EQUIVALENT,
    PROMPTFOO_THRESHOLDS,
    RENAMED,
    assertion_from_string,
)
from agentunit.suite.fields import shown
from agentunit.suite.problems import Problems
from agentunit.trust import AUTHOR_GATE, FileGate, PathRefused

ASSERTION_KEYS = ("type", "value", "threshold", "weight", "metric", "config", "assert", "provider",
                  "rubricPrompt", "transform", "contextTransform", "alpha", "beta", "gamma")
# Types whose string value promptfoo splits into a list (parseCommaSeparatedValues).
SPLIT_TYPES = ("contains-any", "contains-all", "icontains-any", "icontains-all")
# Types that read the provider's tool/function schemas (provider ``config.tools``/``config.functions``).
TOOL_SCHEMA_TYPES = {"is-valid-openai-tools-call": "tools", "is-valid-openai-function-call": "functions"}


def convert_assertion(entry: Any, key_path: tuple[Any, ...], problems: Problems, *, variables: dict[str, Any],
                      base_dir: Path, file: str | None = None, line: int | None = None,
                      provider_config: dict[str, Any] | None = None,
                      gate: FileGate = AUTHOR_GATE) -> dict[str, Any] | None:
    """One promptfoo assertion as an agentunit metric entry (None, with a problem, when it cannot run).
    A ``file://`` value is read through ``gate`` (a tests file's only inside the config's folder).

    ``provider_config`` is the provider's ``config``: its ``tools``/``functions`` are the schemas that
    ``is-valid-openai-tools-call``/``-function-call`` check against, as in promptfoo."""
    where = {"file": file, "line": line}
    if not isinstance(entry, dict):
        problems.error(f"an assertion must be an object like {{type: contains, value: …}}, got {shown(entry)}",
                       key_path, **where)
        return None
    kind = entry.get("type")
    if not isinstance(kind, str) or not kind.strip():
        problems.error("an assertion needs a `type`", key_path, **where, suggestion="for example type: contains")
        return None
    for key in entry:
        if key not in ASSERTION_KEYS:
            problems.warn(f"assertion field {key!r} is not used by agentunit", (*key_path, key), **where)
    for key in ("transform", "contextTransform"):
        if entry.get(key) is not None:
            problems.error(f"assertion `{key}` is JavaScript and cannot run here", (*key_path, key), **where,
                           suggestion="do the transformation inside a python assertion (value: a function body "
                                      "over output)")
            return None
    for key in ("provider", "rubricPrompt"):
        if entry.get(key) is not None and not (key == "provider" and kind.removeprefix("not-") == "classifier"):
            problems.warn(f"assertion `{key}` is ignored: model-graded assertions use agentunit's judge and its "
                          "own prompts", (*key_path, key), **where,
                          suggestion="choose the judge with `agentunit import promptfoo` and a `judge:` section")
    negate = kind.startswith("not-")
    base = kind[4:] if negate else kind
    config = dict(entry.get("config") or {}) if isinstance(entry.get("config"), dict) else entry.get("config")
    threshold = entry.get("threshold")
    if base in NO_EQUIVALENT:
        what = "JavaScript and cannot run here" if base == "javascript" else "not available in agentunit"
        problems.error(f"assertion type {kind!r} is {what}", (*key_path, "type"), **where,
                       suggestion=NO_EQUIVALENT[base])
        return None
    if negate and base in ("select-best", "max-score"):
        problems.error(f"assertion type {kind!r} does not exist: {base} has no negation", (*key_path, "type"),
                       **where, suggestion=f"use {base}: the outputs it does not choose fail it")
        return None
    name = RENAMED.get(base, base)
    if base == "classifier":
        config = _classifier_config(entry, config, (*key_path, "provider"), problems, where)
        if config is None:
            return None
    if base.startswith("similar:"):
        measure = base.split(":", 1)[1]
        name = "similar"
        config = {**(config or {}), "metric": measure}
        if measure == "euclidean" and isinstance(threshold, (int, float)) and not isinstance(threshold, bool):
            threshold = 1 / (1 + threshold)  # promptfoo's threshold is the largest distance; ours a similarity
    try:
        lookup(name)
    except UnknownMetricError as exc:
        hint = f"did you mean {', '.join(repr(s) for s in exc.suggestions)}?" if exc.suggestions else \
            "write the check as a python assertion; `agentunit metrics` lists the built-in ones"
        problems.error(f"assertion type {kind!r} has no agentunit equivalent", (*key_path, "type"), **where,
                       suggestion=hint)
        return None
    out: dict[str, Any] = {"type": ("not-" if negate else "") + name}
    if name == "assert-set":
        children = entry.get("assert")
        if not isinstance(children, list) or not children:
            problems.error("assert-set needs a list of assertions under `assert:`", key_path, **where)
            return None
        converted = [convert_assertion(c, (*key_path, "assert", i), problems, variables=variables,
                                       base_dir=base_dir, file=file, line=line, provider_config=provider_config,
                                       gate=gate)
                     for i, c in enumerate(children)]
        if any(c is None for c in converted):
            return None
        out["assert"] = converted
    elif "value" in entry:
        value = _rendered(entry["value"], variables, (*key_path, "value"), problems, where)
        out["value"] = _file_value(value, name, base_dir, (*key_path, "value"), problems, where, gate)
        if name in SPLIT_TYPES and isinstance(out["value"], str):
            try:
                out["value"] = split_values(out["value"])
            except ValueError as exc:
                problems.error(f"{kind} value {out['value']!r}: {exc}", (*key_path, "value"), **where,
                               suggestion='quote items holding commas: a, "b, c", d (\\" or "" for a quote)')
                return None
    if name in ("is-xml", "contains-xml") and "value" in out:
        out["value"] = xml_paths(out["value"])
    if name == "meteor":  # promptfoo reads alpha/beta/gamma on the assertion itself
        extra = {k: entry[k] for k in ("alpha", "beta", "gamma") if k in entry}
        if extra:
            config = {**(config if isinstance(config, dict) else {}), **extra}
    if name in TOOL_SCHEMA_TYPES:
        config = _with_schemas(name, config, provider_config, base_dir, (*key_path, "type"), problems, where)
        if config is None:
            return None
    if threshold is None and name in PROMPTFOO_THRESHOLDS:
        threshold = PROMPTFOO_THRESHOLDS[name]
    if threshold is not None:
        out["threshold"] = threshold
    for key in ("weight", "metric"):
        if key in entry:
            out[key] = entry[key]
    if config:
        out["config"] = config
    return out


def _classifier_config(entry: dict[str, Any], config: Any, key_path: tuple[Any, ...], problems: Problems,
                       where: dict[str, Any]) -> dict[str, Any] | None:
    """The classifier's config with ``model`` read from its ``provider``; a model without a local stand-in
    is a problem naming the alternatives."""
    from agentunit.metrics.promptfoo_compat import CLASSIFIER_MODELS, classifier_model

    model = classifier_model(entry.get("provider"))
    config = dict(config) if isinstance(config, dict) else {}
    model = model or config.get("model")
    if model is None:
        problems.error("classifier needs the model it runs", key_path, **where,
                       suggestion="add `provider: huggingface:text-classification:MODEL` (the hate and toxicity "
                                  "models have a local stand-in; otherwise use `moderation` or `llm-rubric`)")
        return None
    if model not in CLASSIFIER_MODELS:
        problems.error(f"classifier model {model!r} has no local stand-in in agentunit", key_path, **where,
                       suggestion="the local moderation classifier stands in for the hate and toxicity models ("
                                  + ", ".join(CLASSIFIER_MODELS) + "); otherwise use `moderation`, `llm-rubric`, "
                                  "or a python assertion that calls a local transformers pipeline")
        return None
    return {**config, "model": model}


def xml_paths(value: Any) -> Any:
    """promptfoo's required-element paths in agentunit's spelling: an index step ``root.item.1.name``
    (promptfoo) becomes ``root.item[1].name``; a comma-separated string becomes a list."""
    def one(path: Any) -> Any:
        if not isinstance(path, str):
            return path
        steps: list[str] = []
        for part in path.strip().split("."):
            if part.isdigit() and steps and not steps[-1].endswith("]"):
                steps[-1] += f"[{part}]"
            else:
                steps.append(part)
        return ".".join(steps)

    if isinstance(value, dict) and isinstance(value.get("requiredElements"), list):  # else the metric refuses it
        return {**value, "requiredElements": xml_paths(value["requiredElements"])}
    if isinstance(value, str):
        return [one(p) for p in value.split(",") if p.strip()]
    if isinstance(value, list):
        return [one(p) for p in value]
    return value


def _with_schemas(name: str, config: Any, provider_config: dict[str, Any] | None, base_dir: Path,
                  key_path: tuple[Any, ...], problems: Problems, where: dict[str, Any]) -> dict[str, Any] | None:
    """The assertion's config with the provider's ``tools``/``functions`` added when it names none."""
    config = dict(config) if isinstance(config, dict) else {}
    if "tools" in config or "functions" in config:
        return config
    provider_config = provider_config or {}
    keys = ("tools", "functions") if name == "is-valid-openai-tools-call" else ("functions", "tools")
    for key in keys:
        schemas = provider_config.get(key)
        if schemas is None:
            continue
        if isinstance(schemas, str) and schemas.startswith("file://"):
            schemas = _file_value(schemas, name, base_dir, key_path, problems, where)
        config[key] = schemas
        return config
    problems.error(f"assertion type {name!r} needs the provider's `config.{TOOL_SCHEMA_TYPES[name]}`", key_path,
                   **where, suggestion=f"declare {TOOL_SCHEMA_TYPES[name]} on the provider, or give the assertion "
                                       f"`config: {{{TOOL_SCHEMA_TYPES[name]}: [...]}}`")
    return None


def _rendered(value: Any, variables: dict[str, Any], key_path: tuple[Any, ...], problems: Problems,
              where: dict[str, Any]) -> Any:
    """promptfoo renders assertion values over the test's vars."""
    if isinstance(value, str) and is_template(value):
        try:
            return render(value, variables)
        except TemplateError as exc:
            problems.error(str(exc), key_path, **where)
            return value
    if isinstance(value, list):
        return [_rendered(v, variables, key_path, problems, where) for v in value]
    return value


def _file_value(value: Any, name: str, base_dir: Path, key_path: tuple[Any, ...], problems: Problems,
                where: dict[str, Any], gate: FileGate = AUTHOR_GATE) -> Any:
    """``file://`` values: a python check file made absolute, a text file's content read."""
    if not isinstance(value, str) or not value.startswith("file://"):
        return value
    reference = value[len("file://"):]
    path_text, function = reference, ""
    head, _, tail = reference.rpartition(":")
    if head and tail.isidentifier():
        path_text, function = head, tail
    path = Path(path_text) if Path(path_text).is_absolute() else base_dir / path_text
    if name == "python":
        return f"file://{path}" + (f":{function}" if function else "")
    if path.suffix in (".js", ".mjs", ".cjs", ".ts"):
        problems.error(f"assertion value {value!r} is JavaScript and cannot run here", key_path, **where,
                       suggestion="use a python assertion with value: file://check.py")
        return value
    try:
        text = gate.read_text(path)
    except PathRefused as exc:
        problems.error(f"assertion value {value!r}: {exc.reason}", key_path, **where, suggestion=exc.suggestion)
        return value
    except (OSError, UnicodeDecodeError) as exc:
        problems.error(f"cannot read assertion value file {path_text!r}: {getattr(exc, 'strerror', None) or exc}",
                       key_path, **where)
        return value
    if path.suffix in (".json", ".yaml", ".yml"):
        from agentunit.suite.sources import DocumentError, parse_document

        try:
            return parse_document(text, is_json=path.suffix == ".json")
        except DocumentError as exc:
            problems.error(f"{path_text}: {exc}", key_path, **where)
            return value
    return text.strip()
