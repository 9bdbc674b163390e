"""compare_runs and resolve_run on databases written through the Store."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from agentunit.metrics.base import MetricResult
from agentunit.stats import (
    UnknownRunError,
    compare_runs,
    krippendorff_alpha,
    mcnemar_exact,
    metric_summary,
    paired_bootstrap_p,
    repeat_statistics,
    resolve_run,
    wilcoxon_p,
    wilson_interval,
)
from agentunit.store.sqlite import Store

scipy_stats = pytest.importorskip("scipy.stats")


def _write_run(store: Store, run_id: str, started: str, cases: dict[tuple[str, int], list[MetricResult]]) -> None:
    store.start_run(run_id, suite="s", suite_path=None, suite_hash=None, started_at=started, options={}, target=None)
    for seq, ((case_id, repeat), metrics) in enumerate(cases.items()):
        verdicts = [m.passed for m in metrics if m.passed is not None]
        passed = bool(verdicts) and all(verdicts)
        store.add_case(run_id, seq, case_id, repeat, status="passed" if passed else "failed", passed=passed,
                       score=None, prompt="p", output="o", error=None, latency_ms=1.0, cached=False, envelope=None,
                       metrics=metrics)
    store.mark_run(run_id, "completed", finished_at=started)


def _contains(passed: bool) -> MetricResult:
    return MetricResult("contains", 1.0 if passed else 0.0, passed=passed)


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "r.db"
    store = Store(path)
    before = {("ok", 0): [_contains(True)], ("fixed", 0): [_contains(False)], ("gone", 0): [_contains(True)],
              ("still", 0): [_contains(False)]}
    before.update({(f"b{i}", 0): [_contains(True)] for i in range(8)})
    after = {("ok", 0): [_contains(True)], ("fixed", 0): [_contains(True)], ("new", 0): [_contains(False)],
             ("still", 0): [_contains(False)]}
    after.update({(f"b{i}", 0): [_contains(False)] for i in range(8)})
    _write_run(store, "run-old", "2026-01-01T00:00:00+00:00", before)
    _write_run(store, "run-new", "2026-01-02T00:00:00+00:00", after)
    store.close()
    return path


def test_cases_are_classified_and_a_significant_drop_regresses(db):
    result = compare_runs(db, "latest~1", "latest")
    assert (result["a"], result["b"]) == ("run-old", "run-new")
    assert result["cases"] == {"fixed": ["fixed"], "broken": [f"b{i}" for i in range(8)], "still_failing": ["still"],
                               "added": ["new"], "removed": ["gone"]}
    m = result["metrics"]["contains"]
    assert m["test"] == "mcnemar_exact" and (m["broken"], m["fixed"], m["pairs"]) == (8, 1, 11)
    assert m["p_value"] == mcnemar_exact(8, 1) == pytest.approx(20 / 512)
    assert m["a"]["n"] == 12 and m["a"]["pass_rate"] == 10 / 12
    assert m["a"]["ci"] == list(wilson_interval(10, 12)) and m["b"]["ci"] == list(wilson_interval(2, 12))
    assert m["delta"] == pytest.approx(2 / 12 - 10 / 12)
    assert m["regressed"] and result["regressed"] == ["contains"] and result["overall"]["regressed"]
    assert "score" not in m  # 0/1 values of a pass/fail metric get no second test
    # the same comparison at a stricter level is not significant; the reverse direction is an improvement
    assert compare_runs(db, "run-old", "run-new", level=0.01)["regressed"] == []
    assert compare_runs(db, "run-new", "run-old")["regressed"] == []


def test_run_names(db):
    assert resolve_run(db, "latest") == "run-new"
    assert resolve_run(db, "latest~1") == "run-old"
    assert resolve_run(db, "run-o") == "run-old"  # a unique prefix
    for bad in ("latest~2", "nope", "latest~x", "run-"):
        with pytest.raises(UnknownRunError) as info:
            resolve_run(db, bad)
        assert "recent runs" in str(info.value) and "run-new" in str(info.value)


def test_missing_database_is_a_clear_error(tmp_path):
    from agentunit.errors import AgentUnitError

    with pytest.raises(AgentUnitError, match="no results database"):
        compare_runs(tmp_path / "none.db", "latest~1", "latest")
    assert not (tmp_path / "none.db").exists()  # read only: nothing created


def _scored_db(path, shift: float, name: str = "similarity", repeats: int = 1):
    rng = random.Random(5)
    store = Store(path)
    a, b = {}, {}
    for i in range(40):
        for r in range(repeats):
            x = rng.random()
            y = min(1.0, max(0.0, x + shift + rng.gauss(0, 0.05)))
            a[(f"c{i}", r)] = [MetricResult(name, x, passed=x >= 0.5, threshold=0.5)]
            b[(f"c{i}", r)] = [MetricResult(name, y, passed=y >= 0.5, threshold=0.5)]
    _write_run(store, "A", "2026-01-01T00:00:00+00:00", a)
    _write_run(store, "B", "2026-01-02T00:00:00+00:00", b)
    store.close()
    return a, b


def test_scores_get_a_paired_test_equal_to_scipys_wilcoxon(tmp_path):
    a, b = _scored_db(tmp_path / "s.db", -0.1)
    xs = [a[k][0].value for k in a]
    ys = [b[k][0].value for k in a]
    result = compare_runs(tmp_path / "s.db", "A", "B")
    score = result["metrics"]["similarity"]["score"]
    assert score["test"] == "wilcoxon_signed_rank"
    assert score["p_value"] == wilcoxon_p(xs, ys) == pytest.approx(scipy_stats.wilcoxon(ys, xs).pvalue, rel=1e-9)
    assert score["delta"] == pytest.approx(sum(ys) / 40 - sum(xs) / 40)
    assert score["regressed"] and "similarity" in result["regressed"]
    boot = compare_runs(tmp_path / "s.db", "A", "B", score_test="bootstrap")["metrics"]["similarity"]["score"]
    assert boot["test"] == "paired_bootstrap" and boot["p_value"] == paired_bootstrap_p(xs, ys)
    assert compare_runs(tmp_path / "s.db", "B", "A")["metrics"]["similarity"]["score"]["regressed"] is False


def test_lower_is_better_metrics_regress_when_they_rise(tmp_path):
    store = Store(tmp_path / "l.db")
    a = {(f"c{i}", 0): [MetricResult("latency", 100.0 + i)] for i in range(30)}  # informational: no verdict
    b = {(f"c{i}", 0): [MetricResult("latency", 180.0 + i)] for i in range(30)}
    _write_run(store, "A", "2026-01-01T00:00:00+00:00", a)
    _write_run(store, "B", "2026-01-02T00:00:00+00:00", b)
    store.close()
    m = compare_runs(tmp_path / "l.db", "A", "B")["metrics"]["latency"]
    assert m["direction"] == "lower" and m["test"] == "wilcoxon_signed_rank" and m["delta"] == pytest.approx(80)
    assert m["regressed"] and m["a"]["pass_rate"] is None and m["a"]["mean_score"] == pytest.approx(114.5)
    assert not compare_runs(tmp_path / "l.db", "B", "A")["metrics"]["latency"]["regressed"]


def test_repeats_pair_by_attempt_and_name_it(tmp_path):
    _scored_db(tmp_path / "r.db", 0.0, repeats=2)
    result = compare_runs(tmp_path / "r.db", "A", "B")
    assert result["repeats"] is True
    labels = [x for ids in result["cases"].values() for x in ids]
    assert labels and all("#" in x for x in labels)
    assert result["metrics"]["similarity"]["a"]["n"] == 80


def test_metric_summary_and_repeat_statistics_from_the_store(tmp_path):
    _scored_db(tmp_path / "m.db", 0.0, repeats=3)
    store = Store(tmp_path / "m.db")
    rows = list(store.metric_values("A"))
    summary = metric_summary(rows)["similarity"]
    passed = sum(1 for *_, p in rows if p)
    assert summary["n"] == 120 and summary["passed"] == passed and summary["ci"] == list(wilson_interval(passed, 120))
    values = [v for *_, v, _p in rows]
    assert summary["mean_score"] == pytest.approx(sum(values) / 120)
    lo, hi = summary["score_ci"]
    assert lo < summary["mean_score"] < hi
    cases = list(store.iter_cases("A"))
    assert metric_summary(cases) == metric_summary(rows)  # case dicts (iter_cases) give the same summary
    stats = repeat_statistics(cases)
    assert stats == repeat_statistics(SimpleNamespace(store=store, run_id="A"))  # a run result reads the store
    assert stats["cases"] == 40 and stats["agreement"]["similarity"]["units"] == 40
    flaky = {c["id"] for c in cases if 0 < sum(x["passed"] for x in cases if x["id"] == c["id"]) < 3}
    assert set(stats["flaky"]) == flaky and stats["rate"] == len(flaky) / 40
    verdicts = {}
    for c in cases:
        verdicts.setdefault(c["id"], []).append(c["metrics"][0]["passed"])
    assert stats["agreement"]["similarity"]["alpha"] == krippendorff_alpha(verdicts.values())
    store.close()
