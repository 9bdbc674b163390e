"""A large run that awaits nothing is split across forked processes (agentunit.core.shards), and what it
stores and reports is what the same run makes in one process (issue 20)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agentunit.core import shards
from agentunit.core.engine import SHARDED_FROM, Engine, RunOptions
from agentunit.reporting.spool import ReportSpool
from agentunit.stats.intervals import NORMAL_ABOVE
from agentunit.stats.summary import MetricTallies, Scores
from agentunit.store.sqlite import LARGE_TEXT, Store
from agentunit.suite import suite_from_dict
from tests.process_helpers import ends_within, kill_once_forked

_CHECKS = [{"metric": "contains", "value": "item"}, {"metric": "regex", "value": r"[02468]$"},
           {"metric": "starts-with", "value": "Answer:"}]


def _suite_file(tmp_path: Path, count: int = 60) -> Path:
    cases = [{"id": f"c{i}", "prompt": f"Answer: item {i}", "metrics": _CHECKS} for i in range(count)]
    cases[7]["prompt"] = "Answer: item " + "x" * LARGE_TEXT + " 8"  # stored once in `texts`, by its hash
    cases[9]["metrics"] = [*_CHECKS, {"metric": "equals", "value": "no"}]
    path = tmp_path / "suite.json"
    path.write_text(json.dumps({"name": "shards", "target": {"type": "echo"}, "cases": cases}))
    return path


# Runs the suite through the CLI in a fresh interpreter (one thread, as a user's run), counting forks.
_RUN = """
import os, sys
import agentunit.core.shards as shards
from agentunit.cli import main
NAME = sys.argv[1]
forks, helpers = [], []  # the run's ranges, and the processes helping to validate the suite (suite.split)
real_fork = os.fork
def counted():
    pid = real_fork()
    if pid:
        (forks if sys._getframe(1).f_globals["__name__"] == "agentunit.core.shards" else helpers).append(pid)
    return pid
