"""Read a promptfoo config into a Suite: the prompts × providers × tests matrix as cases.

Each test runs once per prompt and per provider that takes the prompt. A case keeps the test's
``description`` as its id, made unique with ``[prompt]`` and ``[provider]`` when there are several,
and records both in its metadata (``prompt_label``, ``provider``). Vars render into the prompt and
into assertion values; a var holding a list expands the test into one test per item (promptfoo's
var expansion). Problems name the file, line and field, as for native suites.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentunit.datasets.base import DatasetCase
from agentunit.errors import AgentUnitError, SuiteError
from agentunit.media import MediaLimits
from agentunit.promptfoo.assertions import convert_assertion
from agentunit.promptfoo.compare import COMPARATIVE, GROUP_KEY, ComparingTarget, ComparisonBoard
from agentunit.promptfoo.prompts import PromptSpec, read_prompts
from agentunit.promptfoo.providers import (
    MatrixTarget,
    ProviderSpec,
    build_target,
    declared_schemas,
    provider_spec,
    read_providers,
)
from agentunit.promptfoo.testcases import TEST_KEYS, TestSpec, read_tests
from agentunit.suite.cases import Where, build_case, parse_metric_entry
from agentunit.suite.fields import shown
from agentunit.suite.model import Suite
from agentunit.suite.problems import Problems
from agentunit.suite.sources import DocumentError, parse_document
from agentunit.trust import AUTHOR_GATE, FileGate, PathRefused, suite_gate

IGNORED_KEYS = ("description", "outputPath", "sharing", "writeLatestResults", "tags", "metadata", "tracing",
                "assertionTemplates", "$schema", "env", "evaluateOptions", "commandLineOptions")
UNSUPPORTED_KEYS = {"redteam": "red teaming is not part of agentunit",
                    "extensions": "extensions are JavaScript hooks; move the logic into the provider",
                    "nunjucksFilters": "custom filters are JavaScript; compute the value into a var"}
OPTION_KEYS = ("prefix", "suffix", "provider", "disableVarExpansion", "runSerially", "transform",
               "rubricPrompt", "storeOutputAs")
MAX_REF_DEPTH = 32
PROVIDERS_ENV = "AGENTUNIT_PROMPTFOO_PROVIDERS"  # like promptfoo's --providers: e.g. "echo"
VAR_FILE_MAX_BYTES = 16 * 1024 * 1024  # a var or assertion value read from a file


@dataclass
class Matrix:
    """A promptfoo config, read: what the matrix runs over."""

    prompts: list[PromptSpec] = field(default_factory=list)
    providers: list[ProviderSpec] = field(default_factory=list)
    tests: list[TestSpec] = field(default_factory=list)
    default_test: dict[str, Any] = field(default_factory=dict)
    base_dir: Path = field(default_factory=Path.cwd)
    file: str | None = None
    declared_schemas: dict[str, Any] = field(default_factory=dict)  # tools/functions of overridden providers
    board: ComparisonBoard = field(default_factory=ComparisonBoard)  # select-best / max-score tests
    test_providers: dict[int, ProviderSpec] = field(default_factory=dict)  # a test's own `provider`, by index
    test_provider_specs: dict[str, ProviderSpec] = field(default_factory=dict)  # those, by how they were written
    compares: bool = False  # some test has a select-best or max-score assertion
    data_gate: FileGate | None = None  # how tests files' vars and values read files (made on first use)

    @property
    def all_providers(self) -> list[ProviderSpec]:
        """The config's providers, then the tests' own (each once)."""
        extra = [p for p in self.test_provider_specs.values() if all(p is not q for q in self.providers)]
        return [*self.providers, *extra]


class PromptfooSuite(Suite):
    """A Suite whose cases are the promptfoo matrix and whose target is per provider."""

    matrix: Matrix
    matrix_keys = ("prompt_label", "provider")  # what reports group the cases by (agentunit.suite.matrix)

    def _located_cases(self) -> Iterator[tuple[DatasetCase, Where | None]]:
        calibrator = self._active_calibrator()
        limits = MediaLimits.for_suite(self.options, self.media_dir)
        before = len(self.problems.errors)
        held: list[tuple[DatasetCase, Where]] = []  # the cells of one test, held until all are built
        held_group: str | None = None
        for index, (raw, asserts, where, group) in enumerate(expand(self.matrix, self.problems), 1):
            if group != held_group:
                yield from self._release(held, held_group)
                held, held_group = [], group
            metrics = [m for m in (parse_metric_entry(entry, Where(file, path[:-1], line, from_data=data),
                                                      path[-1:], self.problems, labelled=True)
                                   for entry, file, path, line, data in asserts)
                       if m is not None]
            case = build_case(raw, index=index, where=where, defaults={}, inherited_metrics=metrics,
                              prompt_template=None, problems=self.problems, verdicts=self.verdicts,
                              media_dir=self.media_dir, media_limits=limits)
            if case is not None:
                if calibrator is not None:
                    case.metrics = calibrator.apply(case.metrics)
                held.append((case, where))
        yield from self._release(held, held_group)
        _dedupe(self.problems, before)

    def _release(self, held: list[tuple[DatasetCase, Where]], group: str | None
                 ) -> Iterator[tuple[DatasetCase, Where | None]]:
        """The cells of one test; when they are compared (select-best, max-score), registered first, so
        that a cell's comparison finds every sibling even before the engine reaches it."""
        if held and group is not None and any(_compared(c) for c, _ in held):
            if len(held) < 2:
                where = held[0][1]
                self.problems.error("select-best and max-score compare a test's outputs across prompts and "
                                    "providers, and this test has one output", where.at("assert"),
                                    file=where.file, line=where.line,
                                    suggestion="give the config several prompts or providers")
            self.matrix.board.register(group, [c for c, _ in held])
        yield from held

    def build_target(self) -> Any:
        """One provider's target, or a MatrixTarget sending each case to its provider's."""
        try:
            targets = {p.label: build_target(p.target, self.media_dir) for p in self.matrix.all_providers}
        except Exception as exc:  # a python provider's module runs user code while it loads
            message = str(exc) if isinstance(exc, AgentUnitError) else f"{type(exc).__name__}: {exc}"
            problems = Problems(file=self.file)
            problems.error(f"cannot build the provider: {message}", ("providers",))
            raise SuiteError(problems.resolve(problems.errors)) from None
        target = next(iter(targets.values())) if len(targets) == 1 else MatrixTarget(targets)
        return ComparingTarget(target, self.matrix.board) if self.matrix.compares else target


