"""Load a suite from a YAML/JSON file or a dict, checking its top level, target, judge and options.

Everything a run reads from the suite is checked here (or, for cases, in ``Suite.validate``)
before the first call: unknown keys, types, finite numbers in range, templates that compile, argv
that splits. Each problem names file, line and field.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from agentunit.errors import Problem, SuiteError
from agentunit.judges.providers import PROVIDERS
from agentunit.media.limits import MediaLimits
from agentunit.suite.cases import CASE_FIELDS, CASE_KEYS, Where, check_media, parse_metric_list
from agentunit.suite.fields import (
    Check,
    boolean,
    by_type,
    check_fields,
    choice,
    integer,
    json_template,
    list_of,
    mapping,
    number,
    scalar,
    shown,
    template,
    template_or_number,
    text,
)
from agentunit.suite.locate import format_path
from agentunit.suite.model import Suite
from agentunit.suite.problems import Problems
from agentunit.suite.sources import DocumentError, open_cases_file, parse_document
from agentunit.trust import PathRefused

if TYPE_CHECKING:  # a suite without `prompts:`/`targets:` or a transform imports neither module
    from agentunit.suite.matrix import TargetVariant
    from agentunit.suite.transform import Transform

SUITE_KEYS = ("name", "description", "target", "targets", "judge", "defaults", "metrics", "options", "prompt",
              "prompts", "cases", "cases_file", "tests", "calibration")
SUITE_FIELDS: dict[str, Check] = {"name": scalar(), "description": text(), "prompt": template(),
                                  "calibration": text(nonblank=True)}
OPTION_FIELDS: dict[str, Check] = {"concurrency": integer(1), "timeout": number(above=0), "repeat": integer(1),
                                   "cache": boolean(), "allow_unmeasured": boolean(), "media_max_bytes": integer(1),
                                   "media_timeout": number(above=0),
                                   "allow_paths": list_of(text(nonblank=True), "folder paths")}
OPTION_KEYS = tuple(OPTION_FIELDS)
JUDGE_FIELDS: dict[str, Check] = {
    "provider": choice(*PROVIDERS), "model": text(nonblank=True), "base_url": text(nonblank=True),
    "api_key_env": text(nonblank=True), "timeout": number(above=0), "concurrency": integer(1),
    "n_ctx": integer(1), "threads": integer(1), "port": integer(0, 65535), "queue_timeout": number(above=0),
    "cost_per_1k_prompt_tokens": number(0), "cost_per_1k_completion_tokens": number(0),
    "max_response_bytes": integer(1), "model_path": text(nonblank=True), "n_gpu_layers": integer(0),
    "combine": choice("mean", "agreement"), "vision": boolean(),
}
MIN_ENSEMBLE = 2


def _ensemble_members(value: Any) -> str | None:
    """``judges`` of an ensemble: two or more judge objects, each valid on its own, none an ensemble."""
    if not isinstance(value, list) or len(value) < MIN_ENSEMBLE:
        return f"must be a list of {MIN_ENSEMBLE} or more judges like {{provider: openai, …}}, got {shown(value)}"
    for index, member in enumerate(value):
        if not isinstance(member, dict):
            return f"item {index} must be a judge object, got {shown(member)}"
        for key in member:
            if key not in JUDGE_FIELDS or key == "combine":
                return f"item {index} has an unknown judge field {key!r}"
        if member.get("provider") == "ensemble":
            return f"item {index} is an ensemble itself; list its judges here instead"
        for key, check in JUDGE_FIELDS.items():
            problem = check(member[key]) if key in member else None
            if problem:
                return f"item {index} field {key} {problem}"
    return None


JUDGE_FIELDS["judges"] = _ensemble_members
HTTP_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
_SENDING: dict[str, Check] = {"retries": integer(0), "backoff": number(0), "retry_on_timeout": boolean(),
                              "max_response_bytes": integer(1)}
_HEADERS = mapping(template_or_number())


def _method(value: Any) -> str | None:
    if isinstance(value, str) and value.upper() in HTTP_METHODS:
        return None
    return f"must be one of {', '.join(HTTP_METHODS)}, got {shown(value)}"



# type: (required keys, checks of every key the type takes besides type/timeout/cache)
TARGET_FIELDS: dict[str, tuple[tuple[str, ...], dict[str, Check]]] = {
    "echo": ((), {}),
    "python": (("function",), {}),  # checked by _python_function: a callable from the Python API is fine
    "http": (("url",), {"url": template(), "method": _method,
                        "headers": _HEADERS, "body": json_template(), "output_path": text(nonblank=True),
                        "output_is_media": boolean(), **_SENDING}),
    "command": (("argv",), {"argv": by_type("a command line or a list of arguments", text=template(),
                                            list=list_of(template_or_number(), "arguments", nonempty=True)),
                            "stdin": template(), "cwd": text(nonblank=True), "env": mapping(scalar()),
                            "max_response_bytes": integer(1), "output_is_media": boolean()}),
    "openai": (("model",), {"model": text(nonblank=True), "base_url": text(nonblank=True),
                            "api_key_env": text(nonblank=True), "system": template(), "temperature": number(0, 2),
                            "max_tokens": integer(1), "logprobs": boolean(), "top_logprobs": integer(0, 20),
                            "headers": _HEADERS, **_SENDING}),
    # recorded runs, one case per trace (docs/traces.md)
    "traces": (("path",), {"path": by_type("a path or glob, or a list of them", text=text(nonblank=True),
                                           list=list_of(text(nonblank=True), "paths", nonempty=True)),
                           "format": choice("auto", "otlp", "openinference"), "case_id_attribute": text(nonblank=True),
                           "sessions": boolean(), "session_attribute": text(nonblank=True),
                           "cost_per_1k_prompt_tokens": number(0), "cost_per_1k_completion_tokens": number(0)}),
}
_COMMON_TARGET_FIELDS: dict[str, Check] = {"timeout": number(above=0), "cache": boolean()}


def load_suite(path: str | Path, *, calibration: str | Path | None = None) -> Suite:
    """Read and check a suite file (YAML or JSON). Raises SuiteError with file:line problems.

    ``calibration``: a calibration file to use instead of the suite's ``calibration:`` (``run
    --calibration``), relative to the working directory.
    """
    path = Path(path)
    file = str(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise SuiteError([Problem("suite file not found", file=file, line=1)]) from None
    except OSError as exc:
        raise SuiteError([Problem(f"cannot read suite file: {exc.strerror or exc}", file=file, line=1)]) from None
    try:
        text_ = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SuiteError([Problem(f"suite file is not UTF-8 text: {exc.reason}", file=file,
                                  line=raw.count(b"\n", 0, exc.start) + 1)]) from None
    try:
        data = parse_document(text_, is_json=path.suffix.lower() == ".json")
    except DocumentError as exc:
        raise SuiteError([Problem(str(exc), file=file, line=exc.line)]) from None
    from agentunit.promptfoo.detect import is_promptfoo_config  # a promptfoo config runs unchanged

    if is_promptfoo_config(data, path):
        from agentunit.promptfoo.config import promptfoo_suite

        return promptfoo_suite(data, path, calibration=calibration)
    return suite_from_dict(data, path=path, calibration=calibration)


def suite_from_dict(data: Any, path: Path | None = None, *, calibration: str | Path | None = None) -> Suite:
    """Build a Suite from decoded suite data; ``path`` locates problems and relative cases and calibration
    files. ``calibration`` (relative to the working directory) replaces the suite's ``calibration:``."""
    file = str(path) if path else None
    problems = Problems(file=file)
    if not isinstance(data, dict):
        raise SuiteError([Problem(f"a suite must be an object with `cases`, got {shown(data)}", file=file,
                                  line=1 if file else None)])
    problems.unknown_keys(data, SUITE_KEYS, (), "suite")
    fields_ok = check_fields(data, SUITE_FIELDS, (), problems)
    where = Where(file, ())
    name = data.get("name") if fields_ok else None
    suite = Suite(name=str(name or (path.stem if path else "suite")), path=path, problems=problems,
                  description=data.get("description") if fields_ok else None)
    base_dir = path.parent if path else None
    suite.target, suite.target_transform = _single_target(data, problems, base_dir)
    suite.target_declared = data.get("target") is not None or data.get("targets") is not None
    _matrix(data, suite, problems, base_dir)
    suite.judge = _judge(data, problems, path.parent if path else None)
    suite.options = _options(data, problems)
    suite.defaults = _defaults(data.get("defaults"), file, problems, base_dir)
    if suite.defaults:
        check_media(suite.defaults, ("defaults",), problems, file=file, line=None, media_dir=suite.media_dir,
                    limits=MediaLimits.for_suite(suite.options, suite.media_dir))
    suite.default_metrics = parse_metric_list(suite.defaults.get("metrics"), Where(file, ("defaults",)),
                                              ("metrics",), problems)
    suite.suite_metrics = parse_metric_list(data.get("metrics"), where, ("metrics",), problems)
    suite.prompt = data.get("prompt") if fields_ok else None
    cases = data.get("cases", data.get("tests"))
    if cases is not None and not isinstance(cases, list):
        key = "cases" if "cases" in data else "tests"
        file_hint = (f"cases from a file: `cases_file: {cases.removeprefix('file://')}` (.jsonl, .csv, .json, .yaml)"
                     if isinstance(cases, str) else None)
        problems.error(f"{key} must be a list of cases, got {shown(cases)}", (key,),
                       suggestion=file_hint or f"write `{key}:` as a list, e.g. `- {{prompt: …, metrics: [...]}}`")
        cases = []
    suite.inline_cases = cases or []
    suite.case_files = _case_files(data.get("cases_file"), path, problems)
    if not suite.inline_cases and not suite.case_files and "cases" not in data and "tests" not in data \
            and (suite.target or {}).get("type") != "traces":  # a traces target makes a case per trace
        problems.error("the suite has no cases", (), suggestion="add `cases:` or `cases_file:`")
    if calibration is not None:
        from agentunit.suite.calibrated import use_calibration_file  # only a calibrated suite reads one

        use_calibration_file(suite, Path(calibration), str(calibration), None, problems)
    elif fields_ok and data.get("calibration") is not None:
        from agentunit.suite.calibrated import use_calibration_file

        given = data["calibration"]
        base = path.parent if path else Path.cwd()
        use_calibration_file(suite, base / given if not Path(given).is_absolute() else Path(given), given,
                             ("calibration",), problems)
    return suite