os.fork = counted
import agentunit.suite.split as split
real_order = split.Resident.run
def ordered(resident, order):  # a range run by the resident helper that validated it is a range run elsewhere too
    if os.environ.get("RESIDENT_GONE"):  # the helper ended before its order: the range is forked instead
        import signal, time
        os.kill(resident.pid, signal.SIGKILL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # until it ended (a zombie: its pipe closed), not a fixed time
            with open(f"/proc/{resident.pid}/stat") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                    break
            time.sleep(0.02)
    sent = real_order(resident, order)
    if sent:
        forks.append(resident.pid)
        with open(NAME + ".residents", "a") as ran:
            ran.write("1")
    return sent
split.Resident.run = ordered
if os.environ.get("SPOOLED"):  # the validated cases go to a spool the ranges replay from their first case
    import agentunit.suite.model
    agentunit.suite.model.KEEP_VALIDATED_CASES = 10
if os.environ.get("BREAK_CHILD") == "early":  # every forked range fails before it stores anything
    shards._child = lambda *args: os._exit(3)
    shards.run_resident = lambda *args: 3  # ... and every range a resident helper was ordered to run
elif os.environ.get("BREAK_CHILD") == "late":  # ... after storing its rows, before handing over its report lines
    shards.pickle.dump = lambda *args, **kwargs: os._exit(3)
sys.argv = ["agentunit", "run", "suite.json", "--db", sys.argv[1] + ".db", "-o", sys.argv[1] + ".json", "-q",
            "--processes", sys.argv[2]] + sys.argv[3:]
try:
    main()
except SystemExit as exit:
    print(len(forks), exit.code, len(helpers))
"""


def _run(tmp_path: Path, name: str, processes: int, *extra: str, env: dict | None = None) -> tuple[int, int, int]:
    """(forked ranges, exit code, helpers forked to validate the suite) of one CLI run in a fresh interpreter."""
    import os

    done = subprocess.run([sys.executable, "-c", _RUN, name, str(processes), *extra], capture_output=True,
                          text=True, timeout=300, cwd=tmp_path, env={**os.environ, **(env or {})})
    assert done.returncode == 0, done.stderr
    forks, code, helpers = done.stdout.split()
    return int(forks), int(code), int(helpers)


def _stored(db: Path) -> tuple[list, list, list]:
    import sqlite3

    conn = sqlite3.connect(db)
    cases = conn.execute("SELECT seq, case_id, repeat, status, passed, score, prompt, output, error, cached, envelope,"
                         " output_hash FROM case_results ORDER BY seq, repeat").fetchall()
    metrics = conn.execute("SELECT * FROM metric_results ORDER BY case_id, repeat, position").fetchall()
    texts = conn.execute("SELECT * FROM texts ORDER BY hash").fetchall()
    return cases, [row[1:] for row in metrics], texts  # without the run id


def _report(path: Path) -> dict:
    report = json.loads(path.read_text())
    for key in ("run_id", "started_at", "finished_at"):
        report.pop(key, None)
    for case in report["cases"]:
        case.pop("latency_ms")
    return report


@pytest.mark.parametrize(("extra", "env"), [((), {}), (("--repeat", "2"), {}), ((), {"SPOOLED": "1"})])
def test_a_split_run_stores_and_reports_what_one_process_does(tmp_path, extra, env):
    _suite_file(tmp_path)
    assert _run(tmp_path, "one", 1, *extra) == (0, 1, 0)  # some checks fail: exit 1 both ways
    assert _run(tmp_path, "three", 3, *extra, env=env) == (2, 1, 2)  # validated in three processes too
    assert _stored(tmp_path / "three.db") == _stored(tmp_path / "one.db")
    assert _report(tmp_path / "three.json") == _report(tmp_path / "one.json")
    cases, metrics, texts = _stored(tmp_path / "three.db")
    repeats = 2 if extra else 1
    assert len(cases) == 60 * repeats and len(metrics) == 181 * repeats and len(texts) == 1


@pytest.mark.parametrize("when", ["early", "late"])
def test_a_range_whose_process_fails_is_run_by_the_parent(tmp_path, when):
    _suite_file(tmp_path)
    _run(tmp_path, "one", 1)
    assert _run(tmp_path, "broken", 2, env={"BREAK_CHILD": when}) == (1, 1, 1)
    assert _stored(tmp_path / "broken.db") == _stored(tmp_path / "one.db")
    assert _report(tmp_path / "broken.json") == _report(tmp_path / "one.json")


def _engine(tmp_path, count=10, metrics=None, **options):
    suite = suite_from_dict({"name": "b", "target": {"type": "echo"},
                             "cases": [{"id": f"c{i}", "prompt": "p", "metrics": _CHECKS[:1] + (metrics or [])}
                                       for i in range(count)]})
    suite.validate()
    engine = Engine(suite, Store(tmp_path / "b.db"), RunOptions(**options))
    engine._inline = True
    return engine


@pytest.fixture
def one_thread(monkeypatch):
    """This process counts as single-threaded (another test may have left a thread running): only the
    condition a test looks at decides."""
    monkeypatch.setattr(shards.threading, "active_count", lambda: 1)


def test_where_a_run_is_split(tmp_path, monkeypatch, one_thread):
    monkeypatch.setattr(shards, "usable_cpus", lambda: 8)
    assert shards.shard_bounds(_engine(tmp_path, processes=3)) == [3, 6]
    assert shards.shard_bounds(_engine(tmp_path, processes=1)) is None
    assert shards.shard_bounds(_engine(tmp_path)) is None  # by default only from SHARDED_FROM cases on
    assert shards.shard_bounds(_engine(tmp_path, SHARDED_FROM)) == [SHARDED_FROM * k // 4 for k in (1, 2, 3)]
    monkeypatch.setattr(shards, "usable_cpus", lambda: 1)
    assert shards.shard_bounds(_engine(tmp_path, SHARDED_FROM)) is None
    assert shards.shard_bounds(_engine(tmp_path, 2, processes=5)) == [1]


def test_ranges_follow_the_ranges_helpers_validated(tmp_path, monkeypatch, one_thread):
    monkeypatch.setattr("agentunit.core.forking.threading.active_count", lambda: 1)
    engine = _engine(tmp_path, 40, processes=3)
    engine.suite.validate(processes=3)
    starts = engine.suite.range_starts
    assert len(starts) == 2 and starts != [13, 26]  # this process validated a larger first share
    assert shards.shard_bounds(engine) == starts
    engine.options.processes = 2  # another number of ranges: an even split
    assert shards.shard_bounds(engine) == [20]
    engine.options.processes = 3
    monkeypatch.setattr(type(engine.suite), "first_range_in_memory", False)  # every range replays a spool
    assert shards.shard_bounds(engine) == [13, 26]


def test_runs_that_are_not_split(tmp_path, monkeypatch, one_thread):
    assert shards.shard_bounds(_engine(tmp_path, processes=2)) == [5]  # split, unless one thing below differs
    engine = _engine(tmp_path, processes=2)
    engine._inline = False
    assert shards.shard_bounds(engine) is None  # something may suspend: an event loop, one process
    assert shards.shard_bounds(_engine(tmp_path, processes=2, resume="r1")) is None
    assert shards.shard_bounds(_engine(tmp_path, processes=2, executor=object())) is None
    monkeypatch.setattr(shards.threading, "active_count", lambda: 2)
    assert shards.shard_bounds(_engine(tmp_path, processes=2)) is None  # forking a threaded process is unsafe


def _rows(seq, value):
    case_row = ("r", seq, f"c{seq}", 0, "passed", 1, value, "p", None, None, 1.0, 0, None, 0.0, None)
    metric_rows = [("r", f"c{seq}", 0, 0, "m", "passed", value, 1, None, 1.0, "ok", None, None, None)]
    return case_row, metric_rows, f"out {seq}"


def test_a_spool_adopts_a_later_ranges_lines_and_tallies(tmp_path):
    whole, first = ReportSpool(), ReportSpool()
    later = first.for_range(3)
    for seq in range(6):
        whole.add(*_rows(seq, seq / 10))
        (first if seq < 3 else later).add(*_rows(seq, seq / 10))
    first.adopt(tmp_path, later.export(tmp_path))
    assert list(first.lines()) == list(whole.lines()) and first.count == 6
    assert first.in_order and first.statistics() == whole.statistics()


def test_a_spool_steps_aside_when_a_range_cannot_be_adopted(tmp_path):
    spool, later = ReportSpool(), ReportSpool(first_place=1)
    spool.add(*_rows(0, 0.5))
    later.discard()
    spool.adopt(tmp_path, later.export(tmp_path))
    assert not spool.usable  # the range's own spool gave up: the report reads the database
    spool, overlapping = ReportSpool(), ReportSpool(first_place=1)
    spool.add(*_rows(0, 0.5))
    spool.add(*_rows(1, 0.5))
    overlapping.add(*_rows(1, 0.5))
    spool.adopt(tmp_path, overlapping.export(tmp_path))
    assert not spool.usable
    before = ReportSpool(first_place=2)
    before.add(*_rows(1, 0.5))
    assert not before.usable  # a case before the spool's range


@pytest.mark.parametrize("count", [7, NORMAL_ABOVE + 50])
def test_tallies_extended_equal_tallies_counted_one_by_one(count):
    values = [(i % 5) / 4 for i in range(count)]
    one, head, tail = MetricTallies(), MetricTallies(), MetricTallies()
    for i, value in enumerate(values):
        one.add("m", "passed" if value else "failed", value, bool(value))
        (head if i < count // 3 else tail).add("m", "passed" if value else "failed", value, bool(value))
    tail.add("late", "passed", 1.0, True)
    one.add("late", "passed", 1.0, True)
    head.extend(tail)
    assert head.summary() == one.summary()
    ordered = Scores()
    for value in (0.3, 0.1, 0.2):
        ordered.add(value)
    merged = Scores()
    merged.extend(ordered)
    assert list(merged._values) == [0.3, 0.1, 0.2]  # order kept: the bootstrap's seed makes it matter


def test_a_range_stored_out_of_order_leaves_the_statistics_to_the_database(tmp_path):
    spool = ReportSpool()
    later = spool.for_range(1)
    spool.add(*_rows(0, 0.5))
    later.add(*_rows(2, 0.5))
    later.add(*_rows(1, 0.5))
    spool.adopt(tmp_path, later.export(tmp_path))
    assert spool.usable and spool.count == 3 and not spool.in_order and spool.statistics() is None


_PROGRESS = """
import os, sys, time
from agentunit.core.engine import Engine, RunOptions
from agentunit.store.sqlite import Store
from agentunit.suite import suite_from_dict
import agentunit.core.shards as shards
# Which range waits for the other: "forked" starts once this process waits for it, "first" once the forked
# range ended (a file says so: conditions, not times, so that a busy machine changes nothing).
late = sys.argv[1]
if os.path.exists("go"):
    os.remove("go")
slow = shards._run_range
def delayed(engine, run_id, jobs, stop):
    if (stop is None) == (late == "forked"):
        deadline = time.monotonic() + 60
        while not os.path.exists("go") and time.monotonic() < deadline:
            time.sleep(0.01)
    slow(engine, run_id, jobs, stop)
    if stop is None and late == "first":
        open("go", "w").close()
shards._run_range = delayed
if len(sys.argv) > 2:  # the forked range dies after counting its cases: the parent runs them again
    import os
    shards.pickle.dump = lambda *args, **kwargs: os._exit(3)
suite = suite_from_dict({"name": "p", "target": {"type": "echo"},
                         "cases": [{"id": f"c{i}", "prompt": "p", "metrics": [{"metric": "contains", "value": "p"}]}
                                   for i in range(40)]})
suite.validate()
seen = []
def progress(done, total):
    seen.append(done)
    if total is None and late == "forked":  # shown while this process waits for the forked range
        open("go", "w").close()
engine = Engine(suite, Store("p.db"), RunOptions(processes=2))
engine.on_progress = progress
result = engine.execute()
print(result.summary["passed"], seen[0], max(seen), len(seen))
"""


def _progress(tmp_path, *args):
    done = subprocess.run([sys.executable, "-c", _PROGRESS, *args], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return [int(x) for x in done.stdout.split()]


def test_the_progress_display_counts_every_ranges_cases(tmp_path):
    passed, first, last, calls = _progress(tmp_path, "first")  # last: the most shown
    assert (passed, first, last) == (40, 21, 40)  # the forked range's 20 cases were done before this one's first
    passed, first, last, calls = _progress(tmp_path, "forked")
    assert (passed, first, last) == (40, 1, 40) and calls > 21  # shown while waiting for the forked range
    passed, first, last, calls = _progress(tmp_path, "forked", "break")
    assert (passed, last) == (40, 40)  # a range run again here is not counted twice


_SLOW_RANGE = """
import time
from agentunit.core.engine import Engine, RunOptions
from agentunit.store.sqlite import Store
from agentunit.suite import suite_from_dict
import agentunit.core.shards as shards
slow = shards._run_range
def stuck(engine, run_id, jobs, stop):
    if stop is None:  # the forked range, far past the test's wait for its end
        time.sleep(600)
    slow(engine, run_id, jobs, stop)
shards._run_range = stuck
suite = suite_from_dict({"name": "k", "target": {"type": "echo"},
                         "cases": [{"id": f"c{i}", "prompt": "p", "metrics": [{"metric": "contains", "value": "p"}]}
                                   for i in range(4)]})
suite.validate()
Engine(suite, Store("k.db"), RunOptions(processes=2)).execute()
"""


def test_a_forked_range_ends_with_its_parent(tmp_path):
    import os
    import signal

    temp = tmp_path / "temp"  # where the killed run's range folder stays: not the machine's /tmp
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp)}
    parent, child = kill_once_forked(_SLOW_RANGE, cwd=tmp_path, env=env)
    ended = ends_within(child)
    if not ended:
        os.kill(child, signal.SIGKILL)  # it ran on alone: the test fails, and leaves no process behind
    assert ended
    # Its range folder is left behind (SIGKILL cannot be caught): the next split run removes it.
    (orphan,) = temp.glob("agentunit-shards-*")
    assert orphan.name.startswith(f"agentunit-shards-{parent}-")
    code = _SLOW_RANGE.replace("time.sleep(600)", "pass")
    assert subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, timeout=120).returncode == 0
    assert not orphan.exists() and not list(temp.glob("agentunit-shards-*"))


def test_the_python_api_forks_only_when_asked(tmp_path, monkeypatch, one_thread):
    from agentunit import evaluate

    split = []
    monkeypatch.setattr(shards, "usable_cpus", lambda: 2)  # the default split needs a second CPU
    monkeypatch.setattr(shards, "run_sharded",
                        lambda engine, run_id, jobs, bounds: (split.append(bounds), shards._run_range(engine, run_id,
                                                                                                      jobs, None)))
    cases = [{"id": f"c{i}", "prompt": "an item", "metrics": _CHECKS[:1]} for i in range(SHARDED_FROM)]
    suite = {"name": "api", "target": {"type": "echo"}, "cases": cases}
    assert evaluate(suite, db=tmp_path / "a.db").passed and split == []  # the caller's process is not forked
    assert evaluate(suite, db=tmp_path / "b.db", processes=None).passed and len(split) == 1


def test_metrics_that_may_keep_state_across_cases_keep_the_run_in_one_process(tmp_path, one_thread):
    from agentunit.metrics import Metric
    from agentunit.metrics.registry import register_metric, restored

    class Counting(Metric):  # a user's metric may count anything across cases
        def evaluate(self, case, trace, outcome):
            return self.result(1.0)

    assert shards.shard_bounds(_engine(tmp_path, processes=2, metrics=["is-json"])) == [5]  # agentunit's own
    budget = {"metric": "privacy_budget", "config": {"total_budget": 5}}  # spent across the run's cases
    assert shards.shard_bounds(_engine(tmp_path, processes=2, metrics=[budget])) is None
    assert shards.shard_bounds(_engine(tmp_path, processes=2, metrics=[{"metric": "python", "value": "1.0"}])) is None
    # A model-backed metric that scores without awaiting would load its model in every process.
    assert shards.shard_bounds(_engine(tmp_path, processes=2, metrics=["audio-language"])) is None
    with restored():
        register_metric("counting", Counting)
        assert shards.shard_bounds(_engine(tmp_path, processes=2, metrics=["counting"])) is None


def test_a_range_commits_at_least_four_batches_within_the_split_bounds():
    assert [shards.split_batch(n) for n in (0, 40, 400, 600, 1000, 2000, 2500, 10**6)] == \
        [100, 100, 100, 150, 250, 500, 500, 500]


def test_ranges_writing_at_once_checkpoint_the_log_more_often_in_smaller_batches(tmp_path, monkeypatch, one_thread):
    import os

    from agentunit import evaluate

    real_range = shards._run_range
    (tmp_path / "seen").mkdir()

    def recording(engine, run_id, jobs, stop):  # in this process and in the forked one
        store = engine.store
        (tmp_path / "seen" / str(os.getpid())).write_text(f"{store.checkpoint_pages()} {store.batch_size}")
        return real_range(engine, run_id, jobs, stop)

    monkeypatch.setattr(shards, "_run_range", recording)
    result = evaluate({"name": "c", "target": {"type": "echo"},
                       "cases": [{"id": f"c{i}", "prompt": "an item", "metrics": _CHECKS[:1]} for i in range(20)]},
                      db=tmp_path / "c.db", processes=2)
    seen = sorted(path.read_text() for path in (tmp_path / "seen").iterdir())
    assert result.passed and seen == [f"{shards.SPLIT_CHECKPOINT_PAGES} {shards.SPLIT_BATCH_MIN}"] * 2
    assert result.store.checkpoint_pages() == 1000  # SQLite's own, once the ranges are in
    store = Store(tmp_path / "d.db")
    assert store.checkpoint_pages(30) == 1000 and store.checkpoint_pages() == 30


def test_an_assert_set_is_split_only_when_its_children_may_be(tmp_path, one_thread):
    """An assert-set scores its children in the process it runs in: one that keeps state across cases
    (a privacy budget) or one backed by a model keeps the run in one process, as it would on its own."""
    def assert_set(*children):
        return {"metric": "assert-set", "assert": list(children)}

    contains = {"metric": "contains", "value": "item"}
    budget = {"metric": "privacy_budget", "config": {"total_budget": 5}}
    assert shards.shard_bounds(_engine(tmp_path, processes=2, metrics=[assert_set(contains, "is-json")])) == [5]
    assert shards.shard_bounds(_engine(tmp_path, processes=2, metrics=[assert_set(contains, budget)])) is None
    assert shards.shard_bounds(_engine(tmp_path, processes=2,
                                       metrics=[assert_set(assert_set(contains, "audio-language"))])) is None


def _resident_runs(tmp_path: Path, name: str) -> int:
    """How many ranges of run ``name`` the resident helper that validated them ran (agentunit.suite.split)."""
    path = tmp_path / f"{name}.residents"
    return len(path.read_text()) if path.exists() else 0


def test_the_helpers_that_validated_the_ranges_run_them(tmp_path):
    _suite_file(tmp_path)
    _run(tmp_path, "one", 1)
    assert _run(tmp_path, "three", 3) == (2, 1, 2) and _resident_runs(tmp_path, "three") == 2
    assert _stored(tmp_path / "three.db") == _stored(tmp_path / "one.db")
    assert _report(tmp_path / "three.json") == _report(tmp_path / "one.json")
    # A range its helper could not keep (spooled past the limit of cases kept in memory) is forked and replayed.
    assert _run(tmp_path, "spooled", 3, env={"SPOOLED": "1"}) == (2, 1, 2) and _resident_runs(tmp_path, "spooled") == 0
    assert _stored(tmp_path / "spooled.db") == _stored(tmp_path / "one.db")


def test_a_resident_helper_gone_before_its_order_leaves_its_range_to_a_forked_process(tmp_path):
    _suite_file(tmp_path)
    _run(tmp_path, "one", 1)
    assert _run(tmp_path, "gone", 2, env={"RESIDENT_GONE": "1"}) == (1, 1, 1)
    assert _resident_runs(tmp_path, "gone") == 0
    assert _stored(tmp_path / "gone.db") == _stored(tmp_path / "one.db")
    assert _report(tmp_path / "gone.json") == _report(tmp_path / "one.json")


class _Resident:
    def __init__(self):
        self.dismissed = False

    def dismiss(self):
        self.dismissed = True


class _Kept:
    """A suite's side of resident helpers, for ``shards._residents``."""

    def __init__(self, starts):
        self.range_starts, self.ranges = starts, {start: _Resident() for start in starts}

    def resident_ranges(self):
        return self.ranges


class EchoTarget:  # what the check looks at: the echo target's kind
    kind = "echo"


@pytest.mark.parametrize(("bounds", "counts", "judged", "target", "used"), [
    ([5], None, False, None, True),  # recorded outputs
    ([5], None, False, EchoTarget(), True),
    ([5], object(), False, None, False),  # a progress display counts every range's cases in shared memory
    ([5], None, True, None, False),  # the run set a judge up: a helper has none
    ([4], None, False, None, False),  # the ranges are not the helpers'
    ([5], None, False, object(), False),  # a target the helper would build again (the author's code)
])
def test_resident_helpers_run_only_the_ranges_they_hold_when_they_can(bounds, counts, judged, target, used):
    suite = _Kept([5])
    engine = type("E", (), {"suite": suite, "_judged": judged, "target": target})()
    taken = shards._residents(engine, bounds, counts)
    assert (taken == suite.ranges) == used
    assert all(r.dismissed for r in suite.ranges.values()) == (not used)


def test_a_run_that_is_not_split_lets_the_resident_helpers_go(tmp_path, one_thread):
    import os

    suite = suite_from_dict({"name": "b", "target": {"type": "echo"},
                             "cases": [{"id": f"c{i}", "prompt": "p", "metrics": _CHECKS[:1]} for i in range(40)]})
    suite.validate(processes=2, resident=True)
    pid = suite._residents[0].pid
    engine = Engine(suite, Store(tmp_path / "b.db"), RunOptions(processes=1))
    assert engine.execute().summary["cases"] == 40  # its range replayed from the helper's spool
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_only_the_range_folders_of_ended_processes_are_removed(tmp_path, monkeypatch):
    import os
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = int(ended.stdout)
    folders = {name: tmp_path / name for name in (f"agentunit-shards-{dead}-abc", "agentunit-shards-1-abc",
                                                   f"agentunit-shards-{os.getpid()}-abc", "agentunit-shards-xyz12",
                                                   f"other-{dead}-abc")}
    folders["agentunit-shards-424242-abc"] = tmp_path / "agentunit-shards-424242-abc"  # another user's, alive
    for folder in folders.values():
        (folder / "5").mkdir(parents=True)
    real_kill = os.kill

    def kill(pid, signal):
        if pid == 424242:
            raise PermissionError(1, "Operation not permitted")
        return real_kill(pid, signal)

    monkeypatch.setattr(shards.os, "kill", kill)
    # A link named as an ended run's folder (anyone may make one in a shared /tmp): neither it nor its target goes.
    target = tmp_path / "someone's files"
    (target / "inside").mkdir(parents=True)
    (target / "inside" / "kept.txt").write_text("kept")
    (tmp_path / f"agentunit-shards-{dead}-link").symlink_to(target, target_is_directory=True)
    shards._remove_orphans()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        set(folders) - {f"agentunit-shards-{dead}-abc"} | {"someone's files", f"agentunit-shards-{dead}-link"})
    assert (target / "inside" / "kept.txt").read_text() == "kept"


def test_an_ended_runs_folder_of_another_user_is_left_alone(tmp_path, monkeypatch):
    import os
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    (tmp_path / f"agentunit-shards-{ended.stdout.strip()}-abc" / "5").mkdir(parents=True)
    other_user = os.getuid() + 1
    monkeypatch.setattr(shards.os, "getuid", lambda: other_user)  # as seen by another user
    shards._remove_orphans()
    assert [p.name for p in tmp_path.iterdir()] == [f"agentunit-shards-{ended.stdout.strip()}-abc"]