def _compared(case: DatasetCase) -> bool:
    return any(getattr(getattr(m, "info", None), "name", None) in COMPARATIVE for m in case.metrics)


def _dedupe(problems: Problems, start: int) -> None:
    """A defaultTest problem is met once per case: keep it once."""
    seen, kept = set(), problems.errors[:start]
    for p in problems.errors[start:]:
        key = (p.message, p.file, p.key_path, p.line)
        if key not in seen:
            seen.add(key)
            kept.append(p)
    problems.errors[:] = kept


def promptfoo_suite(data: dict[str, Any], path: Path, *, calibration: str | Path | None = None) -> Suite:
    """Build the Suite of a decoded promptfoo config read from ``path``."""
    file = str(path)
    problems = Problems(file=file)
    data = resolve_refs(data, data, problems)
    matrix = read_matrix(data, path, problems)
    name = path.parent.name if path.stem.startswith("promptfooconfig") and path.parent.name else path.stem
    description = data.get("description") if isinstance(data.get("description"), str) else None
    suite = PromptfooSuite(name=name, path=path, problems=problems, description=description)
    suite.matrix = matrix
    suite.options = _options(data.get("evaluateOptions"), problems)
    providers = matrix.all_providers
    single = providers[0] if len(providers) == 1 else None
    suite.target = single.target if single is not None and single.exportable else \
        {"type": "matrix", "providers": [p.provider_id for p in providers]}
    suite.target_declared = True
    suite.inline_cases = [t.data for t in matrix.tests]
    if calibration is not None:
        from agentunit.suite.calibrated import use_calibration_file

        use_calibration_file(suite, Path(calibration), str(calibration), None, problems)
    return suite


