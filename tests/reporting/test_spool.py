"""The JSON report made from the run's spool is, byte for byte, the report read back from the database."""

import asyncio
import dataclasses
import json
import random

import pytest

from agentunit import evaluate
from agentunit.metrics import Metric
from agentunit.metrics.registry import register_metric, restored
from agentunit.reporting.json_report import write_json
from agentunit.reporting.spool import ReportSpool
from agentunit.store.sqlite import Store


class _OddValues(Metric):
    """Values the database stores in its own way: an integer (REAL → float), NaN (→ NULL), detail
    keys that are not text, a huge integer in the detail."""

    def evaluate(self, case, trace, outcome):
        kind = case.id.split("-")[0]
        if kind == "int":
            return self.result(1, passed=True, reason="an integer value",
                               detail={1: "one", "1": "uno", "n": 2**70, "nested": [{"k": "v"}]})
        if kind == "nan":
            return self.result(float("nan"), passed=False, reason="not a number", detail={"x": float("inf")})
        return self.result(0.25, passed=None, reason="info only ünïcödé \ud83d", detail={"set": {3}})


def _cases():
    cases = []
    for i in range(60):
        kind = ("int", "nan", "plain", "long", "evil")[i % 5]
        cases.append({"id": f"{kind}-{i}", "prompt": "x" * 5000 if kind == "long" else f"say {kind} {i} é\ud800",
                      "metrics": [{"metric": "contains", "value": str(i)}, "odd-values", "tool_success",
                                  {"metric": "regex", "value": r"\d+"}]})
    return cases


async def _slow_echo(prompt):
    await asyncio.sleep(random.random() / 200)  # replies finish out of suite order
    if prompt.startswith("say evil"):
        raise RuntimeError("<boom> \x1b[2J")
    return prompt


def _both_reports(result, tmp_path):
    assert result.spool is not None and result.spool.usable, "the run was not spooled: nothing compared"
    write_json(result, tmp_path / "spooled.json")
    write_json(dataclasses.replace(result, spool=None), tmp_path / "stored.json")
    return (tmp_path / "spooled.json").read_bytes(), (tmp_path / "stored.json").read_bytes()


@pytest.mark.parametrize("concurrency", [1, 8])
@pytest.mark.parametrize("repeat", [1, 3])
@pytest.mark.parametrize("read_block", [None, 700])
def test_spooled_report_is_the_stored_report(tmp_path, monkeypatch, concurrency, repeat, read_block):
    random.seed(concurrency * 10 + repeat)
    if read_block is not None:  # lines cut across blocks, longer than a block, read back out of order
        monkeypatch.setattr("agentunit.reporting.spool._READ_BLOCK", read_block)
    with restored():
        register_metric("odd-values", _OddValues)
        result = evaluate(cases=_cases(), target=_slow_echo, db=tmp_path / "r.db", concurrency=concurrency,
                          repeat=repeat)
        spooled, stored = _both_reports(result, tmp_path)
    assert spooled == stored
    data = json.loads(stored)
    assert len(data["cases"]) == 60 * repeat
    verdicts = [m for c in data["cases"] for m in c["metrics"]
                if m["metric"] == "odd-values" and m["passed"] is not None]
    assert data["statistics"]["metrics"]["odd-values"]["n"] == len(verdicts) > 0
    if concurrency == 8:
        assert not result.spool.in_order  # the replies did come back out of order: the index was used


def test_statistics_come_from_the_tallies_when_cases_were_stored_in_order(tmp_path):
    result = evaluate(cases=[{"id": f"c{i}", "prompt": f"p{i}", "metrics": [{"metric": "contains", "value": "1"}]}
                             for i in range(30)], target=lambda p: p, db=tmp_path / "r.db", concurrency=1)
    assert result.spool.in_order and result.spool.statistics() is not None
    spooled, stored = _both_reports(result, tmp_path)
    assert spooled == stored


def test_a_case_stored_twice_under_one_id_leaves_the_report_to_the_database(tmp_path):
    from agentunit.core.engine import Engine
    from agentunit.datasets.base import DatasetCase
    from agentunit.suite.model import Suite

    twice = [DatasetCase(id="same", query=f"p{i}", metrics=[{"metric": "contains", "value": "p"}]) for i in range(2)]
    suite = Suite(name="unvalidated", target={"type": "echo"}, prebuilt_cases=twice)  # no validate(): ids unchecked
    result = asyncio.run(Engine(suite, Store(tmp_path / "r.db")).run())
    assert result.spool is None  # one row in the database, two spooled lines: the spool stepped aside
    write_json(result, tmp_path / "r.json")
    assert len(json.loads((tmp_path / "r.json").read_text())["cases"]) == 1


