"""bleu, gleu and rouge-n, cross-checked against the reference implementations on random pairs."""

import random

import pytest
import sacrebleu
from nltk.translate import gleu_score
from rouge_score import rouge_scorer
from sacrebleu.metrics import BLEU
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from agentunit import check
from agentunit.errors import MetricConfigError
from agentunit.metrics.overlap import rouge_n, sentence_bleu, sentence_gleu, tokenize_13a

VOCAB = ("the a cat dog sat on mat mats , . ; quickly 42 3.5 1,000 brown fox jumps over lazy-dog "
         "Hello! \"quoted\" it's (aside) e-mail &amp; naïve café x-ray 2024-01-01").split()


def _pairs(count, seed):
    rng = random.Random(seed)
    for _ in range(count):
        hyp = " ".join(rng.choice(VOCAB) for _ in range(rng.randint(0, 18)))
        refs = [" ".join(rng.choice(VOCAB) for _ in range(rng.randint(1, 18))) for _ in range(rng.randint(1, 3))]
        yield hyp, refs


def test_bleu_agrees_with_sacrebleu_on_200_random_pairs():
    for hyp, refs in _pairs(200, 7):
        ours = sentence_bleu(hyp, refs)["score"]
        theirs = sacrebleu.sentence_bleu(hyp, refs).score / 100
        assert ours == pytest.approx(theirs, abs=1e-6), (hyp, refs)
    for smooth in ("floor", "add-k", "none"):
        scorer = BLEU(effective_order=True, smooth_method=smooth)
        for hyp, refs in _pairs(30, 11):
            assert sentence_bleu(hyp, refs, smooth=smooth)["score"] == pytest.approx(
                scorer.sentence_score(hyp, refs).score / 100, abs=1e-6)


def test_rouge_n_agrees_with_rouge_score_on_200_random_pairs():
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rouge3"], use_stemmer=False)
    for hyp, refs in _pairs(200, 3):
        theirs = scorer.score(refs[0], hyp)
        for n in (1, 2, 3):
            ours = rouge_n(hyp, refs[:1], n)
            assert ours["fmeasure"] == pytest.approx(theirs[f"rouge{n}"].fmeasure, abs=1e-9)
            assert ours["precision"] == pytest.approx(theirs[f"rouge{n}"].precision, abs=1e-9)
            assert ours["recall"] == pytest.approx(theirs[f"rouge{n}"].recall, abs=1e-9)
        multi = scorer.score_multi(refs, hyp)
        assert rouge_n(hyp, refs, 1)["fmeasure"] == pytest.approx(multi["rouge1"].fmeasure, abs=1e-9)
        best_recall = max(scorer.score(ref, hyp)["rouge1"].recall for ref in refs)  # Lin 2004: max pairwise
        assert rouge_n(hyp, refs, 1, best="recall")["recall"] == pytest.approx(best_recall, abs=1e-9)


def test_rouge_n_metric_value_is_recall_with_precision_and_f1_in_the_detail():
    """Lin 2004 and promptfoo's rouge-n report recall: a short output that covers the reference scores 1."""
    scorer = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=False)
    result = check("the cat sat on the mat today", {"metric": "rouge-n", "value": "the cat sat"})
    theirs = scorer.score("the cat sat", "the cat sat on the mat today")["rouge1"]
    assert result.value == pytest.approx(theirs.recall) == 1.0
    assert result.detail["precision"] == pytest.approx(theirs.precision)
    assert result.detail["fmeasure"] == pytest.approx(theirs.fmeasure)
    assert result.passed is True
    several = check("the cat", {"metric": "rouge-n", "value": ["a dog ran far away", "the cat"]})
    assert several.value == 1.0  # the best recall over the references


def test_gleu_agrees_with_nltk_on_200_random_pairs():
    for hyp, refs in _pairs(200, 5):
        theirs = gleu_score.sentence_gleu([list(tokenize_13a(r)) for r in refs], list(tokenize_13a(hyp)))
        assert sentence_gleu(hyp, refs) == pytest.approx(theirs, abs=1e-9)


def test_tokenizer_matches_sacrebleu_13a():
    reference = Tokenizer13a()
    for text in ["Hello, world! It's 3.5 km.", "a-b 1-2 (x) [y] {z} &quot;q&quot;", "trailing   ", "é,ç.ñ"]:
        assert " ".join(tokenize_13a(text)) == reference(text.rstrip())


@pytest.mark.parametrize(("output", "spec", "passed"), [
    ("The cat sat on the mat.", {"metric": "bleu", "value": "The cat sat on the mat."}, True),
    ("A dog ran in the park.", {"metric": "bleu", "value": "The cat sat on the mat."}, False),
    ("The cat is on the mat.", {"metric": "bleu", "value": ["The cat sat on the mat.", "The cat is on the mat."]},
     True),
    ("The cat sat on the mat.", {"metric": "gleu", "value": "The cat sat on the mat."}, True),
    ("the cat", {"metric": "rouge-n", "value": "the cat sat"}, False),      # recall 2/3 < 0.75 (F1 was 0.8)
    ("the cat sat on a mat", {"metric": "rouge-n", "value": "the cat sat"}, True),  # recall 1 (F1 0.75)
    ("the cat", {"metric": "rouge-n", "value": "the cat sat on the mat"}, False),
    ("the cat sat", {"metric": "rouge-n", "value": "the cat sat", "config": {"n": 2}}, True),
])
def test_overlap_metric_verdicts(output, spec, passed):
    assert check(output, spec).passed is passed


def test_overlap_falls_back_to_expected_output_and_validates_config():
    assert check("same text here", "bleu", expected_output="same text here").value == pytest.approx(1.0)
    assert check("", "bleu", expected_output="something").value == 0.0
    with pytest.raises(MetricConfigError):
        check("x", {"metric": "rouge-n", "value": "x", "config": {"n": 0}})
    with pytest.raises(MetricConfigError):
        check("x", {"metric": "bleu", "value": "x", "config": {"smooth": "magic"}})
    assert check("a b c", {"metric": "not-bleu", "value": "x y z"}).passed is True


def test_tokenizer_matches_sacrebleu_on_random_punctuation_soup():
    reference = Tokenizer13a()
    rng = random.Random(1)
    alphabet = "ab9 0.,-.,1 2$x(é)\n.,-&;:{}[]  \t"
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 16)))
        assert " ".join(tokenize_13a(text)) == reference(text.rstrip()), repr(text)