def read_matrix(data: dict[str, Any], path: Path, problems: Problems) -> Matrix:
    """Read prompts, providers, tests and defaultTest, checking the top-level keys."""
    base_dir = path.parent
    for key in data:
        if key in UNSUPPORTED_KEYS:
            problems.error(f"`{key}` is not supported", (key,), suggestion=UNSUPPORTED_KEYS[key])
        elif key == "derivedMetrics":
            problems.warn("derivedMetrics are not computed by agentunit", (key,))
        elif key not in ("prompts", "providers", "targets", "tests", "scenarios", "defaultTest", *IGNORED_KEYS):
            problems.warn(f"promptfoo config field {key!r} is not used by agentunit", (key,))
    env = data.get("env") if isinstance(data.get("env"), dict) else {}
    provider_key = "providers" if "providers" in data else "targets"
    override = os.environ.get(PROVIDERS_ENV, "").strip()
    providers = [p.strip() for p in override.split(",") if p.strip()] if override else data.get(provider_key)
    matrix = Matrix(base_dir=base_dir, file=str(path))
    matrix.prompts = read_prompts(data.get("prompts"), base_dir, problems)
    matrix.providers = read_providers(providers, (provider_key,), base_dir, env, problems)
    if override:
        matrix.declared_schemas = declared_schemas(data.get(provider_key))
    matrix.tests = read_tests(data.get("tests"), str(path), base_dir, problems)
    matrix.tests += scenario_tests(data.get("scenarios"), str(path), base_dir, problems)
    default = data.get("defaultTest") or {}
    if isinstance(default, str):
        default = _load_default(default, base_dir, problems)
    if not isinstance(default, dict):
        problems.error(f"defaultTest must be an object, got {shown(default)}", ("defaultTest",))
        default = {}
    matrix.default_test = default
    matrix.compares = _has_comparisons(default.get("assert")) or any(
        isinstance(t.data, dict) and _has_comparisons(t.data.get("assert")) for t in matrix.tests)
    _check_options(_dict(default.get("options")), ("defaultTest", "options"), Where(str(path), ()), problems)
    if not matrix.tests and data.get("scenarios") is None:
        matrix.tests = [TestSpec({}, str(path), ())]  # promptfoo runs each prompt once without tests
    if not override:  # the override (offline runs) replaces the tests' providers too
        _read_test_providers(matrix, env, problems)
    return matrix


def scenario_tests(value: Any, config_file: str, base_dir: Path, problems: Problems) -> list[TestSpec]:
    """promptfoo's ``scenarios``: each ``config`` entry × each of the scenario's ``tests`` is one test,
    the entry's fields under the test's (``vars``, ``options`` and ``metadata`` merged, the test's
    winning; ``assert``: the entry's, then the test's). A scenario without ``tests`` runs its entries
    as tests."""
    if value is None:
        return []
    if not isinstance(value, list):
        problems.error(f"scenarios must be a list of {{config, tests}}, got {shown(value)}", ("scenarios",))
        return []
    out: list[TestSpec] = []
    for index, scenario in enumerate(value):
        at = ("scenarios", index)
        if isinstance(scenario, str):
            problems.error("scenario files are not read by agentunit", at,
                           suggestion="write the scenario inline: {config: [...], tests: [...]}")
            continue
        if not isinstance(scenario, dict) or not isinstance(scenario.get("config"), list):
            problems.error(f"a scenario must be an object with a `config` list, got {shown(scenario)}", at)
            continue
        for key in scenario:
            if key not in ("config", "tests", "description"):
                problems.warn(f"scenario field {key!r} is not used by agentunit", (*at, key))
        tests = read_tests(scenario["tests"], config_file, base_dir, problems) if scenario.get("tests") is not None \
            else [TestSpec({}, config_file, at)]
        for tests_index, test in enumerate(tests):  # a listed test's key path points into the scenario
            if test.key_path[:1] == ("tests",) and test.file == config_file:
                tests[tests_index] = TestSpec(test.data, test.file, (*at, *test.key_path), test.line)
        for entry_index, entry in enumerate(scenario["config"]):
            if not isinstance(entry, dict):
                problems.error(f"a scenario config entry must be an object, got {shown(entry)}",
                               (*at, "config", entry_index))
                continue
            for test in tests:
                out.append(TestSpec(_merged(entry, test.data), test.file, test.key_path, test.line))
    return out


