"""Bench: the audio timing metrics on the composed test calls (tests/data/audio/calls.py).

Parts (all by default; ``--part=timing|labelled|asr|language`` runs one; asr runs language too):

- timing: seconds of work per minute of audio for decode + voice activity + the four timing metrics, and
  the timing errors against the truth of the clip placement: response gaps, barge-in times and overlaps,
  dead-air lengths (s), and the talk ratio (relative). Each call is measured as composed (8 kHz),
  resampled to 16 and 48 kHz, and with louder line noise (-35 dBFS).
- labelled: accuracy of audio-disclaimer-check, audio-consent-check (and audio-call-category, against a
  keyword baseline: the category whose name and description share most content words with the caller's
  words) on the labelled transcripts
  (tests/data/audio/disclaimer.jsonl, consent.jsonl; tests/data/audio/labelled.py), next to two baselines
  that differ only in how a sentence is matched to the statement: the normalised statement as a substring,
  and word overlap (share of the statement's words in the sentence). Thresholds are calibrated on the
  tune split (a grid, best accuracy over both sets) and reported on the test split.
- conversation: audio-conversation-coherence, audio-false-intent-identification and audio-sentiment on their
  labelled transcripts (tests/data/audio/coherence.jsonl, intent.jsonl, sentiment.jsonl): the variants
  compared on the tune split (judge wordings, judge vs MiniLM, thresholds), the chosen one on test, next to
  word-overlap / lexicon baselines tuned the same way; seconds and judge calls per case.
- asr: seconds per minute of audio with speech recognition (faster-whisper; needs `agentunit models
  install asr asr-tiny-en`), and the word error rate of the recognised calls against the scripts.
- language: seconds per minute and per turn of audio-language (Whisper's language ID per turn), then the
  labelled generated calls of audio-language and audio-language-switch (tests/data/audio/language.jsonl,
  language_switch.jsonl; clips synthesised by espeak-ng + sox, `make audio-tools`): the confidence floor (and,
  for audio-language, the averaged vs every-turn reading) chosen on the 16 kHz tune rows, test accuracy per
  condition (16 kHz, 8 kHz telephone band) next to always-pass and majority-language baselines, seconds per call.
Usage: python bench/audio.py [REPEATS] [--part=timing|labelled|conversation|asr|language]
       [--metric=coherence|intent|sentiment] [--whole] (conversation: one metric; coherence's whole-call
       method too)
"""

from __future__ import annotations

import importlib.util
import json
import sys
import time
from pathlib import Path

import numpy as np

from agentunit import check
from agentunit.audio import clear_cache

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "audio" / "calls.py"
_spec = importlib.util.spec_from_file_location("audio_calls", DATA)
calls = importlib.util.module_from_spec(_spec)
sys.modules["audio_calls"] = calls
_spec.loader.exec_module(calls)

METRICS = ("audio-agent-response-time", "audio-talk-to-listen-ratio", "audio-interruption-handling",
           "audio-drop-out-rates")
VARIANTS = {"8 kHz": {}, "16 kHz": {"rate": 16000}, "48 kHz": {"rate": 48000}, "noise -35 dBFS": {"noise_db": -35.0}}


def _measure(scene, wav: bytes) -> tuple[float, dict[str, list[float]]]:
    clear_cache()
    start = time.perf_counter()
    results = {name: check("", name, audio=wav) for name in METRICS}
    elapsed = time.perf_counter() - start
    errors: dict[str, list[float]] = {"gap": [], "barge_at": [], "overlap": [], "dead_air": [], "ratio_rel": []}
    gaps = [g["gap_ms"] / 1000 for g in results[METRICS[0]].detail["gaps"]]
    errors["gap"] = [abs(a - b) for a, b in zip(gaps, scene.gaps, strict=True)]
    for event, (_, at, overlap, _) in zip(results[METRICS[2]].detail["barge_ins"], scene.barge_ins, strict=True):
        errors["barge_at"].append(abs(event["at"] - at))
        errors["overlap"].append(abs(event["overlap_s"] - overlap))
    lengths = [d["length_s"] for d in results[METRICS[3]].detail["dead_air"]]
    errors["dead_air"] = [abs(a - b) for a, b in zip(lengths, scene.dead_air, strict=True)]
    errors["ratio_rel"] = [abs(results[METRICS[1]].value / scene.talk_ratio - 1)]
    return elapsed, errors


