"""Writers sharing one SQLite file (the ranges of a split run): a full batch waits for no other writer, a
flush that must write polls the lock every 0.2 ms instead of SQLite's busy handler, and gives up after
BUSY_TIMEOUT_S with the rows kept."""

import sqlite3
import threading

import pytest

from agentunit.metrics.base import MetricResult
from agentunit.store import sqlite as store_module
from agentunit.store.sqlite import Store


def _add(store, seq):
    store.add_case("run1", seq, f"c{seq}", 0, status="passed", passed=True, score=1.0, prompt="p", output="o",
                   error=None, latency_ms=1.0, cached=False, envelope=None,
                   metrics=[MetricResult("contains", 1.0, passed=True)])


def _stored(path):
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT COUNT(*) FROM case_results").fetchone()[0]


@pytest.fixture
def store(tmp_path):
    store = Store(tmp_path / "r.db", batch_size=2, flush_interval=3600)
    store.start_run("run1", suite="s", suite_path=None, suite_hash=None, started_at="t", options={}, target=None)
    yield store
    store.close()


@pytest.fixture
def other_writer(tmp_path, store):
    """Another process's connection holding the database's write lock."""
    conn = sqlite3.connect(tmp_path / "r.db", isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    yield conn
    if conn.in_transaction:
        conn.execute("COMMIT")
    conn.close()


def test_a_full_batch_is_kept_while_another_process_writes_and_written_with_a_later_case(store, other_writer,
                                                                                          tmp_path, monkeypatch):
    slept = []
    monkeypatch.setattr(store_module.time, "sleep", slept.append)
    for seq in range(3):  # batch size 2: the batch is full at the second case, and at the third
        _add(store, seq)
    assert slept == [] and len(store._cases) == 3 and _stored(tmp_path / "r.db") == 0  # the run went on
    other_writer.execute("COMMIT")
    _add(store, 3)
    assert store._cases == [] and _stored(tmp_path / "r.db") == 4


def test_a_flush_that_must_write_polls_the_lock_until_it_is_free(store, other_writer, tmp_path, monkeypatch):
    polls = []

    def sleep(seconds):
        polls.append(seconds)
        if len(polls) == 3:
            other_writer.execute("COMMIT")

    monkeypatch.setattr(store_module.time, "sleep", sleep)
    _add(store, 0)
    store.flush()
    assert polls == [store_module._LOCK_POLL_S] * 3 and _stored(tmp_path / "r.db") == 1
    # SQLite's own wait is back for every other statement
    assert store.conn.execute("PRAGMA busy_timeout").fetchone()[0] == store_module.BUSY_TIMEOUT_S * 1000


def test_a_lock_held_past_the_timeout_is_the_locked_error_with_the_rows_kept(store, other_writer, tmp_path,
                                                                            monkeypatch):
    clock = iter(range(0, 1000, 10))  # ten seconds a poll
    monkeypatch.setattr(store_module.time, "monotonic", lambda: next(clock))
    monkeypatch.setattr(store_module.time, "sleep", lambda seconds: None)
    _add(store, 0)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        store.flush()
    assert len(store._cases) == 1 and not store.conn.in_transaction
    assert store.conn.execute("PRAGMA busy_timeout").fetchone()[0] == store_module.BUSY_TIMEOUT_S * 1000
    other_writer.execute("COMMIT")
    store.flush()
    assert _stored(tmp_path / "r.db") == 1


def test_two_connections_writing_in_turn_lose_no_row(tmp_path):
    path = tmp_path / "r.db"
    stores = [Store(path, batch_size=7, flush_interval=3600) for _ in range(2)]
    stores[0].start_run("run1", suite="s", suite_path=None, suite_hash=None, started_at="t", options={},
                        target=None)

    def write(store, first):
        for seq in range(first, first + 500):
            _add(store, seq)
        store.flush()

    threads = [threading.Thread(target=write, args=(store, 500 * k)) for k, store in enumerate(stores)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for store in stores:
        store.close()
    assert _stored(path) == 1000


def test_a_long_wait_polls_ever_less_often(store, other_writer, monkeypatch):
    pauses, clock = [], iter(range(0, 10_000, 5))  # 5 ms a poll

    def sleep(seconds):
        pauses.append(seconds)
        if len(pauses) == 12:
            other_writer.execute("COMMIT")

    monkeypatch.setattr(store_module.time, "monotonic", lambda: next(clock) / 1000)
    monkeypatch.setattr(store_module.time, "sleep", sleep)
    _add(store, 0)
    store.flush()
    fast, longest = store_module._LOCK_POLL_S, store_module._LOCK_POLL_MAX_S
    # 0.2 ms for the first 10 ms of waiting, then doubling, never past the longest pause
    assert pauses[:3] == [fast] * 3 and pauses[3:7] == [fast * 2, fast * 4, fast * 8, fast * 16]
    assert pauses[-1] == longest and max(pauses) == longest


class _InterruptedOnceLocked:
    """The store's connection, interrupted (Ctrl-C) just after it took the write lock."""

    def __init__(self, conn):
        self._conn = conn

    def __getattr__(self, name):
        return getattr(self._conn, name)

    def execute(self, sql, *args):
        result = self._conn.execute(sql, *args)
        if sql.startswith("PRAGMA busy_timeout=") and self._conn.in_transaction:
            raise KeyboardInterrupt
        return result


def test_an_interrupt_just_after_the_lock_was_taken_leaves_no_transaction_open(store, tmp_path):
    real = store.conn
    store.conn = _InterruptedOnceLocked(real)
    _add(store, 0)
    with pytest.raises(KeyboardInterrupt):
        store.flush()
    store.conn = real
    assert not real.in_transaction and len(store._cases) == 1
    store.flush()
    assert _stored(tmp_path / "r.db") == 1


def test_the_flush_interval_counts_from_the_last_commit_not_from_a_put_off_one(tmp_path, monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(store_module.time, "monotonic", lambda: clock[0])
    store = Store(tmp_path / "r.db", batch_size=1000, flush_interval=10)
    store.start_run("run1", suite="s", suite_path=None, suite_hash=None, started_at="t", options={}, target=None)
    stored = []
    for at, seq in ((105, 0), (111, 1), (115, 2), (122, 3)):
        clock[0] = at
        _add(store, seq)
        stored.append(_stored(tmp_path / "r.db"))
    assert stored == [0, 2, 2, 4]  # committed at 111, then not before 121
    other = sqlite3.connect(tmp_path / "r.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    clock[0] = 133
    _add(store, 4)  # its interval is over, but another process writes: put off
    other.execute("COMMIT")
    other.close()
    clock[0] = 134
    _add(store, 5)  # tried again with the next case, not an interval later
    assert _stored(tmp_path / "r.db") == 6
    store.close()