def check_target(target: Any, problems: Problems, at: tuple[Any, ...] = ("target",),
                 extra_keys: tuple[str, ...] = ()) -> dict[str, Any] | None:
    """Check a target spec (a type name or an object) at key path ``at`` and return it as an object, None
    when absent or bad. ``extra_keys`` (``label``, ``transform``) are allowed and left to the caller."""
    if target is None:
        return None
    if isinstance(target, str):
        target = {"type": target}
    if not isinstance(target, dict):
        problems.error(f"target must be an object like {{type: http, url: ...}}, got {shown(target)}", at)
        return None
    kind = target.get("type")
    if not isinstance(kind, str) or kind not in TARGET_FIELDS:
        import difflib  # only for an unknown target kind

        close = difflib.get_close_matches(kind, list(TARGET_FIELDS), n=1) if isinstance(kind, str) else []
        problems.error(f"unknown target type {kind!r}" if isinstance(kind, str) else
                       f"target type must be a name, got {shown(kind)}", (*at, "type"),
                       suggestion=f"did you mean {close[0]!r}?" if close else f"use one of {', '.join(TARGET_FIELDS)}")
        return None
    required, fields = TARGET_FIELDS[kind]
    problems.unknown_keys(target, ("type", *_COMMON_TARGET_FIELDS, *required, *fields, *extra_keys), at,
                          f"{kind} target")
    ok = True
    for key in required:
        if key not in target:
            problems.error(f"{kind} target needs {key!r}", at)
            ok = False
    ok = check_fields(target, {**_COMMON_TARGET_FIELDS, **fields}, at, problems) and ok
    if kind == "python" and "function" in target:
        ok = _python_function(target["function"], problems, at) and ok
    if kind == "command" and isinstance(target.get("argv"), str):
        ok = _argv_splits(target["argv"], problems, at) and ok
    return target if ok else None


