"""Schema and sanity checks of the text, RAG and select-best labelled sets in tests/data/labelled (the agent and
conversation sets there have their own tests) and of the split fields of the older development
sets: every row valid for its metric, the split fixed by (set, group), labels balanced within each
split, enough groups per split, computable form facts agreeing with the label, and the committed
files equal to what their builders produce."""

from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from agentunit.metrics import create_metric

DATA = Path(__file__).resolve().parent / "data"
LABELLED = DATA / "labelled"
sys.path.insert(0, str(DATA))

import build_labelled_rag  # noqa: E402
import build_labelled_select_best  # noqa: E402
import build_labelled_text  # noqa: E402
from splits import split_of  # noqa: E402

NAMES = ["llm_rubric", "g_eval", "factuality", "answer_correctness", "rag_halueval", "rag_handwritten", "select_best"]
SETS = [LABELLED / f"{name}.jsonl" for name in NAMES]
OLD_SETS = ["llm_rubric_dev", "factuality_dev", "g_eval_dev", "rag_dev", "rag_compound_dev", "rag_negation_dev",
            "rag_swap_dev", "retrieval_dev", "ranking_dev"]
VALUE_KEY = {"llm-rubric": "rubric", "g-eval": "criteria", "factuality": "reference", "answer_correctness": "expected",
             "context-recall": "expected", "select-best": "criteria"}
COMPARATIVE = {"select-best"}  # one label-1 row (the best candidate) per group instead of balanced labels
NEEDS_CONTEXT = {"context-faithfulness", "context-recall", "context-relevance", "retrieval_quality"}
NEEDS_QUERY = {"context-relevance", "answer-relevance", "retrieval_quality", "answer_correctness", "factuality"}
SOURCES = {"handwritten", "halueval-qa", "halueval-summarization"}
COMMON = ("id", "set", "group", "split", "metric", "label", "kind", "source", "query", "output")


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture(scope="module")
def labelled() -> dict[str, list[dict]]:
    return {path.name: _rows(path) for path in SETS}


def test_the_labelled_sets_exist():
    assert [p.name for p in SETS if not p.is_file()] == []


def test_every_row_is_valid_for_its_metric(labelled):
    for name, rows in labelled.items():
        for row in rows:
            where = f"{name}: {row.get('id')}"
            assert all(key in row for key in COMMON), where
            assert row["label"] in (0, 1) and row["source"] in SOURCES and row["kind"], where
            assert isinstance(row["output"], str) and row["output"].strip(), where
            metric = row["metric"]
            key = VALUE_KEY.get(metric)
            if key:
                assert isinstance(row[key], str) and row[key].strip(), where
            if metric in NEEDS_CONTEXT:
                assert row["context"] and all(isinstance(c, str) and c.strip() for c in row["context"]), where
            if metric in NEEDS_QUERY:
                assert isinstance(row["query"], str) and row["query"].strip(), where
            create_metric(metric, value=row[key] if key else None)  # a name or value the bench cannot use fails here


def test_ids_are_unique_and_sets_are_named_once(labelled):
    ids = Counter(row["id"] for rows in labelled.values() for row in rows)
    assert [i for i, n in ids.items() if n > 1] == []
    for name, rows in labelled.items():
        assert len({row["set"] for row in rows}) == 1, name


def test_the_split_follows_from_set_and_group_only(labelled):
    for rows in labelled.values():
        splits = defaultdict(set)
        for row in rows:
            assert row["split"] == split_of(row["set"], row["group"]), row["id"]
            splits[row["group"]].add(row["split"])
        assert all(len(s) == 1 for s in splits.values())  # paired rows never straddle the split


def test_labels_are_balanced_within_each_split_and_group(labelled):
    for name, rows in labelled.items():
        rows = [row for row in rows if row["metric"] not in COMPARATIVE]
        per_split = Counter((row["metric"], row["split"], row["label"]) for row in rows)
        per_group = Counter((row["metric"], row["group"], row["label"]) for row in rows)
        for (metric, split, _), count in per_split.items():
            assert per_split[(metric, split, 0)] == per_split[(metric, split, 1)] == count, (name, metric, split)
        for (metric, group, _), count in per_group.items():
            assert per_group[(metric, group, 0)] == per_group[(metric, group, 1)] == count, (name, group)


def test_each_metric_has_enough_groups_per_split_and_rows(labelled):
    groups = defaultdict(set)
    rows_per_metric = Counter()
    for rows in labelled.values():
        for row in rows:
            groups[(row["metric"], row["split"])].add((row["set"], row["group"]))
            rows_per_metric[row["metric"]] += 1
    for (metric, split), members in groups.items():
        assert len(members) >= 40, (metric, split, len(members))
    for metric in ("llm-rubric", "g-eval", "factuality", "answer_correctness", "context-faithfulness"):
        assert rows_per_metric[metric] >= 200, metric
    for metric in ("context-recall", "context-relevance", "answer-relevance", "retrieval_quality"):
        assert rows_per_metric[metric] >= 160, metric