def timing(repeats: int) -> None:
    check("", METRICS[0], audio=calls.scenarios()[0].wav())  # imports and first-call costs out of the timing
    print(f"{'variant':16} {'audio s':>8} {'s/min audio':>12} {'gap err mean/max s':>19} "
          f"{'barge-in at/overlap max s':>26} {'dead air max s':>15} {'ratio err max':>14}")
    for label, kwargs in VARIANTS.items():
        seconds, audio_s, errors = 0.0, 0.0, {"gap": [], "barge_at": [], "overlap": [], "dead_air": [], "ratio_rel": []}
        for scene in calls.scenarios():
            wav = scene.wav(**kwargs)
            audio_s += scene.duration
            times = []
            for _ in range(repeats):
                elapsed, found = _measure(scene, wav)
                times.append(elapsed)
            seconds += min(times)
            for key, values in found.items():
                errors[key] += values
        gap = np.array(errors["gap"])
        print(f"{label:16} {audio_s:8.1f} {seconds / audio_s * 60:12.3f} {gap.mean():9.3f} / {gap.max():.3f}"
              f" {max(errors['barge_at']):15.3f} / {max(errors['overlap']):.3f} {max(errors['dead_air']):15.3f}"
              f" {max(errors['ratio_rel']):13.1%}")
    print(f"({len(calls.scenarios())} calls per variant; {len(gap)} response gaps, "
          f"{len(errors['barge_at'])} barge-ins, {len(errors['dead_air'])} dead-air stretches; best of {repeats})")


LABELLED = DATA.parent
SIMILARITIES = [round(0.30 + 0.05 * i, 2) for i in range(12)]
COVERAGES = [0.0, 0.2, 0.25, 0.34, 0.4, 0.5, 0.6]
OVERLAPS = [round(0.1 + 0.05 * i, 2) for i in range(18)]


class _Baseline:
    """A matcher that scores a window by substring or word overlap only (no meaning, no lexical checks)."""

    def __init__(self, kind: str):
        self.kind = kind

    def compare(self, statements, windows):
        from agentunit.audio.statements import Match
        from agentunit.audio.transcription import normalise

        table = []
        for statement in statements:
            said = normalise(statement)
            words = set(said.split())
            row = []
            for window in windows:
                text = normalise(window["text"])
                score = float(said in text) if self.kind == "substring" else len(words & set(text.split())) / len(words)
                row.append(Match(score, 1.0, True, True))
            table.append(row)
        return table


def _rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (LABELLED / f"{name}.jsonl").open()]


def _accuracy(name: str, rows: list[dict], min_similarity: float, min_coverage: float, matcher=None) -> float:
    from agentunit.metrics import create_metric

    metric = create_metric(f"audio-{name}-check", config={"within_s": 0, "min_similarity": min_similarity,
                                                          "min_coverage": min_coverage})
    right = 0
    for row in rows:
        metric.within_s = row["within_s"]
        metric.matcher = matcher or metric.matcher
        result = _check(metric, row)
        right += (result.passed is True) == row["label"]
    return right / len(rows)


def _check(metric, row):
    from agentunit import check

    metric.value, metric.statements = row["statement"], [row["statement"]]
    return check({"output": "", "trusys": {"transcript": row["transcript"]}}, metric)


