"""The sandbox's API: languages, inputs, results, limits, isolation modes, parallel runs, cancellation."""

from __future__ import annotations

import asyncio
import os
import time

import pytest

import agentunit.code.sandbox as sandbox_module
from agentunit.code import Language, Limits, Sandbox, SandboxUnavailable, get_language, languages, register_language
from agentunit.code.languages import UnknownLanguage, command_for
from agentunit.errors import MetricConfigError
from tests.code.sandboxing import host_processes_with, requires_bwrap, run
from tests.process_helpers import eventually


def test_languages_and_their_aliases():
    assert {"python", "javascript", "bash"} <= set(languages())
    assert get_language("py").name == "python" and get_language("JS").name == "javascript"
    assert get_language("sh").name == "bash" and get_language("node").filename == "main.js"
    with pytest.raises(UnknownLanguage, match="register_language"):
        get_language("cobol")


def test_a_command_template_fills_in_the_file_and_appends_args():
    assert Language("x", "prog.x", "interp --flag {file}").argv(["a", "b c"]) == ["interp", "--flag", "prog.x",
                                                                                 "a", "b c"]
    argv, mounts = command_for(get_language("python"), ["1"])
    assert os.path.isabs(argv[0]) and argv[-2:] == ["main.py", "1"]
    assert all(isinstance(m, str) for m in mounts)


def test_limits_from_config():
    limits = Limits.from_config({"timeout": 1.5, "memory_mb": 300, "language": "python"})
    assert limits.timeout == 1.5 and limits.memory_mb == 300 and limits.cpu == 2 and limits.processes == 64
    with pytest.raises(MetricConfigError, match="open_files"):
        Limits.from_config({"open_files": 0})
    with pytest.raises(MetricConfigError, match="sandbox must be"):
        Sandbox("docker")


def test_file_names_stay_inside_the_sandbox_directory():
    for name in ("../x", "/etc/x", "a/../../x", ""):
        with pytest.raises(ValueError, match="stay in the directory"):
            asyncio.run(Sandbox().run({name: ""}, ["true"]))


def test_missing_bubblewrap_raises_with_the_install_command(monkeypatch):
    monkeypatch.setattr(sandbox_module.shutil, "which", lambda name, *a, **k: None)
    sandbox_module._require_bubblewrap.cache_clear()
    try:
        with pytest.raises(SandboxUnavailable, match="apt-get install bubblewrap"):
            asyncio.run(Sandbox().run({}, ["true"]))
    finally:
        monkeypatch.undo()
        sandbox_module._require_bubblewrap.cache_clear()


