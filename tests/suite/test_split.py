"""A large suite validated by helper processes (agentunit.suite.split) gives the cases, flags and problems
that validating it in one process gives (issue 20)."""

import dataclasses
import json
import os
import pickle
from pathlib import Path

import pytest

from agentunit.errors import SuiteError
from agentunit.suite import model as suite_model
from agentunit.suite import split
from agentunit.suite.loader import load_suite
from tests.process_helpers import ends_within, kill_once_forked

_CHECKS = [{"metric": "contains", "value": "item"}, {"metric": "regex", "value": r"[02468]$"},
           {"metric": "starts-with", "value": "Answer:"}]


@pytest.fixture(autouse=True)
def one_thread(monkeypatch):
    """The test process counts as single-threaded (a thread left by another test would keep it from forking)."""
    monkeypatch.setattr("agentunit.core.forking.threading.active_count", lambda: 1)


def _cases(count: int = 40) -> list[dict]:
    cases = [{"id": f"c{i}", "prompt": f"Answer: item {i}",
              "metrics": [{"metric": "contains", "value": f"item {i}"}, *_CHECKS[1:]]} for i in range(count)]
    cases[5]["metrics"] = [*cases[5]["metrics"], {"metric": "equals", "value": "no", "threshold": 0.5}]
    cases[31]["output"] = "a recorded answer"
    return cases


def _suite(tmp_path: Path, cases: list[dict], *, jsonl: bool = False, **extra) -> Path:
    suite = {"name": "split", "target": {"type": "echo"}, **extra}
    if jsonl:
        (tmp_path / "cases.jsonl").write_text("".join(json.dumps(c) + "\n" for c in cases))
        suite["cases_file"] = "cases.jsonl"
    else:
        suite["cases"] = cases
    path = tmp_path / "suite.json"
    path.write_text(json.dumps(suite))
    return path


def _metric(metric) -> tuple:
    return (type(metric).__name__, metric.name, metric.value, metric.threshold, metric.weight, metric.config)


def _case(case) -> tuple:
    fields = {f.name: getattr(case, f.name) for f in dataclasses.fields(case) if f.name != "metrics"}
    return fields, [_metric(m) for m in case.metrics]


def _validated(path: Path, processes: int, **kwargs):
    suite = load_suite(path)
    count = suite.validate(processes=processes, **kwargs)
    return suite, count


def _same_as_one_process(path: Path, processes: int = 2, **kwargs):
    one, one_count = _validated(path, 1, **kwargs)
    many, many_count = _validated(path, processes, **kwargs)
    assert many_count == one_count == many.case_count
    assert (many.awaits_nothing, many.splittable) == (one.awaits_nothing, one.splittable)
    built = [_case(c) for c in one.iter_cases()]
    assert [_case(c) for c in many.iter_cases()] == built
    for first in (0, 1, 17, 18, 19, 20, 21, len(built) - 1, len(built), len(built) + 5):
        assert [_case(c) for c in many.iter_cases(first)] == built[first:]
    assert many.problems.warning_texts() == one.problems.warning_texts()
    return one, many


@pytest.mark.parametrize("jsonl", [False, True])
def test_helpers_validate_the_later_ranges_and_give_the_same_cases(tmp_path, jsonl):
    one, many = _same_as_one_process(_suite(tmp_path, _cases(), jsonl=jsonl))
    assert many.range_starts and not one.range_starts  # validated in two processes indeed
    assert many.range_starts[0] == 21 and many.first_range_in_memory  # this process's share is kept: larger


def test_four_processes_and_a_first_range_kept_on_disk(tmp_path, monkeypatch):
    monkeypatch.setattr(suite_model, "KEEP_VALIDATED_CASES", 5)  # the first range goes to a spool of its own
    _, many = _same_as_one_process(_suite(tmp_path, _cases()), processes=4)
    starts = many.range_starts
    assert starts == [10, 20, 30] and many._spooled is not None  # spooled here too: even shares
    assert not many.first_range_in_memory


def _problems(path: Path, processes: int, **kwargs) -> list[str]:
    with pytest.raises(SuiteError) as caught:
        _validated(path, processes, **kwargs)
    return [str(p) for p in caught.value.problems]


