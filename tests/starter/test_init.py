"""`agentunit init`: each kind writes a suite that runs as written, offline; nothing is overwritten
without --force; the next command is printed."""

import json

import pytest
import yaml

from agentunit.errors import AgentUnitError
from agentunit.starter import KINDS, write_starter
from tests.conftest import run_cli
from tests.http_helpers import Reply


@pytest.fixture
def chat_server(local_server):
    """An OpenAI-compatible server answering like a small, careful model; records the models asked for."""
    models = []

    def answer(request):
        body = request.json
        models.append(body["model"])
        question = body["messages"][-1]["content"].lower()
        reply = ("Paris is the capital of France." if "france" in question else "42" if "7 times 6" in question
                 else "I can't help with that; please ask the owner or a locksmith.")
        return Reply(200, {"choices": [{"message": {"role": "assistant", "content": reply}, "finish_reason": "stop"}],
                           "usage": {"prompt_tokens": 20, "completion_tokens": 8}})

    return local_server(answer, path="/v1").url, models


def _run(folder, *extra):
    proc = run_cli("run", "agentunit.yaml", "--db", "r.db", "-o", "out.json", *extra, cwd=folder)
    return proc, json.loads((folder / "out.json").read_text()) if (folder / "out.json").exists() else None


@pytest.mark.parametrize("kind", ["chat", "rag", "agent"])
def test_each_offline_kind_writes_an_app_and_a_suite_that_passes(kind, tmp_path):
    proc = run_cli("init", str(tmp_path / kind), "--kind", kind)
    assert proc.returncode == 0, proc.stderr
    assert {p.name for p in (tmp_path / kind).iterdir()} == {"app.py", "agentunit.yaml"}
    assert f"agentunit run {tmp_path / kind / 'agentunit.yaml'} --html {tmp_path / kind / 'report.html'}\n" \
        in proc.stdout
    run, report = _run(tmp_path / kind)
    assert run.returncode == 0, run.stdout + run.stderr
    assert report["summary"]["passed"] == report["summary"]["cases"] >= 3
    # only checks that need no model run by default: nothing was skipped for a missing model
    assert all(m["error"] is None for c in report["cases"] for m in c["metrics"])


def test_changing_the_app_makes_the_suite_fail(tmp_path):
    """The first-hour loop: init, run (passes), change the app, run again (the check catches it)."""
    assert run_cli("init", "--kind", "chat", cwd=tmp_path).returncode == 0
    app = tmp_path / "app.py"
    app.write_text(app.read_text().replace("within 30 days", "within 14 days"))
    run, report = _run(tmp_path)
    assert run.returncode == 1
    failed = [c["id"] for c in report["cases"] if c["status"] == "failed"]
    assert failed == ["refund"]


def test_openai_kind_runs_against_an_openai_compatible_server(chat_server, tmp_path):
    base_url, models = chat_server
    proc = run_cli("init", "--kind", "openai", "--base-url", base_url, "--model", "tiny-chat", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["agentunit.yaml"]
    suite = yaml.safe_load((tmp_path / "agentunit.yaml").read_text())
    assert suite["target"] == {**suite["target"], "type": "openai", "base_url": base_url, "model": "tiny-chat",
                               "timeout": 60, "retries": 2}
    run, report = _run(tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert report["summary"]["passed"] == 3 and set(models) == {"tiny-chat"}


def test_openai_kind_without_a_model_says_where_to_get_one(tmp_path):
    proc = run_cli("init", "--kind", "openai", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "agentunit models serve judge" in proc.stdout
    text = (tmp_path / "agentunit.yaml").read_text()
    assert "base_url: http://127.0.0.1:8000/v1" in text and "model: my-model" in text
    dry = run_cli("run", "agentunit.yaml", "--dry-run", cwd=tmp_path)  # valid as written, no server needed
    assert dry.returncode == 0 and "3 target calls" in dry.stdout, dry.stderr


def test_existing_files_are_kept_unless_forced(tmp_path):
    (tmp_path / "app.py").write_text("# mine\n")
    proc = run_cli("init", str(tmp_path))
    assert proc.returncode == 2
    assert "app.py already exists" in proc.stderr and "--force" in proc.stderr
    assert (tmp_path / "app.py").read_text() == "# mine\n" and not (tmp_path / "agentunit.yaml").exists()
    forced = run_cli("init", str(tmp_path), "--force")
    assert forced.returncode == 0, forced.stderr
    assert "def answer" in (tmp_path / "app.py").read_text()


def test_openai_options_are_refused_for_other_kinds(tmp_path):
    with pytest.raises(AgentUnitError, match="--kind openai"):
        write_starter("chat", tmp_path, model="x")
    with pytest.raises(AgentUnitError, match="unknown kind"):
        write_starter("voice", tmp_path)
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("kind", KINDS)
def test_starter_suites_show_a_model_backed_check_commented_out(kind, tmp_path):
    starter = write_starter(kind, tmp_path / kind, base_url="http://h/v1" if kind == "openai" else None)
    text = starter.suite.read_text()
    assert "# - { metric:" in text and "agentunit models install" in text
    assert starter.next_steps[-1] == f"agentunit run {starter.suite} --html {tmp_path / kind / 'report.html'}"
