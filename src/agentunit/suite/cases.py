"""Turn raw case records and metric entries into validated DatasetCase objects and metrics.

Data is data: a prompt written in a cases file (JSONL, CSV, JSON, YAML) is literal text, never a
template; only prompts the suite's author wrote in the suite file (inline cases, ``defaults``, the
suite-level ``prompt:``) are rendered, over the case's ``vars`` (whose values are inserted as text).
"""

from __future__ import annotations

import json
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agentunit.core.templating import TemplateError, is_template, render
from agentunit.datasets.base import DatasetCase
from agentunit.errors import MetricConfigError
from agentunit.media.fields import CASE_MEDIA_FIELDS, METADATA_MEDIA_KEYS, field_shape, reference_shape
from agentunit.media.limits import MediaLimits
from agentunit.metrics import create_metric, metric_name_and_label
from agentunit.metrics.registry import UnknownMetricError, generation, lookup, normalize
from agentunit.suite.fields import boolean, by_type, check_fields, integer, list_of, mapping, number, shown, text
from agentunit.suite.locate import format_path
from agentunit.suite.problems import MISSPELLED_EXPECTED, Problems

if TYPE_CHECKING:  # a case without a transform does not import its module
    from agentunit.suite.transform import Transform

CASE_KEYS = frozenset({
    "id", "prompt", "query", "input", "vars", "expected_output", "expcted_output", "context", "metrics",
    "assert", "value", "output", "tools", "expected_tools", "plan", "conversation", "role", "rules",
    "metadata", "threshold", "description", "expected_pass", "transform", *CASE_MEDIA_FIELDS,
})
# A CSV row's promptfoo columns `__expected`, `__expected1`, … as {column: cell} (see sources.csv_row_to_case).
EXPECTED_CELLS = "__expected"
METRIC_KEYS = frozenset({"metric", "type", "value", "expected_output", "expcted_output", "threshold",
                         "weight", "config", "label", "assert", "metrics", "expected_pass"})
PROMPT_KEYS = ("prompt", "query", "input")
_METRIC_CACHE: dict[tuple[Any, ...], Any] = {}
_METRIC_CACHE_LIMIT = 4096
# Metric instances built from an entry without `threshold:`: a calibration file may set theirs.
_THRESHOLD_DEFAULTED: weakref.WeakSet[Any] = weakref.WeakSet()


def _turn(value: Any) -> str | None:
    if not isinstance(value, dict) or not isinstance(value.get("content", ""), str) \
            or not isinstance(value.get("role", "user"), str):
        return f"must be a turn {{role, content}} with text values, got {shown(value)}"
    return None


def _tool_name(value: Any) -> str | None:
    if isinstance(value, str) or (isinstance(value, dict) and isinstance(value.get("name"), str)):
        return None
    return f"must be a tool name or {{name, arguments}}, got {shown(value)}"


def _anything(value: Any) -> None:
    return None


def _media_field(name: str) -> Any:
    def check(value: Any) -> str | None:
        return field_shape(name, value)

    return check


# What each case field must hold; checked where the field is written (a case, or the suite's defaults).
CASE_FIELDS = {
    "id": by_type("text", text=text(), integer=integer()),
    "vars": mapping(),
    "threshold": number(0, 1),
    "context": by_type("text or a list of strings", text=text(), list=list_of(text(), "strings")),
    "expected_tools": by_type("a list of tool names or {name, arguments}", text=text(),
                              list=list_of(_tool_name, "tool names or {name, arguments}")),
    "tools": list_of(mapping(), "objects"),
    "plan": list_of(_anything, "steps"),
    "conversation": list_of(_turn, "turns {role, content}"),
    "rules": by_type("text or a list of strings", text=text(), list=list_of(text(), "strings")),
    "role": text(),
    "description": text(),
    "metadata": mapping(),
    "expected_pass": boolean(),
    "transform": text(nonblank=True),
    **{name: _media_field(name) for name in CASE_MEDIA_FIELDS},
}
METRIC_FIELDS = {"threshold": number(), "weight": number(0), "config": mapping(), "label": text(),
                 "expected_pass": boolean()}