@pytest.mark.parametrize("jsonl", [False, True])
@pytest.mark.parametrize("broken", ["head", "tail", "both", "repeated across", "repeated in tail", "answerless"])
def test_a_broken_suite_has_the_problems_one_process_finds(tmp_path, jsonl, broken):
    cases = _cases()
    if broken in ("head", "both"):
        cases[2]["metrics"] = [{"metric": "no-such-metric"}]
    if broken in ("tail", "both"):
        cases[33]["metrics"] = [{"metric": "regex", "value": "("}]
        cases[36]["threshold"] = "high"
    if broken == "repeated across":
        cases[30]["id"] = "c3"
    if broken == "repeated in tail":
        cases[38]["id"] = "c35"
    if broken == "answerless":
        cases[34]["output"] = "recorded"  # the suite's target is removed below: the others have no answer
    extra = {"target": None} if broken == "answerless" else {}
    path = _suite(tmp_path, cases, jsonl=jsonl)
    if extra:
        data = json.loads(path.read_text())
        del data["target"]
        path.write_text(json.dumps(data))
    assert _problems(path, 2, require_target=True) == _problems(path, 1, require_target=True)


@pytest.mark.parametrize("kept_here", ["warning", "verdict", "transform"])
def test_what_a_helper_cannot_hand_back_is_validated_here(tmp_path, kept_here):
    cases, extra = _cases(), {}
    if kept_here == "warning":
        cases[35]["expcted_output"] = "a warning"  # the suite is valid
    elif kept_here == "verdict":
        cases[36]["expected_pass"] = True  # a human verdict on the case
    else:
        extra = {"defaults": {"transform": "output.upper()"}}
    path = _suite(tmp_path, cases, **extra)
    one, many = _same_as_one_process(path)
    assert not many.range_starts  # read in this process after all
    assert many.verdicts == one.verdicts and set(many.case_transforms) == set(one.case_transforms)


def test_a_malformed_line_in_either_range_is_reported_once(tmp_path):
    lines = [json.dumps(c) for c in _cases()]
    lines[4], lines[35] = "{not json", '{"id": "c35", "prompt": 3'
    (tmp_path / "cases.jsonl").write_text("\n".join(lines) + "\n")
    (tmp_path / "suite.json").write_text(json.dumps({"name": "s", "target": {"type": "echo"},
                                                     "cases_file": "cases.jsonl"}))
    path = tmp_path / "suite.json"
    assert _problems(path, 2) == _problems(path, 1)


@pytest.mark.parametrize("failure", ["raises", "killed", "unspoolable"])
def test_a_helper_that_fails_leaves_its_range_to_this_process(tmp_path, monkeypatch, failure):
    path = _suite(tmp_path, _cases())
    one, _ = _validated(path, 1)
    if failure == "raises":
        def broken(*args, **kwargs):
            raise RuntimeError("boom")
    elif failure == "killed":
        def broken(*args, **kwargs):
            os.kill(os.getpid(), 9)
    else:
        monkeypatch.setattr(split.CaseSpool, "add", lambda self, case: False)
        broken = None
    if broken is not None:
        monkeypatch.setattr(suite_model.Suite, "_validate_range", broken)
    many, count = _validated(path, 2)
    assert count == 40 and not many.range_starts
    assert [_case(c) for c in many.iter_cases()] == [_case(c) for c in one.iter_cases()]


def test_no_helper_where_forking_is_unsafe_or_not_asked_for(tmp_path, monkeypatch):
    path = _suite(tmp_path, _cases())
    assert not _validated(path, 1)[0].range_starts
    monkeypatch.setattr(split, "usable_cpus", lambda: 8)
    assert not _validated(path, None)[0].range_starts  # 40 cases: below SPLIT_FROM
    monkeypatch.setattr(suite_model, "SPLIT_FROM", 30)
    assert len(_validated(path, None)[0].range_starts) == 3  # one per CPU, up to MAX_PROCESSES
    (tmp_path / "streamed").mkdir()
    streamed = _suite(tmp_path / "streamed", _cases(), jsonl=True)
    assert len(_validated(streamed, None)[0].range_starts) == 3  # counted by the lines of its cases file
    monkeypatch.setattr("agentunit.core.forking.threading.active_count", lambda: 2)
    assert not _validated(path, 2)[0].range_starts


def test_a_copy_sent_elsewhere_reads_every_case_again(tmp_path):
    many, _ = _validated(_suite(tmp_path, _cases()), 2)
    assert many.range_starts
    copy = pickle.loads(pickle.dumps(many))
    assert [c.id for c in copy.iter_cases()] == [c.id for c in many.iter_cases()]


def test_validating_again_or_calibrating_drops_the_helpers_spools(tmp_path):
    many, _ = _validated(_suite(tmp_path, _cases()), 2)
    tails = list(many._tails)
    many.validate()  # one process this time
    assert not many.range_starts and all(t._file.closed for t in tails)
    many.validate(processes=2)
    tails = list(many._tails)
    many.use_calibration(None)
    assert not many._tails and all(t._file.closed for t in tails)
    assert len(list(many.iter_cases())) == 40


