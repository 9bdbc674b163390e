"""Text-overlap metrics against one or more references: bleu, gleu, rouge-n; and SQuAD's token F1 of two
short answers (``answer_f1``), which judge metrics use to compare an answer with the judge's own.

References are the metric's value (a string or a list of strings), else the case's expected_output.
Each algorithm reproduces a reference implementation exactly (checked in tests on random pairs):
bleu = sacrebleu's ``sentence_bleu``, gleu = NLTK's ``sentence_gleu``, rouge-n = Google's
``rouge-score`` (whose recall is the value, as Lin 2004 defines ROUGE-N).
"""

from __future__ import annotations

import math
import re
import string
from collections import Counter
from functools import lru_cache
from typing import Any

from agentunit.errors import MetricConfigError
from agentunit.metrics.base import Metric, MetricResult
from agentunit.metrics.registry import register

MAX_ORDER = 4
_SMOOTHING = ("exp", "floor", "add-k", "none")
_SMOOTH_DEFAULTS = {"floor": 0.1, "add-k": 1.0}

# sacrebleu's 13a tokenizer (mteval-v13a), applied after its language-independent replacements. Its
# first rule, r"([\{-\~\[-\` -\&\(-\+\:-\@\/])" → r" \1 ", pads every ASCII symbol with spaces; a
# translate table does the same in one C-level pass instead of a regex substitution per character
# (the class includes the space, whose padding changes no token, so it is left out).
_PAD_SYMBOLS = str.maketrans({c: f" {c} " for c in "{|}~[\\]^_`!\"#$%&()*+:;<=>?@/"})  # the space needs no padding
# Replacement functions instead of "\1 \2 " templates: Python 3.11 expands templates per match in Python.
_13A = (
    (re.compile(r"([^0-9])([\.,])"), lambda m: f"{m[1]} {m[2]} "),
    (re.compile(r"([\.,])([^0-9])"), lambda m: f" {m[1]} {m[2]}"),
    (re.compile(r"([0-9])(-)"), lambda m: f"{m[1]} - "),
)
_ROUGE_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def tokenize_13a(line: str) -> tuple[str, ...]:
    """Tokens as sacrebleu's default ``13a`` tokenizer produces them (after ``rstrip``).

    References repeat across cases, so short texts are memoised; long outputs are not kept.
    """
    return _tokenize_short(line) if len(line) <= 4096 else _tokenize(line)


@lru_cache(maxsize=4096)
def _tokenize_short(line: str) -> tuple[str, ...]:
    return _tokenize(line)


def _tokenize(line: str) -> tuple[str, ...]:
    line = line.rstrip().replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        line = line.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    line = f" {line} ".translate(_PAD_SYMBOLS)
    for pattern, replacement in _13A:
        line = pattern.sub(replacement, line)
    return tuple(line.split())


def tokenize_rouge(text: str) -> list[str]:
    """rouge-score's tokenizer without stemming: lower-case, non-alphanumerics → spaces, split."""
    return [t for t in _ROUGE_NON_ALNUM.sub(" ", text.lower()).split() if t]


def _ngrams(tokens: tuple[str, ...] | list[str], low: int, high: int) -> Counter[tuple[str, ...]]:
    counts: Counter[tuple[str, ...]] = Counter()
    for n in range(low, high + 1):
        counts.update(zip(*(tokens[i:] for i in range(n)), strict=False))  # C-level n-gram tuples
    return counts


def _matched_counts(hyp: tuple[str, ...], ref_grams: Counter[tuple[str, ...]], max_len: int
                    ) -> Counter[tuple[str, ...]]:
    """Counts in ``hyp`` of the n-grams that occur in ``ref_grams`` (other n-grams never match).

    Every prefix of a reference n-gram is itself a reference n-gram, so the scan from a position
    stops at the first n-gram the references lack: linear in the hypothesis for short references.
    """
    firsts = {gram[0] for gram in ref_grams}
    length = len(hyp)
    counts: Counter[tuple[str, ...]] = Counter()
    for i in [i for i, token in enumerate(hyp) if token in firsts]:
        for n in range(1, min(max_len, length - i) + 1):
            gram = hyp[i:i + n]
            if gram not in ref_grams:
                break
            counts[gram] += 1
    return counts


