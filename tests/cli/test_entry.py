"""The ``agentunit`` program: ``agentunit run`` read without click behaves as the click command does — the
same exit status, output and messages — and imports no click (issue 20)."""

from __future__ import annotations

import errno
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from agentunit.cli import app, entry, run_command
from agentunit.cli.run_arguments import parse_run_arguments

_RUN = """
import atexit, sys
atexit.register(lambda: sys.stderr.write("click imported: %s\\n" % ("click" in sys.modules)))
from agentunit.cli import {entry}
sys.argv = ["agentunit", *{argv!r}]
{entry}()
"""


def _agentunit(entry_name: str, argv: list[str], cwd: Path) -> tuple[int, str, str, bool]:
    """(exit status, stdout, stderr without the run's id, whether click was imported) of the program
    started through ``entry_name`` (``program`` or ``main``) in a fresh interpreter."""
    done = subprocess.run([sys.executable, "-c", _RUN.format(entry=entry_name, argv=argv)], cwd=cwd,
                          capture_output=True, text=True, timeout=120)
    err, _, imported = done.stderr.rpartition("click imported: ")
    same = [re.sub(r"run \d{8}T\d{6}-[0-9a-f]+", "run ID", text) for text in (done.stdout, err)]
    return done.returncode, same[0], same[1], imported.strip() == "True"


def _suites(folder: Path) -> None:
    def write(name, cases, **extra):
        (folder / name).write_text(json.dumps({"name": name, "target": {"type": "echo"}, "cases": cases, **extra}))

    write("pass.json", [{"id": "a", "prompt": "Answer: 42", "metrics": [{"metric": "contains", "value": "42"}]}])
    write("fail.json", [{"id": "a", "prompt": "Answer: 41", "metrics": [{"metric": "contains", "value": "42"}]}])
    write("bad.json", [{"id": "a", "prompt": "x", "metrics": [{"metric": "no-such-metric"}]}])
    (folder / "adir").mkdir()


@pytest.mark.parametrize("argv, status", [
    (["run", "pass.json", "--db", "r.db", "-o", "r.json"], 0),
    (["run", "fail.json", "--db", "r.db"], 1),
    (["run", "bad.json", "--db", "r.db"], 2),
    (["run", "--db", "r.db"], 2),  # no suite
    (["run", "pass.json", "--db", "r.db", "--dry-run"], 0),
    (["run", "pass.json", "--db", "r.db", "--resume", "nope"], 2),
    (["run", "adir", "--db", "r.db"], 2),  # left to click: a folder
    (["run", "pass.json", "--jobs", "0"], 2),  # left to click: out of range
    (["run", "pass.json", "--no-such-option"], 2),
])
def test_the_program_ends_as_the_click_command_does(tmp_path, monkeypatch, argv, status):
    _suites(tmp_path)
    monkeypatch.chdir(tmp_path)  # where the arguments are read below too
    quick = _agentunit("program", argv, tmp_path)
    for written in ("r.db", "r.db-wal", "r.db-shm", "r.json"):
        (tmp_path / written).unlink(missing_ok=True)
    clicked = _agentunit("main", argv, tmp_path)
    assert quick[:3] == clicked[:3]
    assert quick[0] == status
    assert clicked[3]  # main always goes through click
    assert quick[3] == (parse_run_arguments(argv) is None)  # the program, only when the arguments need it


def test_the_program_writes_the_same_reports(tmp_path):
    _suites(tmp_path)
    argv = ["run", "pass.json", "--db", "r.db", "-o", "r.json"]
    assert _agentunit("program", argv, tmp_path)[0] == 0
    quick = json.loads((tmp_path / "r.json").read_text())
    for written in ("r.db", "r.db-wal", "r.db-shm", "r.json"):
        (tmp_path / written).unlink(missing_ok=True)
    assert _agentunit("main", argv, tmp_path)[0] == 0
    clicked = json.loads((tmp_path / "r.json").read_text())
    for report in (quick, clicked):
        for key in ("run_id", "started_at"):
            report.pop(key)
        for case in report["cases"]:
            case.pop("latency_ms")
    assert quick == clicked