def _single_target(data: dict[str, Any], problems: Problems,
                   base_dir: Path | None) -> tuple[dict[str, Any] | None, Transform | None]:
    """The suite's ``target:`` without its ``transform``, and that transform compiled."""
    spec = check_target(data.get("target"), problems, extra_keys=("transform",))
    if spec is None or "transform" not in spec:
        return spec, None
    transform = _transform(spec["transform"], ("target", "transform"), problems, base_dir)
    return {k: v for k, v in spec.items() if k != "transform"}, transform


def _transform(source: Any, at: tuple[Any, ...], problems: Problems, base_dir: Path | None) -> Transform | None:
    from agentunit.suite.transform import TransformError, load_transform

    try:
        return load_transform(source, format_path(at), base_dir)
    except TransformError as exc:
        problems.error(f"transform {exc}", at, suggestion=exc.suggestion or "an expression over `output` such as "
                       "output.strip().lower(), or file://transform.py:function")
        return None


def _matrix(data: dict[str, Any], suite: Suite, problems: Problems, base_dir: Path | None) -> None:
    """``prompts:`` and ``targets:``: the lists the cases are expanded over (docs/suite-format.md)."""
    for single, several in (("prompt", "prompts"), ("target", "targets")):
        if data.get(single) is not None and data.get(several) is not None:
            problems.error(f"a suite takes `{single}:` or `{several}:`, not both", (several,),
                           suggestion=f"move the `{single}:` into the `{several}:` list")
    if data.get("prompts") is None and data.get("targets") is None:
        return  # no matrix (the usual suite): its module is not imported
    from agentunit.suite.matrix import SuiteMatrix, read_prompts

    prompts = read_prompts(data["prompts"], problems) if data.get("prompts") is not None else []
    targets = _targets(data["targets"], problems, base_dir) if data.get("targets") is not None else []
    if prompts or targets:
        suite.variants = SuiteMatrix(prompts, targets)