def _merged(entry: dict[str, Any], test: Any) -> Any:
    """A scenario config entry under one test, as promptfoo merges them."""
    if not isinstance(test, dict):
        return test
    merged = {**entry, **test}
    for key in ("vars", "options", "metadata"):
        if isinstance(entry.get(key), dict) or isinstance(test.get(key), dict):
            merged[key] = {**_dict(entry.get(key)), **_dict(test.get(key))}
    asserts = [*(entry.get("assert") or []), *(test.get("assert") or [])]
    if asserts:
        merged["assert"] = asserts
    return merged


def _read_test_providers(matrix: Matrix, env: dict[str, Any], problems: Problems) -> None:
    """Resolve each test's ``provider`` (else defaultTest's): the provider its cells call instead of the
    column's, as in promptfoo; a provider the config lists already is shared."""
    default = matrix.default_test.get("provider")
    for index, test in enumerate(matrix.tests):
        data = test.data if isinstance(test.data, dict) else {}
        item, at = (data["provider"], (*test.key_path, "provider")) if data.get("provider") is not None else \
            (default, ("defaultTest", "provider"))
        if item is None:
            continue
        if test.from_data and data.get("provider") is not None:
            declared = _declared_provider(matrix, item)
            if declared is None:
                problems.error(f"a tests file may only pick a provider the config declares, and {shown(item)} is "
                               "not one of them", at, file=test.file, line=test.line,
                               suggestion="declare the provider under `providers:` in the config and name it here "
                                          "by its id or label (a tests file is data: it chooses no code, command "
                                          "or server)")
            else:
                matrix.test_providers[index] = declared
            continue
        key = repr(item)
        spec = matrix.test_provider_specs.get(key)
        if spec is None:
            spec = provider_spec(item, at, matrix.base_dir, env, problems)
            if spec is None:
                continue
            same = next((p for p in matrix.providers if p.target == spec.target and p.label == spec.label), None)
            if same is not None:
                spec = same
            else:
                taken = {p.label for p in matrix.providers} | {p.label for p in matrix.test_provider_specs.values()}
                while spec.label in taken:
                    spec.label += " (test)"
            matrix.test_provider_specs[key] = spec
        matrix.test_providers[index] = spec



def _declared_provider(matrix: Matrix, item: Any) -> ProviderSpec | None:
    """The config's provider that a tests file's ``provider`` names: by id or label, as text or as an object
    holding only ``id``/``label`` (anything more would configure a provider of its own)."""
    if isinstance(item, dict) and set(item) <= {"id", "label"}:
        names = {v for v in item.values() if isinstance(v, str)}
    elif isinstance(item, str):
        names = {item}
    else:
        return None
    return next((p for p in matrix.providers if names & {p.provider_id, p.label}), None)


