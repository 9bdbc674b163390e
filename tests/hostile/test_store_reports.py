"""Issue 11 replays: the store never loses a run; reports and the console stay safe on hostile text."""

from __future__ import annotations

import asyncio
import io
import json
import re
import xml.etree.ElementTree as ET

from markdown_it import MarkdownIt

from agentunit import evaluate
from agentunit.core.engine import Engine, RunOptions
from agentunit.metrics.base import MetricResult
from agentunit.reporting.console import print_summary
from agentunit.reporting.junit import write_junit
from agentunit.reporting.markdown import write_markdown
from agentunit.store.sqlite import Store
from agentunit.suite.loader import suite_from_dict
from agentunit.targets import make_target
from agentunit.targets.base import Reply, Target

CUT_EMOJI = "\ud83d"  # a model cut off mid-emoji: a lone high surrogate
XML_FORBIDDEN = "\ufffe\uffff\x00\x01\x08\x0b\x0c\x1b\x7f"
TERMINAL_ATTACK = "\x1b]0;pwned\x07\x1b[2J\x1b[31mFAKE\x9b2J\x07\r\nPASSED 99/99 passed\u202e"
MARKDOWN_ATTACK = ("ok\r# H1\n| inj | row |\r\n|-|-|\u2028![](http://t.example/p.png)\x85[x](javascript:alert(1))"
                   "\x0b`a` b` <img src=x>\u2029## H2 <https://e.example> www.e.example *em*")


class Hostile:
    """A metric that repeats the hostile text as many metrics quote an answer: in a failing reason,
    in an error (case ``metric-error``) and in a not-measured reason (case ``unmeasured``)."""

    name = "hostile"

    def __init__(self, payload):
        self.payload = payload

    def evaluate(self, case, trace, outcome):
        if case.id == "metric-error":
            raise RuntimeError(f"metric said {self.payload}")
        if case.id == "unmeasured":
            return MetricResult(self.name, None, reason=f"not measured: no {self.payload}")
        return MetricResult(self.name, 0.0, passed=False, reason=f"the answer was {outcome.output}")


def _hostile_run(payload, db=":memory:"):
    """Cases carrying ``payload`` in the case id, the output, a failing reason, a metric error, a
    not-measured reason and a target error."""
    def target(prompt):
        if prompt == "crash":
            raise RuntimeError(f"target said {payload}")
        return f"answer {payload}"

    return evaluate(cases=[{"id": f"id {payload}", "prompt": "p"}, {"id": "metric-error", "prompt": "p"},
                           {"id": "crash", "prompt": "crash"}, {"id": "unmeasured", "prompt": "p"}],
                    metrics=[Hostile(payload)], target=target, db=db)


# -- item 1: a lone surrogate never crashes the store; a failing write never loses other cases ----------

def test_lone_surrogates_in_outputs_and_prompts_are_stored_and_the_run_resumes(tmp_path):
    calls = []

    def target(prompt):
        calls.append(prompt)
        return f"{prompt} 🙂 then cut {CUT_EMOJI}"

    suite = suite_from_dict({"name": "surrogates", "cases": [
        {"id": f"c{i}", "prompt": f"p{i} {CUT_EMOJI}", "metrics": [{"metric": "contains", "value": "cut"}]}
        for i in range(6)]})
    suite.validate()
    store = Store(tmp_path / "r.db")
    python = make_target({"type": "python", "function": target})
    first = asyncio.run(Engine(suite, store, RunOptions(filter="c[0-2]"), target=python).run())
    assert first.status == "completed" and first.summary["passed"] == 3
    resumed = asyncio.run(Engine(suite, store, RunOptions(resume=first.run_id), target=python).run())
    assert resumed.run_id == first.run_id and resumed.summary["cases"] == 6 and resumed.summary["passed"] == 6
    assert len(calls) == 6  # nothing repeated, nothing lost
    cases = resumed.cases
    assert [c["id"] for c in cases] == [f"c{i}" for i in range(6)]
    assert all(c["output"].endswith("🙂 then cut \ufffd") and c["prompt"].endswith("\ufffd") for c in cases)
    json.dumps(resumed.to_dict(), ensure_ascii=False).encode("utf-8")  # the report encodes as UTF-8


def test_lone_surrogates_everywhere_in_one_run_are_stored_readably():
    result = _hostile_run(CUT_EMOJI)
    cases = {c["status"]: c for c in result.cases}
    assert result.summary["cases"] == 4 and set(cases) == {"failed", "errored", "unmeasured"}
    assert cases["failed"]["id"] == "id \ufffd" and cases["failed"]["metrics"][0]["reason"].endswith("\ufffd")
    assert any("\ufffd" in (c["error"] or "") for c in result.cases if c["status"] == "errored")
    for case in result.cases:
        json.dumps(case, ensure_ascii=False).encode("utf-8")


def test_a_value_sqlite_refuses_costs_only_that_value_never_the_batch(tmp_path):
    store = Store(tmp_path / "r.db", batch_size=100, flush_interval=3600)
    store.start_run("run1", suite="s", suite_path=None, suite_hash=None, started_at="t", options={}, target=None)
    for i in range(5):
        bad = i == 2
        store.add_case("run1", i, f"c{i}", 0, status="failed" if bad else "passed", passed=not bad,
                       score=10**40 if bad else 1.0,  # OverflowError: too large for an SQLite integer
                       prompt="p", output="o", error=None, latency_ms=1.0, cached=False, envelope=None,
                       metrics=[MetricResult("contains", 10**30 if bad else 1.0, passed=not bad, reason="r")])
    store.flush()
    cases = list(store.iter_cases("run1"))
    assert [c["id"] for c in cases] == ["c0", "c1", "c2", "c3", "c4"]
    bad = cases[2]
    assert bad["status"] == "failed" and bad["passed"] is False and bad["score"] is None
    assert "score not stored: OverflowError" in bad["error"] and bad["output"] == "o"
    assert bad["metrics"][0]["value"] is None and "value not stored" in bad["metrics"][0]["error"]
    assert bad["metrics"][0]["status"] == "failed" and bad["metrics"][0]["reason"] == "r"
    assert store.status_counts("run1") == {"passed": 4, "failed": 1}
    assert len(store.problems) == 1 and store.problems[0].startswith("case 'c2' #0 stored reduced: [score not stored")
    assert "contains: [value not stored: OverflowError" in store.problems[0]