def test_the_estimate_counts_inline_cases_and_lines_of_cases_files(tmp_path):
    path = _suite(tmp_path, _cases()[:7], jsonl=True)
    suite = load_suite(path)
    suite.inline_cases = [{"id": "x", "prompt": "p"}] * 3
    assert split.estimated_cases(suite) == 10


def test_a_suite_class_that_reads_its_cases_its_own_way_is_validated_here(tmp_path):
    class OwnWay(suite_model.Suite):
        def _raw_cases(self):
            yield from reversed(list(super()._raw_cases()))

    suite = load_suite(_suite(tmp_path, _cases()))
    own = OwnWay(**{f.name: getattr(suite, f.name) for f in dataclasses.fields(suite) if f.init})
    assert own.validate(processes=2) == 40 and not own.range_starts
    assert [c.id for c in own.iter_cases()] == [f"c{i}" for i in reversed(range(40))]


def test_what_a_helper_wrote_that_cannot_be_read_back_leaves_its_range_to_this_process(tmp_path, monkeypatch):
    path = _suite(tmp_path, _cases())
    real_dump = split.marshal.dump

    def truncated(value, file):  # the helper's result is cut short (a full disk, say)
        real_dump(value, file)
        if isinstance(value, tuple):
            file.truncate(3)

    monkeypatch.setattr(split.marshal, "dump", truncated)
    many, count = _validated(path, 2)
    assert count == 40 and not many.range_starts


def test_a_helper_that_cannot_be_forked_leaves_every_case_to_this_process(tmp_path, monkeypatch):
    path = _suite(tmp_path, _cases())
    one, _ = _validated(path, 1)
    real_fork, forks = os.fork, []

    def second_fails():
        forks.append(1)
        if len(forks) == 2:
            raise OSError("no more processes")
        return real_fork()

    monkeypatch.setattr(split.os, "fork", second_fails)
    many, count = _validated(path, 3)
    assert len(forks) == 2 and count == 40 and not many.range_starts
    assert [_case(c) for c in many.iter_cases()] == [_case(c) for c in one.iter_cases()]


def test_a_range_past_the_last_record_is_no_range(tmp_path):
    lines = [json.dumps(c) for c in _cases()]
    (tmp_path / "cases.jsonl").write_text("\n".join(lines) + "\n" * 30)  # blank lines: counted, not cases
    (tmp_path / "suite.json").write_text(json.dumps({"name": "s", "target": {"type": "echo"},
                                                     "cases_file": "cases.jsonl"}))
    many, count = _validated(tmp_path / "suite.json", 4)
    assert count == 40 and many.range_starts == [19, 35] and all(tail.count for tail in many._tails)
    assert [c.id for c in many.iter_cases()] == [f"c{i}" for i in range(40)]


@pytest.mark.parametrize("finished", [False, True])
def test_while_the_helpers_finish_this_process_loads_what_each_forked_process_needs_first(tmp_path, monkeypatch,
                                                                                           finished):
    from agentunit.core import forking

    monkeypatch.setattr(forking, "_prctl", None)
    _validated(_suite(tmp_path, _cases()), 1)
    assert forking._prctl is None  # one process: nothing to end with it
    # Whether the helpers have all written their results when this process has read its own range.
    monkeypatch.setattr(split, "_all_ready", lambda helpers: finished)
    _validated(_suite(tmp_path, _cases()), 2)
    loaded = forking._prctl
    if finished:  # nothing to wait for: loaded by a process that needs it, if any does (~1.5 ms)
        assert loaded is None
    else:
        assert loaded is not None and forking.load_prctl() is loaded  # loaded once, here


