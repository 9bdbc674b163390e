"""The command target's settings, the request it records, and how it runs the command: working folder,
environment, stdin, its own session, exact error texts (start, exit status with the redacted end of
stderr, timeout, output over the limit), output decoding, and the process group reaped without waiting
on pipes nobody reads (mutation testing found these unpinned)."""

import asyncio
import base64
import hashlib
import sys

import pytest

from agentunit.datasets.base import DatasetCase
from agentunit.errors import AgentUnitError, TargetError
from agentunit.targets import make_target

PY = sys.executable
_PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415408d763f8cf"
                     "c0000003010100c9fe92ef0000000049454e44ae426082")


def _target(**spec):
    return make_target({"type": "command", **spec})


def _send(target, case=None):
    case = case or DatasetCase(id="c1", query="hi")
    return asyncio.run(target.send(case, target.request(case))).body


def _error(target, case=None):
    with pytest.raises(TargetError) as raised:
        _send(target, case)
    return str(raised.value)


# -- settings -----------------------------------------------------------------------------------------

def test_argv_given_as_a_string_is_split_like_a_shell_and_list_items_become_text():
    assert _target(argv="prog 'two words' \"x y\" z").argv == ["prog", "two words", "x y", "z"]
    assert _target(argv=["prog", 3, 1.5]).argv == ["prog", "3", "1.5"]


def test_the_timeout_defaults_to_a_minute_and_is_read_as_seconds():
    assert _target(argv=["prog"]).timeout == 60.0
    assert _target(argv=["prog"], timeout="2.5").timeout == 2.5


def test_bad_limits_and_media_flags_are_refused_naming_the_command_target():
    with pytest.raises(AgentUnitError) as raised:
        _target(argv=["prog"], max_response_bytes=0)
    assert str(raised.value) == "command target: max_response_bytes must be a whole number of bytes ≥ 1, got 0"
    with pytest.raises(AgentUnitError) as raised:
        _target(argv=["prog"], output_is_media="yes")
    assert str(raised.value) == "command target: output_is_media must be true or false, got 'yes'"
    assert _target(argv=["prog"]).max_response_bytes == 10 * 1024 * 1024
    assert _target(argv=["prog"]).output_is_media is False


# -- the request --------------------------------------------------------------------------------------

def test_the_request_is_the_rendered_argv_and_stdin_and_nothing_else():
    case = DatasetCase(id="c7", query="hi", vars={"lang": "en"})
    target = _target(argv=["prog", "{{ prompt }}-{{ id }}-{{ lang }}"])
    assert target.request(case) == {"argv": ["prog", "hi-c7-en"], "stdin": None}
    with_stdin = _target(argv=["prog"], stdin="{{ lang }}:{{ prompt }}")
    assert with_stdin.request(case) == {"argv": ["prog"], "stdin": "en:hi"}
    assert _target(argv=["prog"], stdin=5).request(case) == {"argv": ["prog"], "stdin": "5"}


def test_a_case_medium_is_in_the_request_only_when_a_template_uses_it():
    case = DatasetCase(id="c", query="p", image={"base64": base64.b64encode(_PNG).decode()})
    unused = _target(argv=["prog", "{{ prompt }}"], stdin="{{ id }}").request(case)
    assert unused == {"argv": ["prog", "p"], "stdin": "c"}
    text_id = "text-sha256:" + hashlib.sha256(case.image["base64"].encode()).hexdigest()  # the base64 text's
    assert _target(argv=["prog"], stdin="{{ image | mime }}").request(case) == {
        "argv": ["prog"], "stdin": "__agentunit_media_0_mime__", "media": [{"field": "image", "id": text_id}]}


# -- running ------------------------------------------------------------------------------------------

def test_the_command_runs_in_the_configured_folder(tmp_path):
    assert _send(_target(argv=[PY, "-c", "import os; print(os.getcwd())"], cwd=str(tmp_path))) == str(tmp_path)


def test_env_adds_to_the_inherited_environment_with_env_references_resolved(monkeypatch):
    monkeypatch.setenv("AGENTUNIT_MUT_INHERITED", "kept")
    monkeypatch.setenv("AGENTUNIT_MUT_SECRET", "s3cr3t-value")
    script = "import os; print(os.environ['FOO'], os.environ['NUM'], os.environ['AGENTUNIT_MUT_INHERITED'])"
    target = _target(argv=[PY, "-c", script], env={"FOO": "${AGENTUNIT_MUT_SECRET}/x", "NUM": 7})
    assert _send(target) == "s3cr3t-value/x 7 kept"
    assert target.secrets == {"s3cr3t-value"}