def _targets(value: Any, problems: Problems, base_dir: Path | None) -> list[TargetVariant]:
    from agentunit.suite.matrix import TargetVariant, default_target_label

    if not isinstance(value, list) or not value:
        problems.error(f"targets must be a non-empty list of targets, got {shown(value)}", ("targets",),
                       suggestion="targets: [{type: echo, label: baseline}, {type: python, function: app:answer}]")
        return []
    variants: list[TargetVariant] = []
    seen: dict[str, int] = {}
    for index, item in enumerate(value):
        at = ("targets", index)
        spec = check_target(item, problems, at, extra_keys=("label", "transform"))
        if spec is None:
            continue
        label = spec.get("label", default_target_label(spec))
        if not isinstance(label, (str, int)) or isinstance(label, bool) or not str(label).strip():
            problems.error(f"label must be text, got {shown(label)}", (*at, "label"))
            continue
        label = str(label).strip()
        if label in seen:
            if "label" in spec:
                problems.error(f"target label {label!r} is used twice (also targets[{seen[label]}])", (*at, "label"),
                               suggestion="give each target a unique `label:`")
                continue
            label = f"{label} #{index + 1}"
        seen[label] = index
        transform = _transform(spec["transform"], (*at, "transform"), problems, base_dir) \
            if "transform" in spec else None
        variants.append(TargetVariant(label, {k: v for k, v in spec.items() if k not in ("label", "transform")},
                                      transform, index))
    return variants


def _python_function(spec: Any, problems: Problems, at: tuple[Any, ...] = ("target",)) -> bool:
    if callable(spec):
        return True
    if not isinstance(spec, str) or ":" not in spec or not all(spec.partition(":")[::2]):
        problems.error(f"function must be 'module:callable', got {shown(spec)}", (*at, "function"),
                       suggestion="for example examples.calc:answer")
        return False
    return True


def _argv_splits(argv: str, problems: Problems, at: tuple[Any, ...] = ("target",)) -> bool:
    try:
        import shlex  # only for a command target

        if shlex.split(argv):
            return True
        problems.error("argv is empty", (*at, "argv"), suggestion="name the program to run")
    except ValueError as exc:  # shlex: "No closing quotation", "No escaped character"
        problems.error(f"argv cannot be split like a shell command line: {exc}", (*at, "argv"),
                       suggestion="close the quote, or give argv as a list")
    return False