# -- item 5: an output is stored once, not in both the case row and the target cache ------------------

class _BigTarget(Target):
    kind = "big"
    cacheable = True

    def __init__(self, body):
        super().__init__({"type": "big"})
        self.body = body
        self.calls = 0

    async def send(self, case, request):
        self.calls += 1
        return Reply(body=self.body)


def test_a_five_mb_output_is_stored_once_across_the_cache_and_two_runs(tmp_path):
    big = ("The answer, at length. " * 230_000)[:5_000_000]
    db = tmp_path / "r.db"
    target = _BigTarget(big)
    runs = [evaluate(cases=[{"id": "big", "prompt": "p", "metrics": [{"metric": "contains", "value": "answer"}]}],
                     target=target, db=db) for _ in range(2)]
    assert target.calls == 1 and [r.cases[0]["cached"] for r in runs] == [False, True]
    assert all(r.cases[0]["output"] == big and r.passed for r in runs)
    store = Store(db)
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert db.stat().st_size < 1.2 * len(big)  # was 3 × 5 MB: the cache row and each run's case row
    stored = store.conn.execute(
        "SELECT (SELECT COALESCE(SUM(LENGTH(output)), 0) FROM case_results),"
        " (SELECT SUM(LENGTH(reply)) FROM cache), (SELECT SUM(LENGTH(body)) FROM texts)").fetchone()
    assert stored[0] == 0 and stored[1] < 1000 and stored[2] == len(big)  # once, in `texts`


# -- item 2: JUnit stays well-formed XML ------------------------------------------------------------

def test_junit_is_well_formed_whatever_outputs_ids_reasons_and_errors_hold(tmp_path):
    result = _hostile_run(XML_FORBIDDEN)
    write_junit(result, tmp_path / "j.xml")
    root = ET.parse(tmp_path / "j.xml").getroot()  # expat: rejects any character XML 1.0 forbids
    cases = root.findall(".//testcase")
    assert len(cases) == 4
    texts = [c.get("name") for c in cases] + [e.text or "" for e in root.iter()] + \
            [v for e in root.iter() for v in e.attrib.values()]
    assert not any(re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]", t) for t in texts)
    assert cases[0].get("name") == "id \\ufffe\\uffff\\x00\\x01\\x08\\x0b\\x0c\\x1b\x7f"
    assert "\\ufffe" in cases[0].find("failure").get("message")
    assert "\\x1b" in cases[1].find("error").get("message") and "\\x0c" in cases[2].find("error").text
    assert cases[3].find("failure").get("type") == "unmeasured"


# -- item 3: nothing from the data becomes Markdown structure -----------------------------------------

def _tokens(text):
    md = MarkdownIt("commonmark").enable("table")
    flat = []
    for token in md.parse(text):
        flat.append(token)
        flat.extend(token.children or [])
    return flat


def test_markdown_report_keeps_hostile_text_inert(tmp_path):
    result = _hostile_run(MARKDOWN_ATTACK)
    write_markdown(result, tmp_path / "r.md")
    text = (tmp_path / "r.md").read_text(encoding="utf-8")
    assert text.splitlines() == text.split("\n")[:-1]  # no \r, \x0b, \x0c, \x85, U+2028/9 line breaks
    tokens = _tokens(text)
    types = [t.type for t in tokens]
    assert types.count("heading_open") == 2  # ours: the title and the cases section
    assert "link_open" not in types and "image" not in types
    assert "html_inline" not in types and "html_block" not in types
    assert types.count("code_inline") == 1  # ours: the run id in the title
    assert "em_open" not in types
    assert types.count("tr_open") == 1 + len(result.summary["metrics"])  # header + one row per metric
    items = [t for t in tokens if t.type == "list_item_open" and t.level == 1]
    assert len(items) == 4  # failed, two errored, unmeasured: each one item
    rendered = MarkdownIt("commonmark").enable("table").render(text)
    assert "# H1" in rendered and "<h1>H1" not in rendered and "<img" not in rendered and "<a " not in rendered
    assert "javascript:alert(1)" in rendered and "www.e.example" in rendered


# -- item 4: only our own styling reaches the terminal as ESC ----------------------------------------

class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_console_summary_shows_control_characters_instead_of_sending_them():
    result = _hostile_run(TERMINAL_ATTACK)
    out = _Terminal()
    print_summary(result, out=out)
    text = out.getvalue()
    ours = re.compile(r"\x1b\[[0-9;]*m")
    assert set(ours.findall(text)) <= {"\x1b[31m", "\x1b[31;1m", "\x1b[33m", "\x1b[0m", "\x1b[32;1m"}
    bare = ours.sub("", text)
    assert not re.search("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e]", bare)
    assert "\\x1b]0;pwned\\x07" in text and "\\x9b2J" in text and "\\u202e" in text
    assert not any(line.startswith("PASSED") for line in bare.splitlines())
    assert bare.splitlines()[-1].startswith("FAILED")
