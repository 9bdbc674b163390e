"""A large suite's validated cases are kept in a spool the run replays, instead of reading the suite again.

The replayed cases must be the cases reading the suite again would build: same fields, same metrics
(kept instances, or rebuilt from the arguments they were built from); whatever the spool cannot keep
exactly makes it step aside, and the suite is read again.
"""

import asyncio
import dataclasses
import json
import textwrap

import pytest

import agentunit.suite.model as model
from agentunit.core.engine import Engine, RunOptions
from agentunit.errors import SuiteError
from agentunit.store.sqlite import Store
from agentunit.suite import load_suite
from agentunit.suite.replay import CaseSpool


@pytest.fixture
def small_limits(monkeypatch):
    monkeypatch.setattr(model, "KEEP_VALIDATED_CASES", 3)
    monkeypatch.setattr(CaseSpool, "INTERN_MAX", 4)


def _suite(tmp_path, cases, head="target: {type: echo}\n", name="c.jsonl"):
    (tmp_path / name).write_text("".join(json.dumps(c) + "\n" for c in cases))
    path = tmp_path / "s.yaml"
    path.write_text(textwrap.dedent(head) + f"cases_file: {name}\n")
    return path


def _cases(n):
    return [{"id": f"c{i}", "prompt": f"Answer: item {i}", "vars": {"n": i, "xs": [i, "é"]},
             "metadata": {"k": {"deep": [1.5, None, True]}}, "expected_output": f"item {i}",
             "metrics": [{"metric": "contains", "value": f"item {i}"}, {"metric": "regex", "value": r"\d+"},
                         {"metric": "starts-with", "value": "Answer:", "weight": 2}, "equals"]}
            for i in range(n)]


def _metric_state(metric):
    own = {k: v for k, v in vars(metric).items() if k != "_agentunit_recipe"}
    return type(metric), repr(sorted(own.items()))


def _same_cases(replayed, read_again):
    assert len(replayed) == len(read_again)
    for a, b in zip(replayed, read_again, strict=True):
        for f in dataclasses.fields(a):
            left, right = getattr(a, f.name), getattr(b, f.name)
            if f.name == "metrics":
                assert [_metric_state(m) for m in left] == [_metric_state(m) for m in right]
            else:
                assert left == right and type(left) is type(right), (a.id, f.name)


def test_a_large_suite_is_replayed_from_its_spool_as_read_again(tmp_path, small_limits):
    path = _suite(tmp_path, _cases(20), head="""
        target: {type: echo}
        metrics: [{metric: latency, threshold: 5000}]
        defaults: {tools: [{name: t}], context: [a, b]}
        """)
    suite = load_suite(path)
    assert suite.validate() == 20
    assert suite._validated is None and suite._spooled is not None and suite._spooled.count == 20
    replayed = list(suite.iter_cases())
    assert list(suite.iter_cases())[5].id == "c5"  # every iteration reads the spool from its start
    fresh = load_suite(path)
    _same_cases(replayed, [case for case, _ in fresh._located_cases()])
    # The suite-wide metric is the suite's own instance in every case.
    assert all(case.metrics[0] is suite.suite_metrics[0] for case in replayed)


def test_a_replayed_suite_runs_as_one_read_again(tmp_path, small_limits):
    path = _suite(tmp_path, _cases(12))
    results = []
    for spooled in (True, False):
        suite = load_suite(path)
        suite.validate(require_target=True)
        if not spooled:
            suite._drop_spool()  # the run reads the suite again
        assert (suite._spooled is not None) is spooled
        store = Store(tmp_path / f"{spooled}.db")
        result = asyncio.run(Engine(suite, store, RunOptions(concurrency=3)).run())
        results.append([(c["id"], c["status"], [(m["metric"], m["passed"], m["reason"]) for m in c["metrics"]])
                        for c in result.iter_cases()])
        store.close()
    assert results[0] == results[1] and len(results[0]) == 12


def test_a_value_the_spool_cannot_keep_exactly_leaves_the_suite_to_be_read_again(tmp_path, small_limits):
    # A YAML date is not plain data: the spool steps aside and the run reads the cases file again.
    (tmp_path / "c.yaml").write_text("".join(f"- {{id: c{i}, prompt: p{i}, vars: {{day: 2026-12-0{i % 9 + 1}}}}}\n"
                                             for i in range(8)))
    path = tmp_path / "s.yaml"
    path.write_text("target: {type: echo}\nmetrics: [{metric: contains, value: p}]\ncases_file: c.yaml\n")
    suite = load_suite(path)
    assert suite.validate() == 8
    assert suite._spooled is None and suite._validated is None
    assert [c.vars["day"].day for c in suite.iter_cases()] == [i % 9 + 1 for i in range(8)]


def test_a_suite_with_problems_keeps_no_spool(tmp_path, small_limits):
    cases = _cases(10)
    cases[7]["metrics"] = [{"metric": "regex", "value": "("}]
    suite = load_suite(_suite(tmp_path, cases))
    with pytest.raises(SuiteError, match="invalid regular expression"):
        suite.validate()
    assert suite._spooled is None


def test_the_run_replays_what_was_validated_even_if_the_file_changes_after(tmp_path, small_limits):
    path = _suite(tmp_path, _cases(6))
    suite = load_suite(path)
    suite.validate()
    (tmp_path / "c.jsonl").write_text('{"id": "other", "prompt": "x", "metrics": [{"metric": "nope"}]}\n')
    assert [c.id for c in suite.iter_cases()] == [f"c{i}" for i in range(6)]


def test_metrics_past_the_kept_ones_are_rebuilt_once_per_entry_and_calibrated_copies_are_kept(tmp_path):
    spool = CaseSpool()
    spool.INTERN_MAX = 0
    suite = load_suite(_suite(tmp_path, _cases(5)))
    suite.validate()
    built = list(suite.iter_cases())
    assert all(spool.add(case) for case in built)
    replayed = list(spool)
    _same_cases(replayed, built)
    assert replayed[1].metrics[1] is replayed[3].metrics[1]  # one regex entry, built once on replay

    class Wrapper:  # a wrapper (as a calibrated metric is) has no recipe of its own
        def __init__(self, inner):
            self._inner = inner

        def __getattr__(self, name):
            return getattr(self._inner, name)

    wrapped = dataclasses.replace(built[0], metrics=[Wrapper(built[0].metrics[0])])
    assert spool.add(wrapped) is False
    spool.close()


def test_a_spooled_suite_pickles_without_its_spool(tmp_path, small_limits):
    import pickle

    suite = load_suite(_suite(tmp_path, _cases(8)))
    suite.validate()
    assert suite._spooled is not None
    copy = pickle.loads(pickle.dumps(suite))  # as the Ray executor sends it to its workers
    assert copy._spooled is None and suite._spooled is not None
    assert [c.id for c in copy.iter_cases()] == [c.id for c in suite.iter_cases()]


def test_a_replay_from_a_later_case_passes_over_the_earlier_ones(tmp_path, small_limits):
    suite = load_suite(_suite(tmp_path, _cases(12)))
    suite.validate()
    assert suite._spooled is not None
    _same_cases(list(suite.iter_cases(5)), list(suite.iter_cases())[5:])
    assert [case.id for case in suite.iter_cases(11)] == ["c11"] and list(suite.iter_cases(12)) == []
    suite._drop_spool()  # read again from the file: the same cases
    assert [case.id for case in suite.iter_cases(10)] == ["c10", "c11"]
