"""A secret a reply quotes inside JSON text (escaped as JSON escapes it) is removed like one written plainly."""

import json
import sys
from pathlib import Path

from agentunit import evaluate
from agentunit.reporting.json_report import write_json
from agentunit.targets._secrets import redact_text

# Each character JSON escapes: a quote, a backslash, a slash some servers escape, and non-ASCII.
SECRET = 'tok/"en\\wört-91c2'
# The command answers JSON text quoting the token in a string, as json.dumps writes it (ASCII-escaped).
_ECHO = "import json, os; print(json.dumps({'output': 'token ' + os.environ['AGENT_TOKEN']}))"
_ECHO_SLASHES = ("import json, os; print(json.dumps({'output': 'token ' + os.environ['AGENT_TOKEN']})"
                 ".replace('/', '\\\\/'))")


def _database_bytes(db: Path) -> bytes:
    return b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))


def _forms() -> list[bytes]:
    dumped = json.dumps(SECRET)[1:-1]
    return [SECRET.encode(), dumped.encode(), json.dumps(SECRET, ensure_ascii=False)[1:-1].encode(),
            dumped.replace("/", "\\/").encode()]


def test_a_secret_escaped_in_a_json_reply_reaches_neither_metrics_nor_cache_nor_store(tmp_path, monkeypatch):
    monkeypatch.setenv("AU_FORMS_TOKEN", SECRET)
    db = tmp_path / "r.db"
    for script in (_ECHO, _ECHO_SLASHES):
        suite = {"name": "escaped", "target": {"type": "command", "argv": [sys.executable, "-c", script],
                                                "cache": True, "env": {"AGENT_TOKEN": "${AU_FORMS_TOKEN}"}},
                 "cases": [{"id": "c", "prompt": "p", "metrics": [{"metric": "contains", "value": "wört"},
                                                                  {"metric": "contains", "value": "token ***"}]}]}
        result = evaluate(suite, db=db)
        case = result.cases[0]
        assert case["output"] == '{"output": "token ***"}'  # JSON without trusys: the text is the output
        assert [m["passed"] for m in case["metrics"]] == [False, True]  # the metrics saw the redacted text
        write_json(result, tmp_path / "r.json")
        result.store.close()
        kept = _database_bytes(db) + (tmp_path / "r.json").read_bytes()
        assert not [form for form in _forms() if form in kept]


def test_redact_text_removes_the_escaped_forms_and_keeps_values_too_short_to_be_secrets():
    quoted = json.dumps({"echo": SECRET})
    assert redact_text(quoted, [SECRET]) == '{"echo": "***"}'
    assert redact_text(quoted.replace("/", "\\/"), [SECRET]) == '{"echo": "***"}'
    assert redact_text("variable API_TOKEN is not set", ["s"]) == "variable API_TOKEN is not set"