@dataclass(frozen=True, slots=True)
class HumanVerdicts:
    """A case's human verdicts (``expected_pass``) for calibration: the case's own, applying to each
    judge-backed metric, and one per metric of the case (in ``case.metrics`` order; None: not given)."""

    case: bool | None
    metrics: tuple[bool | None, ...]


def threshold_defaulted(metric: Any) -> bool:
    """True for a judge-backed metric built from a suite entry that gave no ``threshold`` (the metrics a
    calibration may set the threshold of; other metrics are not recorded)."""
    try:
        return metric in _THRESHOLD_DEFAULTED
    except TypeError:  # an unhashable user metric
        return False


class Where:
    """Where a record was found: a file and a key path inside it, or a line (JSONL, CSV).

    ``from_data`` marks a record read from a cases file: its strings are data, never templates. (A plain
    class: start-up builds no dataclass.)
    """

    __slots__ = ("file", "from_data", "key_path", "line")

    def __init__(self, file: str | None, key_path: tuple[Any, ...], line: int | None = None,
                 from_data: bool = False) -> None:
        self.file, self.key_path, self.line, self.from_data = file, key_path, line, from_data

    def at(self, *keys: Any) -> tuple[Any, ...]:
        return (*self.key_path, *keys)


def parse_metric_entry(entry: Any, where: Where, keys: tuple[Any, ...], problems: Problems, *,
                       labelled: bool = False) -> Any | None:
    """Build one metric from ``name`` or ``{metric, value|expected_output, threshold, weight, config}``.

    ``labelled``: the entry belongs to one case, so it may carry a human verdict (``expected_pass``).
    An entry written the same way before (the same flat fields, the same kind of place) that was valid
    (no error, no warning) gives the same metric without being checked again: suites repeat entries
    case after case.
    """
    if _CACHED_FOR[0] != generation():
        _check_generation()
    memo_key = _entry_key(entry, labelled, where.from_data)
    shape = None
    noted_before = problems.error_count, problems.warning_count
    if memo_key is not None:
        metric = _ENTRY_MEMO.get(memo_key)
        if metric is not None:
            return metric
        shape = _shape_key(memo_key) if type(entry) is dict else None
        checked = _SHAPE_MEMO.get(shape) if shape is not None else None
        if checked is not None:  # written this way before with another text: it passes the checks; build it
            name, threshold, weight, config, label = checked
            metric = _build_metric(name, entry["value"], threshold, weight, config, label, where,
                                   where.at(*keys), problems)
        else:
            metric = _parse_metric_entry(entry, where, keys, problems, labelled=labelled, shape=shape)
    else:
        metric = _parse_metric_entry(entry, where, keys, problems, labelled=labelled)
    # Memoised only when it raised no problem: an error that still builds the metric (an unknown field)
    # must be reported again wherever the same entry is written again.
    if memo_key is not None and metric is not None and (problems.error_count, problems.warning_count) == noted_before:
        if len(_ENTRY_MEMO) >= _METRIC_CACHE_LIMIT:
            _ENTRY_MEMO.clear()
        _ENTRY_MEMO[memo_key] = metric
    return metric


_ENTRY_MEMO: dict[tuple[Any, ...], Any] = {}
# An entry's checks read its fields, but of its `value` only the type (the metric's construction reads the
# value): entry shapes that passed them with no problem → the arguments they gave, for entries that differ
# only by the text of their value (`{metric: contains, value: …}` case after case).
_SHAPE_MEMO: dict[tuple[Any, ...], tuple[Any, ...]] = {}
_CACHED_FOR = [-1]  # the registry generation the caches were filled under
# A metric built by _cached_metric carries (its id, the arguments it was built from) under this name.
_RECIPE = "_agentunit_recipe"


def _check_generation() -> None:
    if _CACHED_FOR[0] != generation():  # a metric was registered or replaced: build afresh
        _ENTRY_MEMO.clear()
        _SHAPE_MEMO.clear()
        _METRIC_CACHE.clear()
        _CACHED_FOR[0] = generation()