def sentence_bleu(hypothesis: str, references: list[str], *, smooth: str = "exp", lowercase: bool = False,
                  smooth_value: float | None = None) -> dict[str, Any]:
    """Sentence BLEU-4 in 0..1 with sacrebleu's defaults: 13a tokens, clipped n-gram counts against the
    max count over references, the closest reference length for the brevity penalty (ties → shorter),
    effective order (orders with no hypothesis n-grams are left out) and ``exp`` smoothing (a zero
    precision at order n becomes 1 / (2^k · total_n) for the k-th zero)."""
    prep = (lambda s: tokenize_13a(s.lower())) if lowercase else tokenize_13a
    hyp = prep(hypothesis)
    ref_counts: Counter[tuple[str, ...]] = Counter()
    ref_lens = []
    for ref in references:
        tokens = prep(ref)
        ref_lens.append(len(tokens))
        for gram, count in _ngrams(tokens, 1, MAX_ORDER).items():
            if count > ref_counts[gram]:
                ref_counts[gram] = count
    ref_len = min(ref_lens, key=lambda r: (abs(len(hyp) - r), r))
    total = [float(max(len(hyp) - n + 1, 0)) for n in range(1, MAX_ORDER + 1)]
    correct = [0.0] * MAX_ORDER
    hyp_counts = _matched_counts(hyp, ref_counts, MAX_ORDER)
    for gram, count in ref_counts.items():
        matched = hyp_counts.get(gram)
        if matched:
            correct[len(gram) - 1] += min(matched, count)
    sys_len = len(hyp)
    bp = 1.0 if sys_len >= ref_len else (math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0)
    detail = {"brevity_penalty": bp, "hyp_len": sys_len, "ref_len": ref_len, "correct": correct[:], "total": total[:]}
    if not any(correct):
        return {"score": 0.0, "precisions": [0.0] * MAX_ORDER, **detail}
    value = _SMOOTH_DEFAULTS.get(smooth, 0.0) if smooth_value is None else smooth_value
    precisions = [0.0] * MAX_ORDER
    smooth_mteval = 1.0
    order = MAX_ORDER
    for n in range(1, MAX_ORDER + 1):
        if smooth == "add-k" and n > 1:
            correct[n - 1] += value
            total[n - 1] += value
        if total[n - 1] == 0:
            break
        order = n
        if correct[n - 1] == 0:
            if smooth == "exp":
                smooth_mteval *= 2
                precisions[n - 1] = 100.0 / (smooth_mteval * total[n - 1])
            elif smooth == "floor":
                precisions[n - 1] = 100.0 * value / total[n - 1]
        else:
            precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1]
    log_sum = sum(math.log(p) if p > 0 else -9999999999 for p in precisions[:order])
    score = bp * math.exp(log_sum / order) / 100.0
    return {"score": score, "precisions": [p / 100.0 for p in precisions], **detail}


def sentence_gleu(hypothesis: str, references: list[str], *, min_len: int = 1, max_len: int = 4) -> float:
    """Google-BLEU (Wu et al. 2016) as NLTK's ``sentence_gleu``: over all 1..4-grams,
    matches / max(hypothesis n-grams, reference n-grams), for the reference that scores best."""
    hyp = tokenize_13a(hypothesis)
    tpfp = sum(max(len(hyp) - n + 1, 0) for n in range(min_len, max_len + 1))
    best: tuple[int, int] | None = None
    for ref_text in references:
        ref = _ngrams(tokenize_13a(ref_text), min_len, max_len)
        n_all = max(tpfp, sum(ref.values()))
        if n_all == 0:
            continue
        matched = _matched_counts(hyp, ref, max_len) if min_len == 1 else _ngrams(hyp, min_len, max_len)
        tp = sum(min(count, matched.get(gram, 0)) for gram, count in ref.items())
        if best is None or tp / n_all > best[0] / best[1]:
            best = (tp, n_all)
    return best[0] / best[1] if best else 0.0


def rouge_n(hypothesis: str, references: list[str], n: int = 1, best: str = "fmeasure") -> dict[str, float]:
    """ROUGE-N as rouge-score computes it (no stemming): clipped n-gram overlap; precision over the
    hypothesis n-grams, recall over the reference's, F1. With several references, the scores of the
    reference with the highest ``best`` (``fmeasure`` as rouge-score's ``score_multi``; ``recall``
    as Lin 2004 takes the maximum pairwise ROUGE-N), the first one on a tie."""
    hyp = _ngrams(tokenize_rouge(hypothesis), n, n)
    chosen = {"precision": 0.0, "recall": 0.0, "fmeasure": 0.0}
    for index, ref_text in enumerate(references):
        ref = _ngrams(tokenize_rouge(ref_text), n, n)
        overlap = sum(min(count, hyp[gram]) for gram, count in ref.items())
        precision = overlap / max(sum(hyp.values()), 1)
        recall = overlap / max(sum(ref.values()), 1)
        f1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
        scores = {"precision": precision, "recall": recall, "fmeasure": f1}
        if index == 0 or scores[best] > chosen[best]:
            chosen = scores
    return chosen