def _gone(pid: int) -> bool:
    """Whether process ``pid`` (a child of this one) ended and was reaped."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_a_resident_helper_keeps_its_range_until_the_run_takes_it_or_lets_it_go(tmp_path):
    path = _suite(tmp_path, _cases())
    one, _ = _validated(path, 1)
    many, _ = _validated(path, 2, resident=True)
    assert [_case(c) for c in many.iter_cases()] == [_case(c) for c in one.iter_cases()]  # its spool is whole
    ranges = many.resident_ranges()
    assert list(ranges) == many.range_starts == [21]
    assert many.resident_ranges() == {}  # taken: the caller's now
    pid = ranges[21].pid
    assert not _gone(pid)  # waiting for its order
    ranges[21].dismiss()
    assert _gone(pid) and ranges[21].pid == 0


def test_validating_again_or_calibrating_lets_resident_helpers_go(tmp_path):
    path = _suite(tmp_path, _cases())
    many, _ = _validated(path, 2, resident=True)
    pid = many._residents[0].pid
    many.validate()
    assert _gone(pid) and many._residents == []
    many.validate(processes=2, resident=True)
    pid = many._residents[0].pid
    many.use_calibration(None)
    assert _gone(pid) and many._residents == []


def test_only_a_range_the_run_may_split_and_keep_in_memory_stays_resident(tmp_path, monkeypatch):
    cases = _cases()
    cases[30]["metrics"] = [*cases[30]["metrics"], {"metric": "privacy_budget", "config": {"total_budget": 5}}]
    many, _ = _validated(_suite(tmp_path, cases), 2, resident=True)
    assert many.range_starts and many._residents == [None]  # its state would be spent across the run's cases
    asked_none, _ = _validated(_suite(tmp_path, _cases()), 2)  # not asked for (calibrate, the API)
    assert asked_none.range_starts and not any(asked_none._residents)
    monkeypatch.setattr(suite_model, "KEEP_VALIDATED_CASES", 10)  # too many to keep: the run replays its spool
    too_many, _ = _validated(_suite(tmp_path, _cases()), 2, resident=True)
    assert too_many.range_starts and not any(too_many._residents)


def test_resident_helpers_share_the_validating_from_a_thousand_cases(tmp_path, monkeypatch):
    monkeypatch.setattr(split, "usable_cpus", lambda: 2)
    path = _suite(tmp_path, _cases(1_000))
    assert not _validated(path, None)[0].range_starts  # below SPLIT_FROM without residents
    many, _ = _validated(path, None, resident=True)
    assert len(many.range_starts) == 1
    many.dismiss_residents()
    assert not _validated(_suite(tmp_path, _cases(999)), None, resident=True)[0].range_starts


def test_resident_helpers_let_go_together_all_end(tmp_path):
    many, _ = _validated(_suite(tmp_path, _cases()), 3, resident=True)
    pids = [r.pid for r in many._residents]
    assert len(pids) == 2 and all(pids)
    many.dismiss_residents()
    assert all(_gone(pid) for pid in pids)


def test_an_order_to_a_helper_that_ended_is_not_sent(tmp_path):
    import signal

    many, _ = _validated(_suite(tmp_path, _cases()), 2, resident=True)
    resident = many.resident_ranges()[21]
    os.kill(resident.pid, signal.SIGKILL)
    assert ends_within(resident.pid)  # it ended (its end of the pipe closed), not yet reaped
    assert resident.run({"run_id": "r"}) is False
    resident.dismiss()
    assert resident.pid == 0


def test_a_suite_with_problems_lets_its_resident_helpers_go(tmp_path, monkeypatch):
    pids = []
    real = split.Resident.__init__

    def recording(resident, pid, orders):
        pids.append(pid)
        real(resident, pid, orders)

    monkeypatch.setattr(split.Resident, "__init__", recording)
    cases = _cases()
    cases[2]["metrics"] = [{"metric": "no-such-metric"}]  # in this process's range: the helper's is clean
    with pytest.raises(SuiteError):
        _validated(_suite(tmp_path, cases), 2, resident=True)
    assert pids and all(_gone(pid) for pid in pids)


def test_a_helper_stops_keeping_a_range_too_large_to_hold(tmp_path):
    from agentunit.suite.replay import CaseSpool

    suite = load_suite(_suite(tmp_path, _cases()))
    ids: list[str] = []
    for up_to, kept_after in ((40, 19), (19, 19), (18, 0)):
        spool, kept = CaseSpool(), []
        assert suite._validate_range(21, None, spool, True, ids.extend, 100, keep=kept, keep_up_to=up_to)[0] == 19
        assert len(kept) == kept_after and spool.count == 19  # the spool holds the range either way
        spool.close()


_SLOW_HELPER = """
import os, sys, time
from agentunit.suite import model, split
from agentunit.suite.loader import load_suite
validate_range = model.Suite._validate_range
parent = os.getpid()
def slowly(self, first, stop, spool, require_target, emit_ids, chunk, **kept):
    def emit(ids):  # a chunk of one id every 0.5 s: the helper reads for minutes, far past the test's wait
        if os.getpid() != parent:
            open("reading", "w").close()  # the test kills the parent now
        time.sleep(0.5)
        emit_ids(ids)
    return validate_range(self, first, stop, spool, require_target, emit, 1, **kept)
