"""Write the files of a starter suite, refusing to overwrite what is there unless told to."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import agentunit.starter.templates as templates
from agentunit.errors import AgentUnitError

KINDS = ("chat", "rag", "agent", "openai")
SUITE_FILE = "agentunit.yaml"
APP_FILE = "app.py"
DEFAULT_BASE_URL = "http://127.0.0.1:8000/v1"
DEFAULT_MODEL = "my-model"


@dataclass(frozen=True)
class Starter:
    """What ``write_starter`` wrote: the files, and the command to type next."""

    kind: str
    files: tuple[Path, ...]
    suite: Path
    next_steps: tuple[str, ...]


def write_starter(kind: str, directory: Path, *, force: bool = False, base_url: str | None = None,
                  model: str | None = None) -> Starter:
    """Write the starter files of ``kind`` into ``directory`` (created when missing).

    Raises AgentUnitError for an unknown kind, or when a file to write exists and ``force`` is false
    (nothing is written then).
    """
    if kind not in KINDS:
        raise AgentUnitError(f"unknown kind {kind!r}; choose one of {', '.join(KINDS)}")
    if kind != "openai" and (base_url or model):
        raise AgentUnitError("--base-url and --model are for --kind openai")
    contents = _contents(kind, base_url or DEFAULT_BASE_URL, model or DEFAULT_MODEL)
    paths = {directory / name: text for name, text in contents.items()}
    existing = [p for p in paths if p.exists()]
    if existing and not force:
        names = ", ".join(str(p) for p in existing)
        raise AgentUnitError(f"{names} already exist{'s' if len(existing) == 1 else ''}; "
                             "nothing was written (pass --force to overwrite, or choose another folder)")
    directory.mkdir(parents=True, exist_ok=True)
    for path, text in paths.items():
        path.write_text(text, encoding="utf-8")
    suite = directory / SUITE_FILE
    return Starter(kind=kind, files=tuple(paths), suite=suite, next_steps=_next_steps(kind, suite, model))


def _contents(kind: str, base_url: str, model: str) -> dict[str, str]:
    if kind == "openai":
        return {SUITE_FILE: templates.OPENAI_SUITE.replace("__BASE_URL__", base_url).replace("__MODEL__", model)}
    app, suite = {"chat": (templates.CHAT_APP, templates.CHAT_SUITE),
                  "rag": (templates.RAG_APP, templates.RAG_SUITE),
                  "agent": (templates.AGENT_APP, templates.AGENT_SUITE)}[kind]
    return {APP_FILE: app, SUITE_FILE: suite}


def _next_steps(kind: str, suite: Path, model: str | None) -> tuple[str, ...]:
    run = f"agentunit run {suite} --html {suite.parent / 'report.html'}"
    if kind == "openai":
        start = ("start your OpenAI-compatible server (or try: agentunit models serve judge --port 8000"
                 + ("" if model else ", then put the model name it prints in the suite") + "), then")
        return (start, run)
    return (run,)
