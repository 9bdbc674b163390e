"""Every YAML and shell example of README.md and docs/*.md works as written, offline.

Fenced ``yaml`` blocks are loaded and checked like a suite: a whole suite as it stands (files it
names that a reader supplies, such as ``photos/sign.png``, may be missing, nothing else may be
wrong), a fragment — metric entries, a ``metrics:``/``target:``/``judge:`` part — inside a minimal
suite around it. A block that repeats a top-level key lists alternatives; each is checked alone.

Fenced ``bash``/``sh`` blocks run command by command, in document order, in one scratch folder per
document (``examples`` reachable from it, results in its own database), as a reader would type them:

- ``agentunit run SUITE …`` runs the suite for real when it needs no judge, else with ``--dry-run``
  (the suite is loaded and checked and the judge calls are counted, none is made); it must not exit 2;
- other ``agentunit`` commands run when they finish on their own and need nothing from the network
  (``compare``, ``import``, ``metrics``, ``models list``/``path``, ``init``); the rest — ``view`` and
  ``models serve`` (they serve until stopped), ``models install`` (downloads), ``calibrate`` (the judge
  on every case) — are checked against the command line: the command and its options exist;
- ``export NAME=value`` and ``NAME=value cmd`` set the environment of what follows;
- commands that install software (``make``, ``pip``, ``sudo``, ``apt-get``) never run here;
- a suite or config a command names that does not exist is the reader's own file: the command is
  checked against the command line only.

A block preceded by ``<!-- not-run: REASON -->`` is skipped; the set is kept small and each names why.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest
import yaml

from agentunit.cli import app
from agentunit.errors import SuiteError
from agentunit.suite.loader import suite_from_dict
from tests.conftest import JUDGED_RUN_S, ROOT

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_FENCE = re.compile(r"(?:<!--\s*not-run:\s*(?P<reason>.*?)\s*-->\s*\n)?^```(?P<lang>yaml|bash|sh)\n(?P<body>.*?)^```",
                    re.S | re.M)
_INSTALLS = {"make", "pip", "pip3", "sudo", "apt-get"}
_PARSE_ONLY = {("view",), ("models", "serve"), ("models", "install"), ("calibrate",)}
# A missing file the reader supplies is not a fault of the example; every other problem is.
_READERS_FILE = re.compile(r"no such file|not found|does not exist|cannot read|no file matches", re.I)


def _blocks(doc: Path, lang: tuple[str, ...]) -> list[tuple[int, str | None, str]]:
    text = doc.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start("body")) + 1, m.group("reason"), m.group("body"))
            for m in _FENCE.finditer(text) if m.group("lang") in lang]


def _cases(lang: tuple[str, ...]) -> list[Any]:
    return [pytest.param(doc, line, reason, body, id=f"{doc.relative_to(ROOT)}:{line}")
            for doc in DOCS for line, reason, body in _blocks(doc, lang)]


# ---------------------------------------------------------------------------------------------- yaml

def _alternatives(body: str) -> list[str]:
    """The block, or one document per alternative when a top-level key repeats."""
    keys = re.findall(r"^([A-Za-z_]\w*):", body, re.M)
    if len(keys) == len(set(keys)):
        return [body]
    parts, current, seen = [], [], set()
    for line in body.splitlines():
        key = re.match(r"^([A-Za-z_]\w*):", line)
        if key and key.group(1) in seen:
            parts.append("\n".join(current))
            current, seen = [], set()
        if key:
            seen.add(key.group(1))
        current.append(line)
    return [*parts, "\n".join(current)]


def _silent_wav() -> str:
    """A valid WAV file (10 ms of silence), base64-encoded: stands in for an example's elided ``"UklGR..."``."""
    import base64
    import io
    import wave

    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(16000)
        out.writeframes(b"\0\0" * 160)
    return base64.b64encode(buffer.getvalue()).decode()


def _elided(data: Any) -> Any:
    """``data`` without the ``...`` items an example writes for fields left out; an elided base64 medium
    becomes a real one."""
    if isinstance(data, dict):
        if isinstance(data.get("base64"), str) and data["base64"].endswith("..."):
            return {**data, "base64": _silent_wav()}
        return {k: _elided(v) for k, v in data.items() if k != "..." and v != "..."}
    if isinstance(data, list):
        return [_elided(v) for v in data if v != "..."]
    return data