model.Suite._validate_range = slowly
load_suite(sys.argv[1]).validate(require_target=True, processes=2, resident=RESIDENT)
"""

_SLOW_RESIDENT = """
import sys, time
from agentunit.core import shards
run_range = shards._run_range
def stuck(engine, run_id, jobs, stop):
    if stop is None:  # the last range: the resident helper's
        open("running", "w").close()  # the test kills the parent now
        time.sleep(600)  # far past the test's wait for its end
    run_range(engine, run_id, jobs, stop)
shards._run_range = stuck
sys.argv = ["agentunit", "run", sys.argv[1], "--db", "k.db", "-q"]
from agentunit.cli import program
program()
"""


def _killed_with_its_parent(code: str, suite: Path, ready: str) -> bool:
    """Run ``code`` on ``suite``, kill it once it forked and its helper wrote ``ready`` (in the suite's folder),
    and tell whether the process it forked first ended within a minute."""
    import signal

    _, child = kill_once_forked(code, str(suite), cwd=suite.parent, env={**os.environ, "TMPDIR": str(suite.parent)},
                                ready=suite.parent / ready)
    if ends_within(child):
        return True
    os.kill(child, signal.SIGKILL)  # it ran on alone: the test fails, and leaves no process behind
    return False


@pytest.mark.parametrize("resident", [False, True])
def test_a_helper_reading_its_range_ends_with_its_parent(tmp_path, resident):
    path = _suite(tmp_path, _cases(2_000))
    assert _killed_with_its_parent(_SLOW_HELPER.replace("RESIDENT", str(resident)), path, "reading")


def test_a_resident_helper_running_its_range_ends_with_the_run(tmp_path):
    cases = [{"id": f"c{i}", "prompt": "Answer: an item", "metrics": _CHECKS[:1]} for i in range(1_000)]
    path = _suite(tmp_path, cases)
    assert _killed_with_its_parent(_SLOW_RESIDENT, path, "running")


@pytest.mark.parametrize("processes", [1, 2])
def test_the_callers_work_is_done_while_the_helpers_read_and_before_this_process_reads(tmp_path, monkeypatch,
                                                                                       processes):
    events = []
    start_helpers, located = split.start_helpers, suite_model.Suite._located_cases

    def started(*args, **kwargs):
        helpers = start_helpers(*args, **kwargs)
        events.append(f"{len(helpers)} helper(s)")
        return helpers

    def reading(self, *args, **kwargs):
        events.append("reading here")
        return located(self, *args, **kwargs)

    monkeypatch.setattr(split, "start_helpers", started)
    monkeypatch.setattr(suite_model.Suite, "_located_cases", reading)
    _, count = _validated(_suite(tmp_path, _cases()), processes, meanwhile=lambda: events.append("meanwhile"))
    assert count == 40
    assert events == (["meanwhile", "reading here"] if processes == 1 else
                      ["1 helper(s)", "meanwhile", "reading here"])


def test_the_callers_work_failing_stops_the_helpers(tmp_path, monkeypatch):
    forked: list[int] = []
    start_helpers = split.start_helpers

    def started(*args, **kwargs):
        helpers = start_helpers(*args, **kwargs)
        forked.extend(helper.pid for helper in helpers)
        return helpers

    monkeypatch.setattr(split, "start_helpers", started)

    def fails():
        raise OSError("no database")

    with pytest.raises(OSError, match="no database"):
        _validated(_suite(tmp_path, _cases()), 2, resident=True, meanwhile=fails)
    assert forked and all(_gone(pid) for pid in forked)  # none left waiting for an order


def test_helpers_are_ready_once_each_wrote_its_result_or_ended_whatever_their_descriptors(tmp_path):
    import resource

    reading, writing = [], []
    for _ in range(3):
        ready, readied = os.pipe()
        reading.append(ready)
        writing.append(readied)
    limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    high = 1_100 if limit > 1_200 else None  # past select's 1,023
    if high is not None:
        low, reading[2] = reading[2], os.dup2(reading[2], high)
        os.close(low)
    helpers = [split.Helper(0, 0, None, None, None, None, ready=fd) for fd in reading]
    try:
        assert not split._all_ready(helpers)
        os.write(writing[0], b"r")
        os.close(writing[1])  # ended without its result
        assert not split._all_ready(helpers)
        os.write(writing[2], b"r")
        assert split._all_ready(helpers)
    finally:
        for fd in {*reading, *writing} - {writing[1]}:
            os.close(fd)