def _judge(data: dict[str, Any], problems: Problems, base: Path | None) -> dict[str, Any]:
    judge = data.get("judge", {"provider": "local"})
    if not isinstance(judge, dict):
        problems.error(f"judge must be an object like {{provider: local}}, got {shown(judge)}", ("judge",))
        return {"provider": "local"}
    problems.unknown_keys(judge, JUDGE_FIELDS, ("judge",), "judge")
    if check_fields(judge, JUDGE_FIELDS, ("judge",), problems) and judge.get("provider") == "ensemble" \
            and "judges" not in judge:
        problems.error("an ensemble judge needs `judges:`", ("judge",),
                       suggestion="list two or more judges, e.g. judges: [{provider: local}, {provider: openai, …}]")
    return _with_model_paths(judge, base)


def _with_model_paths(judge: dict[str, Any], base: Path | None) -> dict[str, Any]:
    """A relative ``model_path`` is relative to the suite file's folder, as every path in a suite is."""
    if base is None:
        return judge
    resolved = dict(judge)
    if isinstance(judge.get("model_path"), str) and not Path(judge["model_path"]).is_absolute():
        resolved["model_path"] = str(base / judge["model_path"])
    if isinstance(judge.get("judges"), list):
        resolved["judges"] = [_with_model_paths(m, base) if isinstance(m, dict) else m for m in judge["judges"]]
    return resolved


def _options(data: dict[str, Any], problems: Problems) -> dict[str, Any]:
    options = data.get("options")
    if options is None and "options" not in data:
        return {}
    if not isinstance(options, dict):
        problems.error(f"options must be an object, got {shown(options)}", ("options",))
        return {}
    problems.unknown_keys(options, OPTION_KEYS, ("options",), "options")
    check_fields(options, OPTION_FIELDS, ("options",), problems)
    return options


def _defaults(defaults: Any, file: str | None, problems: Problems, base_dir: Path | None = None) -> dict[str, Any]:
    """The suite's ``defaults``: checked once here (cases check only their own fields)."""
    if defaults is None:
        return {}
    if not isinstance(defaults, dict):
        problems.error(f"defaults must be an object, got {shown(defaults)}", ("defaults",))
        return {}
    if "expected_pass" in defaults:
        problems.error("expected_pass is a human verdict on one case: it cannot be a default", ("defaults",
                       "expected_pass"), suggestion="put `expected_pass:` on each case, or use --labels FILE")
    problems.unknown_keys({k: v for k, v in defaults.items() if k != "expected_pass"}, CASE_KEYS - {"id"},
                          ("defaults",), "defaults")
    if not check_fields(defaults, CASE_FIELDS, ("defaults",), problems, file=file):
        return {k: v for k, v in defaults.items() if k == "metrics"}
    if "transform" in defaults and _transform(defaults["transform"], ("defaults", "transform"), problems,
                                              base_dir) is None:
        return {k: v for k, v in defaults.items() if k != "transform"}  # reported once, here
    return defaults


def _case_files(value: Any, path: Path | None, problems: Problems) -> list[Path]:
    if value is None:
        return []
    items = value if isinstance(value, list) else [value]
    base = path.parent if path else Path.cwd()
    files = []
    for index, item in enumerate(items):
        key = ("cases_file", index) if isinstance(value, list) else ("cases_file",)
        if not isinstance(item, str) or not item.strip():
            problems.error(f"cases_file must be a path or a list of paths, got {shown(item)}", key)
            continue
        try:
            file = (base / item) if not Path(item).is_absolute() else Path(item)
            found = file.exists()
            if found:  # a FIFO would hang the run, a device fill its memory: regular files only
                open_cases_file(file).close()
        except PathRefused as exc:
            problems.error(f"cases file {item[:80]!r} cannot be used: {exc.reason}", key, suggestion=exc.suggestion)
            continue
        except (OSError, ValueError) as exc:  # a NUL byte, a name too long for the file system
            problems.error(f"cases file {item[:80]!r} cannot be used: {getattr(exc, 'strerror', None) or exc}", key)
            continue
        if not found:
            problems.error(f"cases file {item[:80]!r} not found (looked in {base})", key)
            continue
        files.append(file)
    return files