def _as_suite(data: Any) -> tuple[dict[str, Any], bool]:
    """A suite to load for the example, and whether it is the example itself (not a fragment around)."""
    case = {"id": "example", "prompt": "What is the capital of France?", "output": "Paris.",
            "expected_output": "Paris"}
    if isinstance(data, list):
        return {"cases": [{**case, "metrics": data}]}, False
    assert isinstance(data, dict), f"a YAML example is a mapping or a list of metric entries: {data!r}"
    if any(k in data for k in ("cases", "cases_file", "tests")):
        return data, True
    suite = dict(data)
    if "target" in data or "targets" in data:
        case.pop("output")
    suite["cases"] = [case] if "metrics" in data or "defaults" in data else [{**case, "metrics": ["contains"]}]
    return suite, False


# Examples known to be wrong, in files generated from code this change does not own; strict: fixing one fails
# the test until it is taken off this list.
_KNOWN_WRONG: dict[str, str] = {}  # "docs/x.md:LINE": why the example is wrong (a strict xfail until fixed)


@pytest.mark.parametrize(("doc", "line", "skip", "body"), _cases(("yaml",)))
def test_yaml_example_is_a_valid_suite(doc, line, skip, body, tmp_path, request):
    if skip:
        pytest.skip(skip)
    known = _KNOWN_WRONG.get(f"{doc.relative_to(ROOT)}:{line}")
    if known:
        request.applymarker(pytest.mark.xfail(reason=known, strict=True))
    for text in _alternatives(body):
        data = _elided(yaml.safe_load(text))
        suite, whole = _as_suite(data)
        path = tmp_path / "suite.yaml"
        path.write_text(text if whole and "..." not in text else yaml.safe_dump(suite))
        try:
            loaded = suite_from_dict(suite, path)
            loaded.validate()
        except SuiteError as exc:
            problems = [str(p) for p in exc.problems if not _READERS_FILE.search(str(p))]
            if len(problems) < len(exc.problems):  # a cases file of the reader's: its cases are not here
                problems = [p for p in problems if "has no cases" not in p]
            assert not problems, f"{doc.name}:{line}:\n" + "\n".join(problems)


# ---------------------------------------------------------------------------------------------- shell

def _commands(body: str) -> list[str]:
    """The block's command lines: continuations joined, comments and blank lines left out."""
    text = re.sub(r"\\\n\s*", " ", body)
    commands = []
    for line in text.splitlines():
        words = shlex.split(line, comments=True)
        if words:
            commands.append(words)
    return commands


def _cli_path(words: list[str]) -> tuple[str, ...]:
    """The subcommand path of an ``agentunit`` command line (``("models", "serve")``, ``("run",)``)."""
    group: Any = app
    path: list[str] = []
    for word in words:
        if not isinstance(group, click.Group) or word not in group.commands:
            break
        group = group.commands[word]
        path.append(word)
    return tuple(path)


def _parses(words: list[str]) -> None:
    """The command and its options exist: click parses the line (UsageError if not) without running it."""
    command: Any = app
    name, rest, parent = "agentunit", list(words), None
    while isinstance(command, click.Group):
        context = command.make_context(name, rest, parent=parent, resilient_parsing=True)
        rest = [*getattr(context, "_protected_args", []), *context.args]  # the subcommand and its words
        name, command, rest = command.resolve_command(context, rest)
        assert command is not None, f"agentunit has no command {' '.join(words)!r}"
        parent = context
    command.make_context(name, rest, parent=parent)


_RUN_ID = re.compile(r"\d{8}T\d{6}-[0-9a-f]+")  # a run of the reader's


def _two_runs(cwd: Path, env: dict[str, str]) -> None:
    """Two runs of a small deterministic suite, for an example that compares the reader's last two runs."""
    suite = cwd / "two-runs.yaml"
    suite.write_text("target: {type: echo}\ncases: [{prompt: hello, metrics: [{metric: contains, value: hello}]}]\n")
    for _ in range(2):
        assert _agentunit(["run", str(suite), "-q"], cwd, env).returncode == 0


