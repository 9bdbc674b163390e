"""How far a run's judge verdicts are known to agree with people, shown beside the verdicts.

A judge-backed metric's verdicts are only as good as the judge's agreement with a careful person.
For the embedded judge that agreement is measured: ``bench/judge_agreement.py METRIC --split test``
on the held-out rows of ``tests/data/labelled`` (pass marks and prompts chosen on the tune rows
only; docs/judges.md). ``HELD_OUT`` carries those published figures, one per metric, and
``run_agreement`` says, for each judge-backed metric of a run, which figure describes its verdicts:

1. the run's calibration file, when it was fitted with the run's judge and every result of the
   metric used its fitted pass mark: the file's cross-validated balanced accuracy (the in-sample one
   when the file has none) on the user's own verdicts;
2. else the held-out figure, when the judge is the embedded one (no ``model_path``) and every result
   used the pass mark it was measured at;
3. else none, with the reason (another judge, another pass mark, no labelled set) and what to do:
   ``agentunit calibrate`` measures the configured judge on the user's own cases.

Balanced accuracy is unchanged when a metric is negated (``not-``): the verdicts and the people's
verdicts flip together, which swaps pass recall and fail recall.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from agentunit.judges.model_file import EMBEDDED_JUDGE

DOCS = "docs/judges.md#where-each-judge-metric-stands"
CALIBRATE_HINT = "`agentunit calibrate` measures it on your own cases"


@dataclass(frozen=True, slots=True)
class MeasuredAgreement:
    """A metric's published agreement with people: balanced accuracy on ``n`` held-out ``unit``s at
    ``pass_mark``, the bar issue 12 holds it to, and the section of the docs with the details."""

    balanced_accuracy: float
    n: int
    pass_mark: float | None
    bar: float
    doc: str = DOCS
    unit: str = "rows"

    @property
    def meets_bar(self) -> bool:
        return self.balanced_accuracy >= self.bar

    def to_dict(self) -> dict[str, Any]:
        return {"balanced_accuracy": self.balanced_accuracy, "n": self.n, "unit": self.unit,
                "pass_mark": self.pass_mark, "bar": self.bar, "meets_bar": self.meets_bar, "source": self.doc}

    def sentence(self) -> str:
        """The figure as a sentence of the metric reference (links relative to docs/)."""
        doc = self.doc.removeprefix("docs/")
        at = "its own pass mark" if self.pass_mark is None else f"pass mark {self.pass_mark:g}"
        standing = "meets" if self.meets_bar else "below"
        return (f"Agreement with people (embedded judge, held-out test {self.unit}): balanced accuracy "
                f"{self.balanced_accuracy:.3f} on {self.n} {self.unit} at {at}, {standing} its {self.bar:.2f} bar"
                f" ([details]({doc})).")


def _m(balanced_accuracy: float, n: int, pass_mark: float | None, bar: float = 0.85, doc: str = DOCS,
       unit: str = "rows") -> MeasuredAgreement:
    return MeasuredAgreement(balanced_accuracy, n, pass_mark, bar, doc, unit)


_AGENTIC = "docs/agentic.md#measured-embedded-15b-judge"
_CONVERSATION = "docs/agentic.md#conversational-metrics-on-the-test-rows"
_RAG_AND_TEXT = "docs/judges.md#measured-embedded-judge-2-cores"
_MULTIMODAL = "docs/multimodal.md#accuracy-and-speed"
_VIDEO = "docs/video.md#agreement-with-labelled-sets-judged-metrics-offline"
_AUDIO = "docs/audio.md#coherence-false-intent-and-sentiment-labelled-transcripts"

HELD_OUT: dict[str, MeasuredAgreement] = {
    "llm-rubric": _m(0.852, 142, 0.75, bar=0.90, doc=_RAG_AND_TEXT),
    "model-graded-closedqa": _m(0.852, 142, 0.75),  # on the llm-rubric rows, the rubric as the criterion
    "factuality": _m(0.888, 134, 0.5, doc=_RAG_AND_TEXT),
    "g-eval": _m(0.721, 154, 0.61, doc=_RAG_AND_TEXT),
    "select-best": _m(0.932, 179, None, doc="docs/promptfoo.md#how-well-select-best-picks-embedded-judge",
                      unit="outputs"),  # per output (picked or not); top-1 over the 79 groups 0.924
    "context-faithfulness": _m(0.762, 248, 0.65, bar=0.90, doc=_RAG_AND_TEXT),
    "hallucination": _m(0.762, 248, 0.35, bar=0.90, doc=_RAG_AND_TEXT),  # the same decisions, 1 − the score
    "context-recall": _m(0.885, 96, 0.5, doc=_RAG_AND_TEXT),
    "context-relevance": _m(0.854, 96, 0.5, doc=_RAG_AND_TEXT),
    "answer-relevance": _m(0.781, 96, 0.5, doc=_RAG_AND_TEXT),
    "retrieval_quality": _m(0.896, 96, 0.8, doc=_RAG_AND_TEXT),
    "answer_correctness": _m(0.856, 180, 0.4, doc=_RAG_AND_TEXT),
    "task-completion": _m(0.923, 168, 0.4, doc=_AGENTIC, unit="runs"),
    "goal-fulfillment": _m(0.881, 168, 0.6, doc=_AGENTIC, unit="runs"),
    "trajectory:goal-success": _m(0.869, 168, 0.25, unit="runs"),  # on the task-completion runs
    "tool-selection-quality": _m(0.631, 168, 0.85, doc=_AGENTIC, unit="runs"),
    "plan-adherence": _m(0.929, 112, 0.7, doc=_AGENTIC, unit="runs"),
    "plan-quality": _m(0.545, 112, 0.5, doc=_AGENTIC, unit="runs"),
    "reasoning-coherence": _m(0.696, 112, 0.7, doc=_AGENTIC, unit="runs"),
    "argument-correctness": _m(0.870, 108, 0.55, doc=_AGENTIC),
    "agent-llm-rubric": _m(0.583, 72, None, doc=_AGENTIC),  # each rule followed at P(PASS) ≥ 0.5
    "conversation-relevancy": _m(0.891, 92, 0.75, doc=_CONVERSATION, unit="dialogues"),
    "knowledge-retention": _m(0.696, 92, 0.55, doc=_CONVERSATION, unit="dialogues"),
    "role-adherence": _m(0.796, 186, 0.5, doc=_CONVERSATION, unit="dialogues"),
    "conversational-g-eval": _m(0.728, 92, 0.8, doc=_CONVERSATION, unit="dialogues"),
    "cross_modal_grounding": _m(1.0, 30, 0.5, doc=_MULTIMODAL),
    "image-helpfulness": _m(0.75, 24, 0.5, doc=_MULTIMODAL),
    "multimodal-contextual-recall": _m(0.625, 24, 0.5, doc=_MULTIMODAL),
    "multimodal-contextual-relevancy": _m(0.708, 24, 0.5, doc=_MULTIMODAL),
    "multimodal_coherence": _m(0.667, 24, 0.5, doc=_MULTIMODAL),
    "text-to-video": _m(0.5, 32, 0.5, doc=_VIDEO),
    "video-factual-consistency": _m(0.722, 36, 0.5, doc=_VIDEO),
    "video-g-eval": _m(0.5, 28, 0.61, doc=_VIDEO),
    "audio-conversation-coherence": _m(0.75, 30, 0.75, doc=_AUDIO, unit="calls"),
}
"""Test-split balanced accuracy of the embedded judge per canonical metric name, at the metric's
shipped pass mark (None: the metric has none). Judge-backed metrics without an entry have no
published balanced accuracy: ``video_response_relevance`` (needs CLIP or a vision judge, not measured
offline)."""


def is_embedded(judge: Mapping[str, Any]) -> bool:
    """Whether a judge description (``provider.describe()``) is the embedded judge the figures were
    measured with: the local provider, the embedded model, no ``model_path`` file."""
    return judge.get("provider") == "local" and judge.get("model") == EMBEDDED_JUDGE and "path" not in judge


def run_agreement(thresholds: Mapping[str | tuple[str, str], Iterable[float | None]], judge: Mapping[str, Any], *,
                  calibration: Any = None, calibration_source: str | None = None) -> dict[str, dict[str, Any]]:
    """Per judge-backed metric of a run, the agreement figure that describes its verdicts, or
    ``balanced_accuracy: None`` and why.

    ``thresholds``: the pass marks each metric's verdicts used, keyed by result name, or by (result
    name, label) for an entry with a label. ``calibration`` is the suite's calibration file
    (``agentunit.calibration.fit.Calibration``); its figures count only when it was fitted with
    ``judge``. A labelled entry calibrated under its label is reported under the label; every other
    entry under its result name.
    """
    from agentunit.calibration.fit import describe_judge, same_judge
    from agentunit.metrics.registry import UnknownMetricError, lookup

    calibrated = calibration if calibration is not None and same_judge(calibration.judge, judge) else None
    out: dict[str, dict[str, Any]] = {}
    by_name: dict[str, set[float]] = {}
    canonical: dict[str, str] = {}
    for key, used in thresholds.items():
        name, label = key if isinstance(key, tuple) else (key, None)
        try:
            info, _negated = lookup(name)
        except UnknownMetricError:
            continue
        if info.model != "judge":
            continue
        marks = {t for t in used if t is not None}
        fitted = calibrated.metrics.get(label or name) if calibrated is not None else None
        if fitted is not None and marks and all(_same(t, fitted.threshold) for t in marks):
            out[label or name] = _from_calibration(fitted, calibration_source)
        else:
            by_name.setdefault(name, set()).update(marks)
            canonical[name] = info.name
    for name, marks in by_name.items():
        published = HELD_OUT.get(canonical[name])
        out[name] = _from_held_out(published, sorted(marks), judge, canonical[name], describe_judge(dict(judge)))
    return out


def _from_calibration(fitted: Any, source: str | None) -> dict[str, Any]:
    cross = fitted.extra.get("cross_validated_balanced_accuracy")
    value = cross if isinstance(cross, (int, float)) else fitted.balanced_accuracy
    return {"balanced_accuracy": value, "n": fitted.n, "pass_mark": fitted.threshold,
            "cross_validated": isinstance(cross, (int, float)), "source": f"calibration {source or 'file'}"}


def _from_held_out(published: MeasuredAgreement | None, marks: list[float], judge: Mapping[str, Any],
                   canonical: str, judge_name: str) -> dict[str, Any]:
    if published is None:
        return {"balanced_accuracy": None,
                "reason": f"no held-out balanced accuracy is published for {canonical}; {CALIBRATE_HINT}"}
    if not is_embedded(judge):
        return {"balanced_accuracy": None,
                "reason": f"measured for the embedded judge, not for {judge_name}; {CALIBRATE_HINT}"}
    mark = published.pass_mark
    if not all(mark is not None and _same(t, mark) for t in marks):
        measured_at = "its own pass mark" if mark is None else f"pass mark {mark:g}"
        shown = ", ".join(f"{t:g}" for t in marks)
        return {"balanced_accuracy": None,
                "reason": f"measured at {measured_at}; this run used {shown}; {CALIBRATE_HINT}"}
    return published.to_dict()


def _same(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=0, abs_tol=1e-9)
