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


def _flat(name: str) -> str:
    """A docs page with bold marks dropped and runs of whitespace made one space, so a figure is
    found whether it is bold or wrapped."""
    import re

    return re.sub(r"\s+", " ", (DOCS / name).read_text().replace("**", ""))


def _baselines():
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("bench_baselines", DOCS.parent / "bench" / "baselines.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return {(b.table, b.name, b.metric): b for b in module.everything()}


def test_the_baseline_figures_in_the_docs_are_what_bench_baselines_computes():
    baselines = _baselines()
    rag, judges = _flat("rag.md"), _flat("judges.md")
    rag_lines = (DOCS / "rag.md").read_text().replace("**", "").splitlines()
    agentic_dev_lines = (DOCS / "agentic.md").read_text().split("### Development sets")[1].splitlines()
    for (table, name, metric), b in baselines.items():
        cells = f"| {b.substring:.3f} | {b.jaccard:.3f} | {b.overlap_auc:.3f} |"
        if table == "rag.md development sets" and name != "rag_compound_dev":
            line = next(line for line in rag_lines if line.startswith(f"| {name} | {metric} | {b.rows} |"))
            assert line.endswith(cells), (line, cells)
        if table == "agentic.md development sets":
            line = next(line for line in agentic_dev_lines if line.startswith(f"| `{metric}`"))
            assert line.endswith(cells), (line, cells)
    compound = baselines[("rag.md development sets", "rag_compound_dev", "context-faithfulness")]
    assert f"substring (the whole sentence verbatim in the context) | {compound.substring:.3f} |" in rag
    assert f"word overlap (Jaccard ≥ 0.5) | {compound.jaccard:.3f} |" in rag
    assert f"separates the two kinds perfectly (AUC {compound.overlap_auc:.3f}" in rag
    tune = [baselines[("rag.md tune", part, "context-faithfulness")]
            for part in ("HaluEval QA", "HaluEval summaries", "handwritten")]
    assert "| " + " | ".join(f"{b.substring:.3f} / –" for b in tune) + " |" in rag
    assert "| " + " | ".join(f"{b.jaccard:.3f} / {b.overlap_auc:.3f}" for b in tune) + " |" in rag
    frameworks = baselines[("rag.md frameworks", "rag_dev, 12 per kind", "context-faithfulness")]
    assert f"substring (every sentence verbatim in the context) | {frameworks.substring:.3f} | – | 0 |" in rag
    assert f"word overlap (Jaccard ≥ 0.5) | {frameworks.jaccard:.3f} | – | 0 |" in rag
    similar = baselines[("models.md similar", "similar_pairs", "similar")]
    assert (f"On the same {similar.rows} pairs, without a model (`python bench/baselines.py`): a substring check "
            f"(one text inside the other) scores {similar.substring:.3f} balanced accuracy, word overlap "
            f"(Jaccard ≥ 0.5) {similar.jaccard:.3f}, and word overlap as a score ranks the pairs with AUC "
            f"{similar.overlap_auc:.3f}") in _flat("models.md")
    rubric = baselines[("judges.md llm-rubric tune", "llm_rubric tune", "llm-rubric")]
    assert f"quoted terms in the output) | {rubric.substring:.3f} | – | – | 0 |" in judges
    assert f"found in the output) | {rubric.jaccard:.3f} | {rubric.overlap_auc:.3f} | – | 0 |" in judges


def test_the_sizes_of_the_development_sets_are_those_the_docs_quote():
    import json

    data = DOCS.parent / "tests" / "data"
    rows = {name: [json.loads(line) for line in (data / f"{name}.jsonl").read_text().splitlines()]
            for name in ("rag_dev", "retrieval_dev", "rag_negation_dev", "ranking_dev", "rag_compound_dev", "pii_dev")}
    rag = _flat("rag.md")
    assert f"(built by `tests/data/build_judge_sets.py`) has {len(rows['rag_dev'])} cases" in rag
    assert f"`tests/data/retrieval_dev.jsonl` ({len(rows['retrieval_dev'])} cases" in rag
    assert f"`tests/data/rag_negation_dev.jsonl` ({len(rows['rag_negation_dev']) // 2} facts" in rag
    assert f"`tests/data/ranking_dev.jsonl` ({len(rows['ranking_dev'])} rankings" in rag
    assert f"`tests/data/rag_compound_dev.jsonl` ({len(rows['rag_compound_dev'])} answers" in rag
    pii = rows["pii_dev"]
    hand = [r for r in pii if r["kind"].startswith("hand")]
    structured = {"email", "phone", "ssn", "credit_card", "iban", "ip_address"}

    def spans(part, types):
        return sum(1 for r in part for s in r["spans"] if s["type"] in types)

    privacy = _flat("privacy.md")
    assert (f"{len(pii)} texts, {spans(pii, structured | {'name', 'address'})} labelled spans, "
            f"{sum(1 for r in pii if not r['spans'])} texts holding only look-alikes") in privacy
    assert f"and {len(hand)} hand-written rows" in privacy
    assert (f"{spans(pii, structured) - spans(hand, structured)} of the {spans(pii, structured)} structured spans "
            f"(and {spans(pii, {'name'}) - spans(hand, {'name'})} of the {spans(pii, {'name'})} names)") in privacy
    assert (f"hold the other {spans(hand, structured)} structured spans, {spans(hand, {'name'})} names and "
            f"{spans(hand, {'address'})} addresses") in privacy


def test_the_pii_figures_on_the_hand_written_rows_are_re_measured():
    import json
    import sys
    from collections import Counter

    sys.path.insert(0, str(DOCS.parent / "bench"))
    from pii_detection import DATA, score_rows

    from agentunit.privacy.detectors import STRUCTURED_TYPES

    hand = [json.loads(line) for line in DATA.read_text().splitlines()
            if line.strip() and json.loads(line)["kind"].startswith("hand")]
    counts, _, _ = score_rows(hand)
    structured = Counter()
    for kind in STRUCTURED_TYPES:
        structured.update(counts[kind])

    def figures(c):
        return f"{c['tp'] / (c['tp'] + c['fp']):.3f} | {c['tp'] / (c['tp'] + c['fn']):.3f}"

    privacy = _flat("privacy.md")
    assert f"| all structured | {structured['tp'] + structured['fn']} | {figures(structured)} |" in privacy
    assert f"| name (NER + honorifics) | {counts['name']['tp'] + counts['name']['fn']} | {figures(counts['name'])} |" \
        in privacy