def test_rows_the_store_had_to_rewrite_leave_the_report_to_the_database(tmp_path):
    store = Store(tmp_path / "r.db")
    spool = ReportSpool()
    store.listener, store.on_rewrite = spool.add, spool.discard
    store.start_run("r1", suite="s", suite_path=None, suite_hash=None, started_at="now", options={}, target=None)
    store.add_case("r1", 0, "a", 0, status="passed", passed=True, score=1.0, prompt="p", output="o", error=None,
                   latency_ms=2**70, cached=False, envelope=None, metrics=[])  # an int SQLite cannot bind
    assert not spool.usable
    store.close()


def test_a_value_sqlite_would_convert_is_not_mirrored_but_refused():
    spool = ReportSpool()
    row = ("r1", 0, "a", 0, "passed", 1, 1.0, "p", "o", None, "12.5", 0, None, 0.0, None)  # text in a REAL column
    spool.add(row, [], "o")
    assert not spool.usable


def test_numbers_come_back_as_sqlite_returns_them(tmp_path):
    from types import SimpleNamespace

    from agentunit.reporting.json_report import case_line

    store = Store(tmp_path / "r.db")
    spool = ReportSpool()
    store.listener = spool.add
    store.start_run("r1", suite="s", suite_path=None, suite_hash=None, started_at="now", options={}, target=None)
    odd = SimpleNamespace(name="m", status="info", value=float("nan"), passed=None, threshold=3, weight=True,
                          reason="r", detail={"inf": float("-inf")}, error=None, label=None)
    store.add_case("r1", 0, "a", 0, status="passed", passed=True, score=1, prompt="p", output="o", error=None,
                   latency_ms=7, cached=False, envelope={"usage": {"tokens": 3}}, metrics=[odd])
    store.flush()
    stored = case_line(next(store.iter_cases("r1")), False).encode()
    assert spool.usable and list(spool.lines()) == [stored]
    assert b'"value": null' in stored and b'"latency_ms": 7.0' in stored and b'"threshold": 3.0' in stored
    store.close()


def _run_without_lines(tmp_path, cases, name):
    from agentunit.core.engine import Engine, RunOptions
    from agentunit.suite import suite_from_dict

    suite = suite_from_dict({"name": "s", "target": {"type": "echo"}, "cases": cases})
    suite.validate()
    return Engine(suite, Store(tmp_path / f"{name}.db"), RunOptions(report_lines=False, processes=1)).execute()


def test_a_run_without_a_json_report_counts_the_tallies_and_makes_no_lines(tmp_path):
    from agentunit.reporting.console import run_statistics

    cases = [{"id": f"c{i}", "prompt": f"p{i}", "metrics": [{"metric": "contains", "value": "1"}]} for i in range(30)]
    result = _run_without_lines(tmp_path, cases, "lean")
    assert result.spool.usable and not result.spool.with_lines and result.spool._size == 0
    assert result.spool.statistics() == run_statistics(dataclasses.replace(result, spool=None))
    write_json(result, tmp_path / "late.json")  # a report asked for anyway reads the database
    write_json(dataclasses.replace(result, spool=None), tmp_path / "stored.json")
    assert (tmp_path / "late.json").read_bytes() == (tmp_path / "stored.json").read_bytes()


def test_without_lines_a_value_the_database_keeps_as_text_still_leaves_the_statistics_to_it():
    spool = ReportSpool(lines=False)
    case_row = ("r1", 0, "a", 0, "passed", 1, 1.0, "p", "o", None, 1.0, 0, None, 0.0, None)
    metric_row = ("r1", "a", 0, 0, "m", "passed", "0.5", 1, None, 1.0, "ok", None, None, None)  # text in REAL
    spool.add(case_row, [metric_row], "o")
    assert not spool.usable