def test_computable_form_facts_agree_with_the_label(labelled):
    checked = 0
    for row in labelled["llm_rubric.jsonl"]:
        holds = build_labelled_text.form_holds(row["kind"], row["rubric"], row["output"])
        if holds is not None:
            assert holds == bool(row["label"]), row["id"]
            checked += 1
    assert checked >= 40


def test_the_committed_sets_are_what_the_builders_produce(labelled):
    built = {name: build() for name, build in build_labelled_text.BUILDERS.items()}
    built["rag_handwritten.jsonl"] = build_labelled_rag.handwritten_rows()
    built["select_best.jsonl"] = build_labelled_select_best.select_best_rows()
    for name, rows in built.items():
        assert rows == labelled[name], name


def test_halueval_rows_pair_a_right_and_a_hallucinated_answer(labelled):
    by_group = defaultdict(list)
    for row in labelled["rag_halueval.jsonl"]:
        by_group[row["group"]].append(row)
    assert len(by_group) == (build_labelled_rag.QA_YES_NO + build_labelled_rag.QA_SPAN + build_labelled_rag.QA_OWN_WORDS
                             + build_labelled_rag.SUMMARIES)
    for group, rows in by_group.items():
        assert sorted(r["label"] for r in rows) == [0, 1], group
        assert rows[0]["context"] == rows[1]["context"] and rows[0]["output"] != rows[1]["output"], group
        assert rows[0]["source"] == ("halueval-qa" if group.startswith("qa-") else "halueval-summarization"), group


def _select_best_groups(labelled) -> dict[str, list[dict]]:
    groups = defaultdict(list)
    for row in labelled["select_best.jsonl"]:
        groups[row["group"]].append(row)
    return groups


def test_each_select_best_group_is_one_test_with_one_best_candidate(labelled):
    groups = _select_best_groups(labelled)
    for group, rows in groups.items():
        assert 2 <= len(rows) <= 4, group
        assert sorted(r["label"] for r in rows) == [0] * (len(rows) - 1) + [1], group
        assert [r["id"] for r in rows] == [f"select-best/{group}/{n}" for n in range(len(rows))], group
        assert len({r["criteria"] for r in rows}) == len({r["kind"] for r in rows}) == 1, group
        assert len({r["output"] for r in rows}) == len(rows), group
    handwritten = [g for g, rows in groups.items() if "from" not in rows[0]]
    assert len(handwritten) >= 30 and len({groups[g][0]["kind"] for g in handwritten}) >= 6
    for split in ("tune", "test"):  # the best candidate is shown first in some groups, later in others
        firsts = [groups[g][0]["label"] for g in groups if groups[g][0]["split"] == split]
        assert 0.3 < sum(firsts) / len(firsts) < 0.7, split


def test_select_best_groups_from_llm_rubric_keep_its_split(labelled):
    rubric = {}
    for row in labelled["llm_rubric.jsonl"]:
        if row["kind"] not in build_labelled_select_best.LATER_RUBRIC_KINDS:  # added after select-best was measured
            rubric.setdefault(row["group"], []).append(row)
    derived = [rows for rows in _select_best_groups(labelled).values() if "from" in rows[0]]
    assert len(derived) == len(rubric) == 125
    for rows in derived:
        source = rubric[rows[0]["from"].removeprefix("llm-rubric/")]
        assert rows[0]["split"] == source[0]["split"] and rows[0]["criteria"] == source[0]["rubric"], rows[0]["id"]
        best = next(r["output"] for r in rows if r["label"])
        assert best == next(r["output"] for r in source if r["label"]), rows[0]["id"]
        assert {r["output"] for r in rows} == {r["output"] for r in source}, rows[0]["id"]


def test_select_best_baselines_are_near_chance():
    sys.path.insert(0, str(LABELLED))
    import baselines

    rows = _rows(LABELLED / "select_best.jsonl")
    for split in ("tune", "test"):
        base = baselines.select_best_baselines([r for r in rows if r["split"] == split])
        assert max(base.values()) < 0.7, (split, base)


@pytest.mark.parametrize("name", OLD_SETS)
def test_the_older_sets_carry_their_split(name):
    for row in _rows(DATA / f"{name}.jsonl"):
        assert row["split"] == split_of(name, row["group"]), row
        assert row["group"] == (row.get("query") or row.get("rubric") or row.get("criteria"))


def test_the_readme_reports_the_current_baselines():
    sys.path.insert(0, str(LABELLED))
    import baselines

    readme = (LABELLED / "README.md").read_text()
    lines = [line for name in [*baselines.NEW_SETS, *baselines.OLD_SETS] for line in baselines.report(name)]
    lines += baselines.select_best_report()
    assert lines and [line for line in lines if line not in readme] == []
