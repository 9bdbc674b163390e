"""The real embedded embedding model (installed by `make test` with `agentunit models install embeddings`)."""

import asyncio
import json
from pathlib import Path

import pytest

from agentunit import check, evaluate
from agentunit.models import embeddings
from agentunit.models.store import ModelNotInstalled, require

DATA = Path(__file__).resolve().parent.parent / "data" / "similar_pairs.jsonl"


@pytest.fixture(scope="module", autouse=True)
def installed():
    try:
        require("embeddings")
    except ModelNotInstalled as exc:
        pytest.fail(f"{exc} (make test does this before the tests)")


def auc(scores, labels):
    positives = [s for s, label in zip(scores, labels, strict=True) if label]
    negatives = [s for s, label in zip(scores, labels, strict=True) if not label]
    wins = sum((p > n) + 0.5 * (p == n) for p in positives for n in negatives)
    return wins / (len(positives) * len(negatives))


def test_vectors_are_unit_length_and_deterministic():
    first = embeddings.embedder().embed(["hello world", "a much longer sentence " * 40, ""])
    again = embeddings.embedder().embed(["hello world"])
    assert first.shape == (3, 384)
    assert abs(float((first[0] ** 2).sum()) - 1.0) < 1e-4 and abs(float((first[1] ** 2).sum()) - 1.0) < 1e-4
    assert float(abs(first[0] - again[0]).max()) < 1e-5


def test_similar_separates_paraphrases_from_unrelated_pairs():
    rows = [json.loads(line) for line in DATA.read_text().splitlines()]
    assert sum(r["label"] for r in rows) >= 60 and sum(1 - r["label"] for r in rows) >= 60
    scores = [check(r["a"], {"metric": "similar", "value": r["b"]}).value for r in rows]
    assert auc(scores, [r["label"] for r in rows]) >= 0.95


def test_similar_verdicts_negation_and_measures():
    assert check("The capital of France is Paris.", {"metric": "similar",
                                                     "value": "Paris is France's capital."}).passed is True
    assert check("I like turtles.", {"metric": "similar", "value": "Paris is France's capital."}).passed is False
    assert check("I like turtles.", {"metric": "not-similar", "value": "Paris is France's capital."}).passed is True
    multi = check("Turtles are great", {"metric": "similar", "value": ["Stocks fell", "I love turtles"]})
    assert multi.detail["best_reference"] == 1
    euclid = check("same words", {"metric": "similar", "value": "same words", "config": {"metric": "euclidean"}})
    assert euclid.value == pytest.approx(1.0, abs=1e-3)


def test_suite_runs_batch_embeddings_across_cases(monkeypatch):
    calls = []
    real = embeddings.Embedder.embed

    def counting(self, texts):
        calls.append(len(texts))
        return real(self, texts)

    monkeypatch.setattr(embeddings.Embedder, "embed", counting)
    embeddings._cache.clear()
    cases = [{"id": f"c{i}", "output": f"Answer number {i} is about cats.",
              "metrics": [{"metric": "similar", "value": f"Reply {i} talks about cats.", "threshold": 0.3}]}
             for i in range(24)]
    result = evaluate(cases=cases, concurrency=8)
    assert result.passed and result.summary["cases"] == 24
    assert sum(calls) == 48 and len(calls) < 24  # texts from concurrent cases shared model calls


def test_async_batcher_returns_each_caller_its_vectors():
    async def run():
        return await asyncio.gather(embeddings.embed_texts(["one", "two"]), embeddings.embed_texts(["three"]))

    first, second = asyncio.run(run())
    assert len(first) == 2 and len(second) == 1
    expected = embeddings.embedder().embed(["three"])[0]
    assert float(abs(second[0] - expected).max()) < 1e-5


def test_perplexity_falls_back_to_the_embedded_language_model():
    try:
        require("perplexity")
    except ModelNotInstalled as exc:
        pytest.fail(f"{exc} (make test does this before the tests)")
    plain = check("The cat sat on the mat and looked out of the window at the birds.", "perplexity")
    shuffled = check("cat the of mat window sat on looked out the The birds. at and the", "perplexity")
    assert plain.detail["source"].startswith("embedded SmolLM2") and plain.detail["tokens"] == 15
    assert plain.value < 100 < 1000 < shuffled.value
    assert check("The cat sat on the mat.", "perplexity", logprobs=[-1.0, -1.0]).detail["source"] == "target logprobs"
    score = check("Paris is the capital of France.", {"metric": "perplexity-score", "threshold": 0.05})
    assert score.passed is True and 0 < score.value < 1
