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


def _baselines_module():
    import importlib.util
    import sys

    if "bench_baselines" in sys.modules:
        return sys.modules["bench_baselines"]
    spec = importlib.util.spec_from_file_location("bench_baselines", DOCS.parent / "bench" / "baselines.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


def _baselines():
    return {(b.table, b.name, b.metric): b for b in _baselines_module().everything()}


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
    code = baselines[("code-and-moderation.md code judge", "humaneval_problems", "code-correctness")]
    code_doc = _flat("code-and-moderation.md")
    assert f"quoted terms all in the program) | {code.substring:.3f} | – | 0 | – |" in code_doc
    assert f"share of the prompt's words in the program) | {code.jaccard:.3f} | {code.overlap_auc:.3f} | 0 | – |" \
        in code_doc


def test_the_media_code_and_moderation_baselines_in_the_docs_are_what_bench_baselines_computes():
    """The audio, image, code-language and moderation tables' baselines (``media()`` of bench/baselines.py)."""
    media = {(b.table, b.name): b for b in _baselines_module().media()}
    audio = (DOCS / "audio.md").read_text().replace("**", "")
    category = audio.split("### Call category")[1].splitlines()
    for split in ("tune", "test"):
        b = media[("audio.md call category", f"call_category {split}")]
        line = next(line for line in category if line.startswith(f"| {split} | {b.rows} |"))
        assert line.endswith(f"| {b.keyword} | {b.overlap} |"), line
    lines = audio.splitlines()

    def row(start: str) -> str:
        return next(line for line in lines if line.startswith(start))

    for table, keyword, overlap in (
            ("coherence", "| baseline: keyword (every agent reply", "| baseline: word overlap (agent replies'"),
            ("intent", "| baseline: keyword (the request's verb", "| baseline: word overlap (share of the request's"),
            ("sentiment", "| baseline: word lexicon", "| baseline: word overlap (the sentiment")):
        tune, test = (media[(f"audio.md {table}", f"{table} {split}")] for split in ("tune", "test"))
        assert f"| {tune.keyword} | {test.keyword} |" in row(keyword), (table, tune.keyword, test.keyword)
        assert f"| {tune.overlap} | {test.overlap} |" in row(overlap), (table, tune.overlap, test.overlap)
    coherence = media[("audio.md coherence", "coherence test")]
    assert f"repeating a word of the customer's turn scores {coherence.keyword}, the same as the per-reply judge" \
        in _flat("audio.md")
    multimodal = (DOCS / "multimodal.md").read_text().replace("**", "").splitlines()
    images = [b for b in media.values() if b.table == "multimodal.md"]
    assert len(images) == 6
    for b in images:
        line = next(line for line in multimodal if line.startswith(f"| `{b.metric}` | {b.rows} ("))
        assert line.endswith(f"| {b.keyword} | {b.overlap} |"), (line, b.keyword, b.overlap)
    code = _flat("code-and-moderation.md")
    language = media[("code-and-moderation.md code-language", "snippets test")]
    assert f"(the language of the tune snippet with the highest token Jaccard) | {language.overlap} |" in code
    moderation = media[("code-and-moderation.md moderation", "moderation test")]
    assert f"; at 0.5: one word) | {moderation.keyword} | – |" in code
    assert f"| baseline: word overlap with the tuning rows (at 0.5) | {moderation.overlap} | – |" in code


def test_the_stored_ocr_text_covers_every_image_of_the_multimodal_sets():
    """bench/baselines.py reads the images' OCR text from tests/data/multimodal/ocr.json; a set changed
    without rerunning bench/multimodal_ocr.py would leave an image out (or a stale one in)."""
    import json

    data = DOCS.parent / "tests" / "data" / "multimodal"
    stored = set(json.loads((data / "ocr.json").read_text()))
    specs = set()
    for name in ("grounding", "captions", "coherence", "helpfulness", "relevancy", "recall"):
        for line in (data / f"{name}.jsonl").read_text().splitlines():
            row = json.loads(line)
            found = [row["sign"]] if "sign" in row else [row["image"]] if "image" in row else [
                c["image"] for c in row.get("context", []) if isinstance(c, dict)]
            specs |= {json.dumps(spec, sort_keys=True) for spec in found}
    assert stored == specs


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