def test_without_stdin_the_command_reads_from_dev_null_in_a_session_of_its_own():
    script = ("import os, stat; print(stat.S_ISCHR(os.fstat(0).st_mode), os.getsid(0) == os.getpid(),"
              " repr(os.read(0, 10)))")
    assert _send(_target(argv=[PY, "-c", script])) == "True True b''"
    piped = "import os, stat; print(stat.S_ISFIFO(os.fstat(0).st_mode), repr(os.read(0, 10)))"
    assert _send(_target(argv=[PY, "-c", piped], stdin="abc")) == "True b'abc'"


def test_stdin_is_sent_as_utf8_with_unencodable_characters_replaced():
    script = "import sys; print(sys.stdin.buffer.read().hex())"
    case = DatasetCase(id="c", query="é\ud800!")
    assert _send(_target(argv=[PY, "-c", script], stdin="{{ prompt }}"), case) == "c3a93f21"


def test_a_command_that_exits_without_reading_its_input_is_judged_by_its_exit_status():
    case = DatasetCase(id="c", query="x" * 1_000_000)
    assert _send(_target(argv=[PY, "-c", "print('done')"], stdin="{{ prompt }}"), case) == "done"


def test_stdout_is_decoded_with_replacement_and_only_trailing_newlines_are_removed():
    script = r"import sys; sys.stdout.buffer.write(b' a\xff b ' + sys.argv[1].encode() + b'\r\n\n\r\n')"
    assert _send(_target(argv=[PY, "-c", script, " "])) == " a\ufffd b  "  # spaces at the end are kept
    assert _send(_target(argv=[PY, "-c", script, "X"])) == " a\ufffd b X"


# -- errors -------------------------------------------------------------------------------------------

def test_a_program_that_cannot_start_is_named_with_the_reason():
    assert _error(_target(argv=["/nonexistent/program", "x"])) == \
        "cannot start '/nonexistent/program': No such file or directory"


def test_a_failed_command_shows_the_redacted_stripped_end_of_its_stderr(monkeypatch):
    monkeypatch.setenv("AGENTUNIT_MUT_TOKEN", "tok-123456")
    script = ("import os, sys; sys.stderr.buffer.write(b'  ' + b'a' * 600 + b'\\xff ' + os.environ['T'].encode()"
              " + b' end \\n\\n'); sys.exit(4)")
    message = _error(_target(argv=[PY, "-c", script], env={"T": "${AGENTUNIT_MUT_TOKEN}"}))
    tail = ("a" * 600 + "\ufffd *** end")[-500:]
    assert message == f"command exited with status 4: {tail}"


def test_a_timeout_is_reported_in_seconds_as_configured():
    script = "import time; time.sleep(30)"
    assert _error(_target(argv=[PY, "-c", script], timeout=0.25)) == "command timed out after 0.25 s"


def _endless(fd):
    """A command writing to ``fd`` without end through a 1 MiB pipe, so that more than asyncio's 128 KiB
    are waiting when the reader stops: asyncio then pauses reading that pipe."""
    return (f"import fcntl, os\ntry:\n    fcntl.fcntl({fd}, fcntl.F_SETPIPE_SZ, 1 << 20)\nexcept OSError:\n"
            f"    pass\nwhile True: os.write({fd}, b'x' * (1 << 20))")


@pytest.fixture
def expired(monkeypatch):
    """The timeouts of ``asyncio.wait_for`` calls that ran out, in order: the command's own, and the 5 s after
    which the reaping closes the pipes from our side as a last resort."""
    ran_out: list[float] = []
    real = asyncio.wait_for

    async def wait_for(awaitable, timeout):
        try:
            return await real(awaitable, timeout)
        except asyncio.TimeoutError:
            ran_out.append(timeout)
            raise

    monkeypatch.setattr(asyncio, "wait_for", wait_for)
    return ran_out


def test_output_over_the_limit_stops_the_command_and_waits_for_no_pipe(expired):
    """Once nobody reads a pipe asyncio stops reading it (more than 128 KiB waiting), so waiting for the
    killed process would wait for an end of file that never comes; the pipes are drained instead (else
    the reaping would wait for the 5 s of its last resort)."""
    endless = _endless(1)
    message = _error(_target(argv=[PY, "-c", endless], max_response_bytes=1000))
    assert message == "command output larger than 1000 bytes (max_response_bytes)"
    assert expired == []  # reaped without the last resort


def test_a_timed_out_command_writing_endless_stderr_is_reaped_without_waiting_on_the_pipe(expired):
    endless = _endless(2)
    assert _error(_target(argv=[PY, "-c", endless], timeout=0.3)) == "command timed out after 0.3 s"
    assert expired == [0.3]  # the command's own timeout only: reaped without the last resort