def metric_recipe(metric: Any) -> tuple[Any, ...] | None:
    """The arguments a metric built from a suite entry was made from (None: not known), for
    ``metric_from_recipe`` to build it again as reading the entry again would."""
    try:
        known = getattr(metric, _RECIPE, None)
    except Exception:  # a user class's __getattr__
        return None
    # A copy (with another threshold, say) and a wrapper proxying its attributes (a calibrated metric) carry
    # the original's recipe under the original's id: theirs is not known.
    return known[1] if type(known) is tuple and len(known) == 2 and known[0] == id(metric) else None


def metric_from_recipe(recipe: tuple[Any, ...]) -> Any:
    """The metric ``metric_recipe`` described, as reading its entry again gives it."""
    _check_generation()
    return _cached_metric(*recipe)
_FLAT = frozenset((str, int, float, bool, type(None)))


def _entry_key(entry: Any, labelled: bool, from_data: bool) -> tuple[Any, ...] | None:
    """The memo key of a metric entry: a name, or a dict of flat values (None: not memoised)."""
    if type(entry) is str:
        return (labelled, from_data, entry)
    if type(entry) is not dict:
        return None
    types = tuple(map(type, entry.values()))
    if not _FLAT.issuperset(types):
        return None
    # Types are part of the key: 1 and 1.0 and True are equal as dict keys but not as values.
    return (labelled, from_data, tuple(entry.items()), types)


