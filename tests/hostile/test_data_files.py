"""Data is data: a promptfoo tests file or a cases file, written by an attacker, runs no code, chooses no
provider, reads no file outside the suite's folder and loosens no limit (docs/security.md, issue 50).

Each test plants the attacker's file next to an honest config, runs the CLI as a user would, and checks
what must not happen: a marker file a command would create, a secret outside the folder reaching the
database, the report or the import's output."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from agentunit.cli import app

SECRET = "s3cr3t-outside-the-suite-7f1c"


def _config(folder: Path, tests: str = "file://tests.yaml", extra: str = "") -> Path:
    config = folder / "promptfooconfig.yaml"
    config.write_text(f"prompts: ['Say {{{{topic}}}}']\nproviders: [echo]\ntests: {tests}\n{extra}", encoding="utf-8")
    return config


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def _outside(tmp_path: Path) -> Path:
    """A file holding a secret, outside the suite's folder (tmp_path/suite)."""
    secret = tmp_path / "outside" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text(SECRET, encoding="utf-8")
    return secret


@pytest.fixture
def suite_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "suite"
    folder.mkdir()
    return folder


def _refused(code: int, output: str, *words: str) -> None:
    assert code == 2, output
    for word in words:
        assert word in output, output


# -- code ---------------------------------------------------------------------------------------------


