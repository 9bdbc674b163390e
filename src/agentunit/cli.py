"""The ``agentunit`` command line: run, metrics.

Exit codes (contract): 0 every case passed · 1 some case failed or errored · 2 bad usage or an
invalid suite (the message names file:line).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from agentunit.errors import AgentUnitError, SuiteError

app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None,
                  help="Test LLM applications and AI agents.")

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def _fail_usage(message: str) -> typer.Exit:
    sys.stderr.write(f"error: {message}\n")
    return typer.Exit(EXIT_USAGE)


@app.command()
def run(
    suite: Annotated[Optional[Path], typer.Argument(help="Suite file (YAML or JSON).")] = None,  # noqa: UP045
    jobs: Annotated[int, typer.Option("-j", "--jobs", "--concurrency", min=1, help="Cases in flight at once.")] = 8,
    repeat: Annotated[Optional[int], typer.Option(min=1, help="Attempts per case; reports pass@k and pass^k.")] = None,  # noqa: UP045
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Do not reuse cached target replies.")] = False,
    resume: Annotated[Optional[str], typer.Option(help="Continue run RUN_ID, skipping its committed cases.")] = None,  # noqa: UP045
    db: Annotated[Path, typer.Option(help="Results database.")] = Path(".agentunit/agentunit.db"),
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write the JSON report.")] = None,  # noqa: UP045
    junit: Annotated[Optional[Path], typer.Option(help="Write a JUnit XML report.")] = None,  # noqa: UP045
    markdown: Annotated[Optional[Path], typer.Option(help="Write a Markdown report.")] = None,  # noqa: UP045
    html: Annotated[Optional[Path], typer.Option(help="Write a self-contained HTML report.")] = None,  # noqa: UP045
    filter: Annotated[Optional[str], typer.Option(help="Regex: run only cases whose id or prompt matches.")] = None,  # noqa: UP045
    timeout: Annotated[Optional[float], typer.Option(min=0.001, help="Seconds per target call (retries included).")] = None,  # noqa: UP045
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar and no summary.")] = False,
) -> None:
    """Run a suite against its target, store the results, write reports; exit 0/1/2."""
    from agentunit.core.engine import Engine, RunOptions
    from agentunit.store.sqlite import Store
    from agentunit.suite.loader import load_suite

    store = Store(db)
    if resume:
        previous = store.get_run(resume)
        if previous is None:
            raise _fail_usage(f"no run {resume!r} in {db}")
        if suite is None and previous.get("suite_path"):
            suite = Path(previous["suite_path"])
        repeat = repeat or (previous.get("options") or {}).get("repeat", 1)
    if suite is None:
        raise _fail_usage("missing SUITE (a .yaml or .json suite file)")
    try:
        loaded = load_suite(suite)
        total = loaded.validate()
        for warning in loaded.problems.warning_texts():
            sys.stderr.write(warning + "\n")
        repeat = repeat or loaded.options.get("repeat", 1)
        options = RunOptions(concurrency=jobs if jobs != 8 else loaded.options.get("concurrency", jobs),
                             repeat=repeat, timeout=timeout, cache=not no_cache and loaded.options.get("cache", True),
                             resume=resume, filter=filter)
        engine = Engine(loaded, store, options)
    except SuiteError as exc:
        for problem in exc.problems:
            sys.stderr.write(f"{problem}\n")
        raise typer.Exit(EXIT_USAGE) from None
    except AgentUnitError as exc:
        raise _fail_usage(str(exc)) from None

    result = _execute(engine, total * repeat, show_progress=not quiet and sys.stderr.isatty())
    _write_reports(result, output=output, junit=junit, markdown=markdown, html=html)
    if not quiet:
        from agentunit.reporting.console import print_summary

        print_summary(result, db_path=str(db))
    store.close()
    if result.status == "interrupted":
        raise typer.Exit(130)
    raise typer.Exit(result.exit_code)


def _execute(engine: Any, total: int, show_progress: bool) -> Any:
    import asyncio

    if not show_progress:
        return asyncio.run(engine.run())
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  transient=True) as progress:
        task = progress.add_task(engine.suite.name, total=total)
        engine.on_progress = lambda done, _total: progress.update(task, completed=done)
        return asyncio.run(engine.run())


def _write_reports(result: Any, **paths: Path | None) -> None:
    from agentunit import reporting

    writers = {"output": reporting.write_json, "junit": reporting.write_junit,
               "markdown": reporting.write_markdown, "html": reporting.write_html}
    for key, path in paths.items():
        if path is not None:
            writers[key](result, path)


@app.command()
def metrics(
    family: Annotated[Optional[str], typer.Option(help="Only this family.")] = None,  # noqa: UP045
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List every metric with its family, inputs, value, default threshold and direction."""
    import json

    from agentunit.metrics.registry import all_metrics, families

    infos = all_metrics(family)
    if family and not infos:
        raise _fail_usage(f"no family {family!r}; families: {', '.join(families())}")
    if as_json:
        rows = [{"name": i.name, "family": i.family, "aliases": list(i.aliases), "needs": list(i.needs),
                 "value": i.value, "threshold": i.threshold, "direction": i.direction, "kind": i.kind,
                 "model": i.model, "summary": i.summary} for i in infos]
        sys.stdout.write(json.dumps(rows, indent=2) + "\n")
        return
    width = max(len(i.name) for i in infos)
    for i in infos:
        threshold = "—" if i.threshold is None else f"{i.threshold:g}"
        sys.stdout.write(f"{i.name.ljust(width)}  {i.family:<11} value={i.value:<8} threshold={threshold:<5} "
                         f"{i.direction:<6} needs={','.join(i.needs) or '—'}"
                         f"{'  model=' + i.model if i.model else ''}\n    {i.summary}\n")


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)


if __name__ == "__main__":
    main()