def _needs_judge(suite: Path, cwd: Path, env: dict[str, str]) -> bool:
    proc = _agentunit(["run", str(suite), "--dry-run"], cwd, env)
    assert proc.returncode == 0, f"{suite}: the dry run failed:\n{proc.stderr}"
    found = re.search(r"(\d+) judge calls not in the cache \((\d+) cached\)", proc.stdout)
    return found is None or int(found.group(1)) + int(found.group(2)) > 0


def _agentunit(words: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    # a run of an example that needs no judge may still run an embedded model (speech, video) on every case
    return subprocess.run([sys.executable, "-m", "agentunit", *words], cwd=cwd, capture_output=True, text=True,
                          timeout=JUDGED_RUN_S, env=env, stdin=subprocess.DEVNULL)


def _run_command(words: list[str], cwd: Path, env: dict[str, str]) -> str | None:
    """Run (or check) one command as the module docstring says; returns what was done, for the log."""
    while words and re.fullmatch(r"[A-Za-z_]\w*=.*", words[0]):
        name, _, value = words.pop(0).partition("=")
        if not words or words[0] == "export":
            env[name] = value
            return f"set {name}"
        env = {**env, name: value}
    if words and words[0] == "export":
        for assignment in words[1:]:
            name, _, value = assignment.partition("=")
            env[name] = value
        return "exported"
    program = Path(words[0]).name
    if program in ("source", "."):
        return "the virtualenv: this test runs its python"
    if program in _INSTALLS:
        return f"not run (installs software): {' '.join(words)}"
    if program in ("python", "python3") and words[1:3] == ["-m", "pytest"]:
        if any(not (cwd / w).exists() for w in words[3:] if not w.startswith("-")):
            return f"not run (the reader's file): {' '.join(words)}"
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *words[3:]],
                              cwd=cwd, capture_output=True, text=True, timeout=300, env=env)
        assert proc.returncode == 0, f"{' '.join(words)}:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}"
        return "ran pytest"
    assert program == "agentunit", f"an example runs a command this test does not know: {' '.join(words)}"
    args = words[1:]
    path = _cli_path(args)
    _parses(args)
    inputs = [a for i, a in enumerate(args) if i >= len(path) and re.search(r"\.(ya?ml|json)$", a)
              and args[i - 1] not in ("-o", "--output", "--write")]  # files a command reads, not writes
    readers = (any(not (cwd / f).exists() for f in inputs) or env.get("AGENTUNIT_DB", "").startswith("postgresql:")
               or any(_RUN_ID.fullmatch(a) for a in args))
    if path in _PARSE_ONLY or readers:
        return f"parsed: {' '.join(words)}"
    if path == ("compare",) and not Path(env["AGENTUNIT_DB"]).exists():
        _two_runs(cwd, env)
    if path == ("run",):
        suite = cwd / inputs[0]
        if "--dry-run" not in args and _needs_judge(suite, cwd, env):
            args = [*args, "--dry-run"]
        proc = _agentunit(args, cwd, env)
        assert proc.returncode in (0, 1), f"{' '.join(words)} exited {proc.returncode}:\n{proc.stderr}"
        assert "errored" not in proc.stdout or " 0 errored" in proc.stdout, f"{' '.join(words)}:\n{proc.stdout}"
        return f"ran: {' '.join(args)}"
    proc = _agentunit(args, cwd, env)
    assert proc.returncode in (0, 1), f"{' '.join(words)} exited {proc.returncode}:\n{proc.stderr}"
    return f"ran: {' '.join(args)}"


@pytest.mark.slow
@pytest.mark.parametrize("doc", [d for d in DOCS if _blocks(d, ("bash", "sh"))], ids=lambda d: d.name)
def test_shell_examples_run_in_order(doc, tmp_path):
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    env = {**os.environ, "AGENTUNIT_DB": str(tmp_path / "agentunit.db"), "PYTHONPATH": str(ROOT),
           "HF_HUB_OFFLINE": "1"}
    done = []
    for line, skip, body in _blocks(doc, ("bash", "sh")):
        if skip:
            done.append(f"{doc.name}:{line}: not run: {skip}")
            continue
        for words in _commands(body):
            done.append(f"{doc.name}:{line}: {_run_command(list(words), tmp_path, env)}")
    print("\n".join(done))
    assert done