def test_the_cli_makes_lines_only_for_a_json_report(tmp_path, monkeypatch):
    from click.testing import CliRunner

    import agentunit.cli.run_command as run_command
    from agentunit.cli import app

    made = []
    real = run_command.execute

    def spy(engine, *args, **kwargs):
        made.append(engine.options.report_lines)
        return real(engine, *args, **kwargs)

    monkeypatch.setattr(run_command, "execute", spy)
    suite = tmp_path / "s.json"
    case = {"id": "a", "prompt": "hi", "metrics": [{"metric": "contains", "value": "hi"}]}
    suite.write_text(json.dumps({"name": "s", "target": {"type": "echo"}, "cases": [case]}))
    for extra in ([], ["-o", str(tmp_path / "r.json")]):
        outcome = CliRunner().invoke(app, ["run", str(suite), "--db", str(tmp_path / "r.db"), "-q", *extra])
        assert outcome.exit_code == 0, outcome.output
    assert made == [False, True]
    assert len(json.loads((tmp_path / "r.json").read_text())["cases"]) == 1


@pytest.mark.parametrize("concurrency", [1, 8])
@pytest.mark.parametrize("repeat", [1, 2])
def test_the_summary_counted_as_rows_were_stored_is_the_databases(tmp_path, concurrency, repeat):
    from agentunit.core.engine import summarize

    random.seed(concurrency + repeat)
    labelled = [{"metric": "contains", "value": "7", "label": "group b"}, {"metric": "equals", "value": "x",
                                                                          "label": "group a"}]
    cases = [*_cases(), {"id": "labelled", "prompt": "say 7", "metrics": labelled},
             {"id": "unmeasured", "prompt": "say it", "metrics": ["context-faithfulness"]}]

    def not_asked(*args):
        raise AssertionError("the run's summary was counted in the database")

    with restored(), pytest.MonkeyPatch.context() as patched:
        register_metric("odd-values", _OddValues)
        patched.setattr(Store, "metric_counts", not_asked)
        result = evaluate(cases=cases, target=_slow_echo, db=tmp_path / "r.db", concurrency=concurrency,
                          repeat=repeat)
    from_database = summarize(result.store, result.run_id, repeat, False)
    assert json.dumps(result.summary) == json.dumps({**from_database, **{
        k: result.summary[k] for k in result.summary if k not in from_database}})
    assert result.summary["labels"] and result.summary["unmeasured"] and result.summary["errored"]


def test_counts_with_a_key_that_is_not_text_leave_the_summary_to_the_database(tmp_path):
    from agentunit.core.engine import summarize
    from agentunit.reporting.spool import StatusCounts

    class Numbered(Metric):
        def evaluate(self, case, trace, outcome):
            result = self.result(1.0, passed=True)
            result.name = 7  # the database keeps it as the text "7"
            return result

    with restored():
        register_metric("numbered", Numbered)
        result = _run_without_lines(tmp_path, [{"id": "a", "prompt": "p", "metrics": ["numbered", "is-json"]}], "n")
    assert result.spool is not None and result.spool.summary_counts() is None  # the lines alone would refuse it
    assert result.summary == summarize(result.store, result.run_id) and "7" in result.summary["metrics"]
    counts, other = StatusCounts(), StatusCounts()
    other.add("passed", [("r", "a", 0, 0, 7, "passed", 1.0, 1, None, 1.0, None, None, None, None)])
    counts.add("passed", [])
    counts.extend(other)
    assert counts.summary_counts() is None


def test_lines_are_read_and_written_a_block_at_a_time(tmp_path, monkeypatch):
    import io

    monkeypatch.setattr("agentunit.reporting.spool._READ_BLOCK", 1000)
    result = evaluate(cases=[{"id": f"c{i}", "prompt": f"p{i}" * (1 + 400 * (i == 7)),
                              "metrics": [{"metric": "contains", "value": "p"}]} for i in range(40)],
                      target=lambda p: p, db=tmp_path / "r.db")
    blocks = list(result.spool._line_blocks())
    lines = list(result.spool.lines())
    assert len(blocks) > 3 and [line for block in blocks for line in block] == lines and len(lines) == 40
    # A block holds what one read gave (a line longer than a block is read alone): memory stays flat.
    assert all(sum(map(len, block)) <= 1000 or len(block) == 1 for block in blocks)
    written = io.BytesIO()
    result.spool.write_lines(written)
    assert written.getvalue() == b"\n" + b",\n".join(lines)


