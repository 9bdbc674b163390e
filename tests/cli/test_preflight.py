"""One preflight before the first case (issue 58): a target where nothing answers, or an API key a target or
promptfoo provider needs and that is not set, is one message and exit 2 — not retries and errors per case."""

from __future__ import annotations

import json
import socket
import sqlite3
from pathlib import Path

import pytest

from agentunit.suite.environment import _address
from tests.conftest import run_cli, write_suite
from tests.http_helpers import LocalServer, Reply


def _silent_port() -> int:
    """A port on 127.0.0.1 where nothing listens (taken from the system, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _runs(db: Path) -> int:
    if not db.exists():
        return 0
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0]


def _suite(path: Path, target: dict) -> Path:
    return write_suite(path, {"name": "preflight", "target": target, "cases": [
        {"id": f"c{i}", "prompt": f"p{i}", "metrics": [{"metric": "contains", "value": "p"}]} for i in range(3)]})


@pytest.mark.parametrize("kind", ["http", "openai"])
def test_a_target_where_nothing_answers_is_one_message_before_the_run(tmp_path, kind):
    port = _silent_port()
    target = {"type": "http", "url": f"http://127.0.0.1:{port}/chat", "body": {"prompt": "{{ prompt }}"}} \
        if kind == "http" else {"type": "openai", "base_url": f"http://127.0.0.1:{port}/v1", "model": "m"}
    suite = _suite(tmp_path / "s.json", {**target, "retries": 0, "backoff": 0})
    db = tmp_path / "r.db"
    proc = run_cli("run", str(suite), "--db", str(db), "-q")
    assert (proc.returncode, proc.stderr) == (2, f"error: nothing answers at 127.0.0.1:{port} — is the app running?\n")
    assert _runs(db) == 0  # no run started: nothing was sent
    dry = run_cli("run", str(suite), "--db", str(db), "--dry-run")  # a dry run sends nothing: no preflight
    assert dry.returncode == 0, dry.stderr


def test_a_target_that_answers_passes_the_preflight(tmp_path):
    with LocalServer(lambda request: Reply(200, {"output": request.json["prompt"]}), path="/chat") as server:
        suite = _suite(tmp_path / "s.json", {"type": "http", "url": "${AU_PREFLIGHT_URL}",
                                             "body": {"prompt": "{{ prompt }}"}})
        proc = run_cli("run", str(suite), "--db", str(tmp_path / "r.db"), "-q", env={"AU_PREFLIGHT_URL": server.url})
        assert proc.returncode == 0, proc.stderr
        assert len(server.requests) == 3  # the preflight's connection sends no request


def _promptfoo(tmp_path: Path, provider: str) -> Path:
    config = tmp_path / "promptfooconfig.yaml"
    config.write_text(f"prompts: ['{{{{q}}}}']\nproviders: [{provider}]\n"
                      "tests:\n  - vars: {q: hi}\n    assert: [{type: icontains, value: hi}]\n")
    return config


def test_a_promptfoo_provider_without_its_api_key_is_one_message_before_the_run(tmp_path, monkeypatch):
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_BASE_URL", "AGENTUNIT_PROMPTFOO_PROVIDERS"):
        monkeypatch.delenv(name, raising=False)
    config, db = _promptfoo(tmp_path, "openai:gpt-4o-mini"), tmp_path / "r.db"
    proc = run_cli("run", str(config), "--db", str(db), "-q")
    assert (proc.returncode, proc.stderr) == (2, "error: OPENAI_API_KEY is not set — the provider openai:gpt-4o-mini "
                                                 "needs it (or run with AGENTUNIT_PROMPTFOO_PROVIDERS=echo)\n")
    assert _runs(db) == 0
    echo = run_cli("run", str(config), "--db", str(db), "-q", env={"AGENTUNIT_PROMPTFOO_PROVIDERS": "echo"})
    assert echo.returncode == 0, echo.stderr


def test_a_provider_served_locally_needs_no_key(tmp_path, monkeypatch):
    for name in ("OPENAI_API_KEY", "AGENTUNIT_PROMPTFOO_PROVIDERS"):
        monkeypatch.delenv(name, raising=False)
    chat = {"choices": [{"message": {"content": "hi there"}, "finish_reason": "stop"}]}
    with LocalServer(lambda request: Reply(200, json.dumps(chat))) as server:
        config = _promptfoo(tmp_path, "openai:gpt-4o-mini")
        proc = run_cli("run", str(config), "--db", str(tmp_path / "r.db"), "-q",
                       env={"OPENAI_BASE_URL": f"{server.url}/v1"})
        assert proc.returncode == 0, proc.stderr
        assert server.requests and "Authorization" not in server.requests[0]["headers"]


def test_an_openai_target_for_openais_api_without_a_key_is_one_message(tmp_path, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    suite = _suite(tmp_path / "s.json", {"type": "openai", "model": "gpt-4o-mini"})
    proc = run_cli("run", str(suite), "--db", str(tmp_path / "r.db"), "-q")
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: OPENAI_API_KEY is not set — the openai target needs it for OpenAI's API")
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(("spec", "address"), [
    ({"type": "http", "url": "http://127.0.0.1:8799/chat"}, ("127.0.0.1", 8799)),
    ({"type": "http", "url": "https://agent.example/run"}, ("agent.example", 443)),
    ({"type": "http", "url": "http://agent.example/run"}, ("agent.example", 80)),
    ({"type": "openai", "model": "m"}, ("api.openai.com", 443)),
    ({"type": "openai", "base_url": "http://[::1]:8000/v1", "model": "m"}, ("::1", 8000)),
    ({"type": "http", "url": "http://{{ vars.host }}/run"}, None),  # filled in per case: not checked
    ({"type": "http", "url": "http://127.0.0.1:port/x"}, None),
    ({"type": "command", "argv": ["true"]}, None),
])
def test_the_address_a_target_sends_to(spec, address):
    assert _address(spec) == address