@requires_bwrap
class TestRuns:
    def test_python_javascript_and_bash(self):
        assert run("print(6 * 7)").stdout == "42\n"
        assert run("console.log(6 * 7)", "javascript").stdout == "42\n"
        assert run("echo $((6 * 7))", "bash").stdout == "42\n"

    def test_stdin_args_and_extra_files(self):
        result = run("import sys, helper\nprint(sys.argv[1:], sys.stdin.read(), helper.VALUE)",
                     stdin="from stdin", args=("a", "b"), files={"helper.py": "VALUE = 7\n", "data/x.txt": "x"})
        assert result.ok and result.stdout == "['a', 'b'] from stdin 7\n"

    def test_a_large_stdin_to_a_program_that_does_not_read_it(self):
        result = run("print('ignored')", stdin="x" * 5_000_000)
        assert result.ok and result.stdout == "ignored\n"

    def test_exit_codes_signals_and_the_failure_line(self):
        failed = run("import sys\nprint('bad', file=sys.stderr)\nsys.exit(3)")
        assert failed.exit_code == 3 and not failed.ok and failed.failure() == "exit code 3"
        assert failed.stderr == "bad\n"
        crashed = run("import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)")
        assert crashed.signal == "SIGSEGV" and not crashed.ok and "SIGSEGV" in crashed.failure()

    def test_the_environment_is_emptied_and_home_is_the_sandbox(self):
        result = run("import os, json\nprint(json.dumps(dict(os.environ)))\nprint(os.getcwd(), os.getuid())")
        env_line, where = result.stdout.splitlines()
        import json
        assert set(json.loads(env_line)) <= {"PATH", "HOME", "TMPDIR", "LANG", "USER", "LOGNAME", "PWD"}
        assert where == "/sandbox 1000"

    def test_tmp_and_dev_shm_are_writable_inside_their_quota(self):
        result = run("import tempfile, multiprocessing\nwith tempfile.TemporaryFile() as f:\n    f.write(b'x')\n"
                     "lock = multiprocessing.Lock()\nprint('ok')")
        assert result.ok and result.stdout == "ok\n", result.stderr

    def test_non_utf8_output_is_decoded_with_replacements(self):
        result = run("import sys\nsys.stdout.buffer.write(b'\\xff\\xfeok')")
        assert result.ok and result.stdout.endswith("ok") and "\ufffd" in result.stdout

    def test_the_detail_describes_the_run(self):
        detail = run("print('hi')").describe()
        assert detail["exit_code"] == 0 and detail["stdout_tail"] == "hi\n" and detail["limits_hit"] == []
        assert detail["isolation"]["mode"] == "bubblewrap" and "read-only" in detail["isolation"]["filesystem"]

    def test_a_registered_language_runs(self):
        register_language(Language("python-unbuffered", "prog.py", "python3 -u {file}"))
        assert run("print('via template')", "python-unbuffered").stdout == "via template\n"

    def test_many_sandboxes_in_parallel(self):
        sandbox = Sandbox(limits=Limits(timeout=60))  # 16 at once on two busy cores: seconds each, not 60

        async def many():
            return await asyncio.gather(*(sandbox.run_program(f"print({i} * {i})", "python") for i in range(16)))

        results = asyncio.run(many())
        assert [r.stdout for r in results] == [f"{i * i}\n" for i in range(16)]
        assert not any(r.timed_out for r in results)

    def test_cancelling_a_run_kills_its_processes(self):
        token = f"{time.time_ns() % 10**9}.{os.getpid()}"

        async def cancelled():
            task = asyncio.ensure_future(Sandbox(limits=Limits(timeout=600)).run_program(
                f"import subprocess\nsubprocess.run(['sleep', '{token}'])", "python"))
            deadline = time.monotonic() + 60
            while not host_processes_with(token) and not task.done() and time.monotonic() < deadline:
                await asyncio.sleep(0.02)  # until its process runs, however long a busy machine takes
            assert host_processes_with(token), "the program did not start"
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task

        asyncio.run(cancelled())
        assert eventually(lambda: host_processes_with(token) == [])


@requires_bwrap
class TestWithoutFilesystemIsolation:
    def test_runs_in_a_temporary_directory_that_is_removed_afterwards(self):
        result = run("import os\nprint(os.getcwd())\nopen('f', 'w').write('x')", isolation="none")
        directory = result.stdout.strip()
        assert result.ok and "agentunit-sandbox-" in directory and not os.path.exists(directory)
        assert result.isolation["mode"] == "none" and "host" in result.isolation["filesystem"]

    def test_the_environment_is_still_emptied(self, monkeypatch):
        monkeypatch.setenv("AGENTUNIT_FAKE_SECRET", "s3cr3t-value")
        result = run("import os\nprint(dict(os.environ))", isolation="none")
        assert "s3cr3t-value" not in result.stdout

    def test_network_and_background_processes_are_contained_where_namespaces_work(self):
        token = f"{time.time_ns() % 10**9}.{os.getpid()}"
        result = run(f"""
import socket, subprocess
subprocess.Popen(["sleep", "{token}"], start_new_session=True)
try:
    socket.create_connection(("1.1.1.1", 53), timeout=1)
    print("connected")
except OSError:
    print("no network")
""", isolation="none")
        assert eventually(lambda: host_processes_with(token) == [])
        if result.isolation["network"].startswith("none"):
            assert "no network" in result.stdout