def labelled() -> None:
    sets = {name: _rows(name) for name in ("disclaimer", "consent")}
    tune = {name: [r for r in rows if r["split"] == "tune"] for name, rows in sets.items()}
    test = {name: [r for r in rows if r["split"] == "test"] for name, rows in sets.items()}

    def best(grid, run):
        scored = [(sum(run(name, tune[name], *point) * len(tune[name]) for name in sets), point) for point in grid]
        top = max(s for s, _ in scored)
        return [p for s, p in scored if s == top]

    ours = best([(s, c) for s in SIMILARITIES for c in COVERAGES], _accuracy)
    chosen = ours[len(ours) // 2]
    overlap = best([(o, 0.0) for o in OVERLAPS], lambda n, r, o, c: _accuracy(n, r, o, c, _Baseline("overlap")))
    overlap_at = overlap[len(overlap) // 2][0]
    print(f"calibrated on tune: min_similarity {chosen[0]}, min_coverage {chosen[1]} "
          f"({len(ours)} grid points tie); word-overlap threshold {overlap_at}")
    print(f"{'metric':28} {'split':6} {'rows':>5} {'pos':>4} {'ours':>6} {'substring':>10} {'word overlap':>13}")
    for name in sets:
        for split, rows in (("tune", tune[name]), ("test", test[name])):
            print(f"{'audio-' + name + '-check':28} {split:6} {len(rows):5d} {sum(r['label'] for r in rows):4d}"
                  f" {_accuracy(name, rows, *chosen):6.1%}"
                  f" {_accuracy(name, rows, 0.5, 0.0, _Baseline('substring')):10.1%}"
                  f" {_accuracy(name, rows, overlap_at, 0.0, _Baseline('overlap')):13.1%}")
    for name in sets:
        wrong = [r["id"] for r in test[name] if (_check_with(name, r, chosen).passed is True) != r["label"]]
        print(f"{name} test rows wrong: {', '.join(wrong) or 'none'}")


def categories() -> None:
    from agentunit.audio.statements import content_words
    from agentunit.metrics import create_metric

    lines = [json.loads(line) for line in (LABELLED / "call_category.jsonl").open()]
    names, rows = lines[0]["categories"], lines[1:]
    metric = create_metric("audio-call-category", value=next(iter(names)), config={"categories": names})
    words = {n: content_words(f"{n} {d}") for n, d in names.items()}
    print(f"{'audio-call-category':28} {'split':6} {'rows':>5} {'ours':>6} {'keywords':>9}   (4 classes)")
    for split in ("tune", "test"):
        chosen = [r for r in rows if r["split"] == split]
        ours = keyword = 0
        wrong = []
        for row in chosen:
            metric.value = row["category"]
            result = _check(metric, {**row, "statement": row["category"]})
            ours += result.passed is True
            if result.passed is not True:
                wrong.append(f"{row['id']}→{result.detail.get('category')}")
            said = content_words(" ".join(s["text"] for s in row["transcript"] if s["speaker"] == "customer"))
            keyword += max(names, key=lambda n: len(words[n] & said)) == row["category"]
        print(f"{'':28} {split:6} {len(chosen):5d} {ours / len(chosen):6.1%} {keyword / len(chosen):9.1%}"
              f"   wrong: {', '.join(wrong) or 'none'}")


def _check_with(name, row, chosen):
    from agentunit.metrics import create_metric

    metric = create_metric(f"audio-{name}-check", value=row["statement"],
                           config={"within_s": row["within_s"], "min_similarity": chosen[0],
                                   "min_coverage": chosen[1]})
    return _check(metric, row)


def _reply(row: dict) -> dict:
    return {"output": "", "trusys": {"transcript": row["transcript"], **({"tool_calls": row["tool_calls"]}
                                                                          if row.get("tool_calls") else {})}}


class _Clock:
    """Seconds and judge calls (not cache hits) of the work inside ``with clock:`` blocks, summed."""

    def __init__(self):
        self.seconds, self.calls, self.cases = 0.0, 0, 0

    def __enter__(self):
        from agentunit.judges.service import current_judge

        self._stats = current_judge().stats
        self._calls, self._start = self._stats.calls, time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.seconds += time.perf_counter() - self._start
        self.calls += self._stats.calls - self._calls
        self.cases += 1

    def line(self) -> str:
        cases = max(self.cases, 1)
        return f"{self.seconds / cases:.2f} s and {self.calls / cases:.2f} judge calls per case"


def _decide(request) -> dict:
    import asyncio

    from agentunit.judges.service import current_judge

    async def once():
        try:
            return await current_judge().decide(request)
        finally:
            await current_judge().aclose()

    return asyncio.run(once()).probabilities


def _acc(pairs) -> float:
    pairs = list(pairs)
    return sum(a == b for a, b in pairs) / len(pairs)


def _best_threshold(scores: list[float], labels: list[bool], grid) -> float:
    """The threshold with the best tune accuracy; ties: the middle one."""
    scored = [(sum((s >= t) == y for s, y in zip(scores, labels, strict=True)), t) for t in grid]
    top = max(a for a, _ in scored)
    tied = [t for a, t in scored if a == top]
    return tied[len(tied) // 2]


def _overlap(words: set[str], text: str) -> float:
    from agentunit.audio.statements import content_words

    return len(words & content_words(text)) / len(words) if words else 0.0


GRID = [round(0.05 * i, 2) for i in range(21)]


def coherence() -> None:
    from agentunit.audio import metrics as audio_metrics
    from agentunit.audio.conversation import dialogue
    from agentunit.audio.statements import app_transcript, content_words

    rows = _rows("coherence")
    clock = _Clock()
    ours, whole, overlap = {}, {}, {}
    for row in rows:
        with clock:
            result = check(_reply(row), "audio-conversation-coherence")
        ours[row["id"]] = result.value
        transcript = app_transcript(type("O", (), {"metadata": {"transcript": row["transcript"]}})(), None)
        if row["split"] == "tune" and "--whole" in sys.argv:  # one question over the whole call, on tune only
            whole[row["id"]] = _decide(audio_metrics.coherence_request(dialogue(transcript)))["yes"]
        heard, shares = set(), []
        for segment in transcript.segments:
            words = content_words(segment["text"])
            if segment["speaker"] == "agent" and heard and words:
                shares.append(len(words & heard) / len(words))
            heard |= words
        overlap[row["id"]] = sum(shares) / len(shares) if shares else 0.0
    tune = [r for r in rows if r["split"] == "tune"]
    labels = [r["label"] for r in tune]
    at = _best_threshold([overlap[r["id"]] for r in tune], labels, GRID)
    ours_at = _best_threshold([ours[r["id"]] for r in tune], labels, GRID)
    print(f"audio-conversation-coherence: tune {len(tune)} rows; per-reply decisions (ours) ≥ 0.5: "
          f"{_acc((ours[r['id']] >= 0.5, r['label']) for r in tune):.1%}; threshold best on tune {ours_at} "
          f"(reported below); word overlap threshold {at}; scores of coherent / not coherent calls: "
          + ", ".join(f"{sorted(round(ours[r['id']], 2) for r in tune if r['label'] is label)}"
                      for label in (True, False)))
    if whole:
        whole_at = _best_threshold([whole[r["id"]] for r in tune], labels, GRID)
        print(f"  one question over the whole call (config.method: whole), tune: P(yes) ≥ 0.5: "
              f"{_acc((whole[r['id']] >= 0.5, r['label']) for r in tune):.1%}, at its best threshold {whole_at}: "
              f"{_acc((whole[r['id']] >= whole_at, r['label']) for r in tune):.1%} (P(yes) "
              f"{min(whole.values()):.2f}–{max(whole.values()):.2f})")
    _report("audio-conversation-coherence", rows, lambda r: ours[r["id"]] >= ours_at,
            {"word overlap": lambda r: overlap[r["id"]] >= at, "always coherent": lambda r: True})
    by_kind = {}
    for r in rows:
        if r["split"] == "test":
            by_kind.setdefault(r["kind"], []).append((ours[r["id"]] >= ours_at) == r["label"])
    print("  test by kind: " + ", ".join(f"{k} {sum(v)}/{len(v)}" for k, v in by_kind.items()))
    test = [r for r in rows if r["split"] == "test"]
    recalls = [_acc((ours[r["id"]] >= ours_at, r["label"]) for r in test if r["label"] is label)
               for label in (True, False)]
    from agentunit.calibration.stats import expected_calibration_error

    ece = expected_calibration_error([ours[r["id"]] for r in test], [r["label"] for r in test])
    print(f"  test balanced accuracy {sum(recalls) / 2:.3f} (pass recall {recalls[0]:.3f}, "
          f"fail recall {recalls[1]:.3f}), ECE {ece:.3f}")
    print(f"  {clock.line()}")


def _report(name: str, rows: list[dict], ours, baselines: dict, label=lambda r: r["label"]) -> None:
    print(f"{name:36} {'split':6} {'rows':>5} {'pos':>4} {'ours':>6} " + " ".join(f"{b:>16}" for b in baselines))
    for split in ("tune", "test"):
        chosen = [r for r in rows if r["split"] == split]
        positives = sum(bool(label(r)) is True for r in chosen) if isinstance(label(chosen[0]), bool) else "-"
        print(f"{'':36} {split:6} {len(chosen):5d} {positives!s:>4} {_acc((ours(r), label(r)) for r in chosen):6.1%} "
              + " ".join(f"{_acc((b(r), label(r)) for r in chosen):16.1%}" for b in baselines.values()))
        wrong = [r["id"] for r in chosen if ours(r) != label(r)]
        print(f"{'':36} {split} wrong: {', '.join(wrong) or 'none'}")


def intent() -> None:
    rows = _rows("intent")
    clock = _Clock()
    judged, similar, overlap = {}, {}, {}
    from agentunit.audio.statements import content_words

    for row in rows:
        with clock:
            detail = check(_reply(row), "audio-false-intent-identification").detail  # the default: MiniLM
        similar[row["id"]] = detail["similarity"]
        judged[row["id"]] = check(_reply(row), {"metric": "audio-false-intent-identification",
                                                "config": {"method": "judge"}}).value
        overlap[row["id"]] = _overlap(content_words(detail["caller_intent"]),
                                      " ".join(detail["agent_actions"] + detail["tool_calls"]))
    tune = [r for r in rows if r["split"] == "tune"]
    labels = [r["label"] for r in tune]
    sim_at = _best_threshold([similar[r["id"]] for r in tune], labels, GRID)
    over_at = _best_threshold([overlap[r["id"]] for r in tune], labels, GRID)
    judge_at = _best_threshold([judged[r["id"]] for r in tune], labels, GRID)
    print(f"audio-false-intent-identification: tune {len(tune)} rows; judge P(yes) ≥ 0.5: "
          f"{_acc((judged[r['id']] >= 0.5, r['label']) for r in tune):.1%} (best threshold {judge_at}); MiniLM "
          f"similarity ≥ {sim_at} (best on tune): {_acc((similar[r['id']] >= sim_at, r['label']) for r in tune):.1%}; "
          f"both: {_acc((judged[r['id']] >= 0.5 and similar[r['id']] >= sim_at, r['label']) for r in tune):.1%}; "
          f"word overlap ≥ {over_at}")
    _report("audio-false-intent-identification", rows, lambda r: similar[r["id"]] >= sim_at,
            {"judge P(yes) ≥ 0.5": lambda r: judged[r["id"]] >= 0.5,
             "judge and MiniLM": lambda r: judged[r["id"]] >= 0.5 and similar[r["id"]] >= sim_at,
             f"word overlap ≥ {over_at}": lambda r: overlap[r["id"]] >= over_at})
    by_kind = {}
    for r in rows:
        if r["split"] == "test":
            by_kind.setdefault(r["kind"], []).append(((similar[r["id"]] >= sim_at) == r["label"],
                                                      (judged[r["id"]] >= 0.5) == r["label"]))
    print("  test by kind (MiniLM / judge): " + ", ".join(
        f"{k} {sum(a for a, _ in v)}/{sum(b for _, b in v)} of {len(v)}" for k, v in by_kind.items()))
    print(f"  ours (MiniLM, the default): {clock.line()}")


POSITIVE_WORDS = set("""great brilliant thanks thank helpful happy pleased wonderful lovely perfect excellent amazing
fantastic delighted love good relieved appreciate star excited best quick easy recommend""".split())
NEGATIVE_WORDS = set("""problem fed furious ridiculous disgusted frustrated angry unhappy unacceptable terrible worst
nightmare upset stressed rude waste disappointed complaint lied broken not nothing never don't doesn't isn't
cancelling losing""".split())


def _lexicon(text: str) -> str:
    from agentunit.audio.transcription import normalise

    words = normalise(text).split()
    pos, neg = sum(w in POSITIVE_WORDS for w in words), sum(w in NEGATIVE_WORDS for w in words)
    return "positive" if pos > neg else "negative" if neg > pos else "neutral"


def sentiment() -> None:
    rows = _rows("sentiment")
    clock = _Clock()
    judged, embedded, lexicon = {}, {}, {}
    for row in rows:
        spec = {"metric": "audio-sentiment", "value": row["sentiment"]}
        with clock:
            judged[row["id"]] = check(_reply(row), spec).detail["sentiment"]
        embedded[row["id"]] = check(_reply(row), {**spec, "config": {"method": "embedding"}}).detail["sentiment"]
        lexicon[row["id"]] = _lexicon(" ".join(s["text"] for s in row["transcript"] if s["speaker"] == "customer"))
    print("audio-sentiment (3 classes; accuracy = the predicted sentiment is the label):")
    _report("audio-sentiment", rows, lambda r: judged[r["id"]],
            {"MiniLM descriptions": lambda r: embedded[r["id"]], "word lexicon": lambda r: lexicon[r["id"]]},
            label=lambda r: r["sentiment"])
    for split in ("tune", "test"):
        by_kind = {}
        for r in rows:
            if r["split"] == split:
                by_kind.setdefault(r["kind"], []).append(
                    (judged[r["id"]] == r["sentiment"], embedded[r["id"]] == r["sentiment"]))
        print(f"  {split} by kind (judge / MiniLM): " + ", ".join(
            f"{k} {sum(a for a, _ in v)}/{sum(b for _, b in v)} of {len(v)}" for k, v in by_kind.items()))
    print(f"  {clock.line()} (judge)")


def conversation() -> None:
    only = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--metric=")), None)
    for name, run in (("coherence", coherence), ("intent", intent), ("sentiment", sentiment)):
        if only in (None, name):
            run()
            sys.stdout.flush()


def _script_text(scene) -> str:
    """What the call's lines say, in start order (a line cut short still counts whole: WER is pessimistic)."""
    build = importlib.util.spec_from_file_location("audio_build", DATA.parent / "build.py")
    module = importlib.util.module_from_spec(build)
    build.loader.exec_module(module)
    return " ".join(module.LINES[line.name][1] for line in sorted(scene.script.lines, key=lambda x: x.start))


def asr(repeats: int) -> None:
    from agentunit.audio.asr import asr_missing, clear_asr_cache
    scenes = calls.scenarios()
    audio_s = sum(scene.duration for scene in scenes)
    for model in ("asr-tiny-en", "asr"):
        if asr_missing(model):
            print(f"{model}: {asr_missing(model)}")
            continue
        spec = {"metric": "audio_transcription_quality", "config": {"source": "asr", "asr_model": model}}
        check("", {**spec, "value": "hello"}, audio=scenes[0].wav())  # load the model outside the timing
        seconds, wers = 0.0, []
        for scene in scenes:
            wav, times = scene.wav(), []
            for _ in range(repeats):
                clear_cache()
                clear_asr_cache()
                start = time.perf_counter()
                result = check("", {**spec, "value": _script_text(scene)}, audio=wav)
                times.append(time.perf_counter() - start)
            seconds += min(times)
            wers.append(result.detail["wer"])
        print(f"{model:12} {audio_s:7.1f} s of audio: {seconds / audio_s * 60:6.2f} s per minute with ASR "
              f"(decode + VAD + recognition); WER mean {np.mean(wers):.3f}, per call "
              f"{', '.join(f'{w:.2f}' for w in wers)} (best of {repeats})")


def language(repeats: int) -> None:
    from agentunit.audio.asr import asr_missing, clear_asr_cache

    if asr_missing("asr"):
        print(f"language: {asr_missing('asr')}")
        return
    scenes = calls.scenarios()
    audio_s = sum(scene.duration for scene in scenes)
    check("", "audio-language", audio=scenes[0].wav())  # load the model outside the timing
    seconds, turns, found = 0.0, 0, []
    for scene in scenes:
        wav, times = scene.wav(), []
        for _ in range(repeats):
            clear_cache()
            clear_asr_cache()
            start = time.perf_counter()
            result = check("", {"metric": "audio-language", "value": "en"}, audio=wav)
            times.append(time.perf_counter() - start)
        seconds += min(times)
        turns += len(result.detail["turns"])
        found.append(f"{result.detail['language']} {result.detail['confidence']:.2f}")
    print(f"audio-language {audio_s:7.1f} s of audio, {turns} turns: {seconds / audio_s * 60:6.2f} s per minute "
          f"({seconds / turns:.2f} s per turn); per call: {', '.join(found)} (best of {repeats})")


def _language_rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA.parent / f"{name}.jsonl").read_text().splitlines()]


def _run_language_set(metric: str, rows: list[dict]) -> list[dict]:
    """Each row's call composed and scored once (caches cleared): the result and the seconds it took."""
    from agentunit.audio.asr import clear_asr_cache

    found = []
    for row in rows:
        wav, starts = calls.language_call(row)
        clear_cache()
        clear_asr_cache()
        spec = {"metric": metric, "config": {"min_confidence": 0.0}}
        if metric == "audio-language":
            spec["value"] = row["value"]
        begin = time.perf_counter()
        result = check("", spec, audio=wav)
        found.append({"row": row, "starts": starts, "seconds": time.perf_counter() - begin,
                      "turns": result.detail.get("turns", []), "detail": result.detail, "reason": result.reason})
    return found


def _language_verdict(item: dict, floor: float, method: str) -> bool:
    """audio-language's verdict at ``floor`` from the per-turn languages: ``average`` (the metric: the
    length-weighted mean distribution's top language, confidence ≥ floor, in the allow-list) or ``every_turn``
    (every turn identified ≥ floor is in the allow-list, and at least one is)."""
    allowed, turns = item["row"]["value"], item["turns"]
    if method == "average":
        weights = [max(t["end"] - t["start"], 0.01) for t in turns]
        totals: dict[str, float] = {}
        for turn, weight in zip(turns, weights, strict=True):
            for code, p in turn["probs"].items():
                totals[code] = totals.get(code, 0.0) + weight * p
        code, p = max(totals.items(), key=lambda x: x[1])
        return p / sum(weights) >= floor and code in allowed
    known = [t for t in turns if t["probability"] >= floor]
    return bool(known) and all(t["language"] in allowed for t in known)


def _switches(item: dict, floor: float) -> list[dict]:
    out, previous = [], None
    for turn in item["turns"]:
        if turn["probability"] < floor:
            continue
        if previous is not None and turn["language"] != previous["language"]:
            out.append({"at": turn["start"]})
        previous = turn
    return out


def _pct(hits: list[bool]) -> str:
    return f"{100 * sum(hits) / len(hits):5.1f} %" if hits else "    —"


def language_set() -> None:
    """audio-language and audio-language-switch on the labelled generated calls (tests/data/audio/language.jsonl,
    language_switch.jsonl): settings chosen on tune, accuracy on test per condition next to trivial baselines."""
    from agentunit.audio.asr import asr_missing

    if asr_missing("asr"):
        print(f"language set: {asr_missing('asr')}")
        return
    sys.path.insert(0, str(DATA.parent))
    import build

    print(f"language set: espeak-ng {build.espeak_version()}, Whisper base language ID per turn")
    check("", "audio-language", audio=calls.language_call(_language_rows("language")[0])[0])  # load the model
    floors = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7)
    conditions = (("16 kHz", 16_000), ("8 kHz telephone band", 8_000))

    items = _run_language_set("audio-language", _language_rows("language"))
    tune = [i for i in items if i["row"]["split"] == "tune" and i["row"]["rate"] == 16_000]
    grid = {(m, f): _acc_of(tune, lambda i, m=m, f=f: _language_verdict(i, f, m))
            for m in ("average", "every_turn") for f in floors}
    for (m, f), acc in grid.items():
        print(f"  audio-language tune 16 kHz: {m:10} min_confidence {f:.1f}: {acc:5.1f} %")
    best = max(grid.values())  # ties: the shipped method, then the floor closest to the shipped 0.4
    chosen = min((k for k, acc in grid.items() if acc == best),
                 key=lambda k: (k[0] != "average", abs(k[1] - 0.4), k[1]))
    print(f"  chosen on tune: {chosen[0]}, min_confidence {chosen[1]}")
    spoken = [t[1] for i in items if i["row"]["split"] == "tune" for t in i["row"]["turns"]]
    majority = max(sorted(set(spoken)), key=spoken.count)  # ties: the first code alphabetically
    print(f"audio-language (test; baselines: always pass, the majority language {majority!r} of tune):")
    for label, rate in conditions:
        test = [i for i in items if i["row"]["split"] == "test" and i["row"]["rate"] == rate]
        print(f"  {label:21} {len(test):2} rows ({sum(i['row']['label'] for i in test)} pass): "
              f"ours {_pct([_language_verdict(i, chosen[1], chosen[0]) == i['row']['label'] for i in test])}, "
              f"average@0.4 {_pct([_language_verdict(i, 0.4, 'average') == i['row']['label'] for i in test])}, "
              f"every_turn@{chosen[1]} "
              f"{_pct([_language_verdict(i, chosen[1], 'every_turn') == i['row']['label'] for i in test])}, "
              f"always pass {_pct([i['row']['label'] for i in test])}, "
              f"majority {_pct([(majority in i['row']['value']) == i['row']['label'] for i in test])}; "
              f"{np.mean([i['seconds'] for i in test]):.2f} s per call")
        for kind in dict.fromkeys(i["row"]["kind"] for i in test):
            group = [i for i in test if i["row"]["kind"] == kind]
            print(f"    {kind:14} {len(group):2}: "
                  f"{_pct([_language_verdict(i, chosen[1], chosen[0]) == i['row']['label'] for i in group])}")
        wrong = [i for i in test if _language_verdict(i, chosen[1], chosen[0]) != i["row"]["label"]]
        for i in wrong:
            print(f"    wrong: {i['row']['id']} {[t[1] for t in i['row']['turns']]} value {i['row']['value']}: "
                  f"averaged top {i['detail'].get('top')}; turns "
                  f"{[(t['language'], t['probability']) for t in i['turns']]}")

    items = _run_language_set("audio-language-switch", _language_rows("language_switch"))
    tune = [i for i in items if i["row"]["split"] == "tune" and i["row"]["rate"] == 16_000]
    grid = {f: _acc_of(tune, lambda i, f=f: not _switches(i, f)) for f in floors}
    for f, acc in grid.items():
        print(f"  audio-language-switch tune 16 kHz: min_confidence {f:.1f}: {acc:5.1f} %")
    floor = min((f for f, acc in grid.items() if acc == max(grid.values())), key=lambda f: (abs(f - 0.4), f))
    print(f"  chosen on tune: min_confidence {floor}")
    print("audio-language-switch (test; pass = no switch; baseline: always pass = never a switch):")
    for label, rate in conditions:
        test = [i for i in items if i["row"]["split"] == "test" and i["row"]["rate"] == rate]
        errors = []
        for i in test:
            found = _switches(i, floor)
            truth = [i["starts"][t] for t in i["row"]["switch_turns"]]
            if len(found) == len(truth):
                errors += [abs(f["at"] - t) for f, t in zip(found, truth, strict=True)]
        print(f"  {label:21} {len(test):2} rows ({sum(i['row']['label'] for i in test)} pass): "
              f"ours {_pct([(not _switches(i, floor)) == i['row']['label'] for i in test])}, "
              f"count exact {_pct([len(_switches(i, floor)) == i['row']['switches'] for i in test])}, "
              f"always pass {_pct([i['row']['label'] for i in test])}; switch times (calls with the right count) "
              f"within 0.3 s {sum(e <= 0.3 for e in errors)}/{len(errors)}, median error "
              f"{np.median(errors) if errors else 0:.2f} s; "
              f"{np.mean([i['seconds'] for i in test]):.2f} s per call")
        for kind in dict.fromkeys(i["row"]["kind"] for i in test):
            group = [i for i in test if i["row"]["kind"] == kind]
            hits = [(not _switches(i, floor)) == i["row"]["label"] for i in group]
            print(f"    {kind:14} {len(group):2}: {_pct(hits)}")
        for i in test:
            if (not _switches(i, floor)) != i["row"]["label"]:
                print(f"    wrong: {i['row']['id']} {[t[1] for t in i['row']['turns']]}: "
                      f"turns {[(t['language'], t['probability']) for t in i['turns']]}")


def _acc_of(items: list[dict], verdict) -> float:
    return 100 * sum(verdict(i) == i["row"]["label"] for i in items) / len(items)


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    part = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--part=")), "all")
    repeats = int(args[0]) if args else 3
    if part in ("all", "timing"):
        timing(repeats)
    if part in ("all", "labelled"):
        labelled()
        categories()
    if part in ("all", "conversation"):
        conversation()
    if part in ("all", "asr"):
        asr(min(repeats, 2))
    if part in ("all", "asr", "language"):
        language(min(repeats, 2))
    if part in ("all", "language"):
        language_set()


if __name__ == "__main__":
    main()