@pytest.mark.parametrize("interrupt", [KeyboardInterrupt, EOFError])
def test_an_interrupt_before_the_run_ends_as_click_ends_it(tmp_path, monkeypatch, capsys, interrupt):
    def interrupted(*args, **kwargs):
        raise interrupt

    monkeypatch.setattr(run_command, "run_suite", interrupted)
    with pytest.raises(SystemExit) as ended:
        entry._run_without_click(parse_run_arguments(["run", str(tmp_path / "s.json")]))
    quick = ended.value.code, capsys.readouterr().err
    clicked = CliRunner().invoke(app, ["run", str(tmp_path / "s.json")])
    assert quick == (clicked.exit_code, clicked.stderr) == (1, "\nAborted!\n")


def test_a_closed_pipe_ends_with_status_1_and_nothing_more_written(tmp_path, monkeypatch):
    def broken(*args, **kwargs):
        raise OSError(errno.EPIPE, "Broken pipe")

    monkeypatch.setattr(run_command, "run_suite", broken)
    monkeypatch.setattr(sys, "stdout", sys.stdout)  # restored after the test: the program wraps both streams
    monkeypatch.setattr(sys, "stderr", sys.stderr)
    with pytest.raises(SystemExit) as ended:
        entry._run_without_click(parse_run_arguments(["run", "s.json"]))
    assert ended.value.code == 1
    assert type(sys.stdout).__name__ == type(sys.stderr).__name__ == "_PacifyFlushWrapper"


def test_a_closed_pipe_is_pacified_with_clicks_older_wrapper_too(monkeypatch):
    import click.utils

    class OlderWrapper:  # click 8.1-8.4: PacifyFlushWrapper, and no _PacifyFlushWrapper
        def __init__(self, wrapped):
            self.wrapped = wrapped

    def broken(*args, **kwargs):
        raise OSError(errno.EPIPE, "Broken pipe")

    names = vars(click.utils)  # not through getattr: click 8.5 warns that the old name is deprecated
    monkeypatch.setitem(names, "PacifyFlushWrapper", OlderWrapper)
    monkeypatch.delitem(names, "_PacifyFlushWrapper")
    monkeypatch.setattr(run_command, "run_suite", broken)
    monkeypatch.setattr(sys, "stdout", sys.stdout)
    monkeypatch.setattr(sys, "stderr", sys.stderr)
    with pytest.raises(SystemExit) as ended:
        entry._run_without_click(parse_run_arguments(["run", "s.json"]))
    assert ended.value.code == 1 and type(sys.stdout) is type(sys.stderr) is OlderWrapper


def test_another_os_error_is_not_taken_for_a_closed_pipe(monkeypatch):
    def failing(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(run_command, "run_suite", failing)
    with pytest.raises(OSError, match="No space"):
        entry._run_without_click(parse_run_arguments(["run", "s.json"]))


def test_what_the_command_registered_to_undo_is_undone_as_it_ends(monkeypatch):
    undone = []

    def registering(context, **arguments):
        context.call_on_close(lambda: undone.append("first"))
        context.call_on_close(lambda: undone.append("second"))
        raise SystemExit(0)

    monkeypatch.setattr(run_command, "run_suite", registering)
    with pytest.raises(SystemExit):
        entry._run_without_click(parse_run_arguments(["run", "s.json"]))
    assert undone == ["second", "first"]  # as click's context: last registered first


def test_an_interpreter_without_cpythons_exit_functions_ends_as_usual(monkeypatch):
    import atexit
    import os

    monkeypatch.delattr(atexit, "_run_exitfuncs")
    monkeypatch.setattr(os, "_exit", lambda code: pytest.fail("ended at once"))
    assert run_command._end_promptly(0) is None  # returned: the usual exit follows