def _load_default(reference: str, base_dir: Path, problems: Problems) -> Any:
    text = reference[len("file://"):] if reference.startswith("file://") else reference
    try:
        return parse_document(AUTHOR_GATE.read_text(base_dir / text), is_json=text.endswith(".json"))
    except PathRefused as exc:
        problems.error(f"defaultTest file {text!r}: {exc.reason}", ("defaultTest",), suggestion=exc.suggestion)
        return {}
    except (OSError, UnicodeDecodeError, DocumentError) as exc:
        problems.error(f"cannot read defaultTest file {text!r}: {exc}", ("defaultTest",))
        return {}


def _options(value: Any, problems: Problems) -> dict[str, Any]:
    if not isinstance(value, dict):
        return {}
    options: dict[str, Any] = {}
    if isinstance(value.get("maxConcurrency"), int) and value["maxConcurrency"] > 0:
        options["concurrency"] = value["maxConcurrency"]
    if isinstance(value.get("repeat"), int) and value["repeat"] > 0:
        options["repeat"] = value["repeat"]
    return options


def resolve_refs(value: Any, document: Any, problems: Problems, depth: int = 0) -> Any:
    """Replace every ``{$ref: '#/a/b'}`` with the part of the document it points at."""
    if depth > MAX_REF_DEPTH:
        problems.error("$ref nested too deeply (a cycle?)", ())
        return None
    if isinstance(value, dict):
        if isinstance(value.get("$ref"), str) and len(value) == 1:
            target = _pointer(document, value["$ref"])
            if target is None:
                problems.error(f"$ref {value['$ref']!r} points at nothing in this file", ())
                return value
            return resolve_refs(target, document, problems, depth + 1)
        return {k: resolve_refs(v, document, problems, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve_refs(v, document, problems, depth + 1) for v in value]
    return value


def _pointer(document: Any, ref: str) -> Any:
    if not ref.startswith("#/"):
        return None
    node = document
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node


# -- the matrix -----------------------------------------------------------------------------------


Assertion = tuple[dict[str, Any], str | None, tuple[Any, ...], int | None, bool]  # entry, file, path, line, from data


def expand(matrix: Matrix, problems: Problems) -> Iterator[tuple[dict[str, Any], list[Assertion], Where, str]]:
    """Every (test, expanded vars, prompt, provider) as a raw case, its converted assertions (each with
    its file, key path and line), where the test was written, and its group: the key shared by the
    cells of one test with one expansion of its vars (what select-best and max-score compare)."""
    default = matrix.default_test
    default_vars = default.get("vars") if isinstance(default.get("vars"), dict) else {}
    seen: dict[str, int] = {}
    number = 0
    for test_index, test in enumerate(matrix.tests):
        data = test.data
        where = Where(test.file, test.key_path, test.line)
        if not isinstance(data, dict):
            problems.error(f"a test must be an object with vars and assert, got {shown(data)}", test.key_path,
                           file=test.file, line=test.line)
            continue
        for key in data:
            if key not in TEST_KEYS:
                problems.warn(f"test field {key!r} is not used by agentunit", where.at(key), file=test.file,
                              line=test.line)
        options = {**_dict(default.get("options")), **_dict(data.get("options"))}
        _check_options(_dict(data.get("options")), where.at("options"), where, problems)
        variables = {**default_vars, **_dict(data.get("vars"))}
        gate = _gate(matrix, test)
        variables = {k: _var_file(v, matrix.base_dir, where.at("vars", k), problems, where, gate)
                     for k, v in variables.items()}
        for expanded in _expansions(variables, bool(options.get("disableVarExpansion"))):
            number += 1
            description = data.get("description", default.get("description"))
            base_id = str(description) if description is not None else f"test {number}"
            allowed_prompts = data.get("prompts", default.get("prompts"))
            allowed_providers = data.get("providers", default.get("providers"))
            own = matrix.test_providers.get(test_index)
            for prompt in matrix.prompts:
                if not _allowed(allowed_prompts, prompt.label):
                    continue
                providers = [p for p in matrix.providers if (p.prompts is None or prompt.label in p.prompts)
                             and _allowed(allowed_providers, p.label, p.provider_id)]
                for column in providers:
                    provider = own or column
                    case_id = base_id
                    if len(matrix.prompts) > 1:
                        case_id += f" [{prompt.label}]"
                    if len(matrix.providers) > 1:
                        case_id += f" [{column.label}]"
                    count = seen.get(case_id, 0) + 1
                    seen[case_id] = count
                    if count > 1:
                        case_id += f" #{count}"
                    raw = _raw_case(case_id, data, default, options, expanded, prompt, provider)
                    group = matrix.board.key(number)
                    asserts = _assertions(default, data, expanded, matrix, test, problems, provider, group)
                    yield raw, asserts, where, group


def _raw_case(case_id: str, data: dict[str, Any], default: dict[str, Any], options: dict[str, Any],
              variables: dict[str, Any], prompt: PromptSpec, provider: ProviderSpec) -> dict[str, Any]:
    metadata = {**_dict(default.get("metadata")), **_dict(data.get("metadata")),
                "prompt_label": prompt.label, "provider": provider.label}
    raw: dict[str, Any] = {"id": case_id, "prompt": f"{options.get('prefix', '')}{prompt.template}"
                                                   f"{options.get('suffix', '')}",
                           "vars": variables, "metadata": metadata}
    threshold = data.get("threshold", default.get("threshold"))
    if threshold is not None:
        raw["threshold"] = threshold
    if isinstance(data.get("description"), str):
        raw["description"] = data["description"]
    if data.get("providerOutput") is not None:
        raw["output"] = data["providerOutput"]
    return raw


def _assertions(default: dict[str, Any], data: dict[str, Any], variables: dict[str, Any], matrix: Matrix,
                test: TestSpec, problems: Problems, provider: ProviderSpec | None = None,
                group: str | None = None) -> list[Assertion]:
    """defaultTest's assertions, then the test's, converted (those that cannot run are problems); a
    select-best or max-score assertion is told its ``group``, the test's cells it compares."""
    provider_config = {**matrix.declared_schemas, **(provider.config if provider is not None else {})}
    out: list[Assertion] = []
    sources = [(default.get("assert"), ("defaultTest", "assert"), matrix.file, None, False),
               (data.get("assert"), (*test.key_path, "assert"), test.file, test.line, test.from_data)]
    for entries, key_path, file, line, from_data in sources:
        if entries is None:
            continue
        if not isinstance(entries, list):
            problems.error(f"assert must be a list, got {shown(entries)}", key_path, file=file, line=line)
            continue
        for index, entry in enumerate(entries):
            converted = convert_assertion(entry, (*key_path, index), problems, variables=variables,
                                          base_dir=matrix.base_dir, file=file, line=line,
                                          provider_config=provider_config,
                                          gate=_gate(matrix, test) if from_data else AUTHOR_GATE)
            if converted is not None:
                if group is not None and _tagged(converted, group):
                    matrix.compares = True
                out.append((converted, file, (*key_path, index), line, from_data))
    return out


def _allowed(refs: Any, label: str, provider_id: str | None = None) -> bool:
    """promptfoo's test ``prompts``/``providers`` filters: a label (or provider id), ``prefix*``, or
    ``ref`` matching ``ref:…``; no list allows everything, an empty one nothing."""
    if not isinstance(refs, list):
        return True
    names = [n for n in (label, provider_id) if n]
    for ref in refs:
        if not isinstance(ref, str):
            continue
        if ref in names or any(n.startswith(f"{ref}:") for n in names):
            return True
        if ref.endswith("*") and any(n.startswith(ref[:-1]) for n in names):
            return True
    return False


def _tagged(entry: dict[str, Any], group: str) -> bool:
    """Give the select-best / max-score entries in ``entry`` (an assert-set's too) their group; any?"""
    if entry.get("type") in COMPARATIVE:
        entry["config"] = {**(entry.get("config") or {}), GROUP_KEY: group}
        return True
    return any([_tagged(child, group) for child in entry.get("assert") or [] if isinstance(child, dict)])


def _has_comparisons(entries: Any) -> bool:
    """Whether a list of promptfoo assertions holds a select-best or max-score (an assert-set's too)."""
    return isinstance(entries, list) and any(
        isinstance(e, dict) and (e.get("type") in COMPARATIVE or _has_comparisons(e.get("assert"))) for e in entries)


def _check_options(options: dict[str, Any], at: tuple[Any, ...], where: Where, problems: Problems) -> None:
    """Check a test's (or defaultTest's) ``options`` written at key path ``at``."""
    located = {"file": where.file, "line": where.line}
    for key in options:
        if key not in OPTION_KEYS:
            problems.warn(f"test option {key!r} is not used by agentunit", (*at, key), **located)
    if options.get("transform") is not None:
        problems.error("option `transform` is JavaScript and cannot run here", (*at, "transform"), **located,
                       suggestion="transform inside a python assertion (a function body over output)")
    if options.get("provider") is not None:
        problems.warn("option `provider` (the grader) is ignored: model-graded assertions use agentunit's judge",
                      (*at, "provider"), **located,
                      suggestion="`agentunit import promptfoo` writes a native suite where `judge:` chooses it")


def _expansions(variables: dict[str, Any], disabled: bool) -> Iterator[dict[str, Any]]:
    lists = [k for k, v in variables.items() if isinstance(v, list)] if not disabled else []
    if not lists:
        yield variables
        return
    for combination in itertools.product(*(variables[k] for k in lists)):
        yield {**variables, **dict(zip(lists, combination, strict=True))}


def _gate(matrix: Matrix, test: TestSpec) -> FileGate:
    """How a test may read files: a tests file's only inside the config's folder, the config's own anywhere."""
    if not test.from_data:
        return AUTHOR_GATE
    if matrix.data_gate is None:
        matrix.data_gate = suite_gate(matrix.base_dir, max_bytes=VAR_FILE_MAX_BYTES, whose="a tests file")
    return matrix.data_gate


def _var_file(value: Any, base_dir: Path, key_path: tuple[Any, ...], problems: Problems, where: Where,
              gate: FileGate = AUTHOR_GATE) -> Any:
    """A var ``file://x.txt`` holds the file's text (``.json``/``.yaml``: its data), read through ``gate``."""
    if isinstance(value, list):
        return [_var_file(v, base_dir, key_path, problems, where, gate) for v in value]
    if not isinstance(value, str) or not value.startswith("file://"):
        return value
    text = value[len("file://"):]
    path = Path(text) if Path(text).is_absolute() else base_dir / text
    if path.suffix in (".py", ".js", ".ts", ".mjs", ".cjs"):
        problems.error(f"var {value!r} is computed by code and cannot be read here", key_path, file=where.file,
                       line=where.line, suggestion="write the value to a text or JSON file and point at it")
        return value
    try:
        content = gate.read_text(path)
    except PathRefused as exc:
        problems.error(f"var {value!r}: {exc.reason}", key_path, file=where.file, line=where.line,
                       suggestion=exc.suggestion)
        return value
    except (OSError, UnicodeDecodeError) as exc:
        problems.error(f"cannot read var file {text!r}: {getattr(exc, 'strerror', None) or exc}", key_path,
                       file=where.file, line=where.line)
        return value
    if path.suffix in (".json", ".yaml", ".yml"):
        try:
            return parse_document(content, is_json=path.suffix == ".json")
        except DocumentError as exc:
            problems.error(f"var file {text!r}: {exc}", key_path, file=where.file, line=where.line)
    return content


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


__all__ = ["Matrix", "PromptfooSuite", "expand", "promptfoo_suite", "read_matrix", "scenario_tests"]
