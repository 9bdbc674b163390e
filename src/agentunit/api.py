"""The Python API: ``evaluate`` a suite or cases, ``check`` one metric on one output."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NoReturn

from agentunit.core.engine import Engine, RunOptions, RunResult
from agentunit.core.envelope import build_trace, parse_reply
from agentunit.core.outcome import Outcome
from agentunit.datasets.base import DatasetCase
from agentunit.errors import MetricConfigError
from agentunit.metrics import metric_from_spec
from agentunit.metrics.base import MetricResult, score
from agentunit.store.sqlite import Store
from agentunit.suite.loader import load_suite, suite_from_dict
from agentunit.suite.model import Suite
from agentunit.targets.base import Target

_CASE_FIELDS = ("query", "prompt", "expected_output", "context", "expected_tools", "tools", "plan",
                "conversation", "role", "rules", "vars", "metadata", "image", "images", "audio", "video")
_OUTCOME_FIELDS = ("tool_calls", "agent_calls", "usage", "cost", "latency_ms", "logprobs", "finish_reason")


def check(output: Any, spec: Any, **fields: Any) -> MetricResult:
    """Evaluate one metric spec on one output and return its MetricResult.

    Args:
        output: the answer (text, or an envelope dict ``{output, trusys}``).
        spec: a metric name (``"contains"``, ``"not-equals"``) or a dict
            ``{"metric", "value", "threshold", "weight", "config"}``, or a metric instance.
        fields: case and outcome fields: ``query``/``prompt``, ``expected_output``, ``context``,
            ``expected_tools``, ``tools``, ``plan``, ``conversation``, ``role``, ``rules``, ``vars``,
            ``metadata``, ``image``, ``images``, ``audio``, ``video`` (media references: a path relative to
            the working directory, ``file://``, ``data:``, ``{base64, mime}``, an http(s) URL, bytes),
            ``tool_calls``, ``agent_calls``, ``usage``, ``cost``, ``latency_ms``, ``logprobs``,
            ``finish_reason``. Calls in observed order go in the output's envelope
            (``{"output": …, "trusys": {"events": [...]}}``), and so do reply media (``trusys.image``, …).

    Raises MediaError when a local or inline medium cannot be used (missing, unreadable, too large, of
    the wrong kind); a URL is fetched only when a metric reads it.
    """
    unknown = set(fields) - set(_CASE_FIELDS) - set(_OUTCOME_FIELDS)
    if unknown:
        raise TypeError(f"unknown field(s) {', '.join(sorted(unknown))}; "
                        f"allowed: {', '.join((*_CASE_FIELDS, *_OUTCOME_FIELDS))}")
    metric = metric_from_spec(spec)
    context = fields.get("context")
    case = DatasetCase(
        id="check", query=str(fields.get("query", fields.get("prompt", "")) or ""),
        expected_output=fields.get("expected_output"), context=[context] if isinstance(context, str) else context,
        tools=fields.get("tools"), expected_tools=fields.get("expected_tools"), plan=fields.get("plan"),
        conversation=fields.get("conversation"), role=fields.get("role"), rules=fields.get("rules"),
        vars=dict(fields.get("vars") or {}), metadata=dict(fields.get("metadata") or {}),
        image=fields.get("image"), images=_media_list(fields.get("images")), audio=fields.get("audio"),
        video=fields.get("video"))
    _check_media(case)
    info = getattr(metric, "info", None)
    if info is not None and info.value == "required" and getattr(metric, "value", None) is None \
            and case.expected_output is None:
        raise MetricConfigError(f"metric {info.name!r} needs a value or expected_output")
    outcome = parse_reply(output) if output is not None else Outcome(output=None)
    for key in _OUTCOME_FIELDS:
        if fields.get(key) is not None:
            setattr(outcome, key, fields[key])
    if outcome.query is None and case.query:
        outcome.query = case.query
    return score(metric, case, build_trace(outcome, case.query), outcome)


def _media_list(value: Any) -> list[Any] | None:
    return None if value is None else list(value) if isinstance(value, (list, tuple)) else [value]


def _check_media(case: DatasetCase) -> None:
    """Local and inline media of a check() case must be usable now (a URL is fetched when read)."""
    from agentunit.media import check_reference, is_remote
    from agentunit.media.fields import case_refs

    for ref in case_refs(case):
        if not is_remote(ref.ref):
            check_reference(ref.ref, kind=ref.kind, field=ref.field)


def evaluate(
    suite: str | Path | dict[str, Any] | Suite | None = None,
    *,
    cases: Iterable[dict[str, Any] | DatasetCase] | None = None,
    target: dict[str, Any] | Callable[..., Any] | Target | None = None,
    metrics: Iterable[Any] | None = None,
    concurrency: int = 8,
    repeat: int = 1,
    timeout: float | None = None,
    cache: bool = True,
    filter: str | None = None,
    db: str | Path = ":memory:",
    name: str = "evaluate",
    judge: dict[str, Any] | Any = None,
    allow_unmeasured: bool = False,
    calibration: str | Path | None = None,
    processes: int | None = 1,
    allow_paths: Iterable[str | Path] | None = None,
) -> RunResult:
    """Run a suite (a file path, a suite dict or a Suite) or a list of cases, and return the results.

    Args:
        suite: suite file, decoded suite dict, or Suite.
        cases: alternatively, cases as dicts (suite-format fields) or DatasetCase objects.
        target: target spec dict, a Python callable, or a Target; overrides the suite's target.
        metrics: metric names/specs/instances applied to every case.
        concurrency, repeat, timeout, cache, filter: as for ``agentunit run``.
        db: results database (default in memory; pass a path to keep results and the cache, or a
            ``postgresql://`` URL: ``pip install 'agentunit[postgres]'``). The result keeps no connection
            to a file or server database open: reading its cases opens one and closes it after.
        name: suite name when running bare cases.
        judge: a judge config (``{"provider": "openai", ...}``) replacing the suite's, or a JudgeService.
        allow_unmeasured: cases where no metric gave a verdict do not fail the run (they are still
            counted as unmeasured, never as passed); also the suite option ``allow_unmeasured``.
        calibration: a calibration file (``agentunit calibrate --write``) replacing the suite's
            ``calibration:``; applied when it was fitted with the run's judge, else a warning says so.
        processes: validate the suite's cases, and split a run that calls nothing and awaits nothing (echo,
            recorded outputs, deterministic checks) into a SQLite file, across this many processes forked from
            this one (None: as ``agentunit run`` decides; 1, the default: this process only, never forked
            from a caller's).
        allow_paths: folders besides the suite's (the working directory for bare cases) where media paths in
            cases files and target replies may lead; also the suite option ``allow_paths`` (docs/security.md).
    """
    built = _build_suite(suite, cases, metrics, name)
    if allow_paths is not None:
        built.options = {**built.options, "allow_paths": [*built.options.get("allow_paths", []),
                                                          *(str(p) for p in allow_paths)]}
    service = None
    if isinstance(judge, dict):
        built.judge = judge
    elif judge is not None:
        service = judge
        built.judge_description = service.provider.describe()
    if calibration is not None:
        from agentunit.calibration.fit import CalibrationFileError, read_calibration

        if built.prebuilt_cases is not None:
            raise TypeError("calibration= sets the thresholds of a suite's metric entries: give a suite file, a "
                            "suite dict or case dicts, not DatasetCase objects")

        try:
            built.use_calibration(read_calibration(calibration), str(calibration))
        except CalibrationFileError as exc:
            raise CalibrationFileError(f"{calibration}:{exc.line or 1}: {exc}", line=exc.line,
                                       key_path=exc.key_path) from None
    built.validate(require_target=target is None, processes=processes)
    if target is None:  # the suite's own target: an unset ${ENV} it reads is one SuiteError, before any call
        from agentunit.suite.environment import check_environment

        check_environment(built)
    note = built.calibration_note()
    if note:
        warnings.warn(note, stacklevel=2)
    target_obj = _target(target, built)
    store = Store(db)
    options = RunOptions(concurrency=concurrency, repeat=repeat, timeout=timeout, cache=cache, filter=filter,
                         processes=processes,
                         allow_unmeasured=allow_unmeasured or bool(built.options.get("allow_unmeasured", False)))
    # In a helper thread when called inside an event loop (a notebook, an async test).
    try:
        result = Engine(built, store, options, target=target_obj, judge=service).execute()
    except BaseException:
        store.close()
        raise
    result.release()  # the store is ours: a kept result holds no connection (reads open one for themselves)
    return result


def _build_suite(suite: Any, cases: Any, metrics: Any, name: str) -> Suite:
    instances = [m for m in (metrics or []) if callable(getattr(m, "evaluate", None))]
    specs = [m for m in (metrics or []) if not callable(getattr(m, "evaluate", None))]
    if isinstance(suite, Suite):
        built = suite
    elif isinstance(suite, (str, Path)):
        built = load_suite(suite)
    elif isinstance(suite, dict):
        built = suite_from_dict(suite)
    elif suite is None and cases is not None:
        case_list = list(cases)
        if case_list and all(isinstance(c, DatasetCase) for c in case_list):
            built = Suite(name=name, prebuilt_cases=case_list)
            extra = [metric_from_spec(m) for m in specs] + instances
            for case in case_list:
                if not case.metrics:
                    case.metrics = list(extra)
            return built
        built = suite_from_dict({"name": name, "cases": case_list, "metrics": specs})
        specs = []
    else:
        raise TypeError("evaluate() needs a suite (path, dict or Suite) or cases")
    if specs:
        built.suite_metrics = built.suite_metrics + [metric_from_spec(m) for m in specs]
    if instances:
        built.suite_metrics = built.suite_metrics + instances
    return built


def _target(target: Any, suite: Suite) -> Target | None:
    from agentunit.adapters.base import BaseAdapter
    from agentunit.targets import make_target

    if target is None:
        return suite.build_target()  # the suite's own target (a promptfoo config's provider matrix too)
    if isinstance(target, Target):
        return target
    if isinstance(target, BaseAdapter):
        from agentunit.targets.adapter import AdapterTarget

        return AdapterTarget(target)
    if callable(target):
        return make_target({"type": "python", "function": target})
    if isinstance(target, dict):
        from agentunit.suite.loader import check_target
        from agentunit.suite.problems import Problems

        problems = Problems()
        spec = check_target(target, problems)
        problems.raise_if_any()
        return make_target(spec, suite.path.parent if suite.path else None)
    raise TypeError(f"cannot use {target!r} as a target")


_CASE_CHECK_FIELDS = ("expected_output", "context", "expected_tools", "tools", "plan", "conversation", "role",
                      "rules", "vars", "metadata", "image", "images", "audio", "video")


def assert_passes(output: Any, metrics: Any = None, *, case: DatasetCase | None = None,
                  allow_unmeasured: bool = False, **fields: Any) -> list[MetricResult]:
    """Evaluate ``metrics`` on ``output`` (as ``check`` does, one by one) and raise AssertionError unless
    every one passes; return the results when they do.

    Args:
        output: the answer (text, or an envelope dict ``{output, trusys}``).
        metrics: one metric spec (a name, a ``{metric, value, threshold, …}`` dict, an instance) or a list
            of them; None takes the metrics of ``case``.
        case: a suite case (from ``agentunit.parametrize``): its metrics and fields (prompt, expected
            output, context, expected tools, …) are used unless given here.
        allow_unmeasured: a metric that could not measure (its inputs were absent) is not a failure.
            Without it, not measured is never a pass, and neither is a list where no metric gave a verdict.
        fields: case and outcome fields, as for ``check``.

    The AssertionError lists every metric that did not pass: its value, threshold and reason (or error).
    pytest shows it under the test's own line: agentunit's frames are hidden (``__tracebackhide__``).
    """
    __tracebackhide__ = True
    if case is not None:
        fields = {**_case_fields(case), **fields}
        if metrics is None:
            metrics = list(case.metrics)
    if metrics is None:
        raise TypeError("assert_passes() needs metrics (a metric spec or a list of them), or a case with metrics")
    specs = list(metrics) if isinstance(metrics, (list, tuple)) else [metrics]
    if not specs:
        raise TypeError("assert_passes() got an empty list of metrics")
    results = [check(output, spec, **fields) for spec in specs]
    problems = []
    verdicts = 0
    for result in results:
        status = result.status
        if status == "passed":
            verdicts += 1 if result.weight > 0 else 0
        elif status == "failed":
            verdicts += 1 if result.weight > 0 else 0
            if result.weight > 0:
                problems.append(_failure_line(result))
        elif status == "error" or (status == "not_measured" and not allow_unmeasured):
            problems.append(_failure_line(result))
    if not problems and not verdicts and not allow_unmeasured:
        problems.append("no metric gave a verdict (informational or weight 0 only): nothing was checked")
    if problems:
        head = f"{len(problems)} of {len(results)} metric(s) did not pass" if verdicts or len(problems) > 1 \
            else "the output did not pass"
        _fail(head + ":\n" + "\n".join(f"  - {line}" for line in problems))
    return results


def _fail(message: str) -> NoReturn:
    """Raise the AssertionError of ``assert_passes`` from a frame of two lines (hidden by pytest too)."""
    __tracebackhide__ = True
    raise AssertionError(message)


def _failure_line(result: MetricResult) -> str:
    """One line for a metric that did not pass: name, status, value, threshold, reason or error."""
    status = result.status.replace("_", " ")
    parts = [f"{result.name}: {status}"]
    if result.value is not None:
        parts.append(f"value {result.value:.4g}" if isinstance(result.value, (int, float)) else
                     f"value {result.value!r}")
    if result.threshold is not None:
        parts.append(f"threshold {result.threshold:g}")
    line = ", ".join(parts)
    why = result.error if result.error is not None else result.reason
    return f"{line} — {why}" if why else line


def _case_fields(case: DatasetCase) -> dict[str, Any]:
    """``check`` fields from a suite case: its prompt and the fields it sets."""
    found: dict[str, Any] = {"query": case.query}
    for name in _CASE_CHECK_FIELDS:
        value = getattr(case, name, None)
        if value is not None and value != {}:
            found[name] = value
    return found


def parametrize(suite: str | Path | dict[str, Any] | Suite, argname: str = "case") -> Any:
    """A ``pytest.mark.parametrize`` over a suite's cases (ids: the case ids), for tests written in Python.

    Each test gets one ``DatasetCase`` as ``argname`` (``case.query``, ``case.expected_output``,
    ``case.metrics``, …); hand it to ``assert_passes(output, case=case)``. The suite is read and checked
    when the test module is collected: a SuiteError names the file and line.
    """
    import pytest

    built = suite if isinstance(suite, Suite) else load_suite(suite) if isinstance(suite, (str, Path)) \
        else suite_from_dict(suite)
    built.validate()
    cases = list(built.iter_cases())
    return pytest.mark.parametrize(argname, cases, ids=[str(c.id) for c in cases])
