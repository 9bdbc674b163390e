"""End-to-end: the `agentunit` command as a user runs it, against real servers and processes."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import pytest

from tests.conftest import ROOT, run_cli, write_suite


def _http_suite(url: str) -> dict:
    return {
        "name": "faults",
        "target": {"type": "http", "url": url, "headers": {"Authorization": "Bearer ${AU_TEST_TOKEN}"},
                   "timeout": 1.0, "retries": 2, "backoff": 0.05},
        "cases": [
            {"id": "ok", "prompt": "ok:The sky is blue.", "metrics": [
                {"metric": "contains", "value": "blue"}, "tool_success", "token_usage",
                {"metric": "latency", "threshold": 5000}]},
            {"id": "wrong", "prompt": "ok:The sky is green.", "metrics": [{"metric": "contains", "value": "blue"}]},
            {"id": "rate-limited", "prompt": "429once:a", "metrics": [{"metric": "equals", "value": "a"}]},
            {"id": "flaky", "prompt": "500twice:b", "metrics": [{"metric": "starts-with", "value": "b"}]},
            {"id": "down", "prompt": "always500", "metrics": ["tool_success"]},
            {"id": "slow", "prompt": "slow:3", "metrics": [{"metric": "contains", "value": "x"}]},
            {"id": "malformed", "prompt": "malformed", "metrics": [{"metric": "contains", "value": "x"}]},
            {"id": "bad-envelope", "prompt": "badenv", "metrics": [{"metric": "contains", "value": "x"}]},
            {"id": "plain-text", "prompt": "text:hello", "metrics": [
                {"metric": "equals", "value": "hello"}, "tool_success"]},
        ],
    }


@pytest.mark.slow
def test_http_run_with_faults_ends_every_case_with_a_reason(tmp_path, agent_server):
    suite = write_suite(tmp_path / "suite.json", _http_suite(agent_server.url))
    out = tmp_path / "out.json"
    proc = run_cli("run", str(suite), "--db", str(tmp_path / "r.db"), "-o", str(out), "-j", "4",
                   "--junit", str(tmp_path / "junit.xml"), "--html", str(tmp_path / "r.html"),
                   env={"AU_TEST_TOKEN": "s3cr3t-token-value"})
    assert proc.returncode == 1, proc.stderr
    report = json.loads(out.read_text())
    cases = {c["id"]: c for c in report["cases"]}
    assert len(report["cases"]) == 9  # none lost
    assert report["summary"] == {**report["summary"], "cases": 9, "passed": 4, "failed": 1, "errored": 4}
    assert cases["ok"]["passed"] and cases["ok"]["output"] == "The sky is blue."
    metrics = {m["metric"]: m for m in cases["ok"]["metrics"]}
    assert metrics["tool_success"]["value"] == 1.0 and metrics["token_usage"]["value"] == 15
    assert not cases["wrong"]["passed"] and cases["wrong"]["error"] is None
    assert "not found" in cases["wrong"]["metrics"][0]["reason"]
    assert cases["rate-limited"]["passed"] and cases["flaky"]["passed"]
    assert "HTTP 500" in cases["down"]["error"] and "3 attempts" in cases["down"]["error"]
    assert "timed out" in cases["slow"]["error"]
    assert "malformed JSON" in cases["malformed"]["error"]
    assert "trusys" in cases["bad-envelope"]["error"]
    plain = {m["metric"]: m for m in cases["plain-text"]["metrics"]}
    assert plain["equals"]["passed"] is True
    assert plain["tool_success"]["value"] is None and plain["tool_success"]["passed"] is None
    assert plain["tool_success"]["reason"].startswith("not measured")
    # Retry-After: 1 was honoured: the retry came at least a second after the 429.
    hits = agent_server.hits["429once:a"]
    assert len(hits) == 2 and hits[1] - hits[0] >= 0.95
    assert len(agent_server.hits["500twice:b"]) == 3
    # The secret reached the server but none of our outputs.
    assert agent_server.requests[0]["headers"]["Authorization"] == "Bearer s3cr3t-token-value"
    for artifact in (out, tmp_path / "junit.xml", tmp_path / "r.html", tmp_path / "r.db"):
        assert b"s3cr3t-token-value" not in artifact.read_bytes()
    junit = ET.parse(tmp_path / "junit.xml").getroot()
    assert len(junit.findall(".//testcase")) == 9
    assert len(junit.findall(".//error")) == 4 and len(junit.findall(".//failure")) == 1


@pytest.mark.slow
def test_cached_replies_keep_their_latency_and_no_cache_calls_again(tmp_path, agent_server):
    suite = write_suite(tmp_path / "s.json", {
        "name": "cache", "target": {"type": "http", "url": agent_server.url},
        "cases": [{"id": "a", "prompt": "slow:0.3", "metrics": [{"metric": "latency", "threshold": 10000}]}]})
    db = str(tmp_path / "r.db")
    first = tmp_path / "1.json"
    second = tmp_path / "2.json"
    assert run_cli("run", str(suite), "--db", db, "-o", str(first)).returncode == 0
    assert run_cli("run", str(suite), "--db", db, "-o", str(second)).returncode == 0
    assert len(agent_server.hits["slow:0.3"]) == 1  # second run served from the cache
    lat1 = json.loads(first.read_text())["cases"][0]["latency_ms"]
    lat2 = json.loads(second.read_text())["cases"][0]["latency_ms"]
    assert lat1 >= 300 and lat2 == lat1
    assert run_cli("run", str(suite), "--db", db, "--no-cache").returncode == 0
    assert len(agent_server.hits["slow:0.3"]) == 2


def test_trusys_example_from_the_architecture_doc_runs_as_written(tmp_path):
    out = tmp_path / "out.json"
    proc = run_cli("run", "examples/trusys_example.yaml", "--db", str(tmp_path / "r.db"), "-o", str(out))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "examples/trusys_example.yaml:14" in proc.stderr and "expcted_output" in proc.stderr
    report = json.loads(out.read_text())
    assert report["summary"]["cases"] == 4 and report["summary"]["passed"] == 4
    first = report["cases"][0]
    assert [m["metric"] for m in first["metrics"]] == ["equals", "greater-than", "latency"]


def test_invalid_suite_exits_2_with_file_line_and_suggestion(tmp_path):
    suite = tmp_path / "bad.yaml"
    suite.write_text("name: bad\ntarget: {type: echo}\ncases:\n  - prompt: hi\n    metrics:\n"
                     "      - {metric: contians, value: hi}\n  - prompt: there\n    expected_ouput: x\n")
    proc = run_cli("run", str(suite), "--db", str(tmp_path / "r.db"))
    assert proc.returncode == 2
    assert f"{suite}:6: cases[0].metrics[0].metric: unknown metric 'contians' — did you mean 'contains'?" in proc.stderr
    assert f"{suite}:8: cases[1].expected_ouput: unknown case field 'expected_ouput'" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_yaml_syntax_error_and_missing_file_exit_2(tmp_path):
    suite = tmp_path / "broken.yaml"
    suite.write_text("name: x\ncases:\n  - prompt: [unclosed\n")
    proc = run_cli("run", str(suite), "--db", str(tmp_path / "r.db"))
    assert proc.returncode == 2 and "invalid YAML" in proc.stderr and "Traceback" not in proc.stderr
    proc = run_cli("run", str(tmp_path / "nope.yaml"), "--db", str(tmp_path / "r.db"))
    assert proc.returncode == 2 and "suite file not found" in proc.stderr


def test_bad_usage_exits_2():
    assert run_cli("run", "--jobs", "zero").returncode == 2
    assert run_cli("frobnicate").returncode == 2


def test_metrics_command_lists_registry():
    proc = run_cli("metrics", "--json")
    assert proc.returncode == 0
    names = {m["name"] for m in json.loads(proc.stdout)}
    assert {"equals", "contains", "regex", "starts-with", "latency", "tool_success", "cost", "token_usage"} <= names
    text = run_cli("metrics", "--family", "text").stdout
    assert "contains" in text and "latency" not in text
    assert run_cli("metrics", "--family", "nope").returncode == 2


def test_repeat_reports_pass_rate_pass_at_k_and_pass_hat_k(tmp_path):
    counter = tmp_path / "flaky.py"
    counter.write_text(
        "import itertools\n_n = itertools.count()\n"
        "def answer(prompt):\n    return 'yes' if next(_n) % 2 == 0 else 'no'\n")
    suite = write_suite(tmp_path / "s.json", {
        "name": "flaky", "target": {"type": "python", "function": "flaky:answer"},
        "cases": [{"id": "coin", "prompt": "?", "metrics": [{"metric": "equals", "value": "yes"}]}]})
    out = tmp_path / "o.json"
    proc = run_cli("run", str(suite), "--repeat", "4", "-j", "1", "--db", str(tmp_path / "r.db"), "-o", str(out),
                   cwd=tmp_path)
    assert proc.returncode == 1
    report = json.loads(out.read_text())
    repeat = report["summary"]["repeat"]
    assert repeat["k"] == 4 and repeat["pass_rate"] == 0.5
    assert repeat["pass_at_k"] == 1.0 and repeat["pass_hat_k"] == 0.0
    assert sorted(c["repeat"] for c in report["cases"]) == [0, 1, 2, 3]
    assert "pass@4 1.000" in proc.stdout


def test_filter_runs_only_matching_cases(tmp_path):
    suite = write_suite(tmp_path / "s.json", {"name": "f", "target": {"type": "echo"}, "cases": [
        {"id": "keep-1", "prompt": "a", "metrics": [{"metric": "equals", "value": "a"}]},
        {"id": "drop", "prompt": "b", "metrics": [{"metric": "equals", "value": "zzz"}]}]})
    out = tmp_path / "o.json"
    proc = run_cli("run", str(suite), "--filter", "^keep", "--db", str(tmp_path / "r.db"), "-o", str(out))
    assert proc.returncode == 0
    assert [c["id"] for c in json.loads(out.read_text())["cases"]] == ["keep-1"]


@pytest.mark.slow
def test_kill_9_then_resume_records_every_case_exactly_once(tmp_path):
    (tmp_path / "slowagent.py").write_text(  # with AU_HOLD set, the 150th call and later wait to be killed
        "import os, time\n"
        "def answer(prompt):\n"
        "    with open(os.environ['AU_CALL_LOG'], 'a') as log:\n"
        "        log.write(prompt + '\\n')\n"
        "    if os.environ.get('AU_HOLD'):\n"
        "        with open(os.environ['AU_CALL_LOG']) as log:\n"
        "            if len(log.readlines()) >= 150:\n"
        "                time.sleep(600)\n"
        "    time.sleep(0.02)\n"
        "    return prompt.upper()\n")
    total = 300
    suite = write_suite(tmp_path / "s.json", {
        "name": "killable", "target": {"type": "python", "function": "slowagent:answer"},
        "cases": [{"id": f"c{i}", "prompt": f"p{i}", "metrics": [{"metric": "equals", "value": f"P{i}"}]}
                  for i in range(total)]})
    db = tmp_path / "r.db"
    log = tmp_path / "calls.log"
    env = {**os.environ, "AU_CALL_LOG": str(log)}
    proc = subprocess.Popen([sys.executable, "-m", "agentunit", "run", str(suite), "--db", str(db), "-j", "2", "-q"],
                            cwd=tmp_path, env={**env, "AU_HOLD": "1"}, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    committed = 0
    deadline = time.monotonic() + 300  # the run cannot end first: its 150th case waits to be killed
    while time.monotonic() < deadline and committed < 60:
        time.sleep(0.05)
        if db.exists():
            try:
                with sqlite3.connect(db) as conn:
                    committed = conn.execute("SELECT COUNT(*) FROM case_results").fetchone()[0]
            except sqlite3.OperationalError:
                pass
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    with sqlite3.connect(db) as conn:
        run_id, status = conn.execute("SELECT run_id, status FROM runs").fetchone()
        done_before = {r[0] for r in conn.execute("SELECT case_id FROM case_results")}
    assert status == "running" and 60 <= len(done_before) < total
    calls_before = len(log.read_text().splitlines())
    out = tmp_path / "o.json"
    resumed = subprocess.run([sys.executable, "-m", "agentunit", "run", str(suite), "--db", str(db),
                              "--resume", run_id, "-o", str(out)], cwd=tmp_path, env=env, capture_output=True,
                             text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT case_id, COUNT(*) FROM case_results WHERE run_id = ? GROUP BY case_id",
                            (run_id,)).fetchall()
        assert conn.execute("SELECT status FROM runs WHERE run_id = ?", (run_id,)).fetchone()[0] == "completed"
    assert len(rows) == total and all(count == 1 for _, count in rows)
    called_after = [line for line in log.read_text().splitlines()[calls_before:]]
    assert not {f"c{p[1:]}" for p in called_after} & done_before  # nothing committed was repeated
    report = json.loads(out.read_text())
    assert report["summary"]["cases"] == total and report["summary"]["passed"] == total
    assert len(report["cases"]) == total


def test_readme_commands_are_the_ones_ci_runs():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test" in readme and "make test" in ci
    assert "make demo" in readme


def test_progress_bar_is_drawn_on_a_terminal_only(tmp_path):
    import pty

    suite = write_suite(tmp_path / "s.json", {"name": "tty", "target": {"type": "echo"},
                                              "cases": [{"prompt": f"p{i}", "metrics": [{"metric": "contains",
                                                                                          "value": "p"}]}
                                                        for i in range(3)]})
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "agentunit", "run", str(suite), "--db", str(tmp_path / "r.db")],
                            cwd=ROOT, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=60)
    os.close(master)
    screen = b"".join(chunks).decode(errors="replace")
    progress = "\x1b[?25l"  # the progress display hides the cursor while it draws
    assert proc.returncode == 0 and progress in screen and "3/3" in screen
    piped = run_cli("run", str(suite), "--db", str(tmp_path / "r2.db"))
    assert piped.returncode == 0 and "\x1b[" not in piped.stdout + piped.stderr


def test_bad_filter_regex_exits_2(tmp_path):
    proc = run_cli("run", "examples/trusys_example.yaml", "--filter", "([", "--db", str(tmp_path / "r.db"))
    assert proc.returncode == 2 and "not a valid regular expression" in proc.stderr and "Traceback" not in proc.stderr


def _invoke(*args: str):
    from click.testing import CliRunner

    from agentunit.cli import app

    return CliRunner().invoke(app, list(args))


def test_allow_unmeasured_comes_from_the_flag_or_the_suite_option(tmp_path):
    cases = "cases:\n  - {id: plain, prompt: hi, metrics: [tool_success]}\n"  # no tool calls: not measured
    strict = tmp_path / "strict.yaml"
    strict.write_text("target: {type: echo}\n" + cases)
    lenient = tmp_path / "lenient.yaml"
    lenient.write_text("target: {type: echo}\noptions: {allow_unmeasured: true}\n" + cases)
    db = str(tmp_path / "r.db")
    assert _invoke("run", str(strict), "--db", db, "-q").exit_code == 1
    assert _invoke("run", str(strict), "--db", db, "-q", "--allow-unmeasured").exit_code == 0
    assert _invoke("run", str(lenient), "--db", db, "-q").exit_code == 0


def test_an_unexpected_failure_while_loading_is_one_line_and_exit_2(tmp_path, monkeypatch):
    from agentunit.suite.model import Suite

    def broken(self, **kwargs):
        raise RuntimeError("boom\x1b[2J")

    monkeypatch.setattr(Suite, "validate", broken)
    suite = tmp_path / "s.yaml"
    suite.write_text("target: {type: echo}\ncases: [{prompt: hi}]\n")
    result = _invoke("run", str(suite), "--db", str(tmp_path / "r.db"))
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr == f"error: {suite}: cannot load the suite: RuntimeError: boom\\x1b[2J\n"


def test_a_results_database_that_cannot_be_opened_is_a_usage_error(tmp_path):
    suite = tmp_path / "s.yaml"
    suite.write_text("target: {type: echo}\ncases: [{prompt: hi, metrics: [{metric: equals, value: hi}]}]\n")
    result = _invoke("run", str(suite), "--db", str(tmp_path / "missing-dir" / "x" / "r.db"))
    (tmp_path / "file").write_text("")
    blocked = _invoke("run", str(suite), "--db", str(tmp_path / "file" / "r.db"))
    assert result.exit_code == 0  # missing folders are created
    assert blocked.exit_code == 2 and "Traceback" not in blocked.output
    assert blocked.stderr.startswith(f"error: cannot open the results database {tmp_path / 'file' / 'r.db'}:")


class _MarkedJudge:
    """An OpenAI-compatible judge whose P(PASS) is the ``[p=…]`` written in the response it judges."""

    def __init__(self):
        import re

        from tests.judges.scripted_server import ScriptedJudge, _completion

        class Judge(ScriptedJudge):
            def _answer(self, body):
                found = re.search(r"\[p=([0-9.]+)\]", body["messages"][-1]["content"])
                p = float(found.group(1)) if found else 0.5
                top = [("PASS", p), ("FAIL", 1 - p)] if p >= 0.5 else [("FAIL", 1 - p), ("PASS", p)]
                return _completion(top[0][0], top, {"prompt_tokens": 20, "completion_tokens": 1})

        self.judge = Judge()

    def suite(self, path, cases, **extra):
        return write_suite(path, {"name": "support", "judge": {"provider": "openai", "base_url": self.judge.url,
                                                              "model": "marked"}, "cases": cases, **extra})


def _labelled_cases():
    rows = [("a", 0.9, True), ("b", 0.6, True), ("c", 0.55, False), ("d", 0.2, False), ("e", 0.7, False)]
    return [{"id": i, "prompt": "Where is my parcel?", "output": f"It arrives Monday. [p={p}]", "expected_pass": h,
             "metrics": [{"metric": "llm-rubric", "value": "Gives a delivery date"}]} for i, p, h in rows]


def test_calibrate_reports_writes_thresholds_and_later_runs_use_them(tmp_path):
    marked = _MarkedJudge()
    try:
        suite = marked.suite(tmp_path / "suite.json", _labelled_cases())
        db, cal = str(tmp_path / "r.db"), tmp_path / "cal.json"
        proc = run_cli("calibrate", str(suite), "--db", db, "--json", "--write", str(cal))
        assert proc.returncode == 0, proc.stderr
        report = json.loads(proc.stdout)
        (metric,) = report["metrics"]
        assert metric["metric"] == "llm-rubric" and (metric["positives"], metric["negatives"]) == (2, 3)
        assert report["judge"]["model"] == "marked" and report["written"]["metrics"] == ["llm-rubric"]
        assert report["judge_usage"]["calls"] == len(marked.judge.requests) > 0
        written = json.loads(cal.read_text())
        fitted = written["metrics"]["llm-rubric"]["threshold"]
        assert written["judge"]["model"] == "marked" and fitted == metric["best_threshold"]["threshold"]

        calls = len(marked.judge.requests)
        proc = run_cli("calibrate", str(suite), "--db", db)  # the same database: every judge call is cached
        assert proc.returncode == 0 and "judge calls 0, cache hits" in proc.stdout
        assert "llm-rubric  n=5 (2 pass / 3 fail by the human verdicts)" in proc.stdout
        assert len(marked.judge.requests) == calls

        out = tmp_path / "out.json"
        run_cli("run", str(suite), "--db", db, "--calibration", str(cal), "-o", str(out), "-q")
        results = [c["metrics"][0] for c in json.loads(out.read_text())["cases"]]
        assert {(m["threshold"], m["detail"]["threshold_source"]) for m in results} == {(fitted, str(cal))}
        # The same file through the suite's own `calibration:` key (relative to the suite file).
        suite = marked.suite(tmp_path / "suite.json", _labelled_cases(), calibration="cal.json")
        run_cli("run", str(suite), "--db", db, "-o", str(out), "-q")
        assert {m["metrics"][0]["threshold"] for m in json.loads(out.read_text())["cases"]} == {fitted}
    finally:
        marked.judge.close()


def test_calibrate_usage_errors_exit_2_and_never_overwrite_a_foreign_file(tmp_path):
    suite = write_suite(tmp_path / "s.json", {"name": "s", "cases": [
        {"id": "a", "output": "x", "metrics": [{"metric": "llm-rubric", "value": "r"}]}]})
    proc = run_cli("calibrate", str(suite), "--db", str(tmp_path / "r.db"))
    assert proc.returncode == 2 and "no human verdicts on judge-backed metrics" in proc.stderr
    labels = tmp_path / "labels.jsonl"
    labels.write_text('{"id": "a", "expected_pass": true}\n{"id": "zz", "expected_pass": false}\n')
    proc = run_cli("calibrate", str(suite), "--labels", str(labels), "--db", str(tmp_path / "r.db"))
    assert proc.returncode == 2 and f"{labels}:2: id: no case with id 'zz' in the suite" in proc.stderr
    notes = tmp_path / "notes.json"
    notes.write_text('{"mine": true}')
    proc = run_cli("calibrate", str(suite), "--labels", str(labels), "--write", str(notes))
    assert proc.returncode == 2 and "--write updates a calibration file" in proc.stderr
    assert notes.read_text() == '{"mine": true}'
    assert "Traceback" not in proc.stderr


def test_an_unset_environment_variable_stops_the_run_once_before_any_call(tmp_path, agent_server):
    suite = tmp_path / "suite.yaml"
    suite.write_text(f"target:\n  type: http\n  url: {agent_server.url}\n"
                     "  headers: {Authorization: \"Bearer ${AGENTUNIT_TEST_TOKEN}\"}\n"
                     "cases:\n" + "".join(f"  - {{prompt: 'ok:fine{i}', metrics: [{{metric: contains, value: fine}}]}}"
                                           "\n" for i in range(3)))
    env = {k: v for k, v in os.environ.items() if k != "AGENTUNIT_TEST_TOKEN"}
    proc = subprocess.run([sys.executable, "-m", "agentunit", "run", str(suite), "--db", str(tmp_path / "r.db")],
                          cwd=ROOT, capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr == (f"{suite}:4: target.headers.Authorization: environment variable AGENTUNIT_TEST_TOKEN is "
                           "not set — export AGENTUNIT_TEST_TOKEN=… before the run (nothing was sent)\n")
    assert agent_server.requests == []
    ok = run_cli("run", str(suite), "--db", str(tmp_path / "r.db"), env={"AGENTUNIT_TEST_TOKEN": "s3cret"})
    assert ok.returncode == 0, ok.stderr  # set: the run goes ahead
    assert agent_server.requests and agent_server.requests[0]["headers"]["Authorization"] == "Bearer s3cret"
    assert run_cli("run", str(suite), "--dry-run", env={"AGENTUNIT_TEST_TOKEN": ""}).returncode == 0


def test_openai_api_key_env_is_checked_before_the_run(tmp_path):
    suite = write_suite(tmp_path / "s.json", {
        "target": {"type": "openai", "base_url": "http://127.0.0.1:9/v1", "model": "m",
                   "api_key_env": "AGENTUNIT_TEST_KEY"},
        "cases": [{"prompt": "hi", "metrics": [{"metric": "contains", "value": "hi"}]}]})
    proc = run_cli("run", str(suite), "--db", str(tmp_path / "r.db"), env={"AGENTUNIT_TEST_KEY": ""})
    assert proc.returncode == 2 and "target.api_key_env: environment variable AGENTUNIT_TEST_KEY" in proc.stderr


def test_models_serve_prints_the_base_url_and_model_to_put_in_a_suite():
    import yaml

    from agentunit.cli import _serve_hint

    hint = _serve_hint("http://127.0.0.1:8123", "qwen-judge")
    lines = hint.splitlines()
    assert lines[0] == "base_url: http://127.0.0.1:8123/v1  model: qwen-judge" and lines[-1] == "Ctrl-C stops it."
    target = yaml.safe_load(lines[1].split("as the app to test:", 1)[1])["target"]
    judge = yaml.safe_load(lines[2].split("as the judge:", 1)[1])["judge"]
    assert target == {"type": "openai", "base_url": "http://127.0.0.1:8123/v1", "model": "qwen-judge"}
    assert judge == {"provider": "openai", "base_url": "http://127.0.0.1:8123/v1", "model": "qwen-judge"}
    assert "agentunit init --kind openai --base-url http://127.0.0.1:8123/v1 --model qwen-judge" in hint


# A site module that leaves a mark when the process's exit functions run: "atexit-in-finalization" when the
# interpreter's own ending runs them (after it stopped the main thread, to wait for the others), or
# "atexit-promptly" when they run before an immediate end; and (asked to) "thread" from a thread that
# outlives the command until the main thread stops.
_MARKING_SITE = '''
import atexit, os, threading, time

MARKS = os.environ["AGENTUNIT_TEST_MARKS"]


def mark(name, _open=os.open, _write=os.write, _close=os.close, _join=os.path.join):
    fd = _open(_join(MARKS, name), os.O_WRONLY | os.O_CREAT)
    _write(fd, b"1")
    _close(fd)


def at_exit():
    mark("atexit-promptly" if threading.main_thread().is_alive() else "atexit-in-finalization")


atexit.register(at_exit)
if os.environ.get("AGENTUNIT_TEST_THREAD"):
    def outlive():
        while threading.main_thread().is_alive():
            time.sleep(0.01)
        mark("thread")
    threading.Thread(target=outlive).start()
'''


def _marked_run(tmp_path, target: dict, *, thread: bool = False):
    """``agentunit run`` of two echo-style cases (one fails) with the marking site module; (process, marks)."""
    site, marks = tmp_path / "site", tmp_path / "marks"
    site.mkdir()
    marks.mkdir()
    (site / "sitecustomize.py").write_text(_MARKING_SITE)
    suite = write_suite(tmp_path / "s.json", {"name": "ending", "target": target, "cases": [
        {"id": "a", "prompt": "hello", "metrics": [{"metric": "contains", "value": "hello"}]},
        {"id": "b", "prompt": "hello", "metrics": [{"metric": "contains", "value": "bye"}]}]})
    env = {"PYTHONPATH": os.pathsep.join(p for p in (str(site), os.environ.get("PYTHONPATH")) if p),
           "AGENTUNIT_TEST_MARKS": str(marks), "AGENTUNIT_TEST_THREAD": "1" if thread else "",
           "PYTHONUNBUFFERED": ""}  # stdout into a pipe is block-buffered, as it is for a CI job
    proc = run_cli("run", str(suite), "--db", str(tmp_path / "r.db"), "-o", str(tmp_path / "o.json"),
                   cwd=tmp_path, env=env)
    return proc, sorted(p.name for p in marks.iterdir())


def test_a_run_of_agentunits_own_checks_ends_without_the_tear_down_and_with_everything_written(tmp_path):
    proc, marks = _marked_run(tmp_path, {"type": "echo"})
    assert proc.returncode == 1, proc.stderr  # b fails: the exit code is the run's
    assert "FAILED  1/2 passed, 1 failed" in proc.stdout.splitlines()[-1]  # a pipe's buffer was flushed
    assert [c["id"] for c in json.loads((tmp_path / "o.json").read_text())["cases"]] == ["a", "b"]
    assert marks == ["atexit-promptly"]  # exit functions ran, then the process ended without the tear-down
    assert not (tmp_path / "r.db-wal").exists()  # the store was closed first
    assert sqlite3.connect(tmp_path / "r.db").execute("SELECT COUNT(*) FROM case_results").fetchone() == (2,)


@pytest.mark.parametrize("target", [{"type": "python", "function": "agent_echo:answer"},
                                    {"type": "echo", "transform": "file://agent_echo.py:same"}])
def test_a_run_that_ran_the_authors_python_ends_the_usual_way(tmp_path, target):
    (tmp_path / "agent_echo.py").write_text("def answer(prompt):\n    return prompt\n\n\n"
                                            "def same(output, context):\n    return output\n")
    proc, marks = _marked_run(tmp_path, target)
    assert proc.returncode == 1, proc.stderr
    assert marks == ["atexit-in-finalization"]  # whatever their code left for the tear-down is done


def test_a_thread_still_running_at_the_end_keeps_the_usual_ending(tmp_path):
    proc, marks = _marked_run(tmp_path, {"type": "echo"}, thread=True)
    assert proc.returncode == 1, proc.stderr
    assert marks == ["atexit-in-finalization", "thread"]  # the interpreter waited for the thread


def test_main_called_from_python_still_returns_by_raising_system_exit(tmp_path):
    suite = write_suite(tmp_path / "s.json", {"name": "m", "target": {"type": "echo"}, "cases": [
        {"id": "a", "prompt": "hello", "metrics": [{"metric": "contains", "value": "bye"}]}]})
    code = ("import sys\nfrom agentunit.cli import main\n"
            f"sys.argv = ['agentunit', 'run', {str(suite)!r}, '--db', 'r.db', '-q']\n"
            "try:\n    main()\nexcept SystemExit as exc:\n    print('went on after', exc.code)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.stdout.splitlines()[-1] == "went on after 1", done.stderr  # the caller's code after main() ran


def test_a_profiled_run_keeps_the_usual_ending_so_the_profile_is_written(tmp_path):
    suite = write_suite(tmp_path / "s.json", {"name": "p", "target": {"type": "echo"}, "cases": [
        {"id": "a", "prompt": "hello", "metrics": [{"metric": "contains", "value": "hello"}]}]})
    done = subprocess.run([sys.executable, "-m", "cProfile", "-o", "run.prof", "-m", "agentunit", "run", str(suite),
                           "--db", "r.db", "-q"], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "run.prof").stat().st_size > 0  # cProfile writes it after the program returns


def test_a_run_whose_stdout_reader_went_away_ends_as_the_interpreter_always_did(tmp_path):
    suite = write_suite(tmp_path / "s.json", {"name": "p", "target": {"type": "echo"}, "cases": [
        {"id": "a", "prompt": "hello", "metrics": [{"metric": "contains", "value": "hello"}]}]})
    proc = subprocess.Popen([sys.executable, "-m", "agentunit", "run", str(suite), "--db", str(tmp_path / "r.db")],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONUNBUFFERED": ""})  # the summary waits in stdout's buffer
    proc.stdout.close()  # the reader is gone before the run writes: its summary cannot be flushed
    stderr = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 120, stderr  # Python's own exit status when stdout cannot be flushed
    assert "BrokenPipeError" in stderr and "Traceback" not in stderr
