from pathlib import Path

from agentunit.metrics.docs import render_reference

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_metric_reference_is_up_to_date():
    assert (DOCS / "metrics.md").read_text() == render_reference(), \
        "docs/metrics.md is stale: run `agentunit metrics --markdown > docs/metrics.md`"


def test_every_builtin_metric_is_documented():
    from agentunit.metrics.registry import all_metrics

    text = (DOCS / "metrics.md").read_text()
    for info in all_metrics():
        if info.cls.__module__.startswith("agentunit."):
            assert f"### `{info.name}`" in text


def test_labelled_sets_have_both_classes_and_enough_cases():
    import json
    from collections import Counter

    data = DOCS.parent / "tests" / "data"
    sizes = {"llm_rubric_dev.jsonl": 60, "factuality_dev.jsonl": 60, "g_eval_dev.jsonl": 60, "rag_dev.jsonl": 200,
             "similar_pairs.jsonl": 120, "retrieval_dev.jsonl": 60}
    for name, minimum in sizes.items():
        labels = Counter(json.loads(line)["label"] for line in (data / name).read_text().splitlines())
        assert sum(labels.values()) >= minimum and labels[0] and labels[1], name
    for name in ("agent_dev.jsonl", "conversation_dev.jsonl"):
        per_metric = Counter()
        for line in (data / name).read_text().splitlines():
            row = json.loads(line)
            per_metric[(row["metric"], row["label"])] += 1
        for (metric, _label), count in per_metric.items():
            assert count >= 20, (name, metric)
        assert all(per_metric[(m, 0)] and per_metric[(m, 1)] for m, _ in per_metric)
