"""``agentunit run``'s arguments read without click give exactly what click gives the command, or are left
to click (issue 20: a run starts without importing click)."""

from __future__ import annotations

import os
from pathlib import Path

import click
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentunit.cli.commands import run as run_command
from agentunit.cli.run_arguments import parse_run_arguments


def _clicks(args: list[str]) -> dict | None:
    """The parameters click gives ``agentunit run ARGS`` (None when click refuses them or prints help)."""
    try:
        with run_command.make_context("run", list(args)) as context:
            return dict(context.params)
    except (click.exceptions.ClickException, click.exceptions.Exit):
        return None


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A working folder with a suite file and a folder in it, and no AGENTUNIT_DB."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("AGENTUNIT_DB", raising=False)
    for name in [n for n in os.environ if n.startswith("_") and n.endswith("_COMPLETE")]:
        monkeypatch.delenv(name)
    (tmp_path / "s.json").write_text("{}")
    (tmp_path / "adir").mkdir()
    return tmp_path


USUAL = [
    ["s.json"],
    ["s.json", "--db", "r.db", "--output", "o.json"],
    ["--db=r.db", "s.json", "-q"],
    ["-j", "4", "--repeat", "2", "s.json"],
    ["s.json", "--timeout", "2.5", "--processes", "1", "--allow-unmeasured", "--no-cache"],
    ["s.json", "--junit", "j.xml", "--markdown", "m.md", "--html", "h.html", "-o", "o.json"],
    ["--", "s.json"],
    ["s.json", "--filter", "abc", "--dry-run", "--quiet"],
    ["s.json", "--executor", "local", "--concurrency", "3", "--jobs", "5"],
    ["--resume", "20261205T010000-abcdef"],
    ["s.json", "--calibration", "c.yaml", "--timeout=1e-3"],
    ["s.json", "--db", "postgresql://user:secret@db.example/results"],
    ["new.yaml", "--executor", "ray", "--ray-address", "auto", "--ray-workers", "2"],
    [],
]


@pytest.mark.parametrize("args", USUAL)
def test_the_usual_forms_are_read_here_as_click_reads_them(here, args):
    mine = parse_run_arguments(["run", *args])
    assert mine is not None
    assert mine == _clicks(args)


def test_the_results_database_comes_from_the_environment_as_click_takes_it(here, monkeypatch):
    for value, expected in [("env.db", Path("env.db")), ("postgresql://u:p@h/db ", "postgresql://u:p@h/db"),
                            ("", Path(".agentunit/agentunit.db"))]:
        monkeypatch.setenv("AGENTUNIT_DB", value)
        mine = parse_run_arguments(["run", "s.json"])
        assert mine == _clicks(["s.json"])
        assert mine["db"] == expected
    assert parse_run_arguments(["run", "s.json", "--db", "given.db"])["db"] == Path("given.db")


LEFT_TO_CLICK = [
    ["s.json", "--help"], ["-h"], ["s.json", "--bogus"], ["s.json", "-x"], ["a.json", "b.json"],
    ["s.json", "-j", "0"], ["s.json", "--jobs", "abc"], ["s.json", "--jobs", "+5"], ["s.json", "--repeat", "²"],
    ["s.json", "--timeout", "nan"], ["s.json", "--timeout", "-1"], ["s.json", "--timeout", "0"],
    ["s.json", "--db", ""], ["s.json", "--db="], ["s.json", "--executor", "Local"], ["s.json", "--quiet=1"],
    ["s.json", "-qo", "x.json"], ["s.json", "-oout.json"], ["s.json", "--output"], ["s.json", "--db", "--quiet"],
    ["adir"], ["s.json", "--output", "adir"], ["-"], ["s.json", "--processes", str(2**63)], ["s.json", "--jobs", "٣"],
]


@pytest.mark.parametrize("args", LEFT_TO_CLICK)
def test_anything_else_is_left_to_click(here, args):
    assert parse_run_arguments(["run", *args]) is None


@pytest.mark.parametrize("argv", [[], ["--version"], ["--help", "run"], ["calibrate", "s.json"], ["view"],
                                  ["Run", "s.json"]])
def test_only_the_run_command_is_read_here(here, argv):
    assert parse_run_arguments(argv) is None


def test_shell_completion_is_left_to_click(here, monkeypatch):
    monkeypatch.setenv("_AGENTUNIT_COMPLETE", "bash_complete")
    assert parse_run_arguments(["run", "s.json"]) is None


_TOKENS = st.sampled_from([
    "s.json", "new.json", "adir", "r.db", "--", "-", "-q", "--quiet", "--no-cache", "--allow-unmeasured", "--dry-run",
    "-j", "--jobs", "--concurrency", "--repeat", "--resume", "--db", "-o", "--output", "--junit", "--markdown",
    "--html", "--filter", "--timeout", "--calibration", "--executor", "--ray-address", "--ray-workers",
    "--processes", "--help", "-h", "--bogus", "-qo", "--jobs=2", "--db=x.db", "--quiet=1", "--timeout=0.5",
    "0", "1", "7", "-3", "2.5", "nan", "inf", "abc", "", " 5", "5_0", "local", "ray", "postgresql://h/db",
])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(args=st.lists(_TOKENS, max_size=7))
def test_whatever_is_read_here_is_what_click_reads(here, args):
    mine = parse_run_arguments(["run", *args])
    if mine is not None:
        assert mine == _clicks(args), args


def test_every_option_of_the_run_command_is_read_here_by_the_same_names():
    from agentunit.cli import run_arguments

    options = [p for p in run_command.params if isinstance(p, click.Option) and p.name != "help"]
    declared = {name: p.name for p in options for name in p.opts}
    read_here = {**run_arguments._VALUED, **run_arguments._FLAGS}
    assert read_here == declared  # an option added to the command is added here too (else it goes to click)
    assert {p.name for p in options if p.is_flag} == set(run_arguments._FLAG_PARAMETERS)
