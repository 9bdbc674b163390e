"""Lexical baselines on every labelled set whose accuracy figures the docs quote, so a set that a
string check already solves is seen for what it is.

Two baselines per set, on the same rows as the docs' figure (all rows where the docs quote all
rows, the tune or test split where they quote one):

- substring / keyword: a fixed surface rule. For the text and RAG sets the rule of
  tests/data/labelled/baselines.py (the reference inside the output; every sentence of the claims
  verbatim in the context; every query word in the context or answer; the passage sharing most query
  words ranked first); for the agentic and conversational sets the builders' keyword rules
  (tests/data/build_labelled_agent.py, build_labelled_conversation.py).
- word overlap: content-word overlap between what is judged and what it is judged against, as
  balanced accuracy at Jaccard >= 0.5 and as ROC AUC (threshold-free; > 0.5 when more overlap means
  pass, < 0.5 when it points the wrong way). The AUC score is the share of the source's content words
  found in the candidate (coverage) for the text and RAG sets, the builders' Jaccard for the agentic
  and conversational ones, and Jaccard for the `similar` pairs. The code-correctness programs
  (tests/code/humaneval_problems.py) are scored like the text sets, the prompt as the source.

The audio, image, code-language and moderation tables quote accuracy per split (or balanced
accuracy, or macro AUPRC) with their own rules, so their baselines (``media()``, second table) are
formatted as those tables print them, each function's docstring saying its rules: call category,
coherence, false intent and sentiment (tests/data/audio/*.jsonl: keyword rules and word overlap,
thresholds or nearest neighbours from the tune rows as bench/audio.py does), the six image sets
(keyword and Jaccard on the OCR text stored in tests/data/multimodal/ocr.json by
bench/multimodal_ocr.py, so no OCR model runs here), code-language (nearest tune snippet by token
Jaccard) and moderation (definition keywords; bench/moderation.py's word overlap with the tune rows).

A baseline near the metric's figure means the set does not discriminate: a metric scoring well on
it shows nothing beyond string matching. No judge or model is loaded; the whole run takes a second
or two.

Run: python bench/baselines.py  (prints the two tables)
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
sys.path.insert(0, str(DATA))
sys.path.insert(0, str(DATA / "labelled"))

import baselines as text_baselines  # noqa: E402  (tests/data/labelled/baselines.py)
import build_labelled_agent  # noqa: E402
import build_labelled_conversation  # noqa: E402


@dataclass(frozen=True)
class Baseline:
    """The baselines of one set (or one part of a set) as a docs table quotes it."""

    table: str     # the docs table the row belongs to
    name: str      # the set and part, as the table names it
    metric: str
    rows: int
    substring: float       # balanced accuracy of the substring / keyword rule
    jaccard: float         # balanced accuracy of Jaccard >= 0.5
    overlap_auc: float     # ROC AUC of the word-overlap score

    def line(self) -> str:
        return (f"| {self.table} | {self.name} | {self.metric} | {self.rows} | {self.substring:.3f} | "
                f"{self.jaccard:.3f} | {self.overlap_auc:.3f} |")


def balanced_accuracy(pairs: Iterable[tuple[int, bool]]) -> float:
    pairs = list(pairs)
    good = [p for label, p in pairs if label == 1]
    bad = [p for label, p in pairs if label == 0]
    return (sum(good) / len(good) + sum(not p for p in bad) / len(bad)) / 2


def auc(scored: Iterable[tuple[int, float]]) -> float:
    """ROC AUC: the chance that a label-1 row scores above a label-0 row, ties counting half."""
    scored = list(scored)
    good = [s for label, s in scored if label == 1]
    bad = [s for label, s in scored if label == 0]
    wins = sum((g > b) + 0.5 * (g == b) for g in good for b in bad)
    return wins / (len(good) * len(bad))


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _text_baseline(table: str, name: str, rows: list[dict]) -> Baseline:
    """Substring, Jaccard and coverage of tests/data/labelled/baselines.py on rows of one metric."""
    scored = []
    for row in rows:
        source, candidate, verbatim = text_baselines._texts(row)
        scored.append((row["label"], verbatim, text_baselines._jaccard(source, candidate),
                       text_baselines._coverage(source, candidate)))
    return Baseline(table, name, rows[0]["metric"], len(rows),
                    balanced_accuracy((label, verbatim) for label, verbatim, _, _ in scored),
                    balanced_accuracy((label, jaccard >= 0.5) for label, _, jaccard, _ in scored),
                    auc((label, coverage) for label, _, _, coverage in scored))


def _rule_baseline(table: str, name: str, rows: list[dict], keyword: Callable[[dict], bool],
                   overlap: Callable[[dict], float]) -> Baseline:
    return Baseline(table, name, rows[0]["metric"], len(rows),
                    balanced_accuracy((r["label"], keyword(r)) for r in rows),
                    balanced_accuracy((r["label"], overlap(r) >= 0.5) for r in rows),
                    auc((r["label"], overlap(r)) for r in rows))


def _as_metric(rows: list[dict], metric: str) -> list[dict]:
    return [{**row, "metric": metric} for row in rows]


def rag_development_sets() -> list[Baseline]:
    """docs/rag.md, "Measured": the development sets, all rows, as the judge figures there."""
    table = "rag.md development sets"
    out = [_text_baseline(table, name, text_baselines.load(name))
           for name in ("rag_dev", "rag_negation_dev", "rag_swap_dev", "rag_compound_dev", "ranking_dev")]
    retrieval = text_baselines.load("retrieval_dev")
    out += [_text_baseline(table, "retrieval_dev", _as_metric(retrieval, metric))
            for metric in ("context-recall", "context-relevance", "answer-relevance")]
    return out


def rag_labelled_tune() -> list[Baseline]:
    """docs/rag.md, the strategy table: tune rows of HaluEval QA, HaluEval summaries, handwritten."""
    halueval = [r for r in text_baselines.load("rag_halueval") if r["split"] == "tune"]
    handwritten = [r for r in text_baselines.load("rag_handwritten")
                   if r["split"] == "tune" and r["metric"] == "context-faithfulness"]
    parts = {"HaluEval QA": [r for r in halueval if r["kind"].startswith("qa-")],
             "HaluEval summaries": [r for r in halueval if r["kind"].startswith("summary-")],
             "handwritten": handwritten}
    return [_text_baseline("rag.md tune", name, rows) for name, rows in parts.items()]


def rag_deepeval_comparison(per_kind: int = 12) -> Baseline:
    """docs/rag.md, side by side with DeepEval and RAGAS: the rows of rag_dev.jsonl that
    bench/rag_vs_frameworks.py scores with ``--per-kind`` (its ``select``: spread evenly over each
    kind's topics)."""
    by_kind: dict[str, list[dict]] = {}
    for row in text_baselines.load("rag_dev"):
        by_kind.setdefault(row["kind"], []).append(row)
    rows = [r for kind in sorted(by_kind)
            for r in by_kind[kind][::max(1, len(by_kind[kind]) // per_kind)][:per_kind]]
    return _text_baseline("rag.md frameworks", f"rag_dev, {per_kind} per kind", rows)


def judge_labelled_tune() -> list[Baseline]:
    """docs/judges.md, the llm-rubric build table: its tune rows."""
    rows = [r for r in text_baselines.load("llm_rubric") if r["split"] == "tune"]
    return [_text_baseline("judges.md llm-rubric tune", "llm_rubric tune", rows)]


def _agent_row(row: dict) -> dict:
    """A development-set row in the shape the labelled builders' rules read: the rules of
    agent-llm-rubric come in ``value``, and the set records no tool list, so the called tools stand
    for the available ones."""
    tools = [{"name": c["name"]} for c in row.get("tool_calls") or []]
    rules = row.get("value")
    return {**row, "tools": row.get("tools") or tools,
            "rules": [rules] if isinstance(rules, str) else rules or []}


def agentic_development_sets() -> list[Baseline]:
    """docs/agentic.md, "Development sets": agent_dev and conversation_dev, all rows per metric."""
    table = "agentic.md development sets"
    out = []
    agent = [_agent_row(r) for r in _rows(DATA / "agent_dev.jsonl")]
    for metric in sorted({r["metric"] for r in agent}):
        out.append(_rule_baseline(table, "agent_dev", [r for r in agent if r["metric"] == metric],
                                  build_labelled_agent.keyword_baseline, build_labelled_agent.overlap_score))
    conversation = _rows(DATA / "conversation_dev.jsonl")
    for metric in sorted({r["metric"] for r in conversation}):
        out.append(_rule_baseline(table, "conversation_dev", [r for r in conversation if r["metric"] == metric],
                                  build_labelled_conversation.keyword_baseline,
                                  build_labelled_conversation.overlap_score))
    return out


def similar_pairs() -> Baseline:
    """docs/models.md: `similar` on tests/data/similar_pairs.jsonl (substring: one text inside the other)."""
    rows = _rows(DATA / "similar_pairs.jsonl")
    norm = text_baselines._norm
    return Baseline("models.md similar", "similar_pairs", "similar", len(rows),
                    balanced_accuracy((r["label"], norm(r["a"]) in norm(r["b"]) or norm(r["b"]) in norm(r["a"]))
                                      for r in rows),
                    balanced_accuracy((r["label"], text_baselines._jaccard(r["a"], r["b"]) >= 0.5) for r in rows),
                    auc((r["label"], text_baselines._jaccard(r["a"], r["b"])) for r in rows))


def code_judge() -> Baseline:
    """docs/code-and-moderation.md, code-correctness without tests: the 24 programs of
    tests/code/humaneval_problems.py (right 1, mutated 0) against the task's prompt. Substring: the
    prompt's numbers, names and quoted terms all in the program (the llm-rubric rule, less the
    language's name); word overlap:
    Jaccard of content words ≥ 0.5, and the share of the prompt's content words in the program as score."""
    sys.path.insert(0, str(DATA.parent.parent))
    from tests.code.humaneval_problems import PROBLEMS

    rows = [{"metric": "code-correctness", "label": label, "prompt": p["prompt"], "program": p[variant]}
            for p in PROBLEMS for variant, label in (("right", 1), ("mutated", 0))]
    def terms_present(row: dict) -> bool:
        """The prompt's numbers, names and quoted terms (trailing punctuation off; "Python", the
        language every prompt names, left out) all in the program."""
        terms = [t.strip("'\"`.,;:") for t in text_baselines._KEY_TERM.findall(row["prompt"]) if t != "Python"]
        return all(term.lower() in row["program"].lower() for term in terms)

    jaccard = _rule_baseline("code-and-moderation.md code judge", "humaneval_problems", rows, terms_present,
                             lambda r: text_baselines._jaccard(r["prompt"], r["program"]))
    return replace(jaccard, overlap_auc=auc((r["label"], text_baselines._coverage(r["prompt"], r["program"]))
                                            for r in rows))


def everything() -> list[Baseline]:
    return [*rag_development_sets(), *rag_labelled_tune(), rag_deepeval_comparison(), *judge_labelled_tune(),
            *agentic_development_sets(), similar_pairs(), code_judge()]


# -- media, code-language and moderation sets: accuracy per split ------------------------------------------
#
# These tables quote accuracy (or balanced accuracy, or macro AUPRC) per split, with their own rules; a
# MediaBaseline holds the two lexical baselines of one row of such a table, as the table prints them.


@dataclass(frozen=True)
class MediaBaseline:
    table: str
    name: str       # the set, and the split or part the figure is on
    metric: str
    rows: int
    keyword: str    # the substring / keyword baseline, formatted as the table prints it
    overlap: str    # the word-overlap baseline, likewise

    def line(self) -> str:
        return f"| {self.table} | {self.name} | {self.metric} | {self.rows} | {self.keyword} | {self.overlap} |"


def _load_module(name: str, path: Path):
    import importlib.util

    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _pct(hits: Iterable[bool]) -> str:
    hits = list(hits)
    share = 100 * sum(hits) / len(hits)
    return "100 %" if share == 100 else f"{share:.1f} %"


def _best_grid_threshold(scores: list[float], labels: list[bool]) -> float:
    """bench/audio.py's choice: the grid point 0, 0.05 … 1 with the best tune accuracy; ties: the middle one."""
    grid = [round(0.05 * i, 2) for i in range(21)]
    scored = [(sum((s >= t) == y for s, y in zip(scores, labels, strict=True)), t) for t in grid]
    top = max(a for a, _ in scored)
    tied = [t for a, t in scored if a == top]
    return tied[len(tied) // 2]


def _nearest_tune_label(rows: list[dict], words: Callable[[dict], set], label: Callable[[dict], str]
                        ) -> dict[str, str]:
    """Word overlap as a classifier: each row takes the label of the tune row whose words have the highest
    Jaccard with its own (a tune row is never its own neighbour; ties: the first in the file)."""
    tune = [(r["id"], words(r), label(r)) for r in rows if r["split"] == "tune"]
    out = {}
    for row in rows:
        mine = words(row)
        best = max(((len(mine & w) / len(mine | w) if mine | w else 0.0, -i, lab)
                    for i, (rid, w, lab) in enumerate(tune) if rid != row["id"]))
        out[row["id"]] = best[2]
    return out


AUDIO = DATA / "audio"


def _audio_rows(name: str) -> list[dict]:
    return _rows(AUDIO / f"{name}.jsonl")


def _segments(row: dict):
    from agentunit.audio.statements import app_transcript

    return app_transcript(type("O", (), {"metadata": {"transcript": row["transcript"]}})(), None)


def _customer_words(row: dict) -> set[str]:
    from agentunit.audio.statements import content_words

    return content_words(" ".join(s["text"] for s in row["transcript"] if s["speaker"] == "customer"))


def _per_split(table: str, name: str, metric: str, rows: list[dict], keyword, overlap, truth) -> list[MediaBaseline]:
    return [MediaBaseline(table, f"{name} {split}", metric, len(part),
                          _pct(keyword(r) == truth(r) for r in part), _pct(overlap(r) == truth(r) for r in part))
            for split in ("tune", "test") for part in [[r for r in rows if r["split"] == split]]]


def audio_call_category() -> list[MediaBaseline]:
    """docs/audio.md, call category: keywords = the category whose name and description share most content
    words with the caller's words (bench/audio.py's rule); word overlap = the category of the tune call whose
    caller words have the highest Jaccard with this call's."""
    from agentunit.audio.statements import content_words

    lines = _audio_rows("call_category")
    names, rows = lines[0]["categories"], lines[1:]
    words = {n: content_words(f"{n} {d}") for n, d in names.items()}
    keyword = {r["id"]: max(names, key=lambda n: len(words[n] & _customer_words(r))) for r in rows}
    nearest = _nearest_tune_label(rows, _customer_words, lambda r: r["category"])
    return _per_split("audio.md call category", "call_category", "audio-call-category", rows,
                      lambda r: keyword[r["id"]], lambda r: nearest[r["id"]], lambda r: r["category"])


def audio_coherence() -> list[MediaBaseline]:
    """docs/audio.md, audio-conversation-coherence. Keyword: coherent when every agent reply to a customer
    turn of three or more content words repeats one of them. Word overlap (bench/audio.py's): the mean over
    agent replies of the share of their content words heard before, at the threshold best on tune."""
    from agentunit.audio.statements import content_words

    rows = _audio_rows("coherence")
    keyword, overlap = {}, {}
    for row in rows:
        segments = _segments(row).segments
        heard, shares, repeats = set(), [], []
        for before, segment in zip([None, *segments], segments, strict=False):
            words = content_words(segment["text"])
            if segment["speaker"] == "agent" and heard and words:
                shares.append(len(words & heard) / len(words))
            if (segment["speaker"] == "agent" and before is not None and before["speaker"] == "customer"
                    and len(content_words(before["text"])) >= 3):
                repeats.append(bool(words & content_words(before["text"])))
            heard |= words
        overlap[row["id"]] = sum(shares) / len(shares) if shares else 0.0
        keyword[row["id"]] = all(repeats)
    tune = [r for r in rows if r["split"] == "tune"]
    at = _best_grid_threshold([overlap[r["id"]] for r in tune], [r["label"] for r in tune])
    return _per_split("audio.md coherence", "coherence", "audio-conversation-coherence", rows,
                      lambda r: keyword[r["id"]], lambda r: overlap[r["id"]] >= at, lambda r: r["label"])


def audio_intent() -> list[MediaBaseline]:
    """docs/audio.md, audio-false-intent-identification, on the request, actions and tool calls the metric
    reads. Keyword: the request's verb (its first content word after the request cue: I want to *cancel*,
    can you *reset*) among the actions' and tool calls' content words. Word overlap (bench/audio.py's): the
    share of the request's content words in the actions and tool calls, at the threshold best on tune."""
    from agentunit.audio.conversation import _REQUEST, agent_actions, caller_request, tool_text
    from agentunit.audio.statements import content_words
    from agentunit.audio.transcription import normalise

    rows = _audio_rows("intent")
    keyword, overlap = {}, {}
    for row in rows:
        transcript = _segments(row)
        found = caller_request(transcript)
        acted = " ".join([a["text"] for a in agent_actions(transcript, found["segment"])]
                         + [tool_text(c) for c in row.get("tool_calls") or []])
        said = normalise(found["text"])
        cue = _REQUEST.search(said)
        verb = next((w for word in said[cue.end() if cue else 0:].split() for w in content_words(word)), None)
        keyword[row["id"]] = verb is not None and verb in content_words(acted)
        request = content_words(found["text"])
        overlap[row["id"]] = len(request & content_words(acted)) / len(request) if request else 0.0
    tune = [r for r in rows if r["split"] == "tune"]
    at = _best_grid_threshold([overlap[r["id"]] for r in tune], [r["label"] for r in tune])
    return _per_split("audio.md intent", "intent", "audio-false-intent-identification", rows,
                      lambda r: keyword[r["id"]], lambda r: overlap[r["id"]] >= at, lambda r: r["label"])


def audio_sentiment() -> list[MediaBaseline]:
    """docs/audio.md, audio-sentiment (3 classes). Keyword: bench/audio.py's word lexicon on the customer's
    words; word overlap: the sentiment of the tune call whose customer words have the highest Jaccard."""
    audio_bench = _load_module("bench_audio", Path(__file__).resolve().parent / "audio.py")
    rows = _audio_rows("sentiment")
    nearest = _nearest_tune_label(rows, _customer_words, lambda r: r["sentiment"])
    return _per_split("audio.md sentiment", "sentiment", "audio-sentiment", rows,
                      lambda r: audio_bench._lexicon(" ".join(s["text"] for s in r["transcript"]
                                                              if s["speaker"] == "customer")),
                      lambda r: nearest[r["id"]], lambda r: r["sentiment"])


def _ba3(pairs: Iterable[tuple[int, bool]]) -> str:
    return f"{balanced_accuracy(pairs):.3f}"


def multimodal_sets() -> list[MediaBaseline]:
    """docs/multimodal.md, the image metrics' table: balanced accuracy on the test rows (all rows), from the
    OCR text bench/multimodal_ocr.py stored in tests/data/multimodal/ocr.json (the shipped OCR model's
    reading of each image; no model runs here). Keyword: the key terms (numbers, names, quoted text) of
    what is judged all in what it is judged against, spaces ignored (OCR drops them); for captions the
    reference caption inside the output, as for the text sets. Word overlap (bench/multimodal.py's):
    Jaccard of content words passing at the cut best on the tune rows."""
    from agentunit.calibration.stats import best_threshold
    from agentunit.multimodal.metrics import content_words

    bench = Path(__file__).resolve().parent
    multimodal = _load_module("bench_multimodal", bench / "multimodal.py")
    ocr = json.loads((multimodal.DATA / "ocr.json").read_text())

    def read(spec: dict) -> str:
        return ocr[json.dumps(spec, sort_keys=True)]

    def jaccard(a: str, b: str) -> float:
        x, y = set(content_words(a)), set(content_words(b))
        return len(x & y) / len(x | y) if x | y else 0.0

    def squash(value: str) -> str:
        return "".join(value.lower().split())

    def terms_in(judged: str, against: str) -> bool:
        return all(squash(t.strip("'\"`.,;:")) in squash(against) for t in text_baselines._KEY_TERM.findall(judged))

    def pair(metric: str, row: dict) -> tuple[bool, float]:
        """(keyword prediction, word-overlap score) of one row."""
        if metric == "cross_modal_grounding":
            seen = read(row["sign"])
            return terms_in(row["output"], seen), jaccard(row["output"], seen)
        if metric == "image_caption_accuracy":
            return (text_baselines._norm(row["expected"]) in text_baselines._norm(row["output"]),
                    jaccard(row["output"], row["expected"]))
        if metric == "multimodal_coherence":
            seen = read(row["image"])
            return terms_in(row["output"], seen), jaccard(row["output"], seen)
        if metric == "image-helpfulness":
            asked, seen = f"{row['query']} {row['output']}", read(row["image"])
            return terms_in(asked, seen), jaccard(asked, seen)
        items = [read(c["image"]) if isinstance(c, dict) else c for c in row["context"]]
        if metric == "multimodal-contextual-relevancy":
            return (all(terms_in(row["query"], item) for item in items),
                    sum(jaccard(row["query"], item) for item in items) / len(items))
        return terms_in(row["expected"], " ".join(items)), jaccard(row["expected"], " ".join(items))

    out = []
    for metric, name in multimodal.SETS.items():
        rows = multimodal.load(name)
        scored = [(row, *pair(metric, row)) for row in rows]
        tune = [(r, s) for r, _, s in scored if r["split"] == "tune"]
        cut = best_threshold([s for _, s in tune], [bool(r["label"]) for r, _ in tune]).threshold
        test = [x for x in scored if x[0]["split"] == "test"]
        out.append(MediaBaseline(
            "multimodal.md", name.removesuffix(".jsonl"), metric, len(test),
            f"{_ba3((r['label'], k) for r, k, _ in test)} ({_ba3((r['label'], k) for r, k, _ in scored)})",
            f"{_ba3((r['label'], s >= cut) for r, _, s in test)} "
            f"({_ba3((r['label'], s >= cut) for r, _, s in scored)})"))
    return out


_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[^\sA-Za-z0-9_]+")


def code_language() -> list[MediaBaseline]:
    """docs/code-and-moderation.md, code-language on the test split: word overlap = the language of the tune
    snippet whose token set (identifiers, keywords and punctuation runs) has the highest Jaccard with the
    snippet's (the keyword baseline, pygments' keyword share, needs the classifier's features and stays in
    bench/code_language.py)."""
    rows = _rows(DATA / "code_languages" / "snippets.jsonl")
    tokens = {r["id"]: set(_TOKEN.findall(r["code"])) for r in rows}
    nearest = _nearest_tune_label(rows, lambda r: tokens[r["id"]], lambda r: r["language"])
    test = [r for r in rows if r["split"] == "test"]
    share = {kind: sum(nearest[r["id"]] == r["language"] for r in part) / len(part)
             for kind, part in (("all", test), *((k, [r for r in test if r["kind"] == k]) for k in ("long", "short")))}
    return [MediaBaseline("code-and-moderation.md code-language", "snippets test", "code-language", len(test),
                          "–", f"{share['all']:.3f} | {share['long']:.3f} | {share['short']:.3f}")]


def moderation() -> list[MediaBaseline]:
    """docs/code-and-moderation.md, moderation on the test rows (macro AUPRC; macro precision / recall; "flagged
    at all" BA (recall / clean kept), every score at 0.5), with bench/moderation.py's figures. Keyword: a
    category's score is k / (k + 1) for k of its name's and definition's content words in the text (flagged
    at one word). Word overlap (bench/moderation.py's): Jaccard with the most similar tune row labelled with
    the category minus that with the most similar one not labelled with it."""
    from agentunit.moderation.taxonomy import CATEGORIES, DEFINITIONS

    bench = _load_module("bench_moderation", Path(__file__).resolve().parent / "moderation.py")
    rows = bench.load("test")
    words = {c: text_baselines.content_words(f"{c.replace('/', ' ')} {DEFINITIONS[c]}") for c in CATEGORIES}
    keyword = []
    for row in rows:
        said = text_baselines.content_words(row["text"])
        keyword.append({c: len(words[c] & said) / (len(words[c] & said) + 1) for c in CATEGORIES})

    def cells(f: dict) -> str:
        m = f["mean"]
        return (f"{m['auprc']:.3f} | {m['precision']:.3f} / {m['recall']:.3f} | {f['flagged_ba']:.3f} "
                f"({f['flagged_recall']:.3f} / {f['clean_kept']:.3f})")

    return [MediaBaseline("code-and-moderation.md moderation", "moderation test", "moderation", len(rows),
                          cells(bench.figures(keyword, rows)),
                          cells(bench.figures(bench.word_overlap_scores(rows, bench.load("tune")), rows)))]


def media() -> list[MediaBaseline]:
    return [*audio_call_category(), *audio_coherence(), *audio_intent(), *audio_sentiment(), *multimodal_sets(),
            *code_language(), *moderation()]


def main() -> None:
    print("| docs table | set | metric | rows | substring / keyword BA | Jaccard ≥ 0.5 BA | word-overlap AUC |")
    print("|---|---|---|---|---|---|---|")
    for baseline in everything():
        print(baseline.line())
    print()
    print("| docs table | set and split | metric | rows | substring / keyword | word overlap |")
    print("|---|---|---|---|---|---|")
    for baseline in media():
        print(baseline.line())


if __name__ == "__main__":
    main()