def _spooled_rows(seq: int, detail: str = '{"k": 1}') -> tuple:
    case_row = ("r", seq, f"c{seq}", 0, "passed", 1, 1.0, "p", None, None, 1.0, 0, None, 0.0, None)
    metric_rows = [("r", f"c{seq}", 0, 0, "m", "passed", 1.0, 1, None, 1.0, "ok", detail, None, None)]
    return case_row, metric_rows, f"out {seq}", [json.loads(detail)]


def _written(spool: ReportSpool) -> bytes:
    import io

    written = io.BytesIO()
    spool.write_lines(written)
    return written.getvalue()


def test_lines_written_as_the_file_holds_them_or_one_by_one_are_the_same(tmp_path, monkeypatch):
    monkeypatch.setattr("agentunit.reporting.spool._READ_BLOCK", 100)  # blocks end inside lines
    plain, copied_newline = ReportSpool(), ReportSpool()
    for seq in range(7):
        plain.add(*_spooled_rows(seq))
        copied_newline.add(*_spooled_rows(seq, '{"k":\n1}' if seq == 3 else '{"k": 1}'))  # a detail text copied
    assert plain._verbatim and not copied_newline._verbatim  # as stored, a line may hold a newline
    for spool in (plain, copied_newline):
        lines = list(spool.lines())
        assert len(lines) == 7 and _written(spool) == b"\n" + b",\n".join(lines)
    assert b'"detail": {"k":\n1}' in _written(copied_newline)
    assert _written(ReportSpool()) == b""
    expected = _written(plain)
    monkeypatch.setattr(ReportSpool, "_line_blocks", lambda self: pytest.fail("lines cut apart one by one"))
    assert _written(plain) == expected  # the file as it is, a block at a time


@pytest.mark.parametrize(("later_first", "later_reversed", "left_out"), [(3, False, 3), (4, False, 3), (3, True, 3),
                                                                     (3, False, 5)])
def test_a_later_range_adopted_right_after_this_one_keeps_the_file_as_the_lines(tmp_path, later_first,
                                                                                 later_reversed, left_out):
    whole, first = ReportSpool(), ReportSpool()
    later = first.for_range(later_first)
    kept = [seq for seq in range(7) if seq != left_out or later_first == 3 == left_out]
    for seq in kept:
        whole.add(*_spooled_rows(seq))
        if seq < later_first:
            first.add(*_spooled_rows(seq))
    for seq in sorted((s for s in kept if s >= later_first), reverse=later_reversed):
        later.add(*_spooled_rows(seq))  # reversed: replies that finished out of order
    first.adopt(tmp_path, later.export(tmp_path))
    # A place left empty between the ranges, or a range stored out of order: the lines are written one by one.
    assert first._verbatim == (later_first == 3 and not later_reversed and left_out == 3)
    assert _written(first) == _written(whole) and list(first.lines()) == list(whole.lines())


def test_adopting_a_large_range_holds_no_list_of_its_offsets(tmp_path):
    import tracemalloc

    first = ReportSpool()
    later = first.for_range(1)
    first.add(*_spooled_rows(0))
    for seq in range(1, 50_001):
        later.add(*_spooled_rows(seq))
    state = later.export(tmp_path)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        first.adopt(tmp_path, state)
        kept, peak = (value - before for value in tracemalloc.get_traced_memory())
    finally:
        tracemalloc.stop()
    assert first.count == 50_001 and len(list(first.lines())) == 50_001
    # The arrays it keeps (offsets, lengths) and those it reads, not a list of 50,000 numbers besides (~3.9×).
    assert peak < 3 * kept


def test_places_of_a_range_that_cannot_be_read_back_leave_the_spool_as_it_was(tmp_path, monkeypatch):
    monkeypatch.setattr("agentunit.reporting.spool._PLACES_BLOCK", 2)  # read in blocks: some were read
    first = ReportSpool()
    later = first.for_range(2)
    for seq in range(2):
        first.add(*_spooled_rows(seq))
    for seq in range(2, 7):
        later.add(*_spooled_rows(seq))
    state = later.export(tmp_path)
    places = next(p for p in tmp_path.iterdir() if p.read_bytes() and len(p.read_bytes()) == 5 * 16)
    places.write_bytes(places.read_bytes()[:5 * 8 + 8])  # the offsets and one length: cut short
    lines = list(first.lines())
    with pytest.raises(EOFError):
        first.adopt(tmp_path, state)
    assert (len(first._offsets), len(first._lengths)) == (2, 2) and list(first.lines()) == lines
    assert first._verbatim
