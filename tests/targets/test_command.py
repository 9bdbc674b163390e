import asyncio
import json
import os
import sys

import pytest

from agentunit.datasets.base import DatasetCase
from agentunit.errors import TargetError
from agentunit.targets import make_target


def _run(spec, prompt="hello; rm -rf /", **vars_):
    target = make_target({"type": "command", **spec})
    case = DatasetCase(id="c1", query=prompt, vars=vars_)
    return asyncio.run(target.send(case, target.request(case)))


def test_argv_templates_are_passed_literally_without_a_shell():
    reply = _run({"argv": [sys.executable, "-c", "import sys; print(sys.argv[1])", "{{ prompt }}"]})
    assert reply.body == "hello; rm -rf /"


def test_stdin_template_and_string_argv():
    reply = _run({"argv": f"{sys.executable} -c 'import sys; print(sys.stdin.read().upper())'",
                  "stdin": "{{ prompt }} / {{ lang }}"}, prompt="hi", lang="en")
    assert reply.body == "HI / EN"


def test_json_stdout_is_returned_for_envelope_parsing():
    payload = json.dumps({"output": "x", "trusys": {"plan": ["a"]}})
    reply = _run({"argv": [sys.executable, "-c", f"print({payload!r})"]})
    assert reply.body == payload


def test_non_zero_exit_timeout_and_missing_program():
    with pytest.raises(TargetError, match="status 3: oops"):
        _run({"argv": [sys.executable, "-c", "import sys; sys.stderr.write('oops'); sys.exit(3)"]})
    with pytest.raises(TargetError, match=r"timed out after 0\.3 s"):
        _run({"argv": [sys.executable, "-c", "import time; time.sleep(10)"], "timeout": 0.3})
    with pytest.raises(TargetError, match="cannot start"):
        _run({"argv": ["/nonexistent/program"]})


# -- media in argv and stdin, and an output that is a medium (docs/media.md) ----------------------------

_PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415408d763f8cf"
                     "c0000003010100c9fe92ef0000000049454e44ae426082")


def test_a_medium_goes_in_as_a_file_that_lives_until_the_command_exits(tmp_path):
    import base64

    script = ("import os, sys; p = sys.argv[1]; print(os.path.exists(p), os.path.getsize(p), sys.argv[2], p,"
              " sys.stdin.read()[:22])")
    target = make_target({"type": "command", "argv": [sys.executable, "-c", script, "{{ image | path }}",
                                                      "{{ image | mime }}"], "stdin": "{{ image }}"})
    case = DatasetCase(id="c", query="p", image={"base64": base64.b64encode(_PNG).decode()})
    request = target.request(case)
    assert request["media"][0]["field"] == "image" and "agentunit_media" in request["argv"][3]
    exists, size, mime, path, stdin = asyncio.run(target.send(case, request)).body.split(" ")
    assert (exists, int(size), mime, stdin) == ("True", len(_PNG), "image/png", "data:image/png;base64,")
    assert not os.path.exists(path)  # removed once the command exited


def test_output_is_media_reads_stdout_as_a_reference_relative_to_the_working_directory(tmp_path):
    from agentunit import evaluate
    from agentunit.media import media_of
    from agentunit.media.output import output_media
    from agentunit.metrics.base import MetricResult

    (tmp_path / "out.png").write_bytes(_PNG)
    seen = {}

    class Probe:
        name = display_name = "probe"
        threshold, weight, label = None, 1.0, None

        def evaluate(self, case, trace, outcome):
            seen[case.id] = (output_media(outcome, case), media_of(case, outcome, "image", "reply"))
            return MetricResult(name=self.name, value=1.0, passed=True)

    probe = Probe()

    argv = [sys.executable, "-c", "print('out.png')"]
    for opt_in in (True, False):
        target = {"type": "command", "argv": argv, "cwd": str(tmp_path), "output_is_media": opt_in}
        (case,) = evaluate(cases=[{"id": str(opt_in), "prompt": "draw"}], target=target, metrics=[probe],
                           allow_paths=[tmp_path]).cases
        assert case["output"] == "out.png" and case["status"] == "passed", case["error"]
        records = (case["envelope"] or {}).get("media", [])
        if opt_in:
            assert [(r["field"], r["source"], r["mime"], r["size"]) for r in records] == \
                [("trusys.output_media", str(tmp_path / "out.png"), "image/png", len(_PNG))]
        else:
            assert records == []
    medium, images = seen["True"]
    assert medium is not None and medium.data == _PNG and images == [medium]
    assert seen["False"] == (None, [])  # plain text that happens to be a file name stays text
