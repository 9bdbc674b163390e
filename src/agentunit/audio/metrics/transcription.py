"""audio_transcription_quality: the app's transcript (or agentunit's speech recognition of the
recording) against the reference, as 1 − WER."""

from __future__ import annotations

from typing import Any

from agentunit.audio.metrics.base import _asr_model, call_options
from agentunit.audio.statements import call_transcript
from agentunit.audio.transcription import error_rates, normalise, transcript_text
from agentunit.errors import MetricConfigError
from agentunit.metrics.base import Metric, MetricResult, keyword_config
from agentunit.metrics.registry import register


@register("audio_transcription_quality", family="audio", aliases=("audio-transcription-quality",),
          needs=("expected_output",), value="optional", threshold=0.8,
          example="{metric: audio_transcription_quality, value: \"I was charged twice this month.\"}")
class AudioTranscriptionMetric(Metric):
    """Transcript against the reference (``value`` or ``expected_output``): accuracy = max(0, 1 − WER).

    It scores the app's transcript: ``trusys.transcript`` (segments joined in start order, or its text),
    else the output; ``config.source: output|transcript`` forces one. ``config.source: asr`` scores
    agentunit's own speech recognition of the recording instead (``config.asr_model``, default ``asr``) —
    a check of the recogniser, never chosen automatically. Both texts are normalised (case-folded,
    punctuation removed) and compared with jiwer: WER = (substitutions + deletions + insertions) /
    reference words, CER likewise over characters. The detail also has AgentUnit's character-set
    precision and recall. ``use_wer=False`` scores 1 − CER instead. Default threshold 0.8. No transcript:
    not measured.
    """

    def __init__(self, value: Any = None, *, use_wer: bool = True, **base: Any):
        super().__init__(value, config=keyword_config({"use_wer": use_wer}, base), **base)

    def setup(self) -> None:
        self.source = self.config.get("source", "auto")
        if self.source not in ("auto", "output", "transcript", "asr"):
            raise MetricConfigError(f"config.source must be auto, output, transcript or asr, got {self.source!r}")
        self.use_wer = bool(self.config.get("use_wer", True))
        self.asr_model = _asr_model(self.config)
        self.options = call_options(self.config)

    def evaluate(self, case, trace, outcome) -> MetricResult:
        reference = self.expected(case)
        if not isinstance(reference, str):
            return self.not_measured(f"the reference transcript must be text, got {type(reference).__name__}")
        asr: dict[str, Any] = {}
        if self.source == "asr":
            found = call_transcript(case, outcome, self.options, "asr", self.asr_model)
            if isinstance(found, str):
                return self.not_measured(found)
            text = " ".join(seg["text"] for seg in found.segments).strip() or None
            where, asr = found.source, {"asr_model": found.asr_model, "asr_seconds": found.asr_seconds}
        else:
            text, where = transcript_text(outcome, self.source)
        if text is None:
            return self.not_measured(f"no transcript ({where} is empty): this metric scores the app's transcript — "
                                     "return it in the output or trusys.transcript (config.source: asr scores "
                                     "agentunit's speech recognition of the recording instead)")
        rates = error_rates(reference, text)
        ref_chars, hyp_chars = set(normalise(reference)), set(normalise(text))
        common = len(ref_chars & hyp_chars)
        accuracy = max(0.0, 1.0 - rates["wer"])
        value = accuracy if self.use_wer else max(0.0, 1.0 - rates["cer"])
        detail = {"wer": round(rates["wer"], 4), "cer": round(rates["cer"], 4), "accuracy": round(accuracy, 4),
                  "char_precision": round(common / len(hyp_chars), 4) if hyp_chars else 0.0,
                  "char_recall": round(common / len(ref_chars), 4) if ref_chars else 0.0,
                  **{k: rates[k] for k in ("substitutions", "deletions", "insertions", "reference_words")},
                  "transcript_source": where, "scored_by": "1 - WER" if self.use_wer else "1 - CER", **asr}
        return self.result(round(value, 4), detail=detail,
                           reason=f"WER {rates['wer']:.3f}, CER {rates['cer']:.3f} ({where} vs the reference)")