def _shape_key(memo_key: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """A dict entry's memo key with the text of its ``value`` left out (None: its value is not text, or
    another field may give the value)."""
    labelled, from_data, items, types = memo_key
    shape, text_value = [], False
    for key, value in items:
        if key == "value" and type(value) is str:
            text_value = True
            value = None
        elif key == "expected_output" or key == MISSPELLED_EXPECTED:
            return None
        shape.append((key, value))
    return (labelled, from_data, tuple(shape), types) if text_value else None


def _parse_metric_entry(entry: Any, where: Where, keys: tuple[Any, ...], problems: Problems, *,
                        labelled: bool = False, shape: tuple[Any, ...] | None = None) -> Any | None:
    """Check one entry and build its metric; ``shape`` (``_shape_key``): remember that entries of this shape
    pass the checks, when this one passed them with no problem."""
    path = where.at(*keys)
    noted_before = problems.error_count, problems.warning_count
    label = None
    if isinstance(entry, str):
        name, spec = entry, {}
    elif isinstance(entry, dict):
        spec = entry
        name, label = metric_name_and_label(spec)
        problems.unknown_keys(spec, METRIC_KEYS, path, "metric", file=where.file, line=where.line)
        if not isinstance(name, str):
            problems.error("metric entry needs a 'metric' name", path, file=where.file, line=where.line,
                           suggestion="write {metric: contains, value: ...}")
            return None
        if MISSPELLED_EXPECTED in spec:
            problems.warn(f"'{MISSPELLED_EXPECTED}' read as 'expected_output'", (*path, MISSPELLED_EXPECTED),
                          file=where.file, line=where.line, suggestion="spell it 'expected_output'")
    else:
        problems.error(f"a metric must be a name or an object, got {type(entry).__name__}", path,
                       file=where.file, line=where.line)
        return None
    name_path = (*path, "type" if "type" in spec else "metric") if isinstance(entry, dict) else path
    try:
        info, _ = lookup(name)
    except UnknownMetricError as exc:
        hint = f"did you mean {', '.join(repr(s) for s in exc.suggestions)}?" if exc.suggestions else \
            "run `agentunit metrics` to list every metric"
        problems.error(f"unknown metric {name!r}", name_path, file=where.file, line=where.line, suggestion=hint)
        return None
    if where.from_data and info.family == "script":
        problems.error(f"metric {info.name!r} runs code, and a cases file is data", name_path, file=where.file,
                       line=where.line, suggestion="declare code checks in the suite file (metrics:, defaults: "
                                                   "or an inline case), where the suite's author wrote them")
        return None
    value = spec.get("value", spec.get("expected_output", spec.get(MISSPELLED_EXPECTED)))
    threshold, weight, config = spec.get("threshold"), spec.get("weight", 1.0), spec.get("config")
    if where.from_data and not _data_config_allowed(info, config, path, where, problems):
        return None
    ok = check_fields(spec, METRIC_FIELDS, path, problems, file=where.file, line=where.line)
    if "type" in spec and "metric" in spec and not isinstance(spec["metric"], str):
        problems.error(f"metric (the label, when `type:` names the metric) must be text, got {shown(spec['metric'])}",
                       (*path, "metric"), file=where.file, line=where.line)
        ok = False
    child_key = "assert" if "assert" in spec else "metrics" if "metrics" in spec else None
    if child_key is not None and info.name != "assert-set":
        problems.error(f"only assert-set takes `{child_key}:`", (*path, child_key), file=where.file,
                       line=where.line)
        ok = False
    if "expected_pass" in spec and not _verdict_allowed(spec, info, labelled, where, path, problems):
        ok = False
    if value is not None and info.value == "none":
        hint = f"did you mean threshold: {value}?" if info.kind == "raw" else "remove the value"
        problems.error(f"metric {info.name!r} takes no value", (*path, "value"), file=where.file,
                       line=where.line, suggestion=hint)
        ok = False
    if not ok:
        return None
    if info.name == "assert-set":
        return _assert_set(spec, child_key, name, threshold, weight, config, label, where, keys, problems)
    if shape is not None and (problems.error_count, problems.warning_count) == noted_before:
        if len(_SHAPE_MEMO) >= _METRIC_CACHE_LIMIT:
            _SHAPE_MEMO.clear()
        _SHAPE_MEMO[shape] = (name, threshold, weight, config, label)
    return _build_metric(name, value, threshold, weight, config, label, where, path, problems)


def _data_config_allowed(info: Any, config: Any, path: tuple[Any, ...], where: Where, problems: Problems) -> bool:
    """A metric entry read from a data file may not set the author's config keys (``author_only_keys``:
    the sandbox, limits, models, providers, servers); each one set is a problem at its key."""
    from agentunit.metrics.base import author_only_keys

    refused = author_only_keys(info.cls, config)
    for key in refused:
        problems.error(f"config `{key}` of metric {info.name!r} is the suite author's setting, and "
                       f"{Path(where.file).name if where.file else 'this file'} is data", (*path, "config", key),
                       file=where.file, line=where.line,
                       suggestion="set it in the suite file (`metrics:`, `defaults:` or an inline case); a cases "
                                  "or tests file may only give values and thresholds")
    return not refused


def _build_metric(name: str, value: Any, threshold: Any, weight: Any, config: Any, label: Any, where: Where,
                  path: tuple[Any, ...], problems: Problems) -> Any | None:
    """The metric of a checked entry; a value its construction rejects is a problem at ``path``."""
    try:
        return _cached_metric(name, value, threshold, weight, config, label)
    except MetricConfigError as exc:
        problems.error(str(exc), (*path, _config_field(str(exc))), file=where.file, line=where.line)
    except Exception as exc:  # a metric's own setup (built-in or registered by the user) rejected the value
        problems.error(f"cannot build metric {name!r}: {type(exc).__name__}: {exc}", path, file=where.file,
                       line=where.line)
    return None


def _verdict_allowed(spec: dict[str, Any], info: Any, labelled: bool, where: Where, path: tuple[Any, ...],
                     problems: Problems) -> bool:
    """``expected_pass`` labels one case's judge-backed metric: anywhere else it is a mistake."""
    at = (*path, "expected_pass")
    if not labelled:
        problems.error("expected_pass is a human verdict on one case: it cannot go on a suite-wide or nested metric",
                       at, file=where.file, line=where.line,
                       suggestion="put `expected_pass:` on the case, or on a metric entry of the case")
        return False
    if info.model != "judge" and isinstance(spec["expected_pass"], bool):
        problems.error(f"expected_pass labels a judge-backed metric for `agentunit calibrate`; {info.name!r} does "
                       "not use the judge", at, file=where.file, line=where.line,
                       suggestion="remove it, or put it on a judge metric (llm-rubric, factuality, g-eval, …)")
        return False
    return True


def _config_field(message: str) -> str:
    # Metrics name the offending option first ("config.max_score must be …"); anything else is the value.
    return "config" if message.startswith("config.") else "value"


def _assert_set(spec: dict[str, Any], child_key: str | None, name: str, threshold: Any, weight: Any,
                config: Any, label: Any, where: Where, keys: tuple[Any, ...], problems: Problems) -> Any | None:
    """An assert-set's children are metric entries themselves, parsed (and located) like any other."""
    key = child_key or "value"
    noted_before = problems.error_count
    children = parse_metric_list(spec.get(key), where, (*keys, key), problems)
    if not children:
        if problems.error_count > noted_before:  # its children's errors already say what is wrong
            return None
        problems.error("assert-set needs metrics under `assert:`", where.at(*keys), file=where.file,
                       line=where.line)
        return None
    return create_metric(name, value=children, threshold=threshold, config=config, weight=weight, label=label)


def _cached_metric(name: str, value: Any, threshold: Any, weight: Any, config: Any, label: Any) -> Any:
    key = (normalize(name), _freeze(value), threshold, weight, _freeze(config), label)
    metric = _METRIC_CACHE.get(key)
    if metric is None:
        if len(_METRIC_CACHE) >= _METRIC_CACHE_LIMIT:
            _METRIC_CACHE.clear()
        metric = create_metric(name, value=value, threshold=threshold, config=config, weight=weight, label=label)
        _METRIC_CACHE[key] = metric
        try:  # a metric that takes no new attribute (slots, frozen) has no recipe: a spool keeps it as it is
            setattr(metric, _RECIPE, (id(metric), (name, value, threshold, weight, config, label)))
        except Exception:  # a user class may refuse it any way it likes
            pass
        # Only a judge-backed metric's threshold is ever calibrated (agentunit.calibration.keys.is_judge_backed).
        if threshold is None and getattr(getattr(metric, "info", None), "model", None) == "judge":
            try:
                _THRESHOLD_DEFAULTED.add(metric)
            except TypeError:  # an unhashable user metric keeps its own threshold
                pass
    return metric


def _freeze(value: Any) -> Any:
    if isinstance(value, (dict, list)):
        return json.dumps(value, sort_keys=True, default=str)
    return (type(value).__name__, value)


def parse_metric_list(entries: Any, where: Where, keys: tuple[Any, ...], problems: Problems, *,
                      labelled: bool = False) -> list[Any]:
    if entries is None:
        return []
    if isinstance(entries, (str, dict)):
        entries = [entries]
    if not isinstance(entries, list):
        problems.error(f"metrics must be a list, got {shown(entries)}", where.at(*keys), file=where.file,
                       line=where.line)
        return []
    built = []
    for i, entry in enumerate(entries):
        metric = parse_metric_entry(entry, where, (*keys, i), problems, labelled=labelled)
        if metric is not None:
            built.append(metric)
    return built


def _no_check(expected: Any) -> None:
    """Metrics that do not define ``check_expected`` accept any expected output."""


def _identity(metric: Any) -> tuple[str, bool]:
    """Which metric this is, whatever name it was asked for by (a case's entry replaces the suite's)."""
    info = getattr(metric, "info", None)
    if info is not None:
        return info.name, bool(getattr(metric, "negate", False))
    return normalize(getattr(metric, "display_name", None) or metric.name), False


def check_media(data: dict[str, Any], key_path: tuple[Any, ...], problems: Problems, *, file: str | None,
                line: int | None, media_dir: Any, limits: MediaLimits | None, from_data: bool = False) -> None:
    """Check the media references of a case (or the defaults) that can be checked before the run: local
    files, ``data:`` URIs and base64 exist, are readable, within the size limit and of the field's kind
    (URLs are fetched, and so checked, during the run). Fields of the wrong shape are left to CASE_FIELDS.
    A case ``from_data`` (a cases file) may name only files its limits' gate allows (agentunit.trust).
    """
    metadata = data.get("metadata")
    if not metadata and data.keys().isdisjoint(CASE_MEDIA_FIELDS):
        return  # no media (the usual case): the reference checks are not even imported
    if limits is not None and not from_data:
        limits = limits.for_author()
    from agentunit.media.model import MediaError
    from agentunit.media.references import check_reference

    found: list[tuple[tuple[Any, ...], Any, str]] = []
    for name, kind in CASE_MEDIA_FIELDS.items():
        value = data.get(name)
        if value is None or field_shape(name, value) is not None:
            continue
        if isinstance(value, list):
            found += [((name, i), item, kind) for i, item in enumerate(value)]
        else:
            found.append(((name,), value, kind))
    if isinstance(metadata, dict):
        for key, kind in METADATA_MEDIA_KEYS.items():
            value = metadata.get(key)
            if value is None:
                continue
            problem = reference_shape(value)
            if problem:
                problems.error(f"{key} {problem}", (*key_path, "metadata", key), file=file, line=line)
            else:
                found.append((("metadata", key), value, kind))
    for keys, ref, kind in found:
        try:
            check_reference(ref, base_dir=media_dir, kind=kind, limits=limits)
        except MediaError as exc:
            problems.error(exc.located_reason(), (*key_path, *keys), file=file, line=line, suggestion=exc.suggestion)


def build_case(
    raw: Any,
    *,
    index: int,
    where: Where,
    defaults: dict[str, Any],
    inherited_metrics: list[Any],
    prompt_template: str | None,
    problems: Problems,
    verdicts: dict[str, HumanVerdicts] | None = None,
    media_dir: Any = None,
    media_limits: MediaLimits | None = None,
    prompt_optional: bool = False,
    transforms: dict[str, Transform] | None = None,
) -> DatasetCase | None:
    """Validate one raw case, merge defaults, make its prompt and build its metrics.

    The fields of ``raw`` are checked here; the defaults were checked once, where the suite wrote them.
    A case carrying human verdicts (``expected_pass`` on the case or its metric entries) has them
    recorded in ``verdicts`` under its id. Media references are checked relative to ``media_dir`` (the
    suite file's folder; the working directory when None) within ``media_limits``.
    ``prompt_optional``: the suite's ``prompts:`` make the prompt, so a case may have none. A case's
    ``transform`` (its own, or the defaults') is compiled and put in ``transforms`` under the case id.
    """
    if not isinstance(raw, dict):
        problems.error(f"a case must be an object, got {shown(raw)}", where.key_path, file=where.file,
                       line=where.line)
        return None
    before = problems.error_count
    expected_cells = raw.get(EXPECTED_CELLS) if where.from_data else None
    if expected_cells is not None:
        raw = {k: v for k, v in raw.items() if k != EXPECTED_CELLS}
    problems.unknown_keys(raw, CASE_KEYS, where.key_path, "case", file=where.file, line=where.line)
    fields_ok = check_fields(raw, CASE_FIELDS, where.key_path, problems, file=where.file, line=where.line)
    check_media(raw, where.key_path, problems, file=where.file, line=where.line, media_dir=media_dir,
                limits=media_limits, from_data=where.from_data)
    data = {**{k: v for k, v in defaults.items() if k not in ("metrics", "vars")}, **raw} if defaults else dict(raw)
    if MISSPELLED_EXPECTED in raw:
        problems.warn(f"'{MISSPELLED_EXPECTED}' read as 'expected_output'", where.at(MISSPELLED_EXPECTED),
                      file=where.file, line=where.line, suggestion="spell it 'expected_output'")
        data.setdefault("expected_output", raw[MISSPELLED_EXPECTED])
    case_id = str(data["id"]) if "id" in data else f"case-{index}"
    variables = {**_as_dict(defaults.get("vars")), **_as_dict(data.get("vars"))}
    metrics, own_verdicts = _case_metrics(raw, where, problems)
    if isinstance(expected_cells, dict):
        for column, cell in expected_cells.items():
            entry = expected_cell_entry(column, cell, where, problems)
            metric = parse_metric_entry(entry, where, (column,), problems, labelled=True) if entry else None
            if metric is not None:
                metrics.append(metric)
                own_verdicts.append(None)
    transform = _case_transform(raw, data, where, media_dir, problems) if "transform" in data else None
    if inherited_metrics:
        names = {_identity(m) for m in metrics}
        inherited = [m for m in inherited_metrics if _identity(m) not in names]
        metrics = inherited + metrics
    else:
        inherited = []

    prompt = _prompt(data, raw, prompt_template, variables, case_id, where, problems,
                     prompt_optional) if fields_ok else ""
    context = data.get("context")
    expected_output = data.get("expected_output")
    for metric in metrics:
        info = getattr(metric, "info", None)
        if info is None or info.value == "none" or getattr(metric, "value", None) is not None:
            continue
        if expected_output is None:
            if info.value == "required":
                problems.error(f"metric {info.name!r} needs a value", where.at("metrics"), file=where.file,
                               line=where.line, suggestion="give it `value:` or give the case `expected_output:`")
            continue
        try:  # the expected output stands in for the metric's value: check it as the value is checked
            getattr(metric, "check_expected", _no_check)(expected_output)
        except MetricConfigError as exc:
            problems.error(f"{exc} (used by {info.name!r} as its value)", where.at("expected_output"),
                           file=where.file, line=where.line)
    if problems.error_count > before:
        return None
    case_verdict = raw.get("expected_pass")
    if verdicts is not None and (case_verdict is not None or any(v is not None for v in own_verdicts)):
        verdicts[case_id] = HumanVerdicts(case_verdict, (None,) * len(inherited) + tuple(own_verdicts))
    if transform is not None and transforms is not None:
        transforms[case_id] = transform
    output = data.get("output")
    if output is not None and not isinstance(output, str):
        output = json.dumps(output, ensure_ascii=False)
    return DatasetCase(
        id=case_id, query=prompt, expected_output=expected_output, tools=data.get("tools"),
        context=[context] if isinstance(context, str) else context, metadata=dict(data.get("metadata") or {}),
        vars=variables, metrics=metrics, output=output, expected_tools=data.get("expected_tools"),
        plan=data.get("plan"), conversation=data.get("conversation"), role=data.get("role"),
        rules=data.get("rules"), threshold=data.get("threshold"), description=data.get("description"),
        image=data.get("image"), images=_as_list(data.get("images")), audio=data.get("audio"),
        video=data.get("video"), media_dir=str(media_dir) if media_dir is not None else None,
        from_data=where.from_data,
    )


def _case_metrics(raw: dict[str, Any], where: Where, problems: Problems) -> tuple[list[Any], list[bool | None]]:
    """The case's own metrics and, aligned with them, each entry's ``expected_pass`` (None: not given).

    The two lists line up whenever no problem was recorded (a failed entry makes the case invalid).
    """
    metrics: list[Any] = []
    verdicts: list[bool | None] = []
    lists = [(raw[key], (key,)) for key in ("metrics", "assert") if key in raw]
    value = raw.get("value")
    if value is not None:
        if isinstance(value, dict) and "metrics" in value:
            problems.unknown_keys(value, ("metrics",), where.at("value"), "case value", file=where.file,
                                  line=where.line)
            lists.append((value["metrics"], ("value", "metrics")))
        else:
            problems.error("a case 'value' must be {metrics: [...]}", where.at("value"), file=where.file,
                           line=where.line, suggestion="put expected answers in 'expected_output'")
    for entries, keys in lists:
        metrics += parse_metric_list(entries, where, keys, problems, labelled=True)
        for entry in entries if isinstance(entries, list) else [entries]:
            verdicts.append(entry.get("expected_pass") if isinstance(entry, dict) else None)
    return metrics, verdicts


def _prompt(data: dict[str, Any], raw: dict[str, Any], template: str | None, variables: dict[str, Any],
            case_id: str, where: Where, problems: Problems, optional: bool = False) -> str:
    """The case's prompt: a cases file's own prompt as written; otherwise the suite's template rendered."""
    key = next((k for k in PROMPT_KEYS if k in data), None)
    source = data[key] if key else template
    if source is None:
        if not optional and data.get("output") is None and data.get("conversation") is None:
            problems.error("case has no prompt", where.key_path, file=where.file, line=where.line,
                           suggestion="add `prompt:`, or a suite-level `prompt:` template with `vars:`")
        return ""
    if not isinstance(source, str):
        source = json.dumps(source, ensure_ascii=False) if isinstance(source, (dict, list)) else str(source)
    if where.from_data and key is not None and key in raw:
        return source  # data is data: a `{{` in a cases file is text
    if not is_template(source):
        return source  # what render gives text without a placeholder
    try:
        return render(source, {**variables, "id": case_id})
    except TemplateError as exc:
        problems.error(str(exc), where.at(key or "vars"), file=where.file, line=where.line)
        return ""


def _as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _as_list(value: Any) -> list[Any] | None:
    """``images``: one reference is a list of one."""
    return None if value is None else value if isinstance(value, list) else [value]


def has_prompt(raw: Any, defaults: dict[str, Any]) -> bool:
    """Whether a case (or the defaults) gives its own prompt (``prompt``, ``query`` or ``input``)."""
    return any(k in defaults for k in PROMPT_KEYS) or (isinstance(raw, dict) and any(k in raw for k in PROMPT_KEYS))


_TRANSFORMS: dict[tuple[str, str, str], Transform] = {}
_TRANSFORM_CACHE_LIMIT = 256


def _case_transform(raw: dict[str, Any], data: dict[str, Any], where: Where, media_dir: Any,
                    problems: Problems) -> Transform | None:
    """The case's ``transform`` (its own, else the defaults'), compiled once per source; a cases file's own
    transform is refused: it is code, and a cases file is data."""
    own = "transform" in raw
    key_path = where.at("transform") if own else ("defaults", "transform")
    located = {"file": where.file, "line": where.line} if own else {}
    if own and where.from_data:
        problems.error("transform runs code, and a cases file is data", key_path, **located,
                       suggestion="put `transform:` on the suite's target, in `defaults:` or on an inline case "
                                  "(rename a `transform` column that is a var)")
        return None
    source = data["transform"]
    if not isinstance(source, str):
        return None  # reported by the field checks
    field = format_path(key_path)
    cache_key = (source, field, str(media_dir))
    found = _TRANSFORMS.get(cache_key)
    if found is None:
        from agentunit.suite.transform import TransformError, load_transform

        try:
            found = load_transform(source, field, Path(media_dir) if media_dir is not None else None)
        except TransformError as exc:
            problems.error(f"transform {exc}", key_path, **located, suggestion=exc.suggestion)
            return None
        if len(_TRANSFORMS) >= _TRANSFORM_CACHE_LIMIT:
            _TRANSFORMS.clear()
        _TRANSFORMS[cache_key] = found
    return found


def expected_cell_entry(column: str, cell: Any, where: Where, problems: Problems) -> dict[str, Any] | None:
    """A CSV ``__expected`` cell read as promptfoo reads it (``contains: foo``, ``not-equals: bar``,
    ``llm-rubric: …``, ``similar(0.8): …``; plain text is ``equals``) as a metric entry; None (with a
    problem at the column) for JavaScript. The ``__metric`` column, carried as ``{label}``, names it."""
    from agentunit.suite.assertion_cells import PROMPTFOO_THRESHOLDS, RENAMED, assertion_from_string

    label = None
    if isinstance(cell, dict):
        cell, label = cell.get("cell"), cell.get("label")
    entry = assertion_from_string(str(cell).strip())
    kind = str(entry.get("type", ""))
    negate, base = kind.startswith("not-"), kind[4:] if kind.startswith("not-") else kind
    if base == "javascript":
        problems.error("a JavaScript assertion cannot run here", where.at(column), file=where.file,
                       line=where.line, suggestion="write it as a python metric in the suite file, or use "
                                                   "`contains:`, `equals:`, `regex:`, `llm-rubric:` …")
        return None
    name = RENAMED.get(base, base)
    if base.startswith("similar:"):
        name = "similar"
        entry["config"] = {"metric": base.split(":", 1)[1]}
    if "threshold" not in entry and name in PROMPTFOO_THRESHOLDS:
        entry["threshold"] = PROMPTFOO_THRESHOLDS[name]
    entry["type"] = ("not-" if negate else "") + name
    if label:
        entry["metric"] = label
    return entry