_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCTUATION = str.maketrans("", "", string.punctuation)


def _answer_words(text: str) -> list[str]:
    """SQuAD's answer normalisation: lower case, no punctuation, no articles, split on whitespace."""
    return _ARTICLES.sub(" ", text.lower().translate(_PUNCTUATION)).split()


def answer_f1(own: str, proposed: str) -> float:
    """SQuAD token F1 between two short answers (0 when they share no word)."""
    a, b = _answer_words(own), _answer_words(proposed)
    shared = sum((Counter(a) & Counter(b)).values())
    if not shared:
        return 0.0
    precision, recall = shared / len(a), shared / len(b)
    return 2 * precision * recall / (precision + recall)



class _OverlapMetric(Metric):
    def references(self, case) -> list[str]:
        refs = self.expected(case)
        refs = refs if isinstance(refs, list) else [refs]
        refs = [str(r) for r in refs if r is not None]
        if not refs:
            raise MetricConfigError(f"{self.name} needs at least one reference")
        return refs


@register("bleu", family="overlap", value="required", threshold=0.5,
          example="{metric: bleu, value: \"The cat sat on the mat.\", threshold: 0.4}")
class Bleu(_OverlapMetric):
    """Sentence BLEU-4 (0..1) of the output against the references, equal to
    ``sacrebleu.sentence_bleu(output, refs).score / 100`` (13a tokenizer, ``exp`` smoothing, effective
    order, closest reference length). ``config``: ``smooth`` (exp|floor|add-k|none), ``lowercase``.
    Default threshold 0.5, as promptfoo."""

    def setup(self) -> None:
        self._smooth = self.config.get("smooth", "exp")
        if self._smooth not in _SMOOTHING:
            raise MetricConfigError(f"smooth must be one of {', '.join(_SMOOTHING)}")

    def evaluate(self, case, trace, outcome) -> MetricResult:
        stats = sentence_bleu(outcome.output, self.references(case), smooth=self._smooth,
                              lowercase=bool(self.config.get("lowercase", False)))
        return self.result(stats["score"], detail=stats, reason=f"BLEU {stats['score']:.4f}")


@register("gleu", family="overlap", value="required", threshold=0.5,
          example="{metric: gleu, value: \"The cat sat on the mat.\"}")
class Gleu(_OverlapMetric):
    """Sentence GLEU (Google-BLEU, 0..1): min(precision, recall) over all 1..4-grams of 13a tokens,
    with the best reference; equal to NLTK's ``sentence_gleu`` on the same tokens. Default threshold 0.5."""

    def evaluate(self, case, trace, outcome) -> MetricResult:
        score = sentence_gleu(outcome.output, self.references(case))
        return self.result(score, reason=f"GLEU {score:.4f}")


@register("rouge-n", family="overlap", value="required", threshold=0.75,
          example="{metric: rouge-n, value: \"The cat sat on the mat.\", config: {n: 2}}")
class RougeN(_OverlapMetric):
    """ROUGE-N recall (0..1; ``config.n``, default 1) as Lin (2004) defines it and promptfoo's
    ``rouge-n`` reports it: reference n-grams found in the output (clipped counts) / reference
    n-grams, with rouge-score's tokenizer and no stemming; with several references the best recall.
    Equal to ``rouge_scorer.RougeScorer(['rougeN']).score(ref, output).recall``; the detail adds
    ``precision`` and ``fmeasure`` (F1). Default threshold 0.75, as promptfoo."""

    def setup(self) -> None:
        n = self.config.get("n", 1)
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise MetricConfigError(f"config.n must be an integer ≥ 1, got {n!r}")
        self._n = n

    def evaluate(self, case, trace, outcome) -> MetricResult:
        scores = rouge_n(outcome.output, self.references(case), self._n, best="recall")
        return self.result(scores["recall"], detail={**scores, "n": self._n},
                           reason=f"ROUGE-{self._n} recall {scores['recall']:.4f} (precision "
                                  f"{scores['precision']:.4f}, F1 {scores['fmeasure']:.4f})")