def test_a_tests_file_cannot_pick_an_exec_provider(suite_dir: Path, tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    (suite_dir / "tests.yaml").write_text(
        f"- vars: {{topic: hi}}\n  provider: 'exec: touch {marker}'\n  assert: [{{type: contains, value: hi}}]\n")
    code, output = _run("run", str(_config(suite_dir)), "--db", str(tmp_path / "r.db"))
    _refused(code, output, "tests.yaml", "provider", "declare")
    assert not marker.exists()


def test_a_tests_file_cannot_import_a_python_provider(suite_dir: Path, tmp_path: Path) -> None:
    marker = tmp_path / "imported"
    (suite_dir / "evil.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\ndef call_api(*a): return {{}}\n")
    (suite_dir / "tests.yaml").write_text("- vars: {topic: hi}\n  provider: file://evil.py\n")
    code, output = _run("run", str(_config(suite_dir)), "--db", str(tmp_path / "r.db"))
    _refused(code, output, "tests.yaml", "provider")
    assert not marker.exists()


def test_a_tests_file_cannot_send_prompts_to_a_server_of_its_choice(suite_dir: Path, tmp_path: Path) -> None:
    (suite_dir / "tests.yaml").write_text(
        "- vars: {topic: hi}\n  provider: {id: 'https://attacker.invalid/v1', config: {url: 'https://attacker.invalid'}}\n")
    code, output = _run("run", str(_config(suite_dir)), "--db", str(tmp_path / "r.db"))
    _refused(code, output, "tests.yaml", "provider")


def test_a_tests_file_may_pick_a_provider_the_config_declares(suite_dir: Path, tmp_path: Path) -> None:
    (suite_dir / "tests.yaml").write_text("- vars: {topic: hi}\n  provider: echo\n"
                                          "  assert: [{type: contains, value: hi}]\n")
    code, output = _run("run", str(_config(suite_dir)), "--db", str(tmp_path / "r.db"))
    assert code == 0, output


@pytest.mark.parametrize("assertion", [
    "{type: python, value: \"__import__('os').system('touch MARKER') or True\"}",
    "{type: assert-set, assert: [{type: python, value: \"__import__('os').system('touch MARKER') or True\"}]}",
    "{type: python, value: file://check.py}",
])
def test_a_tests_file_cannot_run_python_assertions(suite_dir: Path, tmp_path: Path, assertion: str) -> None:
    marker = tmp_path / "ran"
    (suite_dir / "check.py").write_text(f"def get_assert(output, context):\n    open({str(marker)!r}, 'w')\n"
                                        "    return True\n")
    attack = assertion.replace("MARKER", str(marker))
    (suite_dir / "tests.yaml").write_text(f"- vars: {{topic: hi}}\n  assert: [{attack}]\n")
    code, output = _run("run", str(_config(suite_dir)), "--db", str(tmp_path / "r.db"))
    _refused(code, output, "tests.yaml", "runs code")
    assert not marker.exists()


def test_a_csv_expected_cell_cannot_run_python(suite_dir: Path, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    (suite_dir / "tests.csv").write_text(
        f'topic,__expected\nhi,"python: __import__(\'os\').system(\'touch {marker}\') or True"\n')
    code, output = _run("run", str(_config(suite_dir, "file://tests.csv")), "--db", str(tmp_path / "r.db"))
    _refused(code, output, "tests.csv:2", "runs code")
    assert not marker.exists()


def test_the_config_itself_keeps_its_powers(suite_dir: Path, tmp_path: Path) -> None:
    """The promptfoo conformance still holds for the config: inline tests may run python and pick providers."""
    marker = tmp_path / "ran"
    config = suite_dir / "promptfooconfig.yaml"
    config.write_text("prompts: ['Say {{topic}}']\nproviders: [echo]\ntests:\n"
                      "  - vars: {topic: hi}\n"
                      f"    assert: [{{type: python, value: \"open({str(marker)!r}, 'w') and True\"}}]\n")
    code, output = _run("run", str(config), "--db", str(tmp_path / "r.db"))
    assert code == 0, output
    assert marker.exists()


# -- files outside the suite --------------------------------------------------------------------------


@pytest.mark.parametrize("reference", ["OUTSIDE", "../outside/secret.txt", "/proc/self/environ", "/etc/shadow",
                                       "/dev/zero", "LINK"])
def test_a_tests_file_var_cannot_read_host_files(suite_dir: Path, tmp_path: Path, reference: str) -> None:
    secret = _outside(tmp_path)
    (suite_dir / "link.txt").symlink_to(secret)
    reference = {"OUTSIDE": str(secret), "LINK": "link.txt"}.get(reference, reference)
    (suite_dir / "tests.yaml").write_text(f"- vars: {{topic: 'file://{reference}'}}\n")
    db = tmp_path / "r.db"
    code, output = _run("run", str(_config(suite_dir)), "--db", str(db), "-o", str(tmp_path / "r.json"))
    _refused(code, output, "tests.yaml", "vars")
    assert SECRET not in output
    assert not db.exists() or SECRET.encode() not in db.read_bytes()


def test_a_tests_file_var_inside_the_folder_is_read(suite_dir: Path, tmp_path: Path) -> None:
    (suite_dir / "docs").mkdir()
    (suite_dir / "docs" / "topic.txt").write_text("kittens", encoding="utf-8")
    (suite_dir / "tests.yaml").write_text("- vars: {topic: 'file://docs/topic.txt'}\n"
                                          "  assert: [{type: contains, value: kittens}]\n")
    code, output = _run("run", str(_config(suite_dir)), "--db", str(tmp_path / "r.db"))
    assert code == 0, output


def test_a_tests_file_assertion_value_cannot_read_host_files(suite_dir: Path, tmp_path: Path) -> None:
    secret = _outside(tmp_path)
    (suite_dir / "tests.yaml").write_text(f"- vars: {{topic: hi}}\n  assert: [{{type: contains, value: 'file://{secret}'}}]\n")
    code, output = _run("run", str(_config(suite_dir)), "--db", str(tmp_path / "r.db"))
    _refused(code, output, "tests.yaml", "assert")
    assert SECRET not in output


def test_import_writes_no_host_file_into_the_native_suite(suite_dir: Path, tmp_path: Path) -> None:
    secret = _outside(tmp_path)
    (suite_dir / "tests.yaml").write_text(f"- vars: {{topic: 'file://{secret}'}}\n")
    out = tmp_path / "native.yaml"
    code, output = _run("import", "promptfoo", str(_config(suite_dir)), "-o", str(out))
    assert code != 0, output
    assert SECRET not in output
    assert not out.exists() or SECRET not in out.read_text()


def test_the_config_may_name_files_anywhere(suite_dir: Path, tmp_path: Path) -> None:
    secret = _outside(tmp_path)
    config = suite_dir / "promptfooconfig.yaml"
    config.write_text(f"prompts: ['Say {{{{topic}}}}']\nproviders: [echo]\ntests:\n  - vars: {{topic: 'file://{secret}'}}\n"
                      f"    assert: [{{type: contains, value: {SECRET}}}]\n")
    code, output = _run("run", str(config), "--db", str(tmp_path / "r.db"))
    assert code == 0, output


def test_the_config_cannot_read_devices_either(suite_dir: Path, tmp_path: Path) -> None:
    config = suite_dir / "promptfooconfig.yaml"
    config.write_text("prompts: ['Say {{topic}}']\nproviders: [echo]\ntests:\n  - vars: {topic: 'file:///dev/zero'}\n")
    code, output = _run("run", str(config), "--db", str(tmp_path / "r.db"))
    _refused(code, output, "/dev/zero")


# -- limits and the sandbox ----------------------------------------------------------------------------


@pytest.mark.parametrize(("metric", "config"), [
    ("code-execution", {"sandbox": "none"}),
    ("code-correctness", {"memory_mb": 100000, "timeout": 3600}),
    ("moderation", {"provider": "openai"}),
])
def test_a_cases_file_cannot_loosen_a_metric(suite_dir: Path, tmp_path: Path, metric: str, config: dict) -> None:
    suite = suite_dir / "suite.yaml"
    suite.write_text("name: s\ntarget: {type: echo}\ncases_file: cases.jsonl\n")
    entry = {"prompt": "```python\nprint(1)\n```", "metrics": [{"metric": metric, "config": config}]}
    (suite_dir / "cases.jsonl").write_text(json.dumps(entry) + "\n")
    code, output = _run("run", str(suite), "--db", str(tmp_path / "r.db"))
    _refused(code, output, "cases.jsonl:1", "suite author's setting")


def test_a_tests_file_cannot_turn_the_sandbox_off(suite_dir: Path, tmp_path: Path) -> None:
    (suite_dir / "tests.yaml").write_text("- vars: {topic: hi}\n"
                                          "  assert: [{type: code-execution, config: {sandbox: none}}]\n")
    code, output = _run("run", str(_config(suite_dir)), "--db", str(tmp_path / "r.db"))
    _refused(code, output, "tests.yaml", "sandbox")


def test_the_suite_file_may_set_the_sandbox(suite_dir: Path, tmp_path: Path) -> None:
    suite = suite_dir / "suite.yaml"
    suite.write_text("name: s\ntarget: {type: echo}\ncases:\n  - prompt: hi\n"
                     "    metrics: [{metric: code-execution, config: {sandbox: none, timeout: 5}}]\n")
    code, output = _run("run", str(suite), "--db", str(tmp_path / "r.db"), "--dry-run")
    assert code == 0, output



# -- media paths -------------------------------------------------------------------------------------------


def _picture(folder: Path, name: str = "photo.png") -> tuple[Path, str]:
    import hashlib

    from tests.media.makers import png

    folder.mkdir(parents=True, exist_ok=True)
    data = png(noise=True)
    path = folder / name
    path.write_bytes(data)
    return path, hashlib.sha256(data).hexdigest()


@pytest.mark.parametrize("reference", ["ABSOLUTE", "../outside/photo.png", "LINK", "file://ABSOLUTE"])
def test_a_cases_file_cannot_name_media_outside_the_suite(suite_dir: Path, tmp_path: Path, reference: str) -> None:
    picture, digest = _picture(tmp_path / "outside")
    (suite_dir / "link.png").symlink_to(picture)
    reference = reference.replace("ABSOLUTE", str(picture)).replace("LINK", "link.png")
    (suite_dir / "suite.yaml").write_text("name: s\ntarget: {type: echo}\ncases_file: cases.jsonl\n")
    (suite_dir / "cases.jsonl").write_text(json.dumps({"prompt": "describe", "image": reference}) + "\n")
    db = tmp_path / "r.db"
    code, output = _run("run", str(suite_dir / "suite.yaml"), "--db", str(db))
    _refused(code, output, "cases.jsonl:1", "image", "allow_paths")
    assert not db.exists() or digest.encode() not in db.read_bytes()


def test_allow_paths_in_the_suite_file_lets_a_folder_in(suite_dir: Path, tmp_path: Path) -> None:
    picture, digest = _picture(tmp_path / "outside")
    (suite_dir / "suite.yaml").write_text("name: s\ntarget: {type: echo}\ncases_file: cases.jsonl\n"
                                          "options: {allow_paths: [../outside]}\n")
    case = {"prompt": "describe", "image": str(picture), "metrics": [{"metric": "contains", "value": "describe"}]}
    (suite_dir / "cases.jsonl").write_text(json.dumps(case) + "\n")
    db = tmp_path / "r.db"
    code, output = _run("run", str(suite_dir / "suite.yaml"), "--db", str(db))
    assert code == 0, output
    assert digest.encode() in db.read_bytes()


@pytest.mark.parametrize("reference", ["ABSOLUTE", "../outside/photo.png", "/proc/self/environ", "/dev/zero"])
def test_a_reply_cannot_name_media_outside_the_suite(suite_dir: Path, tmp_path: Path, reference: str) -> None:
    picture, digest = _picture(tmp_path / "outside")
    reference = reference.replace("ABSOLUTE", str(picture))
    reply = json.dumps({"output": "here", "trusys": {"image": reference}})
    (suite_dir / "suite.yaml").write_text("name: s\ntarget: {type: echo}\ncases_file: cases.jsonl\n")
    (suite_dir / "cases.jsonl").write_text(json.dumps({"prompt": "draw", "output": reply,
                                                       "metrics": [{"metric": "contains", "value": "here"}]}) + "\n")
    db = tmp_path / "r.db"
    code, output = _run("run", str(suite_dir / "suite.yaml"), "--db", str(db), "-o", str(tmp_path / "r.json"))
    assert code in (0, 1), output
    stored = db.read_bytes()
    assert digest.encode() not in stored and b"thumbnail" not in stored
    report = (tmp_path / "r.json").read_text()
    assert "may only name files inside" in report or "system file" in report, report


def test_an_error_about_a_file_does_not_quote_its_content(suite_dir: Path, tmp_path: Path) -> None:
    (suite_dir / "notes.png").write_text(f"{SECRET} is not a picture", encoding="utf-8")
    (suite_dir / "suite.yaml").write_text("name: s\ntarget: {type: echo}\ncases:\n  - {prompt: p, image: notes.png}\n")
    code, output = _run("run", str(suite_dir / "suite.yaml"), "--db", str(tmp_path / "r.db"))
    assert code == 2 and "not a recognised image" in output, output
    assert SECRET[:8] not in output


# -- devices and FIFOs named by the suite file ---------------------------------------------------------


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_cases_file_that_is_a_fifo_or_a_device_is_refused_not_read(suite_dir: Path, tmp_path: Path,
                                                                      kind: str) -> None:
    """A FIFO would hang the run and /dev/zero would fill the memory: both are refused at load. Run in a
    process of its own so that a regression fails (by its deadline) instead of hanging the test run."""
    import subprocess
    import sys

    cases = suite_dir / "cases.jsonl"
    if kind == "fifo":
        os.mkfifo(cases)
    else:
        cases.symlink_to("/dev/zero")
    (suite_dir / "suite.yaml").write_text("name: s\ntarget: {type: echo}\ncases_file: cases.jsonl\n")
    try:
        done = subprocess.run([sys.executable, "-m", "agentunit", "run", str(suite_dir / "suite.yaml"), "--db",
                               str(tmp_path / "r.db")], capture_output=True, text=True, timeout=120,
                              preexec_fn=lambda: __import__("resource").setrlimit(
                                  __import__("resource").RLIMIT_AS, (4 << 30, 4 << 30)))
    except subprocess.TimeoutExpired:
        pytest.fail("the run hung on the cases file")
    assert done.returncode == 2, done.stderr
    assert "cases.jsonl" in done.stdout + done.stderr
    assert "not a regular file" in done.stdout + done.stderr or "system file" in done.stdout + done.stderr
